"""Where a round base may go in an Arena Rex arena, and how far it has to walk.

Models move freely ("Move up to the model's MOV value in inches", no facing) with round bases
("models can fight freely in a 360 degree arc around their base").  A base must never touch a
pit ("If any part of a model's base touches a Lethal Hazard ... that model is destroyed"); the
analysis also keeps it off spikes and out of terrain hazards that block movement (see
docs/rules-decisions.md, "Arena Rex"), and inside the board (its rim may touch the edge).

So the centre of a base of radius r lives in the **free space**: the board shrunk by r minus
every such obstacle grown by r.  Growing uses polygons *circumscribing* the true round offset
(radius r / cos(pi / 4q) at q segments a quarter), so every path found keeps the base clear of
the real hazard; shrinking the board's polygon is exact for polygons and inside the true circle
for a circle board.

Two searches read the free space:

* :meth:`Space.paths` and :meth:`Space.walks` — exact shortest paths between point sets: the
  reduced visibility graph on the free space's reflex corners (the only places a shortest path
  bends), keeping only segments tangent to the obstacle at each corner they touch (a path that
  runs on into the obstacle is shortened by cutting the corner, so no shortest path uses the
  others), segments tested against the free space, Dijkstra by ``scipy.sparse.csgraph``.
  ``walks`` answers every zone to the centre and between zones on one graph.
* :meth:`Space.field` — the walking distance from a point set to every cell of a square grid
  (16 neighbours: straight, diagonal and knight's moves, each move's cells checked free), for
  the heat map and areas such as the kill band; within a couple of per cent of the exact value
  plus a cell.

Work is bounded: grids have at most :data:`MAX_CELLS` cells (the step grows if needed), and the
visibility graph at most :data:`MAX_NODES` corners.
"""

from __future__ import annotations

import math
from typing import Any
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt
import shapely
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import dijkstra
from shapely.geometry import LineString, Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points

from schema.games.arenarex import ArenaRexArena
from schema.shapes import CIRCLE_QUAD_SEGMENTS, AreaShape, Circle

FloatArray = npt.NDArray[np.float64]
Point = tuple[float, float]

#: Segments per quarter circle of a grown obstacle.
QUAD_SEGS = 4
#: A base keeps this much clear of a pit (touching is death, so the boundary is closed).
CLEARANCE = 1e-3
#: Numerical slack of the segment tests (inches).
SLACK = 1e-7
MAX_CELLS = 90_000
MAX_NODES = 2_000
#: The 16 moves of the grid search: (di, dj).
MOVES = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
         (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))


@lru_cache(maxsize=1024)
def grow(shape: AreaShape, r: float) -> BaseGeometry:
    """``shape`` grown by ``r`` with a polygon circumscribing the round offset (a circle from
    its centre, so it has 4 * QUAD_SEGS corners rather than the drawing's many).  Remembered:
    after a hazard is dragged only it is grown again."""
    k = 1.0 / math.cos(math.pi / (4 * QUAD_SEGS))
    if isinstance(shape, Circle):
        return ShapelyPoint(shape.center).buffer((shape.radius + r) * k, quad_segs=QUAD_SEGS)
    return shape.to_shapely().buffer(r * k, quad_segs=QUAD_SEGS)


def blockers(arena: ArenaRexArena) -> list[AreaShape]:
    """What no base may touch or cross: pits, spikes and terrain hazards that block movement."""
    out: list[AreaShape] = [p.shape for p in arena.pits] + [s.shape for s in arena.spikes]
    out += [h.shape for h in arena.hazards if h.blocks_movement]
    return out


def inner_board(arena: ArenaRexArena, r: float) -> BaseGeometry:
    """Where a base's centre may be so its rim stays on the board (a circle board: the polygon
    circumscribing the circle of radius R - r, 128 corners: within 0.0003 R of it)."""
    b = arena.bounds
    if isinstance(b, Circle):
        n = CIRCLE_QUAD_SEGMENTS
        return ShapelyPoint(b.center).buffer(max(b.radius - r, 0.0) / math.cos(math.pi / (4 * n)), quad_segs=n)
    g = b.to_shapely()
    return g.buffer(-r, join_style="mitre") if r > 0 else g


