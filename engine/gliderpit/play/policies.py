"""The seats' policies: ``greedy`` and ``lookahead``.

``greedy``: from its launch until it first ends a Movement Phase on a pit centre hex, a glider
follows the travel planner's least-time plan to the centre (:func:`engine.gliderpit.travel.plan`,
the search of the ``gp-zone-travel`` check: the launch from its zone, then each turn's maneuvers
and glide), for as long as it is where the plan expects it at the start of a turn; thrown off
(a deceleration roll, an air current, a contact) it plans again from where it is.  A lone glider
with the currents and the deceleration die out of play (``air_currents`` False, ``deceleration``
"never") is never thrown off, so its record reaches the centre in exactly the planner's time.
Once at the centre (or with no plan), it takes each turn the Movement Phase and glide with the
best :func:`value` one turn on.

``lookahead``: plays for survival from the launch: each option is valued two turns on - the
state after this turn (the deceleration die's two outcomes weighted by their chances, and the
likely air current of the row it ends in) and the best option from there - for the
``lookahead_width`` options best one turn on.

Every choice a seat makes - the plan (its launch included), the fallback launch, the Movement
Phase and dive with the best value, the fallback maneuvers - is made in the seat's frame
(:mod:`engine.gliderpit.play.frame`, the parameter ``symmetric_frames``): on a symmetric pit,
as the first zone of its orbit would make it in the image situation, so that the searches'
orders and "first of equals" cannot tell mirror zones apart.

Both place the air current markers (when they hold the lowest chit) to lift their own side and
sink the others: each roll's marker goes where it moves the most gliders of their side up (or of
other sides down), on the first such row.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

import numpy as np
import numpy.typing as npt

from engine.gliderpit.movement import macro_steps, placed_macros
from engine.gliderpit.pit import Pit, pit_of
from engine.gliderpit.play.frame import Frame
from engine.gliderpit.play.game import DECEL_CHANCE, SPIN_LOSS, Game, current_rows, token
from engine.gliderpit.rules import (
    DIVE_MAX,
    LAUNCH_SPEED,
    MAX_SPEED,
    TOP_ALTITUDE,
    PhaseState,
    chance_any_marker,
    launch_options,
    maneuvers,
)
from engine.gliderpit.search import Grid
from engine.gliderpit.travel import Glider as TravelGlider
from engine.gliderpit.travel import PathStep, SearchLimits, TravelResult, plan
from engine.grids import Axial, straight_run
from schema.games.gliderpit import GliderPitArena

FloatArray = npt.NDArray[np.float64]
#: Value lost when a state leaves no Movement Phase clear of the wall next turn.
WALL_RISK = 5.0


@dataclass(frozen=True)
class Kit:
    """What every game on one pit shares: the travel search's lookup tables (wall-clear
    outcomes per hex, facing and start speed), hex indices and distances to the centre."""

    pit: Pit
    grid: Grid
    order: tuple[Axial, ...]
    index: Mapping[Axial, int]
    centre: FloatArray
    safe: npt.NDArray[np.bool_]  # (H, 6, 6): some Movement Phase keeps clear of the wall


@lru_cache(maxsize=8)
def kit_for(arena: GliderPitArena) -> Kit:
    pit = pit_of(arena)
    order = tuple(sorted(pit.cells))
    grid = Grid(list(order), arena.floor_level, "never")
    safe = np.zeros((len(order), 6, MAX_SPEED + 1), dtype=bool)
    for s, tb in grid.tables.items():
        safe[:, :, s] = (tb.window != 0).any(axis=2)
    centre = np.array([pit.centre_distance(h) for h in order], dtype=np.float64)
    return Kit(pit, grid, order, {h: i for i, h in enumerate(order)}, centre, safe)


@lru_cache(maxsize=4096)
def _plan(arena: GliderPitArena, source: str | TravelGlider, turns: int, states: int, deceleration: str) -> TravelResult:
    return plan(arena, source, "centre", deceleration="always" if deceleration == "always" else "never",
                limits=SearchLimits(max_turns=turns, max_states=states))


def _value(game: Game, kit: Kit, hexes: npt.NDArray[np.int64], facings: npt.NDArray[np.int64],
           speeds: npt.NDArray[np.int64], alts: npt.NDArray[np.int64]) -> FloatArray:
    """Value of gliders at the start of a Movement Phase (vectorised): altitude above FLOOR,
    ``speed_value`` a speed, less ``centre_weight`` a hex from the centre, less a Spin's
    expected loss at speed 0 and :data:`WALL_RISK` where no phase keeps clear of the wall."""
    sv, cw = float(game.p["speed_value"]), float(game.p["centre_weight"])
    v = (alts - game.floor).astype(np.float64) + sv * speeds - cw * kit.centre[hexes]
    v -= np.where(speeds <= 0, SPIN_LOSS + sv, 0.0)
    clear = kit.safe[hexes, facings, np.minimum(speeds, MAX_SPEED)]
    v -= np.where((speeds > 0) & ~clear, WALL_RISK, 0.0)
    v = np.where(alts <= game.floor, -1e6, v)
    return v


@dataclass(frozen=True)
class Options:
    """A glider's choices one turn on: outcome index, dive, and the state after the glide."""

    outcome: npt.NDArray[np.int64]
    dive: npt.NDArray[np.int64]
    hex: npt.NDArray[np.int64]
    facing: npt.NDArray[np.int64]
    speed: npt.NDArray[np.int64]
    alt: npt.NDArray[np.int64]
    value: FloatArray  # expected value (the deceleration die weighed in)


