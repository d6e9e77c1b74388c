"""The grid games in GeoJSON: every cell a Polygon, every element the outline of its cells.

Coordinates are the grid's own plane, not longitude/latitude (the collection says
``"coordinate_system": "arena-hexes"`` or ``"arena-squares"`` next to ``"printed_mm"``, the
printed size of one cell):

- hexes are one unit across the flats, so neighbouring centres are 1 apart; a pointy hex
  ``(q, r)`` is centred at ``(q + r/2, r * sqrt(3)/2)``, a flat one at ``(q * sqrt(3)/2,
  r + q/2)``, x right and y up (the editor's and the printed map's frame);
- square ``(x, y)`` is the unit square ``[x, x + 1] x [y, y + 1]``.

Features: first ``kind: bounds``, the outline of the pit (battlefield), whose property
``arena`` holds the arena's own fields (name, units, grid, symmetry, scenario...); then
``kind: cell`` (a pit hex, ``q``/``r``) or ``kind: square`` (``x``/``y``), one Polygon each;
then one feature per row, launch zone or Mothership with the element's document as
properties; a Mothership's build squares are its ``build_squares`` property and one more
feature of ``kind: build_squares``.  Every feature names its game in ``game``.  An element's
geometry is its cells dissolved into one valid Polygon (a MultiPolygon when they are apart;
cells that share an edge would make a self-intersecting MultiPolygon, which QGIS and PostGIS
flag), so the cells themselves travel in the properties.

Reading back takes the cells from the cell features' ``q``/``r`` (``x``/``y``) and the elements
from their properties (a row's hexes are the pit hexes on its ``line``): geometry edited in a
GIS does not move a cell (the grid is the arena).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

import shapely
from shapely.geometry.polygon import orient

from schema.formats.base import ExportResult, FormatError
from schema.formats.common import describe_tolerated, tolerate_gis, warn
from schema.formats.grid_games import GridPicture, grid_profile
from schema.ruleset import ArenaModel

Doc = dict[str, Any]
Cell = tuple[int, int]
HALF_ROOT3 = math.sqrt(3.0) / 2.0
#: The precision the cells' outlines are written with (and dissolved on).
GRID_SIZE = 1e-9


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


def outline(p: GridPicture, cells: tuple[Cell, ...] | list[Cell]) -> Doc:
    """The cells dissolved into one valid GeoJSON geometry: a Polygon (holes where the cells
    enclose others), a MultiPolygon of the separate pieces, or an empty MultiPolygon; rings
    counter-clockwise, holes clockwise (RFC 7946)."""
    if not cells:
        return {"type": "MultiPolygon", "coordinates": []}
    union = shapely.union_all([shapely.Polygon(cell_ring(p, c)) for c in cells], grid_size=GRID_SIZE)
    parts = [orient(g, sign=1.0) for g in getattr(union, "geoms", [union]) if isinstance(g, shapely.Polygon)]

    def rings(poly: shapely.Polygon) -> list[list[list[float]]]:
        return [[[_round(x), _round(y)] for x, y in ring.coords] for ring in (poly.exterior, *poly.interiors)]

    if len(parts) == 1:
        return {"type": "Polygon", "coordinates": rings(parts[0])}
    return {"type": "MultiPolygon", "coordinates": [rings(g) for g in parts]}


def write(arena: ArenaModel) -> ExportResult:
    prof = grid_profile(arena.system)
    if prof is None:
        raise FormatError(f"{arena.system!r} is not a grid game")
    p = prof.picture(prof.to_document(arena))
    cell_kind, a, b = ("cell", "q", "r") if p.shape == "hex" else ("square", "x", "y")
    grid = p.layers[0].cells
    features: list[Doc] = [
        {"type": "Feature", "id": "bounds", "geometry": outline(p, grid),
         "properties": {"kind": "bounds", "game": p.system, "arena": p.meta}}]
    features += [
        {"type": "Feature", "id": f"{cell_kind}:{c[0]},{c[1]}", "geometry": {"type": "Polygon", "coordinates": [cell_ring(p, c)]},
         "properties": {"kind": cell_kind, "game": p.system, a: c[0], b: c[1]}} for c in grid]
    empty = []
    for e in p.elements:
        if not e.cells:
            empty.append(f"{e.kind.replace('_', ' ')} {e.doc.get('id')}")
        features.append({"type": "Feature", "id": str(e.doc.get("id")), "geometry": outline(p, e.cells),
                         "properties": {"kind": e.kind, "game": p.system, **e.doc}})
    fc = {"type": "FeatureCollection", "coordinate_system": f"arena-{'hexes' if p.shape == 'hex' else 'squares'}",
          "printed_mm": p.cell_mm, "features": features}
    unit = ("hex units (one hex across the flats; neighbouring centres 1 apart)" if p.shape == "hex"
            else "squares (one square a unit)")
    losses = [f"coordinates are planar {unit}, x right and y up, not longitude/latitude as RFC 7946 expects",
              prof.geojson_note,
              f"GeoJSON has no arena-level fields: the arena's own fields "
              f"({prof.geojson_fields}, symmetry, scenario...) are JSON in the "
              "bounds feature's property \"arena\""]
    losses += [f"{name} lies on no cell: an empty MultiPolygon" for name in empty]
    return ExportResult((json.dumps(fc, indent=1) + "\n").encode("utf-8"), losses)


def _whole(props: Doc, key: str, where: str) -> int:
    v = props.get(key)
    if isinstance(v, float) and v.is_integer():
        v = int(v)  # GIS tools write whole numbers as decimals
    if isinstance(v, bool) or not isinstance(v, int):
        raise FormatError(f"{where}: properties.{key} must be a whole number, got {v!r}"[:300])
    return v


def read(features: list[Any], meta: Doc, source: str, warnings: list[str] | None) -> ArenaModel:
    """A grid arena from the features of a FeatureCollection this module wrote (or a GIS
    rewrote); ``meta``: the arena's own fields, ``system`` included."""
    system = meta.get("system")
    prof = grid_profile(system)
    if prof is None:
        raise FormatError(f"{source}: {system!r} is not a grid game")
    hexes = prof.grid == "hex"
    cell_kind, a, b = ("cell", "q", "r") if hexes else ("square", "x", "y")
    lists = dict(prof.lists)
    doc: Doc = {k: v for k, v in meta.items()}
    cells: list[list[int]] = []
    for key in lists.values():
        doc[key] = []
    seen: Counter[str] = Counter()
    for i, f in enumerate(features):
        where = f"{source}: /features/{i}"
        if not isinstance(f, dict) or not isinstance(f.get("properties"), dict):
            raise FormatError(f"{where}: a Feature with an object of properties is expected")
        props = {k: v for k, v in f["properties"].items() if k not in ("game", "arena")}
        kind = props.pop("kind", None)
        fid = f.get("id")
        name = props.get("id") if isinstance(props.get("id"), str) else fid if isinstance(fid, (str, int)) else None
        where += f" ({name!r})" if name is not None else ""
        if kind == cell_kind:
            cells.append([_whole(props, a, where), _whole(props, b, where)])
        elif kind in lists:
            props = tolerate_gis(kind, props, seen, prof.system, where=where)
            if "id" not in props and isinstance(fid, str):
                props["id"] = fid  # GDAL moves an id property to the feature's id
            doc[lists[kind]].append(props)
        elif kind in ("bounds", *prof.derived):
            continue  # the arena's fields were read; a derived kind's element holds the same
        else:
            warn(warnings, f"{where}: skipped: properties.kind {kind!r} is not part of a {system} arena "
                           f"({', '.join(['bounds', cell_kind, *lists, *prof.derived])})")
    for sentence in describe_tolerated(seen):
        warn(warnings, f"{source}: {sentence}")
    doc[prof.cells_key] = cells
    if hexes and "grid" not in doc:
        orientation = _orientation(features)
        if orientation is not None:
            doc["grid"] = {"shape": "hex", "orientation": orientation}
            warn(warnings, f"{source}: no grid settings: the hexes are {orientation}-topped (where the cell features lie)")
    return prof.build(doc, source)


