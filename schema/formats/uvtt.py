"""Universal VTT (``.dd2vtt``), as written by Dungeondraft and read by Foundry importers,
Owlbear Rodeo, Fantasy Grounds Unity and others.

Units are grid cells (one cell = one length) measured from the image's top-left corner, y down;
``resolution.map_origin`` is (0, 0), ``map_size`` the image size in cells and
``pixels_per_grid`` the image's pixels per cell.  ``line_of_sight`` holds the bounds and every
element that blocks sight, so VTT dynamic lighting blocks sight and movement there.  Everything
else exists only in the embedded image (base64 PNG of :func:`image_frame`).  Write-only: UVTT
has nowhere to keep our fields.

The file is written so that Foundry's most used UVTT importer, moo-man/FVTT-DD-Import
("Universal Battlemap Importer", ``ddimport.js``), reads it right in its default mode
(``tests/packs/consumers.py`` holds a port of its reading code):

- it reads ``line_of_sight`` only (``objects_line_of_sight`` only in its legacy layouts, with
  "Object Walls"), so every blocking element is a ``line_of_sight`` polyline and
  ``objects_line_of_sight`` is written empty (a reader merging both would get them twice);
- it uploads the picture as a square of ``map_size.x`` cells on both sides, so the frame is
  square (:func:`frame`: the whole-cell frame of the bounds, centred in a square of its longer
  side; the padding is painted as outside floor);
- it drops an interior point of a polyline when the segment after it is shorter than 0.3 cells
  (``preprocessWalls``; the first point so marked is kept), so circles have as many sides as
  keep every side at least :data:`MIN_SIDE` cells (at most 48), and an outline with more than
  one short segment away from its ends is written as overlapping pieces (:func:`polylines`);
- it leaves Foundry's grid at 100 px whatever ``pixels_per_grid`` says (the loss report says
  so unless ``--px`` is 100).
"""

from __future__ import annotations

import base64
import json
import math
import struct
from typing import Any

from schema.formats.grid_games import refuse
from schema.formats.base import (
    CIRCLE_SIDES,
    DEFAULT_PX_PER_LENGTH,
    Canvas,
    Capabilities,
    ExportResult,
    FormatError,
    canvas,
    outline,
)
from schema.formats.systems import profile_of
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Point, Shape

UVTT_FORMAT = 0.3
#: FVTT-DD-Import's ``preprocessWalls`` drops interior points followed by a segment shorter
#: than this many cells.
IMPORTER_SHORT = 0.3
#: The shortest side written for a circle (cells): the importer's threshold with room for the
#: coordinates' rounding to six decimals.
MIN_SIDE = 0.31
#: The grid size FVTT-DD-Import's default mode gives the scene (Foundry's default,
#: ``BaseScene`` ``grid.size`` initial 100): the painted cells match it at ``--px 100``.
IMPORTER_GRID_PX = 100

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
Line = list[dict[str, float]]


def frame(arena: ArenaModel, px_per_length: int = DEFAULT_PX_PER_LENGTH) -> Canvas:
    """The UVTT image frame: :func:`~schema.formats.base.canvas` (whole cells around the
    bounds) centred in a square of its longer side, whole cells added on both sides.

    >>> from schema.games.gravstrike.model import Arena, Rect
    >>> frame(Arena(name="w", bounds=Rect((0.0, 0.0), (6.0, 2.0))), 10)
    Canvas(left=-3.0, top=3.0, cols=6, rows=6, px=10)
    """
    cv = canvas(arena, px_per_length)
    side = max(cv.cols, cv.rows)
    return Canvas(cv.left - (side - cv.cols) // 2, cv.top + (side - cv.rows) // 2, side, side, cv.px)


def circle_sides(radius: float) -> int:
    """Sides of the regular polygon written for a circle of ``radius`` cells: the most (up to
    48) whose sides are all at least :data:`MIN_SIDE`; 3 for circles too small for any.

    >>> circle_sides(0.7), circle_sides(1.0), circle_sides(3.0), circle_sides(0.05)
    (14, 20, 48, 3)
    """
    n = CIRCLE_SIDES
    while n > 3 and 2.0 * radius * math.sin(math.pi / n) < MIN_SIDE:
        n -= 1
    return n


def circle_gap(radius: float) -> float:
    """How far (cells) the written polygon's sides come inside the circle: r(1 - cos(pi/n))."""
    return radius * (1.0 - math.cos(math.pi / circle_sides(radius)))


def rings(shape: Shape) -> list[list[Point]]:
    """Closed outlines of ``shape`` as written to UVTT (circles: :func:`circle_sides` sides)."""
    if isinstance(shape, Circle):
        return outline(shape, circle_sides(shape.radius))
    return outline(shape)


def _cell(v: float) -> float:
    return round(v, 6) + 0.0


def _short(a: tuple[float, float], b: tuple[float, float]) -> bool:
    # the importer's own arithmetic: Math.sqrt(Math.pow(dx, 2) + Math.pow(dy, 2)) < 0.3
    return math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) < IMPORTER_SHORT


