"""Point-in-region tests without GEOS, for the compiled search (:mod:`engine.gravstrike.kernels`): the
edges of many regions (a heading space's free region and zone regions, per lattice row) sorted
into horizontal strips, so that the even-odd ray test of a point reads only the edges of its
strip.

A point's ray runs from it towards +x; an edge counts when the horizontal line through the point
crosses it (one end strictly above, the other not: each crossing counted once, vertices
included) to the right of the point.  The answer is GEOS's (``shapely.contains_xy`` and
``shapely.intersects_xy``) everywhere except on a region's boundary, which a position reached
by moving lengths and turning meets with probability 0.

>>> import shapely
>>> square = shapely.box(0.0, 0.0, 2.0, 2.0).difference(shapely.box(0.5, 0.5, 1.5, 1.5))
>>> idx = StripIndex([square, None], y0=-1.0, height=0.25, count=20)
>>> [bool(inside(idx.edges, idx.offsets, idx.order, 0, idx.y0, idx.height, x, 1.0)) for x in (0.25, 1.0, 1.75, 2.5)]
[True, False, True, False]
>>> bool(inside(idx.edges, idx.offsets, idx.order, 1, idx.y0, idx.height, 0.25, 1.0))  # no region: empty
False
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.raster import boundary_segments


def ring_edges(geom: BaseGeometry | None) -> np.ndarray:
    """(n, 4) array of every ring edge (x1, y1, x2, y2) of a polygon or multipolygon (holes
    included; empty for None or an empty geometry): :func:`engine.gravstrike.raster.boundary_segments`'s rings."""
    if geom is None or geom.is_empty:
        return np.zeros((0, 4))
    return boundary_segments(geom)[0]


class StripIndex:
    """The edges of ``regions`` (polygons, multipolygons or None) in ``count`` strips of
    ``height`` from ``y0`` up (points below or above test the first or last strip, which then
    holds every edge reaching past it): ``edges`` (E, 4), and for region ``r`` and strip ``k``
    the edges ``order[offsets[r, k]:offsets[r, k + 1]]``."""

    def __init__(self, regions: Sequence[BaseGeometry | None], y0: float, height: float, count: int) -> None:
        self.y0, self.height, self.count = float(y0), float(height), int(count)
        edges = [ring_edges(g) for g in regions]
        self.edges = np.concatenate(edges) if edges else np.zeros((0, 4))
        region = np.repeat(np.arange(len(regions)), [len(e) for e in edges])
        ids = np.arange(len(self.edges))
        lo = np.minimum(self.edges[:, 1], self.edges[:, 3])
        hi = np.maximum(self.edges[:, 1], self.edges[:, 3])
        k0 = np.clip(np.floor((lo - self.y0) / self.height).astype(np.int64), 0, self.count - 1)
        k1 = np.clip(np.floor((hi - self.y0) / self.height).astype(np.int64), 0, self.count - 1)
        span = k1 - k0 + 1
        rep = np.repeat(ids, span)
        strip = k0[rep] + (np.arange(len(rep)) - np.repeat(np.cumsum(span) - span, span))
        cell = region[rep] * self.count + strip
        by = np.lexsort((rep, cell))
        self.order = rep[by].astype(np.int64)
        counts = np.bincount(cell, minlength=len(regions) * self.count)
        self.offsets = np.zeros((len(regions), self.count + 1), dtype=np.int64)
        flat = np.concatenate([[0], np.cumsum(counts)])
        for r in range(len(regions)):
            self.offsets[r] = flat[r * self.count: (r + 1) * self.count + 1]

    @property
    def nbytes(self) -> int:
        return int(self.edges.nbytes + self.order.nbytes + self.offsets.nbytes)


def inside(edges: np.ndarray, offsets: np.ndarray, order: np.ndarray, region: int, y0: float, height: float,
           px: float, py: float) -> bool:
    """Is (px, py) inside region ``region`` of a :class:`StripIndex` (its arrays)? (Plain
    Python; :mod:`engine.gravstrike.kernels` compiles it.)"""
    count = offsets.shape[1] - 1
    k = int(np.floor((py - y0) / height))
    k = min(max(k, 0), count - 1)
    odd = False
    for j in range(offsets[region, k], offsets[region, k + 1]):
        e = order[j]
        x1, y1, x2, y2 = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            odd = not odd
    return odd