def options(game: Game, kit: Kit, h: int, facing: int, speed: int, alt: int) -> Options | None:
    """Every wall-clear Movement Phase outcome and Glide Phase choice from a state (None at speed
    0 or when there is none), valued by :func:`_value` with the die weighed in."""
    if speed < 1:
        return None
    tb = kit.grid.tables[speed]
    gr = tb.groups
    if not 0 <= alt <= TOP_ALTITUDE:
        return None
    ok = np.nonzero((tb.window[h, facing].astype(np.int64) >> alt) & 1)[0]
    if not ok.size:
        return None
    game.spend(int(ok.size))
    end = tb.end_index[h, facing, ok].astype(np.int64)
    efacing = (gr.facing[ok] + facing) % 6
    espeed = gr.speed[ok]
    ealt = alt + gr.dalt[ok]
    mode = game.p["deceleration"]
    p_slow = {"roll": DECEL_CHANCE, "never": 0.0, "always": 1.0}[mode]
    n = ok.size
    # one valuation of every variant: glide (speed kept, speed lost) and dives of 1..3
    speeds = np.concatenate([espeed, np.maximum(espeed - 1, 0)] + [espeed + d for d in range(1, DIVE_MAX + 1)])
    alts = np.concatenate([ealt, ealt] + [ealt - d for d in range(1, DIVE_MAX + 1)])
    v = _value(game, kit, np.tile(end, DIVE_MAX + 2), np.tile(efacing, DIVE_MAX + 2), speeds, alts).reshape(DIVE_MAX + 2, n)
    vals = np.concatenate([((1 - p_slow) * v[0] + p_slow * v[1])[None, :], v[2:]])
    keep = np.ones((DIVE_MAX + 1, n), dtype=bool)
    for d in range(1, DIVE_MAX + 1):
        keep[d] = ~gr.climbed[ok] & (espeed + d <= MAX_SPEED) & (ealt - d > game.floor)
    dive = np.repeat(np.arange(DIVE_MAX + 1, dtype=np.int64)[:, None], n, axis=1)
    sel = keep.ravel()
    return Options(np.tile(ok, DIVE_MAX + 1)[sel], dive.ravel()[sel], np.tile(end, DIVE_MAX + 1)[sel],
                   np.tile(efacing, DIVE_MAX + 1)[sel], (espeed[None, :] + dive).ravel()[sel],
                   (ealt[None, :] - dive).ravel()[sel], vals.ravel()[sel])


def macro_tokens(game: Game, g_hex: Axial, facing: int, speed: int, alt: int, outcome: int) -> list[str] | None:
    """The maneuver tokens of the first macro of ``outcome`` that keeps clear of the wall,
    LEDGE and FLOOR from this state."""
    kit = kit_for(game.arena)
    gr = kit.grid.tables[speed].groups
    placed = placed_macros(speed, facing)
    for mi in gr.macros[outcome]:
        pm = placed[mi]
        if not pm.macro.altitudes_ok(alt, game.floor):
            continue
        if any((g_hex[0] + dq, g_hex[1] + dr) not in kit.pit.cells for dq, dr in pm.entered):
            continue
        steps = macro_steps(pm.macro, g_hex, facing, alt)
        return _tokens([(st.maneuver, st.speed, st.altitude) for st in steps], speed, alt)
    return None


