"""The area :func:`engine.visibility.visible_region` gives, for many points at once (``safe-areas``).

``visible_region`` sweeps one point: critical directions (``arc_segments`` even ones, those
towards every feature vertex within the radius and those towards every crossing of a feature
edge with the circle), one ray at the middle of each pair of neighbouring directions finds the
nearest edge (:func:`engine.visibility.rays_from`'s angular culling), and the region's boundary
in that sector is the edge's own line (or the arc) cut by the sector's two rays.  Per point it
costs some 0.3 ms of small numpy calls, which after a wall drag on a 48-length table (150-odd
points within the radius of the wall) is most of the validator's time.

:func:`visible_areas` runs the same steps with the same arithmetic for a batch of points,
each with its own edges, in flat arrays, and returns the areas only: the star-shaped region is
the union of the sector triangles (origin, r_lo along the sector's first ray, r_hi along its
last), so its area is the sum of ``r_lo r_hi sin(hi - lo) / 2``.  Every step is per point or
per sector of one point, so a point's area does not depend on which other points share the
batch.  It leaves out what only a point on or within 1e-7 of a feature needs (the "point in a
feature sees nothing" and "ray starts inside a feature" tests): callers pass points clear of
every feature and use ``visible_region`` for the others.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from engine.visibility import circle_crossings, edge_spans, first_hits, sector_radii

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

#: Rays of one point sort apart from the next point's (angles lie in [0, 2 pi)).
_SPACING = 8.0


def visible_areas(origins: FloatArray, radius: float, p0: FloatArray, p1: FloatArray, owner: IntArray,
                  arc_segments: int) -> FloatArray:
    """Area of the part of the disc of ``radius`` around each of ``origins`` (m, 2) that it sees,
    the blocking edges being (p0[k], p1[k]) for point ``owner[k]`` (``owner`` ascending; every
    point at least 1e-6 from its edges and outside every feature)."""
    m = len(origins)
    two_pi = 2 * math.pi
    radius = float(radius)
    at = origins[owner]
    rel = p0 - at
    d0 = np.hypot(rel[:, 0], rel[:, 1])
    # critical directions, as visible_region takes them
    angles = [np.tile(np.linspace(0.0, two_pi, arc_segments, endpoint=False), m)]
    owners = [np.repeat(np.arange(m), arc_segments)]
    near = d0 <= radius + 1e-9
    angles.append(np.arctan2(rel[near, 1], rel[near, 0]))
    owners.append(owner[near])
    for ok, crossing in circle_crossings(p0, p1 - p0, rel, radius, at):
        angles.append(crossing)
        owners.append(owner[ok])
    ang = np.round(np.mod(np.concatenate(angles), two_pi), 13)
    own = np.concatenate(owners)
    order = np.lexsort((ang, own))
    ang, own = ang[order], own[order]
    fresh = np.ones(len(ang), dtype=bool)  # np.unique per point
    fresh[1:] = (own[1:] != own[:-1]) | (ang[1:] != ang[:-1])
    lo, own = ang[fresh], own[fresh]
    first = np.searchsorted(own, np.arange(m))
    last = np.append(first[1:], len(lo)) - 1
    hi = np.empty(len(lo))
    hi[:-1] = lo[1:]
    hi[last] = lo[first] + two_pi
    mid = (lo + hi) / 2.0
    t_mid, hit = _rays(origins, own, first, last, mid, p0, p1, owner, rel, d0)
    _, _, r_lo, r_hi = sector_radii(origins[own], lo, hi, hit, t_mid, p0, p1, radius)
    sector = 0.5 * r_lo * r_hi * np.sin(hi - lo)  # the triangle (origin, r_lo along lo, r_hi along hi)
    out: FloatArray = np.bincount(own, weights=sector, minlength=m).astype(np.float64, copy=False)
    return out


def _rays(origins: FloatArray, own: IntArray, first: IntArray, last: IntArray, angles: FloatArray,
          p0: FloatArray, p1: FloatArray, owner: IntArray, rel: FloatArray,
          d0: FloatArray) -> tuple[FloatArray, IntArray]:
    """First hit (t, edge) of the ray from ``origins[own[i]]`` at ``angles[i]`` with that point's
    edges: :func:`engine.visibility.rays_from`'s culling and arithmetic, for many origins."""
    k = len(angles)
    two_pi = 2 * math.pi
    best = np.full(k, np.inf)
    hit = np.full(k, -1, dtype=np.intp)
    if not len(p0):
        return best, hit
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    lo, hi, full = edge_spans(rel, p1 - origins[owner], p0, p1)
    # every point's rays sorted by angle, the points one after another
    ray_angle = np.mod(angles, two_pi)
    order = np.lexsort((ray_angle, own))
    base = owner * _SPACING
    sorted_key = own[order] * _SPACING + ray_angle[order]
    spans = [(lo, np.minimum(hi, two_pi), ~full), (np.zeros(len(p0)), hi - two_pi, ~full & (hi > two_pi))]
    edge_parts, first_parts, count_parts = [], [], []
    for a, b, use in spans:
        lo_at = np.searchsorted(sorted_key, base[use] + a[use], side="left")
        hi_at = np.searchsorted(sorted_key, base[use] + b[use], side="right")
        edge_parts.append(np.flatnonzero(use))
        first_parts.append(lo_at)
        count_parts.append(np.maximum(hi_at - lo_at, 0))
    # edges whose span is not well defined meet every ray of their point (rays are grouped by
    # point in ``order``: a point's rays are first[p]..last[p] there too)
    edge_parts.append(np.flatnonzero(full))
    first_parts.append(first[owner[full]])
    count_parts.append(last[owner[full]] - first[owner[full]] + 1)
    return first_hits(k, order, edge_parts, first_parts, count_parts, p0, p1, origins[owner], dirs, 1e-12)
