"""Object snapping (Qt-free): the nearest vertex or edge point of the arena's elements.

Vertices are polygon/polyline points, rectangle corners, circle centres, gate ends, target
and start positions and the bounds' corners; edges are the segments between them and circle
outlines. A vertex within ``tol`` wins over an edge within ``tol``; :func:`choose` decides
between them and the grid (an edge only when it is nearer than the grid point).

>>> from schema.games.gravstrike.model import Arena, Polygon, Rect, Wall
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

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass

from editor.bounds import BoundedArena
from editor import elements as E
from editor.elements import segment_ends
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Point, Polygon, Polyline, Rect

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


def geometry(el: object) -> tuple[list[Point], list[Segment], list[tuple[Point, float]]]:
    """(vertices, segments, circles) of one element of any game: a segment's ends and the
    segment, a shape's vertices and edges (a circle's centre and outline), a point's or a
    piece's position."""
    ends = segment_ends(el)
    if ends is not None:
        return [ends[0], ends[1]], [ends], []
    shape = getattr(el, "shape", None)  # a card's or a token's footprint
    if shape is None:  # a point or a pose; or an Arena Rex deployment edge (nothing to snap to)
        pos = getattr(el, "position", None)
        return ([pos] if pos is not None else []), [], []
    return _shape_geometry(shape)


