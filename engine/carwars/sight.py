"""Car Wars sightlines and cover (Cover, Range).

"A sightline is an imaginary straight line that connects any point on the attacker to any point
on the target."  Cars are their rectangles ("The rounded nose and rear of a car base cannot be
used for sightlines").  Full-cover obstacles (walls by default, the outside of the arena, full-
cover obstacles, tokens and hazards) block: "If a sightline *cannot* be drawn without crossing
a full-cover obstacle, the attacker cannot attack that target."  Cover counts every obstacle
that some clear sightline crosses ("Multiple sightlines may be drawn to maximize the defense
bonus"): each partial-cover obstacle (cars included: "Cars ... provide partial cover") and each
full-cover obstacle that can be crossed while another sightline stays clear.

Whether a target is visible is exact (:mod:`engine.sight`'s critical-segment search); which
obstacles a sightline can cross is decided on the segments between :data:`SAMPLES` points along
each side of both shapes (plus the witness of visibility) - exact for obstacles lying between
the shapes, possibly missing an obstacle that only a grazing sightline reaches.

>>> from schema.games.carwars import CarWarsArena, Obstacle, Wall
>>> from schema.games.gravstrike.model import Rect
>>> a = CarWarsArena(name="t", bounds=Rect((0.0, 0.0), (36.0, 36.0)),
...                  walls=(Wall("W", Rect((0.0, 0.0), (2.0, 30.0))),),
...                  obstacles=(Obstacle("O", Rect((0.0, 16.0), (2.0, 2.0))),))
>>> s = line_of_sight(a, Point(-8.0, 16.0), Point(8.0, 16.0))
>>> s.visible, s.partial
(True, ('O',))
>>> line_of_sight(a, Point(-8.0, 0.0), Point(8.0, 0.0)).visible
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Union

import numpy as np
import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.blockers import Blockers
from engine.carwars.motion import Pose, car_rectangle
from engine.sight import sight_line, shortest_clear_segment
from schema.games.carwars import CarWarsArena

#: Points per side of each shape whose connecting segments are tried for cover.
SAMPLES = 6


@dataclass(frozen=True)
class Point:
    """A point in the arena."""

    x: float
    y: float


@dataclass(frozen=True)
class Car:
    """A car at a pose (its rectangle is what sees and is seen)."""

    pose: Pose


Viewer = Union[Point, Car, BaseGeometry]


@dataclass(frozen=True)
class SightResult:
    """``visible``: some sightline avoids every full-cover obstacle (``segment`` is one);
    ``partial`` / ``full``: the ids of the partial- and full-cover obstacles a clear-enough
    sightline crosses (each gives the target its defense bonus)."""

    visible: bool
    partial: tuple[str, ...] = ()
    full: tuple[str, ...] = ()
    segment: tuple[tuple[float, float], tuple[float, float]] | None = None


def cover_elements(arena: CarWarsArena) -> tuple[list[tuple[str, BaseGeometry]], list[tuple[str, BaseGeometry]]]:
    """(full-cover, partial-cover) obstacles as (id, geometry); cars are added by the caller."""
    full: list[tuple[str, BaseGeometry]] = []
    partial: list[tuple[str, BaseGeometry]] = []
    items: list[tuple[str, str, BaseGeometry]] = [(w.id, w.cover, w.shape.to_shapely()) for w in arena.walls]
    items += [(o.id, o.cover, o.shape.to_shapely()) for o in arena.obstacles]
    items += [(t.id, t.cover, t.shape.to_shapely()) for t in arena.tokens]
    items += [(h.id, h.cover, h.shape.to_shapely()) for h in arena.hazards]
    for ident, cover, geom in items:
        if cover == "full":
            full.append((ident, geom))
        elif cover == "partial":
            partial.append((ident, geom))
    return full, partial


def _shape(v: Viewer, arena: CarWarsArena) -> BaseGeometry:
    if isinstance(v, Point):
        return ShapelyPoint(v.x, v.y)
    if isinstance(v, Car):
        return car_rectangle(v.pose, arena.vehicle)
    return v


def _samples(g: BaseGeometry) -> np.ndarray:
    if g.geom_type == "Point":
        return np.asarray(g.coords, dtype=np.float64)
    ring = g.exterior if g.geom_type == "Polygon" else g.convex_hull.exterior
    c = np.asarray(ring.coords, dtype=np.float64)
    out = [c[i] + (c[i + 1] - c[i]) * t for i in range(len(c) - 1) for t in np.linspace(0.0, 1.0, SAMPLES, endpoint=False)]
    return np.array(out)


class SightModel:
    """An arena prepared for many sight questions; ``cars`` are extra partial-cover obstacles
    (other cars), given as (id, pose)."""

    def __init__(self, arena: CarWarsArena, cars: tuple[tuple[str, Pose], ...] = ()) -> None:
        self.arena = arena
        self.full, partial = cover_elements(arena)
        self.partial = partial + [(i, car_rectangle(p, arena.vehicle)) for i, p in cars]
        self.blockers = Blockers.of(*[g for _, g in self.full], bounds=arena.bounds_geometry())
        self.blocking = self.blockers.region(shapely.box(-1e6, -1e6, 1e6, 1e6))
        self.core = self.blocking.buffer(-1e-9) if not self.blocking.is_empty else self.blocking
        shapely.prepare(self.core)

    def look(self, a: Viewer, b: Viewer, exclude: tuple[str, ...] = ()) -> SightResult:
        """Sight and cover from ``a`` to ``b``; obstacles in ``exclude`` (the two cars
        themselves) give no cover."""
        ga, gb = _shape(a, self.arena), _shape(b, self.arena)
        seg = sight_line(ga, gb, self.blockers)
        if seg is None:
            return SightResult(False)
        pa, pb = _samples(ga), _samples(gb)
        starts = np.repeat(pa, len(pb), axis=0)
        ends = np.tile(pb, (len(pa), 1))
        starts = np.vstack([starts, [seg.start]])
        ends = np.vstack([ends, [seg.end]])
        lines = shapely.linestrings(np.stack([starts, ends], axis=1))
        clear = ~shapely.intersects(lines, self.core) if not self.core.is_empty else np.ones(len(lines), dtype=bool)
        good = lines[clear]
        partial = tuple(i for i, g in self.partial if i not in exclude and bool(shapely.intersects(good, g.buffer(-1e-9)).any()))
        full: list[str] = []
        for i, g in self.full:
            if i in exclude:
                continue
            inner = g.buffer(-1e-9)
            if not bool(shapely.intersects(lines, inner).any()):
                continue
            # a sightline may cross this one while another stays clear: others' full cover must not block it
            others = shapely.union_all([h for j, h in self.full if j != i] + [self.bounds_outside()])
            others_core = others.buffer(-1e-9) if not others.is_empty else others
            crossing = lines[shapely.intersects(lines, inner)]
            if (~shapely.intersects(crossing, others_core)).any():
                full.append(i)
        return SightResult(True, partial, tuple(full), (seg.start, seg.end))

    def bounds_outside(self) -> BaseGeometry:
        b = self.arena.bounds_geometry()
        minx, miny, maxx, maxy = b.bounds
        return shapely.difference(shapely.box(minx - 1e3, miny - 1e3, maxx + 1e3, maxy + 1e3), b)

    def range_rerolls(self, a: Viewer, b: Viewer) -> int | None:
        """Defense re-rolls for range: "one defense re-roll for each full turning key length
        between the attacker and the target", measured along the shortest clear sightline
        (None when there is no sightline)."""
        seg = shortest_clear_segment(_shape(a, self.arena), _shape(b, self.arena), self.blockers)
        if seg is None:
            return None
        return int(math.floor(seg.length / self.arena.vehicle.key_length + 1e-9))


def line_of_sight(arena: CarWarsArena, a: Viewer, b: Viewer, cars: tuple[tuple[str, Pose], ...] = ()) -> SightResult:
    """Sight and cover between two points, cars or shapes (see the module docstring)."""
    return SightModel(arena, cars).look(a, b)
