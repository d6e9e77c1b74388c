"""Placement validators: ``bounds``, ``overlap`` and ``exclusion-placement``."""

from __future__ import annotations

from typing import Any

import shapely

from schema.games.gravstrike.model import Arena, Wall
from validators.games.gravstrike.common import element_geometry, start_footprint
from validators.findings import Finding, Result

TOL = 1e-6


class BoundsValidator:
    id = "bounds"
    title = "Elements inside the arena"
    severity = "error"
    games = ("gravstrike",)
    needs_travel = False

    def evaluate(self, arena: Arena, context: Any) -> Result:
        bounds = arena.bounds_geometry()
        inside = bounds.buffer(TOL)
        out = []
        for el in arena.elements():
            geom = element_geometry(arena, el)
            if isinstance(el, Wall):
                if not geom.intersects(bounds):
                    out.append(Finding(self.id, "error", f"wall {el.id} lies entirely outside the arena bounds; move it in or delete it", (el.id,)))
                continue
            if not inside.covers(geom):
                outside = geom.difference(bounds)
                share = outside.area / geom.area if geom.area > 0 else 1.0
                what = _describe(el.id)
                msg = f"{what} is outside the arena bounds"
                if geom.area > 0:
                    msg += f" ({share:.0%} of it)"
                msg += "; move it inside or enlarge the bounds"
                out.append(Finding(self.id, "error", msg, (el.id,), {"outside_share": round(share, 3)}))
        return Result(out)


class OverlapValidator:
    id = "overlap"
    title = "Start positions and checkpoints clear of walls"
    severity = "error"
    games = ("gravstrike",)
    needs_travel = False

    def evaluate(self, arena: Arena, context: Any) -> Result:
        walls = arena.walls_geometry() if arena.walls else shapely.Polygon()
        out = []
        starts = [(s, start_footprint(arena, s)) for s in arena.start_positions]
        for i, (s, fp) in enumerate(starts):
            hit = fp.intersection(walls).area if arena.walls else 0.0
            if hit > TOL:
                names = [w.id for w in arena.walls if w.shape.to_shapely().intersection(fp).area > TOL]
                out.append(Finding(self.id, "error", f"start {s.player}'s turbine footprint overlaps wall {', '.join(names)}; "
                                   "move the start or turn it so the turbine fits", (s.id, *names)))
            for t, other in starts[i + 1:]:
                if fp.intersection(other).area > TOL:
                    out.append(Finding(self.id, "error", f"starts {s.player} and {t.player} overlap; move them at least a "
                                       "turbine apart", (s.id, t.id)))
        for c in arena.checkpoints:
            if not arena.walls:
                break
            geom = c.shape.to_shapely()
            if geom.difference(walls).area <= TOL * max(1.0, geom.area):
                out.append(Finding(self.id, "error", f"checkpoint {c.id} is entirely covered by walls and can never be "
                                   "touched; move it into open ground", (c.id,)))
                continue
            covered = geom.intersection(walls).area
            if covered > TOL * max(1.0, geom.area):
                # "Checkpoints": a turbine scores one by ending a length on it - never on the part
                # under a wall, so the checkpoint is smaller than it is drawn
                names = [w.id for w in arena.walls if w.shape.to_shapely().intersection(geom).area > TOL]
                share = covered / geom.area
                out.append(Finding(
                    self.id, "warning",
                    f"checkpoint {c.id} is {share:.0%} covered by wall {', '.join(names)}: no turbine can end a length "
                    "on that part, so it scores smaller than it is drawn; move it clear of the wall or move the wall",
                    (c.id, *names), {"covered_share": round(share, 3)}))
        for target in arena.static_targets:
            if arena.walls and walls.contains(target.to_shapely()):
                out.append(Finding(self.id, "error", f"static target {target.id} stands inside a wall", (target.id,)))
        return Result(out)


class ExclusionPlacementValidator:
    id = "exclusion-placement"
    title = "Starts and checkpoints outside exclusion fields"
    severity = "warning"
    games = ("gravstrike",)
    needs_travel = False

    def evaluate(self, arena: Arena, context: Any) -> Result:
        out = []
        for x in arena.exclusion_fields:
            area = x.shape.to_shapely()
            for s in arena.start_positions:
                if start_footprint(arena, s).intersection(area).area > TOL:
                    if x.active_from_tier <= 1:
                        out.append(Finding(self.id, "error", f"start {s.player} is inside exclusion field {x.id}, which is "
                                           "always active: the turbine is damaged before it moves; move the start out",
                                           (s.id, x.id), {"tier": x.active_from_tier}))
                    else:
                        out.append(Finding(self.id, "warning", f"start {s.player} is inside exclusion field {x.id}, active from "
                                           f"tier {x.active_from_tier}: a turbine respawning there is damaged; move the start "
                                           "or the field", (s.id, x.id), {"tier": x.active_from_tier}))
            for c in arena.checkpoints:
                if c.shape.to_shapely().intersection(area).area > TOL:
                    out.append(Finding(self.id, "info", f"checkpoint {c.id} lies in exclusion field {x.id}; from tier "
                                       f"{x.active_from_tier} scoring it costs damage", (c.id, x.id), {"tier": x.active_from_tier}))
        return Result(out)


def _describe(ref: str) -> str:
    return f"start {ref.split(':')[1]}" if ref.startswith("start:") else ref
