"""Per-sample memo for ``safe-areas`` (issue 20: feedback within a second after a wall drag).

The share a sample point sees is a pure function of the point, the radius, the polygon count of
the sight circle, the (simplified) bounds and the wall parts that come within the radius of it -
nothing else enters :func:`engine.sight.visible_region`'s sweep or the open-floor area:

* a part farther than ``radius`` (+ :data:`NEAR_MARGIN`) from the point has no vertex in the
  disc, crosses no circle, and every ray that meets it meets it beyond the radius, where the
  region is clipped to the arc; for the open floor, its part of the disc is empty;
* the near parts are put in a canonical order (by the digests of their WKB), so the union's
  order of parts, which a distant edit can change, does not enter either;
* the outside of the bounds blocks as a frame of its own, merged only with the near parts that
  touch or cross the bounds - not, as the whole-arena union did, with every such wall - so
  dragging a wall along the edge does not touch the samples far from it.

So each sample's share is memoised under (x, y, radius, arc segments, digest of the bounds,
digest of its near parts' digests in that order) in a bounded LRU: a wall edit recomputes only
the samples within the radius of a part that changed (the moved wall's, or that of any wall
whose simplification or union it altered).  A cached share is what recomputing it gives
(:func:`shares` with ``cache=False``): the same inputs go through the same steps.

The points to recompute are swept together by :func:`validators.games.gravstrike.sight_sweep.visible_areas`
(the engine's sweep, batched, areas only); a point on or within :data:`CLEARANCE` of a feature
goes to ``visible_region`` itself.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from engine import budget as caps
from engine.blockers import edges, polygonal
from engine.sight import Blockers, visible_region
from validators.games.gravstrike.sight_sweep import visible_areas

#: Parts within ``radius + NEAR_MARGIN`` of a sample are the ones it depends on (the sweep takes
#: vertices up to 1e-9 beyond the radius; the margin covers that and rounding).
NEAR_MARGIN = 1e-6
#: Bound on the memo (entries, one a sample, some 300 bytes each: 10 MB when full).  A 48-length
#: table has ~1000 samples and a wall drag recomputes ~150 of them a step.
CACHE_ENTRIES = 32_768
#: Points are swept in batches of at most CHUNK_POINTS points and CHUNK_EDGES edges (so that the
#: batch's arrays stay within some tens of MB).
CHUNK_POINTS = 128
CHUNK_EDGES = 20_000
#: Points nearer than this to a feature are swept one by one by the engine (its tests for a
#: point on or in a feature); the batched sweep takes the rest.
CLEARANCE = 1e-4

FloatArray = npt.NDArray[np.float64]
_Key = tuple[float, float, float, int, bytes, bytes]

_cache: OrderedDict[_Key, float] = OrderedDict()
_lock = threading.Lock()


def clear() -> None:
    """Forget every memoised share (tests; a long session never needs it: the memo is bounded)."""
    with _lock:
        _cache.clear()


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def shares(xs: FloatArray, ys: FloatArray, radius: float, walls: BaseGeometry, bounds: BaseGeometry,
           arc_segments: int, cache: bool = True) -> FloatArray:
    """The share of the open floor within ``radius`` that each point (xs[i], ys[i]) sees, with
    ``walls`` (a valid polygonal union) and the outside of ``bounds`` blocking sight.  With
    ``cache`` the shares of points whose inputs are unchanged come from the memo."""
    parts = shapely.get_parts(walls)
    parts = parts[~shapely.is_empty(parts)]
    digests = [_digest(w) for w in shapely.to_wkb(parts)]
    rank = np.empty(len(parts), dtype=np.intp)
    rank[sorted(range(len(parts)), key=digests.__getitem__)] = np.arange(len(parts))
    points = shapely.points(xs, ys)
    near = _near_parts(points, parts, rank, radius)
    head = _digest(shapely.to_wkb(bounds))
    keys = [(x, y, float(radius), arc_segments, head, _digest(b"".join(digests[j] for j in nb)))
            for x, y, nb in zip(xs.tolist(), ys.tolist(), near)]
    out = np.empty(len(keys))
    todo = []
    with _lock:
        for i, key in enumerate(keys):
            hit = _cache.get(key) if cache else None
            if hit is None:
                todo.append(i)
            else:
                _cache.move_to_end(key)
                out[i] = hit
    if todo:
        rows = np.array(todo, dtype=np.intp)
        got = _compute(xs[rows], ys[rows], [near[i] for i in todo], rank, radius, walls, bounds, parts,
                       arc_segments)
        out[rows] = got
        if cache:
            with _lock:
                for i, value in zip(todo, got.tolist()):
                    _cache[keys[i]] = value
                while len(_cache) > CACHE_ENTRIES:
                    _cache.popitem(last=False)
    return out


def _compute(xs: FloatArray, ys: FloatArray, near: list[list[int]], rank: np.ndarray, radius: float,
             walls: BaseGeometry, bounds: BaseGeometry, parts: np.ndarray, arc_segments: int) -> FloatArray:
    """The shares of the points (xs[i], ys[i]), each from its near parts alone."""
    points = shapely.points(xs, ys)
    local = _Local(parts, bounds, radius)
    # each point's blocking edges: its near parts inside the bounds, then the outside of the
    # bounds merged with its near parts that reach it
    pieces = [local.edges(nb) for nb in near]
    counts = np.array([sum(len(p) for p, _ in ps) for ps in pieces], dtype=np.intp)
    clear = _clear(xs, ys, pieces, counts, walls, bounds)
    seen = np.empty(len(xs))
    sizes = counts.tolist()
    batches: list[list[int]] = [[]]
    held = 0
    for i in np.flatnonzero(clear).tolist():
        if batches[-1] and (len(batches[-1]) == CHUNK_POINTS or held + sizes[i] > CHUNK_EDGES):
            batches.append([])
            held = 0
        batches[-1].append(i)
        held += sizes[i]
    for batch in batches:
        if batch:
            caps.tick()  # the analysis's caps (engine.budget), between two batches
            rows = np.array(batch, dtype=np.intp)
            p0 = np.concatenate([p for k in batch for p, _ in pieces[k]])
            p1 = np.concatenate([q for k in batch for _, q in pieces[k]])
            owner = np.repeat(np.arange(len(batch)), counts[rows])
            seen[rows] = visible_areas(np.stack([xs[rows], ys[rows]], axis=1), radius, p0, p1, owner, arc_segments)
    for i in np.flatnonzero(~clear).tolist():  # on or next to a feature: the engine's own tests for that
        caps.tick()
        seen[i] = visible_region((float(xs[i]), float(ys[i])), radius, Blockers(walls=local.geometry(near[i])),
                                 arc_segments=arc_segments).area
    open_area = _open_areas(points, near, rank, radius, bounds, parts, arc_segments)
    share: FloatArray = np.where(open_area > 0, np.minimum(seen / np.where(open_area > 0, open_area, 1.0), 1.0), 1.0)
    return share


class _Local:
    """The blocking geometry near a point, from its near parts: the parts inside the bounds as
    they are, the outside of the bounds (a frame well beyond the radius) merged with the near
    parts that touch or cross the bounds.  Memoised per part and per set of merged parts."""

    def __init__(self, parts: np.ndarray, bounds: BaseGeometry, radius: float) -> None:
        self.parts = parts
        self.inner = shapely.contains_properly(bounds, parts) if len(parts) else np.zeros(0, dtype=bool)
        minx, miny, maxx, maxy = bounds.bounds
        pad = radius + 2.0
        self.frame = shapely.difference(shapely.box(minx - pad, miny - pad, maxx + pad, maxy + pad), bounds)
        self._edges: dict[int, tuple[FloatArray, FloatArray]] = {}
        self._outside: dict[tuple[int, ...], tuple[BaseGeometry, tuple[FloatArray, FloatArray]]] = {}

    def _outside_of(self, near: list[int]) -> tuple[BaseGeometry, tuple[FloatArray, FloatArray]]:
        merged = tuple(j for j in near if not self.inner[j])
        got = self._outside.get(merged)
        if got is None:
            geom = self.frame if not merged else polygonal(shapely.union_all([self.frame, *self.parts[list(merged)]]))
            got = self._outside[merged] = (geom, edges(geom))
        return got

    def edges(self, near: list[int]) -> list[tuple[FloatArray, FloatArray]]:
        out = []
        for j in near:
            if self.inner[j]:
                if j not in self._edges:
                    self._edges[j] = edges(self.parts[j])
                out.append(self._edges[j])
        out.append(self._outside_of(near)[1])
        return out

    def geometry(self, near: list[int]) -> BaseGeometry:
        polys = [self.parts[j] for j in near if self.inner[j]]
        polys += list(shapely.get_parts(self._outside_of(near)[0]))
        return shapely.multipolygons(polys)


def _clear(xs: FloatArray, ys: FloatArray, pieces: list[list[tuple[FloatArray, FloatArray]]], counts: np.ndarray,
           walls: BaseGeometry, bounds: BaseGeometry) -> np.ndarray:
    """Whether each point lies in the open, at least CLEARANCE from every one of its edges (what
    :func:`visible_areas` assumes)."""
    inside = shapely.contains_xy(bounds, xs, ys)
    if not walls.is_empty:
        inside &= ~shapely.intersects_xy(walls, xs, ys)
    p0 = np.concatenate([p for ps in pieces for p, _ in ps] or [np.zeros((0, 2))])
    p1 = np.concatenate([q for ps in pieces for _, q in ps] or [np.zeros((0, 2))])
    owner = np.repeat(np.arange(len(xs)), counts)
    o = np.stack([xs, ys], axis=1)[owner]
    e = p1 - p0
    el = (e * e).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.clip(((o - p0) * e).sum(axis=1) / np.where(el > 0, el, 1.0), 0.0, 1.0)
    d = np.hypot(*(p0 + s[:, None] * e - o).T)
    gap = np.full(len(xs), np.inf)
    np.minimum.at(gap, owner, d)
    out: np.ndarray = inside & (gap >= CLEARANCE)
    return out


def _near_parts(points: np.ndarray, parts: np.ndarray, rank: np.ndarray, radius: float) -> list[list[int]]:
    """For each point, the indices of the parts within ``radius + NEAR_MARGIN`` of it, in
    canonical (digest) order."""
    if not len(parts):
        return [[] for _ in range(len(points))]
    at, part = shapely.STRtree(parts).query(points, predicate="dwithin", distance=radius + NEAR_MARGIN)
    order = np.lexsort((rank[part], at))
    at, part = at[order], part[order]
    cuts = np.searchsorted(at, np.arange(len(points) + 1))
    flat = part.tolist()
    return [flat[a:b] for a, b in zip(cuts[:-1].tolist(), cuts[1:].tolist())]


def _open_areas(points: np.ndarray, near: list[list[int]], rank: np.ndarray, radius: float, bounds: BaseGeometry,
                parts: np.ndarray, arc_segments: int) -> FloatArray:
    """Area of the open floor (bounds minus walls) within ``radius`` of each point: the disc's
    part inside the bounds minus, part by part in canonical order, the near parts' pieces inside
    the bounds that lie in the disc - a piece wholly inside a disc needs no overlay."""
    disks = shapely.buffer(points, radius, quad_segs=arc_segments // 4)
    shapely.prepare(bounds)
    area: FloatArray = shapely.area(disks)
    clipped = ~shapely.contains(bounds, disks)
    area[clipped] = shapely.area(shapely.intersection(disks[clipped], bounds))
    users: dict[int, list[int]] = {}
    for row, nb in enumerate(near):
        for j in nb:
            users.setdefault(j, []).append(row)
    for j in sorted(users, key=lambda j: int(rank[j])):
        part: Any = parts[j]
        piece = part if shapely.contains(bounds, part) else shapely.intersection(part, bounds)
        if piece.is_empty or piece.area <= 0:
            continue
        rows = np.array(users[j], dtype=np.intp)
        inside = shapely.distance(piece, points[rows]) < radius
        whole = inside & shapely.contains(disks[rows], piece)
        area[rows[whole]] -= piece.area
        partial = rows[inside & ~whole]
        area[partial] -= shapely.area(shapely.intersection(disks[partial], piece))
    return area
