"""Tiled maps: JSON (``.tmj``/``.json``) and XML (``.tmx``), one object layer per element kind,
our fields as properties.

Geometry follows Tiled's conventions (pixels, y down, rotation clockwise in degrees about the
object's origin): circles are ellipse objects, rectangles rectangle objects, polygons and thick
walls polygon/polyline objects, gates two-point polylines, targets and starts point objects.
Every object carries its element document as properties (scalars typed, structured values as
JSON strings named ``json:FIELD``) except the element's id, which is the object's name (a
property called ``id`` would clash with Tiled's own object id: PyTMX refuses such maps).  The
map carries the rest of the arena (``json:arena``) and the pixel frame (``px_per_length``,
``origin_x``, ``origin_y``).

Reading: where an object's geometry is still what we wrote (within 0.01 px: Tiled writes TMX
numbers to six digits), the exact values from the properties are used, so
``read(write(arena)) == arena`` also after Tiled re-saves the map; objects moved, reshaped or
drawn in Tiled get their geometry from Tiled.  Maps drawn in Tiled without us are read too:
an object's kind is its class (``type``) or its layer's name (``walls``, ``wall``...); layer
offsets, rotated polygons and ellipses, tile objects (anchored at their bottom-left corner) and
objects inside group layers land where Tiled shows them; hidden layers and objects, text
objects, tile and image layers and objects of no arena kind are skipped with a warning.
Isometric, staggered and hexagonal maps are refused, as are maps without a bounds object.
Without our frame properties one tile is one length and the map's centre is (0, 0).
"""

from __future__ import annotations

import json
import math
from pathlib import PurePath
from typing import Any

from schema.document import num, shape_doc
from schema.formats import tmx
from schema.formats.base import DEFAULT_PX_PER_LENGTH, Canvas, Capabilities, ExportResult, FormatError, canvas, close_enough
from schema.formats.common import as_circle, join, label, load_json, split, warn
from schema.formats.grid_games import GridProfile, grid_profile, is_grid
from schema.formats.systems import Doc, ExportProfile, profile, profile_of, unnamed_system
from schema.ruleset import ArenaModel, rulesets
from schema.shapes import Circle, Point, Polygon, Polyline, Rect

TILED_VERSION = "1.10.2"
MAP_VERSION = "1.10"


def layer_names(prof: ExportProfile) -> dict[str, str]:
    """Kind -> object layer name of a game (``walls``, ``obstacles``...)."""
    return {"bounds": "bounds", **{kind: key for kind, key in prof.lists}}


def layer_kinds(prof: ExportProfile) -> dict[str, str]:
    """Layer names (lower case) that give their objects a kind: ``walls``, ``wall``,
    ``start_positions``..."""
    names = layer_names(prof)
    return {**{v: k for k, v in names.items()}, **{k: k for k in names}}
TOL_PX = 1e-2
#: The element id travels as the object's name; never as a property (Tiled's own ``id``).
NOT_PROPERTIES = ("id",)
#: Attributes of a Tiled object (PyTMX refuses properties named like them): fields of ours with
#: these names (a hazard's ``name``, a card's ``rotation``) travel as ``field:NAME``.
RESERVED = frozenset({"name", "type", "class", "x", "y", "width", "height", "rotation", "gid", "visible", "closed",
                      "template", "points", "image", "properties", "parent", "color", "opacity", "offsetx", "offsety"})


def tiled_prop(name: str, value: Any) -> Doc:
    if name in RESERVED:
        name = f"field:{name}"
    if isinstance(value, bool):
        return {"name": name, "type": "bool", "value": value}
    if isinstance(value, int):
        return {"name": name, "type": "int", "value": value}
    if isinstance(value, float):
        return {"name": name, "type": "float", "value": value}
    if isinstance(value, str):
        return {"name": name, "type": "string", "value": value}
    return {"name": f"json:{name}", "type": "string", "value": json.dumps(value, sort_keys=False)}


def read_props(props: Any, where: str) -> Doc:
    if props is None:
        return {}
    if not isinstance(props, list):
        raise FormatError(f"{where}: properties must be a list, got {type(props).__name__}")
    out: Doc = {}
    for i, p in enumerate(props):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or "value" not in p:
            raise FormatError(f"{where}: property {i} needs a 'name' and a 'value', got {p!r}"[:300])
        name, value = p["name"], p["value"]
        name = name.removeprefix("field:")
        if name.startswith("json:"):
            try:
                out[name[5:].removeprefix("field:")] = json.loads(value)
            except (TypeError, json.JSONDecodeError) as exc:
                raise FormatError(f"{where}: property {name!r} is not JSON: {exc}") from None
        else:
            out[name] = value
    return out


