"""The motion model: poses, maneuvers, footprints and one length of movement.

A turbine's *pose* is the centre of its base and its heading.  One length of forward movement
either goes straight (the centre moves one length along the heading) or turns 30, 60 or 90
degrees (the centre follows a circular arc one length long and the heading turns with it);
either may be combined with a sideslip, which afterwards shifts the turbine sideways "up to one
width" left or right of its new heading (rule "Sideslipping"): ``sideslip`` is the signed
fraction of a width, +1 a full width to the left, -0.25 a quarter width to the right.

>>> p = Pose(0.0, 0.0, 0.0)
>>> move(p, Maneuver(0))
Pose(x=1.000, y=0.000, heading=0)
>>> move(p, Maneuver(90))
Pose(x=0.637, y=0.637, heading=90)
>>> move(p, Maneuver(0, sideslip=1))
Pose(x=1.000, y=0.500, heading=0)
>>> Maneuver(-60, sideslip=1).cost
3
>>> move(p, Maneuver(0, sideslip=-0.25))
Pose(x=1.000, y=-0.125, heading=0)
>>> len(list(generate_maneuvers(icons_left=1)))
5
>>> len(list(generate_maneuvers(slip_steps=4)))    # 7 turns x slips of 0, 1/4, ... 4/4 a width each way
63
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from schema.games.gravstrike.model import Turbine

#: Turn angles a length may make, degrees (positive = left / counter-clockwise).
TURNS = (0, 30, -30, 60, -60, 90, -90)
#: Full sideslips: +1 = one width to the left, -1 = one width to the right (any fraction in
#: between is legal too: see :func:`slip_fractions`).
SIDESLIPS = (0, 1, -1)
#: Maneuver icons paid for a pivot (speed 0 only).
PIVOT_COST = 1
#: Segments used to approximate the centre's arc when a path is needed (gates).
ARC_SEGMENTS = 8

DEFAULT_TURBINE = Turbine()


class EngineError(Exception):
    """Base class of the rules engine's errors."""


class IllegalManeuver(EngineError):
    """A maneuver the rules don't allow here (unknown turn, unaffordable, pivot while moving...)."""


def normalize_heading(heading: float) -> float:
    """Heading in [0, 360), with float noise near whole degrees snapped away.

    >>> normalize_heading(-30.0), normalize_heading(720.0), normalize_heading(359.9999999999)
    (330.0, 0.0, 0.0)
    """
    h = heading % 360.0
    r = round(h)
    if abs(h - r) < 1e-7:
        h = float(r % 360)
    return h


@dataclass(frozen=True)
class Pose:
    """Centre of the turbine's base (lengths) and its heading (degrees CCW from +x)."""

    x: float
    y: float
    heading: float

    def __repr__(self) -> str:
        return f"Pose(x={self.x:.3f}, y={self.y:.3f}, heading={self.heading:g})"

    @property
    def position(self) -> tuple[float, float]:
        return (self.x, self.y)


