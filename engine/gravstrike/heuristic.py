"""Admissible lower bounds for the travel planner.

Two parts:

* :class:`DistanceMap` - a lower bound on the *paid* distance (moved by lengths, not by field
  pushes) the centre must still travel to reach a goal region.  It is a shortest-path distance on
  a grid whose cells are every place the centre could be after a length (plus a margin, because a
  length may jump over a thin wall: only end-of-length positions are checked), with free
  "jump" edges for acceleration-field pushes.  The grid distance is deflated by the worst-case
  ratio of 16-neighbour grid paths to straight lines and by a discretisation slack.
* :class:`TimeBound` - converts a paid distance into a lower bound on time, given the current
  speed, lengths already moved this turn and icons left, assuming the fastest possible speed ramp
  and the longest centre displacement any length of a given icon cost can make.

>>> tb = TimeBound(speed_delta=2, max_speed=6, budget=3, scale=60)
>>> tb.lower_bound(0.5, speed=2, done=0, icons_left=3)   # one length at speed 2 = 30/60 turn
30
>>> tb.lower_bound(3.0, speed=2, done=2, icons_left=3)   # next turn at speed <= 4: 3 lengths
45
"""

from __future__ import annotations

import bisect
import math
from typing import Sequence

import numpy as np
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra
from shapely.geometry.base import BaseGeometry

from engine.gravstrike import kernels
from engine.gravstrike.motion import max_displacement_by_cost
from schema.games.gravstrike.model import Turbine

#: Heuristic grid cell size (lengths).
HEURISTIC_CELL = 0.15
#: Worst ratio of a 16-neighbour grid path to the straight line it approximates (1/cos 13.28°).
GRID_STRETCH = 1.0276
#: Weight of a field-push edge (scipy's sparse graphs drop explicit zeros; covered by the slack).
JUMP_WEIGHT = 1e-9
#: 16-neighbour offsets.
OFFSETS = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
           (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]


