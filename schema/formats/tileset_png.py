"""The small tileset image of a grid game's Tiled map: one tile per cell kind (a pit hex, a
launch-zone hex; a battlefield square, a build square, a Mothership square), drawn as the
tile's hexagon or square filled with the kind's colour and outlined, written as an RGBA PNG
with the standard library alone (zlib, struct).

The hexagon is the shape Tiled's hexagonal renderer gives a tile of that size: for
``staggeraxis="y"`` corners at the top and bottom middle and the vertical sides
``hexsidelength`` long; for ``"x"`` the horizontal sides that long.

>>> png = tileset_png([("#FBFAF5", "#3B3B3B", 1.0)], 8, 8, shape="square")
>>> png[:8] == PNG_SIGNATURE, len(png) > 40
(True, True)
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from typing import Literal

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Outline width in pixels.
STROKE_PX = 2.0
Colour = tuple[int, int, int, int]


def rgba(hex_colour: str, opacity: float = 1.0) -> Colour:
    """``#RRGGBB`` and an opacity as 8-bit RGBA."""
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), max(0, min(255, round(255 * opacity))))


def tile_outline(w: int, h: int, shape: Literal["hex-x", "hex-y", "square"], side: int = 0) -> list[tuple[float, float]]:
    """The tile's polygon in its own pixels (y down), clockwise on screen."""
    if shape == "hex-y":
        o = (h - side) / 2.0
        return [(w / 2.0, 0.0), (float(w), o), (float(w), h - o), (w / 2.0, float(h)), (0.0, h - o), (0.0, o)]
    if shape == "hex-x":
        o = (w - side) / 2.0
        return [(o, 0.0), (w - o, 0.0), (float(w), h / 2.0), (w - o, float(h)), (o, float(h)), (0.0, h / 2.0)]
    return [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]


def _span(poly: list[tuple[float, float]], y: float) -> tuple[float, float] | None:
    """Where the horizontal line at ``y`` is inside a convex polygon (x from, x to)."""
    xs = []
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 <= y <= y1 or y1 <= y <= y0) and y0 != y1:
            xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
        elif y0 == y1 == y:
            xs += [x0, x1]
    return (min(xs), max(xs)) if xs else None


def _shrunk(poly: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """The polygon scaled about its centre so that its edges move in by about ``by``."""
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    reach = min(max(abs(p[0] - cx) for p in poly), max(abs(p[1] - cy) for p in poly))
    k = max(0.0, (reach - by) / reach) if reach > 0 else 0.0
    return [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in poly]


def draw_tile(w: int, h: int, poly: list[tuple[float, float]], fill: Colour, stroke: Colour) -> list[bytearray]:
    """Rows of RGBA pixels: transparent outside, the outline ``STROKE_PX`` wide, the fill inside."""
    inner = _shrunk(poly, STROKE_PX)
    rows = []
    for y in range(h):
        row = bytearray(4 * w)
        outer_span, inner_span = _span(poly, y + 0.5), _span(inner, y + 0.5)
        if outer_span is not None:
            for x in range(max(0, round(outer_span[0])), min(w, round(outer_span[1]))):
                inside = inner_span is not None and inner_span[0] <= x + 0.5 <= inner_span[1]
                row[4 * x:4 * x + 4] = bytes(fill if inside else stroke)
        rows.append(row)
    return rows


def png_bytes(width: int, height: int, rows: Sequence[bytes]) -> bytes:
    """An 8-bit RGBA PNG of ``rows`` (each ``4 * width`` bytes)."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def tileset_png(kinds: Sequence[tuple[str, str, float]], w: int, h: int,
                shape: Literal["hex-x", "hex-y", "square"], side: int = 0) -> bytes:
    """One row of tiles, one per ``(fill, stroke, fill opacity)``, each ``w`` x ``h`` pixels."""
    poly = tile_outline(w, h, shape, side)
    tiles = [draw_tile(w, h, poly, rgba(fill, opacity), rgba(stroke)) for fill, stroke, opacity in kinds]
    rows = [b"".join(bytes(t[y]) for t in tiles) for y in range(h)]
    return png_bytes(w * len(kinds), h, rows)


__all__ = ["PNG_SIGNATURE", "png_bytes", "rgba", "tile_outline", "tileset_png"]
