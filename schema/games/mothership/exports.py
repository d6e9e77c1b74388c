"""The Mothership grid game (``system: mothership-grid``) in the other tools' formats: its export
profile (:class:`~schema.formats.grid_games.GridProfile`).

The battlefield is a square grid: its squares are the map's cells; each Mothership is its
squares (labelled with its player and hit points), and its build squares are drawn as one more
element (``build_squares``) that the Mothership's own document holds, so they are read back
into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from schema.formats.common import warn
from schema.formats.grid_games import GridElement, GridPicture, GridProfile, Label, Tile, TileLayer
from schema.formats.systems import Doc
from schema.games.mothership import RULESET, SYSTEM

Cell = tuple[int, int]
#: Okabe-Ito bluish green for the build squares (the Mothership ruleset has no kind for them).
BUILD_FILL = "#009E73"


def _cells(v: Any) -> tuple[Cell, ...]:
    return tuple((int(c[0]), int(c[1])) for c in v)


def _unique(cells: Any) -> tuple[Cell, ...]:
    return tuple(dict.fromkeys(cells))


@dataclass(frozen=True)
class MothershipExports(GridProfile):
    """The battlefield's picture and its build squares read back into their Motherships."""

    def picture(self, doc: Doc) -> GridPicture:
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
            system=SYSTEM, shape="square", orientation=None, meta=meta,
            cells=_unique((*field, *build_cells, *ship_cells)),
            tiles=(Tile("battlefield", sq.fill, sq.stroke or "#3B3B3B", sq.fill_opacity),
                   Tile("build_square", BUILD_FILL, "#1A1A1A", 0.6),
                   Tile("mothership", ms.fill, ms.stroke or "#1A1A1A", ms.fill_opacity)),
            layers=(TileLayer("battlefield squares", 0, field), TileLayer("build squares", 1, build_cells),
                    TileLayer("mothership squares", 2, ship_cells)),
            elements=(*ships, *builds), labels=tuple(labels), cell_mm=float(doc["units"]["square_mm"]))

    def assemble(self, meta: Doc, cells: list[list[int]], elements: Mapping[str, list[Doc]],
                 derived: Mapping[str, list[tuple[Doc, list[list[int]]]]], source: str,
                 warnings: list[str] | None) -> Doc:
        builds = {str(doc.get("mothership")): at for doc, at in derived.get("build_squares", [])}
        for m in elements["mothership"]:
            if str(m["id"]) in builds and builds[str(m["id"])] != m.get("build_squares"):
                warn(warnings, f"{source}: the build squares of {m['id']} were moved in Tiled: read from their points")
                m["build_squares"] = builds[str(m["id"])]
        return super().assemble(meta, cells, elements, derived, source, warnings)


EXPORTS = MothershipExports(
    system=SYSTEM,
    lists=(("mothership", "motherships"),),
    unit="square",
    cells_key="squares",
    derived=("build_squares",),
    board="a square-grid battlefield",
    cells_layer="battlefield squares",
    cell_fields={"mothership": "squares"},
    tiled_note="Mothership hit points and players are properties (and text labels): Tiled has no slots for them",
    geojson_note="GeoJSON has no grid: every square is a polygon, and each Mothership and its build squares is the "
                 "outline of its squares with its squares, player and HP as properties",
    geojson_fields="grid",
)

__all__ = ["BUILD_FILL", "EXPORTS", "MothershipExports"]
