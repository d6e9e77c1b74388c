"""What every game on one arena shares, made once per arena and process: the prepared geometry,
sight blockers, one travel planner per set of active exclusion fields, and the answers that only
depend on the arena - the planner's (least-time plans from a pose to one objective, with the
horizon they were searched to), a length moved through the rules from a pose
(:meth:`Kit.length`) and a static target's TN from a pose (:meth:`Kit.static_tn`).  Games of one
arena play much the same turns (the same starts, the same greedy plans, only dice apart), so a
worker playing many games finds most of these answers already made: each is the very answer
the rules would give again (a pure function of its key), so a game's record is the same whether
the kit is new or has played a thousand games.

The planner is the travel analysis's (``arena travel``: tolerance 0.25, least time), so a plan a
turbine follows here is the plan ``arena travel --from x,y,heading,speed --to goal`` prints.

On an arena with a declared symmetry that really holds (:data:`FRAME_TOLERANCE`), each seat asks
its questions through a :class:`Frame`: in the frame of the first start of its orbit, the answer
mapped back.  The planner's raster is axis-aligned, so a rotation or an oblique mirror does not
map it onto itself and two starts the arena treats alike could get answers a raster cell apart -
which bots racing each other for one checkpoint turn into points of win rate (1,000 games of the
default arena split 19.5/18.9/11.3/18.2/13.2/18.9 % before).  Through the frames, a seat's every
decision is the exact image of the one its orbit's first start would make in the image situation.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from engine.blockers import Blockers
from engine.gravstrike import kernels
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.heuristic import DistanceMap
from engine.gravstrike.invariance import Invariance, invariances
from engine.gravstrike.length import LengthResult, TurnState, apply
from engine.gravstrike.motion import Maneuver, Pose, generate_maneuvers
from engine.gravstrike.frontier import source_state
from engine.gravstrike.planner import Goal, Planner, PoseSource, TravelResult
from engine.gravstrike.travel_types import UNBOUNDED
from engine.gravstrike.targeting import (
    EXPLOSION_BANDS,
    NoLineOfSight,
    explosion_damage,
    footprint_shape,
    static_target_number,
)
from engine.gravstrike.variants import as_played, gates_in_play
from schema.games.gravstrike.model import Arena, Checkpoint, Gate, StaticTarget, Turbine

#: ``arena travel``'s position tolerance (its default ``--tolerance``).
TRAVEL_TOLERANCE = 0.25
#: Horizons (turns) a nearest-objective query searches to, in turn: a goal reached within one
#: horizon is settled exactly (the search to a horizon prunes only what lies beyond it).
HORIZONS = (1.0, 2.0, 4.0, 8.0, 16.0)
#: Plans kept per arena (least recently used dropped first).
PLAN_CACHE = 50_000
#: Lengths moved (:meth:`Kit.length`) and static targets' TNs (:meth:`Kit.static_tn`) kept per
#: arena (least recently used dropped first): a six-player game moves about 700 lengths (with
#: the greedy policy's trial lengths), a few hundred of them new to a kit that has played
#: dozens of games.
LENGTH_CACHE = 60_000
TN_CACHE = 20_000
#: Shapes further apart than this (lengths) take no damage from each other's explosions: the last
#: band's edge and a margin.
BLAST_REACH = EXPLOSION_BANDS[-1][0] + 0.01
#: Arenas whose kits a process keeps.
KITS = 4
#: Heading lattices each of a kit's planners keeps between searches (:attr:`engine.gravstrike.
#: planner.Planner.max_lattices`: least recently used let go first, each with its heading spaces;
#: the distance maps, the time bound and the kit's plans stay).  A rammed turbine ends at headings
#: off the existing lattices, about one new lattice a game, each several MB with its heading
#: spaces: without a bound a worker playing 500 games grew past 3 GB.  Costs: a lattice let go and
#: needed again is built again (45-85 ms) - the same answers, a lattice being a pure function of
#: the arena, tier and heading; the lattices every game uses (the starts' headings) stay recently
#: used.  (Until 2026-11 the kit let the whole planner go past this many lattices, and built its
#: distance maps and every lattice again.)
MAX_LATTICES = 16
#: How closely (lengths; directions within a thousandth of a degree) an arena must map onto
#: itself under a declared symmetry operation for seats to plan through :class:`Frame`\ s: 0.04 mm
#: at 40 mm a length, the rounding of coordinates written to four decimals (the default arena's
#: corners are), far below what a table shows.  A looser match would have a seat follow plans made
#: for an arena that is not quite its own.
FRAME_TOLERANCE = 1e-3
FRAME_ANGLE_TOLERANCE = 1e-3


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
        # a process that plays games makes hundreds of small searches a game: load the compiled
        # kernels now (about 0.75 s once a process) rather than after its first 12 M children made
        # with numpy (the searches' answers are the same either way; ARENA_STUDIO_JIT=0 keeps numpy)
        kernels.enable()
        self.geometry = ArenaGeometry(arena)
        g = self.geometry
        self.blockers = Blockers.of(*[w for _, w in g.walls], bounds=g.bounds)
        self.objectives: tuple[Objective, ...] = tuple(
            [Objective(c.id, Goal("checkpoint", c.id), c) for c in arena.checkpoints]
            + [Objective(x.id, Goal("gate", x.id), x) for x in gates_in_play(arena)])
        self.by_id = {o.id: o for o in self.objectives}
        self.targets: tuple[StaticTarget, ...] = tuple(as_played(t, arena.scenario.variants)
                                                       for t in arena.static_targets)
        self.target_by_id = {t.id: t for t in self.targets}
        self._lengths: OrderedDict[tuple[Pose, Maneuver, TurnState, bool], LengthResult] = OrderedDict()
        self._tns: OrderedDict[tuple[float, float, float, str, int, Turbine], int | None] = OrderedDict()
        self._blasts: OrderedDict[tuple[Pose | tuple[float, float], Pose], int] = OrderedDict()
        self._planners: dict[tuple[str, ...], Planner] = {}
        self._plans: OrderedDict[tuple[Any, ...], TravelResult] = OrderedDict()
        #: Planner searches run (cache misses), for benchmarks and the work tests: unlike
        #: :attr:`engine.play.GameRecord.work` it depends on what the process searched before.
        self.searches = 0
        #: :meth:`soonest` queries (the greedy policy's re-plans), likewise.
        self.soonest_calls = 0
        #: Lengths moved through the rules and TNs measured (cache misses of :meth:`length` and
        #: :meth:`static_tn`), likewise.
        self.lengths_moved = 0
        self.tns_measured = 0
        #: The memory bound of the kit's planners (:data:`MAX_LATTICES`).
        self.max_lattices = MAX_LATTICES
        self._frames: dict[tuple[int, bool], Frame] = {}
        self._symmetries: list[Invariance] | None = None
        self._objective_order = {o.goal: i for i, o in enumerate(self.objectives)}

    def symmetries(self) -> list[Invariance]:
        """The declared symmetry operations (not the identity) under which the arena maps onto
        itself within :data:`FRAME_TOLERANCE`, exclusion fields onto fields active from the same
        tier (so they hold at every tier of a game)."""
        if self._symmetries is None:
            tiers = {x.id: x.active_from_tier for x in self.arena.exclusion_fields}
            self._symmetries = [
                inv for inv in invariances(self.arena, FRAME_TOLERANCE, angle_tol=FRAME_ANGLE_TOLERANCE)
                if all(tiers.get(inv.ids.get(x, x)) == t for x, t in tiers.items())]
        return self._symmetries

    def frame(self, start: int, symmetric: bool = True) -> Frame:
        """Start ``start``'s seat's frame: the symmetry operation taking it to the first start
        (by player) of its orbit, none for that first start or when ``symmetric`` is false."""
        key = (start, symmetric)
        got = self._frames.get(key)
        if got is None:
            op = None
            if symmetric:
                ident = f"start:{start}"
                for s in sorted(self.arena.start_positions, key=lambda s: s.player):
                    if s.player >= start:
                        break
                    op = next((inv for inv in self.symmetries() if inv.ids.get(ident) == s.id), None)
                    if op is not None:
                        break
            got = self._frames[key] = Frame(self, op)
        return got

    def planner(self, tier: int) -> Planner:
        """The planner of ``tier`` (shared by the tiers with the same active exclusion fields)."""
        key = tuple(z.id for z in self.geometry.active_exclusions(tier))
        p = self._planners.get(key)
        if p is None:
            p = self._planners[key] = Planner(self.arena, self.geometry, tier=tier, quantum=TRAVEL_TOLERANCE,
                                              minimise="time", max_lattices=self.max_lattices)
            p.keep_graph = True
        return p

    def planners(self) -> list[Planner]:
        """The planners made so far (one per set of active exclusion fields)."""
        return list(self._planners.values())

    def length(self, pose: Pose, maneuver: Maneuver, state: TurnState, resolve_rams: bool = True) -> LengthResult:
        """:func:`engine.gravstrike.length.apply` on this arena's geometry (the same result, kept:
        a pure function of the pose, maneuver and turn state; an illegal maneuver raises as
        ``apply`` does, and is not kept)."""
        key = (pose, maneuver, state, resolve_rams)
        got = self._lengths.get(key)
        if got is not None:
            self._lengths.move_to_end(key)
            return got
        got = self._lengths[key] = apply(self.geometry, pose, maneuver, state, resolve_rams)
        self.lengths_moved += 1
        if len(self._lengths) > LENGTH_CACHE:
            self._lengths.popitem(last=False)
        return got

    def static_tn(self, pose: Pose, target_id: str, speed: int, turbine: Turbine) -> int | None:
        """The TN of a turbine at ``pose`` shooting static target ``target_id`` shot as though at
        ``speed`` (:func:`engine.gravstrike.targeting.static_target_number`), None without line of
        sight; kept per pose, as :meth:`length`."""
        key = (pose.x, pose.y, pose.heading, target_id, speed, turbine)
        if key in self._tns:
            self._tns.move_to_end(key)
            return self._tns[key]
        tn: int | None
        self.tns_measured += 1
        try:
            tn = static_target_number(pose, self.target_by_id[target_id], self.blockers, speed=speed,
                                      turbine=turbine).tn
        except NoLineOfSight:
            tn = None
        self._tns[key] = tn
        if len(self._tns) > TN_CACHE:
            self._tns.popitem(last=False)
        return tn

    def blast(self, source: Pose | tuple[float, float], other: Pose) -> int:
        """The damage a turbine at ``other`` takes when ``source`` explodes (a turbine's pose, or
        a static target's position): :func:`engine.gravstrike.targeting.explosion_damage`, which
        measures each target on its own, kept per pair as :meth:`length`."""
        key = (source, other)
        got = self._blasts.get(key)
        if got is not None:
            self._blasts.move_to_end(key)
            return got
        t = self.arena.turbine
        sx, sy = (source.x, source.y) if isinstance(source, Pose) else source
        # the shapes are no nearer than their centres less each one's reach (a point reaches 0):
        # beyond the last band (and a margin far above rounding) that does 0 damage
        reach = math.hypot(t.length / 2.0, t.width / 2.0)
        if math.hypot(other.x - sx, other.y - sy) - reach * (2.0 if isinstance(source, Pose) else 1.0) > BLAST_REACH:
            got = 0
        else:
            src = footprint_shape(source, t) if isinstance(source, Pose) else source
            got = explosion_damage(src, {"": footprint_shape(other, t)}, self.blockers)[""]
        self._blasts[key] = got
        if len(self._blasts) > TN_CACHE:
            self._blasts.popitem(last=False)
        return got

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
        self.searches += 1
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


    def bound(self, tier: int, pose: Pose, speed: int, goal: Goal) -> int:
        """The planner's lower bound on the time from ``pose`` at ``speed`` to ``goal``, in
        1/``scale`` turns (its A* bound at the source state: the goal's distance map and the
        fastest speed ramp); :data:`~engine.gravstrike.travel_types.UNBOUNDED` when no length
        can take the turbine there."""
        planner = self.planner(tier)
        m = self.distance(tier, goal)
        _, a, _ = source_state(pose, speed)
        d = np.array([m.at(pose.x, pose.y)])
        s = np.array([a], dtype=np.int64)
        return int(planner.bound_table().lookup(d, s, s, np.zeros(1, dtype=np.int64))[0])

    def soonest(self, tier: int, pose: Pose, speed: int, goals: list[Goal],
                count: list[int]) -> TravelResult | None:
        """The goal reached soonest from ``pose`` at ``speed`` within the last of :data:`HORIZONS`
        turns (ties: the first in ``goals``), with its least-time plan; None when none is.

        One exact search per goal that could still win, least bound first: the first goal is
        searched to the last horizon, each next one only to the best time found so far (a goal
        whose bound at the source exceeds it is not searched at all).  Every answer is the
        planner's single-goal answer (``arena travel --from ... --to goal``: a search stopped at a
        horizon answers the goals within it as the unbounded one does), so the choice is the
        one :meth:`nearest`'s ladder makes, with one or two searches instead of one per goal
        and horizon.  Each query adds 1 to ``count[0]``, cached or not."""
        self.soonest_calls += 1
        order = {g: i for i, g in enumerate(goals)}
        bounds = sorted((self.bound(tier, pose, speed, g), order[g], g) for g in goals)
        scale = self.planner(tier).scale
        best: TravelResult | None = None
        best_key: tuple[int, int] | None = None
        for b, i, goal in bounds:
            if b >= UNBOUNDED:
                break
            if best_key is not None and (b, i) > best_key:
                break  # bounds are sorted: no later goal can be sooner, or as soon and first
            horizon = HORIZONS[-1] if best is None else best.time
            r, _ = self.plan(tier, pose, speed, goal, horizon)
            count[0] += 1
            if not r.reachable:
                continue
            key = (int(round(r.time * scale)), i)
            if best_key is None or key < best_key:
                best, best_key = r, key
        return best


class Frame:
    """One seat's questions to the kit, asked in its orbit's first start's frame (see the module
    docstring): poses and goals go in through the symmetry operation ``op``, plans come back
    through its inverse; ``op`` None asks the kit as it is.  Goals offered together are ordered
    as the kit's objectives in that frame, so that ties fall the same way for every seat of an
    orbit."""

    def __init__(self, kit: Kit, op: Invariance | None) -> None:
        self.kit = kit
        self.op = op
        self.back = None if op is None else op.inverse()

    def pose(self, p: Pose) -> Pose:
        """``p`` in this frame, rounded as the kit's plan cache keys poses (so that two seats in
        image situations ask the very same question)."""
        if self.op is None:
            return p
        q = self.op.pose(p)
        return Pose(round(q.x, 9), round(q.y, 9), round(q.heading, 6) % 360.0)

    def goals(self, goals: list[Goal]) -> list[Goal]:
        """``goals`` in this frame, in the kit's objective order."""
        if self.op is None:
            return goals
        order = self.kit._objective_order
        return sorted((self.op.goal(g) for g in goals), key=lambda g: order.get(g, len(order)))

    def world(self, r: TravelResult) -> TravelResult:
        return r if self.back is None else self.back.result(r)

    def maneuvers(self, icons: int | None) -> list[Maneuver]:
        """The maneuvers affordable with ``icons`` (None: any), as this seat moves them, in the
        order their images are generated (so ties between them fall the same way for every seat
        of an orbit)."""
        got = generate_maneuvers(icons)
        return list(got) if self.op is None else [self.op.maneuver(m) for m in got]

    def distance_at(self, tier: int, goal: Goal, x: float, y: float) -> float:
        """The planner's distance-map value of ``goal`` at ``(x, y)``."""
        return self.distance(tier, goal)(x, y)

    def distance(self, tier: int, goal: Goal) -> Callable[[float, float], float]:
        """The planner's distance map of ``goal``, read at a place in the world (looked up once,
        for a caller that reads it at many places)."""
        if self.op is None:
            return self.kit.distance(tier, goal).at
        op, dmap = self.op, self.kit.distance(tier, self.op.goal(goal))
        return lambda x, y: dmap.at(*op.point((x, y)))

    def soonest(self, tier: int, pose: Pose, speed: int, goals: list[Goal], count: list[int]) -> TravelResult | None:
        """:meth:`Kit.soonest` through this frame."""
        found = self.kit.soonest(tier, self.pose(pose), speed, self.goals(goals), count)
        return None if found is None else self.world(found)

    def nearest(self, tier: int, pose: Pose, speed: int, goals: list[Goal], count: list[int]) -> list[TravelResult]:
        """:meth:`Kit.nearest` through this frame."""
        return [self.world(r) for r in self.kit.nearest(tier, self.pose(pose), speed, self.goals(goals), count)]

    def plan(self, tier: int, pose: Pose, speed: int, goal: Goal, horizon: float) -> TravelResult:
        """:meth:`Kit.plan`'s plan through this frame."""
        r, _ = self.kit.plan(tier, self.pose(pose), speed, goal if self.op is None else self.op.goal(goal), horizon)
        return self.world(r)

    def target(self, tid: str) -> str:
        """Static target ``tid``'s id in this frame (for ties between targets)."""
        if self.op is None:
            return tid
        return self.op.ids.get(f"target:{tid}", f"target:{tid}").removeprefix("target:")

    def rank(self, goal: Goal) -> int:
        """``goal``'s place among the objectives in this frame (for ties)."""
        order = self.kit._objective_order
        return order.get(goal if self.op is None else self.op.goal(goal), len(order))


_KITS: OrderedDict[str, Kit] = OrderedDict()
_BY_ID: dict[int, tuple[Arena, str]] = {}
_MADE = [0]


def kits_made() -> int:
    """Kits :func:`kit_for` has made in this process (a worker playing chunk after chunk of one
    arena's games makes one: what the runner's scaling rests on)."""
    return _MADE[0]


def forget_kits() -> None:
    """Let every kept kit go (their memory returns once no game holds them); the next game of an
    arena makes its kit afresh."""
    _KITS.clear()
    _BY_ID.clear()


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
        _MADE[0] += 1
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
