"""Moving a planner to a new version of its arena in which only goals moved.

Checkpoints, start positions, static targets and gates don't change how a turbine moves (they
score; walls, fields, exclusion fields, bounds and the turbine do), so a planner's configuration
space and distance grid stay valid when only they move: their regions are swapped in place and
searches already run can be resumed for them (:meth:`engine.gravstrike.frontier.FrontierSearch.resume`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from engine.gravstrike.cspace import ZoneSpec
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.travel_types import Goal
from schema.games.gravstrike.model import Arena

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.planner import Planner


def retarget(planner: Planner, arena: Arena) -> set[Goal] | None:
    """See :meth:`engine.gravstrike.planner.Planner.retarget`."""
    new = ArenaGeometry(arena)
    old = planner.geometry
    if not (planner.arena.turbine == arena.turbine and old.bounds.equals_exact(new.bounds, 0.0)
            and _same_zones(old.walls, new.walls) and old.wall_circles == new.wall_circles
            and _same_zones(old.fields, new.fields)
            and _same_zones(old.exclusions, new.exclusions)):
        return None
    if [g.id for g in arena.gates] != [g.id for g in planner.arena.gates]:
        return None
    changed: set[Goal] = set()
    cells = [np.zeros(0, dtype=np.int64)]
    pairs = (("checkpoint", old.checkpoints, new.checkpoints), ("start", old.starts, new.starts),
             ("target", old.targets, new.targets))
    for kind, before, after in pairs:
        if [z.id for z in before] != [z.id for z in after]:
            return None
    for kind, before, after in pairs:
        for zb, za in zip(before, after):
            if not zb.geometry.equals_exact(za.geometry, 0.0) or zb.circle != za.circle:  # (a circle is tested exactly)
                goal = Goal(kind, za.id)  # type: ignore[arg-type]
                changed.add(goal)
                cells.append(planner.cspace.replace_zone(planner.goal_zone[goal], ZoneSpec(kind, za.id, za.geometry, circle=za.circle)))
                planner._maps.pop(goal, None)
    for gid, a, b, one in new.gates:
        goal = Goal("gate", gid)
        if planner.gates[goal] != (a, b, one):
            changed.add(goal)
            planner.gates[goal] = (a, b, one)
            planner._maps.pop(goal, None)
    planner.arena, planner.geometry = arena, new
    planner._fine = None  # confirm's planner holds the old arena: made again when needed
    if changed:
        for lat in planner._lattices.values():
            lat.refresh_zones(np.unique(np.concatenate(cells)))
    return changed


def _same_zones(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Same ids, shapes and (fields) directions, (exclusions) tiers, in order."""
    if len(a) != len(b):
        return False
    for za, zb in zip(a, b):
        if isinstance(za, tuple):
            if za[0] != zb[0] or not za[1].equals_exact(zb[1], 0.0):
                return False
        elif (za.id, za.direction, za.active_from_tier, za.circle) != (zb.id, zb.direction, zb.active_from_tier, zb.circle) \
                or not za.geometry.equals_exact(zb.geometry, 0.0):
            return False
    return True
