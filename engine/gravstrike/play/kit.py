"""What every game on one arena shares, made once per arena and process: the prepared geometry,
sight blockers, one travel planner per set of active exclusion fields, and the planner's answers
(least-time plans from a pose to one objective, with the horizon they were searched to).

The planner is the travel analysis's (``arena travel``: tolerance 0.25, least time), so a plan a
turbine follows here is the plan ``arena travel --from x,y,heading,speed --to goal`` prints.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engine.blockers import Blockers
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.heuristic import DistanceMap
from engine.gravstrike.motion import Pose
from engine.gravstrike.planner import Goal, Planner, PoseSource, TravelResult
from engine.gravstrike.variants import as_played, gates_in_play
from schema.games.gravstrike.model import Arena, Checkpoint, Gate, StaticTarget

#: ``arena travel``'s position tolerance (its default ``--tolerance``).
TRAVEL_TOLERANCE = 0.25
#: Horizons (turns) a nearest-objective query searches to, in turn: a goal reached within one
#: horizon is settled exactly (the search to a horizon prunes only what lies beyond it).
HORIZONS = (1.0, 2.0, 4.0, 8.0, 16.0)
#: Plans kept per arena (least recently used dropped first).
PLAN_CACHE = 50_000
#: Arenas whose kits a process keeps.
KITS = 4


@dataclass(frozen=True)
class Objective:
    """A checkpoint or a scoring gate as the play engine races for it."""

    id: str
    goal: Goal
    element: Checkpoint | Gate


class Kit:
    """One arena's shared tables (see the module docstring)."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.geometry = ArenaGeometry(arena)
        g = self.geometry
        self.blockers = Blockers.of(*[w for _, w in g.walls], bounds=g.bounds)
        self.objectives: tuple[Objective, ...] = tuple(
            [Objective(c.id, Goal("checkpoint", c.id), c) for c in arena.checkpoints]
            + [Objective(x.id, Goal("gate", x.id), x) for x in gates_in_play(arena)])
        self.by_id = {o.id: o for o in self.objectives}
        self.targets: tuple[StaticTarget, ...] = tuple(as_played(t, arena.scenario.variants)
                                                       for t in arena.static_targets)
        self._planners: dict[tuple[str, ...], Planner] = {}
        self._plans: OrderedDict[tuple[Any, ...], TravelResult] = OrderedDict()

    def planner(self, tier: int) -> Planner:
        """The planner of ``tier`` (shared by the tiers with the same active exclusion fields)."""
        key = tuple(z.id for z in self.geometry.active_exclusions(tier))
        p = self._planners.get(key)
        if p is None:
            p = self._planners[key] = Planner(self.arena, self.geometry, tier=tier, quantum=TRAVEL_TOLERANCE,
                                              minimise="time")
            p.keep_graph = True
        return p

    def distance(self, tier: int, goal: Goal) -> DistanceMap:
        """The planner's distance map of ``goal`` (a lower bound on the paid distance to it)."""
        return self.planner(tier).distance_maps([goal])[0]

    def plan(self, tier: int, pose: Pose, speed: int, goal: Goal, horizon: float) -> tuple[TravelResult, bool]:
        """The least-time plan from ``pose`` at ``speed`` to ``goal`` searched to ``horizon`` turns,
        and whether it was searched now (False: from the cache; the caller counts the query as
        work either way, so that work, like the record, does not depend on what was cached)."""
        key = (tier, round(pose.x, 9), round(pose.y, 9), round(pose.heading, 6), speed, goal, horizon)
        got = self._plans.get(key)
        if got is not None:
            self._plans.move_to_end(key)
            return got, False
        planner = self.planner(tier)
        result = planner.plan_from(PoseSource(pose, speed), [goal], max_time=horizon)[goal]
        self._plans[key] = result
        if len(self._plans) > PLAN_CACHE:
            self._plans.popitem(last=False)
        return result, True

    def nearest(self, tier: int, pose: Pose, speed: int, goals: list[Goal],
                count: list[int]) -> list[TravelResult]:
        """Every goal reached within the first horizon of :data:`HORIZONS` that reaches any, least
        time first (ties in the order given); empty when none is reached within the last.  Each
        query adds 1 to ``count[0]``."""
        for horizon in HORIZONS:
            reached = []
            for goal in goals:
                r, _ = self.plan(tier, pose, speed, goal, horizon)
                count[0] += 1  # a query is work whether or not the cache answers it (work is pure)
                if r.reachable:
                    reached.append(r)
            if reached:
                order = {g: i for i, g in enumerate(goals)}
                return sorted(reached, key=lambda r: (round(r.time, 9), order[r.goal]))
        return []


_KITS: OrderedDict[str, Kit] = OrderedDict()
_BY_ID: dict[int, tuple[Arena, str]] = {}


def arena_key(arena: Arena) -> str:
    """A digest of everything in the arena (its repr)."""
    return hashlib.sha256(repr(arena).encode()).hexdigest()


def kit_for(arena: Arena) -> Kit:
    """The arena's kit, made on first use and kept for the next games (keyed on the arena's
    content, so an equal arena loaded again shares it)."""
    seen = _BY_ID.get(id(arena))
    key = seen[1] if seen is not None and seen[0] is arena else arena_key(arena)
    kit = _KITS.get(key)
    if kit is None:
        kit = _KITS[key] = Kit(arena)
        while len(_KITS) > KITS:
            _KITS.popitem(last=False)
    else:
        _KITS.move_to_end(key)
    if len(_BY_ID) > 64:
        _BY_ID.clear()
    _BY_ID[id(arena)] = (arena, key)
    return kit


def centre_distance(a: Pose, b: Pose) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)
