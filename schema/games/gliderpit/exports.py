"""Glider-Pit Gladiators (``system: glider-pit-gladiators``) in the other tools' formats: its
export profile (:class:`~schema.formats.grid_games.GridProfile`).

The pit is a hex grid: its hexes are the map's cells; each numbered row is the line of pit hexes
it runs along (its 2d6 total labelled in the hex before its first one, outside the pit), each
launch zone its own hexes.  A Tiled map keeps the floor level and the hexes' orientation as map
properties; a row moved in Tiled takes the line it now lies on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schema.formats.grid_games import GridElement, GridPicture, GridProfile, Label, Tile, TileLayer
from schema.formats.systems import Doc
from schema.games.gliderpit import RULESET, SYSTEM

Cell = tuple[int, int]


def _cells(v: Any) -> tuple[Cell, ...]:
    return tuple((int(c[0]), int(c[1])) for c in v)


def _unique(cells: Any) -> tuple[Cell, ...]:
    return tuple(dict.fromkeys(cells))


@dataclass(frozen=True)
class GliderPitExports(GridProfile):
    """The pit's picture, its Tiled map properties and how a moved row is read back."""

    def picture(self, doc: Doc) -> GridPicture:
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
            system=SYSTEM, shape="hex", orientation=orientation, meta=meta,
            cells=_unique((*pit, *zone_cells, *(c for lab in labels for c in lab.cells))),
            tiles=(Tile("pit", pit_style.fill, pit_style.stroke or "#3B3B3B", pit_style.fill_opacity),
                   Tile("launch_zone", zone_style.fill, zone_style.stroke or "#1A1A1A", 0.85)),
            layers=(TileLayer("pit hexes", 0, pit), TileLayer("launch zone hexes", 1, zone_cells)),
            elements=(*elements, *zones), labels=tuple(labels), cell_mm=float(doc["units"]["hex_mm"]))

    def tiled_props(self, picture: GridPicture) -> list[tuple[str, Any]]:
        return [("floor", picture.meta.get("floor", "standard")), ("hex_orientation", picture.orientation)]

    def place(self, kind: str, doc: Doc, at: list[list[int]], meta: Doc, where: str,
              warnings: list[str] | None) -> None:
        if kind != "row":
            super().place(kind, doc, at, meta, where, warnings)
            return
        from schema.formats.common import warn

        line = at[0][1] if (meta.get("grid") or {}).get("orientation", "pointy") == "pointy" else at[0][0]
        if line != doc.get("line"):
            warn(warnings, f"{where}: moved in Tiled: the row is now line {line}")
            doc["line"] = line


EXPORTS = GliderPitExports(
    system=SYSTEM,
    lists=(("row", "rows"), ("launch_zone", "launch_zones")),
    unit="hex",
    cells_key="cells",
    board="a hex pit",
    cells_layer="pit hexes",
    cell_fields={"row": None, "launch_zone": "cells"},
    tiled_note="row totals, air-current restrictions, launch zones' Airspeed Tracks and the FLOOR level are "
               "properties (the row totals also text labels): Tiled has no slots for them",
    geojson_note="GeoJSON has no grid: every cell is a polygon, and each row and launch zone is the outline of its "
                 "cells with its numbers (and a zone's cells) as properties",
    geojson_fields="grid, floor",
)

__all__ = ["EXPORTS", "GliderPitExports"]
