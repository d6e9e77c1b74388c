"""Layout validators that need no travel: ``checkpoint-mix``, ``field-orbit``, ``symmetry``."""

from __future__ import annotations

import math
import string
from typing import Any

from schema.model import Arena
from validators.gravstrike.common import arena_centre
from validators.findings import Finding, Result
from validators.symmetry import KindIndex
from validators.symmetry import signatures as _signatures
from validators.symmetry import transforms as _transforms


class CheckpointMixValidator:
    id = "checkpoint-mix"
    title = "A variety of outlying checkpoints, one or two central ones"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False

    def evaluate(self, arena: Arena, context: Any) -> Result:
        outlying = [c for c in arena.checkpoints if c.kind == "outlying"]
        central = [c for c in arena.checkpoints if c.kind == "central"]
        out = []
        if len(outlying) < 3:
            out.append(Finding(self.id, "warning", f"only {len(outlying)} outlying checkpoint(s); the book advises a variety "
                               "(at least 3) so routes differ — add outlying checkpoints", tuple(c.id for c in outlying),
                               {"outlying": len(outlying)}))
        if len(central) not in (1, 2):
            advice = "add one in the middle" if not central else "keep one or two and make the others outlying"
            out.append(Finding(self.id, "warning", f"{len(central)} central checkpoints; the book advises one or two — {advice}",
                               tuple(c.id for c in central), {"central": len(central)}))
        for group, first in ((outlying, "A"), (central, "M")):
            start = string.ascii_uppercase.index(first)
            expected = list(string.ascii_uppercase[start:start + len(group)])
            actual = [c.id for c in group]
            if sorted(actual) != expected:
                kind = group[0].kind if group else ""
                out.append(Finding(self.id, "info", f"{kind} checkpoints are named {', '.join(actual)}; the book letters them "
                                   f"{', '.join(expected)} (outlying from A, central from M)", tuple(actual)))
        return Result(out, {"checkpoints": {"outlying": len(outlying), "central": len(central)}})


class FieldOrbitValidator:
    """Signed torque of each push about the arena centre: +1 counter-clockwise, -1 clockwise."""

    id = "field-orbit"
    title = "Acceleration fields do not all push one way around"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False
    #: |sin| of the angle between the radius and the push below which a push is radial, not turning.
    RADIAL = 0.25

    def evaluate(self, arena: Arena, context: Any) -> Result:
        cx, cy = arena_centre(arena)
        torques: dict[str, float] = {}
        for f in arena.acceleration_fields:
            c = f.shape.to_shapely().centroid
            rx, ry = c.x - cx, c.y - cy
            r = math.hypot(rx, ry)
            if r < 1e-9:
                torques[f.id] = 0.0
                continue
            d = math.radians(f.direction)
            torques[f.id] = round((rx * math.sin(d) - ry * math.cos(d)) / r, 4)
        turning = {k: v for k, v in torques.items() if abs(v) >= self.RADIAL}
        total = sum(abs(v) for v in torques.values())
        balance = abs(sum(torques.values())) / total if total > 0 else 0.0
        metrics = {"field_torque": torques, "orbit_balance": round(balance, 3)}
        out = []
        if len(turning) >= 2 and (all(v > 0 for v in turning.values()) or all(v < 0 for v in turning.values())):
            way = "counter-clockwise" if next(iter(turning.values())) > 0 else "clockwise"
            out.append(Finding(self.id, "warning", f"all {len(turning)} turning acceleration fields push {way} around the arena, "
                               "so turbines will orbit one way and meet less; reverse some directions or mirror them in pairs",
                               tuple(turning), {"orbit_balance": round(balance, 3)}))
        return Result(out, metrics)


class SymmetryValidator:
    id = "symmetry"
    title = "Declared symmetry is respected"
    severity = "info"
    games = ("gravstrike",)
    needs_travel = False
    TOL = 0.05

    def evaluate(self, arena: Arena, context: Any) -> Result:
        sym = arena.symmetry
        if sym is None:
            return Result()
        transforms = _transforms(sym.kind, sym.order, sym.axis)
        cx, cy = sym.center
        out = []
        checked = 0
        indexes = {kind: KindIndex(items) for kind, items in _signatures(arena).items()}
        for name, fn, is_mirror in transforms:
            for kind, index in indexes.items():
                for ident, match in zip(index.ids, index.match_all(fn, (cx, cy), is_mirror, self.TOL)):
                    checked += 1
                    if match is None:
                        out.append(Finding(self.id, "info", f"{kind} {ident} has no counterpart under {name}: the arena is "
                                           f"declared {sym.kind} (order {sym.order}) but this element breaks it", (ident,)))
        return Result(out, {"symmetry": {"kind": sym.kind, "order": sym.order, "checked": checked, "broken": len(out)}})