@dataclass(frozen=True)
class Maneuver:
    """One length of movement: ``turn`` degrees (signed, left positive) and a ``sideslip``, the
    signed fraction of a width the turbine is shifted afterwards (rule "Sideslipping": "up to one
    width in either direction"; 0 = no sideslip).

    >>> Maneuver(30), Maneuver(0, sideslip=-1), Maneuver(0, sideslip=0.5)
    (Maneuver(turn=30), Maneuver(turn=0, sideslip=-1), Maneuver(turn=0, sideslip=0.5))
    >>> Maneuver(45)
    Traceback (most recent call last):
    ...
    engine.gravstrike.motion.IllegalManeuver: a turn must be one of (0, 30, -30, 60, -60, 90, -90), not 45
    >>> Maneuver(0, sideslip=1.5)
    Traceback (most recent call last):
    ...
    engine.gravstrike.motion.IllegalManeuver: a sideslip shifts at most one width (-1..1), not 1.5
    """

    turn: int = 0
    sideslip: float = 0

    def __post_init__(self) -> None:
        if self.turn not in TURNS:
            raise IllegalManeuver(f"a turn must be one of {TURNS}, not {self.turn}")
        if not (isinstance(self.sideslip, (int, float, Fraction)) and math.isfinite(self.sideslip)
                and -1 <= self.sideslip <= 1):
            raise IllegalManeuver(f"a sideslip shifts at most one width (-1..1), not {self.sideslip!r}")

    def __repr__(self) -> str:
        slip = f", sideslip={self.sideslip:g}" if self.sideslip else ""
        return f"Maneuver(turn={self.turn}{slip})"

    @property
    def cost(self) -> int:
        """Maneuver icons: 1 per 30 degrees of turn, +1 for a sideslip of any size."""
        return abs(self.turn) // 30 + (1 if self.sideslip else 0)

    @property
    def label(self) -> str:
        """Short human name, e.g. ``straight``, ``L30``, ``R60+slipL``, ``L30+slipR0.25`` (a
        partial sideslip names its fraction of a width).

        >>> Maneuver(-60, 1).label, Maneuver(30, -0.25).label
        ('R60+slipL', 'L30+slipR0.25')
        """
        name = "straight" if self.turn == 0 else ("L" if self.turn > 0 else "R") + str(abs(self.turn))
        if self.sideslip:
            name += "+slip" + ("L" if self.sideslip > 0 else "R")
            if abs(self.sideslip) != 1:
                name += f"{abs(float(self.sideslip)):.4g}"
        return name

    @classmethod
    def parse(cls, label: str) -> Maneuver:
        """The maneuver a :attr:`label` names.

        >>> Maneuver.parse("L30+slipR0.25"), Maneuver.parse("straight")
        (Maneuver(turn=30, sideslip=-0.25), Maneuver(turn=0))
        """
        turn_part, _, slip_part = label.partition("+slip")
        try:
            if turn_part == "straight":
                turn = 0
            elif turn_part[:1] in ("L", "R"):
                turn = int(turn_part[1:]) * (1 if turn_part[0] == "L" else -1)
            else:
                raise ValueError
            slip = 0.0
            if slip_part:
                if slip_part[0] not in ("L", "R"):
                    raise ValueError
                amount = float(slip_part[1:]) if len(slip_part) > 1 else 1.0
                slip = amount if slip_part[0] == "L" else -amount
        except ValueError:
            raise IllegalManeuver(f"not a maneuver label: {label!r}") from None
        return cls(turn, slip)


def slip_fractions(steps: int) -> tuple[float, ...]:
    """The sideslips of a planner that shifts in ``steps`` equal steps per side: ``k/steps`` of a
    width for k = -steps..steps (0 = no sideslip).

    >>> slip_fractions(2)
    (0.0, 0.5, -0.5, 1.0, -1.0)
    """
    if steps < 1:
        raise ValueError("slip steps must be at least 1")
    out = [0.0]
    for k in range(1, steps + 1):
        out += [k / steps, -k / steps]
    return tuple(out)


def maneuver_set(slip_steps: int = 1) -> tuple[Maneuver, ...]:
    """Every maneuver with the sideslips of :func:`slip_fractions`: the 21 whole-width
    maneuvers first (cheapest first, as :data:`MANEUVERS`), then the partial sideslips (so that
    among equally good plans a search meets the whole-width ones first)."""
    whole = tuple(sorted((Maneuver(t, s) for t in TURNS for s in SIDESLIPS),
                         key=lambda m: (m.cost, abs(m.turn), -m.turn, -m.sideslip)))
    partial = sorted((Maneuver(t, s) for t in TURNS for s in slip_fractions(slip_steps) if 0 < abs(s) < 1),
                     key=lambda m: (m.cost, abs(m.turn), -m.turn, -abs(m.sideslip), -m.sideslip))
    return whole + tuple(partial)


