"""Layout validators that need no travel: ``checkpoint-mix``, ``field-orbit``, ``field-cancel``, ``symmetry``."""

from __future__ import annotations

import math
import string
from typing import Any

from engine.gravstrike.variants import gates_in_play, switched_off
from schema.games.gravstrike.model import Arena
from validators.games.gravstrike.common import arena_centre
from validators.findings import Finding, Result
from engine.gravstrike.invariance import KindIndex
from engine.gravstrike.invariance import signatures as _signatures
from engine.gravstrike.invariance import transforms as _transforms


class CheckpointMixValidator:
    """The book's advice on checkpoints ("Custom Arenas"), counting the gates in play with the
    checkpoints of their kind (they score as those do); the lettering advice is the checkpoints'."""

    id = "checkpoint-mix"
    title = "A variety of outlying checkpoints, one or two central ones"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False

    def evaluate(self, arena: Arena, context: Any) -> Result:
        gates = gates_in_play(arena)
        out = []
        counts: dict[str, Any] = {}
        in_play: dict[str, int] = {}
        for kind, first in (("outlying", "A"), ("central", "M")):
            cps = [c.id for c in arena.checkpoints if c.kind == kind]
            gs = [g.id for g in gates if g.kind == kind]
            n = counts[kind] = len(cps) + len(gs)
            note = ""
            if gs:
                in_play[kind] = len(gs)
                note = f" ({len(gs)} of them {'a gate' if len(gs) == 1 else 'gates'}, scored as {kind} checkpoints)"
            if kind == "outlying" and n < 3:
                out.append(Finding(self.id, "warning", f"only {n} outlying checkpoint(s){note}; the book advises a variety "
                                   "(at least 3) so routes differ — add outlying checkpoints", tuple(cps + gs),
                                   {"outlying": n}))
            if kind == "central" and n not in (1, 2):
                advice = "add one in the middle" if not n else "keep one or two and make the others outlying"
                out.append(Finding(self.id, "warning", f"{n} central checkpoints{note}; the book advises one or two — "
                                   f"{advice}", tuple(cps + gs), {"central": n}))
            start = string.ascii_uppercase.index(first)
            expected = list(string.ascii_uppercase[start:start + len(cps)])
            if sorted(cps) != expected:
                out.append(Finding(self.id, "info", f"{kind} checkpoints are named {', '.join(cps)}; the book letters them "
                                   f"{', '.join(expected)} (outlying from A, central from M)", tuple(cps)))
        if in_play:  # the counts above include them
            counts["gates"] = in_play
        return Result(out, {"checkpoints": counts})


class ScenarioVariantsValidator:
    """Elements marked for a scoring variant the scenario switches off ("Scoring Variants"):
    the marks count for nothing in play (:mod:`engine.gravstrike.variants`), which the designer
    can't see on the map."""

    id = "scenario-variants"
    title = "Elements use only the scoring variants the scenario plays"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False

    #: What a mark comes to with its variant off, and the way out besides switching it on.
    EFFECT = {"gates": ("not scored, and left out of the travel analysis", "remove the gates"),
              "decaying_checkpoints": ("scored like ordinary checkpoints", "clear the mark"),
              "small_targets": ("shot without the modifier", "set the modifier to 0"),
              "resilient_targets": ("destroyed by 1 damage", "set the capacity to 1"),
              "exploding_targets": ("destroyed without exploding", "clear the mark")}

    def evaluate(self, arena: Arena, context: Any) -> Result:
        out = []
        for use in switched_off(arena):
            many = len(use.elements) > 1
            effect, other = self.EFFECT[use.variant]
            out.append(Finding(
                self.id, "warning",
                f"{use.kind}{'s' if many else ''} {', '.join(use.elements)}{f' ({use.mark})' if use.mark else ''} in an "
                "arena whose scenario "
                f"switches the {use.variant} variant off: {effect} — switch scenario.variants.{use.variant} on or "
                f"{other}", use.elements, {"variant": use.variant}))
        return Result(out)


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


class FieldCancelValidator:
    """Overlapping acceleration fields whose pushes (nearly) undo each other.

    Book ("Acceleration Fields"): a turbine that ends a length of movement touching a field's
    central activation area is moved one length the way the field points, and a given field
    affects a given turbine once per turn.  A turbine ending a length where two fields overlap is
    pushed by both, one after the other: two unit pushes at angle θ add up to 2·cos(θ/2)
    lengths, which is less than the one length either field alone gives once θ exceeds 120°
    (:attr:`CANCEL_ANGLE`; at 180° the turbine ends where it began).  Such a stack is a place
    where the fields cancel - typically a field duplicated onto itself pointing the other way."""

    id = "field-cancel"
    title = "Overlapping acceleration fields do not cancel"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False
    #: Degrees between two overlapping fields' directions beyond which their pushes add up to
    #: less than one field's (2·cos(θ/2) < 1); see docs/rules-decisions.md.
    CANCEL_ANGLE = 120.0
    #: Overlap (square lengths) below which two fields only touch.
    MIN_OVERLAP = 1e-6

    def evaluate(self, arena: Arena, context: Any) -> Result:
        fields = [(f, f.shape.to_shapely()) for f in arena.acceleration_fields]
        out = []
        pairs = []
        for i, (a, sa) in enumerate(fields):
            for b, sb in fields[i + 1:]:
                turn = abs((a.direction - b.direction + 180.0) % 360.0 - 180.0)
                if turn <= self.CANCEL_ANGLE or sa.intersection(sb).area <= self.MIN_OVERLAP:
                    continue
                net = 2.0 * math.cos(math.radians(turn) / 2.0)
                pairs.append([a.id, b.id])
                out.append(Finding(
                    self.id, "warning",
                    f"acceleration fields {a.id} ({a.direction:g}°) and {b.id} ({b.direction:g}°) overlap and push "
                    f"{turn:g}° apart: a turbine ending a length on both is pushed one length each way, "
                    f"{net:.2f} length(s) in all - less than either field alone (\"moved one length in the direction "
                    "the field points\") — move one off the other or point them the same way",
                    (a.id, b.id), {"angle": round(turn, 3), "net_push": round(net, 3)}))
        return Result(out, {"cancelling_fields": pairs})


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
