"""Minkowski sums ``G ⊕ R`` of arena shapes with a convex polygon ``R`` (the footprint at one
heading, :mod:`engine.gravstrike.cspace`), many at once.

A shape is split once (:class:`Summand`) into the convex hulls its sum is the union of - a point
or a convex polygon: one hull of its vertices moved by R's; any other polygon: itself and one
hull per ring edge (the edge's ends moved by R's vertices); a line: one hull per segment - and
each sum then takes one ``shapely.convex_hull`` call for every hull of every shape summed
together (:func:`minkowski_many`; the points of a hull given as a line string, which shapely makes
far faster than a multipoint, with the same hull), then one ``union_all`` per shape.

>>> from shapely.geometry import Polygon
>>> square = [(0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)]
>>> round(minkowski(Polygon([(0, 0), (1, 0), (1, 1), (0, 1)]), square).area, 6)
4.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.geometry import CircleSpec

__all__ = ["CIRCLE_SLACK", "Summand", "circumscribed", "minkowski", "minkowski_many", "rect_offsets"]

#: How far (as a fraction of the radius) shapely's circle polygons (32 segments a quarter) and
#: their circumscribed copies lie from the true circle, plus rounding: the raster's classification
#: margin for regions made from circles.
CIRCLE_SLACK = 1.0 / math.cos(math.pi / 128) - 1.0 + 1e-9


def circumscribed(circle: CircleSpec) -> BaseGeometry:
    """A polygon that contains the circle (shapely's 128-gon scaled out to touch it)."""
    cx, cy, r = circle
    poly = shapely.Point(cx, cy).buffer(r, quad_segs=32)
    return shapely.affinity.scale(poly, 1.0 + CIRCLE_SLACK, 1.0 + CIRCLE_SLACK, origin=(cx, cy))


def rect_offsets(half_length: float, half_width: float, heading: float) -> list[tuple[float, float]]:
    a = math.radians(heading)
    c, s = math.cos(a), math.sin(a)
    return [(lx * c - ly * s, lx * s + ly * c) for lx, ly in ((half_length, half_width), (-half_length, half_width), (-half_length, -half_width), (half_length, -half_width))]


def _parts(geom: BaseGeometry) -> list[BaseGeometry]:
    if hasattr(geom, "geoms"):
        out: list[BaseGeometry] = []
        for g in geom.geoms:
            out.extend(_parts(g))
        return out
    return [geom]


class Summand:
    """A shape split for Minkowski sums: ``points`` (rows x, y) whose groups (``owner``, non
    decreasing) are each summed to one convex hull, and ``pieces``, the sum's pieces in order:
    a hull's group number, or a geometry taken as it is (a non-convex polygon itself)."""

    def __init__(self, geom: BaseGeometry) -> None:
        self.geom = geom
        groups: list[np.ndarray] = []
        self.pieces: list[int | BaseGeometry] = []
        for part in _parts(geom):
            if part.is_empty:
                continue
            if part.geom_type == "Point":
                self.pieces.append(len(groups))
                groups.append(np.array([[part.x, part.y]]))
                continue
            if part.geom_type == "Polygon" and abs(part.convex_hull.area - part.area) <= 1e-9 * max(1.0, part.area):
                self.pieces.append(len(groups))
                groups.append(np.asarray(part.exterior.coords))
                continue
            rings: list[np.ndarray] = []
            if part.geom_type == "Polygon":
                self.pieces.append(part)
                rings.append(np.asarray(part.exterior.coords))
                rings.extend(np.asarray(r.coords) for r in part.interiors)
            else:  # LineString / LinearRing
                rings.append(np.asarray(part.coords))
            for ring in rings:
                ends = np.stack([ring[:-1], ring[1:]], axis=1)  # one group (its two ends) per edge
                self.pieces.extend(range(len(groups), len(groups) + len(ends)))
                groups.extend(ends)
        sizes = [len(g) for g in groups]
        self.points = np.concatenate(groups).reshape(-1, 2) if groups else np.zeros((0, 2))
        self.owner = np.repeat(np.arange(len(groups), dtype=np.int64), sizes)
        self.groups = len(groups)
        self.smallest = min(sizes, default=2)  # points in the smallest group

    def sum(self, offsets: Sequence[tuple[float, float]]) -> BaseGeometry:
        """``geom ⊕ R`` for the convex polygon R with vertices ``offsets`` (R contains the origin)."""
        return minkowski_many([(self, offsets)])[0]


def minkowski_many(sums: Sequence[tuple[Summand, Sequence[tuple[float, float]]]]) -> list[BaseGeometry]:
    """``s.geom ⊕ R`` for each (summand ``s``, vertices of R) - every hull in one shapely call.
    The hulls are those of the points ``p + o`` (p of a group in turn, o of R's vertices in turn
    for each), and each shape's union is of its pieces in order, so the sums do not depend on
    what else is summed alongside."""
    pts: list[np.ndarray] = []
    idx: list[np.ndarray] = []
    first: list[int] = []
    n = 0
    for s, offsets in sums:
        off = np.asarray(offsets, dtype=float)
        pts.append((s.points[:, None, :] + off[None, :, :]).reshape(-1, 2))
        idx.append(np.repeat(s.owner + n, len(off)))
        first.append(n)
        n += s.groups
    hulls = []
    if n:  # a group's points as a line (much cheaper to make than a multipoint; the same hull)
        make = shapely.linestrings if all(s.smallest * len(o) >= 2 for s, o in sums) else shapely.multipoints
        hulls = shapely.convex_hull(make(np.concatenate(pts), indices=np.concatenate(idx)))
    out: list[BaseGeometry] = []
    for (s, _), k in zip(sums, first):
        if not s.pieces:
            out.append(ShapelyPolygon())
            continue
        out.append(shapely.union_all([hulls[k + p] if isinstance(p, int) else p for p in s.pieces]))
    return out


def minkowski(geom: BaseGeometry, offsets: Sequence[tuple[float, float]]) -> BaseGeometry:
    """``geom ⊕ R`` for the convex polygon R with vertices ``offsets`` (R contains the origin).

    For a polygon P, P ⊕ R = P ∪ (∂P ⊕ R), and each edge's sum is the convex hull of the edge's
    ends moved by R's vertices."""
    return Summand(geom).sum(offsets)
