"""The travel planner: least time for the reference turbine from a source to goals, flat out.

Time is measured in turns: a goal reached at the end of length ``l`` of turn ``t`` (1-based)
moved at speed ``s`` takes ``t - 1 + l / s``.  Among equally fast plans the planner prefers
fewer Maneuver icons, then less damage.  Plans never ram; acceleration fields push as the rules
say; exclusion fields active at the tier are either paid for (1 for entering, 2 for ending a turn
with two or more corners inside) or avoided.

Speeds run from -max_speed to max_speed ("Turbines can travel in reverse"), changing by at most
the Speed Delta a turn, through 0 in one Acceleration Phase ("Going From Forward to Reverse");
sideslips shift "up to one width" in ``slip_steps`` equal steps a side (:func:`default_slip_steps`).

The search is an exact A* over intra-turn states (pose, speed, lengths moved this turn, icons
spent this turn, fields used this turn) with time as the cost, an admissible distance/speed-ramp
bound (:mod:`engine.gravstrike.heuristic`), per-heading configuration-space lookups (:mod:`engine.gravstrike.cspace`)
and state deduplication by pose quantised to ``quantum`` lengths (headings are exact: every
heading is a source heading plus a multiple of 30 degrees).  One search serves every goal.

>>> from schema.games.gravstrike.model import Arena, Circle, Checkpoint, Rect, StartPosition
>>> arena = Arena(name="t", bounds=Rect((0.0, 0.0), (20.0, 8.0)),
...               checkpoints=(Checkpoint("A", "outlying", Circle((6.0, 0.0), 0.5)),),
...               start_positions=(StartPosition(1, (-8.0, 0.0), 0.0),))
>>> r = Planner(arena).plan(StartSource(1), Goal("checkpoint", "A"))
>>> r.turns, r.lengths, round(r.time, 3), r.icons    # speeds 2, 4, 6 then one length at 6
(4, 1, 3.167, 0)
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Iterable, Literal, Sequence

import numpy as np
import shapely

from engine import budget as caps
from engine.budget import AnalysisStopped
from engine.gravstrike.cspace import CSpace, HeadingSpace, ZoneSpec
from engine.gravstrike.frontier import FrontierSearch
from engine.gravstrike.geometry import ArenaGeometry, shape_centre
from engine.gravstrike.heuristic import HEURISTIC_CELL, DistanceGrid, DistanceMap, TimeBound
from engine.gravstrike.lattice import BoundTable, HeadingLattice
from engine.gravstrike.lattice import supported as frontier_supported
from engine.gravstrike.motion import (
    Pose,
    local_displacement,
    local_path,
    maneuver_set,
    max_displacement_by_cost,
    normalize_heading,
    pivot,
)
from engine.gravstrike.reach import proven_unreachable
from engine.gravstrike.search import ScalarSearch
from schema.games.gravstrike.model import Arena

from engine.gravstrike.travel_types import (  # the planner's public types, re-exported
    UNBOUNDED as UNBOUNDED,
    CheckpointSource as CheckpointSource,
    Goal as Goal,
    GoalKind as GoalKind,
    PathStep as PathStep,
    PlanningError as PlanningError,
    PoseSource as PoseSource,
    ReachMap as ReachMap,
    SearchLimits as SearchLimits,
    Source as Source,
    StartSource as StartSource,
    TravelResult as TravelResult,
)

#: Goals a coarser search found unreachable by exhausting its states are searched again at this
#: tolerance (:meth:`Planner.confirm`).
CONFIRM_TOLERANCE = 0.05
#: The finest sideslip step the planner uses by default: 1/64 of a width (1/128 length for the
#: reference turbine, finer than the finest tolerance).  See :func:`default_slip_steps`.
MAX_SLIP_STEPS = 64


def default_slip_steps(quantum: float, width: float) -> int:
    """Sideslip steps per side for a planner that merges positions closer than ``quantum``: the
    smallest power of two that puts neighbouring shifts at most one quantum apart (so any
    sideslip lands within half a quantum of one the planner tries - the error merging already
    allows), at most :data:`MAX_SLIP_STEPS`.  Powers of two nest: a finer tolerance never loses
    a shift a coarser one tries.

    >>> default_slip_steps(0.25, 0.5), default_slip_steps(0.1, 0.5), default_slip_steps(0.01, 0.5)
    (2, 8, 64)
    """
    need = max(1.0, width / quantum - 1e-9)
    return min(MAX_SLIP_STEPS, 1 << math.ceil(math.log2(need)))


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


#: Children a search from a start makes per square length of open floor at tolerance 0.25 - at
#: least: 5 300 to 9 600 measured on the default arena and generated tables 24 to 48 across
#: (3.5 M a start on the default arena, 12-15 M on a 48-length table).
CHILDREN_PER_AREA = 5000


class Planner:
    """Plans travel on one arena for the reference turbine.

    ``tier``: the tier analysed (exclusion fields active from it); ``budget``: icons per turn
    (default the turbine's, None = unlimited); ``exclusions``: ``"pay"`` or ``"avoid"``;
    ``quantum``: position tolerance for merging states; ``max_turns``: give up after this many
    turns; ``pivots``: consider pivots (k*30 degrees about a corner) in speed-0 turns;
    ``reverse``: consider reverse speeds; ``slip_steps``: sideslip steps per side (default
    :func:`default_slip_steps`); ``limits``: memory and time caps of every search
    (:class:`~engine.gravstrike.travel_types.SearchLimits`); ``max_lattices``: the heading
    lattices kept between queries (:attr:`max_lattices`; None: every one).
    """

    def __init__(
        self,
        arena: Arena,
        geometry: ArenaGeometry | None = None,
        *,
        tier: int | None = None,
        budget: int | None | Literal["default"] = "default",
        exclusions: Literal["pay", "avoid"] = "pay",
        quantum: float = 0.1,
        max_turns: int = 30,
        pivots: bool = True,
        heuristic: bool = True,
        minimise: Literal["time-icons-damage", "time"] = "time-icons-damage",
        vectorised: bool = True,
        reverse: bool = True,
        slip_steps: int | None = None,
        limits: SearchLimits | None = None,
        prove: bool = True,
        max_lattices: int | None = None,
    ) -> None:
        if exclusions not in ("pay", "avoid"):
            raise PlanningError(f"exclusions must be 'pay' or 'avoid', not {exclusions!r}")
        if max_lattices is not None and max_lattices < 1:
            raise PlanningError(f"max_lattices must be at least 1 (or None: no bound), not {max_lattices}")
        #: The memory bound: heading lattices (:meth:`lattice`) kept once a query is over, least
        #: recently used let go first, each with what belongs only to it - its heading spaces and
        #: their stacked rasters (:meth:`engine.gravstrike.cspace.CSpace.release`; a configuration
        #: space shared with :meth:`confirm`'s planner keeps them while either holds the lattice),
        #: its reach proof and the scalar search's moves and pivots of its headings.  Saves: a
        #: lattice is several MB (about 21 MB on a 48-length table), and a long-lived planner meets
        #: ever new ones (a play engine's rammed turbines end at headings off every lattice so
        #: far); costs: a lattice let go and needed again is built again (its six heading spaces'
        #: Minkowski sums and raster classes, 45-85 ms on the default arena) - the same answers, as
        #: everything let go is a pure function of the heading.  Distance maps, the distance grid,
        #: the time bound's table and the searches' spare tables don't depend on the heading and
        #: are kept.  Nothing is let go during a query (a search's lattice is never pulled from
        #: under it): a query may hold one more.  None (the default): keep every lattice.
        self.max_lattices = max_lattices
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
        self.reverse = reverse
        self.slip_steps = default_slip_steps(quantum, self.turbine.width) if slip_steps is None else slip_steps
        if self.slip_steps < 1:
            raise PlanningError(f"slip_steps must be at least 1, not {self.slip_steps}")
        #: The maneuvers one length may make (whole-width sideslips first).
        self.maneuvers = maneuver_set(self.slip_steps)
        self.limits = limits or SearchLimits()
        #: Decide goals no footprint can reach before searching (:mod:`engine.gravstrike.reach`).
        self.prove = prove
        self.vmax = min(6, self.turbine.max_speed)
        self.scale = math.lcm(*range(1, max(1, self.vmax) + 1))
        g = self.geometry
        active = [z for z in g.exclusions if self.tier >= z.active_from_tier]
        specs = [ZoneSpec("field", z.id, z.geometry, direction=z.direction, circle=z.circle) for z in g.fields]
        specs += [ZoneSpec("exclusion", z.id, z.geometry, overlap=True, circle=z.circle) for z in active]
        self.goal_zone: dict[Goal, int] = {}
        for kind, zones in (("checkpoint", g.checkpoints), ("start", g.starts), ("target", g.targets)):
            for z in zones:
                self.goal_zone[Goal(kind, z.id)] = len(specs)  # type: ignore[arg-type]
                specs.append(ZoneSpec(kind, z.id, z.geometry, circle=z.circle))
        self.n_fields = len(g.fields)
        self.n_excl = len(active)
        self.excl_zones = active
        self.cspace = CSpace(g, specs)
        self.gates = {Goal("gate", gid): (a, b, one) for gid, a, b, one in g.gates}
        self.timebound = TimeBound(self.turbine.speed_delta, self.vmax, self.budget, self.scale, turbine=self.turbine)
        disp = max_displacement_by_cost(self.turbine)
        self.reach = max(disp.values())
        self._maps: dict[Goal, DistanceMap] = {}
        self._moves: dict[float, list[tuple[float, float, float, int, str, list[tuple[float, float]], HeadingSpace]]] = {}
        self._grid: DistanceGrid | None = None
        self._pivots: dict[float, list[tuple[float, float, float, tuple[int, int]]]] = {}
        self._lattices: OrderedDict[float, HeadingLattice] = OrderedDict()  # least recently used first
        self._depth = 0  # queries running (nested: :meth:`plan_from` inside :meth:`reach_times`, ...)
        #: Heading lattices built and let go so far (work, for the memory bound's tests and the
        #: benchmarks: a lattice let go and needed again is built again and counted again).
        self.lattices_built = 0
        self.lattices_evicted = 0
        self._bounds: BoundTable | None = None
        #: What this planner's searches hand back for the next one (key tables, state stores,
        #: reach proofs: :meth:`engine.gravstrike.frontier.FrontierSearch.release`).
        self.scratch: dict[str, Any] = {}
        #: Keep the distance grid's graph once every goal has its map, and each map's grid
        #: distances?  A planner whose goals may move (the editor's: :meth:`retarget`) keeps them
        #: for the moved goals' maps; one analysis (``arena validate``) sets False: the graph is
        #: freed (made again if a map is asked for later) and a map keeps only its bound.
        self.keep_graph = True
        #: The planner :meth:`confirm` searches with (made on first use, sharing this one's tables).
        self._fine: Planner | None = None
        #: Distance maps shared with other processes planning on the same arena (the editor's
        #: workers), or None: an object with ``get(key)`` (the map's array, or None), ``put(key,
        #: array)`` and ``order(keys)`` (the order this process computes missing maps in, so that
        #: two processes start at opposite ends).  Keys are :meth:`map_key`'s.
        self.map_share: Any = None
        self._arena_key: str | None = None

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
            low = -self.vmax if self.reverse else 0
            if not low <= source.speed <= self.vmax:
                raise PlanningError(f"a source speed must be {low}..{self.vmax}, not {source.speed}")
            p = source.pose
            return [(Pose(p.x, p.y, normalize_heading(p.heading)), source.speed)]
        for cp in a.checkpoints:
            if cp.id == source.checkpoint:
                x, y = shape_centre(cp.shape)
                return [(Pose(x, y, float(k * 30)), self.vmax) for k in range(12)]
        raise PlanningError(f"the arena has no checkpoint {source.checkpoint!r}")

    def expected_children(self, searches: int = 1) -> int:
        """A low estimate of the children ``searches`` searches from starts make (each to the
        farthest goal, across the whole arena): :data:`CHILDREN_PER_AREA` per square length of
        floor at the analysis tolerance, four times as many at half the tolerance.  It decides
        only when a process loads the compiled kernels (:func:`engine.gravstrike.kernels.expect`)."""
        g = self.geometry
        floor = max(0.0, g.bounds.area - sum(w.area for _, w in g.walls))  # overlapping walls: lower still
        return int(searches * CHILDREN_PER_AREA * floor * (0.25 / self.quantum) ** 2)

    # -- precomputation ------------------------------------------------------------------------
    def distance_grid(self) -> DistanceGrid:
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

    def map_key(self, goal: Goal) -> str:
        """What ``goal``'s distance map depends on, digested: the arena's bounds, walls, fields and
        turbine (the grid) and the goal's region."""
        if self._arena_key is None:
            a = self.arena
            self._arena_key = hashlib.sha256(repr((HEURISTIC_CELL, a.bounds, a.walls, a.acceleration_fields,
                                                   a.turbine)).encode()).hexdigest()
        where: Any = self.gates[goal] if goal.kind == "gate" else self.cspace.zones[self.goal_zone[goal]].geometry.wkb
        return hashlib.sha256(repr((self._arena_key, goal, where)).encode()).hexdigest()[:40]

    def distance_maps(self, goals: Sequence[Goal]) -> list[DistanceMap]:
        """:meth:`_distance_map` of each goal; missing ones made in the order :attr:`map_share`
        asks for (each taken from it if another process has made it meanwhile)."""
        todo = [g for g in goals if g not in self._maps]
        if self.map_share is not None and len(todo) > 1:
            keys = {self.map_key(g): g for g in todo}
            todo = [keys[k] for k in self.map_share.order(list(keys))]
        for g in todo:
            caps.tick(search=True)  # the analysis's caps (engine.budget), between two maps
            self._distance_map(g)
        if todo and not self.keep_graph and self._grid is not None and all(g in self._maps for g in self.goals()):
            self._grid.release_graph()
        return [self._maps[g] for g in goals]

    def _distance_map(self, goal: Goal) -> DistanceMap:
        m = self._maps.get(goal)
        if m is not None:
            return m
        share = self.map_share
        key = self.map_key(goal) if share is not None else ""
        if share is not None:
            got = share.get(key)
            grid = self.distance_grid()
            if got is not None and got.shape == (grid.nx, grid.ny):
                m = self._maps[goal] = DistanceMap(grid, got)
                return m
        t = self.turbine
        half_diag = math.hypot(t.length / 2.0, t.width / 2.0) + 1e-6
        grid = self.distance_grid()
        if goal.kind == "gate":
            a, b, _ = self.gates[goal]
            region: Any = shapely.LineString([a, b]).buffer(1e-6)
        else:
            region = self.cspace.zones[self.goal_zone[goal]].geometry.buffer(half_diag)
        m = grid.distance_map(region, keep=share is not None or self.keep_graph)
        self._maps[goal] = m
        if share is not None:
            share.put(key, m.grid)
        return m

    def moves_for(self, heading: float) -> list[tuple[float, float, float, int, str, list[tuple[float, float]], HeadingSpace]]:
        """(dx, dy, new heading, cost, label, path, new heading's space) of every maneuver from
        ``heading`` (the scalar search's moves)."""
        mv = self._moves.get(heading)
        if mv is None:
            a = math.radians(heading)
            c, s = math.cos(a), math.sin(a)
            mv = []
            for m in self.maneuvers:
                lx, ly = local_displacement(m, self.turbine)
                path = [(px * c - py * s, px * s + py * c) for px, py in local_path(m, self.turbine)]
                nh = round(normalize_heading(heading + m.turn), 6) % 360.0
                mv.append((lx * c - ly * s, lx * s + ly * c, nh, m.cost, m.label, path, self.cspace.heading(nh)))
            self._moves[heading] = mv
        return mv

    def pivots_for(self, heading: float) -> list[tuple[float, float, float, tuple[int, int]]]:
        """(dx, dy, new heading, (corner, angle)) of every pivot k*30 degrees about a corner."""
        pv = self._pivots.get(heading)
        if pv is None:
            pv = []
            origin = Pose(0.0, 0.0, heading)
            for corner in range(4):
                for k in range(1, 12):
                    new = pivot(origin, corner, 30.0 * k, self.turbine)
                    pv.append((new.x, new.y, round(new.heading, 6) % 360.0, (corner, 30 * k)))
            self._pivots[heading] = pv
        return pv

    def retarget(self, arena: Arena) -> set[Goal] | None:
        """Move this planner to ``arena`` when it differs only in where its goals are
        (checkpoints, start positions, static targets, gates): these don't change how a turbine
        moves (they score; walls, fields, exclusion fields, bounds and the turbine do), so the
        configuration space and the distance grid stay and the moved goals' regions are swapped
        in place.  Returns the goals that moved (their searches can be resumed:
        :meth:`engine.gravstrike.frontier.FrontierSearch.resume`), or None when walls, fields,
        exclusion fields, bounds, turbine or the set of goals differ (build a new planner)."""
        new = ArenaGeometry(arena)
        old = self.geometry
        if not (self.arena.turbine == arena.turbine and old.bounds.equals_exact(new.bounds, 0.0)
                and _same_zones(old.walls, new.walls) and old.wall_circles == new.wall_circles
                and _same_zones(old.fields, new.fields)
                and _same_zones(old.exclusions, new.exclusions)):
            return None
        if [g.id for g in arena.gates] != [g.id for g in self.arena.gates]:
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
                    cells.append(self.cspace.replace_zone(self.goal_zone[goal], ZoneSpec(kind, za.id, za.geometry, circle=za.circle)))
                    self._maps.pop(goal, None)
        for gid, a, b, one in new.gates:
            goal = Goal("gate", gid)
            if self.gates[goal] != (a, b, one):
                changed.add(goal)
                self.gates[goal] = (a, b, one)
                self._maps.pop(goal, None)
        self.arena, self.geometry = arena, new
        if self._fine is not None:  # confirm's planner holds the old arena: made again when needed
            self._fine._release_lattices()  # (its lattices' spaces are the shared configuration space's)
        self._fine = None
        if changed:
            for lat in self._lattices.values():
                lat.refresh_zones(np.unique(np.concatenate(cells)))
        return changed

    def _query(self, source: Source, goals: Iterable[Goal] | None,
               max_time: float | None) -> tuple[list[tuple[Pose, int]], list[Goal], int]:
        """(source poses, goals checked and deduplicated, time limit in 1/scale turns)."""
        wanted = list(dict.fromkeys(self.goals() if goals is None else goals))
        for goal in wanted:
            self._check_goal(goal)
        limit = self.max_turns * self.scale
        if max_time is not None:
            limit = min(limit, int(math.floor(max_time * self.scale + 1e-9)))
        return self.source_poses(source), wanted, limit

    def frontier_search(self, source: Source, goals: Iterable[Goal] | None = None, *,
                        max_time: float | None = None) -> FrontierSearch | None:
        """A vectorised search for ``plan_from`` (not run yet; keep it to :meth:`~FrontierSearch.resume`
        later), or None when the query needs the scalar search."""
        starts, wanted, limit = self._query(source, goals, max_time)
        if not self._frontier(starts):
            return None
        search = FrontierSearch(self, starts, wanted, limit)
        search.horizon = max_time
        return search

    def proven_unreachable(self, source: Source, goals: Iterable[Goal]) -> set[Goal]:
        """The goals no plan from ``source`` can reach, decided without searching
        (:mod:`engine.gravstrike.reach`); goals it can't rule out are not included."""
        with self.querying():
            return proven_unreachable(self, self.source_poses(source), list(goals))

    @property
    def lattice_count(self) -> int:
        """Heading lattices kept now (each several MB, with its heading spaces: what a long-lived
        planner's memory grows with - a rammed turbine's off-lattice heading makes one; at most
        :attr:`max_lattices` between queries)."""
        return len(self._lattices)

    def lattice(self, base: float) -> HeadingLattice:
        """The heading lattice of the headings ``base`` + k*30 degrees (made once per base, and
        again after :attr:`max_lattices` let it go)."""
        key = round(base, 6) % 30.0
        lat = self._lattices.get(key)
        if lat is None:
            lat = self._lattices[key] = HeadingLattice(self, key)
            self.cspace.hold(lat.headings)
            self.lattices_built += 1
        else:
            self._lattices.move_to_end(key)
        return lat

    @contextmanager
    def querying(self) -> Iterator[None]:
        """Marks a query (a search running, a proof): no lattice is let go while one runs (a
        search's lattice is never pulled from under it); once the last one is over, the least
        recently used are let go down to :attr:`max_lattices`."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._trim()

    def _release_lattices(self) -> None:
        """Let every lattice go (a planner no longer used that shares its configuration space)."""
        for key in list(self._lattices):
            self._evict(key)

    def _trim(self) -> None:
        """Let the least recently used lattices go until :attr:`max_lattices` are left
        (:meth:`_evict`); :meth:`confirm`'s planner lets the same ones go (it searches from the
        sources this one searched from, on their lattices, and shares their heading spaces)."""
        if self.max_lattices is None:
            return
        while len(self._lattices) > self.max_lattices:
            key = next(iter(self._lattices))
            self._evict(key)
            if self._fine is not None and self._fine._depth == 0:
                self._fine._evict(key)

    def _evict(self, key: float) -> None:
        """Let lattice ``key`` go (if kept) with what is only its: its heading spaces and stack
        (once no planner sharing the configuration space holds them), its reach proof, the
        scalar search's moves and pivots of its headings."""
        lat = self._lattices.pop(key, None)
        if lat is None:
            return
        self.cspace.release(lat.headings)
        proofs = self.scratch.get("proofs")
        if proofs:  # keyed by the lattice's id (reach.proven_unreachable): gone before the id is reused
            for k in [k for k in proofs if k[0] == id(lat)]:
                del proofs[k]
        for table in (self._moves, self._pivots):
            for h in [h for h in table if abs((round(h, 6) - key + 15.0) % 30.0 - 15.0) < 1e-6]:
                del table[h]
        self.lattices_evicted += 1

    def bound_table(self) -> BoundTable:
        """The time bound tabulated for the vectorised search (made once per planner)."""
        if self._bounds is None:
            self._bounds = BoundTable(self)
        return self._bounds

    def bound_floor(self) -> None:
        """Tabulate the time bound's floor now (a resumed search's first step needs it; the
        editor's workers do this while idle)."""
        self.bound_table().build_floor()

    def _frontier(self, starts: Sequence[tuple[Pose, int]]) -> bool:
        """Use the vectorised search (:mod:`engine.gravstrike.frontier`) for this query?"""
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
        with self.querying():
            return self._plan_from(source, goals, max_time)

    def _plan_from(self, source: Source, goals: Iterable[Goal] | None, max_time: float | None) -> dict[Goal, TravelResult]:
        goals = None if goals is None else list(goals)
        search: ScalarSearch | FrontierSearch | None = None
        try:
            caps.tick(search=True)  # spent already: no set-up at all
            search = self.frontier_search(source, goals, max_time=max_time)
            if search is None:
                starts, wanted, limit = self._query(source, goals, max_time)
                search = ScalarSearch(self, starts, wanted)
                search.limit, search.horizon = limit, max_time
            results = search.run()
        except AnalysisStopped as exc:  # the analysis's caps, met outside the search loop's own checks
            done = {} if search is None else search.results
            return {g: done.get(g) or TravelResult(g, False, horizon=0.0, undecided=exc.reason)
                    for g in (goals if goals is not None else self.goals())}
        if isinstance(search, FrontierSearch):  # not kept: the next search reuses its grown key table
            search.release()
        return self.confirm(source, results, search.proven, max_time)

    def confirm(self, source: Source, results: dict[Goal, TravelResult], proven: set[Goal],
                max_time: float | None = None) -> dict[Goal, TravelResult]:
        """Check "unreachable" answers a coarse search reached by running out of states (and
        "beyond" ones at the turn limit): merging positions closer than a coarse tolerance (and its
        coarse sideslips) can lose the one pose that fits a narrow passage, so such goals are
        searched again at :data:`CONFIRM_TOLERANCE` (the finer answer stands).  Goals the proof
        ruled out (``proven``, :mod:`engine.gravstrike.reach`) need no second look."""
        doubtful = [g for g, r in results.items() if g not in proven
                    and (r.status == "unreachable" or (r.status == "beyond" and max_time is None))]
        if not doubtful or self.quantum <= CONFIRM_TOLERANCE:
            return results
        fine = self._fine
        if fine is None:
            fine = Planner(self.arena, self.geometry, tier=self.tier, budget=self.budget, exclusions=self.exclusions,
                           quantum=CONFIRM_TOLERANCE, max_turns=self.max_turns, pivots=self.pivots,
                           heuristic=self.use_heuristic, minimise=self.minimise, vectorised=self.vectorised,
                           reverse=self.reverse, limits=self.limits, prove=False, max_lattices=self.max_lattices)
            # the same arena, turbine and goals: the configuration space, the distance grid, its
            # maps and the time bound don't depend on the tolerance - one copy for both (on a
            # 96-length table each copy took about 8 s to build, for every source confirmed)
            fine.cspace, fine._grid, fine._maps = self.cspace, self._grid, self._maps
            if self._bounds is not None:
                fine._bounds = self._bounds
            self._fine = fine
        try:
            return {**results, **fine.plan_from(source, doubtful, max_time=max_time)}
        finally:
            fine.scratch.pop("tables", None)  # its key table (up to the memory cap) is not kept between confirms


    def reach_times(self, source: Source, *, cell: float = 0.5, max_time: float = 6.0) -> ReachMap:
        """Earliest arrival time of the centre in every ``cell`` of the arena from ``source``,
        up to ``max_time`` turns (an exhaustive search without goals: use a coarse ``quantum``);
        a limit of the planner's or the analysis's caps stops it (:attr:`ReachMap.stopped`)."""
        with self.querying():
            return self._reach_times(source, cell, max_time)

    def _reach_times(self, source: Source, cell: float, max_time: float) -> ReachMap:
        minx, miny, maxx, maxy = self.geometry.bounds.bounds
        nx = max(1, int(math.ceil((maxx - minx) / cell)))
        ny = max(1, int(math.ceil((maxy - miny) / cell)))
        times = np.full((nx, ny), np.inf)
        starts = self.source_poses(source)
        if self._frontier(starts):
            frontier = FrontierSearch(self, starts, [], int(max_time * self.scale), record=(minx, miny, cell, times))
            frontier.run()
            return ReachMap(minx, miny, cell, times, frontier.limited)
        search = ScalarSearch(self, starts, [])
        search.record = (minx, miny, cell, times)
        search.limit = int(max_time * self.scale)
        search.run()
        return ReachMap(minx, miny, cell, times, search.limited)