#: Every maneuver with whole-width sideslips, cheapest first.
MANEUVERS: tuple[Maneuver, ...] = maneuver_set(1)


def generate_maneuvers(icons_left: int | None = None, sideslips: bool = True, slip_steps: int = 1) -> Iterator[Maneuver]:
    """Every length a turbine with ``icons_left`` icons left this turn (None = unlimited) can
    move, with sideslips in ``slip_steps`` steps per side (1 = whole widths only).

    >>> [m.label for m in generate_maneuvers(icons_left=0)]
    ['straight']
    >>> sum(1 for _ in generate_maneuvers())
    21
    """
    for m in (MANEUVERS if slip_steps == 1 else maneuver_set(slip_steps)):
        if icons_left is not None and m.cost > icons_left:
            continue
        if m.sideslip and not sideslips:
            continue
        yield m


def local_displacement(maneuver: Maneuver, turbine: Turbine = DEFAULT_TURBINE) -> tuple[float, float]:
    """Where the centre ends, in the turbine's frame before the length (x ahead, y left).

    >>> [round(v, 4) for v in local_displacement(Maneuver(60))]
    [0.827, 0.4775]
    """
    a = math.radians(maneuver.turn)
    if maneuver.turn == 0:
        dx, dy = turbine.length, 0.0
    else:
        radius = turbine.length / abs(a)
        chord = 2.0 * radius * math.sin(abs(a) / 2.0)
        dx, dy = chord * math.cos(a / 2.0), chord * math.sin(a / 2.0)
    if maneuver.sideslip:
        dx += -math.sin(a) * turbine.width * float(maneuver.sideslip)
        dy += math.cos(a) * turbine.width * float(maneuver.sideslip)
    return dx, dy


def local_path(maneuver: Maneuver, turbine: Turbine = DEFAULT_TURBINE) -> list[tuple[float, float]]:
    """The centre's path during the length in the turbine's frame (arc as a polyline, then slip)."""
    a = math.radians(maneuver.turn)
    pts = [(0.0, 0.0)]
    if maneuver.turn == 0:
        pts.append((turbine.length, 0.0))
    else:
        radius = turbine.length / abs(a)
        sign = 1.0 if a > 0 else -1.0
        for i in range(1, ARC_SEGMENTS + 1):
            phi = abs(a) * i / ARC_SEGMENTS
            pts.append((radius * math.sin(phi), sign * radius * (1.0 - math.cos(phi))))
    if maneuver.sideslip:
        pts.append(local_displacement(maneuver, turbine))
    return pts


def _to_world(pose: Pose, lx: float, ly: float) -> tuple[float, float]:
    h = math.radians(pose.heading)
    c, s = math.cos(h), math.sin(h)
    return pose.x + lx * c - ly * s, pose.y + lx * s + ly * c


def move(pose: Pose, maneuver: Maneuver, turbine: Turbine = DEFAULT_TURBINE, reverse: bool = False) -> Pose:
    """The pose after one length of ``maneuver`` (backwards when ``reverse``).

    Reverse movement is forward movement of the turbine's other end: the centre moves the same
    way as a forward move from the opposite heading, and the turbine keeps facing forward.

    >>> move(Pose(0.0, 0.0, 0.0), Maneuver(0), reverse=True)
    Pose(x=-1.000, y=0.000, heading=0)
    """
    base = Pose(pose.x, pose.y, pose.heading + 180.0) if reverse else pose
    x, y = _to_world(base, *local_displacement(maneuver, turbine))
    heading = base.heading + maneuver.turn + (180.0 if reverse else 0.0)
    return Pose(x, y, normalize_heading(heading))


def centre_path(pose: Pose, maneuver: Maneuver, turbine: Turbine = DEFAULT_TURBINE, reverse: bool = False) -> list[tuple[float, float]]:
    """World coordinates of the centre's path during one length (see :func:`local_path`)."""
    base = Pose(pose.x, pose.y, pose.heading + 180.0) if reverse else pose
    return [_to_world(base, lx, ly) for lx, ly in local_path(maneuver, turbine)]