class DistanceGrid:
    """The graph behind :class:`DistanceMap`, shared by every goal of one arena: cells of a
    ``cell``-sized grid where the centre could end a length (plus a margin, because a length may
    jump over a thin wall: only end-of-length positions are checked), 16-neighbour edges weighted
    by their length, and free "jump" edges for acceleration-field pushes.  Each goal is then one
    multi-source Dijkstra run on the reversed graph: scipy's, or the compiled one
    (:func:`engine.gravstrike.kernels_graph.multi_dijkstra`, the same distances) once the process has
    loaded the kernels."""

    def __init__(
        self,
        bounds: BaseGeometry,
        free_disc: BaseGeometry,
        reach: float,
        jumps: Sequence[tuple[BaseGeometry, float, float]],
        cell: float = HEURISTIC_CELL,
    ) -> None:
        """``free_disc``: where the centre may be after a length (any heading); ``reach``: the
        longest displacement of one length; ``jumps``: (trigger region of the centre, dx, dy) per
        field."""
        minx, miny, maxx, maxy = bounds.bounds
        self.cell = cell
        self.x0, self.y0 = minx - 1.0, miny - 1.0
        nx = int(math.ceil((maxx - minx + 2.0) / cell)) + 1
        ny = int(math.ceil((maxy - miny + 2.0) / cell)) + 1
        self.nx, self.ny = nx, ny
        self.hd = cell * math.sqrt(2.0) / 2.0
        ii, jj = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
        self.xs = (self.x0 + (ii + 0.5) * cell).ravel()
        self.ys = (self.y0 + (jj + 0.5) * cell).ravel()
        # Hop connectivity: two centres one length apart (at most ``reach``) have intersecting
        # reach/2 discs, so the parts of the free region these discs join are exactly the places
        # a turbine can ever get between; a goal outside a part is unreachable from inside it.
        self.free_disc = free_disc
        self.jumps = list(jumps)
        joined = free_disc.buffer(reach / 2.0 + 1e-6)
        self.parts = [p for p in getattr(joined, "geoms", [joined]) if not p.is_empty]
        # grown in two steps: GEOS takes seconds to grow some wall-rich regions by reach/2 + 3
        # cells in one go (4.5 s on a 24-length table), and growing by a + b is growing by a, then b
        nodes_geom = joined.buffer(3.0 * cell)
        shapely.prepare(nodes_geom)
        self.nodes = shapely.contains_xy(nodes_geom, self.xs, self.ys).reshape(nx, ny)
        self._reverse: csr_matrix | None = self._graph()

    def _graph(self) -> csr_matrix:
        """The reversed graph: one edge per pair of cells (see :attr:`reverse`)."""
        nx, ny, cell, jumps = self.nx, self.ny, self.cell, self.jumps
        src: list[np.ndarray] = []
        dst: list[np.ndarray] = []

        def link(mask: np.ndarray, di: int, dj: int) -> None:
            """Jumps c -> c + (di, dj) for the cells of ``mask`` whose neighbour is a node."""
            a = np.zeros((nx, ny), dtype=bool)
            a[max(0, -di):min(nx, nx - di), max(0, -dj):min(ny, ny - dj)] = True
            a &= mask
            ci, cj = np.nonzero(a)
            ok = self.nodes[ci + di, cj + dj]
            ci, cj = ci[ok], cj[ok]
            src.append(ci * ny + cj)
            dst.append((ci + di) * ny + cj + dj)

        # Each pair of cells gets one edge (csr would add parallel ones up): a jump, free, stands
        # for a step it doubles (the step's sources are left out of its offset's links), and jumps
        # doubling each other are merged; the steps are one per offset, so nothing to sort there.
        doubled: dict[tuple[int, int], np.ndarray] = {}
        for trigger, jx, jy in jumps:
            tg = trigger.buffer(self.hd)
            shapely.prepare(tg)
            mask = shapely.contains_xy(tg, self.xs, self.ys).reshape(nx, ny) & self.nodes
            r = 2.0 * self.hd
            for di in range(int(math.floor((jx - r) / cell)), int(math.ceil((jx + r) / cell)) + 1):
                for dj in range(int(math.floor((jy - r) / cell)), int(math.ceil((jy + r) / cell)) + 1):
                    if math.hypot(di * cell - jx, dj * cell - jy) <= r:
                        link(mask, di, dj)
                        if (di, dj) in OFFSETS:
                            doubled[di, dj] = doubled[di, dj] | mask if (di, dj) in doubled else mask
        n = nx * ny
        pair = np.unique(np.concatenate(src) * n + np.concatenate(dst)) if src else np.zeros(0, dtype=np.int64)
        masks = [self.nodes & ~doubled[o] if o in doubled else self.nodes for o in OFFSETS]
        # reversed: Dijkstra from a goal runs against the edges
        return csr_matrix(reverse_csr(self.nodes, masks, pair // n, pair % n, cell), shape=(n, n))

    @property
    def reverse(self) -> csr_matrix:
        """The reversed graph (built again if :meth:`release_graph` dropped it: the same arrays)."""
        if self._reverse is None:
            self._reverse = self._graph()
        return self._reverse

    @property
    def holds_graph(self) -> bool:
        """Is the graph in memory (not dropped by :meth:`release_graph`)?"""
        return self._reverse is not None

    def release_graph(self) -> None:
        """Drop the graph (about 20 MB on a 48-length table) until a map is asked for again: the
        maps already made don't need it."""
        self._reverse = None

    def distance_map(self, goal: BaseGeometry, keep: bool = True) -> DistanceMap:
        """Lower bound of the paid distance from every cell to ``goal`` (the region the centre
        must reach, already grown for the footprint); ``keep``: :class:`DistanceMap`'s."""
        goal_geom = goal.buffer(self.hd)
        shapely.prepare(goal_geom)
        # only the cells in the goal's bounding box can be in it
        bx0, by0, bx1, by1 = goal_geom.bounds
        i0, i1 = max(0, int((bx0 - self.x0) / self.cell)), min(self.nx, int((bx1 - self.x0) / self.cell) + 2)
        j0, j1 = max(0, int((by0 - self.y0) / self.cell)), min(self.ny, int((by1 - self.y0) / self.cell) + 2)
        box = (np.arange(i0, i1)[:, None] * self.ny + np.arange(j0, j1)[None, :]).ravel()
        box = box[self.nodes.ravel()[box]]
        targets = box[shapely.contains_xy(goal_geom, self.xs[box], self.ys[box])]
        kern = kernels.current()
        if len(targets) and kern is not None:  # the compiled kernels loaded: the same distances, bit for bit
            r = self.reverse
            d = kern["multi_dijkstra"](r.indptr, r.indices, np.asarray(r.data, dtype=np.float64),
                                       targets.astype(np.int64), self.nx * self.ny, self.cell / 2.0)
        elif len(targets):
            d = dijkstra(self.reverse, directed=True, indices=targets, min_only=True)
        else:
            d = np.full(self.nx * self.ny, np.inf)
        d = np.where(self.nodes.ravel(), d, np.inf)
        if len(self.parts) > 1:  # cells in parts of the arena the goal is not in can never reach it
            target = goal.intersection(self.free_disc)
            live = [p for p in self.parts if p.intersects(target)]
            if live:
                area = shapely.union_all(live).buffer(self.hd * 1.01)
                shapely.prepare(area)
                d = np.where(shapely.contains_xy(area, self.xs, self.ys), d, np.inf)
            else:
                d = np.full_like(d, np.inf)
        return DistanceMap(self, d.reshape(self.nx, self.ny), keep)


def reverse_csr(nodes: np.ndarray, masks: Sequence[np.ndarray], jump_src: np.ndarray, jump_dst: np.ndarray,
                cell: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(data, indices, indptr) of the reversed graph of :class:`DistanceGrid` (row: a cell; its
    entries, by ascending column: the cells with an edge to it), built in place from the free
    jumps ``jump_src`` -> ``jump_dst`` (each pair once) and one edge per offset of
    :data:`OFFSETS` (``masks`` in that order: the cells sending it) to each neighbour that is a
    node.  The same arrays, entry for entry, as scipy's conversion of the edge list, which this
    replaced (40 ms of a 48-length table's 55 ms grid)."""
    nx, ny = nodes.shape
    n = nx * ny
    step = np.array([di * ny + dj for di, dj in OFFSETS], dtype=np.int64)
    weight = np.array([cell * math.hypot(di, dj) for di, dj in OFFSETS])
    perm = np.argsort(-step, kind="stable")  # a target's sources (target - step) ascending
    grid = np.zeros((nx, ny, len(OFFSETS)), dtype=bool)  # [target, k]: offset perm[k]'s edge comes in
    for k, o in enumerate(perm.tolist()):
        (di, dj), mask = OFFSETS[o], masks[o]
        grid[max(0, di):min(nx, nx + di), max(0, dj):min(ny, ny + dj), k] = \
            mask[max(0, -di):min(nx, nx - di), max(0, -dj):min(ny, ny - dj)]
    grid &= nodes[:, :, None]
    valid = grid.reshape(n, len(OFFSETS))
    jumps = np.bincount(jump_dst, minlength=n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(jumps + valid.sum(axis=1), out=indptr[1:])
    data = np.empty(int(indptr[-1]), dtype=np.float64)
    indices = np.empty(int(indptr[-1]), dtype=np.int64)
    d, col = np.nonzero(valid)
    o = perm[col]
    if len(jump_dst):  # each row's jumps go before its steps
        at = np.arange(len(d)) + np.cumsum(jumps)[d]
        indices[at], data[at] = d - step[o], weight[o]
    else:
        indices[:], data[:] = d - step[o], weight[o]
    if len(jump_dst):  # rows with jumps: the jumps first, then the whole row sorted by column
        order = np.argsort(jump_dst, kind="stable")
        jd = jump_dst[order]
        at = indptr[jd] + np.arange(len(jd)) - np.searchsorted(jd, jd, side="left")
        indices[at], data[at] = jump_src[order], JUMP_WEIGHT
        rows = np.unique(jd)
        size = indptr[rows + 1] - indptr[rows]
        row = np.repeat(rows, size)
        idx = np.repeat(indptr[rows], size) + np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
        sort = np.lexsort((indices[idx], row))
        indices[idx], data[idx] = indices[idx][sort], data[idx][sort]
    small = n < np.iinfo(np.int32).max and len(data) < np.iinfo(np.int32).max
    return data, indices.astype(np.int32) if small else indices, indptr.astype(np.int32) if small else indptr


class DistanceMap:
    """Lower bound of the paid distance from any point to one goal region: the grid distance
    deflated by the worst-case ratio of 16-neighbour grid paths to straight lines and by a
    discretisation slack."""

    def __init__(self, grid: DistanceGrid, d: np.ndarray, keep: bool = True) -> None:
        """``d``: the grid distances (kept as :attr:`grid` unless not ``keep``: the bound is
        what searches read)."""
        self.cell, self.x0, self.y0, self.nx, self.ny = grid.cell, grid.x0, grid.y0, grid.nx, grid.ny
        self._grid = d if keep else None
        self.slack = 4.0 * grid.hd
        bound = np.maximum(0.0, d / GRID_STRETCH - self.slack)
        self.array = bound.ravel()

    @property
    def grid(self) -> np.ndarray:
        """The grid distances the bound was made from (what another process is handed:
        ``Planner.map_share``), where the map was made to keep them."""
        if self._grid is None:
            raise ValueError("this distance map did not keep its grid distances (made with keep=False)")
        return self._grid

    def at(self, x: float, y: float) -> float:
        i = int((x - self.x0) / self.cell)
        j = int((y - self.y0) / self.cell)
        if 0 <= i < self.nx and 0 <= j < self.ny:
            return float(self.array[i * self.ny + j])
        return math.inf


def combine(maps: Sequence[DistanceMap]) -> list[float]:
    """Cell-wise minimum of several maps on the same grid."""
    if not maps:
        return []
    out = maps[0].array.copy()
    for m in maps[1:]:
        np.minimum(out, m.array, out=out)
    return out.tolist()


class TimeBound:
    """Lower bound on time (in 1/``scale`` turns) to cover a paid distance."""

    def __init__(self, speed_delta: int, max_speed: int, budget: int | None, scale: int, cap: float = 200.0,
                 turbine: Turbine | None = None) -> None:
        self.delta, self.vmax, self.budget, self.scale, self.cap = speed_delta, max_speed, budget, scale, cap
        # the longest length of each cost: a partial sideslip never moves farther than a whole one
        disp = max_displacement_by_cost(turbine or Turbine())
        self.top_cost = max(disp)
        self.disp = disp
        #: Most centre displacement between two moments one turn apart: at most ``max_speed`` + 1
        #: length ends (the +1 for a window straddling two turns), each of the longest length.
        self.per_turn = (max_speed + 1) * max(disp.values())
        self._cover: dict[tuple[int, int], float] = {}
        self._tables: dict[tuple[int, int, int], tuple[list[float], list[int]]] = {}

    def cover(self, lengths: int, icons: int | None) -> float:
        """Longest total centre displacement of ``lengths`` lengths costing at most ``icons``."""
        b = self.top_cost * lengths if icons is None else min(icons, self.top_cost * lengths)
        key = (lengths, b)
        got = self._cover.get(key)
        if got is None:
            best = [0.0] * (b + 1)
            for _ in range(lengths):
                best = [max(best[x - c] + self.disp[c] for c in self.disp if c <= x) for x in range(b + 1)]
            got = best[b]
            self._cover[key] = got
        return got

    def table(self, speed: int, done: int, icons_left: int) -> tuple[list[float], list[int]]:
        """(distances covered, least times to cover them), ascending, from speed ``speed`` with
        ``done`` lengths of the turn moved and ``icons_left`` icons (-1: unlimited); made once."""
        key = (speed, done, icons_left)
        tab = self._tables.get(key)
        if tab is not None:
            return tab
        icons = None if icons_left < 0 else icons_left
        covers: list[float] = []
        times: list[int] = []
        base, t = 0.0, 0
        if done < speed:
            for k in range(1, speed - done + 1):
                covers.append(self.cover(k, icons))
                times.append(self.scale * k // speed)
            base = self.cover(speed - done, icons)
            t = self.scale * (speed - done) // speed
        v = speed
        while base <= self.cap:
            v = min(self.vmax, v + self.delta)
            if v <= 0:
                break
            for k in range(1, v + 1):
                covers.append(base + self.cover(k, self.budget))
                times.append(t + self.scale * k // v)
            base += self.cover(v, self.budget)
            t += self.scale
        tab = (covers, times)
        self._tables[key] = tab
        return tab

    def past_table(self, covers: list[float], times: list[int], distance: np.ndarray) -> np.ndarray:
        """The bound for distances past a table's last entry (``cap`` lengths and more: long ways
        round on big tables).  Such a plan first covers the last entry's distance (no sooner than
        its time), then the rest ``r`` at most :attr:`per_turn` a turn: more than
        ceil(r / per_turn) - 1 turns.  Looser than the table, but finite: a horizon, not the bound,
        decides how far a search looks."""
        rest = np.maximum(np.asarray(distance, dtype=float) - covers[-1], 0.0)
        turns = np.maximum(np.ceil(rest / self.per_turn) - 1.0, 0.0)
        return (times[-1] + turns * self.scale).astype(np.int64)

    def lower_bound(self, distance: float, speed: int, done: int, icons_left: int | None) -> int:
        """Fewest 1/scale turns to end a length with ``distance`` covered (at least one length)."""
        if distance == math.inf:
            return 1 << 40
        covers, times = self.table(speed, done, -1 if icons_left is None else icons_left)
        k = bisect.bisect_left(covers, distance - 1e-9)
        if k >= len(covers):
            return int(self.past_table(covers, times, np.array([distance]))[0])
        return times[k]
