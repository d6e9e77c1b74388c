"""How a tortoise crawls: straight lines, turning freely, up to ``stride`` inches a turn; its
shell may touch but not overlap a rock, and stays on the paddock.

The places a shell's centre may be are the paddock shrunk by the shell's radius less every rock
grown by it (:func:`free_space`; a grown circle or corner is a polygon of 8 sides a quarter
turn, whose corners lie on the true outline).  The shortest crawl between two places is then
exact on that polygon: a shortest path among polygons bends only at their corners, so it is the
shortest path of the graph whose nodes are the corners, the start and the goal, and whose edges
are the straight segments lying in the free space (the visibility graph; Dijkstra).

>>> from tortoise_derby.model import default_arena
>>> crawl = shortest(default_arena(), (-10.0, 0.0), (0.0, 0.0))
>>> round(crawl.length, 3), turns(default_arena(), crawl.length)
(10.0, 3)
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.ops import unary_union
from shapely.prepared import prep

from tortoise_derby.model import TortoiseDerbyArena

Point = tuple[float, float]
#: Segments of a quarter circle where the shell grows a rock or rounds a corner.
QUAD_SEGMENTS = 8
#: Slack of the "lies in the free space" test (inches): a segment along a grown rock's edge is
#: on its boundary, which floating point may put a hair outside.
SLACK = 1e-7


@dataclass(frozen=True)
class Crawl:
    """A shortest crawl: its corners from start to goal and its length in inches (None: the
    goal cannot be reached)."""

    path: tuple[Point, ...]
    length: float | None


@lru_cache(maxsize=16)
def free_space(arena: TortoiseDerbyArena) -> Any:
    """Where a shell's centre may be (a shapely geometry; empty when nowhere)."""
    shell = arena.scenario.shell
    paddock = arena.bounds.to_shapely().buffer(-shell, join_style="mitre")
    rocks = [r.shape.to_shapely().buffer(shell, quad_segs=QUAD_SEGMENTS) for r in arena.rocks]
    return paddock.difference(unary_union(rocks)) if rocks else paddock


def can_stand(arena: TortoiseDerbyArena, at: Point) -> bool:
    """Can a shell's centre be at ``at``?"""
    return bool(free_space(arena).buffer(SLACK).covers(ShapelyPoint(at)))


def _corners(free: Any) -> list[Point]:
    polygons = [free] if free.geom_type == "Polygon" else list(getattr(free, "geoms", ()))
    out: list[Point] = []
    for poly in polygons:
        for ring in (poly.exterior, *poly.interiors):
            out += [(float(x), float(y)) for x, y in list(ring.coords)[:-1]]
    return out


def shortest(arena: TortoiseDerbyArena, start: Point, goal: Point) -> Crawl:
    """The shortest crawl from ``start`` to ``goal`` (both where a shell may stand, else
    unreachable)."""
    if not (can_stand(arena, start) and can_stand(arena, goal)):
        return Crawl((), None)
    free = free_space(arena)
    inside = prep(free.buffer(SLACK))
    nodes = [start, goal, *_corners(free)]

    def sees(a: Point, b: Point) -> bool:
        return a == b or bool(inside.covers(LineString([a, b])))

    if sees(start, goal):  # in plain sight: the straight line is the shortest crawl
        return Crawl((start, goal), math.dist(start, goal))
    best = {0: 0.0}
    back: dict[int, int] = {}
    queue = [(0.0, 0)]
    done: set[int] = set()
    while queue:
        d, i = heapq.heappop(queue)
        if i in done:
            continue
        done.add(i)
        if i == 1:
            path = [goal]
            while i != 0:
                i = back[i]
                path.append(nodes[i])
            return Crawl(tuple(reversed(path)), d)
        for j, q in enumerate(nodes):
            if j in done:
                continue
            nd = d + math.dist(nodes[i], q)
            if nd < best.get(j, math.inf) - 1e-12 and sees(nodes[i], q):
                best[j], back[j] = nd, i
                heapq.heappush(queue, (nd, j))
    return Crawl((), None)


def turns(arena: TortoiseDerbyArena, length: float) -> int:
    """Turns a crawl of ``length`` inches takes (a partial stride is a whole turn)."""
    return max(0, int(math.ceil(length / arena.scenario.stride - 1e-9)))
