"""The grid games (a hex pit, a square battlefield) as the formats see them: which cells the map
covers, which cells each tile layer marks, and each element (a row of hexes, a launch zone, a
ship and its build squares...) as its document plus the cells it lies on, in order
(:class:`GridPicture`).  A grid game's export profile is a :class:`GridProfile` (the game's
package makes its picture and names its kinds); :mod:`schema.formats.grid_tiled` and
:mod:`schema.formats.grid_geojson` write these, keyed by the ruleset's ``grid`` (``hex`` or
``square``); the formats that cannot carry a grid (UVTT, Foundry) refuse a grid arena through
:func:`refuse`.

>>> from schema.games.gliderpit import default_arena
>>> p = picture_of(default_arena())
>>> p.shape, p.orientation, len(p.cells), [(layer.name, len(layer.cells)) for layer in p.layers]  # + 19 label hexes
('hex', 'pointy', 290, [('pit hexes', 271), ('launch zone hexes', 30)])
>>> [(e.kind, e.doc["id"], len(e.cells)) for e in p.elements][:2]
[('row', 'R1', 10), ('row', 'R2', 11)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from schema.formats.base import FormatError
from schema.formats.systems import ExportProfile
from schema.ruleset import ArenaModel, UnknownSystem, ruleset

Doc = dict[str, Any]
Cell = tuple[int, int]


@dataclass(frozen=True)
class Tile:
    """One tile of the generated tileset: its class name and colours (``#RRGGBB``)."""

    name: str
    fill: str
    stroke: str
    opacity: float = 1.0


@dataclass(frozen=True)
class TileLayer:
    """Cells marked with one tile (index into :attr:`GridPicture.tiles`)."""

    name: str
    tile: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class GridElement:
    """An element: ``kind`` (``row``, ``launch_zone``, ``mothership``, ``build_squares``),
    the object layer it goes in, its document (the arena file's, or for build squares the
    Mothership's id and player) and its cells in order."""

    kind: str
    layer: str
    doc: Doc
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Label:
    """A text label for people (a row's 2d6 total, a Mothership's player and HP) across
    ``cells``."""

    text: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class GridPicture:
    system: str
    shape: Literal["hex", "square"]
    orientation: Literal["pointy", "flat"] | None
    #: The arena document without its cells and element lists.
    meta: Doc
    #: Every cell the map must hold (the grid, the elements' cells and the labels' cells).
    cells: tuple[Cell, ...]
    tiles: tuple[Tile, ...]
    layers: tuple[TileLayer, ...]
    elements: tuple[GridElement, ...]
    labels: tuple[Label, ...]
    #: The printed size of a cell in millimetres (across the flats for hexes).
    cell_mm: float


@dataclass(frozen=True)
class GridProfile(ExportProfile):
    """The export profile of a grid game: its cells and the elements on them.  :attr:`lists`
    holds the elements' kinds (as the formats name them) and their lists in the arena file; the
    game makes its :meth:`picture`."""

    #: The arena file's list of the grid's cells (``cells``, ``squares``).
    cells_key: str = "cells"
    #: Kinds the formats write for people but do not read back as elements (a ship's build
    #: squares, which its own document holds).
    derived: tuple[str, ...] = ()
    #: How refusals name the board (``a hex pit``).
    board: str = "a grid"
    #: The first tile layer's name (``pit hexes``): the cells are the tiles painted on it.
    cells_layer: str = "cells"
    #: Each element kind's field of cells, set from its object's cells when it was moved in
    #: Tiled (None: the game's :meth:`place` reads it).
    cell_fields: Mapping[str, str | None] = field(default_factory=dict)
    #: The loss sentence of a Tiled map for the elements' own fields.
    tiled_note: str = "the elements' own fields are properties: Tiled has no slots for them"
    #: GeoJSON's loss sentence for the grid and its elements.
    geojson_note: str = "GeoJSON has no grid: every cell is a polygon, and each element the outline of its cells"
    #: The arena's own fields GeoJSON keeps in the bounds feature (``grid, floor``).
    geojson_fields: str = "grid"

    @property
    def grid(self) -> Literal["square", "hex"]:
        return "hex" if self.ruleset.grid == "hex" else "square"

    @property
    def cell_kind(self) -> str:
        """What a cell feature's ``kind`` is: ``cell`` (a hex) or ``square``."""
        return "cell" if self.grid == "hex" else "square"

    @property
    def kinds(self) -> tuple[str, ...]:
        return ("bounds", self.cell_kind, *(k for k, _ in self.lists))

    def picture(self, doc: Doc) -> GridPicture:
        """The grid picture of an arena document of the game."""
        raise FormatError(f"{self.system}: the game's export profile draws no grid picture")

    def tiled_props(self, picture: GridPicture) -> list[tuple[str, Any]]:
        """More map properties of a Tiled map (name, value), after the frame."""
        return []

    def place(self, kind: str, doc: Doc, at: list[list[int]], meta: Doc, where: str,
              warnings: list[str] | None) -> None:
        """Set an element's cells from where its object lies in a Tiled map (``at``), saying so
        in ``warnings`` when it was moved."""
        from schema.formats.common import warn

        key = self.cell_fields.get(kind)
        if key is not None and doc.get(key) != at:
            warn(warnings, f"{where}: moved in Tiled: its {key} are read from its points")
            doc[key] = at

    def assemble(self, meta: Doc, cells: list[list[int]], elements: Mapping[str, list[Doc]],
                 derived: Mapping[str, list[tuple[Doc, list[list[int]]]]], source: str,
                 warnings: list[str] | None) -> Doc:
        """The arena document of a Tiled map: ``meta`` (the arena's own fields), the cells, the
        elements by kind, and the :attr:`derived` objects (document, cells) by kind."""
        return {**meta, self.cells_key: cells, **{key: list(elements[kind]) for kind, key in self.lists}}


def grid_profile(system: object) -> GridProfile | None:
    """The grid profile of an installed grid game ``system``; None for any other."""
    if not isinstance(system, str):
        return None
    try:
        rs = ruleset(system)
    except UnknownSystem:
        return None
    if rs.grid is None or rs.exports is None:
        return None
    prof = rs.exports()
    return prof if isinstance(prof, GridProfile) else None


def is_grid(arena: ArenaModel) -> bool:
    """Is ``arena`` of an installed grid game (its ruleset's ``grid`` and a grid profile)?"""
    return grid_profile(getattr(arena, "system", None)) is not None


def picture_of(arena: ArenaModel) -> GridPicture:
    """The grid picture of a grid game's arena (``FormatError`` for other games)."""
    prof = grid_profile(arena.system)
    if prof is None:
        raise FormatError(f"{arena.system!r} is not a grid game")
    return prof.picture(prof.to_document(arena))


#: The formats that cannot carry a grid arena, and why.
REFUSED = {
    "uvtt": "Universal VTT files hold a square grid, line-of-sight walls and an image; a grid game's arena is "
            "cells and the elements on them (numbered rows, launch zones, Motherships, build squares), none of "
            "which UVTT has a slot for",
    "foundry": "a Foundry scene of a grid game would be a background image and its grid settings with the "
               "game's elements as bare regions; the studio does not write it yet",
}


def refuse(fmt: str, arena: ArenaModel) -> None:
    """Raise a :class:`FormatError` saying why ``fmt`` cannot carry a grid arena, and what can."""
    system = getattr(arena, "system", None)
    prof = grid_profile(system) if fmt in REFUSED else None
    if prof is None:
        return
    why = REFUSED[fmt]
    raise FormatError(f"{fmt} cannot carry {prof.board} ({system}): {why}. Export tiled ("
                      f"{'a hexagonal' if prof.grid == 'hex' else 'an orthogonal'} Tiled map with the cells as tiles "
                      "and the elements as objects) or geojson (every cell a polygon) instead")


__all__ = ["GridElement", "GridPicture", "GridProfile", "Label", "Tile", "TileLayer", "grid_profile", "is_grid",
           "picture_of", "refuse"]
