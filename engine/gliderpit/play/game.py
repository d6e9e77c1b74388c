"""One Glider-Pit game played by the book's Turn Sequence (L89-L100): the rules side.

Before turn 1 the gliders launch, in an order drawn as the face-down setup sequence chits
(L41, L53): each into a hex of its own launch zone, facing away from the wall, with an optional
dive of 1-3 levels (L55-L59).  Each turn: sequence chits by altitude, then speed, ties drawn
(L102-L104; drawn outright under the optional Random Assignment of Sequence Chits, L221); each
glider's Movement Phase spends its allowance exactly through :func:`engine.gliderpit.rules.maneuvers`
(L107-L117), Spins at speed 0 (L119), collides with the pit wall (L121), then its Glide Phase
dives or glides and checks deceleration (L131-L137); last, the lowest chit places the four air
current markers on rows matching 2d6 rolls and their effects apply (L193-L211).  A glider at
FLOOR or lower (the scenario's short game's FLOOR when set, L217) is out (L67).

Gliders meet by the Stacking rule (L75-L79): a glider moved into a hex at another's altitude
is lowered one level (a ``contact`` event, recorded once by the glider that moved, ``other`` the
other's start number); so is one whose first Turn, paid in altitude, sets it on another's level
in its hex, and one that a current sets on another's level in the same hex (the currents keep
the gliders of a hex in their order).
Combat (rams, armed attacks, stun, nets) is not played (docs/rules-decisions.md, "Simulated
play: Glider-Pit").

What a seat does is asked of a :class:`Decisions` (a policy when playing, the record when
replaying); what the rules make of it is decided here only.  Each seat has a
:class:`~engine.gliderpit.play.frame.Frame` (:meth:`Game.frame`, the parameter
``symmetric_frames``): its policy chooses in it, and it reads a Spin's Random Direction
Indicator in it.  Dice come from ``numpy.random.default_rng(setup.seed)`` in the rules' own
order, never from a policy, so a replay rolls them again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Collection, Mapping, Protocol, Sequence

import numpy as np

from engine.gliderpit.invariance import zone_frames
from engine.gliderpit.pit import Pit, pit_of
from engine.gliderpit.play.frame import Frame
from engine.gliderpit.rules import (
    CURRENT_MARKERS,
    DIVE_MAX,
    DOWNDRAFT_MARKERS,
    LAUNCH_DIVE_MAX,
    LAUNCH_SPEED,
    LEDGE,
    MAX_SPEED,
    TOP_ALTITUDE,
    UPDRAFT_MARKERS,
    PhaseState,
    begin_phase,
    current_effect,
    maneuvers,
)
from engine.grids import Axial
from engine.play import Event, PieceState, PlaySetup, Turn
from schema.games.gliderpit import GliderPitArena, Row

#: The engine's parameters and defaults (each a decision in docs/rules-decisions.md,
#: "Simulated play: Glider-Pit").
PARAMETERS: Mapping[str, Any] = {
    # turns a game lasts at most when the setup gives none (the book plays until one side is
    # left, L10)
    "turn_limit": 40,
    # step 4 of the turn, the 2d6 air currents (L193-L211); False: none are rolled
    "air_currents": True,
    # the Glide Phase's deceleration die (L135): "roll" (the book: 1d6, 1-2 loses a speed),
    # "never" or "always" (the travel model's readings)
    "deceleration": "roll",
    # the greedy policy's plans: the travel search's turn horizon and state bound
    "planner_turns": 12,
    "planner_states": 200_000,
    # the policies' value of a state: altitude + speed_value * speed - centre_weight * hexes
    # from the pit centre (the expected loss of a Spin counted for speed 0)
    "speed_value": 0.8,
    "centre_weight": 0.05,
    # the lookahead policy: first-turn options looked at a second turn ahead
    "lookahead_width": 6,
    # on a pit whose declared symmetry holds under the rules, each seat decides (and reads the
    # Random Direction Indicator) in the frame of the first zone of its orbit
    # (engine.gliderpit.play.frame); False: every seat in the world's frame
    "symmetric_frames": True,
}

#: Chance the deceleration die shows 1 or 2 (L135).
DECEL_CHANCE = 2 / 6
#: Expected levels a Spin costs: 1d6 (L119).
SPIN_LOSS = 3.5

Side = str


class GameStopped(Exception):
    """The game ended in the middle of a turn (one side left, or the work limit)."""


class RuleBreak(Exception):
    """A decision the rules refuse (raised while replaying a record): turn, seat and why."""

    def __init__(self, turn: int, start: int, reason: str) -> None:
        super().__init__(reason)
        self.turn, self.start, self.reason = turn, start, reason


@dataclass
class Glider:
    """One glider in play (its seat's start number is its Airspeed Track)."""

    start: int
    side: Side
    zone: str
    cells: tuple[Axial, ...]
    hex: Axial = (0, 0)
    facing: int = 0
    speed: int = 0
    altitude: int = LEDGE
    out: bool = False
    flown: int = 0  # turns ended airborne
    centre_turn: int | None = None
    chit: int = 0
    launch: list[int] = field(default_factory=list)  # [q, r, facing, dive] (turn 1)
    moves: list[str] = field(default_factory=list)  # this turn's maneuver tokens
    glide: int | None = None  # this turn's dive (0: glided), None: no Glide Phase
    climbed: bool = False  # climbed in this turn's Movement Phase (no dive then, L133)
    rolls: list[int] = field(default_factory=list)  # this turn's dice for this glider
    currents: list[list[Any]] = field(default_factory=list)  # [total, row id or None, kind] placed


class Decisions(Protocol):
    """What the seats decide (a policy while playing, the record while replaying)."""

    def launch(self, game: Game, start: int) -> tuple[Axial, int, int]: ...

    def maneuver(self, game: Game, start: int, state: PhaseState) -> str:
        """The next maneuver of the Movement Phase (asked while movement points are left, L107)."""
        ...

    def glide(self, game: Game, start: int) -> int: ...

    def place(self, game: Game, start: int, total: int, left: Mapping[str, int]) -> tuple[str | None, str]: ...


def token(name: str, paid: str | None) -> str:
    """A maneuver as the record writes it: a first Turn says what it cost (L113)."""
    return f"{name}/{paid}" if paid else name


class Game:
    """The state of one game and the rules that change it."""

    def __init__(self, arena: GliderPitArena, setup: PlaySetup, parameters: Mapping[str, Any]) -> None:
        self.arena = arena
        self.pit: Pit = pit_of(arena)
        self.setup = setup
        self.p = dict(parameters)
        if self.p["deceleration"] not in ("roll", "never", "always"):
            raise ValueError(f"deceleration is roll, never or always, not {self.p['deceleration']!r}")
        self.floor = arena.floor_level
        self.rng = np.random.default_rng(setup.seed)
        zones = {z.track: z for z in arena.launch_zones}
        teams = dict(arena.scenario.teams)
        self.gliders: dict[int, Glider] = {}
        for k in setup.starts:
            z = zones[k]
            self.gliders[k] = Glider(k, teams.get(k, f"track {k}"), z.id, tuple(z.cells))
        self.sides = {g.side for g in self.gliders.values()}
        self.rows: dict[int, list[Row]] = {}
        for row in arena.rows:
            if self.pit.row_number(row.line) is not None and row not in self.rows.get(row.label, []):
                self.rows.setdefault(row.label, []).append(row)
        frames = zone_frames(arena) if self.p["symmetric_frames"] else {}
        self.frames = {k: Frame(frames[k].op, zones[frames[k].first].id) if k in frames else Frame(None)
                       for k in setup.starts}
        self.turn = 0
        self.work = 0
        self.events: list[Event] = []
        self.ended: str | None = None
        self.turns: list[Turn] = []

    # ------------------------------------------------------------------ helpers
    def frame(self, start: int) -> Frame:
        """Seat ``start``'s frame (the parameter ``symmetric_frames``)."""
        return self.frames[start]

    def airborne(self) -> list[Glider]:
        return [g for g in self.gliders.values() if not g.out]

    def spend(self, units: int = 1) -> None:
        """Count work; stop the game at the setup's bound."""
        self.work += units
        if self.setup.max_work is not None and self.work > self.setup.max_work and self.ended is None:
            self.ended = "work-limit"
            raise GameStopped

    def xy(self, h: Axial) -> tuple[float, float]:
        x, y = self.pit.layout.center(h)
        return round(x, 9), round(y, 9)

    def _event(self, kind: str, g: Glider, other: str | None = None, detail: str = "") -> None:
        x, y = self.xy(g.hex)
        self.events.append(Event(kind, g.start, x, y, other, 0.0, detail))

    def roll(self, g: Glider, dice: int = 1) -> int:
        """``dice`` d6 summed, each die kept in the glider's ``rolls``."""
        faces = [int(v) for v in self.rng.integers(1, 7, size=dice)]
        g.rolls.extend(faces)
        return sum(faces)

    def occupant(self, h: Axial, altitude: int, exclude: int, ignore: Collection[int] = ()) -> Glider | None:
        for o in self.gliders.values():
            if o.start != exclude and o.start not in ignore and not o.out and o.hex == h and o.altitude == altitude:
                return o
        return None

    def eliminate(self, g: Glider, why: str) -> None:
        g.out = True
        self._event("eliminated", g, detail=why)
        self.check_end()

    def check_end(self) -> None:
        """"Victory is declared when every glider on the mapsheet is controlled by the same
        player or team" (L10); a game of one side ends when its last glider is out."""
        sides = {g.side for g in self.airborne()}
        if (len(self.sides) > 1 and len(sides) <= 1) or not sides:
            self.ended = "last-standing"
            raise GameStopped

    def lower_on_stack(self, g: Glider, s: PhaseState | None = None, ignore: Collection[int] = ()) -> PhaseState | None:
        """Stacking (L75-L79): while another glider (not one of ``ignore``) holds the hex at the
        same altitude, the glider that came is lowered one level (one ``contact`` event per
        glider met)."""
        while True:
            alt = s.altitude if s is not None else g.altitude
            here = s.hex if s is not None else g.hex
            o = self.occupant(here, alt, g.start, ignore)
            if o is None:
                return s
            if s is not None:
                s = replace(s, altitude=alt - 1)
            g.altitude = alt - 1
            x, y = self.xy(here)
            self.events.append(Event("contact", g.start, x, y, str(o.start), 0.0,
                                     f"met glider {o.start} at altitude {alt} in {list(here)}: lowered to {alt - 1}"))

    # ------------------------------------------------------------------ the turn
    def play_turn(self, dec: Decisions) -> None:
        self.turn += 1
        self.events = []
        for g in self.gliders.values():
            g.moves, g.glide, g.rolls, g.currents, g.chit, g.climbed = [], None, [], [], 0, False
            if self.turn > 1:
                g.launch = []
        try:
            if self.turn == 1:
                self.launch(dec)
            order = self.chits()
            for i, g in enumerate(order, start=1):
                g.chit = i
            for g in order:
                if not g.out:
                    self.sequence(g, dec)
            if self.p["air_currents"] and order:
                self.air_currents(order[0], dec)
            for g in self.airborne():
                g.flown = self.turn
            self.check_end()
        except GameStopped:
            pass
        finally:
            self.turns.append(self.snapshot())

    def launch(self, dec: Decisions) -> None:
        """Launch (L53-L59), in the order of setup sequence chits drawn at random (L41)."""
        order = [self.gliders[k] for k in self.setup.starts]
        for i in self.rng.permutation(len(order)):
            g = order[int(i)]
            h, facing, dive = dec.launch(self, g.start)
            self.spend()
            if h not in g.cells or h not in self.pit.cells:
                raise RuleBreak(self.turn, g.start, f"launched from {list(h)}, not a pit hex of launch zone {g.zone} (L55)")
            if facing not in self.pit.facings(h):
                raise RuleBreak(self.turn, g.start, f"launched facing {facing} toward a pit wall in {list(h)} (L55)")
            if not 0 <= dive <= LAUNCH_DIVE_MAX:
                raise RuleBreak(self.turn, g.start, f"a launch dive of {dive} levels: 0 to 3 (L59)")
            g.hex, g.facing, g.speed, g.altitude = h, facing, LAUNCH_SPEED + dive, TOP_ALTITUDE - dive
            g.launch = [h[0], h[1], facing, dive]
            self._event("launch", g, g.zone, f"launched from {g.zone} at speed {g.speed}, altitude {g.altitude}")
            self.lower_on_stack(g)
            if g.altitude <= self.floor:
                self.eliminate(g, "launched to FLOOR (L67)")

    def chits(self) -> list[Glider]:
        """Sequence chits (L102-L104): lowest altitude first, then slowest, ties by a draw; the
        whole order drawn under the optional random chits (L221).  One draw per glider, every turn."""
        gs = list(self.gliders.values())
        draw = self.rng.random(len(gs))
        if self.arena.scenario.optional_rules.random_sequence_chits:
            keyed = sorted(zip(gs, draw), key=lambda t: (t[0].out, t[1]))
        else:
            keyed = sorted(zip(gs, draw), key=lambda t: (t[0].out, t[0].altitude, t[0].speed, t[1]))
        return [g for g, _ in keyed]

    def spin(self, g: Glider, reset_speed: bool) -> None:
        """SPIN (L119, L137): 1d6 levels lost; still airborne, speed 1 (left at 0 after a
        deceleration at speed 0) and a facing from the Random Direction Indicator (1d6: face k
        is facing k - 1 as the seat reads the indicator: in its frame, :meth:`frame` - a fair
        die's faces relabelled, so each facing keeps its chance of 1/6)."""
        loss = self.roll(g)
        g.altitude -= loss
        self._event("spin", g, detail=f"spun, {loss} levels lost")
        if g.altitude <= self.floor:
            self.eliminate(g, "spun to FLOOR (L67)")
            return
        if reset_speed:
            g.speed = 1
        g.facing = self.frame(g.start).facing(self.roll(g) - 1)
        self.lower_on_stack(g)
        if g.altitude <= self.floor:
            self.eliminate(g, "lowered to FLOOR by stacking (L67, L79)")

    def sequence(self, g: Glider, dec: Decisions) -> None:
        """One glider's Movement and Glide Phases (combat and the later phases are not played)."""
        if g.speed == 0:
            self.spin(g, reset_speed=True)
            return
        s: PhaseState | None = begin_phase(g.hex, g.facing, g.speed, g.altitude)
        climbed = False
        i = 0
        while s is not None and s.mp > 0:
            i += 1
            self.spend()
            tok = dec.maneuver(self, g.start, s)
            name, _, paid = tok.partition("/")
            options = [(n, nxt) for n, nxt in maneuvers(s, floor=self.floor) if n == name]
            if name.startswith("turn") and options:
                if not s.turned:
                    options = [(n, nxt) for n, nxt in options
                               if (paid == "speed" and nxt.speed < s.speed) or (paid == "altitude" and nxt.altitude < s.altitude)]
                elif paid:
                    options = []
            if not options:
                raise RuleBreak(self.turn, g.start, f"maneuver {i} {tok!r} is not open at speed {s.speed}, altitude "
                                f"{s.altitude} with {s.mp} of {s.start_speed} movement points left (L107-L117)")
            nxt = options[0][1]
            g.moves.append(tok)
            if nxt.hex not in self.pit.cells:  # PIT WALL COLLISION (L121)
                g.hex, g.facing, g.altitude, g.speed = s.hex, s.facing, s.altitude, 0
                self._event("wall", g, detail=f"collided with the pit wall at speed {s.speed}")
                return
            climbed = climbed or nxt.climbed
            g.climbed = climbed
            # a move into a hex (L77), or a first Turn paid in altitude onto another's level in
            # the glider's own hex: "A hex may never be occupied by two gliders at the same
            # altitude level" (L75), the glider that came set below (L79)
            moved = nxt.hex != s.hex or nxt.altitude != s.altitude
            s = nxt
            g.hex, g.facing, g.speed, g.altitude = s.hex, s.facing, s.speed, s.altitude
            if moved:
                s = self.lower_on_stack(g, s)
                if g.altitude <= self.floor:
                    self.eliminate(g, "lowered to FLOOR by stacking (L67, L79)")
                    return
        if g.hex in self.pit.centre_cells and g.centre_turn is None:
            g.centre_turn = self.turn
            self._event("centre", g, "centre", f"reached the pit centre in turn {self.turn}")
        self.glide_phase(g, climbed, dec)

    def glide_phase(self, g: Glider, climbed: bool, dec: Decisions) -> None:
        """The Glide Phase (L131-L137)."""
        dive = dec.glide(self, g.start)
        self.spend()
        g.glide = dive
        if not 0 <= dive <= DIVE_MAX:
            raise RuleBreak(self.turn, g.start, f"dived {dive} levels: 1 to 3 (L133)")
        if dive and climbed:
            raise RuleBreak(self.turn, g.start, "dived after climbing in the Movement Phase (L133)")
        if dive:
            for lvl in range(g.altitude - dive, g.altitude):
                o = self.occupant(g.hex, lvl, g.start)
                if o is not None:
                    raise RuleBreak(self.turn, g.start, f"dived through or onto glider {o.start}'s level {lvl} in its "
                                    "hex (L133; rams are not played)")
            g.altitude -= dive
            g.speed += dive
            if g.speed > MAX_SPEED:
                self.eliminate(g, "dived beyond speed 5 (L71)")
            elif g.altitude <= self.floor:
                self.eliminate(g, "dived to FLOOR (L67)")
            return
        mode = self.p["deceleration"]
        slows = mode == "always" or (mode == "roll" and self.roll(g) <= 2)
        if not slows:
            return
        if g.speed == 0:
            self.spin(g, reset_speed=False)
        else:
            g.speed -= 1

    # ------------------------------------------------------------------ step 4
    def air_currents(self, placer: Glider, dec: Decisions) -> None:
        """Step 4 (L193-L211): four 2d6 rolls, each a marker the placer puts on a row with that
        number (a total no row carries places nothing); markers in rows without gliders go,
        opposing markers cancel in pairs, the rest move the gliders of their row."""
        left = {"updraft": UPDRAFT_MARKERS, "downdraft": DOWNDRAFT_MARKERS}
        marks: dict[str, dict[str, int]] = {}
        for _ in range(CURRENT_MARKERS):
            total = self.roll(placer, 2)
            row_id, kind = dec.place(self, placer.start, total, dict(left))
            self.spend()
            if kind not in left or left[kind] < 1:
                raise RuleBreak(self.turn, placer.start, f"placed a {kind} marker, none left (two of each, L358-L359)")
            if row_id is None:
                if self.rows.get(total):
                    raise RuleBreak(self.turn, placer.start, f"rolled {total} and placed no marker (L195)")
                placer.currents.append([total, None, kind])
                continue
            row = next((r for r in self.rows.get(total, []) if r.id == row_id), None)
            if row is None:
                raise RuleBreak(self.turn, placer.start, f"placed a marker for a roll of {total} on row {row_id}, "
                                "which does not carry that number (L195-L197)")
            if row.current not in ("any", kind):
                raise RuleBreak(self.turn, placer.start, f"placed a {kind} on row {row_id}, which takes {row.current}s only")
            left[kind] -= 1
            placer.currents.append([total, row_id, kind])
            m = marks.setdefault(str(row.line), {"updraft": 0, "downdraft": 0})
            m[kind] += 1
        self.apply_currents(marks)

    def apply_currents(self, marks: Mapping[str, Mapping[str, int]]) -> None:
        """The markers placed (per grid line: updrafts and downdrafts) act on the gliders of
        their rows (L201-L209), then stacking (L79)."""
        moved: list[tuple[int, Glider]] = []
        for g in sorted(self.airborne(), key=lambda g: g.start):
            row_marks = marks.get(str(self.arena.line_of(g.hex)))
            if not row_marks:
                continue
            after = current_effect(g.altitude, row_marks["updraft"], row_marks["downdraft"], self.floor)
            if after != g.altitude:
                self._event("current", g, detail=f"air current: altitude {g.altitude} -> {after}")
                moved.append((g.altitude, g))
                g.altitude = after
        # "set one level below that of the obstructing glider" (L79).  Gliders of a hex that the
        # currents move onto one level (capped at 20, or held above FLOOR, L209) are set down
        # from the one that was highest, each below those already placed: the currents do not
        # swap two gliders' order (a tie the book leaves open; settled by track number, it
        # would favour the higher track)
        pending = {g.start for _, g in moved}
        for _, g in sorted(moved, key=lambda t: (-t[0], t[1].start)):
            pending.discard(g.start)
            if not g.out:
                self.lower_on_stack(g, ignore=pending)
                if g.altitude <= self.floor:
                    self.eliminate(g, "lowered to FLOOR by stacking (L67, L79)")

    # ------------------------------------------------------------------ the record
    def scores(self) -> dict[int, float]:
        """Each seat's score: its side's best of (turns ended airborne + height above FLOOR /
        LEDGE for a glider still airborne): the last glider airborne wins (L10); a match stopped
        by the turn limit goes to the highest."""
        own = {g.start: float(g.flown) + (0.0 if g.out else (g.altitude - self.floor) / LEDGE)
               for g in self.gliders.values()}
        best: dict[Side, float] = {}
        for g in self.gliders.values():
            best[g.side] = max(best.get(g.side, 0.0), own[g.start])
        return {g.start: round(best[g.side], 9) for g in self.gliders.values()}

    def snapshot(self) -> Turn:
        pieces = []
        for g in self.gliders.values():
            x, y = self.xy(g.hex)
            state: dict[str, Any] = {
                "q": g.hex[0], "r": g.hex[1], "facing": g.facing, "speed": g.speed, "altitude": g.altitude,
                "chit": g.chit, "moves": list(g.moves), "glide": g.glide, "rolls": list(g.rolls), "side": g.side,
            }
            if g.launch:
                state["launch"] = list(g.launch)
            if g.currents:
                state["currents"] = [list(c) for c in g.currents]
            if g.centre_turn is not None:
                state["centre_turn"] = g.centre_turn
            pieces.append(PieceState(g.start, x, y, self.pit.layout.direction_angle(g.facing), state, out=g.out))
        return Turn(self.turn, tuple(pieces), tuple(self.events), self.scores())

    def winners(self) -> tuple[int, ...]:
        if not self.turns:
            return tuple(self.setup.starts)
        scores = self.scores()
        best = max(scores.values())
        return tuple(k for k in self.setup.starts if scores[k] == best)


def current_rows(game: Game, total: int) -> Sequence[Row]:
    """The rows a marker for a roll of ``total`` may go on (L195-L197)."""
    return game.rows.get(total, [])
