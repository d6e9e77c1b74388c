"""Object snapping (Qt-free): the nearest vertex or edge point of the arena's elements.

Vertices are polygon/polyline points, rectangle corners, circle centres, gate ends, target
and start positions and the bounds' corners; edges are the segments between them and circle
outlines. A vertex within ``tol`` wins over an edge within ``tol``.

>>> from schema.model import Arena, Polygon, Rect, Wall
>>> a = Arena("t", Polygon(((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))),
...           walls=(Wall("W1", Rect((5.0, 5.0), (2.0, 2.0))),))
>>> snap_to_objects(a, (4.1, 4.05), 0.2)
('vertex', (4.0, 4.0))
>>> snap_to_objects(a, (5.0, 6.1), 0.2)
('edge', (5.0, 6.0))
>>> snap_to_objects(a, (5.0, 6.1), 0.2, exclude=("W1",)) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from schema.model import Arena, Circle, Element, Gate, Point, Polygon, Polyline, Rect, StartPosition, StaticTarget

Segment = tuple[Point, Point]


def _shape_geometry(s: object) -> tuple[list[Point], list[Segment], list[tuple[Point, float]]]:
    if isinstance(s, Circle):
        return [s.center], [], [(s.center, s.radius)]
    if isinstance(s, Rect):
        pts = list(s.corners())
        closed = True
    elif isinstance(s, (Polygon, Polyline)):
        pts = list(s.points)
        closed = isinstance(s, Polygon)
    else:
        return [], [], []
    segs = [(pts[i], pts[i + 1]) for i in range(len(pts) - 1)]
    if closed and len(pts) > 2:
        segs.append((pts[-1], pts[0]))
    return pts, segs, []


def geometry(el: Element) -> tuple[list[Point], list[Segment], list[tuple[Point, float]]]:
    """(vertices, segments, circles) of one element."""
    if isinstance(el, Gate):
        return [el.start, el.end], [(el.start, el.end)], []
    if isinstance(el, (StaticTarget, StartPosition)):
        return [el.position], [], []
    return _shape_geometry(el.shape)  # type: ignore[union-attr]


def closest_on_segment(p: Point, a: Point, b: Point) -> tuple[Point, float]:
    """(closest point, parameter t in [0, 1]) of ``p`` on segment ``a``–``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / d2))
    return (a[0] + t * dx, a[1] + t * dy), t


def snap_to_objects(arena: Arena, p: Point, tol: float, exclude: Iterable[str] = (),
                    bounds: bool = True) -> tuple[str, Point] | None:
    """``('vertex'|'edge', point)`` nearest to ``p`` within ``tol``, or None."""
    skip = set(exclude)
    verts: list[Point] = []
    segs: list[Segment] = []
    circles: list[tuple[Point, float]] = []
    for el in arena.elements():
        if el.id in skip:
            continue
        v, s, c = geometry(el)
        verts += v
        segs += s
        circles += c
    if bounds and "bounds" not in skip:
        v, s, _ = _shape_geometry(arena.bounds)
        verts += v
        segs += s
    best_v = min(verts, key=lambda q: math.dist(p, q), default=None)
    if best_v is not None and math.dist(p, best_v) <= tol:
        return "vertex", best_v
    cands: list[Point] = [closest_on_segment(p, a, b)[0] for a, b in segs]
    for c, r in circles:
        d = math.dist(p, c)
        if d > 1e-12:
            cands.append((c[0] + (p[0] - c[0]) * r / d, c[1] + (p[1] - c[1]) * r / d))
    best_e = min(cands, key=lambda q: math.dist(p, q), default=None)
    if best_e is not None and math.dist(p, best_e) <= tol:
        return "edge", (round(best_e[0], 9), round(best_e[1], 9))
    return None


__all__ = ["closest_on_segment", "geometry", "snap_to_objects"]
