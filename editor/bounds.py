"""The arena bounds as numbers (Qt-free): a rectangle (centre, width, height, rotation), a
regular polygon (centre, radius to the corners, sides, rotation) or free points, and the
presets of the Arena tab.

The file format's bounds are a ``rect`` or a ``polygon`` (their edges are walls), so a round
arena is a regular polygon with many sides unless the format accepts circular bounds
(:func:`circle_allowed` reads the schema).  A game whose board may be a circle (Arena Rex,
:func:`circle_board`) edits it as one: centre and radius.

>>> form = describe(Polygon(((12.0, 0.0), (6.0, 10.3923), (-6.0, 10.3923), (-12.0, 0.0),
...                          (-6.0, -10.3923), (6.0, -10.3923))))
>>> form.kind, form.sides, round(form.radius, 3), round(form.rotation, 3), form.center
('regular', 6, 12.0, 0.0, (0.0, 0.0))
>>> regular((0.0, 0.0), 2.0, 4, 45.0).points[0]
(1.4142, 1.4142)
>>> describe(Rect((1.0, 2.0), (24.0, 18.0), 30.0)).kind
'rect'
>>> f = describe(Polygon(((-12.0, -9.0), (12.0, -9.0), (12.0, 9.0), (-12.0, 9.0))))
>>> f.kind, f.width, f.height, f.rotation
('rect', 24.0, 18.0, 0.0)
>>> [label for label, _ in presets(Rect((0.0, 0.0), (24.0, 18.0)))]
['Square', 'Rectangle 4:3', 'Hexagon', 'Octagon', 'Round (32 sides)']
>>> describe(Circle((1.0, 2.0), 15.0)).kind, presets(Circle((0.0, 0.0), 15.0), circle=True)[-1][1]()
('circle', Circle(center=(0.0, 0.0), radius=15.0, type='circle'))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, get_args, get_type_hints, runtime_checkable

from schema.ruleset import ArenaModel
from schema.shapes import AreaShape, Circle, Point, Polygon, Rect

#: Decimals of the corners written for regular polygons (the shipped arenas use 4).
DECIMALS = 4
#: Sides of the "round" preset when the format has no circular bounds.
ROUND_SIDES = 32
#: Relative tolerance to which a polygon is recognised as regular.
REGULAR_TOL = 1e-3


@runtime_checkable
class BoundedArena(ArenaModel, Protocol):
    """An arena placed freely on the table, inside its outline: ``bounds`` (a rectangle, a
    polygon or, for a game with circle boards, a circle).  A grid game's arena has none (its
    cells are its board): ``isinstance(arena, BoundedArena)`` tells them apart."""

    @property
    def bounds(self) -> AreaShape: ...


@dataclass(frozen=True)
class BoundsForm:
    """What the Arena tab shows: ``kind`` is ``rect``, ``regular``, ``polygon`` or ``circle``."""

    kind: str
    center: Point = (0.0, 0.0)
    width: float = 0.0
    height: float = 0.0
    rotation: float = 0.0
    radius: float = 0.0
    sides: int = 0
    points: tuple[Point, ...] = ()


def _r(v: float) -> float:
    out = round(v, DECIMALS)
    return 0.0 if out == 0 else out


def rect(center: Point, width: float, height: float, rotation: float = 0.0) -> Rect:
    """A rectangle; ``ValueError`` for sizes that are not positive."""
    if not (width > 0 and height > 0):
        raise ValueError("the width and height must be greater than 0")
    return Rect((float(center[0]), float(center[1])), (float(width), float(height)), float(rotation) % 360.0)


def regular(center: Point, radius: float, sides: int, rotation: float = 0.0) -> Polygon:
    """A regular polygon with ``sides`` corners ``radius`` from ``center``, the first at
    ``rotation`` degrees counter-clockwise from +x."""
    if not radius > 0:
        raise ValueError("the radius must be greater than 0")
    if int(sides) != sides or not 3 <= sides <= 64:
        raise ValueError("a regular polygon has 3 to 64 sides")
    cx, cy = center
    pts = []
    for k in range(int(sides)):
        a = math.radians(rotation + 360.0 * k / sides)
        pts.append((_r(cx + radius * math.cos(a)), _r(cy + radius * math.sin(a))))
    return Polygon(tuple(pts))


def describe(bounds: AreaShape) -> BoundsForm:
    """The bounds as the numbers the Arena tab edits."""
    if isinstance(bounds, Circle):
        return BoundsForm("circle", bounds.center, radius=bounds.radius)
    if isinstance(bounds, Rect):
        return BoundsForm("rect", bounds.center, bounds.size[0], bounds.size[1], bounds.rotation)
    pts = bounds.points
    n = len(pts)
    box = _as_rect(pts)
    if box is not None:
        return BoundsForm("rect", box.center, box.size[0], box.size[1], box.rotation, points=pts)
    cx, cy = sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n
    radii = [math.dist((cx, cy), p) for p in pts]
    r = sum(radii) / n
    if n >= 3 and r > 0 and max(abs(x - r) for x in radii) <= REGULAR_TOL * r:
        rotation = math.degrees(math.atan2(pts[0][1] - cy, pts[0][0] - cx)) % 360.0
        twin = regular((cx, cy), r, n, rotation)
        ccw = [math.dist(p, q) for p, q in zip(pts, twin.points)]
        cw = [math.dist(p, q) for p, q in zip(pts, (twin.points[0], *reversed(twin.points[1:])))]
        if max(ccw) <= 2 * REGULAR_TOL * r or max(cw) <= 2 * REGULAR_TOL * r:
            return BoundsForm("regular", (_r(cx), _r(cy)), rotation=_r(rotation), radius=_r(r), sides=n, points=pts)
    return BoundsForm("polygon", points=pts)


def _as_rect(pts: tuple[Point, ...]) -> Rect | None:
    """The rectangle four points trace (either way round), or None."""
    if len(pts) != 4:
        return None
    edges = [(pts[(i + 1) % 4][0] - pts[i][0], pts[(i + 1) % 4][1] - pts[i][1]) for i in range(4)]
    lengths = [math.hypot(*e) for e in edges]
    if min(lengths) <= 0:
        return None
    for i in range(4):
        a, b = edges[i], edges[(i + 1) % 4]
        if abs(a[0] * b[0] + a[1] * b[1]) > REGULAR_TOL * lengths[i] * lengths[(i + 1) % 4]:
            return None
    cx, cy = sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4
    rotation = math.degrees(math.atan2(edges[0][1], edges[0][0])) % 360.0
    if rotation >= 180.0 - 1e-9:  # the same rectangle, turned half a turn: the smaller angle
        rotation -= 180.0
    if abs(rotation - 90.0) < 1e-9:
        return Rect((_r(cx), _r(cy)), (_r(lengths[1]), _r(lengths[0])), 0.0)
    return Rect((_r(cx), _r(cy)), (_r(lengths[0]), _r(lengths[1])), _r(rotation))


def extent(bounds: AreaShape) -> tuple[float, float, float, float]:
    """(centre x, centre y, width, height) of the bounding box."""
    minx, miny, maxx, maxy = bounds.to_shapely().bounds
    return ((minx + maxx) / 2, (miny + maxy) / 2, maxx - minx, maxy - miny)


@lru_cache(maxsize=None)
def _bounds_types(system: str) -> tuple[str, ...]:
    """The ``type``s the game's schema lists for its ``bounds`` (none when it lists none)."""
    from schema.ruleset import ruleset

    try:
        node = ruleset(system).json_schema()["properties"]["bounds"]["properties"]["type"]
        return tuple(node["enum"])
    except (KeyError, TypeError):
        return ()