def push(pose: Pose, direction: float, turbine: Turbine = DEFAULT_TURBINE) -> Pose:
    """An acceleration field's push: one length along ``direction``, heading unchanged.

    >>> push(Pose(0.0, 0.0, 30.0), 90.0)
    Pose(x=0.000, y=1.000, heading=30)
    """
    d = math.radians(direction)
    return Pose(pose.x + turbine.length * math.cos(d), pose.y + turbine.length * math.sin(d), pose.heading)


@dataclass(frozen=True)
class Footprint:
    """The turbine's base: a rectangle ``length`` x ``width`` centred on the pose.

    >>> fp = Footprint.of(Pose(0.0, 0.0, 0.0))
    >>> [tuple(round(v, 2) for v in c) for c in fp.corners]
    [(0.5, 0.25), (-0.5, 0.25), (-0.5, -0.25), (0.5, -0.25)]
    >>> fp.to_shapely().area
    0.5
    """

    pose: Pose
    length: float = 1.0
    width: float = 0.5

    @classmethod
    def of(cls, pose: Pose, turbine: Turbine = DEFAULT_TURBINE) -> Footprint:
        return cls(pose, turbine.length, turbine.width)

    @property
    def corners(self) -> tuple[tuple[float, float], ...]:
        """Front-left, rear-left, rear-right, front-right."""
        hl, hw = self.length / 2.0, self.width / 2.0
        return tuple(_to_world(self.pose, lx, ly) for lx, ly in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw)))

    def to_shapely(self, grow: float = 0.0) -> "object":
        """The rectangle as a shapely Polygon, each side pushed out by ``grow`` (negative shrinks)."""
        import shapely

        hl, hw = self.length / 2.0 + grow, self.width / 2.0 + grow
        h = math.radians(self.pose.heading)
        c, s = math.cos(h), math.sin(h)
        x, y = self.pose.x, self.pose.y
        pts = [(x + lx * c - ly * s, y + lx * s + ly * c) for lx, ly in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw), (hl, hw))]
        return shapely.polygons(pts)


def pivot(pose: Pose, corner: int, angle: float, turbine: Turbine = DEFAULT_TURBINE) -> Pose:
    """Rotate the turbine ``angle`` degrees (CCW positive) about one of its corners.

    ``corner`` indexes :attr:`Footprint.corners` (0 front-left, 1 rear-left, 2 rear-right,
    3 front-right).  Only legal at speed 0 (see :func:`engine.gravstrike.length.apply_pivot`).

    >>> pivot(Pose(0.0, 0.0, 0.0), 2, 180.0)
    Pose(x=-1.000, y=-0.500, heading=180)
    """
    if corner not in (0, 1, 2, 3):
        raise IllegalManeuver(f"a pivot corner is 0..3, not {corner}")
    cx, cy = Footprint.of(pose, turbine).corners[corner]
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    dx, dy = pose.x - cx, pose.y - cy
    return Pose(cx + dx * c - dy * s, cy + dx * s + dy * c, normalize_heading(pose.heading + angle))


def max_displacement_by_cost(turbine: Turbine = DEFAULT_TURBINE) -> dict[int, float]:
    """For each icon cost, the longest straight-line distance one length of that cost moves the
    centre (used by the planner's lower bounds).

    >>> {c: round(d, 3) for c, d in max_displacement_by_cost().items()}
    {0: 1.0, 1: 1.118, 2: 1.218, 3: 1.28, 4: 1.303}
    """
    out: dict[int, float] = {}
    for m in MANEUVERS:
        dx, dy = local_displacement(m, turbine)
        out[m.cost] = max(out.get(m.cost, 0.0), math.hypot(dx, dy))
    for c in sorted(out):
        if c > 0:
            out[c] = max(out[c], out[c - 1])
    return out
