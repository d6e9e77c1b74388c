"""Where a round base may go in an Arena Rex arena, and how far it has to walk.

Models move freely ("Move up to the model s MOV value in inches", no facing) with round bases
("models can fight freely in a 360 degree arc around their base").  A base must never touch a
pit ("If any part of a model s base touches a Lethal Hazard ... that model is destroyed"); the
analysis also keeps it off spikes and out of terrain hazards that block movement (see
docs/rules-decisions.md, "Arena Rex"), and inside the board (its rim may touch the edge).

So the centre of a base of radius r lives in the **free space**: the board shrunk by r minus
every such obstacle grown by r.  Growing uses polygons *circumscribing* the true round offset
(radius r / cos(pi / 4q) at q segments a quarter), so every path found keeps the base clear of
the real hazard; shrinking the board's polygon is exact for polygons and inside the true circle
for a circle board.

Two searches read the free space:

* :meth:`Space.paths` — exact shortest paths between point sets: a visibility graph on the free
  space's reflex corners (the only places a shortest path bends), segments tested against the
  free space, Dijkstra by ``scipy.sparse.csgraph``.
* :meth:`Space.field` — the walking distance from a point set to every cell of a square grid
  (16 neighbours: straight, diagonal and knight's moves, each move's cells checked free), for
  the heat map and areas such as the kill band; within a couple of per cent of the exact value
  plus a cell.

Work is bounded: grids have at most :data:`MAX_CELLS` cells (the step grows if needed), and the
visibility graph at most :data:`MAX_NODES` corners.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt
import shapely
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra
from shapely.geometry import LineString, Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points

from schema.games.arenarex import ArenaRexArena
from schema.model import CIRCLE_QUAD_SEGMENTS, AreaShape, Circle

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


def grow(shape: AreaShape, r: float) -> BaseGeometry:
    """``shape`` grown by ``r`` with a polygon circumscribing the round offset (a circle from
    its centre, so it has 4 * QUAD_SEGS corners rather than the drawing's many)."""
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
        pts = np.array([line.interpolate(t).coords[0] for t in np.linspace(0.0, line.length, n)])
        return pts[self.contains(pts)]

    def clear(self, a: FloatArray, b: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each segment a[k] -> b[k] stays in the free space."""
        if len(a) == 0:
            return np.zeros(0, dtype=bool)
        lines = shapely.linestrings(np.stack([a, b], axis=1))
        return ~np.asarray(shapely.intersects(self._walls, lines), dtype=bool)

    # -------------------------------------------------------------- visibility graph

    @cached_property
    def corners(self) -> FloatArray:
        """The free space's reflex corners (where the boundary turns away from the free side)."""
        out: list[tuple[float, float]] = []
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
                out.extend(map(tuple, c[cross < -1e-12]))
        arr = np.array(out, dtype=float).reshape(-1, 2)
        return arr[:MAX_NODES]

    @cached_property
    def _corner_edges(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], FloatArray]:
        c = self.corners
        i, j = np.triu_indices(len(c), k=1)
        ok = self.clear(c[i], c[j]) if len(i) else np.zeros(0, dtype=bool)
        i, j = i[ok], j[ok]
        return i, j, np.hypot(*(c[i] - c[j]).T)

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
        # sources and targets to corners, and sources straight to targets
        extra = [(np.repeat(nc + np.arange(ns), nc), np.tile(np.arange(nc), ns)),
                 (np.repeat(nc + ns + np.arange(nt), nc), np.tile(np.arange(nc), nt)),
                 (np.repeat(nc + np.arange(ns), nt), np.tile(nc + ns + np.arange(nt), ns))]
        for a, b in extra:
            if len(a) == 0:
                continue
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
    def _grid_graph(self) -> tuple[object, int]:
        x0, y0, step, mask = self.grid
        nx, ny = mask.shape
        idx = np.arange(nx * ny).reshape(nx, ny)
        rows, cols, ws = [], [], []
        for di, dj in MOVES:
            i0, i1 = max(0, -di), nx - max(0, di)
            j0, j1 = max(0, -dj), ny - max(0, dj)
            ok = mask[i0:i1, j0:j1] & mask[i0 + di:i1 + di, j0 + dj:j1 + dj]
            if abs(di) + abs(dj) == 2 and di and dj:  # diagonal: both side cells free
                ok &= mask[i0 + di:i1 + di, j0:j1] & mask[i0:i1, j0 + dj:j1 + dj]
            elif abs(di) + abs(dj) == 3:  # knight: the two cells it passes between
                si, sj = (np.sign(di), 0) if abs(di) == 2 else (0, np.sign(dj))
                ok &= mask[i0 + si:i1 + si, j0 + sj:j1 + sj]
                ok &= mask[i0 + di - si:i1 + di - si, j0 + dj - sj:j1 + dj - sj]
            a = idx[i0:i1, j0:j1][ok]
            b = idx[i0 + di:i1 + di, j0 + dj:j1 + dj][ok]
            rows.append(a)
            cols.append(b)
            ws.append(np.full(len(a), step * math.hypot(di, dj)))
        n = nx * ny
        graph = coo_matrix((np.concatenate(ws), (np.concatenate(rows), np.concatenate(cols))), shape=(n + 1, n + 1))
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
        links_a, links_b, links_w = [], [], []
        for sx, sy in sources:
            i = int(round((sx - x0) / step))
            j = int(round((sy - y0) / step))
            gi, gj = np.meshgrid(np.arange(i - 2, i + 3), np.arange(j - 2, j + 3), indexing="ij")
            ii, jj = gi.ravel(), gj.ravel()
            inside = (ii >= 0) & (ii < nx) & (jj >= 0) & (jj < ny)
            ii, jj = ii[inside], jj[inside]
            ii, jj = ii[mask[ii, jj]], jj[mask[ii, jj]]
            pts = np.stack([x0 + step * ii, y0 + step * jj], axis=1)
            ok = self.clear(np.repeat([[sx, sy]], len(pts), axis=0), pts)
            links_a.append(np.full(int(ok.sum()), n))
            links_b.append(ii[ok] * ny + jj[ok])
            links_w.append(np.maximum(np.hypot(pts[ok, 0] - sx, pts[ok, 1] - sy), 1e-9))
        g = graph.tocoo()  # type: ignore[attr-defined]
        full = coo_matrix((np.concatenate([g.data, *links_w]),
                           (np.concatenate([g.row, *links_a]), np.concatenate([g.col, *links_b]))),
                          shape=g.shape).tocsr()
        dist = dijkstra(full, directed=True, indices=n)
        return Field(x0, y0, step, np.asarray(dist[:n], dtype=float).reshape(nx, ny))


def segment_clear(space: Space, a: Point, b: Point) -> bool:
    """Whether a base walks straight from ``a`` to ``b``."""
    return bool(space.clear(np.array([a], dtype=float), np.array([b], dtype=float))[0])


def line(points: list[Point]) -> LineString:
    return LineString(points)


__all__ = ["CLEARANCE", "Field", "MAX_CELLS", "MAX_NODES", "QUAD_SEGS", "Route", "Space", "blockers", "grow",
           "segment_clear"]
