"""Fixed-radius neighbours of points, with numpy alone: a grid of ``r``-sized cells over every
coordinate, each query looking in its own cell and the cells around it (3 ** d of them).

It answers what ``scipy.spatial.cKDTree(points).query_ball_point(points, r)`` and
``query_pairs(r)`` answer - the same pairs, the neighbours of each query in ascending order, a
point within ``r`` when its squared distance (summed over the coordinates in order) is at most
``r * r`` - without importing ``scipy.spatial`` (0.15 s of CPU at start-up, more than a third of
the floor every command pays: ``arena validate`` on a Car Wars arena needed it for one check).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class RadiusIndex:
    """``points`` (n x d, 1 <= d <= 4) indexed for neighbours within ``r`` (> 0)."""

    def __init__(self, points: npt.ArrayLike, r: float) -> None:
        p = np.asarray(points, dtype=np.float64)
        if p.ndim != 2 or not 1 <= p.shape[1] <= 4:
            raise ValueError(f"points must be n x d with 1 <= d <= 4, not {p.shape}")
        if not r > 0:
            raise ValueError(f"the radius must be positive, not {r}")
        self.points, self.r, self.r2 = p, float(r), float(r) * float(r)
        n, d = p.shape
        cell = np.floor((p - p.min(axis=0)) / self.r).astype(np.int64) if n else np.zeros((0, d), dtype=np.int64)
        # key: the cell's coordinates in mixed radix, each digit's base two more than its
        # highest value plus one, so that a neighbour cell's digit (-1 .. highest + 1) is
        # never a digit any point has: a query never meets another row's points
        bases = (cell.max(axis=0) + 3) if n else np.full(d, 3, dtype=np.int64)
        strides = np.ones(d, dtype=np.int64)
        for k in range(d - 2, -1, -1):
            strides[k] = strides[k + 1] * bases[k + 1]
        self.key = cell @ strides if n else np.zeros(0, dtype=np.int64)
        self.around = np.array([np.dot(off, strides) for off in itertools.product((-1, 0, 1), repeat=d)],
                               dtype=np.int64)
        self.order = np.argsort(self.key, kind="stable")
        self.sorted_key = self.key[self.order]
        # the occupied cells (ascending keys), each a run of ``order``, and each point's cell
        self.cells, self.first, self.size = np.unique(self.sorted_key, return_index=True, return_counts=True)
        self.cell_of = np.zeros(n, dtype=np.int64)
        self.cell_of[self.order] = np.repeat(np.arange(len(self.cells)), self.size)
        self._table: IntArray | None = None

    @property
    def neighbour_cells(self) -> IntArray:
        """Per occupied cell and offset of :attr:`around`, the occupied cell there (-1: none)."""
        if self._table is None:
            table = np.full((len(self.cells), len(self.around)), -1, dtype=np.int64)
            if len(self.cells):
                for k, step in enumerate(self.around.tolist()):
                    want = self.cells + step
                    at = np.minimum(np.searchsorted(self.cells, want), len(self.cells) - 1)
                    table[:, k] = np.where(self.cells[at] == want, at, -1)
            self._table = table
        return self._table

    def _ranges(self, queries: IntArray) -> list[tuple[IntArray, IntArray]]:
        """Per offset around the queries' cells: the first position in ``order`` and the number
        of points of the cell there (0 where no point is)."""
        table = self.neighbour_cells[self.cell_of[queries]]
        out = []
        for k in range(len(self.around)):
            c = table[:, k]
            there = c >= 0
            out.append((np.where(there, self.first[c], 0), np.where(there, self.size[c], 0)))
        return out

    def candidates(self, queries: IntArray | None = None) -> IntArray:
        """Per query (point indices; all points when None), how many points lie in the cells
        around it: an upper bound of its neighbours, and what :meth:`pairs` holds in memory."""
        q = np.arange(len(self.points), dtype=np.int64) if queries is None else np.asarray(queries, dtype=np.int64)
        total = np.zeros(len(q), dtype=np.int64)
        for _, count in self._ranges(q):
            total += count
        return total

    def _near(self, q: IntArray) -> tuple[IntArray, IntArray]:
        """The pairs (position in ``q``, point) within ``r``, in no particular order."""
        at_parts, j_parts = [], []
        for lo, count in self._ranges(q):
            size = int(count.sum())
            if not size:
                continue
            pos = np.repeat(lo - np.cumsum(count) + count, count) + np.arange(size)
            at_parts.append(np.repeat(np.arange(len(q)), count))
            j_parts.append(self.order[pos])
        if not at_parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        at, j = np.concatenate(at_parts), np.concatenate(j_parts)
        i = q[at]
        d2 = np.zeros(len(i))
        for c in range(self.points.shape[1]):
            diff = self.points[i, c] - self.points[j, c]
            d2 += diff * diff
        near = d2 <= self.r2
        return at[near], j[near]

    def pairs(self, queries: IntArray) -> tuple[IntArray, IntArray]:
        """Every pair (query ``i``, point ``j``) with ``j`` within ``r`` of ``i`` (``j == i``
        included), by ``i`` in the order of ``queries``, then ``j`` ascending."""
        q = np.asarray(queries, dtype=np.int64)
        at, j = self._near(q)
        n = max(1, len(self.points))
        both = np.sort(at * n + j)  # one key per pair: (position of the query, neighbour)
        return q[both // n], both % n

    def counts(self, block: int = 1_000_000) -> IntArray:
        """Per point, the points within ``r`` of it (itself included), looked at ``block``
        candidates at a time."""
        n = len(self.points)
        out = np.zeros(n, dtype=np.int64)
        for lo, hi in self.blocks(block):
            at, _ = self._near(np.arange(lo, hi, dtype=np.int64))
            out[lo:hi] = np.bincount(at, minlength=hi - lo)
        return out

    def blocks(self, block: int) -> Iterator[tuple[int, int]]:
        """Consecutive ranges ``lo, hi`` of point indices whose candidates add up to about
        ``block`` (one point at least)."""
        ends = np.cumsum(self.candidates())
        lo = 0
        while lo < len(ends):
            start = int(ends[lo - 1]) if lo else 0
            hi = max(lo + 1, int(np.searchsorted(ends, start + block, side="right")))
            yield lo, hi
            lo = hi

    def pairs_below(self) -> IntArray:
        """The pairs ``(i, j)``, ``i < j``, within ``r`` of each other (rows of an m x 2
        array), as ``cKDTree.query_pairs(r, output_type="ndarray")`` (in another order).
        Cell by cell: each occupied cell with itself and with the occupied cells around it
        that come after it (half the offsets: each pair of cells once)."""
        if not len(self.points):
            return np.zeros((0, 2), dtype=np.int64)
        first, size = self.first, self.size
        out = []
        for k, step in enumerate(self.around.tolist()):
            if step < 0:
                continue
            if step == 0:
                a = b = np.arange(len(self.cells))
            else:
                col = self.neighbour_cells[:, k]
                a = np.flatnonzero(col >= 0)
                b = col[a]
            i, j = self._products(first[a], size[a], first[b], size[b])
            if step == 0:
                keep = i < j
                i, j = i[keep], j[keep]
            d2 = np.zeros(len(i))
            for c in range(self.points.shape[1]):
                diff = self.points[i, c] - self.points[j, c]
                d2 += diff * diff
            near = d2 <= self.r2
            i, j = i[near], j[near]
            out.append(np.stack([np.minimum(i, j), np.maximum(i, j)], axis=1))
        return np.concatenate(out)

    def _products(self, first_a: IntArray, size_a: IntArray, first_b: IntArray, size_b: IntArray
                  ) -> tuple[IntArray, IntArray]:
        """Every (point of cell A, point of cell B) for the cell pairs given by their runs in
        ``order`` (first position, size)."""
        n = size_a * size_b
        total = int(n.sum())
        if not total:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        pair = np.repeat(np.arange(len(n)), n)
        t = np.arange(total) - np.repeat(np.cumsum(n) - n, n)  # index within the pair's product
        sb = size_b[pair]
        return self.order[first_a[pair] + t // sb], self.order[first_b[pair] + t % sb]
