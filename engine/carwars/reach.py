"""The reach heat map: the earliest time the car's centre ends a movement point in each cell
of a grid over the arena, from one source, under one policy (flat-out by default).

This is the planner's search without a goal (Dijkstra by time), with states merged per cell
(``cell`` inches, same heading and speed, whatever the points moved this turn) instead of per ``quantum``: the times
are those of real plans, but merging can make a cell look a little later than it is - a map,
not a proof.  Bounded by ``limit`` turns and the planner's state cap.

>>> from schema.games.carwars import default_arena
>>> m = reach(default_arena(), StartSource(1), limit=1, cell=3.0)
>>> m.at(0.0, -14.75 + 3.0), m.at(0.0, -14.75 + 12.0), m.at(0.0, 14.0)
(0.25, 1.0, inf)
"""

from __future__ import annotations

import math

import numpy as np

from engine.carwars.batch import _Batch
from engine.carwars.planner import Planner, _Search
from engine.carwars.rules import Policy
from engine.carwars.travel import UNITS, ReachMap, SearchLimits, Source, StartSource
from schema.games.carwars import CarWarsArena

__all__ = ["ReachMap", "StartSource", "reach", "reach_with"]


class _ReachSearch(_Search):
    def _f(self, b: _Batch) -> np.ndarray:
        return np.asarray(b.time, dtype=np.int64)

    def _keys(self, b: _Batch) -> np.ndarray:
        """Cell, heading and speed (not the points moved this turn: the earlier state wins)."""
        k: np.ndarray = super()._keys(b) >> 3
        return k

    def sweep(self, x0: float, y0: float, cell: float, nx: int, ny: int) -> tuple[np.ndarray, bool]:
        times = np.full((nx, ny), np.inf)
        lim = self.p.limits
        while self.heap:
            key = self.heap[0]
            import heapq

            heapq.heappop(self.heap)
            b = _Batch.concat([part for _, part in self.buckets.pop(key)])
            ready, requeue = self._check(b)
            if requeue is not None:
                self._push(requeue)
            if ready is None:
                continue
            fresh = self._fresh(ready)
            if fresh is None:
                continue
            b = fresh
            ids = np.arange(self.stored, self.stored + len(b))
            self.store.append(b)
            self.stored += len(b)
            self.expanded += len(b)
            moved = (b.k > 0) | (b.parent < 0)
            i = np.floor((b.x[moved] - x0) / cell).astype(np.int64)
            j = np.floor((b.y[moved] - y0) / cell).astype(np.int64)
            ok = (i >= 0) & (i < nx) & (j >= 0) & (j < ny)
            t = b.time[moved][ok] / UNITS
            np.minimum.at(times, (i[ok], j[ok]), t)
            if self.expanded > lim.max_states:
                return times, False
            self._expand(b, ids)
        return times, True


def reach_with(planner: Planner, source: Source, limit: float = 3.0, cell: float = 1.0) -> ReachMap:
    """The heat map with an existing planner (its policy, car and state cap)."""
    pose, speed = planner.source_state(source)
    old = planner.max_turns
    planner.max_turns = max(0, int(math.floor(limit)))
    try:
        search = _ReachSearch(planner, pose, speed, {}, quantum=cell)
        minx, miny, maxx, maxy = planner.geometry.bounds.bounds
        nx = max(1, int(math.ceil((maxx - minx) / cell)))
        ny = max(1, int(math.ceil((maxy - miny) / cell)))
        times, complete = search.sweep(minx, miny, cell, nx, ny)
    finally:
        planner.max_turns = old
    times[times > limit + 1e-9] = np.inf
    return ReachMap(minx, miny, cell, times, complete)


def reach(arena: CarWarsArena, source: Source, limit: float = 3.0, policy: Policy = "flat-out", cell: float = 1.0,
          limits: SearchLimits = SearchLimits()) -> ReachMap:
    """Earliest time (turns, up to ``limit``) the car's centre ends a movement point in each
    ``cell``-inch square, from ``source``."""
    return reach_with(Planner(arena, policy, limits=limits), source, limit, cell)
