"""The grid games in GeoJSON: every cell a Polygon, every element a MultiPolygon of its cells.

Coordinates are the grid's own plane, not longitude/latitude (the collection says
``"coordinate_system": "arena-hexes"`` or ``"arena-squares"`` next to ``"printed_mm"``, the
printed size of one cell):

- hexes are one unit across the flats, so neighbouring centres are 1 apart; a pointy hex
  ``(q, r)`` is centred at ``(q + r/2, r * sqrt(3)/2)``, a flat one at ``(q * sqrt(3)/2,
  r + q/2)``, x right and y up (the editor's and the printed map's frame);
- square ``(x, y)`` is the unit square ``[x, x + 1] x [y, y + 1]``.

Features: ``kind: cell`` (a pit hex, ``q``/``r``) or ``kind: square`` (``x``/``y``), then one
feature per row, launch zone or Mothership (its cells' polygons; a row's are the pit hexes on
its line) with the element's document as properties; a Mothership's build squares are the
``build_squares`` property and one more feature of ``kind: build_squares``.  The arena's other
fields are the foreign member ``"arena"``.

Reading back takes the cells from the cell features' ``q``/``r`` (``x``/``y``) and the elements
from their properties: geometry edited in a GIS does not move a cell (the grid is the arena).
"""

from __future__ import annotations

import json
import math
from typing import Any

from schema.formats.base import ExportResult, FormatError
from schema.formats.common import warn
from schema.formats.grid_games import GLIDER_PIT, GRID_SYSTEMS, GridPicture, picture_of

Doc = dict[str, Any]
Cell = tuple[int, int]
HALF_ROOT3 = math.sqrt(3.0) / 2.0


def _round(v: float) -> float:
    return round(v, 9) + 0.0


def cell_ring(p: GridPicture, c: Cell) -> list[list[float]]:
    """The closed, counter-clockwise outline of a cell in the grid's plane."""
    if p.shape == "square":
        x, y = c
        pts: list[tuple[float, float]] = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
    else:
        q, r = c
        if p.orientation == "pointy":
            cx, cy, start = q + r / 2.0, r * HALF_ROOT3, 30.0
        else:
            cx, cy, start = q * HALF_ROOT3, r + q / 2.0, 0.0
        radius = 1.0 / math.sqrt(3.0)
        pts = [(cx + radius * math.cos(math.radians(start + 60 * i)), cy + radius * math.sin(math.radians(start + 60 * i)))
               for i in range(6)]
    ring = [[_round(x), _round(y)] for x, y in pts]
    return ring + [ring[0]]


def write(arena: Any) -> ExportResult:
    p = picture_of(arena)
    cell_kind, a, b = ("cell", "q", "r") if p.shape == "hex" else ("square", "x", "y")
    grid = p.layers[0].cells
    features: list[Doc] = [
        {"type": "Feature", "id": f"{cell_kind}:{c[0]},{c[1]}", "geometry": {"type": "Polygon", "coordinates": [cell_ring(p, c)]},
         "properties": {"kind": cell_kind, a: c[0], b: c[1]}} for c in grid]
    empty = []
    for e in p.elements:
        if not e.cells:
            empty.append(f"{e.kind.replace('_', ' ')} {e.doc.get('id')}")
        features.append({"type": "Feature", "id": str(e.doc.get("id")),
                         "geometry": {"type": "MultiPolygon", "coordinates": [[cell_ring(p, c)] for c in e.cells]},
                         "properties": {"kind": e.kind, **e.doc}})
    fc = {"type": "FeatureCollection", "coordinate_system": f"arena-{'hexes' if p.shape == 'hex' else 'squares'}",
          "printed_mm": p.cell_mm, "arena": p.meta, "features": features}
    unit = ("hex units (one hex across the flats; neighbouring centres 1 apart)" if p.shape == "hex"
            else "squares (one square a unit)")
    losses = [f"coordinates are planar {unit}, x right and y up, not longitude/latitude as RFC 7946 expects",
              "GeoJSON has no grid: every cell is a polygon, and rows and launch zones are MultiPolygons of "
              "their cells with their numbers as properties" if p.system == GLIDER_PIT else
              "GeoJSON has no grid: every square is a polygon, and the Motherships and their build squares are "
              "MultiPolygons of their squares with their players and HP as properties",
              f"the arena's own fields ({'grid, floor' if p.system == GLIDER_PIT else 'grid'}, symmetry, scenario...) "
              "are in the foreign member \"arena\", which GIS tools drop when they rewrite the file"]
    losses += [f"{name} lies on no cell: an empty MultiPolygon" for name in empty]
    return ExportResult((json.dumps(fc, indent=1) + "\n").encode("utf-8"), losses)


def _whole(props: Doc, key: str, where: str) -> int:
    v = props.get(key)
    if isinstance(v, float) and v.is_integer():
        v = int(v)  # GIS tools write whole numbers as decimals
    if isinstance(v, bool) or not isinstance(v, int):
        raise FormatError(f"{where}: properties.{key} must be a whole number, got {v!r}"[:300])
    return v


def read(fc: Doc, meta: Doc, source: str, warnings: list[str] | None) -> Any:
    """A grid arena from a FeatureCollection this module wrote (or a GIS rewrote)."""
    from schema.io import from_document

    system = meta.get("system")
    if system not in GRID_SYSTEMS:
        raise FormatError(f"{source}: {system!r} is not a grid game")
    hexes = system == GLIDER_PIT
    cell_kind, a, b = ("cell", "q", "r") if hexes else ("square", "x", "y")
    lists = {"row": "rows", "launch_zone": "launch_zones"} if hexes else {"mothership": "motherships"}
    doc: Doc = {k: v for k, v in meta.items()}
    cells: list[list[int]] = []
    for key in lists.values():
        doc[key] = []
    for i, f in enumerate(fc["features"]):
        where = f"{source}: /features/{i}"
        if not isinstance(f, dict) or not isinstance(f.get("properties"), dict):
            raise FormatError(f"{where}: a Feature with an object of properties is expected")
        props = {k: v for k, v in f["properties"].items() if v is not None}
        kind = props.pop("kind", None)
        if kind == cell_kind:
            cells.append([_whole(props, a, where), _whole(props, b, where)])
        elif kind in lists:
            for k, v in props.items():
                if isinstance(v, str) and v[:1] in "[{":
                    try:
                        props[k] = json.loads(v)  # GIS tools store lists as JSON text
                    except json.JSONDecodeError:
                        pass
            doc[lists[kind]].append(props)
        elif kind == "build_squares":
            continue  # the Mothership's own build_squares property says the same
        else:
            warn(warnings, f"{where}: skipped: properties.kind {kind!r} is not part of a {system} arena "
                           f"({', '.join([cell_kind, *lists, 'build_squares'] if not hexes else [cell_kind, *lists])})")
    doc["cells" if hexes else "squares"] = cells
    return from_document(doc, source=source)


__all__ = ["cell_ring", "read", "write"]
