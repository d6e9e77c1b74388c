"""Arena features as sight blockers, plus the small numpy ray-casting kit the sight code uses.

Everything here is polygonal: walls are unioned, the outside of the bounds is added per query
window, circles are shapely's buffered polygons.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Union

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry


#: Numerical tolerance in lengths (see :mod:`engine.sight`'s grazing policy).
EPS = 1e-9

FloatArray = npt.NDArray[np.float64]


class HasShapely(Protocol):
    def to_shapely(self) -> BaseGeometry: ...


ShapeLike = Union[BaseGeometry, HasShapely]


class WalledArena(Protocol):
    """An arena whose walls block sight: their union, and the table inside its bounds."""

    def walls_geometry(self) -> BaseGeometry: ...

    def bounds_geometry(self) -> BaseGeometry: ...


@dataclass(frozen=True, eq=False)
class Blockers:
    """The arena features that block sight: wall interiors and the outside of ``bounds``."""

    walls: BaseGeometry
    bounds: BaseGeometry | None = None

    @classmethod
    def from_arena(cls, arena: WalledArena) -> Blockers:
        return cls(walls=arena.walls_geometry(), bounds=arena.bounds_geometry())

    @classmethod
    def of(cls, *shapes: ShapeLike, bounds: ShapeLike | None = None) -> Blockers:
        walls = shapely.union_all([as_geometry(s) for s in shapes]) if shapes else shapely.Polygon()
        return cls(walls=walls, bounds=None if bounds is None else as_geometry(bounds))

    def region(self, window: BaseGeometry) -> BaseGeometry:
        """The blocking region inside ``window`` (a polygon), as one polygonal geometry."""
        parts = []
        if not self.walls.is_empty:
            parts.append(shapely.intersection(self.walls, window))
        if self.bounds is not None:
            parts.append(shapely.difference(window, self.bounds))
        if not parts:
            return shapely.Polygon()
        if len(parts) == 1:  # already one valid geometry: no union (it dominates among many walls)
            return polygonal(parts[0])
        return polygonal(shapely.union_all(parts))


def as_geometry(shape: ShapeLike) -> BaseGeometry:
    if isinstance(shape, BaseGeometry):
        return shape
    return shape.to_shapely()


def polygonal(geom: BaseGeometry) -> BaseGeometry:
    """Keep only the areal parts of ``geom``."""
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        return geom
    polys = [g for g in shapely.get_parts(geom) if g.geom_type in ("Polygon", "MultiPolygon")]
    return shapely.union_all(polys) if polys else shapely.Polygon()


def coords(geom: BaseGeometry) -> FloatArray:
    return np.asarray(shapely.get_coordinates(geom), dtype=np.float64).reshape(-1, 2)


def edges(geom: BaseGeometry) -> tuple[FloatArray, FloatArray]:
    """Boundary edges of a polygonal geometry as two (n, 2) arrays of start and end points."""
    lines = geom.boundary if geom.geom_type in ("Polygon", "MultiPolygon") else geom
    pts, part = shapely.get_coordinates(shapely.get_parts(lines), return_index=True)
    if len(pts) < 2:
        return np.zeros((0, 2)), np.zeros((0, 2))
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    same = part[1:] == part[:-1]  # consecutive points of one part: an edge
    return pts[:-1][same], pts[1:][same]


def ray_hits(
    origins: FloatArray, dirs: FloatArray, p0: FloatArray, p1: FloatArray, tmin: float
) -> tuple[FloatArray, npt.NDArray[np.intp]]:
    """First hit of rays o_k + t d_k (t > tmin) with edges; (inf, -1) when nothing is hit."""
    k = len(origins)
    if len(p0) == 0 or k == 0:
        return np.full(k, np.inf), np.full(k, -1, dtype=np.intp)
    e = p1 - p0
    w = p0[None, :, :] - origins[:, None, :]
    denom = dirs[:, None, 0] * e[None, :, 1] - dirs[:, None, 1] * e[None, :, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w[:, :, 0] * e[None, :, 1] - w[:, :, 1] * e[None, :, 0]) / denom
        s = (w[:, :, 0] * dirs[:, None, 1] - w[:, :, 1] * dirs[:, None, 0]) / denom
    valid = (np.abs(denom) > 1e-15) & (s >= -1e-12) & (s <= 1 + 1e-12) & (t > tmin)
    t = np.where(valid, t, np.inf)
    idx = np.argmin(t, axis=1)
    best = t[np.arange(k), idx]
    return best, np.where(np.isfinite(best), idx, -1)


def line_param(origins: FloatArray, dirs: FloatArray, p: FloatArray, e: FloatArray) -> FloatArray:
    """t where o + t d meets the supporting line of edge (p, p + e), vectorised."""
    w = p - origins
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = (w[:, 0] * e[:, 1] - w[:, 1] * e[:, 0]) / (
            dirs[:, 0] * e[:, 1] - dirs[:, 1] * e[:, 0]
        )
    return out