def polylines(outlines: list[list[tuple[float, float]]]) -> list[Line]:
    """``line_of_sight`` polylines for closed outlines in cells (first point not repeated), so
    that FVTT-DD-Import keeps every point at any fidelity: a polyline may have short segments
    (under 0.3 cells) first, last and once in between.  Each outline is one closed polyline
    starting at a point that allows that; failing any, it is cut into overlapping pieces
    (consecutive pieces share a segment, never only an end point: the importer joins a
    polyline's end to another's identical start with zero-length walls).  Starts are chosen
    away from other polylines' ends for the same reason."""
    out: list[Line] = []
    ends: set[tuple[float, float]] = set()
    for raw in outlines:
        ring: list[tuple[float, float]] = []
        for x, y in raw:
            p = (_cell(x), _cell(y))
            if not ring or p != ring[-1]:
                ring.append(p)
        while len(ring) > 1 and ring[-1] == ring[0]:
            ring.pop()
        n = len(ring)
        if n < 2:
            continue
        short = [_short(ring[i], ring[(i + 1) % n]) for i in range(n)]
        total = sum(short)

        def inner(k: int) -> int:  # short segments between the first (k) and the last (k - 1)
            return total - short[k] - short[k - 1]

        k = min(range(n), key=lambda i: (inner(i) > 1, ring[i] in ends, inner(i), i))
        pieces: list[list[tuple[float, float]]] = []
        if inner(k) <= 1:
            pieces.append(ring[k:] + ring[:k] + [ring[k]])
        else:
            a = 0
            while True:  # segments a..b of the ring from k, segment j joining points j and j + 1
                b, count = a + 1, 0
                while b < n and count + short[(k + b) % n] <= 1:
                    count += short[(k + b) % n]
                    b += 1
                pieces.append([ring[(k + j) % n] for j in range(a, b + 2)])
                if b >= n:
                    break
                a = b
        for piece in pieces:
            ends.update((piece[0], piece[-1]))
            out.append([{"x": x, "y": y} for x, y in piece])
    return out


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's header, or None when ``data`` is not a PNG."""
    if len(data) < 24 or data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        return None
    w, h = struct.unpack(">II", data[16:24])
    return int(w), int(h)


def check_image(image_png: bytes | None, fr: Canvas) -> bytes:
    """The image to embed, refused unless it is a PNG of exactly the square frame ``fr``."""
    if image_png is None:
        raise FormatError("UVTT embeds the map image: render the arena first (no image was given)")
    size = png_size(image_png)
    if size is None:
        raise FormatError("UVTT embeds the map image as a PNG: the image given is not a PNG")
    if size != (fr.width, fr.height):
        raise FormatError(f"the map image is {size[0]} x {size[1]} px; UVTT's frame is {fr.width} x {fr.height} px "
                          f"({fr.cols} x {fr.rows} cells of {fr.px} px, square): render it with "
                          f"view=image_frame('uvtt', arena, px).view")
    return image_png


def document(fr: Canvas, outlines: list[list[Point]], image_png: bytes) -> dict[str, Any]:
    """The UVTT document: ``outlines`` (arena coordinates) as ``line_of_sight``."""
    los = polylines([[fr.to_cells(p) for p in ring] for ring in outlines])
    return {
        "format": UVTT_FORMAT,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": fr.cols, "y": fr.rows},
                       "pixels_per_grid": fr.px},
        "line_of_sight": los,
        "objects_line_of_sight": [],
        "portals": [],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": [],
        "image": base64.b64encode(image_png).decode("ascii"),
    }


def encode(doc: dict[str, Any]) -> bytes:
    return (json.dumps(doc, indent=1) + "\n").encode("utf-8")


def frame_losses(arena: Any, fr: Canvas, units: str = "cells") -> list[str]:
    """What the square frame and the importer's grid cost (empty when neither applies)."""
    out = []
    cv = canvas(arena, fr.px)
    if (cv.cols, cv.rows) != (fr.cols, fr.rows):
        out.append(f"the image is padded to a square of {fr.cols} x {fr.rows} {units} (the arena needs {cv.cols} x "
                   f"{cv.rows}): Foundry's UVTT importer (FVTT-DD-Import) sizes its picture from the map's width")
    if fr.px != IMPORTER_GRID_PX:
        out.append(f"Foundry's UVTT importer (FVTT-DD-Import) gives the scene a {IMPORTER_GRID_PX} px grid whatever "
                   f"the file says: export with --px {IMPORTER_GRID_PX} for its grid to lie on the painted grid "
                   f"({fr.px} px)")
    return out


def round_loss(pieces: list[tuple[str, float]], what: str, units: str = "cells") -> str | None:
    """The loss sentence for round elements (``(label, radius)`` pairs), or None."""
    if not pieces:
        return None
    groups: dict[int, list[str]] = {}
    for name, r in pieces:
        groups.setdefault(circle_sides(r), []).append(name)
    listed = "; ".join(f"{', '.join(names)}: {n} sides" for n, names in sorted(groups.items(), reverse=True))
    gap = max(circle_gap(r) for _, r in pieces)
    return (f"UVTT walls are polylines: {what} ({listed}) are regular polygons with their corners on the circle "
            f"and sides of at least {MIN_SIDE} {units} (Foundry's UVTT importer drops the corner before a shorter "
            f"side); their sides come up to {gap:.3f} {units} inside the circle")


class UVTTFormat:
    name: str = "uvtt"
    extensions: tuple[str, ...] = (".dd2vtt", ".uvtt")
    capabilities: Capabilities = Capabilities(read=False, write=True, needs_image=True)

    def frame(self, arena: ArenaModel, px_per_length: int = DEFAULT_PX_PER_LENGTH) -> Canvas:
        """The frame the map image must be rendered in (square: :func:`frame`)."""
        refuse(self.name, arena)
        return frame(arena, px_per_length)

    def write(self, arena: ArenaModel, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
              suffix: str | None = None) -> ExportResult:
        """The game's file (its export profile's :meth:`~schema.formats.systems.ExportProfile.uvtt`)."""
        refuse(self.name, arena)
        return profile_of(arena).uvtt(arena, image_png, px_per_length)

    def read(self, data: bytes, *, source: str = "<uvtt>", warnings: list[str] | None = None) -> ArenaModel:
        raise FormatError(f"{source}: UVTT files cannot be imported (they keep only walls and an image)")