def _tokens(steps: list[tuple[str, int, int]], speed: int, alt: int) -> list[str]:
    out = []
    turned = False
    for name, s, a in steps:
        paid = None
        if name.startswith("turn") and not turned:
            paid = "speed" if s < speed else "altitude"
            turned = True
        out.append(token(name, paid))
        speed, alt = s, a
    return out


def legal_dive(game: Game, start: int, want: int) -> int:
    """``want`` levels, or fewer when the Glide Phase would pass another glider's level in the
    hex (L133) or dive beyond speed 5 or to FLOOR."""
    g = game.gliders[start]
    d = 0 if g.climbed else want
    while d > 0:
        bad = g.speed + d > MAX_SPEED or g.altitude - d <= game.floor or any(
            game.occupant(g.hex, lvl, start) is not None for lvl in range(g.altitude - d, g.altitude))
        if not bad:
            return d
        d -= 1
    return 0


@dataclass
class PlannedTurn:
    start: tuple[Axial, int, int, int]
    tokens: list[str]
    dive: int | None


def _plan_turns(path: tuple[PathStep, ...]) -> list[PlannedTurn]:
    out: list[PlannedTurn] = []
    cur = path[0]
    t = 1
    while True:
        steps = [s for s in path if s.turn == t]
        if not steps:
            return out
        moves = [s for s in steps if s.phase == "move"]
        glide = next((s for s in steps if s.phase == "glide"), None)
        toks = _tokens([(s.maneuver, s.speed, s.altitude) for s in moves], cur.speed, cur.altitude)
        dive = None if glide is None else (0 if glide.maneuver == "glide" else int(glide.maneuver.split("-")[1]))
        out.append(PlannedTurn((cur.hex, cur.facing, cur.speed, cur.altitude), toks, dive))
        if glide is None:
            return out
        cur = glide
        t += 1