def _orientation(features: list[Any]) -> str | None:
    """Pointy or flat, from where the cell features' polygons lie (their vertices' mean is the
    hex's centre), for a pit whose arena fields a GIS tool dropped; None when they say neither."""
    votes: Counter[str] = Counter()
    for f in features:
        props = f.get("properties") if isinstance(f, dict) else None
        geom = f.get("geometry") if isinstance(f, dict) else None
        if not isinstance(props, dict) or props.get("kind") != "cell" or not isinstance(geom, dict):
            continue
        try:
            q, r = float(props["q"]), float(props["r"])
            ring = geom["coordinates"][0] if geom.get("type") == "Polygon" else geom["coordinates"][0][0]
            pts = [(float(v[0]), float(v[1])) for v in ring[:-1]]
            cx, cy = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError):
            continue
        fits = [name for name, (x, y) in (("pointy", (q + r / 2, r * HALF_ROOT3)), ("flat", (q * HALF_ROOT3, r + q / 2)))
                if math.hypot(cx - x, cy - y) < 0.1]
        if len(fits) == 1:  # the hex (0, 0) is where both put it
            votes[fits[0]] += 1
    if len(votes) != 1:
        return None
    return next(iter(votes))


__all__ = ["cell_ring", "outline", "read", "write"]
