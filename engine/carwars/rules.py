"""Car Wars sixth edition movement rules as small typed values (python-chess style).

Every figure the book gives is a named constant citing its rule; the figures the book's text
lost (the turning key's zone angles, the slide's offset) come from
:class:`schema.games.carwars.TurningKey` and are recorded in docs/rules-decisions.md.

A turn at speed ``s`` is ``s`` movement points; each point is one :class:`Maneuver`:

>>> [m.label for m in generate_maneuvers(TurningKey(), "safe")]
['straight', 'slight-left-18', 'slight-right-18']
>>> len(generate_maneuvers(TurningKey(), "flat-out"))
13
>>> [(c.speed, c.hard) for c in generate_speed_changes(2, "flat-out")]
[(-1, True), (0, True), (1, False), (2, False), (3, False), (4, True)]
>>> driving_dice(Maneuver("turn", 1, 54.0, 3), speed=3, terrain_level=0, hazard_dice=0, key=TurningKey())
6
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from math import gcd
from typing import Literal

from schema.games.carwars import TurningKey

Policy = Literal["safe", "flat-out"]
POLICIES: tuple[Policy, ...] = ("safe", "flat-out")
Kind = Literal["straight", "slight", "turn", "slide"]

#: "The maximum speed for an undamaged car is 5" (Dashboards).
MAX_SPEED = 5
#: "At the start of the game, all players set their speed slider to 2" (Sequence of Play).
START_SPEED = 2
#: "Increase their speed by 1 ... Decrease their speed by 1" (4A. Adjust Speed).
SPEED_STEP = 1
#: "hard accelerate (only once per turn) to increase their speed by 1 more" / "hard brake ...
#: to decrease their speed by 1 more" (Hard Acceleration, Hard Braking).
HARD_STEP = 1
#: Speed value for "in reverse": "the speed 0 setting also represents driving in reverse at
#: speed 1" (Dashboards); the slider is at 0.
REVERSE = -1
#: "Reverse is considered to be speed 1, but the car will move backward" (Hard Braking).
REVERSE_SPEED = 1
#: "move the car straight forward exactly 1 car-length" (Drive Straight): one movement point
#: moves the car one car length ("Movement points indicate the number of car lengths").
POINT_LENGTH = 1.0
#: "It is 2 car-lengths long and 1/2 car-length wide" (Turning Key).
KEY_LENGTH = 2.0
KEY_WIDTH = 0.5
#: "The player decides how far to pivot the car, up to 90 degrees" (Turn).
MAX_TURN = 90.0


@dataclass(frozen=True)
class SpeedChange:
    """The speed chosen in 4A. Adjust Speed: ``speed`` -1 (reverse), 0 (stopped) .. 5, and
    whether it needed hard acceleration or hard braking (1 damage to the power plant / tires)."""

    speed: int
    hard: bool


def slider(speed: int) -> int:
    """The speed slider's setting: reverse and stopped are both 0."""
    return max(speed, 0)


def points(speed: int) -> int:
    """Movement points of a turn at ``speed`` (reverse moves 1 point backward)."""
    return REVERSE_SPEED if speed == REVERSE else speed


def roll_speed(speed: int) -> int:
    """The speed a maneuver's dice count ("adds dice equal to their speed"); reverse is speed 1."""
    return REVERSE_SPEED if speed == REVERSE else speed


def generate_speed_changes(speed: int, policy: Policy = "flat-out", max_speed: int = MAX_SPEED,
                           reverse: bool = True) -> tuple[SpeedChange, ...]:
    """The legal new speeds from ``speed``: the slider moves by at most 1, or by 2 with hard
    acceleration / hard braking (not in the ``safe`` policy).  "Adjusting speed from reverse to 1
    does not require hard accelerating" and "from 1 to reverse does not require hard braking":
    both are one step of the slider."""
    out = []
    for new in range(REVERSE if reverse else 0, max_speed + 1):
        step = abs(slider(new) - slider(speed))
        if step <= SPEED_STEP:
            out.append(SpeedChange(new, False))
        elif step == SPEED_STEP + HARD_STEP and policy == "flat-out":
            out.append(SpeedChange(new, True))
    return tuple(out)


