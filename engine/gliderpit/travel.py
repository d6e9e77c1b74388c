"""Travel in the pit: fewest turns for a glider to end a Movement Phase in a goal hex, under
the book's movement rules, and heat maps of it.

The model: one unstunned, un-netted glider alone in the pit; a turn is one Movement Phase (a
whole macro, :mod:`engine.gliderpit.movement`) then one Glide Phase (dive 0-3, or the
deceleration die read as ``deceleration`` says).  Plans never touch the pit wall (a collision
ends the glider's movement and leaves it at speed 0, L121), never Spin (speed 0 at the start of
a Movement Phase, L119), and never reach LEDGE or FLOOR.  Among plans with the fewest turns the
planner keeps the one arriving highest.

A state is (hex, facing, speed at the start of the phase, altitude); the altitudes reached in
one (hex, facing, speed) are kept as a bit set, so the search is exact in altitude.  The search
goes turn by turn and stops at ``SearchLimits``, answering ``undecided``.

>>> from schema.games.gliderpit import default_arena
>>> r = plan(default_arena(), "Z2", [(0, 0)])
>>> r.status, r.turns, r.path[0].maneuver, r.path[-1].hex
('reached', 2, 'start', (0, 0))
"""

from __future__ import annotations

import time
from functools import lru_cache
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Union

import numpy as np
import numpy.typing as npt

from engine import budget as caps
from engine.gliderpit.movement import macro_steps, placed_macros
from engine.gliderpit.pit import Pit, pit_of
from engine.gliderpit.rules import DIVE_MAX, MAX_SPEED, TOP_ALTITUDE, Deceleration, launch_options
from engine.gliderpit.search import Grid, IntArray
from engine.grids import Axial
from schema.games.gliderpit import GliderPitArena

Status = Literal["reached", "unreachable", "beyond", "undecided"]


class TravelError(ValueError):
    """A source or goal the pit does not have."""


@dataclass(frozen=True, slots=True)
class Glider:
    """A glider at the start of a Movement Phase."""

    hex: Axial
    facing: int
    speed: int
    altitude: int


@dataclass(frozen=True)
class SearchLimits:
    """How far one search may go: ``max_turns`` turns (then ``beyond``), ``max_states``
    states kept or ``max_seconds`` of wall time (then ``undecided``) - and the analysis's caps,
    when one runs (:mod:`engine.budget`: ``undecided`` with the cap reached)."""

    max_turns: int = 20
    max_states: int = 2_000_000
    max_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class PathStep:
    """Where the glider is after one maneuver (``phase`` move), its launch (``launch``) or
    its Glide Phase (``glide``: ``maneuver`` is ``glide`` or ``dive-N``)."""

    turn: int
    phase: Literal["launch", "move", "glide"]
    maneuver: str
    hex: Axial
    facing: int
    speed: int
    altitude: int


@dataclass(frozen=True)
class TravelResult:
    """``reached``: the fewest ``turns`` (Movement Phases) and the ``altitude`` on arrival,
    with the ``path``; ``unreachable``: proven; ``beyond``: not within ``horizon`` turns;
    ``undecided``: a limit stopped the search (``undecided`` says which)."""

    status: Status
    turns: int | None = None
    altitude: int | None = None
    path: tuple[PathStep, ...] = ()
    horizon: int | None = None
    undecided: str | None = None
    states: int = 0


@dataclass(frozen=True)
class ReachMap:
    """Fewest turns to end a Movement Phase in each hex (and the best altitude then); hexes
    missing were not reached within ``horizon`` turns (``complete``: nothing more can be
    reached at all)."""

    turns: dict[Axial, int]
    altitude: dict[Axial, int]
    horizon: int
    complete: bool
    undecided: str | None = None
    states: int = 0

    def at(self, h: Axial) -> int | None:
        return self.turns.get(h)


Source = Union[str, Glider, Sequence[Glider]]


