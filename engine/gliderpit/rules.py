"""Glider-Pit Gladiators 2.02: the book's figures and the movement rules as small values.

Every figure quotes its rule ("L" = line of the seed text).  A glider's Movement Phase is a
sequence of maneuvers; :func:`maneuvers` lists the legal next ones from a
:class:`PhaseState`, as the book's Movement Phase (2.1) gives them, and :func:`glide_options`
the Glide Phase (2.2) choices.  The pit's walls are the caller's business (any move off the
grid is a Pit Wall Collision).

>>> s = begin_phase((0, 0), facing=0, speed=1, altitude=20)
>>> sorted({name for name, _ in maneuvers(s)})  # no Climb: it would reach LEDGE
['forward', 'turn-left', 'turn-right']
>>> [round(total_chance(k) * 36) for k in (2, 7, 12)]
[1, 6, 1]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from engine.grids import Axial, hex_neighbour

# ------------------------------------------------------------------ the book's figures

#: "No glider may exceed speed 5. If a glider exceeds speed 5, the glider is immediately
#: destroyed" (Speed, L71).
MAX_SPEED = 5
#: "Speed cannot be reduced below 0." (L71)
MIN_SPEED = 0
#: The Altitude Track runs LEDGE, 20, 19, ... 1, FLOOR (L363-373); "A glider's altitude may
#: never rise to LEDGE level" (L67).
TOP_ALTITUDE = 20
LEDGE = TOP_ALTITUDE + 1
#: The standard FLOOR lies below level 1: "Any time a glider reaches the FLOOR level or lower,
#: the glider has been eliminated" (L67).
STANDARD_FLOOR = 0
#: "For an abbreviated game, set the FLOOR level to 5. For a half-game, set the FLOOR level to
#: 10. For a vastly different feel, try a blitz game using a FLOOR level of 15." (L217)
SHORT_GAME_FLOORS = (5, 10, 15)
#: Launch: "Move the glider's altitude marker down 1 level and increase its speed marker to 1."
#: (L57) — from LEDGE, so a launched glider is at altitude 20, speed 1.
LAUNCH_ALTITUDE = TOP_ALTITUDE
LAUNCH_SPEED = 1
#: "A player may choose to dive an additional 1 to 3 levels at this time." (L59)
LAUNCH_DIVE_MAX = 3
#: "A player may dive his glider 1 to 3 levels in this phase" (Diving, L133).
DIVE_MAX = 3
#: "Roll 1d6. On a 1 or 2, deceleration occurs" (Deceleration, L135).
DECELERATION_CHANCE = 2 / 6
#: Movement point costs: Forward 1 (L111), Turn 1 (L113), Slip 2 (L115), Climb 1 (L117).
COST = {"forward": 1, "turn": 1, "slip": 2, "climb": 1}
#: "When the current speed of the glider is 3 or greater, the player must perform a Forward,
#: Climb or Slip maneuver before each Turn maneuver." (L113)
TURN_NEEDS_MOVE_SPEED = 3
#: "The 19 rows of hexes on the mapsheet are identified by number." (L193)
ROWS = 19
#: "On the long edges of the mapsheet are six Airspeed Tracks" (L17); "Each launch zone is
#: comprised of a string of five hexes along the wall of the pit." (L55)
LAUNCH_ZONES = 6
ZONE_HEXES = 5
#: "Take the four air current markers. Roll 2d6." (L195); the counter sheet prints two UP
#: DRAFT and two DOWN DRAFT markers (L358-359).
CURRENT_MARKERS = 4
UPDRAFT_MARKERS = 2
DOWNDRAFT_MARKERS = 2
#: 2d6 totals a row can carry.
TOTALS = tuple(range(2, 13))

Maneuver = Literal["forward", "turn-left", "turn-right", "slip-left", "slip-right", "climb"]
Deceleration = Literal["never", "always"]
_SLIPS: tuple[tuple[int, Maneuver], ...] = ((1, "slip-left"), (-1, "slip-right"))
_TURNS: tuple[tuple[int, Maneuver], ...] = ((1, "turn-left"), (-1, "turn-right"))


def total_chance(k: int) -> float:
    """Chance that 2d6 shows total ``k``: ``(6 - |k - 7|) / 36`` (0 outside 2..12)."""
    return max(0, 6 - abs(k - 7)) / 36.0 if 2 <= k <= 12 else 0.0


def chance_any_marker(labels: Iterable[int], markers: int = CURRENT_MARKERS) -> float:
    """Chance that at least one of ``markers`` 2d6 rolls is one of ``labels`` — the chance an
    air current marker may be placed on one of those rows: "Place any one of the markers on a
    hex row matching the die roll" (L195), "Roll the dice three more times" (L199).

    >>> round(chance_any_marker([7]), 4), round(chance_any_marker([2, 12]), 4)
    (0.5177, 0.2044)
    """
    p = sum(total_chance(k) for k in set(labels))
    return 1.0 - (1.0 - min(p, 1.0)) ** markers


def current_effect(altitude: int, updrafts: int, downdrafts: int, floor: int = STANDARD_FLOOR) -> int:
    """A glider's altitude after the air currents of its row (step 4 of the turn).

    "If any hex row contains both updraft and downdraft markers, pair up any two opposing
    markers in the row and remove them as they cancel each other out." (L201) One updraft
    marker raises the glider 1 level, two raise it 2 (L203-205), downdrafts lower it likewise
    (L207).  "A glider will not be moved to FLOOR level by a downdraft. Any gliders at altitude
    level 1 are not affected by downdrafts and gliders at altitude level 2 will only be moved to
    level 1" (L209) — with a raised FLOOR the protection applies to the levels just above it
    (decision).  An updraft never lifts a glider to LEDGE (L67: "may never rise to LEDGE").

    >>> current_effect(10, 2, 1), current_effect(2, 0, 2), current_effect(7, 0, 2, floor=5)
    (11, 1, 6)
    """
    if not (0 <= updrafts <= UPDRAFT_MARKERS and 0 <= downdrafts <= DOWNDRAFT_MARKERS):
        raise ValueError("a row holds at most two updraft and two downdraft markers (there are two of each)")
    pairs = min(updrafts, downdrafts)
    up, down = updrafts - pairs, downdrafts - pairs
    if up:
        return min(altitude + up, TOP_ALTITUDE)
    if down:
        return max(altitude - down, min(altitude, floor + 1))
    return altitude


def launch_options() -> list[tuple[int, int, int]]:
    """(extra dive, speed, altitude) a glider may launch with: speed 1 at altitude 20, and for
    each additional level dived "adjust the altitude marker down 1 level and increase speed by
    1" (L57-59)."""
    return [(d, LAUNCH_SPEED + d, LAUNCH_ALTITUDE - d) for d in range(LAUNCH_DIVE_MAX + 1)]