def _r(v: float) -> float:
    return round(v, 6) + 0.0


def geometry(kind: str, doc: Doc, cv: Canvas, prof: ExportProfile) -> Doc:
    """The Tiled geometry fields of an element of ``prof``'s game (x, y, width, height,
    rotation, ...)."""
    if prof.is_point(kind):
        x, y = cv.to_px(tuple(doc["position"]))
        return {"x": _r(x), "y": _r(y), "width": 0, "height": 0, "rotation": 0, "point": True}
    if prof.is_segment(kind):
        return _poly_geom([tuple(doc["from"]), tuple(doc["to"])], cv, "polyline")
    s = prof.shape_of(kind, doc)
    if isinstance(s, Circle):
        x, y = cv.to_px((s.center[0] - s.radius, s.center[1] + s.radius))
        d = 2 * s.radius * cv.px
        return {"x": _r(x), "y": _r(y), "width": _r(d), "height": _r(d), "rotation": 0, "ellipse": True}
    if isinstance(s, Rect):
        x, y = cv.to_px(s.corners()[3])  # top-left of the unrotated rectangle
        return {"x": _r(x), "y": _r(y), "width": _r(s.size[0] * cv.px), "height": _r(s.size[1] * cv.px),
                "rotation": _r((-s.rotation) % 360.0)}
    if isinstance(s, Polygon):
        return _poly_geom(list(s.points), cv, "polygon")
    return _poly_geom(list(s.points), cv, "polyline")


def _poly_geom(points: list[Point], cv: Canvas, key: str) -> Doc:
    px = [cv.to_px(p) for p in points]
    x0, y0 = px[0]
    return {"x": _r(x0), "y": _r(y0), "width": 0, "height": 0, "rotation": 0,
            key: [{"x": _r(x - x0), "y": _r(y - y0)} for x, y in px]}


# ------------------------------------------------------------------ reading Tiled objects


def read_number(holder: Doc, key: str, where: str, default: float = 0.0) -> float:
    v = holder.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise FormatError(f"{where}: {key} must be a number, got {v!r}"[:300])
    return float(v)


def read_whole(holder: Doc, key: str, where: str, default: int | None = None) -> int:
    v = holder.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not float(v).is_integer():
        raise FormatError(f"{where}: {key} must be a whole number, got {v!r}"[:300])
    return int(v)


def read_points(obj: Doc, key: str, where: str) -> list[tuple[float, float]]:
    raw = obj[key]
    if not isinstance(raw, list):
        raise FormatError(f"{where}: {key} must be a list of points, got {type(raw).__name__}")
    out = []
    for i, p in enumerate(raw):
        if not isinstance(p, dict):
            raise FormatError(f"{where}: {key} point {i} must be an object with x and y, got {p!r}"[:300])
        out.append((read_number(p, "x", f"{where}: {key} point {i}", math.nan), read_number(p, "y", f"{where}: {key} point {i}", math.nan)))
    return out


def _rotate(x: float, y: float, deg: float) -> tuple[float, float]:
    """Rotate by ``deg`` clockwise on screen (y down), as Tiled rotates about an object's origin."""
    a = math.radians(deg)
    return (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a))


def _derive(kind: str, obj: Doc, stored: Doc, cv: Canvas, where: str, warnings: list[str] | None,
            prof: ExportProfile) -> Doc:
    """Our geometry fields from a Tiled object's own geometry (offsets already applied); a
    card's or token's rectangle (a barrel's circle) becomes its position, size and rotation."""
    out = _derive_shape(kind, obj, stored, cv, where, warnings, prof)
    if kind in prof.posed and "shape" in out:
        from schema.document import shape_from

        try:
            return prof.pose_fields(kind, shape_from(out["shape"]), stored)
        except FormatError as exc:
            raise FormatError(f"{where}: {exc}") from None
    return out


