"""Line of sight, exactly as the Gravstrike book defines it ("Line of Sight", "Arena Features").

Two things see each other when *some* straight segment from any point of one to any point of
the other is not interrupted by an arena feature.  Arena features are the walls and everything
outside the arena bounds.  Shapes are shapely geometries (or anything with ``to_shapely()``);
circles are their buffered polygons, so everything below is polygonal and exact.

Grazing policy
    Only the *open interior* of a feature interrupts a line.  A line that touches a wall corner,
    or slides along a wall face, is clear.  Consequently the set of clear segments is closed,
    which is what makes the exact search below possible.  Numerically every test is made with
    a tolerance ``EPS`` (1e-9 lengths): a reported line of sight penetrates no feature deeper
    than ``EPS`` and ends within ``EPS`` of both shapes; a denied one means no exactly clear
    (grazing allowed) segment exists.  Errors can only go toward "visible", and only for
    configurations within 1e-9 lengths of the boundary case.

Critical-segment argument (why testing finitely many lines is exact)
    Let ``V`` be the vertices of A, B and the features (clipped to the bounding box of A and B,
    which contains every A-B segment) plus every crossing point of their boundaries.  For a line
    ``l`` let P(l) = "some connected piece of ``l`` minus the open features meets both A and B".
    (1) P is a closed condition on lines: a limit of clear segments [a_n, b_n] is a segment
    [a, b] with a in A, b in B (compactness) lying in the closed free space.  (2) Dualise lines
    to points; the lines through each v in V form a curve, and these curves cut line space into
    cells of dimension 2, 1 and 0.  Inside one cell a moving line crosses the same edges in the
    same order (the order only changes when the line passes an edge end or an edge crossing,
    i.e. a point of V), so P is constant on each cell.  (3) Every cell's closure contains a
    0-cell, which is a line through two points of V.  Hence if any clear segment exists, one
    exists on a line through two points of V, and checking those lines is exact.

Shortest unblocked segment (for range, "Where on the Models to Measure From")
    The shortest clear segment s* is either (i) a local minimum of |a-b| that touches no
    feature vertex -- a closest pair or a vertex-to-edge projection between the shapes, or a
    projection from a boundary crossing inside a shape; (ii) pinned at one feature vertex w:
    then it minimises a one-dimensional convex function over a cell of the pencil of lines
    through w (``d1/cos(t-a) + d2/cos(t-b)``), solved by golden-section search; or (iii) pinned
    at two points of V: a critical line as above.  All candidates are re-checked with shapely
    before being accepted, so the answer is always a genuinely clear segment.

The area a point sees, :func:`visible_region`, lives in :mod:`engine.visibility` and is
re-exported here; the blocking model, :class:`Blockers`, in :mod:`engine.blockers`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Point as ShapelyPoint, box
from shapely.geometry.base import BaseGeometry

from engine import budget as caps
from engine.blockers import (
    EPS,
    Blockers,
    FloatArray,
    HasShapely,
    ShapeLike,
    as_geometry,
    coords as _coords,
    edges,
    line_param as _line_param,
    ray_hits as _ray_hits,
)
from engine.visibility import visible_region

__all__ = [
    "EPS",
    "Blockers",
    "HasShapely",
    "NoLineOfSight",
    "Segment",
    "ShapeLike",
    "as_geometry",
    "edges",
    "has_line_of_sight",
    "require_line_of_sight",
    "segment_is_clear",
    "shortest_clear_segment",
    "sight_line",
    "visible_region",
]


class NoLineOfSight(Exception):
    """Raised when a rule needs line of sight and there is none."""


@dataclass(frozen=True)
class Segment:
    """A straight segment from ``start`` to ``end`` (possibly of zero length)."""

    start: tuple[float, float]
    end: tuple[float, float]

    @property
    def length(self) -> float:
        return math.dist(self.start, self.end)

    def to_shapely(self) -> BaseGeometry:
        if self.start == self.end:
            return ShapelyPoint(self.start)
        return LineString([self.start, self.end])


@dataclass(frozen=True)
class _Local:
    """Per-query working data: the features near two shapes."""

    a: BaseGeometry
    b: BaseGeometry
    region: BaseGeometry  # blocking region clipped to the query window (original features)
    shrunk: BaseGeometry  # region shrunk by EPS: what a clear segment must avoid
    window: BaseGeometry


def _local(a: BaseGeometry, b: BaseGeometry, blockers: Blockers) -> _Local:
    minx, miny, maxx, maxy = shapely.union(a.envelope, b.envelope).bounds
    window = box(minx - 1.0, miny - 1.0, maxx + 1.0, maxy + 1.0)
    region = blockers.region(window)
    shrunk = region.buffer(-EPS, join_style="mitre") if not region.is_empty else region
    shapely.prepare(shrunk)
    return _Local(a=a, b=b, region=region, shrunk=shrunk, window=window)


def segment_is_clear(segment: Segment, blockers: Blockers) -> bool:
    """Whether ``segment`` passes no deeper than ``EPS`` into any arena feature."""
    geom = segment.to_shapely()
    return _is_clear(geom, _local(geom, geom, blockers))


def _is_clear(geom: BaseGeometry, local: _Local) -> bool:
    return local.shrunk.is_empty or not bool(shapely.intersects(geom, local.shrunk))


def _is_convex(g: BaseGeometry) -> bool:
    if g.geom_type != "Polygon" or len(g.interiors) > 0:
        return False
    return bool(g.convex_hull.area - g.area <= 1e-12 * max(1.0, g.area))


def _critical_points(local: _Local) -> tuple[FloatArray, npt.NDArray[np.int8], FloatArray]:
    """``V``, a tag per point and each point's ring neighbours.

    The tag is 1/2 for a vertex of convex A/B only, 0 for anything else (feature vertices,
    boundary crossings, vertices of non-convex shapes); ``nbr[k]`` holds the previous and next
    vertex of tagged points (NaN for the others).
    """
    lines = []
    for g in (local.a, local.b, shapely.intersection(local.region, local.window)):
        if g.is_empty:
            continue
        lines.append(g.boundary if g.geom_type in ("Polygon", "MultiPolygon") else g)
    pts = [_coords(local.a), _coords(local.b)]
    if lines:
        pts.append(_coords(shapely.node(shapely.GeometryCollection(lines))))
    v = np.unique(np.round(np.concatenate(pts), 12), axis=0).astype(np.float64)
    tag = np.zeros(len(v), dtype=np.int8)
    nbr = np.full((len(v), 2, 2), np.nan)
    feature = {tuple(p) for p in np.round(_coords(local.region), 12)}
    index = {tuple(p): k for k, p in enumerate(v)}
    for kind, g in ((1, local.a), (2, local.b)):
        if not _is_convex(g):
            continue
        ring = np.round(_coords(shapely.normalize(g).exterior), 12)[:-1]
        n = len(ring)
        for k in range(n):
            key = tuple(ring[k])
            at = index.get(key)
            if at is None or key in feature or tag[at] != 0:
                continue
            tag[at] = kind
            nbr[at, 0], nbr[at, 1] = ring[k - 1], ring[(k + 1) % n]
    return v, tag, nbr


def _side_range(u: FloatArray, d: FloatArray, pts: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Min and max signed distance of ``pts`` from each line u_i + t d_i (d unit)."""
    rel = pts[None, :, :] - u[:, None, :]
    s = d[:, None, 0] * rel[:, :, 1] - d[:, None, 1] * rel[:, :, 0]
    return s.min(axis=1), s.max(axis=1)


