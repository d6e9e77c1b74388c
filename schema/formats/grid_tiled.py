"""Grid arenas as Tiled maps: Glider-Pit Gladiators' pit as a *hexagonal* map, the Mothership
battlefield as an *orthogonal* one.

The map's grid is the game's grid (:mod:`schema.formats.tiled_grid`): pointy hexes are a
``staggeraxis="y"`` map (rows of constant ``r`` are Tiled's rows), flat hexes a
``staggeraxis="x"`` map (columns of constant ``q`` are Tiled's columns); ``staggerindex``
is the one that keeps every hex's six neighbours Tiled's six neighbours, and the tile's size
(``--px`` across the flats, rounded to the even sizes Tiled draws) gives ``hexsidelength``.
The battlefield's squares are tiles of ``--px`` pixels, row 0 at the top (our y points up).

- **Tile layers** mark the cells with a generated tileset (:mod:`schema.formats.tileset_png`,
  written beside the map as ``<map>.tiles.png``): ``pit`` and ``launch zones``;
  ``battlefield``, ``build squares`` and ``motherships``.  Each tile's class names its kind.
- **Object layers** hold the elements, one object each, named by the element's id, its class
  the kind (``row``, ``launch_zone``, ``mothership``, ``build_squares``): a polyline through
  the centres of its cells in order (a point for one cell), its fields as properties (a row's
  ``line``, ``label`` and ``current``; a zone's ``track`` and ``json:cells``; a Mothership's
  ``player``, ``hp``, ``json:squares`` and ``json:build_squares``).
- A **labels** layer of text objects shows each row's 2d6 total beside the row and each
  Mothership's player and HP, for people looking at the map.
- **Map properties**: ``json:arena`` (the arena's other fields: name, units, grid, floor,
  symmetry, scenario), ``system``, ``cell_mm`` (the printed cell size), ``px_per_cell``, and for
  the pit ``floor`` and ``hex_orientation``.

Reading (:func:`read`): a map we wrote comes back as the same arena: the cells from the first
tile layer (whatever tiles are painted on it: paint or erase cells in Tiled), the elements from
their objects' properties; an element's cells are recomputed from where its object's points
now lie when it was moved in Tiled.
"""

from __future__ import annotations

import json
from typing import Any

from schema.formats.base import DEFAULT_PX_PER_LENGTH, ExportResult, FormatError
from schema.formats.grid_games import GLIDER_PIT, GridElement, GridPicture, picture_of
from schema.formats.tiled_grid import TiledHexGrid, TiledSquareGrid, tiled_hex_grid, tiled_square_grid
from schema.formats.tileset_png import tileset_png

Doc = dict[str, Any]
Grid = TiledHexGrid | TiledSquareGrid
DEFAULT_TILESET = "arena.tiles.png"


def tiled_grid(p: GridPicture, px: int) -> Grid:
    """The Tiled grid of a picture, ``px`` pixels across a cell (the flats of a hex)."""
    if p.shape == "hex":
        return tiled_hex_grid(p.cells, p.orientation or "pointy", px)
    return tiled_square_grid(p.cells, px)


def cell_center(g: Grid, cell: tuple[int, int]) -> tuple[float, float]:
    """Tiled's pixel position (y down) of a cell's centre."""
    return g.tile_center_px(*g.to_offset(cell))


def _tileset(p: GridPicture, g: Grid, image: str) -> tuple[Doc, bytes]:
    side = g.hexsidelength if isinstance(g, TiledHexGrid) else 0
    shape = "square" if isinstance(g, TiledSquareGrid) else ("hex-y" if g.staggeraxis == "y" else "hex-x")
    png = tileset_png([(t.fill, t.stroke, t.opacity) for t in p.tiles], g.tilewidth, g.tileheight, shape, side)
    n = len(p.tiles)
    return {"firstgid": 1, "name": f"{p.system} cells", "tilewidth": g.tilewidth, "tileheight": g.tileheight,
            "tilecount": n, "columns": n, "image": image, "imagewidth": g.tilewidth * n,
            "imageheight": g.tileheight, "margin": 0, "spacing": 0,
            "tiles": [{"id": i, "type": t.name} for i, t in enumerate(p.tiles)]}, png


def _object(e: GridElement, g: Grid, oid: int, prop: Any) -> Doc | None:
    pts = [cell_center(g, c) for c in e.cells]
    if not pts:
        return None
    x0, y0 = pts[0]
    obj: Doc = {"id": oid, "name": str(e.doc.get("id", e.kind)), "type": e.kind, "visible": True,
                "x": x0, "y": y0, "width": 0, "height": 0, "rotation": 0}
    if len(pts) == 1:
        obj["point"] = True
    else:
        obj["polyline"] = [{"x": x - x0, "y": y - y0} for x, y in pts]
    obj["properties"] = [prop(k, v) for k, v in e.doc.items() if k != "id"]
    return obj


