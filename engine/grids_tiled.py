"""The Tiled grid maths, for the engine's callers: it lives in :mod:`schema.formats.tiled_grid`
(the format layer writes the grid games' Tiled maps with it, and schema imports no engine)."""

from schema.formats.tiled_grid import TiledHexGrid, TiledSquareGrid, tiled_hex_grid, tiled_square_grid

__all__ = ["TiledHexGrid", "TiledSquareGrid", "tiled_hex_grid", "tiled_square_grid"]