def _cross(d: FloatArray, w: FloatArray) -> FloatArray:
    out: FloatArray = d[:, 0] * w[:, 1] - d[:, 1] * w[:, 0]
    return out


#: Critical lines examined at once (:func:`_critical_pairs`): between two blocks the analysis's
#: caps are checked (:mod:`engine.budget`) and :func:`sight_line` may stop at the first clear one.
#: A few thousand walls near two shapes make tens of millions of lines; a block stays small.
PAIR_BLOCK = 50_000


def _pair_blocks(n: int) -> Iterator[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
    """The pairs (i < j) of ``n`` points in ``np.triu_indices`` order, in blocks of whole rows
    of about :data:`PAIR_BLOCK` pairs."""
    r0 = 0
    while r0 < n - 1:
        counts = n - 1 - np.arange(r0, n - 1)
        r1 = r0 + max(1, int(np.searchsorted(np.cumsum(counts), PAIR_BLOCK, side="right")))
        rows = np.arange(r0, r1)
        per = n - 1 - rows
        i = np.repeat(rows, per)
        first = np.repeat(np.cumsum(per) - per, per)
        j = i + 1 + (np.arange(len(i)) - first)
        yield i.astype(np.intp), j.astype(np.intp)
        r0 = r1


def _critical_pairs(local: _Local, shortest: bool) -> Iterator[tuple[FloatArray, FloatArray]]:
    """Lines (point, unit direction) through pairs of V that can matter, in blocks (the pairs
    in ``triu_indices`` order, then the convex shapes' edge lines; the same lines, in the same
    order, as all at once).

    A line through a vertex of a convex shape changes whether (and where) it meets that shape
    only when it supports the shape there, so for the sight decision such pairs are kept only
    for supporting lines (for two vertices of one shape: its edge lines).  For the shortest
    segment a vertex of a shape can also be an end pinned by one feature point, so those
    pairs are kept too.
    """
    v, tag, nbr = _critical_points(local)
    hulls = [(kind, _coords(g.convex_hull)) for kind, g in ((1, local.a), (2, local.b))]
    tol = 1e-9

    def lines(u: FloatArray, d: FloatArray, i: npt.NDArray[np.intp], j: npt.NDArray[np.intp],
              ti: npt.NDArray[np.int8], tj: npt.NDArray[np.int8]) -> tuple[FloatArray, FloatArray]:
        norm = np.hypot(d[:, 0], d[:, 1])
        keep = norm > 1e-12
        u, d, i, j, ti, tj = u[keep], d[keep] / norm[keep, None], i[keep], j[keep], ti[keep], tj[keep]

        def supports(k: npt.NDArray[np.intp], tk: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
            s1 = _cross(d, nbr[k, 0] - v[k])
            s2 = _cross(d, nbr[k, 1] - v[k])
            with np.errstate(invalid="ignore"):
                res: npt.NDArray[np.bool_] = (tk == 0) | ~((s1 < -tol) & (s2 > tol) | (s1 > tol) & (s2 < -tol))
            return res

        sup_i, sup_j = supports(i, ti), supports(j, tj)
        keep = sup_i & sup_j
        if shortest:
            keep |= (ti == 0) ^ (tj == 0)
        u, d, ti, tj = u[keep], d[keep], ti[keep], tj[keep]
        for kind, hull in hulls:
            need = (ti != kind) & (tj != kind)
            if need.any():
                lo, hi = _side_range(u[need], d[need], hull)
                meets = np.ones(len(u), dtype=bool)
                meets[need] = (lo <= 1e-7) & (hi >= -1e-7)
                u, d, ti, tj = u[meets], d[meets], ti[meets], tj[meets]
        return u, d

    for i, j in _pair_blocks(len(v)):
        caps.tick()  # the analysis's caps, between blocks
        ti, tj = tag[i], tag[j]
        same = (ti == tj) & (ti != 0)
        i, j, ti, tj = i[~same], j[~same], ti[~same], tj[~same]
        yield lines(v[i], v[j] - v[i], i, j, ti, tj)
    # edge lines of the convex shapes (the supporting pairs of one shape)
    parts: list[tuple[FloatArray, FloatArray, npt.NDArray[np.intp], npt.NDArray[np.int8]]] = []
    for kind in (1, 2):
        mine = np.flatnonzero(tag == kind)
        if len(mine):
            parts.append((v[mine], nbr[mine, 1] - v[mine], mine, np.full(len(mine), kind, dtype=np.int8)))
    if parts:
        k = np.concatenate([p[2] for p in parts])
        tk = np.concatenate([p[3] for p in parts])
        yield lines(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), k, k, tk, tk)


def _candidate_lines(local: _Local, shortest: bool = False, first: bool = False) -> BaseGeometry | None:
    """Pieces (connected, clear) of critical lines that meet both shapes, as a geometry array
    (``first``: only those of the first block that has any - its first piece is the first of
    all)."""
    minx, miny, maxx, maxy = local.window.bounds
    centre = np.array([(minx + maxx) / 2.0, (miny + maxy) / 2.0])
    reach = math.hypot(maxx - minx, maxy - miny)
    found = []
    for u, d in _critical_pairs(local, shortest):
        if len(u) == 0:
            continue
        tc = ((centre - u) * d).sum(axis=1)
        p0 = u + (tc - reach)[:, None] * d
        p1 = u + (tc + reach)[:, None] * d
        lines = shapely.linestrings(np.stack([p0, p1], axis=1))
        pieces = shapely.difference(lines, local.shrunk) if not local.shrunk.is_empty else lines
        parts = shapely.get_parts(pieces)
        parts = parts[~shapely.is_empty(parts)]
        ok = shapely.dwithin(parts, local.a, 2 * EPS) & shapely.dwithin(parts, local.b, 2 * EPS)
        good = parts[ok]
        if len(good):
            if first:
                return good
            found.append(good)
    return np.concatenate(found) if found else None


def _to_segment(line: BaseGeometry) -> Segment:
    c = _coords(line)
    return Segment((float(c[0, 0]), float(c[0, 1])), (float(c[-1, 0]), float(c[-1, 1])))


def sight_line(a: ShapeLike, b: ShapeLike, blockers: Blockers) -> Segment | None:
    """A clear segment from ``a`` to ``b`` (a witness of line of sight), or ``None``."""
    ga, gb = as_geometry(a), as_geometry(b)
    local = _local(ga, gb, blockers)
    near = _to_segment(shapely.shortest_line(ga, gb))
    if _is_clear(near.to_shapely(), local):
        return near
    pieces = _candidate_lines(local, first=True)
    if pieces is None:
        return None
    piece = pieces[0]
    pa = shapely.shortest_line(piece, ga)
    pb = shapely.shortest_line(piece, gb)
    return Segment(_to_segment(pa).start, _to_segment(pb).start)


def has_line_of_sight(a: ShapeLike, b: ShapeLike, blockers: Blockers) -> bool:
    """The book's line of sight between two shapes (see the module docstring)."""
    return sight_line(a, b, blockers) is not None


def require_line_of_sight(a: ShapeLike, b: ShapeLike, blockers: Blockers) -> Segment:
    seg = sight_line(a, b, blockers)
    if seg is None:
        raise NoLineOfSight("no straight line between the shapes avoids every arena feature")
    return seg


def _pencil_candidates(local: _Local, v: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Case (ii): shortest segments pinned at one feature vertex w (golden-section per cell)."""
    none = (np.zeros((0, 2)), np.zeros((0, 2)))
    if local.region.is_empty or local.a.geom_type == "Point" or local.b.geom_type == "Point":
        return none
    ea0, ea1 = edges(local.a)
    eb0, eb1 = edges(local.b)
    o0, o1 = edges(local.region)
    if len(ea0) == 0 or len(eb0) == 0:
        return none
    hull = shapely.union(local.a, local.b).convex_hull.buffer(EPS)
    ws = _coords(shapely.intersection(local.region.boundary, hull))
    ws = np.unique(np.round(ws, 12), axis=0)
    out_s: list[FloatArray] = []
    out_e: list[FloatArray] = []
    for w in ws:
        rel = v - w
        keep = np.hypot(rel[:, 0], rel[:, 1]) > 1e-9
        ang = np.arctan2(rel[keep, 1], rel[keep, 0])
        ang = np.unique(np.mod(np.concatenate([ang, ang + math.pi, [0.0]]), 2 * math.pi))
        lo, hi = ang, np.append(ang[1:], ang[0] + 2 * math.pi)
        mid = (lo + hi) / 2.0
        dirs = np.stack([np.cos(mid), np.sin(mid)], axis=1)
        origins = np.repeat(w[None, :], len(mid), axis=0)
        # the line must not enter a feature at w itself
        probe = 1e-7
        inside = shapely.contains_xy(local.region, *(origins + probe * dirs).T) | shapely.contains_xy(
            local.region, *(origins - probe * dirs).T
        )
        tb, ib = _ray_hits(origins, dirs, eb0, eb1, 0.0)
        ta, ia = _ray_hits(origins, -dirs, ea0, ea1, 0.0)
        tof, _ = _ray_hits(origins, dirs, o0, o1, 1e-9)
        tob, _ = _ray_hits(origins, -dirs, o0, o1, 1e-9)
        ok = ~inside & np.isfinite(ta) & np.isfinite(tb) & (tb <= tof + 1e-9) & (ta <= tob + 1e-9)
        if not ok.any():
            continue
        lo_k, hi_k, ia_k, ib_k = lo[ok], hi[ok], ia[ok], ib[ok]
        pa, eav = ea0[ia_k], ea1[ia_k] - ea0[ia_k]
        pb, ebv = eb0[ib_k], eb1[ib_k] - eb0[ib_k]
        orig = np.repeat(w[None, :], len(lo_k), axis=0)

        def length(theta: FloatArray) -> FloatArray:
            dd = np.stack([np.cos(theta), np.sin(theta)], axis=1)
            res: FloatArray = _line_param(orig, dd, pb, ebv) - _line_param(orig, dd, pa, eav)
            return res

        g = (math.sqrt(5.0) - 1.0) / 2.0
        x0, x1 = lo_k.copy(), hi_k.copy()
        for _ in range(80):
            m1 = x1 - g * (x1 - x0)
            m2 = x0 + g * (x1 - x0)
            left = length(m1) <= length(m2)
            x1 = np.where(left, m2, x1)
            x0 = np.where(left, x0, m1)
        theta = (x0 + x1) / 2.0
        dd = np.stack([np.cos(theta), np.sin(theta)], axis=1)
        ta_s = _line_param(orig, dd, pa, eav)
        tb_s = _line_param(orig, dd, pb, ebv)
        out_s.append(orig + ta_s[:, None] * dd)
        out_e.append(orig + tb_s[:, None] * dd)
    if not out_s:
        return none
    return np.concatenate(out_s), np.concatenate(out_e)


def _projection_candidates(local: _Local, v: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Case (i): from points of one shape (its vertices, crossings inside it) to the other's
    edges, the foot of the perpendicular (clamped to the edge)."""
    starts: list[FloatArray] = []
    ends: list[FloatArray] = []
    for src, dst, flip in ((local.a, local.b, False), (local.b, local.a, True)):
        inside = v[shapely.dwithin(shapely.points(v), src, EPS)]
        pts = np.concatenate([_coords(src), inside])
        if dst.geom_type == "Point":
            p, q = pts, np.repeat(_coords(dst), len(pts), axis=0)
        else:
            e0, e1 = edges(dst)
            e = e1 - e0
            ll = (e * e).sum(axis=1)
            rel = pts[:, None, :] - e0[None, :, :]
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.clip(np.nan_to_num((rel * e[None]).sum(axis=2) / ll[None]), 0.0, 1.0)
            q = (e0[None] + t[:, :, None] * e[None]).reshape(-1, 2)
            p = np.repeat(pts, len(e0), axis=0)
        starts.append(q if flip else p)
        ends.append(p if flip else q)
    return np.concatenate(starts), np.concatenate(ends)


def shortest_clear_segment(a: ShapeLike, b: ShapeLike, blockers: Blockers) -> Segment | None:
    """The shortest segment from ``a`` to ``b`` that no arena feature interrupts, or ``None``
    when there is no line of sight.  This is the closest-points segment whenever that is clear.
    """
    ga, gb = as_geometry(a), as_geometry(b)
    local = _local(ga, gb, blockers)
    near = _to_segment(shapely.shortest_line(ga, gb))
    if _is_clear(near.to_shapely(), local):
        return near
    pieces = _candidate_lines(local, shortest=True)
    if pieces is None:
        return None  # no clear segment at all: exact by the critical-segment argument
    ia = shapely.intersection(pieces, ga.buffer(2 * EPS))
    ib = shapely.intersection(pieces, gb.buffer(2 * EPS))
    lines = shapely.shortest_line(ia, ib)
    lines = lines[~shapely.is_empty(lines)]
    c = shapely.get_coordinates(lines).reshape(-1, 2, 2)
    v, _, _ = _critical_points(local)
    ps, pe = _pencil_candidates(local, v)
    qs, qe = _projection_candidates(local, v)
    starts = np.concatenate([c[:, 0], ps, qs])
    ends = np.concatenate([c[:, 1], pe, qe])
    fin = np.isfinite(starts).all(axis=1) & np.isfinite(ends).all(axis=1)
    starts, ends = starts[fin], ends[fin]
    order = np.argsort(np.hypot(*(ends - starts).T), kind="stable")
    if len(order) == 0:  # pragma: no cover - clear pieces always give a candidate
        return None
    for chunk in np.array_split(order, max(1, len(order) // 256)):
        s_pts, e_pts = starts[chunk], ends[chunk]
        geoms = shapely.linestrings(np.stack([s_pts, e_pts], axis=1))
        zero = (s_pts == e_pts).all(axis=1)
        geoms[zero] = shapely.points(s_pts[zero])
        ok = shapely.dwithin(shapely.points(s_pts), ga, 4 * EPS)
        ok &= shapely.dwithin(shapely.points(e_pts), gb, 4 * EPS)
        if not local.shrunk.is_empty:
            ok &= ~shapely.intersects(geoms, local.shrunk)
        hits = np.flatnonzero(ok)
        if len(hits):
            k = hits[0]
            return Segment(
                (float(s_pts[k, 0]), float(s_pts[k, 1])), (float(e_pts[k, 0]), float(e_pts[k, 1]))
            )
    return None  # pragma: no cover - the critical lines always yield a candidate
