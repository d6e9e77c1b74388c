"""The travel planner: least time for the reference turbine from a source to goals, flat out.

Time is measured in turns: a goal reached at the end of length ``l`` of turn ``t`` (1-based)
moved at speed ``s`` takes ``t - 1 + l / s``.  Among equally fast plans the planner prefers
fewer Maneuver icons, then less damage.  Plans never ram; acceleration fields push as the rules
say; exclusion fields active at the tier are either paid for (1 for entering, 2 for ending a turn
with two or more corners inside) or avoided.

The search is an exact A* over intra-turn states (pose, speed, lengths moved this turn, icons
spent this turn, fields used this turn) with time as the cost, an admissible distance/speed-ramp
bound (:mod:`engine.heuristic`), per-heading configuration-space lookups (:mod:`engine.cspace`)
and state deduplication by pose quantised to ``quantum`` lengths (headings are exact: every
heading is a source heading plus a multiple of 30 degrees).  One search serves every goal.

>>> from schema.model import Arena, Circle, Checkpoint, Rect, StartPosition
>>> arena = Arena(name="t", bounds=Rect((0.0, 0.0), (20.0, 8.0)),
...               checkpoints=(Checkpoint("A", "outlying", Circle((6.0, 0.0), 0.5)),),
...               start_positions=(StartPosition(1, (-8.0, 0.0), 0.0),))
>>> r = Planner(arena).plan(StartSource(1), Goal("checkpoint", "A"))
>>> r.turns, r.lengths, round(r.time, 3), r.icons    # speeds 2, 4, 6 then one length at 6
(4, 1, 3.167, 0)
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Sequence, Union

import numpy as np
import shapely
from shapely.geometry import Point as ShapelyPoint

from engine.cspace import CSpace, HeadingSpace, ZoneSpec
from engine.frontier import BoundTable, FrontierSearch, HeadingLattice
from engine.frontier import supported as frontier_supported
from engine.geometry import ArenaGeometry, path_crosses, shape_centre
from engine.heuristic import DistanceGrid, DistanceMap, TimeBound, combine
from engine.motion import (
    MANEUVERS,
    PIVOT_COST,
    EngineError,
    Footprint,
    Pose,
    local_displacement,
    local_path,
    max_displacement_by_cost,
    normalize_heading,
    pivot,
)
from schema.model import Arena

from engine.travel_types import (  # noqa: F401  (re-exported: the planner's public types)
    UNBOUNDED,
    CheckpointSource,
    Goal,
    GoalKind,
    PathStep,
    PlanningError,
    PoseSource,
    ReachMap,
    Source,
    StartSource,
    TravelResult,
)


@dataclass(slots=True)
class _Node:
    x: float
    y: float
    h: float
    t: int
    s: int
    l: int
    spent: int
    used: int
    time: int
    icons: int
    damage: int
    parent: _Node | None
    step: tuple[Any, ...] | None


class Planner:
    """Plans travel on one arena for the reference turbine.

    ``tier``: the tier analysed (exclusion fields active from it); ``budget``: icons per turn
    (default the turbine's, None = unlimited); ``exclusions``: ``"pay"`` or ``"avoid"``;
    ``quantum``: position tolerance for merging states; ``max_turns``: give up after this many
    turns; ``pivots``: consider pivots (k*30 degrees about a corner) in speed-0 turns.
    """

    def __init__(
        self,
        arena: Arena,
        geometry: ArenaGeometry | None = None,
        *,
        tier: int | None = None,
        budget: int | None | Literal["default"] = "default",
        exclusions: Literal["pay", "avoid"] = "pay",
        quantum: float = 0.01,
        max_turns: int = 30,
        pivots: bool = True,
        heuristic: bool = True,
        minimise: Literal["time-icons-damage", "time"] = "time-icons-damage",
        vectorised: bool = True,
    ) -> None:
        if exclusions not in ("pay", "avoid"):
            raise PlanningError(f"exclusions must be 'pay' or 'avoid', not {exclusions!r}")
        self.arena = arena
        self.geometry = geometry or ArenaGeometry(arena)
        self.turbine = arena.turbine
        self.tier = arena.scenario.analysis.tier if tier is None else tier
        self.budget = self.turbine.icons_per_turn if budget == "default" else budget
        self.exclusions = exclusions
        self.quantum = quantum
        self.max_turns = max_turns
        self.pivots = pivots
        self.use_heuristic = heuristic
        if minimise not in ("time-icons-damage", "time"):
            raise PlanningError(f"minimise must be 'time-icons-damage' or 'time', not {minimise!r}")
        self.minimise = minimise
        self.vectorised = vectorised
        self.vmax = min(6, self.turbine.max_speed)
        self.scale = math.lcm(*range(1, max(1, self.vmax) + 1))
        g = self.geometry
        active = [z for z in g.exclusions if self.tier >= z.active_from_tier]
        specs = [ZoneSpec("field", z.id, z.geometry, direction=z.direction) for z in g.fields]
        specs += [ZoneSpec("exclusion", z.id, z.geometry, overlap=True) for z in active]
        self.goal_zone: dict[Goal, int] = {}
        for kind, zones in (("checkpoint", g.checkpoints), ("start", g.starts), ("target", g.targets)):
            for z in zones:
                self.goal_zone[Goal(kind, z.id)] = len(specs)  # type: ignore[arg-type]
                specs.append(ZoneSpec(kind, z.id, z.geometry))
        self.n_fields = len(g.fields)
        self.n_excl = len(active)
        self.excl_zones = active
        self.cspace = CSpace(g, specs)
        self.gates = {Goal("gate", gid): (a, b, one) for gid, a, b, one in g.gates}
        self.timebound = TimeBound(self.turbine.speed_delta, self.vmax, self.budget, self.scale)
        disp = max_displacement_by_cost(self.turbine)
        self.reach = max(disp.values())
        self._maps: dict[Goal, DistanceMap] = {}
        self._moves: dict[float, list[tuple[float, float, float, int, str, list[tuple[float, float]], HeadingSpace]]] = {}
        self._grid: DistanceGrid | None = None
        self._pivots: dict[float, list[tuple[float, float, float, str]]] = {}
        self._lattices: dict[float, HeadingLattice] = {}
        self._bounds: BoundTable | None = None
        self._scratch: dict[str, Any] = {}

    # -- goals and sources -------------------------------------------------------------------
    def goals(self) -> list[Goal]:
        """Every goal of the arena: checkpoints, gates, starts, static targets."""
        return [*self.goal_zone.keys(), *self.gates.keys()]

    def _check_goal(self, goal: Goal) -> None:
        if goal not in self.goal_zone and goal not in self.gates:
            raise PlanningError(f"the arena has no {goal.kind} {goal.id!r}")

    def source_poses(self, source: Source) -> list[tuple[Pose, int]]:
        """(pose, speed) the search starts from."""
        a = self.arena
        if isinstance(source, StartSource):
            try:
                st = a.start(source.player)
            except KeyError:
                raise PlanningError(f"the arena has no start:{source.player}") from None
            return [(Pose(float(st.position[0]), float(st.position[1]), normalize_heading(st.facing)), 0)]
        if isinstance(source, PoseSource):
            if not 0 <= source.speed <= self.vmax:
                raise PlanningError(f"a source speed must be 0..{self.vmax}, not {source.speed}")
            p = source.pose
            return [(Pose(p.x, p.y, normalize_heading(p.heading)), source.speed)]
        for cp in a.checkpoints:
            if cp.id == source.checkpoint:
                x, y = shape_centre(cp.shape)
                return [(Pose(x, y, float(k * 30)), self.vmax) for k in range(12)]
        raise PlanningError(f"the arena has no checkpoint {source.checkpoint!r}")

    # -- precomputation ------------------------------------------------------------------------
    def _distance_grid(self) -> DistanceGrid:
        """The graph behind every goal's distance map (built once per planner)."""
        if self._grid is None:
            g = self.geometry
            t = self.turbine
            half_diag = math.hypot(t.length / 2.0, t.width / 2.0) + 1e-6
            r = min(t.length, t.width) / 2.0 - 1e-6
            walls = shapely.union_all([w for _, w in g.walls]) if g.walls else None
            fd = g.bounds.buffer(-r)
            if walls is not None:
                fd = fd.difference(walls.buffer(r))
            jumps = [
                (z.geometry.buffer(half_diag), t.length * math.cos(math.radians(z.direction)),
                 t.length * math.sin(math.radians(z.direction)))
                for z in g.fields
            ]
            self._grid = DistanceGrid(g.bounds, fd, self.reach, jumps)
        return self._grid

    def _distance_map(self, goal: Goal) -> DistanceMap:
        m = self._maps.get(goal)
        if m is not None:
            return m
        t = self.turbine
        half_diag = math.hypot(t.length / 2.0, t.width / 2.0) + 1e-6
        grid = self._distance_grid()
        if goal.kind == "gate":
            a, b, _ = self.gates[goal]
            region: Any = shapely.LineString([a, b]).buffer(1e-6)
        else:
            region = self.cspace.zones[self.goal_zone[goal]].geometry.buffer(half_diag)
        m = grid.distance_map(region)
        self._maps[goal] = m
        return m

    def _moves_for(self, heading: float) -> list[tuple[float, float, float, int, str, list[tuple[float, float]], HeadingSpace]]:
        mv = self._moves.get(heading)
        if mv is None:
            a = math.radians(heading)
            c, s = math.cos(a), math.sin(a)
            mv = []
            for m in MANEUVERS:
                lx, ly = local_displacement(m, self.turbine)
                path = [(px * c - py * s, px * s + py * c) for px, py in local_path(m, self.turbine)]
                nh = round(normalize_heading(heading + m.turn), 6) % 360.0
                mv.append((lx * c - ly * s, lx * s + ly * c, nh, m.cost, m.label, path, self.cspace.heading(nh)))
            self._moves[heading] = mv
        return mv

    def _pivots_for(self, heading: float) -> list[tuple[float, float, float, str]]:
        pv = self._pivots.get(heading)
        if pv is None:
            pv = []
            origin = Pose(0.0, 0.0, heading)
            for corner in range(4):
                for k in range(1, 12):
                    new = pivot(origin, corner, 30.0 * k, self.turbine)
                    pv.append((new.x, new.y, round(new.heading, 6) % 360.0, f"pivot {30 * k} about corner {corner}"))
            self._pivots[heading] = pv
        return pv

    def retarget(self, arena: Arena) -> set[Goal] | None:
        """Move this planner to ``arena`` when it differs only in where its goals are
        (checkpoints, start positions, static targets, gates): the configuration space and the
        distance grid stay, the moved goals' regions are replaced.  Returns the goals that moved
        (their searches can be resumed: :meth:`engine.frontier.FrontierSearch.resume`), or None
        when walls, fields, exclusion fields, bounds, turbine or the set of goals differ (build a
        new planner)."""
        new = ArenaGeometry(arena)
        old = self.geometry
        if not (self.arena.turbine == arena.turbine and old.bounds.equals_exact(new.bounds, 0.0)
                and _same_zones(old.walls, new.walls) and _same_zones(old.fields, new.fields)
                and _same_zones(old.exclusions, new.exclusions)):
            return None
        if [g.id for g in arena.gates] != [g.id for g in self.arena.gates]:
            return None
        changed: set[Goal] = set()
        pairs = (("checkpoint", old.checkpoints, new.checkpoints), ("start", old.starts, new.starts),
                 ("target", old.targets, new.targets))
        for kind, before, after in pairs:
            if [z.id for z in before] != [z.id for z in after]:
                return None
        for kind, before, after in pairs:
            for zb, za in zip(before, after):
                if not zb.geometry.equals_exact(za.geometry, 0.0):
                    goal = Goal(kind, za.id)  # type: ignore[arg-type]
                    changed.add(goal)
                    self.cspace.replace_zone(self.goal_zone[goal], ZoneSpec(kind, za.id, za.geometry))
                    self._maps.pop(goal, None)
        for gid, a, b, one in new.gates:
            goal = Goal("gate", gid)
            if self.gates[goal] != (a, b, one):
                changed.add(goal)
                self.gates[goal] = (a, b, one)
                self._maps.pop(goal, None)
        self.arena, self.geometry = arena, new
        if changed:
            for lat in self._lattices.values():
                lat.refresh_zones()
        return changed

    def frontier_search(self, source: Source, goals: Iterable[Goal] | None = None, *,
                        max_time: float | None = None) -> FrontierSearch | None:
        """A vectorised search for ``plan_from`` (not run yet; keep it to :meth:`~FrontierSearch.resume`
        later), or None when the query needs the scalar search."""
        wanted = list(dict.fromkeys(self.goals() if goals is None else goals))
        for goal in wanted:
            self._check_goal(goal)
        starts = self.source_poses(source)
        if not self._frontier(starts):
            return None
        limit = self.max_turns * self.scale
        if max_time is not None:
            limit = min(limit, int(math.floor(max_time * self.scale + 1e-9)))
        search = FrontierSearch(self, starts, wanted, limit)
        search.horizon = max_time
        return search

    def _lattice(self, base: float) -> HeadingLattice:
        key = round(base, 6) % 30.0
        lat = self._lattices.get(key)
        if lat is None:
            lat = self._lattices[key] = HeadingLattice(self, key)
        return lat

    def _bound_table(self) -> BoundTable:
        if self._bounds is None:
            self._bounds = BoundTable(self)
        return self._bounds

    def _frontier(self, starts: Sequence[tuple[Pose, int]]) -> bool:
        """Use the vectorised search (:mod:`engine.frontier`) for this query?"""
        return self.vectorised and self.minimise == "time" and frontier_supported(self, starts)

    # -- the search ------------------------------------------------------------------------------
    def plan(self, source: Source, goal: Goal) -> TravelResult:
        """Least-time travel from ``source`` to one ``goal``."""
        return self.plan_from(source, [goal])[goal]

    def plan_from(self, source: Source, goals: Iterable[Goal] | None = None, *,
                  max_time: float | None = None) -> dict[Goal, TravelResult]:
        """Least-time travel from ``source`` to each goal (default: every goal), one search.
        With ``max_time`` (turns) the search stops there: goals not reached by then come back
        unreachable with ``horizon=max_time`` (much faster when only "is it under T?" matters)."""
        wanted = list(dict.fromkeys(self.goals() if goals is None else goals))
        for goal in wanted:
            self._check_goal(goal)
        starts = self.source_poses(source)
        limit = self.max_turns * self.scale
        if max_time is not None:
            limit = min(limit, int(math.floor(max_time * self.scale + 1e-9)))
        search: _Search | FrontierSearch
        if self._frontier(starts):
            search = FrontierSearch(self, starts, wanted, limit)
        else:
            search = _Search(self, starts, wanted)
            search.limit = limit
        if max_time is not None:
            search.horizon = max_time
        return search.run()


    def reach_times(self, source: Source, *, cell: float = 0.5, max_time: float = 6.0) -> ReachMap:
        """Earliest arrival time of the centre in every ``cell`` of the arena from ``source``,
        up to ``max_time`` turns (an exhaustive search without goals: use a coarse ``quantum``)."""
        minx, miny, maxx, maxy = self.geometry.bounds.bounds
        nx = max(1, int(math.ceil((maxx - minx) / cell)))
        ny = max(1, int(math.ceil((maxy - miny) / cell)))
        times = np.full((nx, ny), np.inf)
        starts = self.source_poses(source)
        if self._frontier(starts):
            FrontierSearch(self, starts, [], int(max_time * self.scale), record=(minx, miny, cell, times)).run()
            return ReachMap(minx, miny, cell, times)
        search = _Search(self, starts, [])
        search.record = (minx, miny, cell, times)
        search.limit = int(max_time * self.scale)
        for pose, _ in search.starts:
            search._note(pose.x, pose.y, 0)
        search.run()
        return ReachMap(minx, miny, cell, times)


def _same_zones(a: Sequence[Any], b: Sequence[Any]) -> bool:
    """Same ids, shapes and (fields) directions, (exclusions) tiers, in order."""
    if len(a) != len(b):
        return False
    for za, zb in zip(a, b):
        if isinstance(za, tuple):
            if za[0] != zb[0] or not za[1].equals_exact(zb[1], 0.0):
                return False
        elif (za.id, za.direction, za.active_from_tier) != (zb.id, zb.direction, zb.active_from_tier) \
                or not za.geometry.equals_exact(zb.geometry, 0.0):
            return False
    return True


class _Search:
    """One A* run (kept apart from :class:`Planner` so the planner stays reusable)."""

    def __init__(self, planner: Planner, starts: Sequence[tuple[Pose, int]], goals: Sequence[Goal]) -> None:
        self.p = planner
        self.starts = starts
        self.goals = list(goals)
        self.results: dict[Goal, TravelResult] = {}
        self.open_goals = set(self.goals)
        self.zone_goal = {planner.goal_zone[g]: g for g in self.goals if g in planner.goal_zone}
        self.gate_goals = [g for g in self.goals if g.kind == "gate"]
        self.version = 0
        self.dist: list[float] = []
        self.record: tuple[float, float, float, Any] | None = None
        self.limit = planner.max_turns * planner.scale
        self.horizon: float | None = None
        self._refresh()

    def _refresh(self) -> None:
        self.version += 1
        p = self.p
        if p.use_heuristic and self.open_goals:
            maps = [p._distance_map(g) for g in self.open_goals]
            self.dist = combine(maps)
            self.dmap = maps[0]
        else:
            self.dist = []

    def h(self, x: float, y: float, s: int, l: int, spent: int) -> int:
        if not self.dist:
            return 0
        m = self.dmap
        i = int((x - m.x0) / m.cell)
        j = int((y - m.y0) / m.cell)
        d = self.dist[i * m.ny + j] if 0 <= i < m.nx and 0 <= j < m.ny else math.inf
        left = None if self.p.budget is None else self.p.budget - spent
        return self.p.timebound.lower_bound(d, s, l, left)

    def run(self) -> dict[Goal, TravelResult]:
        p = self.p
        heap: list[tuple[int, int, int, int, int, int, _Node, int]] = []
        self.heap = heap
        self.best: dict[tuple[int, int, float, int, int, int, int], tuple[int, int, int]] = {}
        self.count = 0
        limit = self.limit
        for pose, speed in self.starts:
            hs = p.cspace.heading(pose.heading)
            if not hs.is_free(pose.x, pose.y):
                continue
            node = _Node(pose.x, pose.y, pose.heading, 0, speed, speed, 0, 0, 0, 0, 0, None, None)
            self._push(node, -1)
        while heap and (self.open_goals or self.record is not None):
            f, _, _, _, _, version, node, goal_index = heapq.heappop(heap)
            if f > limit:
                break
            if goal_index >= 0:
                goal = self.goals[goal_index]
                if goal in self.open_goals:
                    self._resolve(goal, node)
                continue
            if version != self.version:
                nf = node.time + self.h(node.x, node.y, node.s, node.l, node.spent)
                if nf > f:
                    if nf < UNBOUNDED:
                        self._requeue(nf, node)
                    continue
            key = self._key(node)
            if self.best.get(key, (UNBOUNDED, 0, 0)) < (node.time, node.icons, node.damage):
                continue
            if node.l >= node.s:
                self._expand_boundary(node)
            else:
                self._expand_lengths(node)
        for goal in self.goals:
            if goal not in self.results:
                self.results[goal] = TravelResult(goal, False, horizon=self.horizon)
        return self.results

    # -- queue helpers ---------------------------------------------------------------------------
    def _key(self, n: _Node) -> tuple[int, int, float, int, int, int, int]:
        q = self.p.quantum
        if n.l >= n.s:
            return (round(n.x / q), round(n.y / q), n.h, n.s, -1, 0, 0)
        if self.record is not None:  # reach maps: merge within-turn states regardless of icons spent
            return (round(n.x / q), round(n.y / q), n.h, n.s, n.l, 0, 0)
        return (round(n.x / q), round(n.y / q), n.h, n.s, n.l, n.spent, n.used)

    def _order(self, n: _Node) -> tuple[int, int, int]:
        """Tie-break among equal f: fewest icons first (exact secondary criteria) or, when only
        time matters, deepest first (finds a fastest plan after few expansions)."""
        if self.p.minimise == "time":
            return (-n.time, n.icons, n.damage)
        return (n.icons, n.damage, -n.time)

    def _note(self, x: float, y: float, time: int) -> None:
        """Reach-map mode: remember the earliest time the centre was in (x, y)'s cell."""
        assert self.record is not None
        x0, y0, cell, times = self.record
        i, j = int((x - x0) // cell), int((y - y0) // cell)
        if 0 <= i < times.shape[0] and 0 <= j < times.shape[1]:
            t = time / self.p.scale
            if t < times[i, j]:
                times[i, j] = t

    def _requeue(self, f: int, n: _Node) -> None:
        self.count += 1
        heapq.heappush(self.heap, (f, *self._order(n), self.count, self.version, n, -1))

    def _push(self, n: _Node, goal_index: int) -> None:
        """Queue a node (deduplicated) or, with ``goal_index`` >= 0, a goal reached by it."""
        self.count += 1
        if goal_index >= 0:
            heapq.heappush(self.heap, (n.time, *self._order(n), self.count, self.version, n, goal_index))
            return
        q = self.p.quantum
        if self.record is None and n.l < n.s:
            key = (round(n.x / q), round(n.y / q), n.h, n.s, n.l, n.spent, n.used)
        else:
            key = self._key(n)
        g = (n.time, n.icons, n.damage)
        best = self.best
        old = best.get(key)
        if old is not None and old <= g:
            return
        if key[4] >= 0 and n.spent:
            for sp in range(n.spent):
                other = best.get((key[0], key[1], key[2], key[3], key[4], sp, key[6]))
                if other is not None and other <= g:
                    return
        hval = self.h(n.x, n.y, n.s, n.l, n.spent)
        if hval >= UNBOUNDED:
            return
        best[key] = g
        heapq.heappush(self.heap, (n.time + hval, *self._order(n), self.count, self.version, n, -1))

    def _resolve(self, goal: Goal, node: _Node) -> None:
        p = self.p
        path: list[PathStep] = []
        chain: list[_Node] = []
        n: _Node | None = node
        while n is not None:
            chain.append(n)
            n = n.parent
        for n in reversed(chain):
            if n.step is None:
                continue
            if n.step[0] == "pivot":
                path.append(PathStep(n.x, n.y, n.h, 0, n.t, 0, n.step[1]))
                continue
            _, label, mx, my, pushes = n.step
            path.append(PathStep(mx, my, n.h, n.s, n.t, n.l, label))
            for fid, px, py in pushes:
                path.append(PathStep(px, py, n.h, n.s, n.t, n.l, label, fid))
        self.results[goal] = TravelResult(
            goal, True, node.t, node.l, node.s, node.time / p.scale, node.icons, node.damage, tuple(path)
        )
        self.open_goals.discard(goal)
        self._refresh()

    # -- expansion ----------------------------------------------------------------------------------
    def _end_damage(self, x: float, y: float, h: float, zones: Sequence[int]) -> int:
        p = self.p
        dmg = 0
        first = p.n_fields
        for z in zones:
            if first <= z < first + p.n_excl:
                ez = p.excl_zones[z - first]
                if p.geometry.corners_inside(ez, Pose(x, y, h)) >= 2:
                    dmg += 2
        return dmg

    def _expand_boundary(self, n: _Node) -> None:
        p = self.p
        t = n.t + 1
        if t > p.max_turns:
            return
        delta = p.turbine.speed_delta
        for s in range(max(0, n.s - delta), min(p.vmax, n.s + delta) + 1):
            if s == 0:
                self._idle_turn(n, t)
                continue
            start = _Node(n.x, n.y, n.h, t, s, 0, 0, 0, n.time, n.icons, n.damage, n, None)
            self._expand_lengths(start)

    def _idle_turn(self, n: _Node, t: int) -> None:
        """A turn at speed 0: stay, or pivot k*30 degrees about a corner for 1 icon."""
        p = self.p
        time = (t) * p.scale
        hs = p.cspace.heading(n.h)
        excl = self._exclusions_at(hs, n.x, n.y)
        dmg = self._end_damage(n.x, n.y, n.h, excl)
        if excl and p.exclusions == "avoid":
            return
        self._push(_Node(n.x, n.y, n.h, t, 0, 0, 0, 0, time, n.icons, n.damage + dmg, n, None), -1)
        if not p.pivots or (p.budget is not None and p.budget < PIVOT_COST):
            return
        for dx, dy, nh, label in p._pivots_for(n.h):
            new = Pose(n.x + dx, n.y + dy, nh)
            hs = p.cspace.heading(nh)
            if hs.is_free(new.x, new.y):
                excl = self._exclusions_at(hs, new.x, new.y)
                if excl and p.exclusions == "avoid":
                    continue
                dmg = self._end_damage(new.x, new.y, nh, excl)
                step = ("pivot", label)
                self._push(_Node(new.x, new.y, nh, t, 0, 0, 0, 0, time, n.icons + PIVOT_COST, n.damage + dmg, n, step), -1)

    def _exclusions_at(self, hs: Any, x: float, y: float) -> list[int]:
        p = self.p
        if not p.n_excl:
            return []
        lo, hi = p.n_fields, p.n_fields + p.n_excl
        return [z for z in hs.zones_at(x, y) if lo <= z < hi]

    def _expand_lengths(self, n: _Node) -> None:
        p = self.p
        cspace = p.cspace
        left = UNBOUNDED if p.budget is None else p.budget - n.spent
        l = n.l + 1
        s = n.s
        time = (n.t - 1) * p.scale + p.scale * l // s
        last = l == s
        nf, ne = p.n_fields, p.n_excl
        fields = p.geometry.fields
        was_in: list[int] | None = None
        for dx, dy, nh, cost, label, local, hs in p._moves_for(n.h):
            if cost > left:
                continue
            x, y = n.x + dx, n.y + dy
            probed = hs.probe(x, y)
            if probed is None:
                continue
            zones = probed
            used = n.used
            pushes: list[tuple[str, float, float]] = []
            rammed = False
            while zones:
                z = next((z for z in zones if z < nf and not used >> z & 1), -1)
                if z < 0:
                    break
                fz = fields[z]
                a = math.radians(fz.direction)
                x += p.turbine.length * math.cos(a)
                y += p.turbine.length * math.sin(a)
                used |= 1 << z
                pushes.append((fz.id, x, y))
                probed = hs.probe(x, y)
                if probed is None:
                    rammed = True
                    break
                zones = probed
            if rammed:
                continue
            damage = n.damage
            if ne and zones:
                excl = [z for z in zones if nf <= z < nf + ne]
                if excl:
                    if p.exclusions == "avoid":
                        continue
                    if was_in is None:
                        was_in = self._exclusions_at(cspace.heading(n.h), n.x, n.y)
                    damage += sum(1 for z in excl if z not in was_in)
                    if last:
                        damage += self._end_damage(x, y, nh, excl)
            mx, my = n.x + dx, n.y + dy
            node = _Node(x, y, nh, n.t, s, l, n.spent + cost, used, time, n.icons + cost, damage, n,
                         ("length", label, mx, my, tuple(pushes)))
            for z in zones:
                g = self.zone_goal.get(z)
                if g is not None and g in self.open_goals:
                    self._push(node, self.goals.index(g))
            if self.gate_goals:
                self._check_gates(node, n, local, pushes)
            if self.record is not None and time <= self.limit:
                self._note(x, y, time)
            self._push(node, -1)

    def _check_gates(self, node: _Node, parent: _Node, local: list[tuple[float, float]], pushes: list[tuple[str, float, float]]) -> None:
        p = self.p
        reach = p.reach + len(pushes) + 0.01
        for goal in self.gate_goals:
            if goal not in self.open_goals:
                continue
            a, b, one_way = p.gates[goal]
            if _segment_distance(parent.x, parent.y, a, b) > reach:
                continue
            path = [(parent.x + px, parent.y + py) for px, py in local] + [(px, py) for _, px, py in pushes]
            if path_crosses(path, a, b, one_way):
                self._push(node, self.goals.index(goal))


def _segment_distance(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    vx, vy = bx - ax, by - ay
    L2 = vx * vx + vy * vy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((x - ax) * vx + (y - ay) * vy) / L2))
    return math.hypot(x - ax - t * vx, y - ay - t * vy)