def launch_gliders(pit: Pit, cells: Iterable[Axial]) -> list[Glider]:
    """Every way to launch from ``cells``: each hex, each facing not toward a wall hexside,
    no dive or a dive of 1-3 levels (L55-59)."""
    out = []
    for h in cells:
        if h not in pit.cells:
            continue
        for f in pit.facings(h):
            for _, speed, alt in launch_options():
                if alt > pit.arena.floor_level:
                    out.append(Glider(h, f, speed, alt))
    return out


def _sources(pit: Pit, source: Source) -> list[Glider]:
    if isinstance(source, str):
        zone = next((z for z in pit.arena.launch_zones if z.id == source), None)
        if zone is None:
            raise TravelError(f"the pit has no launch zone {source!r}")
        return launch_gliders(pit, zone.cells)
    gliders = [source] if isinstance(source, Glider) else list(source)
    for g in gliders:
        if g.hex not in pit.cells:
            raise TravelError(f"hex {list(g.hex)} is not in the pit")
    return gliders


def _goals(pit: Pit, goal: Collection[Axial] | str) -> frozenset[Axial]:
    if isinstance(goal, str):
        if goal == "centre":
            cells = frozenset(pit.centre_cells)
        else:
            zone = next((z for z in pit.arena.launch_zones if z.id == goal), None)
            if zone is None:
                raise TravelError(f"a goal is 'centre', a launch zone id or hexes, not {goal!r}")
            cells = frozenset(zone.cells) & pit.cells
        if not cells:
            raise TravelError(f"goal {goal!r} has no hex in the pit")
        return cells
    cells = frozenset((int(q), int(r)) for q, r in goal)
    missing = sorted(cells - pit.cells)
    if missing:
        raise TravelError(f"goal hex {list(missing[0])} is not in the pit")
    if not cells:
        raise TravelError("no goal hex given")
    return cells


def _highest(bits: int) -> int:
    return int(bits).bit_length() - 1


class _Run:
    """One search: the grid, the states seen and the layers (states at the start of each
    turn), kept for rebuilding the path."""

    def __init__(self, pit: Pit, deceleration: Deceleration, limits: SearchLimits) -> None:
        self.pit, self.limits = pit, limits
        self.order = sorted(pit.cells)
        self.index = {h: i for i, h in enumerate(self.order)}
        self.grid = _grid(tuple(self.order), pit.arena.floor_level, deceleration)
        self.seen = np.zeros(self.grid.n_states, dtype=np.int64)
        self.layers: list[tuple[IntArray, IntArray]] = []
        self.dropped = False
        self.states = 0
        self.t0 = time.perf_counter()

    def start(self, gliders: Iterable[Glider]) -> tuple[IntArray, IntArray]:
        acc: dict[int, int] = {}
        for g in gliders:
            if 1 <= g.speed <= MAX_SPEED and self.pit.arena.floor_level < g.altitude <= TOP_ALTITUDE:
                sid = self.grid.state_id(self.index[g.hex], g.facing % 6, g.speed)
                acc[sid] = acc.get(sid, 0) | (1 << g.altitude)
        ids = np.array(sorted(acc), dtype=np.int64)
        alts = np.array([acc[i] for i in sorted(acc)], dtype=np.int64)
        self.seen[ids] |= alts
        self.states += int(np.bitwise_count(alts).sum())
        self.layers.append((ids, alts))
        return ids, alts

    def step(self, ids: IntArray, alts: IntArray, keep: npt.NDArray[np.bool_] | None = None,
             arrivals_only: bool = False) -> tuple[IntArray, IntArray, IntArray]:
        """One turn: the new states and the altitudes a phase may end at in each hex."""
        nids, nalts, arrive, dropped = self.grid.forward(ids, alts, self.seen, keep, arrivals_only)
        self.dropped = self.dropped or dropped
        self.states += int(np.bitwise_count(nalts).sum())
        self.layers.append((nids, nalts))
        return nids, nalts, arrive

    def limit_hit(self) -> str | None:
        if self.states > self.limits.max_states:
            return f"more than {self.limits.max_states} states"
        if self.limits.max_seconds is not None and time.perf_counter() - self.t0 > self.limits.max_seconds:
            return f"more than {self.limits.max_seconds:g} s"
        return caps.exceeded()  # the analysis's caps (engine.budget)

    def _steps(self, sid: int, alt: int, macro: int, dive: int, turn: int) -> list[PathStep]:
        hi, facing, speed = self.grid.split_id(sid)
        pm = placed_macros(speed, facing)[macro]
        out = [PathStep(turn, "move", st.maneuver, st.hex, st.facing, st.speed, st.altitude)
               for st in macro_steps(pm.macro, self.order[hi], facing, alt)]
        if dive >= 0:
            end = out[-1]
            nspeed = end.speed + dive if dive else end.speed - (1 if self.grid.deceleration == "always" else 0)
            out.append(PathStep(turn, "glide", f"dive-{dive}" if dive else "glide", end.hex, end.facing, nspeed,
                                end.altitude - dive))
        return out

    def path(self, hex_index: int, alt: int, turns: int) -> tuple[PathStep, ...]:
        """A fewest-turn plan ending its Movement Phase of turn ``turns`` in hex
        ``hex_index`` at ``alt``, rebuilt backwards through the layers."""
        tail: list[PathStep] = []
        sid, cur_alt, arrival = hex_index, alt, True
        for t in range(turns, 0, -1):
            ids, alts = self.layers[t - 1]
            prev = dict(zip(ids.tolist(), alts.tolist()))
            psid, palt, macro, dive = self.grid.explain(prev, sid, cur_alt, arrival)
            tail = self._steps(psid, palt, macro, dive, t) + tail
            sid, cur_alt, arrival = psid, palt, False
        hi, facing, speed = self.grid.split_id(sid)
        return (PathStep(0, "launch", "start", self.order[hi], facing, speed, cur_alt), *tail)