def launch_facings(wall_sides: Iterable[int]) -> tuple[int, ...]:
    """Facings a glider may launch with: "The glider counter may be launched facing in any
    direction except toward a hexside that contains a pit wall." (L55)"""
    walls = set(wall_sides)
    return tuple(d for d in range(6) if d not in walls)


# ------------------------------------------------------------------ the Movement Phase


@dataclass(frozen=True, slots=True)
class PhaseState:
    """A glider part-way through its Movement Phase.

    ``speed`` is the *current* speed marker (Climb and the first Turn may lower it),
    ``start_speed`` the speed at the start of the phase (= the Movement Point Allowance,
    L107), ``mp`` the points left.  ``last`` is the previous maneuver's kind and ``side`` its
    side (+1 left, -1 right) for Turns and Slips; ``hex_turn`` the side of the Turns already
    made in this hex (0 = none)."""

    hex: Axial
    facing: int
    speed: int
    altitude: int
    mp: int
    start_speed: int
    turned: bool = False
    last: str | None = None
    side: int = 0
    hex_turn: int = 0
    climbed: bool = False


def begin_phase(hex: Axial, facing: int, speed: int, altitude: int) -> PhaseState:
    """"The Movement Point Allowance is equal to the speed of the glider at the start of the
    current Movement Phase." (L107)"""
    return PhaseState(hex, facing % 6, speed, altitude, speed, speed)


