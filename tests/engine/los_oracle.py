"""Brute-force helpers for the sight tests: dense sampling (which can only *find* sight lines,
never prove their absence) and an independent clearance check for witnesses."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from engine.sight import Blockers, Segment


def blocking_region(blockers: Blockers, a: BaseGeometry, b: BaseGeometry) -> BaseGeometry:
    minx, miny, maxx, maxy = shapely.union(a, b).bounds
    return blockers.region(box(minx - 2, miny - 2, maxx + 2, maxy + 2))


def boundary_samples(g: BaseGeometry, step: float) -> np.ndarray:
    """Points every ``step`` along the boundary of ``g`` (or ``g`` itself for a point)."""
    if g.geom_type == "Point":
        return np.array([[g.x, g.y]])
    ring = g.boundary
    n = max(4, int(ring.length / step))
    pts = shapely.line_interpolate_point(ring, np.linspace(0.0, ring.length, n, endpoint=False))
    return np.asarray(shapely.get_coordinates(pts))


def sampled_clear_lengths(
    a: BaseGeometry, b: BaseGeometry, blockers: Blockers, step: float = 0.05, margin: float = 1e-6
) -> np.ndarray:
    """Lengths of sampled boundary-to-boundary segments that clear every feature by a margin."""
    region = blocking_region(blockers, a, b).buffer(-margin)
    pa, pb = boundary_samples(a, step), boundary_samples(b, step)
    s = np.repeat(pa, len(pb), axis=0)
    e = np.tile(pb, (len(pa), 1))
    same = (s == e).all(axis=1)
    s, e = s[~same], e[~same]
    lines = shapely.linestrings(np.stack([s, e], axis=1))
    clear = ~shapely.intersects(lines, region) if not region.is_empty else np.ones(len(s), bool)
    out: np.ndarray = np.hypot(*(e - s).T)[clear]
    return out


def witness_ok(seg: Segment, a: BaseGeometry, b: BaseGeometry, blockers: Blockers, tol: float = 1e-7) -> bool:
    """Independent check: the segment starts on a, ends on b and penetrates no feature by more
    than ``tol``."""
    region = blocking_region(blockers, a, b).buffer(-tol)
    g = seg.to_shapely()
    on_a = shapely.dwithin(shapely.Point(seg.start), a, tol)
    on_b = shapely.dwithin(shapely.Point(seg.end), b, tol)
    return bool(on_a and on_b and (region.is_empty or not g.intersects(region)))
