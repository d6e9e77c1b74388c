"""The area visible from a point (the validators' safe areas and the editor's LOS overlay)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from engine.blockers import Blockers, edges, line_param, polygonal, ray_hits

def visible_region(
    point: tuple[float, float], radius: float, blockers: Blockers, arc_segments: int = 128
) -> BaseGeometry:
    """The part of the disc of ``radius`` around ``point`` that ``point`` sees (a polygon).

    Exact angular sweep: the critical directions are those towards every feature vertex and
    every crossing of a feature edge with the circle, plus ``arc_segments`` evenly spaced
    directions that polygonise the circle (as shapely's buffer does).  Between two consecutive
    critical directions one ray at the middle finds the single nearest edge (or the arc), and
    the region's boundary there is that edge's own line cut by the two bounding rays -- so the
    vertices are exact, with no sampling.  A point inside a feature sees nothing.
    """
    px, py = float(point[0]), float(point[1])
    radius = float(radius)
    origin = np.array([px, py], dtype=np.float64)
    window = box(px - radius - 1.0, py - radius - 1.0, px + radius + 1.0, py + radius + 1.0)
    region = blockers.region(window)
    if not region.is_empty and bool(shapely.contains_xy(region, px, py)):
        return shapely.Polygon()
    p0, p1 = edges(region) if not region.is_empty else (np.zeros((0, 2)), np.zeros((0, 2)))
    angles = [np.linspace(0.0, 2 * math.pi, arc_segments, endpoint=False)]
    if len(p0):
        rel = p0 - origin
        near = np.hypot(rel[:, 0], rel[:, 1]) <= radius + 1e-9
        angles.append(np.arctan2(rel[near, 1], rel[near, 0]))
        # edge/circle crossings: |p0 + s e - o| = r
        e = p1 - p0
        qa = (e * e).sum(axis=1)
        qb = 2.0 * (rel * e).sum(axis=1)
        qc = (rel * rel).sum(axis=1) - radius * radius
        disc = qb * qb - 4.0 * qa * qc
        has = (disc >= 0) & (qa > 0)
        root = np.sqrt(np.where(has, disc, 0.0))
        for sgn in (-1.0, 1.0):
            sv = (-qb + sgn * root) / np.where(qa > 0, 2.0 * qa, 1.0)
            ok = has & (sv >= 0.0) & (sv <= 1.0)
            pts = p0[ok] + sv[ok, None] * e[ok] - origin
            angles.append(np.arctan2(pts[:, 1], pts[:, 0]))
    ang = np.unique(np.round(np.mod(np.concatenate(angles), 2 * math.pi), 13))
    lo = ang
    hi = np.append(ang[1:], ang[0] + 2 * math.pi)
    mid = (lo + hi) / 2.0
    dirs = np.stack([np.cos(mid), np.sin(mid)], axis=1)
    origins = np.repeat(origin[None, :], len(mid), axis=0)
    t_mid, hit = ray_hits(origins, dirs, p0, p1, 1e-12)
    blocked = np.zeros(len(mid), dtype=bool)
    if not region.is_empty:
        blocked = shapely.contains_xy(region, *(origins + 1e-7 * dirs).T)
    d_lo = np.stack([np.cos(lo), np.sin(lo)], axis=1)
    d_hi = np.stack([np.cos(hi), np.sin(hi)], axis=1)
    r_lo = np.full(len(lo), radius)
    r_hi = np.full(len(lo), radius)
    wall = (hit >= 0) & (t_mid < radius)
    if wall.any():
        e0, ev = p0[hit[wall]], p1[hit[wall]] - p0[hit[wall]]
        r_lo[wall] = np.minimum(line_param(origins[wall], d_lo[wall], e0, ev), radius)
        r_hi[wall] = np.minimum(line_param(origins[wall], d_hi[wall], e0, ev), radius)
    r_lo[blocked] = 0.0
    r_hi[blocked] = 0.0
    r_lo = np.nan_to_num(np.maximum(r_lo, 0.0), nan=0.0)
    r_hi = np.nan_to_num(np.maximum(r_hi, 0.0), nan=0.0)
    ring = np.empty((2 * len(lo), 2))
    ring[0::2] = origin + r_lo[:, None] * d_lo
    ring[1::2] = origin + r_hi[:, None] * d_hi
    poly = shapely.make_valid(shapely.Polygon(ring))
    return polygonal(poly)