def maneuvers(s: PhaseState, *, ledge: int = LEDGE, floor: int = STANDARD_FLOOR) -> list[tuple[Maneuver, PhaseState]]:
    """The legal maneuvers from ``s`` and their outcomes (an unstunned, un-netted glider).

    Maneuvers that would reach ``floor`` or lower (elimination, L67) are left out; so is a
    Climb to ``ledge`` (L117).  Walls are not checked here.
    """
    out: list[tuple[Maneuver, PhaseState]] = []
    if s.mp < 1:
        return out
    # Forward: "move the glider counter forward one hex" (L111)
    ahead = hex_neighbour(s.hex, s.facing)
    # (each outcome made field by field, in PhaseState's order: dataclasses.replace was four
    # fifths of enumerating the macros, engine.gliderpit.movement)
    out.append(("forward", PhaseState(ahead, s.facing, s.speed, s.altitude, s.mp - 1, s.start_speed, s.turned,
                                      "forward", 0, 0, s.climbed)))
    # Climb: "Reduces speed by 1 and increases altitude 1 level. ... move the glider forward one
    # hex" (L117); "May not climb to LEDGE level or higher."; speed cannot go below 0 (L71).
    if s.speed >= 1 and s.altitude + 1 < ledge:
        out.append(("climb", PhaseState(ahead, s.facing, s.speed - 1, s.altitude + 1, s.mp - 1, s.start_speed, s.turned,
                                        "climb", 0, 0, True)))
    # Slip: "Costs 2 movement points and reduces altitude 1 level ... move the glider diagonally
    # forward one hex left or right while maintaining the same facing" (L115)
    if s.mp >= 2 and s.altitude - 1 > floor:
        for side, name in _SLIPS:
            to = hex_neighbour(s.hex, s.facing + side)
            out.append((name, PhaseState(to, s.facing, s.speed, s.altitude - 1, s.mp - 2, s.start_speed, s.turned,
                                         "slip", side, 0, s.climbed)))
    # Turn (L113)
    first = s.last is None
    if first and s.start_speed >= TURN_NEEDS_MOVE_SPEED:
        return out  # "A glider starting the Movement Phase at speed 3 or greater cannot perform
        # a Turn as its first maneuver of the phase."
    if s.speed >= TURN_NEEDS_MOVE_SPEED and s.last not in ("forward", "climb", "slip"):
        return out  # "must perform a Forward, Climb or Slip maneuver before each Turn"
    for side, name in _TURNS:
        if s.hex_turn and side != s.hex_turn:
            continue  # "Multiple Turn maneuvers performed in a single hex ... must all be in
            # the same direction."
        if s.last == "slip" and side != s.side:
            continue  # "A Turn maneuver that immediately follows a Slip must be made in the
            # same direction as that of the Slip."
        facing = (s.facing + side) % 6
        if s.turned:
            out.append((name, PhaseState(s.hex, facing, s.speed, s.altitude, s.mp - 1, s.start_speed, True, "turn", side,
                                         side, s.climbed)))
            continue
        # "If this is the first Turn maneuver by the glider in the current Movement Phase, the
        # player must reduce either speed or altitude by 1."
        if s.speed >= 1:
            out.append((name, PhaseState(s.hex, facing, s.speed - 1, s.altitude, s.mp - 1, s.start_speed, True, "turn",
                                         side, side, s.climbed)))
        if s.altitude - 1 > floor:
            out.append((name, PhaseState(s.hex, facing, s.speed, s.altitude - 1, s.mp - 1, s.start_speed, True, "turn",
                                         side, side, s.climbed)))
    return out


@dataclass(frozen=True, slots=True)
class Glide:
    """One Glide Phase choice: ``dive`` levels (0 = glide), the speed and altitude after it."""

    dive: int
    speed: int
    altitude: int


def glide_options(speed: int, altitude: int, climbed: bool, *, floor: int = STANDARD_FLOOR,
                  deceleration: Deceleration = "never") -> list[Glide]:
    """The Glide Phase (2.2) choices that keep the glider flying under control next turn.

    "A player may dive his glider 1 to 3 levels in this phase if it did not climb in the
    preceding Movement phase ... For each altitude level a glider dives, reduce the glider's
    altitude by 1 and increase its speed by 1." (L133); exceeding speed 5 destroys the glider
    (L71) and reaching FLOOR eliminates it (L67), so those dives are left out.  "A glider that
    does not dive must check for deceleration. Roll 1d6. On a 1 or 2, deceleration occurs"
    (L135): ``deceleration`` says how the travel model reads the die — ``never`` (the roll
    comes up 3-6) or ``always``.  A glider that would begin its next Movement Phase at speed 0
    Spins (random facing, 1d6 altitude, L119, L137): left out.
    """
    out = []
    glide_speed = speed - (1 if deceleration == "always" else 0)
    if glide_speed >= 1:
        out.append(Glide(0, glide_speed, altitude))
    if not climbed:
        for d in range(1, DIVE_MAX + 1):
            if speed + d <= MAX_SPEED and altitude - d > floor:
                out.append(Glide(d, speed + d, altitude - d))
    return out