def _derive_shape(kind: str, obj: Doc, stored: Doc, cv: Canvas, where: str, warnings: list[str] | None,
                  prof: ExportProfile) -> Doc:
    x, y = read_number(obj, "x", where), read_number(obj, "y", where)
    w, h = read_number(obj, "width", where), read_number(obj, "height", where)
    rot = read_number(obj, "rotation", where)

    def at(dx: float, dy: float) -> list[float]:
        rx, ry = _rotate(dx, dy, rot)
        return [_r(v) for v in cv.from_px(x + rx, y + ry)]

    if prof.is_point(kind):
        if "gid" in obj or w or h:  # a shape standing for a position: its centre
            return {"position": at(w / 2, -h / 2 if "gid" in obj else h / 2)}
        return {"position": at(0.0, 0.0)}
    if prof.is_segment(kind):
        if "polyline" not in obj or len(read_points(obj, "polyline", where)) != 2:
            raise FormatError(f"{where}: a {kind} is a polyline object with exactly two points")
        a, b = (at(px, py) for px, py in read_points(obj, "polyline", where))
        return {"from": a, "to": b}
    if "polygon" in obj:
        ring = [(p[0], p[1]) for p in (at(px, py) for px, py in read_points(obj, "polygon", where))]
        if len(ring) < 3:
            raise FormatError(f"{where}: a polygon needs at least three points, got {len(ring)}")
        circle = as_circle(ring)
        if circle is not None:
            warn(warnings, f"{where}: a {len(ring)}-point polygon read back as a circle of radius {circle.radius:g}")
            return {"shape": shape_doc(circle)}
        return {"shape": shape_doc(Polygon(tuple(ring)))}
    if "polyline" in obj:
        old = stored.get("shape", {})
        thickness = old.get("thickness", 0.5) if isinstance(old, dict) else 0.5
        line = [(p[0], p[1]) for p in (at(px, py) for px, py in read_points(obj, "polyline", where))]
        if len(line) < 2:
            raise FormatError(f"{where}: a polyline needs at least two points, got {len(line)}")
        return {"shape": shape_doc(Polyline(tuple(line), float(thickness)))}
    if obj.get("point") or w <= 0 or h <= 0:
        raise FormatError(f"{where}: a {kind} needs an area (rectangle, ellipse, polygon or tile object), "
                          f"got {'a point' if obj.get('point') else f'{w:g} x {h:g} px'}")
    if obj.get("ellipse"):
        if abs(w - h) > TOL_PX:
            raise FormatError(f"{where}: ellipses must be circles (width = height), got {w:g} x {h:g} px")
        c = at(w / 2, h / 2)
        return {"shape": shape_doc(Circle((c[0], c[1]), _r(w / 2 / cv.px)))}
    # rectangles hang down from their top-left origin; tile objects stand up from their bottom-left one
    c = at(w / 2, -h / 2 if "gid" in obj else h / 2)
    return {"shape": shape_doc(Rect((c[0], c[1]), (_r(w / cv.px), _r(h / cv.px)), _r((-rot) % 360.0)))}


def _same_geometry(ours: Doc, obj: Doc) -> bool:
    return all(close_enough(ours[k], obj.get(k, 0 if k in ("width", "height", "rotation") else None), TOL_PX)
               for k in ours if k not in ("point", "ellipse"))


def _unread_orientation(source: str, orientation: Any, meta: Any) -> str:
    """Why a map that is not orthogonal (and not one of our grid maps) is not read, and what is
    (the installed hex-grid games' maps, named by their rulesets)."""
    hexes = [rs for rs in rulesets().values() if rs.grid == "hex" and rs.exports is not None]
    ours = "; ".join(f"{rs.game} pits are read from the hexagonal maps `arena export --to tiled` writes, "
                     f"recognised by their map properties json:arena (with \"system\": \"{rs.id}\") and json:frame "
                     "(the hex at the map's corner)" for rs in hexes) or "no installed game is read from hexagonal maps"
    if orientation != "hexagonal":
        return (f"{source}: {orientation!r} maps are not read: arenas are read from orthogonal maps (Map > Map "
                f"Properties > Orientation); {ours}")
    system = meta.get("system") if isinstance(meta, dict) else None
    has = (f"its json:arena says \"system\": {json.dumps(system)}" if system is not None
           else "it has a json:arena without \"system\"" if isinstance(meta, dict) else "it has no json:arena property")
    return (f"{source}: this hexagonal map is not read: it is not a pit Arena Studio wrote ({has}). {ours}; "
            "other hexagonal maps (Tiled's own examples, a pit drawn from scratch) are not: export a pit with Arena "
            "Studio and paint or erase its hexes in Tiled. The other games' arenas are read from orthogonal maps "
            "(Map > Map Properties > Orientation)")