def circle_allowed(system: str) -> bool:
    """Whether the game's file format accepts circular bounds (Gravstrike's, Car Wars': a rect
    or a polygon)."""
    return "circle" in _bounds_types(system)


def circle_of(center: Point, radius: float) -> Circle:
    """A circle board, its numbers rounded as the corners of regular polygons are."""
    return Circle((_r(center[0]), _r(center[1])), _r(radius))


def circle_board(arena: Any) -> bool:
    """Whether ``arena``'s game accepts a circle board (its ``bounds`` may be a :class:`Circle`)."""
    try:
        hint = get_type_hints(type(arena)).get("bounds")
    except Exception:  # noqa: BLE001 - an arena type whose hints do not resolve: no circle
        return False
    return hint is Circle or Circle in get_args(hint)


def as_polygon(bounds: Any) -> Polygon | Rect:
    """``bounds`` with corners: a circle becomes a regular polygon of :data:`ROUND_SIDES` sides."""
    if isinstance(bounds, Circle):
        return regular(bounds.center, bounds.radius, ROUND_SIDES, 0.0)
    return bounds  # type: ignore[no-any-return]


def presets(current: Any, circle: bool = False, system: str = "") -> list[tuple[str, Callable[[], Any]]]:
    """(label, make) of the Arena tab's presets, sized like ``current`` (its larger side) and
    centred where it is; with ``circle`` (a game with circle boards) a circle too, else - when
    the game ``system``'s format has no circular bounds - a round polygon."""
    cx, cy, w, h = extent(current)
    s = max(w, h)
    c = (_r(cx), _r(cy))
    out: list[tuple[str, Callable[[], AreaShape]]] = [
        ("Square", lambda: rect(c, s, s)),
        ("Rectangle 4:3", lambda: rect(c, s, _r(s * 3 / 4))),
        ("Hexagon", lambda: regular(c, s / 2, 6, 0.0)),
        ("Octagon", lambda: regular(c, s / 2, 8, 22.5)),
    ]
    if circle:
        out.append(("Circle", lambda: circle_of(c, s / 2)))
    elif not (system and circle_allowed(system)):
        out.append((f"Round ({ROUND_SIDES} sides)", lambda: regular(c, s / 2, ROUND_SIDES, 0.0)))
    return out


__all__ = ["BoundedArena", "BoundsForm", "as_polygon", "circle_allowed", "circle_of", "circle_board", "describe", "extent", "presets", "rect", "regular"]