def _losses(p: GridPicture, g: Grid, image: str, unplaced: list[GridElement]) -> list[str]:
    out = [f"the tileset image {image} must stay beside the map: Tiled draws the cells from it"]
    if p.system == GLIDER_PIT:
        out.append("row totals, air-current restrictions, launch zones' Airspeed Tracks and the FLOOR level are "
                   "properties (the row totals also text labels): Tiled has no slots for them")
    else:
        out.append("Mothership hit points and players are properties (and text labels): Tiled has no slots for them")
    if isinstance(g, TiledHexGrid):
        out.append(f"hexes are {g.tilewidth} x {g.tileheight} px tiles with {g.hexsidelength} px sides (Tiled's sizes "
                   f"are whole, even pixels); the printed hex ({p.cell_mm:g} mm across the flats) is the map property "
                   "cell_mm")
    for e in unplaced:
        out.append(f"{e.kind.replace('_', ' ')} {e.doc.get('id')} lies on no cell: it is only in the map property "
                   "json:unplaced")
    return out


def write(arena: Any, px: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
          suffix: str | None = None) -> ExportResult:
    """The Tiled map (TMJ, or TMX when ``suffix`` is ``.tmx``) of a grid arena, its tileset
    image in ``files`` under ``image_name``."""
    from schema.formats import tmx
    from schema.formats.tiled import MAP_VERSION, TILED_VERSION, _prop

    p = picture_of(arena)
    g = tiled_grid(p, px)
    image = image_name or DEFAULT_TILESET
    tileset, png = _tileset(p, g, image)
    layers: list[Doc] = []
    for tl in p.layers:
        data = [0] * (g.width * g.height)
        for c in tl.cells:
            col, row = g.to_offset(c)
            data[row * g.width + col] = tl.tile + 1
        layers.append({"id": len(layers) + 1, "name": tl.name, "type": "tilelayer", "width": g.width,
                       "height": g.height, "x": 0, "y": 0, "opacity": 1, "visible": True, "data": data})
    next_id, unplaced = 1, []
    groups: dict[str, list[Doc]] = {}
    for e in p.elements:
        obj = _object(e, g, next_id, _prop)
        if obj is None:
            unplaced.append(e)
            continue
        groups.setdefault(e.layer, []).append(obj)
        next_id += 1
    labels = []
    for lab in p.labels:
        xs, ys = zip(*(cell_center(g, c) for c in lab.cells))
        labels.append({"id": next_id, "name": "", "type": "label", "visible": True, "rotation": 0,
                       "x": min(xs) - g.tilewidth / 2, "y": min(ys) - g.tileheight / 2,
                       "width": max(xs) - min(xs) + g.tilewidth, "height": max(ys) - min(ys) + g.tileheight,
                       "text": {"text": lab.text, "pixelsize": max(8, g.tileheight // 4), "wrap": True,
                                "halign": "center", "valign": "center"}})
        next_id += 1
    for name, objects in (*groups.items(), ("labels", labels)):
        layers.append({"id": len(layers) + 1, "name": name, "type": "objectgroup", "draworder": "index",
                       "opacity": 1, "visible": True, "x": 0, "y": 0, "objects": objects})
    props = [_prop("arena", p.meta), _prop("system", p.system), _prop("cell_mm", p.cell_mm), _prop("px_per_cell", px)]
    if p.system == GLIDER_PIT:
        props += [_prop("floor", p.meta.get("floor", "standard")), _prop("hex_orientation", p.orientation)]
    if unplaced:
        props.append(_prop("unplaced", [{"kind": e.kind, **e.doc} for e in unplaced]))
    attrs = {k: (v if k in ("orientation", "renderorder", "staggeraxis", "staggerindex") else int(v))
             for k, v in g.attributes().items()}
    tmj: Doc = {"type": "map", "version": MAP_VERSION, "tiledversion": TILED_VERSION, **attrs,
                "compressionlevel": -1, "infinite": False, "nextlayerid": len(layers) + 1, "nextobjectid": next_id,
                "class": "arena-studio", "properties": props, "tilesets": [tileset], "layers": layers}
    losses = _losses(p, g, image, unplaced)
    if (suffix or "").lower() == ".tmx":
        return ExportResult(tmx.dumps(tmj), losses, {image: png})
    return ExportResult((json.dumps(tmj, indent=1) + "\n").encode("utf-8"), losses, {image: png})


__all__ = ["DEFAULT_TILESET", "cell_center", "tiled_grid", "write"]