class Greedy:
    """The plan to the centre, then the best value one turn on."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.turns: list[PlannedTurn] = []
        self.base = 0
        self.dive: int | None = None
        self.queue: list[str] = []

    def frame(self, game: Game) -> Frame:
        """The seat's :class:`~engine.gliderpit.play.frame.Frame` (``symmetric_frames``)."""
        return game.frame(self.start)

    def _search(self, game: Game, source: str | TravelGlider) -> tuple[TravelResult, tuple[PathStep, ...]]:
        """The travel plan from ``source`` (a zone id or a glider of the world), asked in the
        seat's frame; the result and its path in the world."""
        fr = self.frame(game)
        if isinstance(source, str):
            src: str | TravelGlider = fr.zone or source
        else:
            src = fr.glider(source)
        r = _plan(game.arena, src, int(game.p["planner_turns"]), int(game.p["planner_states"]),
                  str(game.p["deceleration"]))
        game.spend(max(1, r.states))
        return r, fr.world_path(r.path)

    def launch(self, game: Game) -> tuple[Axial, int, int]:
        g = game.gliders[self.start]
        r, path = self._search(game, g.zone)
        if r.status == "reached" and path:
            first = path[0]
            self.turns, self.base = _plan_turns(path), 1
            return first.hex, first.facing, first.speed - LAUNCH_SPEED
        return self.best_launch(game)

    def best_launch(self, game: Game) -> tuple[Axial, int, int]:
        """The launch whose state has the best :func:`_value` (first of equals, in the order of
        the frame's zone)."""
        kit = kit_for(game.arena)
        g = game.gliders[self.start]
        fr = self.frame(game)
        cells = zone_cells(game, fr.zone or g.zone)
        best: tuple[float, Axial, int, int] | None = None
        for h in cells:
            if h not in kit.pit.cells:
                continue
            for f in kit.pit.facings(h):
                for dive, speed, alt in launch_options():
                    v = float(self.launch_value(game, kit, kit.index[h], f, speed, alt))
                    if best is None or v > best[0]:
                        best = (v, h, f, dive)
        if best is None:  # a zone with no launch hex: the rules refuse any
            return (g.cells[0], 0, 0)
        h, f = fr.world(best[1], best[2])
        return h, f, best[3]

    def launch_value(self, game: Game, kit: Kit, h: int, f: int, speed: int, alt: int) -> float:
        arr = np.array([h]), np.array([f]), np.array([speed]), np.array([alt])
        return float(_value(game, kit, *arr)[0])

    def _following(self, game: Game) -> PlannedTurn | None:
        g = game.gliders[self.start]
        if g.centre_turn is not None:
            return None
        i = game.turn - self.base
        here = (g.hex, g.facing, g.speed, g.altitude)
        if 0 <= i < len(self.turns) and self.turns[i].start == here:
            return self.turns[i]
        r, path = self._search(game, TravelGlider(*here))
        if r.status != "reached" or not path or r.turns == 0:
            self.turns = []
            return None
        self.turns, self.base = _plan_turns(path), game.turn
        return self.turns[0]

    def move(self, game: Game) -> list[str]:
        step = self._following(game)
        if step is not None:
            self.dive = step.dive
            return list(step.tokens)
        return self.survive(game)

    def maneuver(self, game: Game, state: PhaseState) -> str:
        """The next planned maneuver (the phase is planned at its start); when it is no longer
        open (a contact lowered the glider mid-phase, L79), the rest of the plan is dropped and
        each maneuver left is the first open one of Forward, Turn, Climb, Slip that stays in the
        pit (straight on when none does; left before right in the seat's frame)."""
        if state.mp == state.start_speed:
            self.queue = self.move(game)
        if self.queue:
            tok = self.queue.pop(0)
            name, _, cost = tok.partition("/")
            for n, nxt in maneuvers(state, floor=game.floor):
                if n == name and (not name.startswith("turn") or state.turned or
                                  (cost == "speed" and nxt.speed < state.speed) or
                                  (cost == "altitude" and nxt.altitude < state.altitude)):
                    if not (state.turned and cost):
                        return tok
        self.queue = []
        self.dive = None
        cells = kit_for(game.arena).pit.cells
        open_ = [(n, nxt) for n, nxt in maneuvers(state, floor=game.floor) if nxt.hex in cells and
                 (n != "slip-left" and n != "slip-right" or state.mp >= 2)]
        fr = self.frame(game)
        for want in fr.world_tokens(("forward", "turn-left", "turn-right", "climb", "slip-left", "slip-right")):
            for n, nxt in open_:
                if n == want:
                    paid: str | None = None
                    if n.startswith("turn") and not state.turned:
                        paid = "speed" if nxt.speed < state.speed else "altitude"
                    return token(n, paid)
        return "forward"

    def choose(self, game: Game, opts: Options) -> int:
        return int(np.argmax(opts.value))

    def survive(self, game: Game) -> list[str]:
        """The Movement Phase and dive with the best value (:meth:`choose`), chosen in the
        seat's frame."""
        g = game.gliders[self.start]
        kit = kit_for(game.arena)
        fr = self.frame(game)
        h, f = fr.state(g.hex, g.facing)
        opts = options(game, kit, kit.index[h], f, g.speed, g.altitude)
        if opts is None:  # nothing keeps clear of the wall and FLOOR: straight on into the wall (L121)
            self.dive = 0
            ahead = straight_run(kit.pit.cells, g.hex, g.facing, g.speed)
            return ["forward"] * min(g.speed, ahead + 1)
        i = self.choose(game, opts)
        self.dive = int(opts.dive[i])
        toks = macro_tokens(game, h, f, g.speed, g.altitude, int(opts.outcome[i]))
        assert toks is not None  # the outcome's window says one of its macros fits
        return fr.world_tokens(toks)

    def glide(self, game: Game) -> int:
        want = self.dive
        self.dive = None
        if want is None:  # arrived at the centre: the better of gliding and a dive by value
            g = game.gliders[self.start]
            kit = kit_for(game.arena)
            h, f = self.frame(game).state(g.hex, g.facing)
            best, want = -1e18, 0
            for d in range(DIVE_MAX + 1):
                if d and (g.speed + d > MAX_SPEED or g.altitude - d <= game.floor):
                    continue
                v = self.launch_value(game, kit, kit.index[h], f, g.speed + d, g.altitude - d)
                if v > best:
                    best, want = v, d
        return legal_dive(game, self.start, want)


