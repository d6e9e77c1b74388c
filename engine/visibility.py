"""The area visible from a point (the validators' safe areas and the editor's LOS overlay)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from engine.blockers import Blockers, FloatArray, edges, line_param, polygonal, ray_hits

#: Below this many ray-edge pairs the dense ray cast is used as it is.
DENSE_PAIRS = 4_000


def edge_spans(r0: np.ndarray, r1: np.ndarray, p0: np.ndarray, p1: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The angles under which each edge ``p0``-``p1`` is seen from an origin (``r0``, ``r1``: its
    ends relative to that origin): (``lo``, ``hi``, ``full``) - the span from ``lo`` (in
    [0, 2 pi)) to ``hi`` (possibly past 2 pi), padded for the hits :func:`ray_hits` accepts just
    beyond an edge's ends, and ``full`` where the span is not well defined (an end at the origin,
    the origin on the edge's line): such an edge is tested against every ray."""
    two_pi = 2 * math.pi
    d0, d1 = np.hypot(r0[:, 0], r0[:, 1]), np.hypot(r1[:, 0], r1[:, 1])
    a0 = np.arctan2(r0[:, 1], r0[:, 0])
    a1 = np.arctan2(r1[:, 1], r1[:, 0])
    turn = np.mod(a1 - a0 + math.pi, two_pi) - math.pi
    start = np.where(turn >= 0, a0, a1)
    length = np.hypot(*(p1 - p0).T)
    near = np.minimum(d0, d1)
    cross = r0[:, 0] * r1[:, 1] - r0[:, 1] * r1[:, 0]
    full = (near < 1e-6) | (np.abs(cross) <= 1e-9 * d0 * d1)
    # hits are accepted up to 1e-12 of the edge beyond its ends: widen the span accordingly
    pad = 1e-9 + 4e-12 * length / np.maximum(near, 1e-6)
    lo = np.mod(start - pad, two_pi)
    hi = lo + np.abs(turn) + 2 * pad
    return lo, hi, full