def closest_on_segment(p: Point, a: Point, b: Point) -> tuple[Point, float]:
    """(closest point, parameter t in [0, 1]) of ``p`` on segment ``a``–``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d2 = dx * dx + dy * dy
    t = 0.0 if d2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / d2))
    return (a[0] + t * dx, a[1] + t * dy), t


@dataclass(frozen=True)
class SnapHit:
    """A snap target: ``kind`` ``vertex`` or ``edge``, the ``point`` snapped to, the element
    it belongs to (``ref``, ``bounds`` for the outline) and its distance from the cursor."""

    kind: str
    point: Point
    ref: str
    distance: float


def nearest_target(arena: ArenaModel, p: Point, tol: float, exclude: Iterable[str] = (),
                   bounds: bool = True) -> SnapHit | None:
    """The vertex within ``tol`` of ``p`` nearest to it, else the nearest edge point within
    ``tol``, else None."""
    skip = set(exclude)
    verts: list[tuple[Point, str]] = []
    segs: list[tuple[Segment, str]] = []
    circles: list[tuple[Point, float, str]] = []
    for el in arena.elements():
        ref: str = getattr(el, "id")
        if ref in skip:
            continue
        v, s, c = geometry(el)
        verts += [(q, ref) for q in v]
        segs += [(seg, ref) for seg in s]
        circles += [(centre, r, ref) for centre, r in c]
    if bounds and "bounds" not in skip and isinstance(arena, BoundedArena):
        v, s, _ = _shape_geometry(arena.bounds)
        verts += [(q, "bounds") for q in v]
        segs += [(seg, "bounds") for seg in s]
    best_v = min(verts, key=lambda t: math.dist(p, t[0]), default=None)
    if best_v is not None and math.dist(p, best_v[0]) <= tol:
        return SnapHit("vertex", best_v[0], best_v[1], math.dist(p, best_v[0]))
    cands: list[tuple[Point, str]] = [(closest_on_segment(p, a, b)[0], ref) for (a, b), ref in segs]
    for centre, radius, ref in circles:
        d = math.dist(p, centre)
        if d > 1e-12:
            cands.append(((centre[0] + (p[0] - centre[0]) * radius / d,
                           centre[1] + (p[1] - centre[1]) * radius / d), ref))
    best_e = min(cands, key=lambda t: math.dist(p, t[0]), default=None)
    if best_e is not None and math.dist(p, best_e[0]) <= tol:
        q = (round(best_e[0][0], 9), round(best_e[0][1], 9))
        return SnapHit("edge", q, best_e[1], math.dist(p, best_e[0]))
    return None


def snap_to_objects(arena: ArenaModel, p: Point, tol: float, exclude: Iterable[str] = (),
                    bounds: bool = True) -> tuple[str, Point] | None:
    """``('vertex'|'edge', point)`` nearest to ``p`` within ``tol``, or None."""
    hit = nearest_target(arena, p, tol, exclude, bounds)
    return (hit.kind, hit.point) if hit is not None else None


def choose(p: Point, grid: Point | None, hit: SnapHit | None) -> tuple[str, Point]:
    """Where a point snaps: an element's vertex within the tolerance; else an element's edge
    when it is nearer than the grid point; else the grid point (``grid`` None: grid snapping
    off). Returns (``vertex`` | ``edge`` | ``grid`` | ``""``, point).

    >>> choose((0.1, 0.1), (0.0, 0.0), SnapHit("edge", (0.1, 0.3), "W1", 0.2))
    ('grid', (0.0, 0.0))
    >>> choose((0.1, 0.26), (0.0, 0.5), SnapHit("edge", (0.1, 0.3), "W1", 0.04))
    ('edge', (0.1, 0.3))
    >>> choose((0.1, 0.1), (0.0, 0.0), SnapHit("vertex", (0.2, 0.2), "W1", 0.14))
    ('vertex', (0.2, 0.2))
    """
    if hit is not None and (hit.kind == "vertex" or grid is None or hit.distance < math.dist(p, grid)):
        return hit.kind, hit.point
    if grid is not None:
        return "grid", grid
    return "", p


def on_grid(v: float, step: float) -> float:
    """``v`` on the nearest multiple of ``step`` (without float noise)."""
    q = round(round(v / step) * step, 9)
    return q if q else 0.0


def grid_point(el: object) -> Point | None:
    """The point of ``el`` that snapping puts on the grid - the one its file writes first: a
    rectangle's or circle's centre, a polygon's or polyline's first point, a gate's start, a
    target's or start's position; None when it has none."""
    shape = getattr(el, "shape", None)
    if isinstance(shape, (Rect, Circle)):
        centre: Point = shape.center
        return centre
    vertices = geometry(el)[0]
    return vertices[0] if vertices else None


def snap_elements(arena: ArenaModel, refs: Iterable[str], step: float) -> ArenaModel:
    """``arena`` with each element of ``refs`` moved (not reshaped or turned) so that its
    :func:`grid_point` lies on the ``step`` grid; ``step`` 0 (snapping off): ``arena``."""
    if step <= 0:
        return arena
    out = arena
    for ref in refs:
        el = E.find(out, ref)
        p = grid_point(el) if el is not None else None
        if el is None or p is None:
            continue
        dx, dy = on_grid(p[0], step) - p[0], on_grid(p[1], step) - p[1]
        if abs(dx) > 1e-9 or abs(dy) > 1e-9:
            out = E.replace_element(out, ref, E.translate(el, dx, dy))
    return out


@dataclass(frozen=True)
class Snapped:
    """What :func:`snap_checked` decided: the ``arena`` to use, whether it is the snapped one,
    and a sentence for the designer (empty when nothing was off the grid)."""

    arena: ArenaModel
    snapped: bool
    note: str


def _counts(arena: ArenaModel, level: str, report: object = None) -> dict[str, int]:
    from validators.findings import RANK
    from validators.run import validate

    findings = getattr(report, "findings", None)
    if findings is None:
        findings = validate(arena).findings
    out: dict[str, int] = {}
    for f in findings:
        if RANK[f.severity] >= RANK[level]:
            out[f.code] = out.get(f.code, 0) + 1
    return out


def snap_checked(arena: ArenaModel, refs: Iterable[str], step: float, *, level: str = "info",
                 report: object = None) -> Snapped:
    """``arena`` (a proposed fix, a generated arena) with the elements ``refs`` on the ``step``
    grid (:func:`snap_elements`) when that keeps it legal: validated again, the snapped arena
    has no finding at or above ``level`` of a code more often than ``arena`` has (``report``:
    ``arena``'s report, if made already) - by default of any severity, so that a declared
    symmetry the grid cannot keep (a third of a turn: the ``symmetry`` finding, an *info*) keeps
    the arena off the grid.  Else ``arena`` itself, and the note says which findings snapping
    would add.  Runs the validators: call it off the UI thread."""
    refs = list(refs)
    snapped = snap_elements(arena, refs, step)
    if snapped == arena:
        return Snapped(arena, False, "")
    before, after = _counts(arena, level, report), _counts(snapped, level)
    worse = sorted(code for code, n in after.items() if n > before.get(code, 0))
    if worse:
        return Snapped(arena, False, f"kept off the {step:g} snap grid: snapping would add {', '.join(worse)}")
    return Snapped(snapped, True, f"snapped to the {step:g} grid")


__all__ = ["SnapHit", "Snapped", "choose", "closest_on_segment", "geometry", "grid_point", "nearest_target", "on_grid",
           "segment_ends", "snap_checked", "snap_elements", "snap_to_objects"]
