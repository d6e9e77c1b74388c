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
from typing import Any, Literal

from schema.formats.base import DEFAULT_PX_PER_LENGTH, ExportResult, FormatError
from schema.formats.grid_games import GridElement, GridPicture, GridProfile, grid_profile
from schema.ruleset import ArenaModel
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
    shape: Literal["hex-x", "hex-y", "square"] = (
        "square" if isinstance(g, TiledSquareGrid) else ("hex-y" if g.staggeraxis == "y" else "hex-x"))
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


def _losses(prof: GridProfile, p: GridPicture, g: Grid, image: str, unplaced: list[GridElement]) -> list[str]:
    out = [f"the tileset image {image} must stay beside the map: Tiled draws the cells from it", prof.tiled_note]
    if isinstance(g, TiledHexGrid):
        out.append(f"hexes are {g.tilewidth} x {g.tileheight} px tiles with {g.hexsidelength} px sides (Tiled's sizes "
                   f"are whole, even pixels); the printed hex ({p.cell_mm:g} mm across the flats) is the map property "
                   "cell_mm")
    for e in unplaced:
        out.append(f"{e.kind.replace('_', ' ')} {e.doc.get('id')} lies on no cell: it is only in the map property "
                   "json:unplaced")
    return out


def write(arena: ArenaModel, px: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
          suffix: str | None = None) -> ExportResult:
    """The Tiled map (TMJ, or TMX when ``suffix`` is ``.tmx``) of a grid arena, its tileset
    image in ``files`` under ``image_name``."""
    from schema.formats import tmx
    from schema.formats.tiled import MAP_VERSION, TILED_VERSION, tiled_prop as _prop

    prof = grid_profile(arena.system)
    if prof is None:
        raise FormatError(f"{arena.system!r} is not a grid game")
    p = prof.picture(prof.to_document(arena))
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
    frame = [g.col_shift, g.row_top] if isinstance(g, TiledHexGrid) else [g.x0, g.y_top]
    props = [_prop("arena", p.meta), _prop("system", p.system), _prop("cell_mm", p.cell_mm), _prop("px_per_cell", px),
             _prop("frame", frame)]
    props += [_prop(name, value) for name, value in prof.tiled_props(p)]
    if unplaced:
        props.append(_prop("unplaced", [{"kind": e.kind, **e.doc} for e in unplaced]))
    attrs = {k: (v if k in ("orientation", "renderorder", "staggeraxis", "staggerindex") else int(v))
             for k, v in g.attributes().items()}
    tmj: Doc = {"type": "map", "version": MAP_VERSION, "tiledversion": TILED_VERSION, **attrs,
                "compressionlevel": -1, "infinite": False, "nextlayerid": len(layers) + 1, "nextobjectid": next_id,
                "class": "arena-studio", "properties": props, "tilesets": [tileset], "layers": layers}
    losses = _losses(prof, p, g, image, unplaced)
    if (suffix or "").lower() == ".tmx":
        return ExportResult(tmx.dumps(tmj), losses, {image: png})
    return ExportResult((json.dumps(tmj, indent=1) + "\n").encode("utf-8"), losses, {image: png})


# ------------------------------------------------------------------ reading


#: Tiled keeps a tile's flips in the top bits of its global id.
GID_MASK = 0x0FFFFFFF


def gids(layer: Doc, where: str) -> list[int]:
    """A tile layer's global tile ids (TMJ arrays, CSV already read, or base64 with or
    without zlib/gzip), flip bits cleared."""
    import base64
    import gzip
    import zlib

    data = layer.get("data")
    if isinstance(data, str) and layer.get("encoding") == "base64":
        try:
            raw = base64.b64decode(data)
            compression = layer.get("compression") or ""
            if compression == "zlib":
                raw = zlib.decompress(raw)
            elif compression == "gzip":
                raw = gzip.decompress(raw)
            elif compression:
                raise FormatError(f"{where}: tile data compressed with {compression!r} cannot be read: save the map "
                                  "with CSV or zlib tile layer data")
        except (ValueError, zlib.error, OSError) as exc:
            raise FormatError(f"{where}: tile data is not valid base64: {exc}") from None
        data = [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw) - 3, 4)]
    if not isinstance(data, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in data):
        raise FormatError(f"{where}: tile layer data must be a list of tile ids")
    return [v & GID_MASK for v in data]