class _Reader:
    """One map's import: the frame, the walk through (group) layers, the warnings."""

    def __init__(self, tmj: Doc, source: str, warnings: list[str] | None) -> None:
        self.source, self.warnings = source, warnings
        where = f"{source}: map"
        self.props = read_props(tmj.get("properties"), where)
        orientation = tmj.get("orientation", "orthogonal")
        if orientation != "orthogonal":
            raise FormatError(_unread_orientation(source, orientation, self.props.get("arena")))
        meta = self.props.get("arena")
        self.prof = profile(meta.get("system") if isinstance(meta, dict) else None)
        self.layer_kinds = layer_kinds(self.prof)
        tw, th = read_whole(tmj, "tilewidth", where, DEFAULT_PX_PER_LENGTH), read_whole(tmj, "tileheight", where, DEFAULT_PX_PER_LENGTH)
        cols, rows = read_whole(tmj, "width", where, 1), read_whole(tmj, "height", where, 1)
        px = self.props.get("px_per_length")
        if px is None:
            if tw != th or tw <= 0:
                raise FormatError(f"{where}: tiles are {tw} x {th} px; one tile is one length, so tiles must be "
                                  "square (or set the map property px_per_length)")
            px = tw
        if isinstance(px, bool) or not isinstance(px, (int, float)) or px <= 0 or not float(px).is_integer():
            raise FormatError(f"{where}: property px_per_length must be a positive whole number, got {px!r}")
        origin_x, origin_y = self.props.get("origin_x", -cols / 2), self.props.get("origin_y", rows / 2)
        for key, v in (("origin_x", origin_x), ("origin_y", origin_y)):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise FormatError(f"{where}: property {key} must be a number, got {v!r}")
        self.cv = Canvas(float(origin_x), float(origin_y), max(1, cols), max(1, rows), int(px))
        self.items: list[tuple[str, Doc]] = []
        self.objects = 0

    def where(self, path: str, holder: Doc, what: str) -> str:
        line = holder.get(tmx.LINE)
        return f"{self.source}: {f'line {line}' if line else path} ({what})"

    def layers(self, layers: Any, path: str, dx: float, dy: float) -> None:
        if not isinstance(layers, list):
            raise FormatError(f"{self.source}: {path} must be a list of layers, got {type(layers).__name__}")
        for i, layer in enumerate(layers):
            lpath = f"{path}/{i}"
            if not isinstance(layer, dict):
                raise FormatError(f"{self.source}: {lpath} must be a layer object, got {type(layer).__name__}")
            name = str(layer.get("name", ""))
            where = self.where(lpath, layer, f"layer {name!r}")
            kind = layer.get("type")
            if not layer.get("visible", True):
                warn(self.warnings, f"{where}: hidden layer skipped")
                continue
            ox, oy = dx + read_number(layer, "offsetx", where), dy + read_number(layer, "offsety", where)
            if kind == "group":
                self.layers(layer.get("layers", []), f"{lpath}/layers", ox, oy)
            elif kind == "objectgroup":
                objects = layer.get("objects", [])
                if not isinstance(objects, list):
                    raise FormatError(f"{where}: objects must be a list, got {type(objects).__name__}")
                for j, obj in enumerate(objects):
                    self.object(obj, f"{lpath}/objects/{j}", name, ox, oy)
            elif kind in ("tilelayer", "imagelayer"):
                warn(self.warnings, f"{where}: {'tile' if kind == 'tilelayer' else 'image'} layer skipped (arena "
                                    "elements are read from object layers)")
            else:
                raise FormatError(f"{where}: unknown layer type {kind!r}")

    def object(self, obj: Any, path: str, layer: str, dx: float, dy: float) -> None:
        if not isinstance(obj, dict):
            raise FormatError(f"{self.source}: {path} must be an object, got {type(obj).__name__}")
        self.objects += 1
        where = self.where(path, obj, f"layer {layer!r}, object {obj.get('id')} {obj.get('name', '')!r}")
        if "template" in obj:
            raise FormatError(f"{where}: template objects cannot be read: detach them first "
                              "(tiled --export-map --detach-templates, or Detach in Tiled)")
        if obj.get("visible", True) is False:
            warn(self.warnings, f"{where}: hidden object skipped")
            return
        if "text" in obj:
            warn(self.warnings, f"{where}: text object skipped (text is not an arena element)")
            return
        explicit = obj.get("type") or obj.get("class") or ""
        kind = explicit or self.layer_kinds.get(layer.strip().lower().replace(" ", "_"), "")
        geometry_fields = self.prof.geometry
        if kind not in geometry_fields:
            why = f"its class {explicit!r} is not" if explicit else f"it has no class and its layer {layer!r} is not"
            warn(self.warnings, f"{where}: skipped: {why} {self.prof.kind_owner} "
                                f"kind ({', '.join(geometry_fields)})")
            return
        doc = read_props(obj.get("properties"), where)
        name = obj.get("name")
        if kind not in ("bounds", "start_position"):
            doc.setdefault("id", name if isinstance(name, str) and name else f"{kind}{obj.get('id')}")
        placed = dict(obj, x=read_number(obj, "x", where) + dx, y=read_number(obj, "y", where) + dy)
        keep = all(f in doc for f in geometry_fields[kind]) and "gid" not in obj
        if keep:
            try:
                keep = _same_geometry(geometry(kind, doc, self.cv, self.prof), placed)
            except (FormatError, KeyError, TypeError, ValueError, IndexError):
                keep = False
        if not keep:
            doc.update(_derive(kind, placed, doc, self.cv, where, self.warnings, self.prof))
        self.items.append((kind, {k: (num(v) if isinstance(v, float) else v) for k, v in doc.items()}))

    def arena(self) -> ArenaModel:
        if not self.objects:
            raise FormatError(f"{self.source}: the map has no objects: arenas are read from object layers (a bounds "
                              "object, walls, checkpoints...); tile layers cannot be imported")
        if not any(k == "bounds" for k, _ in self.items):
            raise FormatError(f"{self.source}: no bounds object: draw the arena's outline as a rectangle, ellipse or "
                              "polygon of class 'bounds' (or in a layer named 'bounds')")
        meta = self.props.get("arena")
        if not isinstance(meta, dict):
            name = self.props.get("name") if isinstance(self.props.get("name"), str) else PurePath(self.source).stem
            meta = {"format": "arena-studio/1", "system": unnamed_system(), "name": name or "imported"}
            warn(self.warnings, f"{self.source}: no arena properties (json:arena): named {meta['name']!r}; units, "
                                "scenario, turbine and symmetry take their defaults")
        return join(meta, self.items, source=self.source)


