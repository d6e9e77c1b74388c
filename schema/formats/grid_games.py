"""The grid games (Glider-Pit Gladiators' hex pit, the Mothership battlefield) as the formats
see them: which cells the map covers, which cells each tile layer marks, and each element
(row, launch zone, Mothership, build squares) as its document plus the cells it lies on, in
order.  :mod:`schema.formats.grid_tiled` and :mod:`schema.formats.grid_geojson` write these;
the formats that cannot carry a grid (UVTT, Foundry) refuse a grid arena through
:func:`refuse`.

>>> from schema.games.gliderpit import default_arena
>>> p = picture_of(default_arena())
>>> p.shape, p.orientation, len(p.cells), [(layer.name, len(layer.cells)) for layer in p.layers]  # + 19 label hexes
('hex', 'pointy', 290, [('pit hexes', 271), ('launch zone hexes', 30)])
>>> [(e.kind, e.doc["id"], len(e.cells)) for e in p.elements][:2]
[('row', 'R1', 10), ('row', 'R2', 11)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from schema.formats.base import FormatError

Doc = dict[str, Any]
Cell = tuple[int, int]
GLIDER_PIT = "glider-pit-gladiators"
MOTHERSHIP = "mothership-grid"
GRID_SYSTEMS = (GLIDER_PIT, MOTHERSHIP)
#: Each grid game's element kinds (as the formats name them) and their lists in the arena file.
GRID_LISTS: dict[str, dict[str, str]] = {GLIDER_PIT: {"row": "rows", "launch_zone": "launch_zones"},
                                         MOTHERSHIP: {"mothership": "motherships"}}


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


def is_grid(arena: Any) -> bool:
    return getattr(arena, "system", None) in GRID_SYSTEMS


def _cells(v: Any) -> tuple[Cell, ...]:
    return tuple((int(c[0]), int(c[1])) for c in v)


def _unique(cells: Any) -> tuple[Cell, ...]:
    return tuple(dict.fromkeys(cells))


def _gliderpit(doc: Doc) -> GridPicture:
    from schema.games.gliderpit import RULESET

    style = {k.key: k.style for k in RULESET.kinds}
    orientation = doc["grid"]["orientation"]
    pit = _cells(doc["cells"])
    axis = 1 if orientation == "pointy" else 0  # the coordinate constant along a row
    along = 0 if orientation == "pointy" else 1
    elements, labels = [], []
    for row in doc["rows"]:
        on = tuple(sorted((c for c in pit if c[axis] == row["line"]), key=lambda c: c[along]))
        elements.append(GridElement("row", "rows", row, on))
        if on:
            first = on[0]
            # the label sits in the hex before the row's first one, outside the pit
            before = (first[0] - 1, first[1]) if orientation == "pointy" else (first[0], first[1] - 1)
            labels.append(Label(str(row["label"]), (before,)))
    zones = [GridElement("launch_zone", "launch zones", z, _cells(z["cells"])) for z in doc["launch_zones"]]
    zone_cells = _unique(c for z in zones for c in z.cells)
    meta = {k: v for k, v in doc.items() if k not in ("cells", "rows", "launch_zones")}
    pit_style, zone_style = style["cells"], style["launch_zones"]
    return GridPicture(
        system=GLIDER_PIT, shape="hex", orientation=orientation, meta=meta,
        cells=_unique((*pit, *zone_cells, *(c for lab in labels for c in lab.cells))),
        tiles=(Tile("pit", pit_style.fill, pit_style.stroke or "#3B3B3B", pit_style.fill_opacity),
               Tile("launch_zone", zone_style.fill, zone_style.stroke or "#1A1A1A", 0.85)),
        layers=(TileLayer("pit hexes", 0, pit), TileLayer("launch zone hexes", 1, zone_cells)),
        elements=(*elements, *zones), labels=tuple(labels), cell_mm=float(doc["units"]["hex_mm"]))


#: Okabe-Ito bluish green for the build squares (the Mothership ruleset has no kind for them).
BUILD_FILL = "#009E73"


def _mothership(doc: Doc) -> GridPicture:
    from schema.games.mothership import RULESET

    style = {k.key: k.style for k in RULESET.kinds}
    field = _cells(doc["squares"])
    ships, builds, labels = [], [], []
    for m in doc["motherships"]:
        squares = _cells(m["squares"])
        ships.append(GridElement("mothership", "motherships", m, squares))
        builds.append(GridElement("build_squares", "build areas", {"id": f"{m['id']}-build", "mothership": m["id"],
                                                                     "player": m["player"]},
                                  _cells(m.get("build_squares", ()))))
        if squares:
            labels.append(Label(f"player {m['player']}: {m['id']}, {m.get('hp', 5)} HP", squares))
    build_cells = _unique(c for b in builds for c in b.cells)
    ship_cells = _unique(c for s in ships for c in s.cells)
    meta = {k: v for k, v in doc.items() if k not in ("squares", "motherships")}
    sq, ms = style["squares"], style["motherships"]
    return GridPicture(
        system=MOTHERSHIP, shape="square", orientation=None, meta=meta,
        cells=_unique((*field, *build_cells, *ship_cells)),
        tiles=(Tile("battlefield", sq.fill, sq.stroke or "#3B3B3B", sq.fill_opacity),
               Tile("build_square", BUILD_FILL, "#1A1A1A", 0.6),
               Tile("mothership", ms.fill, ms.stroke or "#1A1A1A", ms.fill_opacity)),
        layers=(TileLayer("battlefield squares", 0, field), TileLayer("build squares", 1, build_cells),
                TileLayer("mothership squares", 2, ship_cells)),
        elements=(*ships, *builds), labels=tuple(labels), cell_mm=float(doc["units"]["square_mm"]))


def picture_of(arena: Any) -> GridPicture:
    """The grid picture of a grid game's arena (``FormatError`` for other games)."""
    from schema.ruleset import ruleset

    system = getattr(arena, "system", None)
    if system not in GRID_SYSTEMS:
        raise FormatError(f"{system!r} is not a grid game ({', '.join(GRID_SYSTEMS)})")
    doc = ruleset(system).document(arena)
    return _gliderpit(doc) if system == GLIDER_PIT else _mothership(doc)


#: The formats that cannot carry a grid arena, and why.
REFUSED = {
    "uvtt": "Universal VTT files hold a square grid, line-of-sight walls and an image; a grid game's arena is "
            "cells and the elements on them (numbered rows, launch zones, Motherships, build squares), none of "
            "which UVTT has a slot for",
    "foundry": "a Foundry scene of a grid game would be a background image and its grid settings with the "
               "game's elements as bare regions; the studio does not write it yet",
}


def refuse(fmt: str, arena: Any) -> None:
    """Raise a :class:`FormatError` saying why ``fmt`` cannot carry a grid arena, and what can."""
    system = getattr(arena, "system", None)
    if system not in GRID_SYSTEMS or fmt not in REFUSED:
        return
    board = "a hex pit" if system == GLIDER_PIT else "a square-grid battlefield"
    why = REFUSED[fmt]
    raise FormatError(f"{fmt} cannot carry {board} ({system}): {why}. Export tiled ("
                      f"{'a hexagonal' if system == GLIDER_PIT else 'an orthogonal'} Tiled map with the cells as tiles "
                      "and the elements as objects) or geojson (every cell a polygon) instead")


__all__ = ["GLIDER_PIT", "GRID_LISTS", "GRID_SYSTEMS", "MOTHERSHIP", "GridElement", "GridPicture", "Label", "Tile", "TileLayer",
           "is_grid", "picture_of", "refuse"]