def _grid_of(tmj: Doc, props: Doc, prof: GridProfile, meta: Doc, source: str) -> Grid:
    from schema.formats.tiled import read_whole as _whole

    where = f"{source}: map"
    frame = props.get("frame")
    if not (isinstance(frame, list) and len(frame) == 2 and all(isinstance(v, int) for v in frame)):
        raise FormatError(f"{where}: property json:frame (the cell at the map's corner) is missing or not two whole "
                          "numbers: was the map written by arena export?")
    w, h = _whole(tmj, "width", where), _whole(tmj, "height", where)
    tw, th = _whole(tmj, "tilewidth", where), _whole(tmj, "tileheight", where)
    if prof.grid != "hex":
        if tmj.get("orientation", "orthogonal") != "orthogonal":
            raise FormatError(f"{where}: a {prof.system} map is orthogonal, not {tmj.get('orientation')!r}")
        return TiledSquareGrid(w, h, tw, th, frame[0], frame[1])
    orientation = (meta.get("grid") or {}).get("orientation", "pointy")
    axis: Literal["x", "y"] = "y" if orientation == "pointy" else "x"
    index = tmj.get("staggerindex")
    if tmj.get("orientation") != "hexagonal" or tmj.get("staggeraxis") != axis or index not in ("odd", "even"):
        raise FormatError(f"{where}: the pit's {orientation} hexes need a hexagonal map staggered along {axis} "
                          f"(Map Properties: Orientation Hexagonal, Stagger Axis {axis.upper()}), got "
                          f"{tmj.get('orientation')!r} staggered along {tmj.get('staggeraxis')!r}")
    return TiledHexGrid(axis, "odd" if index == "odd" else "even", w, h, tw, th, _whole(tmj, "hexsidelength", where),
                        frame[0], frame[1])


def _cells_at(g: Grid, points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """The cell whose tile centre is nearest each point (Tiled's pixels)."""
    centres = [((c, r), g.tile_center_px(c, r)) for r in range(g.height) for c in range(g.width)]
    out = []
    for x, y in points:
        (col, row), _ = min(centres, key=lambda t: (t[1][0] - x) ** 2 + (t[1][1] - y) ** 2)
        out.append(g.from_offset(col, row))
    return out


def _points(obj: Doc, where: str) -> list[tuple[float, float]]:
    from schema.formats.tiled import read_number as _numeric, read_points as tiled_points

    x, y = _numeric(obj, "x", where), _numeric(obj, "y", where)
    if "polyline" in obj or "polygon" in obj:
        return [(x + px, y + py) for px, py in tiled_points(obj, "polyline" if "polyline" in obj else "polygon", where)]
    return [(x, y)]


def read(tmj: Doc, props: Doc, source: str, warnings: list[str] | None, prof: GridProfile) -> ArenaModel:
    """The grid arena of a map :func:`write` wrote (and Tiled may have edited): the cells are
    the tiles painted on the first tile layer; each element comes from its object's
    properties, its cells from where the object's points are when it was moved."""
    from schema.formats.common import warn
    from schema.formats.tiled import read_props as _unprops

    meta = dict(props["arena"])
    system = prof.system
    g = _grid_of(tmj, props, prof, meta, source)
    layers = [layer for layer in tmj.get("layers", []) if isinstance(layer, dict)]
    tile_layers = [layer for layer in layers if layer.get("type") == "tilelayer"]
    if not tile_layers:
        raise FormatError(f"{source}: no tile layer: the {prof.cells_layer} "
                          "are the tiles painted on the map's first tile layer")
    data = gids(tile_layers[0], f"{source}: layer {tile_layers[0].get('name')!r}")
    if len(data) != g.width * g.height:
        raise FormatError(f"{source}: layer {tile_layers[0].get('name')!r} has {len(data)} tiles, the map "
                          f"{g.width} x {g.height}")
    cells = [list(g.from_offset(i % g.width, i // g.width)) for i, gid in enumerate(data) if gid]
    lists: dict[str, list[Doc]] = {kind: [] for kind, _ in prof.lists}
    derived: dict[str, list[tuple[Doc, list[list[int]]]]] = {kind: [] for kind in prof.derived}
    for layer in layers:
        if layer.get("type") != "objectgroup":
            continue
        for obj in layer.get("objects", []):
            kind = obj.get("type") or obj.get("class")
            where = f"{source}: layer {layer.get('name')!r}, object {obj.get('name')!r}"
            if kind == "label" or "text" in obj:
                continue
            if kind not in (*lists, *derived):
                warn(warnings, f"{where}: skipped: its class {kind!r} is not a {system} element")
                continue
            doc = _unprops(obj.get("properties"), where)
            doc = {"id": obj.get("name") or f"{kind}{obj.get('id')}", **doc}
            at = [list(c) for c in _cells_at(g, _points(obj, where))]
            if kind in derived:
                derived[kind].append((doc, at))
                continue
            prof.place(kind, doc, at, meta, where, warnings)
            lists[kind].append(doc)
    return prof.build(prof.assemble(meta, cells, lists, derived, source, warnings), source)


__all__ = ["DEFAULT_TILESET", "cell_center", "gids", "read", "tiled_grid", "write"]
