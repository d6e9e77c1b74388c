"""Range, arcs, target numbers and area effects (book: "Attacking", "Calculating Target Numbers",
"Arcs", "Area Effects and Line of Sight", "Explosion").

Measurements use :mod:`engine.sight`: range is the length of the shortest segment between the
two models that no arena feature interrupts -- the closest-points segment whenever it is clear
("Where on the Models to Measure From") -- rounded up.  Arcs ignore obstacles.

>>> from engine.gravstrike.motion import Pose
>>> range_modifier(1), range_modifier(4), range_modifier(12)
(-2, 0, 7)
>>> sorted(a.value for a in arcs_of(Pose(0.0, 0.0, 0.0), ShapelyPoint(3.0, 0.0)))
['front']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Mapping, Union

import shapely
from shapely import affinity
from shapely.geometry import Point as ShapelyPoint, Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.motion import Footprint, Pose
from engine.sight import Blockers, NoLineOfSight, Segment, ShapeLike, as_geometry, shortest_clear_segment
from schema.games.gravstrike.model import StaticTarget, Turbine

#: Tolerance (lengths) for "on the arc line" and for rounding measured distances.
TOL = 1e-9

__all__ = [
    "Arc",
    "ARC_MODIFIERS",
    "NoLineOfSight",
    "RangeMeasure",
    "TargetNumber",
    "arc_modifier",
    "arcs_of",
    "explosion_band_damage",
    "explosion_damage",
    "footprint_shape",
    "measure_range",
    "range_modifier",
    "round_range",
    "static_target_number",
    "target_number",
]


class Arc(Enum):
    FRONT = "front"
    LEFT = "left"
    RIGHT = "right"
    REAR = "rear"


#: "Target is in Firer's..." table.
ARC_MODIFIERS: Mapping[Arc, int] = {Arc.FRONT: 0, Arc.LEFT: 1, Arc.RIGHT: 1, Arc.REAR: 2}


def footprint_shape(pose: Pose, turbine: Turbine = Turbine()) -> BaseGeometry:
    """The turbine base at ``pose`` as a shapely polygon."""
    return ShapelyPolygon(Footprint.of(pose, turbine).corners)


def round_range(distance: float) -> int:
    """Range in whole lengths: rounded up; touching or overlapping models are at range 1
    (the table starts at 1, and "round up" never yields less for any positive distance)."""
    if distance < 0:
        raise ValueError("distance must be non-negative")
    return max(1, math.ceil(distance - TOL))


def range_modifier(range_lengths: int) -> int:
    """The range-modifier table: 1: -2, 2: -1, 3-5: 0, 6: +1, ... 10: +5, +1 per length more."""
    if range_lengths < 1:
        raise ValueError("range is at least 1 length")
    if range_lengths == 1:
        return -2
    if range_lengths == 2:
        return -1
    if range_lengths <= 5:
        return 0
    return range_lengths - 5


@dataclass(frozen=True)
class RangeMeasure:
    distance: float  # exact length of the measuring segment
    range: int  # rounded up, at least 1
    segment: Segment  # the line measured along (clear of arena features)


def measure_range(attacker: ShapeLike, target: ShapeLike, blockers: Blockers) -> RangeMeasure:
    """Range from attacker to target; raises :class:`NoLineOfSight` when there is none."""
    seg = shortest_clear_segment(attacker, target, blockers)
    if seg is None:
        raise NoLineOfSight("the target is not in line of sight")
    return RangeMeasure(distance=seg.length, range=round_range(seg.length), segment=seg)


def _arc_wedges(turbine: Turbine, reach: float) -> dict[Arc, BaseGeometry]:
    """The four arcs in the turbine's own frame (x forward, y left), out to ``reach``.

    Arc lines leave each corner at 45 degrees: front-left corner towards (+1, +1), and so on.
    """
    hl, hw = turbine.length / 2.0, turbine.width / 2.0
    fl, rl, rr, fr = (hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw)

    def out(p: tuple[float, float], dx: float, dy: float) -> tuple[float, float]:
        return (p[0] + reach * dx, p[1] + reach * dy)

    return {
        Arc.FRONT: ShapelyPolygon([fr, out(fr, 1, -1), out(fl, 1, 1), fl]),
        Arc.LEFT: ShapelyPolygon([fl, out(fl, 1, 1), out(rl, -1, 1), rl]),
        Arc.REAR: ShapelyPolygon([rl, out(rl, -1, 1), out(rr, -1, -1), rr]),
        Arc.RIGHT: ShapelyPolygon([rr, out(rr, -1, -1), out(fr, 1, -1), fr]),
    }


def arcs_of(attacker: Pose, target: ShapeLike, turbine: Turbine = Turbine()) -> frozenset[Arc]:
    """Every arc of the attacker that some part of ``target`` is in (a target on an arc line
    is in both arcs).  Obstacles are ignored, and so is the direction of travel (a reversing
    turbine's front arc still faces its front).  A target lying under the attacker's own base
    (which the arcs, drawn from its corners outward, leave out) is in every arc.

    >>> sorted(a.value for a in arcs_of(Pose(0.0, 0.0, 0.0), ShapelyPoint(0.1, 0.0)))
    ['front', 'left', 'rear', 'right']
    """
    g = as_geometry(target)
    if shapely.intersects(footprint_shape(attacker, turbine).buffer(-TOL), g):
        return frozenset(Arc)
    local = affinity.rotate(
        affinity.translate(g, -attacker.x, -attacker.y), -attacker.heading, origin=(0.0, 0.0)
    )
    minx, miny, maxx, maxy = local.bounds
    reach = 2.0 * max(abs(minx), abs(miny), abs(maxx), abs(maxy)) + 2.0 * turbine.length + 1.0
    wedges = _arc_wedges(turbine, reach)
    return frozenset(arc for arc, wedge in wedges.items() if shapely.dwithin(wedge, local, TOL))


def arc_modifier(attacker: Pose, target: ShapeLike, turbine: Turbine = Turbine()) -> int:
    """The most favourable (smallest) modifier among the arcs the target is in."""
    arcs = arcs_of(attacker, target, turbine)
    return min(ARC_MODIFIERS[a] for a in arcs)


@dataclass(frozen=True)
class TargetNumber:
    """A calculated TN with its parts: ``tn = max(0, speed + range_mod + arc_mod + other)``."""

    tn: int
    raw: int
    speed: int
    range: RangeMeasure
    range_modifier: int
    arcs: frozenset[Arc]
    arc_modifier: int
    other: int


TargetLike = Union[Pose, StaticTarget, BaseGeometry]


def _target_shape(target: TargetLike, turbine: Turbine) -> BaseGeometry:
    if isinstance(target, Pose):
        return footprint_shape(target, turbine)
    if isinstance(target, StaticTarget):
        return ShapelyPoint(target.position)
    return target


def target_number(
    attacker: Pose,
    target: TargetLike,
    target_speed: int,
    blockers: Blockers,
    other_modifiers: int = 0,
    turbine: Turbine = Turbine(),
) -> TargetNumber:
    """TN for ``attacker`` shooting ``target`` (a turbine pose, a static target or any shape).

    The target's speed counts by magnitude: a turbine reversing at -4 is as hard to hit as one
    at 4.  Static targets add their own ``tn_modifier``.  Raises :class:`NoLineOfSight`.
    """
    shape = _target_shape(target, turbine)
    measure = measure_range(footprint_shape(attacker, turbine), shape, blockers)
    rmod = range_modifier(measure.range)
    arcs = arcs_of(attacker, shape, turbine)
    amod = min(ARC_MODIFIERS[a] for a in arcs)
    other = other_modifiers + (target.tn_modifier if isinstance(target, StaticTarget) else 0)
    speed = abs(target_speed)
    raw = speed + rmod + amod + other
    return TargetNumber(
        tn=max(0, raw),
        raw=raw,
        speed=speed,
        range=measure,
        range_modifier=rmod,
        arcs=arcs,
        arc_modifier=amod,
        other=other,
    )


def static_target_number(
    attacker: Pose,
    target: StaticTarget,
    blockers: Blockers,
    speed: int = 0,
    other_modifiers: int = 0,
    turbine: Turbine = Turbine(),
) -> TargetNumber:
    """A static target is shot as though it were a turbine traveling at ``speed`` (0 unless the
    scenario says otherwise), plus its ``tn_modifier`` (small targets: up to +6)."""
    return target_number(attacker, target, speed, blockers, other_modifiers, turbine)


#: Explosion damage by distance band: within 1 length 4, 1-2: 3, 2-3: 2, 3-4: 1.
EXPLOSION_BANDS: tuple[tuple[float, int], ...] = ((1.0, 4), (2.0, 3), (3.0, 2), (4.0, 1))


def explosion_band_damage(distance: float) -> int:
    """Damage at ``distance`` lengths from an explosion (a band's upper edge belongs to it)."""
    for limit, damage in EXPLOSION_BANDS:
        if distance <= limit + TOL:
            return damage
    return 0


def explosion_damage(
    source: ShapeLike, targets: Mapping[str, ShapeLike], blockers: Blockers
) -> dict[str, int]:
    """Damage every target suffers when ``source`` explodes ("Explosion", "Area Effects").

    Distance is measured like range (shortest unblocked segment, not rounded); a target with
    no line of sight to the source is unaffected.  Targets beyond 4 lengths get 0.
    """
    src = as_geometry(source)
    out: dict[str, int] = {}
    for key, shape in targets.items():
        g = as_geometry(shape)
        if shapely.distance(src, g) > EXPLOSION_BANDS[-1][0] + TOL:
            out[key] = 0
            continue
        seg = shortest_clear_segment(src, g, blockers)
        out[key] = 0 if seg is None else explosion_band_damage(seg.length)
    return out