@lru_cache(maxsize=16)
def _grid(cells: tuple[Axial, ...], floor: int, deceleration: Deceleration) -> Grid:
    return Grid(list(cells), floor, deceleration)


def _bounds(run: _Run, goals: frozenset[Axial]) -> IntArray:
    """Per state id, a lower bound on the turns left before a Movement Phase can end on a
    goal: a phase enters at most its start speed in hexes (L107), and a glide adds at most 3
    speed (L133) up to 5 (L71).  The bound is consistent (it drops by at most 1 a turn)."""
    order = np.array(run.order, dtype=np.int64).reshape(len(run.order), 2)
    gl = np.array(sorted(goals), dtype=np.int64).reshape(len(goals), 2)
    dq = order[:, None, 0] - gl[None, :, 0]
    dr = order[:, None, 1] - gl[None, :, 1]
    dist = ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).min(axis=1)
    table = np.zeros((int(dist.max()) + 1, MAX_SPEED + 1), dtype=np.int64)
    for d in range(table.shape[0]):
        for s0 in range(MAX_SPEED + 1):
            left, speed, turns = d, s0, 0
            while left > 0:
                left -= speed
                speed = min(MAX_SPEED, speed + DIVE_MAX)
                turns += 1
            table[d, s0] = turns
    sid = np.arange(run.grid.n_states, dtype=np.int64)
    out: IntArray = table[dist[sid // 36], sid % 6]
    return out


def plan(arena: GliderPitArena, source: Source, goal: Collection[Axial] | str, *,
         deceleration: Deceleration = "never", limits: SearchLimits = SearchLimits(),
         path: bool = True) -> TravelResult:
    """Fewest turns from ``source`` (a launch zone id — launched any legal way —, a glider or
    gliders) to end a Movement Phase in a ``goal`` hex (hexes, a zone id or ``centre``).

    The search goes turn by turn (a state first met at turn t is met there by a fewest-turn
    plan) within a turn budget T, dropping states that cannot arrive by T (see
    :func:`_bounds`), and raises T from the bound at the source until a plan arrives; among
    the plans arriving first it keeps the one arriving highest.  ``path=False`` skips
    rebuilding the maneuvers."""
    pit = pit_of(arena)
    gliders = _sources(pit, source)
    goals = _goals(pit, goal)
    here = [g for g in gliders if g.hex in goals and 1 <= g.speed <= MAX_SPEED
            and pit.arena.floor_level < g.altitude <= TOP_ALTITUDE]
    if here:
        best = max(here, key=lambda g: (g.altitude, g.speed))
        return TravelResult("reached", 0, best.altitude,
                            (PathStep(0, "launch", "start", best.hex, best.facing % 6, best.speed, best.altitude),),
                            states=len(gliders))
    states = 0
    cap = caps.exceeded()  # spent already: no tables at all
    if cap is not None:
        return TravelResult("undecided", horizon=0, undecided=cap, states=states)
    t0 = time.perf_counter()
    budget = None
    while True:
        try:
            run = _Run(pit, deceleration, limits)
        except caps.AnalysisStopped as exc:  # no room (or time) left for the pit's tables
            return TravelResult("undecided", horizon=0, undecided=exc.reason, states=states)
        run.states, run.t0 = states, t0
        bound = _bounds(run, goals)
        ids, alts = run.start(gliders)
        if budget is None:
            budget = int(bound[ids].min()) if ids.size else 1
            budget = max(budget, 1)
        if budget > limits.max_turns:
            return TravelResult("beyond", horizon=limits.max_turns, states=run.states)
        goal_mask = np.zeros(len(run.order), dtype=bool)
        goal_mask[[run.index[g] for g in goals]] = True
        t = 0
        while ids.size and t < budget:
            reason = run.limit_hit()
            if reason is not None:
                return TravelResult("undecided", horizon=t, undecided=reason, states=run.states)
            last = t == budget - 1
            ids, alts, arrive = run.step(ids, alts, bound <= budget - t - 1, arrivals_only=last)
            if last:
                run.dropped = True  # the states after the last turn were never looked at
            t += 1
            at_goal = np.where(goal_mask, arrive, 0)
            if at_goal.any():
                highs = [(_highest(int(b)), -i) for i, b in enumerate(at_goal.tolist()) if b]
                alt, neg = max(highs)
                steps = run.path(-neg, alt, t) if path else ()
                return TravelResult("reached", t, alt, steps, states=run.states)
        states = run.states
        if not run.dropped and not ids.size:
            return TravelResult("unreachable", states=states)
        budget += 1
        if budget > limits.max_turns:
            return TravelResult("beyond", horizon=limits.max_turns, states=states)


def reach(arena: GliderPitArena, source: Source, limit: int = 6, *, deceleration: Deceleration = "never",
          limits: SearchLimits = SearchLimits()) -> ReachMap:
    """Fewest turns from ``source`` to end a Movement Phase in every hex, up to ``limit``
    turns (a heat map), with the highest altitude a glider arrives at in that turn."""
    pit = pit_of(arena)
    run = _Run(pit, deceleration, limits)
    gliders = _sources(pit, source)
    turns: dict[Axial, int] = {}
    altitude: dict[Axial, int] = {}
    for g in gliders:
        turns[g.hex] = 0
        altitude[g.hex] = max(altitude.get(g.hex, 0), g.altitude)
    ids, alts = run.start(gliders)
    t = 0
    while ids.size and t < limit:
        reason = run.limit_hit()
        if reason is not None:
            return ReachMap(turns, altitude, t, False, reason, run.states)
        ids, alts, hexbits = run.step(ids, alts)
        t += 1
        for i in np.nonzero(hexbits)[0]:
            h = run.order[int(i)]
            if h not in turns:
                turns[h] = t
                altitude[h] = _highest(int(hexbits[i]))
    return ReachMap(turns, altitude, t, not ids.size, None, run.states)