class Lookahead(Greedy):
    """Survival two turns deep (see the module docstring)."""

    def launch(self, game: Game) -> tuple[Axial, int, int]:
        return self.best_launch(game)

    def launch_value(self, game: Game, kit: Kit, h: int, f: int, speed: int, alt: int) -> float:
        opts = options(game, kit, h, f, speed, alt)
        if opts is None:
            return super().launch_value(game, kit, h, f, speed, alt) - WALL_RISK
        return float(opts.value.max())

    def move(self, game: Game) -> list[str]:
        return self.survive(game)

    def choose(self, game: Game, opts: Options) -> int:
        kit = kit_for(game.arena)
        width = max(1, int(game.p["lookahead_width"]))
        top = np.argsort(-opts.value, kind="stable")[:width]
        mode = game.p["deceleration"]
        p_slow = {"roll": DECEL_CHANCE, "never": 0.0, "always": 1.0}[mode]
        best_i, best_v = int(top[0]), -1e18
        for i in top.tolist():
            h, f, s, a = int(opts.hex[i]), int(opts.facing[i]), int(opts.speed[i]), int(opts.alt[i])
            shift = self.current_shift(game, kit, h, a)
            branches = [(1.0, s)] if int(opts.dive[i]) else [(1 - p_slow, s), (p_slow, max(0, s - 1))]
            v = shift
            for p, sp in branches:
                if p == 0.0:
                    continue
                nxt = options(game, kit, h, f, sp, a)
                if nxt is None:
                    v += p * (super().launch_value(game, kit, h, f, sp, a) - (WALL_RISK if sp else 0.0))
                else:
                    v += p * float(nxt.value.max())
            if v > best_v + 1e-12:
                best_i, best_v = i, v
        return best_i

    def current_shift(self, game: Game, kit: Kit, h: int, alt: int) -> float:
        """The expected altitude the air currents give a glider ending in hex ``h`` at ``alt``:
        the chance a marker may go on its row (:func:`engine.gliderpit.rules.chance_any_marker`),
        up when its side is likely to place them (it flies lowest, so it would hold chit 1,
        L102), down otherwise; 0 with the currents off."""
        if not game.p["air_currents"]:
            return 0.0
        line = game.arena.line_of(kit.order[h])
        labels = [r.label for r in game.arena.rows if r.line == line]
        if not labels:
            return 0.0
        me = game.gliders[self.start]
        others = [g.altitude for g in game.airborne() if g.side != me.side]
        sign = 1.0 if not others or alt <= min(others) else -1.0
        return sign * chance_any_marker(labels)


POLICIES: Mapping[str, type[Greedy]] = {"greedy": Greedy, "lookahead": Lookahead}


def zone_cells(game: Game, zone: str) -> tuple[Axial, ...]:
    return next(tuple(z.cells) for z in game.arena.launch_zones if z.id == zone)


def place(game: Game, start: int, total: int, left: Mapping[str, int]) -> tuple[str | None, str]:
    """The placer's marker for a roll of ``total``: the row and kind that move most gliders
    the placer's way (own side up, others down), first of equals; a row without gliders when
    every choice hurts the placer's side."""
    me = game.gliders[start].side
    kinds = [k for k in ("updraft", "downdraft") if left.get(k, 0) > 0]
    rows = current_rows(game, total)
    if not rows:
        return None, kinds[0]
    best: tuple[int, str | None, str] | None = None
    for row in rows:
        for kind in kinds:
            if row.current not in ("any", kind):
                continue
            sign = 1 if kind == "updraft" else -1
            gain = sum(sign * (1 if g.side == me else -1) for g in game.airborne()
                       if game.arena.line_of(g.hex) == row.line)
            if best is None or gain > best[0]:
                best = (gain, row.id, kind)
    if best is None:  # no row takes the markers left: the first row, the first kind (refused by the rules)
        return rows[0].id, kinds[0]
    return best[1], best[2]


class Seats:
    """The game's :class:`engine.gliderpit.play.game.Decisions`: each seat's policy."""

    def __init__(self, policies: Mapping[int, Greedy]) -> None:
        self.by_seat = policies

    def launch(self, game: Game, start: int) -> tuple[Axial, int, int]:
        return self.by_seat[start].launch(game)

    def maneuver(self, game: Game, start: int, state: PhaseState) -> str:
        return self.by_seat[start].maneuver(game, state)

    def glide(self, game: Game, start: int) -> int:
        return self.by_seat[start].glide(game)

    def place(self, game: Game, start: int, total: int, left: Mapping[str, int]) -> tuple[str | None, str]:
        return place(game, start, total, left)