class TiledFormat:
    name: str = "tiled"
    extensions: tuple[str, ...] = (".tmj", ".tmx", ".json")
    capabilities: Capabilities = Capabilities(read=True, write=True)

    def write(self, arena: ArenaModel, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None,
              suffix: str | None = None) -> ExportResult:
        if is_grid(arena):
            from schema.formats import grid_tiled

            return grid_tiled.write(arena, px_per_length, image_name, suffix)
        cv = canvas(arena, px_per_length)
        meta, items = split(arena)
        prof = profile_of(arena)
        names = layer_names(prof)
        layers: list[Doc] = []
        next_id = 1
        for layer_id, kind in enumerate(names, start=1):
            objects = []
            for k, doc in items:
                if k != kind:
                    continue
                obj: Doc = {"id": next_id, "name": label(k, doc), "type": k, "visible": True}
                obj.update(geometry(k, doc, cv, prof))
                obj["properties"] = [tiled_prop(name, v) for name, v in doc.items() if name not in NOT_PROPERTIES]
                objects.append(obj)
                next_id += 1
            layers.append({"id": layer_id, "name": names[kind], "type": "objectgroup", "draworder": "index",
                           "opacity": 1, "visible": True, "x": 0, "y": 0, "objects": objects})
        tmj: Doc = {
            "type": "map", "version": MAP_VERSION, "tiledversion": TILED_VERSION, "orientation": "orthogonal",
            "renderorder": "right-down", "compressionlevel": -1, "infinite": False,
            "width": cv.cols, "height": cv.rows, "tilewidth": cv.px, "tileheight": cv.px,
            "nextlayerid": len(layers) + 1, "nextobjectid": next_id, "layers": layers, "tilesets": [],
            "class": "arena-studio",
            "properties": [tiled_prop("arena", meta), tiled_prop("origin_x", float(cv.left)), tiled_prop("origin_y", float(cv.top)),
                           tiled_prop("px_per_length", cv.px)],
        }
        losses = prof.tiled_losses(arena, items)
        if (suffix or "").lower() == ".tmx":
            return ExportResult(tmx.dumps(tmj), losses)
        return ExportResult((json.dumps(tmj, indent=1) + "\n").encode("utf-8"), losses)

    def read(self, data: bytes, *, source: str = "<tmj>", warnings: list[str] | None = None) -> ArenaModel:
        if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
            tmj = tmx.loads(data, source)
        else:
            tmj = load_json(data, source)
        if not isinstance(tmj, dict) or tmj.get("type") != "map":
            raise FormatError(f"{source}: not a Tiled map (\"type\": \"map\" missing)")
        props = read_props(tmj.get("properties"), f"{source}: map")
        grid = grid_profile(props["arena"].get("system")) if isinstance(props.get("arena"), dict) else None
        if grid is not None:
            from schema.formats import grid_tiled

            return grid_tiled.read(tmj, props, source, warnings, grid)
        reader = _Reader(tmj, source, warnings)
        reader.layers(tmj.get("layers", []), "/layers", 0.0, 0.0)
        return reader.arena()