@dataclass(frozen=True)
class Maneuver:
    """One movement point.  ``side`` +1 = left, -1 = right, 0 = straight; ``angle`` the pivot in
    degrees (turns) ; ``zone`` the highest difficulty zone a turn overlaps (0 for straight, slight
    turns and slides)."""

    kind: Kind
    side: int = 0
    angle: float = 0.0
    zone: int = 0

    @property
    def is_maneuver(self) -> bool:
        """Slides and turns are maneuvers; "Players do not roll dice ... for low-risk moves"."""
        return self.kind in ("slide", "turn")

    @property
    def label(self) -> str:
        if self.kind == "straight":
            return "straight"
        side = "left" if self.side > 0 else "right"
        if self.kind == "slide":
            return f"slide-{side}"
        zone = "slight" if self.kind == "slight" else f"D{self.zone}"
        return f"{'slight' if self.kind == 'slight' else 'turn'}-{side}-{_fmt(self.angle)}" + (
            "" if self.kind == "slight" else f"-{zone}")

    @property
    def heading_change(self) -> float:
        return self.side * self.angle if self.kind in ("slight", "turn") else 0.0


def _fmt(a: float) -> str:
    return str(int(a)) if float(a).is_integer() else f"{a:g}"


def zone_of(angle: float, key: TurningKey) -> int:
    """The highest zone a turn of ``angle`` degrees reaches: 0 within SLIGHT, 1-4 for D1-D4.  A
    turn ending exactly on a zone's far edge stays in that zone ("a player may stop their turn
    anywhere within a difficulty zone")."""
    for i, edge in enumerate(key.zones):
        if angle <= edge + 1e-9:
            return i
    raise ValueError(f"a turn is up to {MAX_TURN:g} degrees, not {angle:g}")


def zone_dice(zone: int, key: TurningKey) -> int:
    """Dice of a turn reaching ``zone``: "the dice shown on all zones the car is overlapping on
    the turning key" - a D3 turn overlaps D1, D2 and D3 (the book's D3 example)."""
    return sum(key.zone_dice[:zone])


def turn_angles(key: TurningKey, steps_per_zone: int = 1) -> tuple[float, ...]:
    """The pivot angles the analysis considers: ``steps_per_zone`` evenly spaced angles per zone,
    ending on each zone's far edge (the far edge is the sharpest turn for the zone's dice)."""
    out: list[float] = []
    lo = 0.0
    for edge in key.zones:
        for i in range(1, steps_per_zone + 1):
            out.append(round(lo + (edge - lo) * i / steps_per_zone, 9))
        lo = edge
    return tuple(out)


def generate_maneuvers(key: TurningKey, policy: Policy = "flat-out", steps_per_zone: int = 1) -> tuple[Maneuver, ...]:
    """The movement points a car may choose: straight and slight turns always (low-risk moves);
    with ``flat-out`` also slides and turns through D1-D4 (maneuvers)."""
    out = [Maneuver("straight")]
    for angle in turn_angles(key, steps_per_zone):
        zone = zone_of(angle, key)
        if zone == 0:
            out += [Maneuver("slight", 1, angle, 0), Maneuver("slight", -1, angle, 0)]
    if policy == "flat-out":
        out += [Maneuver("slide", 1), Maneuver("slide", -1)]
        for angle in turn_angles(key, steps_per_zone):
            zone = zone_of(angle, key)
            if zone > 0:
                out += [Maneuver("turn", 1, angle, zone), Maneuver("turn", -1, angle, zone)]
    return tuple(out)


def heading_step(maneuvers: tuple[Maneuver, ...]) -> float:
    """The angle every heading change is a multiple of (degrees; 360 when nothing turns), so
    the headings of one search are a finite set."""
    vals = [round(m.angle * 1e6) for m in maneuvers if m.heading_change]
    if not vals:
        return 360.0
    return reduce(gcd, vals, round(360 * 1e6)) / 1e6


def driving_dice(maneuver: Maneuver, speed: int, terrain_level: int, hazard_dice: int, key: TurningKey) -> int:
    """The dice of the driving roll after one movement point (4B. Drive): "a number of D equal to
    the highest terrain level their car is overlapping, plus any dice required by hazards their
    car is overlapping, plus any dice required by the maneuver they are making".  A maneuver
    adds "dice equal to their speed, plus any additional dice required by the difficulty"; a
    slide "does not add any additional dice"; low-risk moves add none."""
    dice = terrain_level + hazard_dice
    if maneuver.is_maneuver:
        dice += roll_speed(speed)
        if maneuver.kind == "turn":
            dice += zone_dice(maneuver.zone, key)
    return dice