def circle_crossings(p0: np.ndarray, e: np.ndarray, rel: np.ndarray, radius: float,
                     at: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Where edges ``p0 -> p0 + e`` cross the circle of ``radius`` about their origins ``at``
    (one point, or one per edge; ``rel`` is ``p0 - at``): for each of the two roots of
    ``|p0 + s e - at| = radius``, the edges it lies on (0 <= s <= 1) and the angle of the crossing
    seen from the origin."""
    qa = (e * e).sum(axis=1)
    qb = 2.0 * (rel * e).sum(axis=1)
    qc = (rel * rel).sum(axis=1) - radius * radius
    disc = qb * qb - 4.0 * qa * qc
    has = (disc >= 0) & (qa > 0)
    root = np.sqrt(np.where(has, disc, 0.0))
    out = []
    for sgn in (-1.0, 1.0):
        sv = (-qb + sgn * root) / np.where(qa > 0, 2.0 * qa, 1.0)
        ok = has & (sv >= 0.0) & (sv <= 1.0)
        pts = p0[ok] + sv[ok, None] * e[ok] - (at[ok] if at.ndim == 2 else at)
        out.append((ok, np.arctan2(pts[:, 1], pts[:, 0])))
    return out


def sector_radii(at: np.ndarray, lo: np.ndarray, hi: np.ndarray, hit: np.ndarray, t_mid: np.ndarray,
                 p0: np.ndarray, p1: np.ndarray, radius: float,
                 blocked: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Directions and reaches of each sector's two sides (angles ``lo`` and ``hi`` from its origin
    ``at``): ``radius``, or as far as the wall ``hit`` that its middle ray met before ``radius``
    (at ``t_mid``); 0 for ``blocked`` sectors."""
    d_lo = np.stack([np.cos(lo), np.sin(lo)], axis=1)
    d_hi = np.stack([np.cos(hi), np.sin(hi)], axis=1)
    r_lo = np.full(len(lo), radius)
    r_hi = np.full(len(lo), radius)
    wall = (hit >= 0) & (t_mid < radius)
    if wall.any():
        e0, ev = p0[hit[wall]], p1[hit[wall]] - p0[hit[wall]]
        r_lo[wall] = np.minimum(line_param(at[wall], d_lo[wall], e0, ev), radius)
        r_hi[wall] = np.minimum(line_param(at[wall], d_hi[wall], e0, ev), radius)
    if blocked is not None:
        r_lo[blocked] = 0.0
        r_hi[blocked] = 0.0
    r_lo = np.nan_to_num(np.maximum(r_lo, 0.0), nan=0.0)
    r_hi = np.nan_to_num(np.maximum(r_hi, 0.0), nan=0.0)
    return d_lo, d_hi, r_lo, r_hi


def first_hits(k: int, order: np.ndarray, edge_parts: list[np.ndarray], first_parts: list[np.ndarray],
               count_parts: list[np.ndarray], p0: np.ndarray, p1: np.ndarray, at: np.ndarray, dirs: np.ndarray,
               tmin: float) -> tuple[np.ndarray, np.ndarray]:
    """First hit (t, edge; inf and -1 for none) of each of ``k`` rays ``dirs`` from ``at`` (one
    origin, or one per edge), testing each edge of ``edge_parts`` against the rays
    ``order[first .. first + count)`` of ``first_parts`` and ``count_parts`` only (the rays in its
    angular span): :func:`engine.blockers.ray_hits`'s arithmetic, pair by pair, the lowest edge
    of equal hits winning."""
    edges_of = np.concatenate(edge_parts)
    firsts = np.concatenate(first_parts)
    counts = np.concatenate(count_parts)
    total = int(counts.sum())
    best = np.full(k, np.inf)
    hit = np.full(k, -1, dtype=np.intp)
    if total == 0:
        return best, hit
    pair_edge = np.repeat(edges_of, counts)
    offsets = np.cumsum(counts) - counts
    pair_ray = order[np.repeat(firsts - offsets, counts) + np.arange(total)]
    e = p1[pair_edge] - p0[pair_edge]
    w = p0[pair_edge] - (at[pair_edge] if at.ndim == 2 else at)
    dv = dirs[pair_ray]
    denom = dv[:, 0] * e[:, 1] - dv[:, 1] * e[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w[:, 0] * e[:, 1] - w[:, 1] * e[:, 0]) / denom
        s = (w[:, 0] * dv[:, 1] - w[:, 1] * dv[:, 0]) / denom
    valid = (np.abs(denom) > 1e-15) & (s >= -1e-12) & (s <= 1 + 1e-12) & (t > tmin)
    pair_ray, pair_edge, t = pair_ray[valid], pair_edge[valid], t[valid]
    np.minimum.at(best, pair_ray, t)
    ties = t == best[pair_ray]
    lowest = np.full(k, len(p0), dtype=np.intp)
    np.minimum.at(lowest, pair_ray[ties], pair_edge[ties])
    found = np.isfinite(best)
    hit[found] = lowest[found]
    return best, hit


def rays_from(
    origin: FloatArray, angles: FloatArray, p0: FloatArray, p1: FloatArray, tmin: float,
    dense_pairs: int = DENSE_PAIRS,
) -> tuple[FloatArray, np.ndarray]:
    """:func:`engine.blockers.ray_hits` for rays sharing one origin (directions ``angles``),
    with the same answer (same first hit, same lowest edge index on ties), but testing each ray
    only against the edges whose angular span from the origin contains it (padded so the
    culling is conservative).  The dense test costs rays x edges; this costs rays x the edges
    along each ray, which is what keeps a point's visible region cheap among many walls or a
    bounds of thousands of vertices."""
    k, n = len(angles), len(p0)
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    if k * n <= dense_pairs:
        return ray_hits(np.repeat(origin[None, :], k, axis=0), dirs, p0, p1, tmin)
    two_pi = 2 * math.pi
    lo, hi, full = edge_spans(p0 - origin, p1 - origin, p0, p1)
    ray_angle = np.mod(angles, two_pi)
    order = np.argsort(ray_angle, kind="stable")
    sorted_angle = ray_angle[order]
    spans = [(lo, np.minimum(hi, two_pi), ~full), (np.zeros(n), hi - two_pi, ~full & (hi > two_pi))]
    edge_parts, first_parts, count_parts = [], [], []
    for a, b, use in spans:
        first = np.searchsorted(sorted_angle, a[use], side="left")
        last = np.searchsorted(sorted_angle, b[use], side="right")
        edge_parts.append(np.flatnonzero(use))
        first_parts.append(first)
        count_parts.append(np.maximum(last - first, 0))
    edge_parts.append(np.flatnonzero(full))
    first_parts.append(np.zeros(int(full.sum()), dtype=np.intp))
    count_parts.append(np.full(int(full.sum()), k, dtype=np.intp))
    return first_hits(k, order, edge_parts, first_parts, count_parts, p0, p1, origin, dirs, tmin)


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
        angles += [a for _, a in circle_crossings(p0, p1 - p0, rel, radius, origin)]
    ang = np.unique(np.round(np.mod(np.concatenate(angles), 2 * math.pi), 13))
    lo = ang
    hi = np.append(ang[1:], ang[0] + 2 * math.pi)
    mid = (lo + hi) / 2.0
    dirs = np.stack([np.cos(mid), np.sin(mid)], axis=1)
    origins = np.repeat(origin[None, :], len(mid), axis=0)
    t_mid, hit = rays_from(origin, mid, p0, p1, 1e-12)
    blocked = np.zeros(len(mid), dtype=bool)
    if not region.is_empty:
        blocked = shapely.contains_xy(region, *(origins + 1e-7 * dirs).T)
    d_lo, d_hi, r_lo, r_hi = sector_radii(origins, lo, hi, hit, t_mid, p0, p1, radius, blocked)
    ring = np.empty((2 * len(lo), 2))
    ring[0::2] = origin + r_lo[:, None] * d_lo
    ring[1::2] = origin + r_hi[:, None] * d_hi
    poly = shapely.make_valid(shapely.Polygon(ring))
    return polygonal(poly)
