"""An independent shortest-path search for a round base, written from the rule alone, to check
:mod:`engine.arenarex.space` against: a plain Dijkstra (heapq) over a fine square grid with 16
moves, where a base centre is free when its exact distance to every obstacle's true outline (a
real circle, a real rectangle) is more than the base radius and it lies that far inside the board,
and each move is checked at points every twentieth of an inch.  No visibility graph, no polygons
circumscribing anything, no scipy."""

from __future__ import annotations

import heapq
import math

from shapely.geometry import Point as ShapelyPoint

from schema.games.arenarex import ArenaRexArena
from schema.shapes import Circle

MOVES = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
         (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]


def free_test(arena: ArenaRexArena, r: float):  # type: ignore[no-untyped-def]
    shapes = [p.shape for p in arena.pits] + [s.shape for s in arena.spikes] + \
        [h.shape for h in arena.hazards if h.blocks_movement]
    board = arena.bounds.to_shapely()
    minx, miny, maxx, maxy = board.bounds

    def ok(x: float, y: float) -> bool:
        if not (minx + r < x < maxx - r and miny + r < y < maxy - r):  # rectangle boards only
            return False
        for s in shapes:
            if isinstance(s, Circle):
                if math.hypot(x - s.center[0], y - s.center[1]) <= s.radius + r:
                    return False
            elif s.to_shapely().distance(ShapelyPoint(x, y)) <= r:
                return False
        return True
    return ok


def shortest(arena: ArenaRexArena, r: float, a: tuple[float, float], b: tuple[float, float],
             step: float = 0.1) -> float:
    ok = free_test(arena, r)
    minx, miny, _, _ = arena.bounds.to_shapely().bounds

    def node(p: tuple[float, float]) -> tuple[int, int]:
        return (round((p[0] - minx) / step), round((p[1] - miny) / step))

    def xy(n: tuple[int, int]) -> tuple[float, float]:
        return (minx + n[0] * step, miny + n[1] * step)

    start, goal = node(a), node(b)
    dist = {start: math.hypot(xy(start)[0] - a[0], xy(start)[1] - a[1])}
    heap = [(dist[start], start)]
    free: dict[tuple[int, int], bool] = {}

    def is_free(n: tuple[int, int]) -> bool:
        if n not in free:
            free[n] = ok(*xy(n))
        return free[n]

    while heap:
        d, n = heapq.heappop(heap)
        if n == goal:
            return d + math.hypot(xy(goal)[0] - b[0], xy(goal)[1] - b[1])
        if d > dist.get(n, math.inf):
            continue
        for di, dj in MOVES:
            m = (n[0] + di, n[1] + dj)
            if not is_free(m):
                continue
            length = step * math.hypot(di, dj)
            pts = max(2, int(length / 0.05))
            p0, p1 = xy(n), xy(m)
            if not all(ok(p0[0] + (p1[0] - p0[0]) * k / pts, p0[1] + (p1[1] - p0[1]) * k / pts) for k in range(1, pts)):
                continue
            nd = d + length
            if nd < dist.get(m, math.inf):
                dist[m] = nd
                heapq.heappush(heap, (nd, m))
    return math.inf
