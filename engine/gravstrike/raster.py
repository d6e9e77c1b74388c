"""The cell grid of the configuration space (:mod:`engine.gravstrike.cspace`): which cells lie
certainly inside a region, which may meet it (an exact test decides there), from polygons
(:meth:`Raster.classify`) or, for the region where a rectangle meets a circle, from the exact
distance (:meth:`Raster.classify_circle`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.geometry import ArenaGeometry, CircleSpec

#: Raster cell size (lengths) of the per-heading lookup grids.
CELL = 0.1
#: Cells per side of the blocks :meth:`Raster.classify` settles in one test where it can.
BLOCK = 8


def circle_rect_distance(x: np.ndarray, y: np.ndarray, circle: CircleSpec, half_length: float, half_width: float,
                         heading: float) -> np.ndarray:
    """Distance from the circle's centre to the rectangle (half extents ``half_length`` x
    ``half_width``, at ``heading``) centred on each point (x, y)."""
    cx, cy, _ = circle
    a = math.radians(heading)
    c, s = math.cos(a), math.sin(a)
    dx, dy = cx - x, cy - y
    lx = np.maximum(np.abs(dx * c + dy * s) - half_length, 0.0)
    ly = np.maximum(np.abs(-dx * s + dy * c) - half_width, 0.0)
    return np.hypot(lx, ly)



class Raster:
    """The cell grid shared by all headings of one arena."""

    def __init__(self, geometry: ArenaGeometry, cell: float = CELL, margin: float = 1.0) -> None:
        minx, miny, maxx, maxy = geometry.bounds.bounds
        self.cell = cell
        self.x0, self.y0 = minx - margin, miny - margin
        self.nx = int(math.ceil((maxx - minx + 2 * margin) / cell)) + 1
        self.ny = int(math.ceil((maxy - miny + 2 * margin) / cell)) + 1
        self.half_diagonal = cell * math.sqrt(2.0) / 2.0 + 1e-9

    def index(self, x: float, y: float) -> int:
        """Cell index of a point (-1 off the grid)."""
        i = int((x - self.x0) / self.cell)
        j = int((y - self.y0) / self.cell)
        if 0 <= i < self.nx and 0 <= j < self.ny and x >= self.x0 and y >= self.y0:
            return i * self.ny + j
        return -1

    def centres(self, box: tuple[float, float, float, float] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(flat indices, x, y) of cell centres, optionally only those in ``box``."""
        i0, j0, i1, j1 = 0, 0, self.nx, self.ny
        if box is not None:
            i0 = max(0, int((box[0] - self.x0) / self.cell) - 1)
            j0 = max(0, int((box[1] - self.y0) / self.cell) - 1)
            i1 = min(self.nx, int((box[2] - self.x0) / self.cell) + 2)
            j1 = min(self.ny, int((box[3] - self.y0) / self.cell) + 2)
        ii, jj = np.meshgrid(np.arange(i0, i1), np.arange(j0, j1), indexing="ij")
        xs = self.x0 + (ii + 0.5) * self.cell
        ys = self.y0 + (jj + 0.5) * self.cell
        return (ii * self.ny + jj).ravel(), xs.ravel(), ys.ravel()

    def classify(self, geom: BaseGeometry, box: tuple[float, float, float, float] | None = None,
                 slack: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """(cells certainly inside ``geom``, cells that may meet it but aren't certainly inside);
        ``slack``: how far outside ``geom`` the region it stands for may reach."""
        if geom.is_empty:
            e = np.zeros(0, dtype=np.int64)
            return e, e
        if box is None:
            b = geom.bounds
            m = self.cell + slack
            box = (b[0] - m, b[1] - m, b[2] + m, b[3] + m)
        idx, xs, ys = self.centres(box)
        inner = geom.buffer(-self.half_diagonal)
        outer = geom.buffer(self.half_diagonal + slack)
        shapely.prepare(inner)
        shapely.prepare(outer)
        inside = np.zeros(len(xs), dtype=bool)
        maybe = np.zeros(len(xs), dtype=bool)
        todo = self._coarse(geom, idx, xs, ys, inside, slack) if len(xs) > 64 * BLOCK * BLOCK else np.arange(len(xs))
        if not inner.is_empty:
            inside[todo] = shapely.contains_xy(inner, xs[todo], ys[todo])
        maybe[todo] = shapely.contains_xy(outer, xs[todo], ys[todo]) & ~inside[todo]
        return idx[inside], idx[maybe]

    def classify_circle(self, circle: CircleSpec, half_length: float, half_width: float,
                        heading: float) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`classify` for the region of centres where a ``half_length`` x ``half_width``
        rectangle at ``heading`` meets the circle, from the exact distance (no polygons): a cell
        is certainly inside when its centre is ``half_diagonal`` deeper than the radius (the
        distance moves no faster than the centre), maybe when within ``half_diagonal`` of it."""
        cx, cy, r = circle
        reach = r + math.hypot(half_length, half_width) + self.cell
        idx, xs, ys = self.centres((cx - reach, cy - reach, cx + reach, cy + reach))
        d = circle_rect_distance(xs, ys, circle, half_length, half_width, heading)
        inside = d <= r - self.half_diagonal
        maybe = (d <= r + self.half_diagonal) & ~inside
        return idx[inside], idx[maybe]

    def _coarse(self, geom: BaseGeometry, idx: np.ndarray, xs: np.ndarray, ys: np.ndarray, inside: np.ndarray,
                slack: float = 0.0) -> np.ndarray:
        """Settle whole BLOCK x BLOCK groups of cells at once where a block lies deep inside or
        far outside ``geom`` (marking ``inside``); returns the cells still to test one by one."""
        i = idx // self.ny // BLOCK
        j = idx % self.ny // BLOCK
        block = i * (self.ny // BLOCK + 1) + j
        ub, first, inv = np.unique(block, return_index=True, return_inverse=True)
        cx = (i[first] * BLOCK + BLOCK / 2.0) * self.cell + self.x0
        cy = (j[first] * BLOCK + BLOCK / 2.0) * self.cell + self.y0
        reach = (BLOCK / 2.0) * self.cell * math.sqrt(2.0) + self.half_diagonal + 1e-9
        deep = geom.buffer(-reach)
        near = geom.buffer(reach + slack)
        shapely.prepare(near)
        if not deep.is_empty:
            shapely.prepare(deep)
            deep_in = shapely.contains_xy(deep, cx, cy)
        else:
            deep_in = np.zeros(len(ub), dtype=bool)
        far_out = ~shapely.contains_xy(near, cx, cy)
        inside |= deep_in[inv]
        return np.flatnonzero(~(deep_in | far_out)[inv])
