"""What a Tiled map needs to hold a grid arena (the grid games' Tiled export,
:mod:`schema.formats.grid_tiled`, and ``engine.grids_tiled`` which re-exports this module): the map attributes and the conversion between
our cells and Tiled's tile coordinates (column, row; row 0 at the top, y down).

Tiled draws hexagons as a *staggered* grid (TMX ``orientation="hexagonal"``):

- ``staggeraxis="y"``: rows are staggered — every other row is pushed right by half a tile.
  That is our ``pointy`` orientation (straight rows of constant ``r``).
- ``staggeraxis="x"``: columns are staggered — every other column is pushed down by half a
  tile.  That is our ``flat`` orientation (straight columns of constant ``q``).
- ``staggerindex``: whether the ``odd`` or the ``even`` rows/columns are the pushed ones.
- ``hexsidelength``: the length in pixels of the hexsides parallel to the stagger axis's
  other axis (the vertical sides of a pointy hex, the horizontal ones of a flat hex); with it
  ``tilewidth``/``tileheight`` give the hexagon's bounding box.

Our y axis points up and Tiled's down, so the conversion flips rows; it picks the stagger
index that keeps every cell's neighbours Tiled's neighbours, and shifts coordinates so the
smallest column and row are 0.

>>> g = tiled_hex_grid([(0, 0), (1, 0), (0, 1)], "pointy", hex_px=64)
>>> g.staggeraxis, g.staggerindex, g.width, g.height, g.to_offset((0, 1)), g.from_offset(0, 0)
('y', 'even', 2, 2, (0, 0), (0, 1))
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

Axial = tuple[int, int]
Square = tuple[int, int]
Point = tuple[float, float]
Orientation = Literal["pointy", "flat"]
SQRT3 = math.sqrt(3.0)


def _even(x: float) -> int:
    """The even integer nearest ``x`` (Tiled's renderer clears the lowest bit of tile sizes),
    at least 2."""
    return max(2, 2 * round(x / 2.0))


@dataclass(frozen=True)
class TiledHexGrid:
    """A TMX hexagonal map's grid attributes and our cells' places in it."""

    staggeraxis: Literal["x", "y"]
    staggerindex: Literal["odd", "even"]
    width: int
    height: int
    tilewidth: int
    tileheight: int
    hexsidelength: int
    #: offset_col = q + col_shift (+ r // 2 for pointy); offset_row = row_top - (...) ...
    col_shift: int
    row_top: int

    def to_offset(self, h: Axial) -> tuple[int, int]:
        """Tiled's (column, row) of a cell."""
        q, r = h
        if self.staggeraxis == "y":
            return (q + (r - (r & 1)) // 2 - self.col_shift, self.row_top - r)
        return (q - self.col_shift, self.row_top - (r + (q + (q & 1)) // 2))

    def from_offset(self, col: int, row: int) -> Axial:
        """Our cell at Tiled's (column, row)."""
        if self.staggeraxis == "y":
            r = self.row_top - row
            return (col + self.col_shift - (r - (r & 1)) // 2, r)
        q = col + self.col_shift
        return (q, self.row_top - row - (q + (q & 1)) // 2)

    def tile_center_px(self, col: int, row: int) -> Point:
        """Centre in Tiled's pixels (y down) of the tile at (column, row), as Tiled's
        hexagonal renderer places it (regular tile sizes)."""
        staggered = bool((col if self.staggeraxis == "x" else row) & 1) ^ (self.staggerindex == "even")
        if self.staggeraxis == "x":
            side_offset_x = (self.tilewidth - self.hexsidelength) // 2
            column_width = side_offset_x + self.hexsidelength
            x = col * column_width
            y = row * self.tileheight + (self.tileheight // 2 if staggered else 0)
        else:
            side_offset_y = (self.tileheight - self.hexsidelength) // 2
            row_height = side_offset_y + self.hexsidelength
            x = col * self.tilewidth + (self.tilewidth // 2 if staggered else 0)
            y = row * row_height
        return (x + self.tilewidth / 2.0, y + self.tileheight / 2.0)

    def attributes(self) -> dict[str, str]:
        """The ``<map>`` attributes of a TMX file for this grid (strings, as in XML)."""
        return {
            "orientation": "hexagonal", "renderorder": "right-down",
            "width": str(self.width), "height": str(self.height),
            "tilewidth": str(self.tilewidth), "tileheight": str(self.tileheight),
            "hexsidelength": str(self.hexsidelength),
            "staggeraxis": self.staggeraxis, "staggerindex": self.staggerindex,
        }


def tiled_hex_grid(cells: Collection[Axial], orientation: Orientation, hex_px: float = 64.0) -> TiledHexGrid:
    """The Tiled grid for ``cells``, hexes ``hex_px`` pixels across the flats (rounded to the
    even sizes Tiled draws)."""
    if not cells:
        raise ValueError("a Tiled map needs at least one cell")
    flats = _even(hex_px)
    side = _even(hex_px / SQRT3)
    if orientation == "pointy":
        # rows r; Tiled row = top - r; pushed rows are those with odd r
        top = max(r for _, r in cells)
        bottom = min(r for _, r in cells)
        shift = min(q + (r - (r & 1)) // 2 for q, r in cells)
        width = max(q + (r - (r & 1)) // 2 for q, r in cells) - shift + 1
        # Tiled pushes a row when (row & 1) xor (index == even); row = top - r
        index: Literal["odd", "even"] = "even" if top & 1 else "odd"
        return TiledHexGrid("y", index, width, top - bottom + 1, flats, 2 * side, side, shift, top)
    keys = [r + (q + (q & 1)) // 2 for q, r in cells]
    top = max(keys)
    shift = min(q for q, _ in cells)
    width = max(q for q, _ in cells) - shift + 1
    # Tiled pushes a column when (col & 1) xor (index == even); col = q - shift; odd q are pushed
    index = "even" if shift & 1 else "odd"
    return TiledHexGrid("x", index, width, top - min(keys) + 1, 2 * side, flats, side, shift, top)


@dataclass(frozen=True)
class TiledSquareGrid:
    """A TMX orthogonal map holding a square grid: Tiled's row 0 is our top row."""

    width: int
    height: int
    tilewidth: int
    tileheight: int
    x0: int
    y_top: int

    def to_offset(self, c: Square) -> tuple[int, int]:
        return (c[0] - self.x0, self.y_top - c[1])

    def from_offset(self, col: int, row: int) -> Square:
        return (col + self.x0, self.y_top - row)

    def tile_center_px(self, col: int, row: int) -> Point:
        """Centre in Tiled's pixels (y down) of the tile at (column, row)."""
        return ((col + 0.5) * self.tilewidth, (row + 0.5) * self.tileheight)

    def attributes(self) -> dict[str, str]:
        return {"orientation": "orthogonal", "renderorder": "right-down",
                "width": str(self.width), "height": str(self.height),
                "tilewidth": str(self.tilewidth), "tileheight": str(self.tileheight)}


def tiled_square_grid(cells: Collection[Square], square_px: int = 64) -> TiledSquareGrid:
    """The Tiled orthogonal grid covering ``cells`` (their bounding rectangle).

    >>> g = tiled_square_grid([(0, -1), (2, 5)])
    >>> g.width, g.height, g.to_offset((0, 5)), g.to_offset((2, -1))
    (3, 7, (0, 0), (2, 6))
    """
    if not cells:
        raise ValueError("a Tiled map needs at least one cell")
    x0, x1 = min(c[0] for c in cells), max(c[0] for c in cells)
    y0, y1 = min(c[1] for c in cells), max(c[1] for c in cells)
    return TiledSquareGrid(x1 - x0 + 1, y1 - y0 + 1, square_px, square_px, x0, y1)
