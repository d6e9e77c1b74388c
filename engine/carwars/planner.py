"""The Car Wars travel planner: the least time from a source to goals, with the driving-roll
dice rolled on the way, under a policy:

* ``flat-out``: every maneuver (slides, turns through D1-D4) and hard acceleration / braking;
* ``safe``: only low-risk moves (straight, slight turns) and speed changes of 1, so the only
  dice are those of the terrain and hazards the car drives over.

Plans minimise, in order, the time (turns; a goal reached at point ``k`` of turn ``t`` at speed
``s`` takes ``t - 1 + k/s``, so the fewest turns first), the dice rolled on the way, and the hard
speed changes.  Plans never collide (collisions are checked continuously along every point).
The search is an exact A* over (pose, speed, points moved this turn) with a consistent lower
bound (:mod:`engine.carwars.heuristic`); states are merged only when their positions agree
within ``quantum`` inches (headings are exact: a source heading plus multiples of the zone
angle).  Every search is bounded (:class:`SearchLimits`, ``max_turns``) and answers
``undecided`` or ``beyond`` rather than running away.

>>> from schema.games.carwars import default_arena
>>> r = Planner(default_arena()).plan(StartSource(1), Goal("centre"))
>>> r.status, r.turns, r.points, r.speed, r.time, r.dice, r.hard   # hard acceleration to 4, then 5
('reached', 2, 1, 5, 1.2, 0, 1)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from engine import budget as caps
from engine.budget import AnalysisStopped
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.heuristic import DiceFloor, Distances, GoalShape, IntArray, TimeBound
from engine.carwars.motion import Pose, local_end, normalize
from engine.carwars.rules import (
    MAX_SPEED,
    REVERSE,
    START_SPEED,
    Policy,
    generate_maneuvers,
    generate_speed_changes,
    heading_step,
    zone_dice,
)
from engine.carwars.travel import (
    Goal,
    PlanningError,
    PoseSource,
    SearchLimits,
    Source,
    StartSource,
    UNITS,
    TravelResult,
)
from engine.carwars.search import Search
from schema.games.carwars import CarWarsArena


class Planner:
    """Plans travel on one arena for one policy; reusable for many sources and goals.

    ``max_speed``: the car's top speed (5 undamaged); ``steps_per_zone``: pivot angles tried per
    turning-key zone; ``reverse``: allow driving in reverse at speed 0; ``max_turns``: the
    horizon (default the scenario's); ``quantum``: position tolerance for merging states."""

    def __init__(self, arena: CarWarsArena, policy: Policy = "flat-out", *, geometry: CarWarsGeometry | None = None,
                 max_speed: int = MAX_SPEED, steps_per_zone: int = 1, reverse: bool = True,
                 max_turns: int | None = None, limits: SearchLimits = SearchLimits(), quantum: float = 1e-3) -> None:
        if policy not in ("safe", "flat-out"):
            raise PlanningError(f"policy is 'safe' or 'flat-out', not {policy!r}")
        self.arena = arena
        self.policy: Policy = policy
        self.geometry = geometry if geometry is not None else CarWarsGeometry(arena)
        self.max_speed = max(1, min(MAX_SPEED, max_speed))
        self.reverse = reverse
        self.max_turns = max_turns if max_turns is not None else arena.scenario.analysis.max_turns
        self.limits = limits
        self.quantum = quantum
        self.maneuvers = generate_maneuvers(arena.turning_key, policy, steps_per_zone)
        self.step = heading_step(self.maneuvers)
        self.headings = max(1, round(360.0 / self.step))
        v, key = arena.vehicle, arena.turning_key
        ends = [local_end(m, v, key) for m in self.maneuvers]
        self.dx = np.array([e[0] for e in ends])
        self.dy = np.array([e[1] for e in ends])
        self.dh = np.array([e[2] for e in ends])
        self.is_man = np.array([m.is_maneuver for m in self.maneuvers])
        self.zdice = np.array([zone_dice(m.zone, key) if m.kind == "turn" else 0 for m in self.maneuvers], dtype=np.int64)
        self.bound = TimeBound(self.max_speed, 2 if policy == "flat-out" else 1)
        #: The least maneuvers the turning and distance to a goal need (None: nothing rolls).
        self.dice_floor = DiceFloor(ends, [m.is_maneuver for m in self.maneuvers], self.step) if (
            self.is_man.any()) else None
        opts = [generate_speed_changes(sp, policy, self.max_speed, reverse) for sp in range(REVERSE, MAX_SPEED + 1)]
        count = np.array([len(o) for o in opts], dtype=np.int64)
        self.speed_options = (np.concatenate([[0], np.cumsum(count)[:-1]]), count,
                              np.array([c.speed for o in opts for c in o], dtype=np.int64),
                              np.array([int(c.hard) for o in opts for c in o], dtype=np.int64))
        self.distances = Distances(self.geometry, self.maneuvers)
        self._choices: dict[tuple[int, int, int], tuple[IntArray, IntArray]] = {}
        minx, miny, maxx, maxy = self.geometry.bounds.bounds
        if max(maxx - minx, maxy - miny) / quantum >= (1 << 20):
            raise PlanningError("the arena is too large for the planner's position grid")
        self.x0, self.y0 = minx - 10.0, miny - 10.0

    # -- the dice floor's speed choices -----------------------------------------------------------
    def floor_options(self, speed: IntArray, base: IntArray, budget: IntArray) -> tuple[IntArray, IntArray]:
        """For :meth:`~engine.carwars.search.Search.dice_floor`: per state at ``speed`` with
        ``base`` points of this turn still to move by its time bound, which is ``budget`` time
        units after this turn ends (negative: within it), the point counts a forward plan may
        have moved by then (one per choice of the next two turns' speeds; after those, the
        fastest ramp) and, per choice, the least dice ``r`` of its maneuvers roll (the speed of
        each point's turn, at least 1 past two turns): arrays (states, choices) and (states,
        choices, points + 2)."""
        n_max = self.dice_floor.n_max if self.dice_floor is not None else 0
        code = (speed * 8 + base) * (1 << 20) + np.maximum(budget + 1, 0)
        keys, inv = np.unique(code, return_inverse=True)
        got = [self._floor_choice(int(c) // (1 << 20) // 8, int(c) // (1 << 20) % 8, int(c) % (1 << 20) - 1, n_max)
               for c in keys.tolist()]
        most = max(len(g[0]) for g in got)
        n = np.empty((len(keys), most), dtype=np.int64)
        cost = np.empty((len(keys), most, n_max + 2), dtype=np.int64)
        for i, (cn, cc) in enumerate(got):
            n[i, :len(cn)], n[i, len(cn):] = cn, cn[0]
            cost[i, :len(cn)], cost[i, len(cn):] = cc, cc[0]
        return n[inv.ravel()], cost[inv.ravel()]

    def _floor_choice(self, speed: int, base: int, budget: int, n_max: int) -> tuple[IntArray, IntArray]:
        key = (speed, base, budget)
        got = self._choices.get(key)
        if got is not None:
            return got

        def part(sp: int, x: int) -> int:  # points of a turn at sp ending within x units of its start
            return sum(1 for j in range(1, sp + 1) if j * UNITS // sp <= x)

        def legal(sp: int) -> list[int]:
            return [c.speed for c in generate_speed_changes(sp, self.policy, self.max_speed, False)]

        seqs: list[list[int]] = []
        if budget < 0:
            seqs.append([speed] * base)
        elif budget < UNITS:
            seqs += [[speed] * base + [s1] * part(s1, budget) for s1 in legal(speed)]
        elif budget < 2 * UNITS:
            seqs += [[speed] * base + [s1] * s1 + [s2] * part(s2, budget - UNITS)
                     for s1 in legal(speed) for s2 in legal(s1)]
        else:
            row = self.bound.table[speed]
            later = int(np.searchsorted(row, budget, side="right")) - 1 + (
                (budget - int(row[-1])) * self.bound.max_speed // UNITS + 1 if budget > row[-1] else 0)
            seqs.append([speed] * base + [1] * min(later, n_max + 1))
        rows: list[tuple[int, list[int]]] = []
        for seq in seqs:
            c = sorted(seq)
            prefix = [0]
            for v in c[: n_max + 1]:
                prefix.append(prefix[-1] + v)
            prefix += [prefix[-1]] * (n_max + 2 - len(prefix))
            rows.append((len(seq), prefix))
        # a choice with no more points and no cheaper r-th point than another is not needed
        def beaten(i: int) -> bool:
            n, c = rows[i]
            top = min(n, n_max + 1)
            return any(j != i and m >= n and all(d[r] <= c[r] for r in range(top + 1)) and ((m, d) != (n, c) or j < i)
                       for j, (m, d) in enumerate(rows))

        keep = [i for i in range(len(rows)) if not beaten(i)]
        out = (np.array([rows[i][0] for i in keep], dtype=np.int64), np.array([rows[i][1] for i in keep], dtype=np.int64))
        self._choices[key] = out
        return out

    # -- goals and sources ----------------------------------------------------------------------
    def goals(self) -> list[Goal]:
        """Every goal of the arena: the numbered cards, the centre, the starts."""
        return ([Goal("card", c.id) for c in self.arena.cards] + [Goal("centre")]
                + [Goal("start", s.id) for s in self.arena.start_positions])

    def goal_shape(self, goal: Goal) -> GoalShape:
        a = self.arena
        if goal.kind == "card":
            try:
                c = a.card(goal.id)
            except KeyError:
                raise PlanningError(f"the arena has no card {goal.id!r}") from None
            return GoalShape(c.position[0], c.position[1], c.size[0] / 2.0, c.size[1] / 2.0, c.rotation)
        if goal.kind == "centre":
            cx, cy = a.centre()
            return GoalShape(cx, cy, 0.0, 0.0)
        for s in a.start_positions:
            if s.id == goal.id:
                return GoalShape(s.position[0], s.position[1], a.vehicle.length / 2.0, a.vehicle.width / 2.0, s.facing)
        raise PlanningError(f"the arena has no start {goal.id!r}")

    def source_state(self, source: Source) -> tuple[Pose, int]:
        if isinstance(source, StartSource):
            try:
                st = self.arena.start(source.player)
            except KeyError:
                raise PlanningError(f"the arena has no start:{source.player}") from None
            pose, speed = Pose(st.position[0], st.position[1], normalize(st.facing)), START_SPEED
        else:
            pose, speed = Pose(source.pose.x, source.pose.y, normalize(source.pose.heading)), source.speed
        if not -1 <= speed <= self.max_speed:
            raise PlanningError(f"speed {speed} is outside -1..{self.max_speed}")
        from engine.carwars.motion import car_outline

        hit = self.geometry.overlaps_blockers(car_outline(pose, self.arena.vehicle))
        if hit:
            raise PlanningError(f"the car at the source overlaps {', '.join(hit)}")
        return pose, speed

    # -- the search ------------------------------------------------------------------------------
    def plan(self, source: Source, goal: Goal) -> TravelResult:
        return self.plan_many(source, [goal])[goal]

    def plan_many(self, source: Source, goals: Sequence[Goal]) -> dict[Goal, TravelResult]:
        """One search answering every goal in ``goals`` (``undecided`` for all, at once, when the
        analysis's caps are reached: :mod:`engine.budget`)."""
        pose, speed = self.source_state(source)
        shapes = {g: self.goal_shape(g) for g in goals}
        try:
            cap = caps.exceeded()
            if cap is None:
                return Search(self, pose, speed, shapes).run()
        except AnalysisStopped as exc:
            cap = exc.reason
        return {g: TravelResult(g, "undecided", horizon=0.0, undecided=cap) for g in goals}


def plan(arena: CarWarsArena, source: Source, goal: Goal, policy: Policy = "flat-out", **params: object) -> TravelResult:
    """The least-time plan from ``source`` to ``goal`` (see :class:`Planner` for ``params``)."""
    return Planner(arena, policy, **params).plan(source, goal)  # type: ignore[arg-type]


def plan_many(arena: CarWarsArena, source: Source, goals: Sequence[Goal], policy: Policy = "flat-out",
              **params: object) -> dict[Goal, TravelResult]:
    return Planner(arena, policy, **params).plan_many(source, goals)  # type: ignore[arg-type]


__all__ = ["Goal", "Planner", "PoseSource", "SearchLimits", "StartSource", "TravelResult", "plan", "plan_many"]
