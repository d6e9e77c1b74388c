"""The one interface every export/import format implements, and the shared pixel canvas.

A format turns an arena of any game (:class:`~schema.ruleset.ArenaModel`) into bytes for another tool and says, in plain
sentences, what that tool cannot represent (the *loss report*).  Formats that can be read back
do so losslessly for files they wrote: our fields travel in the target's own property slots.

Pixel formats (Tiled, UVTT, Foundry) share :class:`Canvas`: one arena length is one grid cell
of ``px_per_length`` pixels, the image's top-left corner is the bounds' top-left corner, and
y points down (ours points up).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from schema.ruleset import ArenaModel
from schema.shapes import Circle, Point, Polygon, Rect, Shape

#: Default pixels per length (one grid cell) for pixel-based formats.
DEFAULT_PX_PER_LENGTH = 64
#: Sides of the polygon standing in for a circle where a target has no circles.
CIRCLE_SIDES = 48


class FormatError(ValueError):
    """A file of another tool's format that cannot be read (the message says why and where)."""


@dataclass(frozen=True)
class Capabilities:
    """What a format can do: ``read`` back into an arena, ``write`` one, and whether writing
    needs a raster image of the arena (``needs_image``; the caller renders it)."""

    read: bool
    write: bool
    needs_image: bool = False


@dataclass(frozen=True)
class ExportResult:
    """The exported bytes and what the target could not represent; ``files``: other files the
    output refers to by name (a Tiled map's tileset image), to be written beside it."""

    data: bytes
    losses: list[str] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)


@runtime_checkable
class ArenaFormat(Protocol):
    """A target format: ``name`` (the CLI's ``--to``), file ``extensions`` (first = default)."""

    name: str
    extensions: tuple[str, ...]
    capabilities: Capabilities

    def write(self, arena: ArenaModel, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
              suffix: str | None = None) -> ExportResult:
        """Encode ``arena``; ``image_png`` is the rendered :func:`canvas` (pixel formats);
        ``suffix`` is the output file's extension where a format has flavours (Tiled: ``.tmx``
        XML or ``.tmj`` JSON)."""
        ...

    def read(self, data: bytes, *, source: str = "<string>", warnings: list[str] | None = None) -> ArenaModel:
        """Decode a file (raises :class:`FormatError` or ``ArenaError``); what was skipped or
        reinterpreted is appended to ``warnings`` as sentences for the import report."""
        ...


@dataclass(frozen=True)
class Canvas:
    """The pixel frame of an arena: top-left at (``left``, ``top``) in lengths, ``cols`` x
    ``rows`` whole cells of ``px`` pixels (one cell per length), y down."""

    left: float
    top: float
    cols: int
    rows: int
    px: int

    @property
    def width(self) -> int:
        return self.cols * self.px

    @property
    def height(self) -> int:
        return self.rows * self.px

    @property
    def view(self) -> tuple[float, float, float, float]:
        """The arena rectangle the image shows: (min x, min y, max x, max y) in lengths."""
        return (self.left, self.top - self.rows, self.left + self.cols, self.top)

    def to_px(self, p: Point) -> tuple[float, float]:
        return ((p[0] - self.left) * self.px, (self.top - p[1]) * self.px)

    def to_cells(self, p: Point) -> tuple[float, float]:
        return (p[0] - self.left, self.top - p[1])

    def from_px(self, x: float, y: float) -> Point:
        return (self.left + x / self.px, self.top - y / self.px)


def canvas(arena: ArenaModel, px_per_length: int = DEFAULT_PX_PER_LENGTH) -> Canvas:
    """The smallest frame of whole grid cells around the bounds, its edges on whole lengths:
    cell edges fall on the arena's integer coordinates, where the rendered image paints its
    grid lines, so a VTT's grid lies exactly on the painted one.

    >>> from schema.games.gravstrike.model import Arena, Rect
    >>> canvas(Arena(name="h", bounds=Rect((0.0, 0.0), (3.0, 2.2))), 10)
    Canvas(left=-2.0, top=2.0, cols=4, rows=4, px=10)
    """
    bounds = getattr(arena, "bounds", None)
    if not isinstance(bounds, (Circle, Rect, Polygon)):
        raise FormatError(f"a {arena.system} arena has no bounds shape to frame (a grid arena is framed by its cells)")
    minx, miny, maxx, maxy = bounds.to_shapely().bounds
    left, right = math.floor(minx + 1e-9), math.ceil(maxx - 1e-9)
    bottom, top = math.floor(miny + 1e-9), math.ceil(maxy - 1e-9)
    return Canvas(float(left), float(top), max(1, right - left), max(1, top - bottom), int(px_per_length))


def circle_points(c: Circle, sides: int = CIRCLE_SIDES) -> list[Point]:
    """A regular polygon with its vertices on the circle, counter-clockwise from +x."""
    return [(c.center[0] + c.radius * math.cos(2 * math.pi * i / sides),
             c.center[1] + c.radius * math.sin(2 * math.pi * i / sides)) for i in range(sides)]


def outline(s: Shape, sides: int = CIRCLE_SIDES) -> list[list[Point]]:
    """Closed outlines (first point not repeated) of a shape's area, counter-clockwise."""
    if isinstance(s, Circle):
        return [circle_points(s, sides)]
    if isinstance(s, Rect):
        return [list(s.corners())]
    if isinstance(s, Polygon):
        pts = list(s.points)
        return [pts if _signed_area(pts) >= 0 else pts[::-1]]
    g = s.to_shapely()
    rings: list[list[Point]] = []
    for poly in getattr(g, "geoms", [g]):
        if not poly.is_empty:
            pts = [(float(x), float(y)) for x, y in list(poly.exterior.coords)[:-1]]
            rings.append(pts if _signed_area(pts) >= 0 else pts[::-1])
    return rings


def _signed_area(pts: list[Point]) -> float:
    """Shoelace area: positive when counter-clockwise (y up)."""
    return 0.5 * sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts)))


def close_enough(a: Any, b: Any, tol: float = 1e-6) -> bool:
    """Recursive numeric comparison (lists, dicts, numbers within ``tol``, others equal)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(float(a) - float(b)) <= tol
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(close_enough(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close_enough(a[k], b[k], tol) for k in a)
    same: bool = a == b
    return same
