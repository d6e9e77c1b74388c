"""Fixed-radius neighbours of points, with numpy alone: a grid of ``r``-sized cells over the
first two coordinates, each query looking in its own and the eight cells around it.

It answers what ``scipy.spatial.cKDTree(points).query_ball_point(points, r)`` and
``query_pairs(r)`` answer - the same pairs, the neighbours of each query in ascending order, a
point within ``r`` when its squared distance (summed over the coordinates in order) is at most
``r * r`` - without importing ``scipy.spatial`` (0.15 s of CPU at start-up, more than a third of
the floor every command pays: ``arena validate`` on a Car Wars arena needed it for one check).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The 3 x 3 cells a query looks in (offsets in cells, first and second coordinate).
_AROUND = [(di, dj) for di in (-1, 0, 1) for dj in (-1, 0, 1)]


class RadiusIndex:
    """``points`` (n x d, d >= 2) indexed for neighbours within ``r`` (> 0)."""

    def __init__(self, points: npt.ArrayLike, r: float) -> None:
        p = np.asarray(points, dtype=np.float64)
        if p.ndim != 2 or p.shape[1] < 2:
            raise ValueError(f"points must be n x d with d >= 2, not {p.shape}")
        if not r > 0:
            raise ValueError(f"the radius must be positive, not {r}")
        self.points, self.r, self.r2 = p, float(r), float(r) * float(r)
        n = len(p)
        if n:
            cell = np.floor((p[:, :2] - p[:, :2].min(axis=0)) / self.r).astype(np.int64)
        else:
            cell = np.zeros((0, 2), dtype=np.int64)
        # key = i * height + j with a spare row of cells above the highest: a query's cells
        # j - 1 .. j + 1 never wrap onto another column's points
        self.height = int(cell[:, 1].max()) + 3 if n else 3
        self.key = cell[:, 0] * self.height + cell[:, 1]
        self.order = np.argsort(self.key, kind="stable")
        self.sorted_key = self.key[self.order]

    def _ranges(self, queries: IntArray) -> list[tuple[IntArray, IntArray]]:
        """Per cell around the queries: the first and end positions of its points in ``order``."""
        out = []
        for di, dj in _AROUND:
            k = self.key[queries] + (di * self.height + dj)
            out.append((np.searchsorted(self.sorted_key, k, side="left"),
                        np.searchsorted(self.sorted_key, k, side="right")))
        return out

    def candidates(self, queries: IntArray | None = None) -> IntArray:
        """Per query (point indices; all points when None), how many points lie in its 3 x 3
        cells: an upper bound of its neighbours, and what :meth:`pairs` holds in memory."""
        q = np.arange(len(self.points), dtype=np.int64) if queries is None else np.asarray(queries, dtype=np.int64)
        total = np.zeros(len(q), dtype=np.int64)
        for lo, hi in self._ranges(q):
            total += hi - lo
        return total

    def pairs(self, queries: IntArray) -> tuple[IntArray, IntArray]:
        """Every pair (query ``i``, point ``j``) with ``j`` within ``r`` of ``i`` (``j == i``
        included), by ``i`` in the order of ``queries``, then ``j`` ascending."""
        q = np.asarray(queries, dtype=np.int64)
        ii, jj = [], []
        for lo, hi in self._ranges(q):
            count = hi - lo
            size = int(count.sum())
            if not size:
                continue
            pos = np.repeat(lo - np.cumsum(count) + count, count) + np.arange(size)
            ii.append(np.repeat(np.arange(len(q)), count))
            jj.append(self.order[pos])
        if not ii:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        at, j = np.concatenate(ii), np.concatenate(jj)
        i = q[at]
        d2 = np.zeros(len(i))
        for c in range(self.points.shape[1]):
            diff = self.points[i, c] - self.points[j, c]
            d2 += diff * diff
        near = d2 <= self.r2
        at, i, j = at[near], i[near], j[near]
        sort = np.lexsort((j, at))
        return i[sort], j[sort]

    def counts(self, block: int = 1_000_000) -> IntArray:
        """Per point, the points within ``r`` of it (itself included), looked at ``block``
        candidates at a time."""
        n = len(self.points)
        out = np.zeros(n, dtype=np.int64)
        for lo, hi in self.blocks(block):
            i, _ = self.pairs(np.arange(lo, hi, dtype=np.int64))
            out += np.bincount(i, minlength=n)
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
        array), as ``cKDTree.query_pairs(r, output_type="ndarray")`` (in another order)."""
        i, j = self.pairs(np.arange(len(self.points), dtype=np.int64))
        keep = i < j
        return np.stack([i[keep], j[keep]], axis=1)