@dataclass
class Route:
    """A shortest path: its ``length`` (inches; ``inf`` when there is none) and ``points``."""

    length: float
    points: list[Point] = field(default_factory=list)

    @property
    def reachable(self) -> bool:
        return math.isfinite(self.length)


@dataclass
class Field:
    """Walking distances on a grid: cell (i, j) is at ``x0 + i * step``, ``y0 + j * step``;
    ``dist`` is ``inf`` where the base cannot stand or cannot get to."""

    x0: float
    y0: float
    step: float
    dist: FloatArray  # shape (nx, ny)

    def xy(self) -> tuple[FloatArray, FloatArray]:
        nx, ny = self.dist.shape
        xs = self.x0 + self.step * np.arange(nx)
        ys = self.y0 + self.step * np.arange(ny)
        return np.meshgrid(xs, ys, indexing="ij")


class Space:
    """The free space of a base of ``radius`` inches in ``arena``."""

    def __init__(self, arena: ArenaRexArena, radius: float, step: float | None = None) -> None:
        self.arena = arena
        self.radius = radius
        inner = inner_board(arena, radius)
        grown = [grow(b, radius + CLEARANCE) for b in blockers(arena)]
        self.obstacles = shapely.union_all(grown) if grown else shapely.Polygon()
        free = inner.difference(self.obstacles) if grown else inner
        self.free: BaseGeometry = free
        self._test = free.buffer(SLACK, quad_segs=1)
        shapely.prepare(self._test)
        # what a segment must not cross: the grown obstacles and everything off the shrunk board,
        # less the slack (a segment may run along an edge: visibility-graph edges do)
        minx, miny, maxx, maxy = inner.bounds if not inner.is_empty else (0.0, 0.0, 0.0, 0.0)
        frame = shapely.box(minx - 1, miny - 1, maxx + 1, maxy + 1).difference(inner)
        self._walls = shapely.union_all([self.obstacles, frame]).buffer(-SLACK, quad_segs=1)
        shapely.prepare(self._walls)
        self.step = float(step if step is not None else arena.scenario.analysis.grid)
        self._link_cache: dict[bytes, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], FloatArray]] = {}

    # -------------------------------------------------------------- points

    def contains(self, pts: FloatArray) -> npt.NDArray[np.bool_]:
        return np.asarray(shapely.contains_xy(self._test, pts[:, 0], pts[:, 1]), dtype=bool)

    def nearest_free(self, p: Point) -> Point | None:
        """``p`` if a base may stand there, else the nearest point where one may (None: no room)."""
        if self.free.is_empty:
            return None
        if self.contains(np.array([p]))[0]:
            return p
        q = nearest_points(self.free, ShapelyPoint(p))[0]
        return (float(q.x), float(q.y))

    def sample(self, line: BaseGeometry, spacing: float = 0.5) -> FloatArray:
        """Points along ``line`` about ``spacing`` apart (both ends included) where a base fits."""
        if line.is_empty or line.length == 0:
            return np.zeros((0, 2))
        n = max(2, int(math.ceil(line.length / spacing)) + 1)
        pts: FloatArray = np.asarray(shapely.get_coordinates(shapely.line_interpolate_point(
            line, np.linspace(0.0, line.length, n))), dtype=float)
        return pts[self.contains(pts)]

    def keep(self, points: list[Point]) -> FloatArray:
        """The ``points`` where a base fits, in order."""
        pts: FloatArray = np.asarray(points, dtype=float).reshape(-1, 2)
        return pts[self.contains(pts)] if len(pts) else pts

    def clear(self, a: FloatArray, b: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each segment a[k] -> b[k] stays in the free space."""
        if len(a) == 0:
            return np.zeros(0, dtype=bool)
        lines = shapely.linestrings(np.stack([a, b], axis=1))
        return ~np.asarray(shapely.intersects(self._walls, lines), dtype=bool)

    # -------------------------------------------------------------- visibility graph

    @cached_property
    def _ring_corners(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """The free space's reflex corners (where the boundary turns away from the free side),
        each with the previous and the next vertex of its ring."""
        out: list[FloatArray] = []
        polys = getattr(self.free, "geoms", [self.free])
        for poly in polys:
            if poly.is_empty or poly.geom_type != "Polygon":
                continue
            poly = orient(poly, 1.0)  # free side on the left of every ring
            for ring in (poly.exterior, *poly.interiors):
                c = np.asarray(ring.coords)[:-1]
                if len(c) < 3:
                    continue
                prev, nxt = np.roll(c, 1, axis=0), np.roll(c, -1, axis=0)
                cross = (c[:, 0] - prev[:, 0]) * (nxt[:, 1] - c[:, 1]) - (c[:, 1] - prev[:, 1]) * (nxt[:, 0] - c[:, 0])
                keep = cross < -1e-12
                out.append(np.stack([c[keep], prev[keep], nxt[keep]], axis=1))
        arr = np.concatenate(out) if out else np.zeros((0, 3, 2))
        arr = arr[:MAX_NODES]
        return arr[:, 0].copy(), arr[:, 1].copy(), arr[:, 2].copy()

    @property
    def corners(self) -> FloatArray:
        """The free space's reflex corners (where the boundary turns away from the free side)."""
        return self._ring_corners[0]

    @cached_property
    def _corner_sides(self) -> tuple[FloatArray, ...]:
        c, a, b = self._ring_corners
        ea, eb = a - c, b - c
        return (c[:, 0], c[:, 1], ea[:, 0], ea[:, 1], eb[:, 0], eb[:, 1],
                np.hypot(ea[:, 0], ea[:, 1]) + np.hypot(eb[:, 0], eb[:, 1]))

    def _tangent(self, pts: FloatArray) -> npt.NDArray[np.bool_]:
        """(point, corner) -> whether the line from the point through the corner touches the
        obstacle there without entering it (both ring neighbours on one side): only such
        segments can be part of a shortest path (the reduced visibility graph: a path that
        arrives at a corner along a line that runs on into the obstacle is shortened by cutting
        the corner).  Near-collinear cases count as tangent."""
        cx, cy, ax, ay, bx, by, elen = self._corner_sides
        dx = cx[None, :] - pts[:, :1]
        dy = cy[None, :] - pts[:, 1:2]
        sa = dx * ay - dy * ax
        sb = dx * by - dy * bx
        nd = np.hypot(dx, dy)
        tol = 1e-9 * nd * elen + 1e-12
        return np.asarray((sa * sb >= 0) | (np.abs(sa) <= tol) | (np.abs(sb) <= tol) | (nd <= 1e-12), dtype=bool)

    @cached_property
    def _corner_edges(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], FloatArray]:
        """The corner-to-corner edges of the reduced visibility graph: clear, and tangent at
        both ends."""
        c = self.corners
        t = self._tangent(c)  # t[j, i]: from corner j through corner i
        i, j = np.nonzero(np.triu(t & t.T, k=1))
        ok = self.clear(c[i], c[j]) if len(i) else np.zeros(0, dtype=bool)
        i, j = i[ok], j[ok]
        return i, j, np.hypot(*(c[i] - c[j]).T)

    def _links(self, pts: FloatArray) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], FloatArray]:
        """(point index, corner index, length) of every clear segment from ``pts`` to a corner
        it is tangent at (remembered per point set: a zone is a source, then a target)."""
        key = pts.tobytes()
        hit = self._link_cache.get(key)
        if hit is None:
            a, b = np.nonzero(self._tangent(pts)) if len(self.corners) else (np.zeros(0, dtype=np.int64),) * 2
            ok = self.clear(pts[a], self.corners[b]) if len(a) else np.zeros(0, dtype=bool)
            a, b = a[ok], b[ok]
            hit = (a, b, np.hypot(*(pts[a] - self.corners[b]).T))
            self._link_cache[key] = hit
        return hit

    def paths(self, sources: FloatArray, targets: FloatArray) -> tuple[FloatArray, list[list[Point]]]:
        """For each target, the shortest walking distance from the nearest source (``inf`` when
        none reaches it) and the path's points (source first)."""
        c = self.corners
        ns, nt, nc = len(sources), len(targets), len(c)
        if ns == 0 or nt == 0:
            return np.full(nt, np.inf), [[] for _ in range(nt)]
        pts = np.vstack([c, sources, targets]) if nc else np.vstack([sources, targets])
        ci, cj, cw = self._corner_edges
        rows, cols, ws = [ci], [cj], [cw]
        # sources and targets to the corners they are tangent at, and sources straight to targets
        for off, group in ((nc, sources), (nc + ns, targets)):
            a, b, w = self._links(group)
            rows.append(off + a)
            cols.append(b)
            ws.append(w)
        a = np.repeat(nc + np.arange(ns), nt)
        b = np.tile(nc + ns + np.arange(nt), ns)
        ok = self.clear(pts[a], pts[b])
        rows.append(a[ok])
        cols.append(b[ok])
        ws.append(np.hypot(*(pts[a[ok]] - pts[b[ok]]).T))
        r, cc, w = np.concatenate(rows), np.concatenate(cols), np.concatenate(ws)
        w = np.maximum(w, 1e-12)  # zero weights mean "no edge" to scipy
        n = len(pts)
        graph = coo_matrix((np.concatenate([w, w]), (np.concatenate([r, cc]), np.concatenate([cc, r]))),
                           shape=(n, n)).tocsr()
        dist, pred, _src = dijkstra(graph, directed=True, indices=nc + np.arange(ns), min_only=True,
                                    return_predecessors=True)
        out_d = dist[nc + ns:]
        routes: list[list[Point]] = []
        for k in range(nt):
            node = nc + ns + k
            if not math.isfinite(dist[node]):
                routes.append([])
                continue
            chain = [node]
            while pred[chain[-1]] >= 0:
                chain.append(int(pred[chain[-1]]))
            routes.append([(float(pts[q][0]), float(pts[q][1])) for q in reversed(chain)])
        return np.asarray(out_d, dtype=float), routes

    def walks(self, groups: list[FloatArray], target: Point | None) -> tuple[list[Route], FloatArray]:
        """For point sets ``groups`` (the zones' base positions) at once, on one graph and one
        Dijkstra run: each group's shortest walk to ``target`` (from its nearest point; ``inf``
        without a target or a way) and the matrix of shortest walks between the groups."""
        c = self.corners
        nc, ng = len(c), len(groups)
        sizes = [len(g) for g in groups]
        starts = nc + np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        tgt = np.array([target], dtype=float) if target is not None else np.zeros((0, 2))
        t_node = int(starts[-1])
        supers = t_node + len(tgt) + np.arange(ng)
        pts = np.vstack([c, *groups, tgt]) if (nc or sum(sizes) or len(tgt)) else np.zeros((0, 2))
        ci, cj, cw = self._corner_edges
        rows, cols, ws = [ci], [cj], [cw]
        pieces = [(int(starts[k]), g) for k, g in enumerate(groups)] + ([(t_node, tgt)] if len(tgt) else [])
        for off, group in pieces:  # each point set to the corners it is tangent at
            if len(group):
                a, b, w = self._links(group)
                rows.append(off + a)
                cols.append(b)
                ws.append(w)
        pairs = [(k, m) for k in range(len(pieces)) for m in range(k + 1, len(pieces))]
        for k, m in pairs:  # straight walks between the sets (and to the target)
            (oa, ga), (ob, gb) = pieces[k], pieces[m]
            if not len(ga) or not len(gb):
                continue
            a = np.repeat(np.arange(len(ga)), len(gb))
            b = np.tile(np.arange(len(gb)), len(ga))
            ok = self.clear(ga[a], gb[b])
            rows.append(oa + a[ok])
            cols.append(ob + b[ok])
            ws.append(np.hypot(*(ga[a[ok]] - gb[b[ok]]).T))
        r, cc, w = np.concatenate(rows), np.concatenate(cols), np.maximum(np.concatenate(ws), 1e-12)
        # each group's super-source reaches its own points only (one way: no shortcut through it)
        sr = np.concatenate([np.full(n, supers[k]) for k, n in enumerate(sizes)] + [np.zeros(0, dtype=np.int64)])
        sc = np.concatenate([starts[k] + np.arange(n) for k, n in enumerate(sizes)] + [np.zeros(0, dtype=np.int64)])
        n = int(supers[-1]) + 1 if ng else t_node + len(tgt)
        graph = coo_matrix((np.concatenate([w, w, np.full(len(sr), 1e-12)]),
                            (np.concatenate([r, cc, sr]), np.concatenate([cc, r, sc]))), shape=(n, n)).tocsr()
        routes: list[Route] = []
        gaps = np.full((ng, ng), np.inf)
        if not ng:
            return routes, gaps
        dist, pred = dijkstra(graph, directed=True, indices=supers, return_predecessors=True)
        for k in range(ng):
            for m in range(ng):
                if m != k and sizes[m]:
                    gaps[k, m] = float(dist[k, starts[m]:starts[m] + sizes[m]].min())
            if not len(tgt) or not math.isfinite(dist[k, t_node]):
                routes.append(Route(math.inf))
                continue
            chain = [t_node]
            while pred[k, chain[-1]] >= 0 and pred[k, chain[-1]] != supers[k]:
                chain.append(int(pred[k, chain[-1]]))
            routes.append(Route(float(dist[k, t_node]) - 1e-12,
                                [(float(pts[q][0]), float(pts[q][1])) for q in reversed(chain)]))
        np.fill_diagonal(gaps, 0.0)
        gaps -= 1e-12
        return routes, gaps

    def route(self, sources: FloatArray, target: Point) -> Route:
        d, routes = self.paths(sources, np.array([target], dtype=float))
        return Route(float(d[0]), routes[0])

    # -------------------------------------------------------------- grid field

    @cached_property
    def grid(self) -> tuple[float, float, float, npt.NDArray[np.bool_]]:
        """(x0, y0, step, free mask) of the search grid, one node on the board's centre so the
        board's rotations by quarter turns map nodes onto nodes."""
        minx, miny, maxx, maxy = self.arena.bounds_geometry().bounds
        step = self.step
        while ((maxx - minx) / step + 1) * ((maxy - miny) / step + 1) > MAX_CELLS:
            step *= 1.25
        cx, cy = self.arena.centre()
        x0 = cx - step * math.ceil((cx - minx) / step)
        y0 = cy - step * math.ceil((cy - miny) / step)
        nx = int(math.floor((maxx - x0) / step)) + 1
        ny = int(math.floor((maxy - y0) / step)) + 1
        xs, ys = np.meshgrid(x0 + step * np.arange(nx), y0 + step * np.arange(ny), indexing="ij")
        mask = np.asarray(shapely.contains_xy(self._test, xs, ys), dtype=bool)
        return x0, y0, step, mask

    @cached_property
    def _grid_graph(self) -> tuple[Any, int]:
        x0, y0, step, mask = self.grid
        nx, ny = mask.shape
        n = nx * ny
        ok_all = np.zeros((nx, ny, len(MOVES)), dtype=bool)
        for k, (di, dj) in enumerate(MOVES):
            i0, i1 = max(0, -di), nx - max(0, di)
            j0, j1 = max(0, -dj), ny - max(0, dj)
            ok = mask[i0:i1, j0:j1] & mask[i0 + di:i1 + di, j0 + dj:j1 + dj]
            if abs(di) + abs(dj) == 2 and di and dj:  # diagonal: both side cells free
                ok &= mask[i0 + di:i1 + di, j0:j1] & mask[i0:i1, j0 + dj:j1 + dj]
            elif abs(di) + abs(dj) == 3:  # knight: the two cells it passes between
                si, sj = (np.sign(di), 0) if abs(di) == 2 else (0, np.sign(dj))
                ok &= mask[i0 + si:i1 + si, j0 + sj:j1 + sj]
                ok &= mask[i0 + di - si:i1 + di - si, j0 + dj - sj:j1 + dj - sj]
            ok_all[i0:i1, j0:j1, k] = ok
        # CSR straight from the per-node move table (row-major: node by node, move by move),
        # with an empty last row for :meth:`field`'s super-source
        flat = ok_all.reshape(n, len(MOVES))
        offset = np.array([di * ny + dj for di, dj in MOVES], dtype=np.int64)
        weight = np.array([step * math.hypot(di, dj) for di, dj in MOVES])
        node, move = np.nonzero(flat)
        indptr = np.zeros(n + 2, dtype=np.int64)
        np.cumsum(flat.sum(axis=1), out=indptr[1:n + 1])
        indptr[n + 1] = indptr[n]
        graph = csr_matrix((weight[move], node + offset[move], indptr), shape=(n + 1, n + 1))
        return graph, n

    def field(self, sources: FloatArray) -> Field:
        """Walking distance from the nearest of ``sources`` to every grid node (each source
        joins the nodes around it by straight segments checked free)."""
        x0, y0, step, mask = self.grid
        nx, ny = mask.shape
        graph, n = self._grid_graph
        if len(sources) == 0:
            return Field(x0, y0, step, np.full((nx, ny), np.inf))
        # each source to the free nodes within two steps, by a clear straight segment
        ci = np.rint((sources[:, 0] - x0) / step).astype(np.int64)
        cj = np.rint((sources[:, 1] - y0) / step).astype(np.int64)
        di, dj = (g.ravel() for g in np.meshgrid(np.arange(-2, 3), np.arange(-2, 3), indexing="ij"))
        src = np.repeat(np.arange(len(sources)), len(di))
        ii, jj = np.repeat(ci, len(di)) + np.tile(di, len(sources)), np.repeat(cj, len(dj)) + np.tile(dj, len(sources))
        inside = (ii >= 0) & (ii < nx) & (jj >= 0) & (jj < ny)
        src, ii, jj = src[inside], ii[inside], jj[inside]
        free = mask[ii, jj]
        src, ii, jj = src[free], ii[free], jj[free]
        pts = np.stack([x0 + step * ii, y0 + step * jj], axis=1)
        ok = self.clear(sources[src], pts)
        node = ii[ok] * ny + jj[ok]
        w = np.maximum(np.hypot(*(pts[ok] - sources[src[ok]]).T), 1e-9)
        # the super-source is the grid graph's last row (empty there): append its links
        csr = graph
        order = np.lexsort((w, node))
        node, w = node[order], w[order]
        first = np.ones(len(node), dtype=bool)
        first[1:] = node[1:] != node[:-1]  # the shortest link to each node
        node, w = node[first], w[first]
        full = csr_matrix((np.concatenate([csr.data, w]), np.concatenate([csr.indices, node]),
                           np.append(csr.indptr[:-1], csr.indptr[-1] + len(node))),
                          shape=csr.shape)
        dist = dijkstra(full, directed=True, indices=n)
        return Field(x0, y0, step, np.asarray(dist[:n], dtype=float).reshape(nx, ny))


def segment_clear(space: Space, a: Point, b: Point) -> bool:
    """Whether a base walks straight from ``a`` to ``b``."""
    return bool(space.clear(np.array([a], dtype=float), np.array([b], dtype=float))[0])


def line(points: list[Point]) -> LineString:
    return LineString(points)


__all__ = ["CLEARANCE", "Field", "MAX_CELLS", "MAX_NODES", "QUAD_SEGS", "Route", "Space", "blockers", "grow",
           "segment_clear"]
