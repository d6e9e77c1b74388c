"""The shapes every game's model is drawn with: small frozen dataclasses, each convertible to
shapely geometry.  Coordinates are in the game's own unit (Gravstrike's lengths, inches...), x to
the right, y up; angles are degrees counter-clockwise from +x.

>>> Circle(center=(0.0, 0.0), radius=1.0).to_shapely().area > 3.1
True
>>> Rect(center=(0.0, 0.0), size=(2.0, 1.0)).to_shapely().bounds
(-1.0, -0.5, 1.0, 0.5)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Literal, Union

from shapely.geometry import LineString, Point as ShapelyPoint, Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]
Extensions = dict[str, Any]

#: Segments used to approximate a circle's quarter turn in shapely geometry.
CIRCLE_QUAD_SEGMENTS = 32


@dataclass(frozen=True)
class Circle:
    """A circle: ``{type: circle, center: [x, y], radius}``."""

    center: Point
    radius: float
    type: Literal["circle"] = field(default="circle", init=False)

    def to_shapely(self) -> BaseGeometry:
        return _geometry(self)


@dataclass(frozen=True)
class Rect:
    """A rectangle centred on ``center``, ``size`` = (width, height) before ``rotation``."""

    center: Point
    size: tuple[float, float]
    rotation: float = 0.0
    type: Literal["rect"] = field(default="rect", init=False)

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Corners counter-clockwise, starting bottom-left of the unrotated rectangle.

        >>> Rect(center=(1.0, 1.0), size=(2.0, 2.0)).corners()[0]
        (0.0, 0.0)
        """
        cx, cy = self.center
        hw, hh = self.size[0] / 2.0, self.size[1] / 2.0
        a = math.radians(self.rotation)
        ca, sa = math.cos(a), math.sin(a)
        pts = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
        out = tuple((cx + px * ca - py * sa, cy + px * sa + py * ca) for px, py in pts)
        return out  # type: ignore[return-value]

    def to_shapely(self) -> BaseGeometry:
        return _geometry(self)


@dataclass(frozen=True)
class Polygon:
    """A simple polygon given by its vertices (not repeated at the end)."""

    points: tuple[Point, ...]
    type: Literal["polygon"] = field(default="polygon", init=False)

    def to_shapely(self) -> BaseGeometry:
        return _geometry(self)


@dataclass(frozen=True)
class Polyline:
    """A wall drawn as a thick line: the centre line ``points`` buffered by ``thickness / 2``."""

    points: tuple[Point, ...]
    thickness: float
    type: Literal["polyline"] = field(default="polyline", init=False)

    def to_shapely(self) -> BaseGeometry:
        return _geometry(self)


Shape = Union[Circle, Rect, Polygon, Polyline]


@functools.lru_cache(maxsize=4096)
def _geometry(shape: Shape) -> BaseGeometry:
    """A shape's shapely geometry, made once per distinct shape (shapely geometries are
    immutable, so every caller may share it; the editor, the engine and the validators convert
    the same shapes again and again)."""
    if isinstance(shape, Circle):
        return ShapelyPoint(shape.center).buffer(shape.radius, quad_segs=CIRCLE_QUAD_SEGMENTS)
    if isinstance(shape, Rect):
        return ShapelyPolygon(shape.corners())
    if isinstance(shape, Polygon):
        return ShapelyPolygon(shape.points)
    return LineString(shape.points).buffer(shape.thickness / 2.0, cap_style="flat", join_style="mitre", mitre_limit=4.0)
AreaShape = Union[Circle, Rect, Polygon]
BoundsShape = Union[Rect, Polygon]


@dataclass(frozen=True)
class Symmetry:
    """The symmetry the designer intends: ``rotational`` (N-fold), ``mirror`` (about one
    axis through ``center`` at ``axis`` degrees) or ``dihedral`` (both: N axes)."""

    kind: Literal["rotational", "mirror", "dihedral"]
    order: int = 1
    center: Point = (0.0, 0.0)
    axis: float = 90.0
