"""Tiled JSON maps (``.tmj``): one object layer per element kind, our fields as properties.

Geometry follows Tiled's conventions (pixels, y down, rotation clockwise in degrees about the
object's top-left corner): circles are ellipse objects, rectangles rectangle objects, polygons
and thick walls polygon/polyline objects, gates two-point polylines, targets and starts point
objects.  Every object also carries our element document as properties (scalars typed,
structured values as JSON strings named ``json:FIELD``), the map carries the rest of the arena
(``json:arena``) and the pixel frame (``px_per_length``, ``origin_x``, ``origin_y``).

Reading back: where an object's geometry is still what we wrote (within 1e-3 px), the exact
values from the properties are used, so ``read(write(arena)) == arena``; objects moved,
reshaped or drawn in Tiled get their geometry from Tiled.
"""

from __future__ import annotations

import json
import math
from typing import Any

from schema.document import num, shape_doc
from schema.formats.base import DEFAULT_PX_PER_LENGTH, Canvas, Capabilities, ExportResult, FormatError, canvas, close_enough
from schema.formats.common import GEOMETRY, LISTS, Doc, ids, join, label, load_json, shape_of, split
from schema.model import Arena, Circle, Point, Polygon, Polyline, Rect

TILED_VERSION = "1.10.2"
MAP_VERSION = "1.10"
LAYER_NAMES = {"bounds": "bounds", **{kind: key for kind, key in LISTS}}
TOL_PX = 1e-3


def _prop(name: str, value: Any) -> Doc:
    if isinstance(value, bool):
        return {"name": name, "type": "bool", "value": value}
    if isinstance(value, int):
        return {"name": name, "type": "int", "value": value}
    if isinstance(value, float):
        return {"name": name, "type": "float", "value": value}
    if isinstance(value, str):
        return {"name": name, "type": "string", "value": value}
    return {"name": f"json:{name}", "type": "string", "value": json.dumps(value, sort_keys=False)}


def _unprops(props: Any, where: str) -> Doc:
    out: Doc = {}
    for p in props or []:
        try:
            name, value = p["name"], p["value"]
        except (KeyError, TypeError):
            raise FormatError(f"{where}: a property needs 'name' and 'value', got {p!r}") from None
        if name.startswith("json:"):
            try:
                out[name[5:]] = json.loads(value)
            except (TypeError, json.JSONDecodeError) as exc:
                raise FormatError(f"{where}: property {name!r} is not JSON: {exc}") from None
        else:
            out[name] = value
    return out


def _r(v: float) -> float:
    return round(v, 6) + 0.0


def geometry(kind: str, doc: Doc, cv: Canvas) -> Doc:
    """The Tiled geometry fields of an element (x, y, width, height, rotation, ...)."""
    if kind in ("static_target", "start_position"):
        x, y = cv.to_px(tuple(doc["position"]))
        return {"x": _r(x), "y": _r(y), "width": 0, "height": 0, "rotation": 0, "point": True}
    if kind == "gate":
        return _poly_geom([tuple(doc["from"]), tuple(doc["to"])], cv, "polyline")
    s = shape_of(doc)
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


def _derive(kind: str, obj: Doc, stored: Doc, cv: Canvas, where: str) -> Doc:
    """Our geometry fields from a Tiled object's own geometry."""
    x, y = float(obj.get("x", 0)), float(obj.get("y", 0))

    def pts(key: str) -> list[list[float]]:
        return [[_r(v) for v in cv.from_px(x + float(p["x"]), y + float(p["y"]))] for p in obj[key]]

    if kind in ("static_target", "start_position"):
        return {"position": [_r(v) for v in cv.from_px(x, y)]}
    if kind == "gate":
        if "polyline" not in obj or len(obj["polyline"]) < 2:
            raise FormatError(f"{where}: a gate is a polyline object with two points")
        line = pts("polyline")
        return {"from": line[0], "to": line[-1]}
    w, h, rot = float(obj.get("width", 0)), float(obj.get("height", 0)), float(obj.get("rotation", 0))
    if obj.get("ellipse"):
        if abs(w - h) > TOL_PX:
            raise FormatError(f"{where}: ellipses must be circles (width = height), got {w} x {h}")
        cx, cy = cv.from_px(x + w / 2, y + h / 2)
        return {"shape": shape_doc(Circle((_r(cx), _r(cy)), _r(w / 2 / cv.px)))}
    if "polygon" in obj:
        return {"shape": shape_doc(Polygon(tuple((p[0], p[1]) for p in pts("polygon"))))}
    if "polyline" in obj:
        old = stored.get("shape", {})
        thickness = old.get("thickness", 0.5) if isinstance(old, dict) else 0.5
        return {"shape": shape_doc(Polyline(tuple((p[0], p[1]) for p in pts("polyline")), float(thickness)))}
    if obj.get("point") or w <= 0 or h <= 0:
        raise FormatError(f"{where}: a {kind} needs an area (rectangle, ellipse or polygon)")
    a = math.radians(rot)  # clockwise on screen, about the top-left corner
    cx = x + (w / 2) * math.cos(a) - (h / 2) * math.sin(a)
    cy = y + (w / 2) * math.sin(a) + (h / 2) * math.cos(a)
    c = cv.from_px(cx, cy)
    return {"shape": shape_doc(Rect((_r(c[0]), _r(c[1])), (_r(w / cv.px), _r(h / cv.px)), _r((-rot) % 360.0)))}


class TiledFormat:
    name: str = "tiled"
    extensions: tuple[str, ...] = (".tmj", ".json")
    capabilities: Capabilities = Capabilities(read=True, write=True)

    def write(self, arena: Arena, *, image_png: bytes | None = None,
              px_per_length: int = DEFAULT_PX_PER_LENGTH, image_name: str | None = None) -> ExportResult:
        cv = canvas(arena, px_per_length)
        meta, items = split(arena)
        layers: list[Doc] = []
        next_id = 1
        for layer_id, kind in enumerate(LAYER_NAMES, start=1):
            objects = []
            for k, doc in items:
                if k != kind:
                    continue
                obj: Doc = {"id": next_id, "name": label(k, doc), "type": k, "visible": True}
                obj.update(geometry(k, doc, cv))
                obj["properties"] = [_prop(name, v) for name, v in doc.items()]
                objects.append(obj)
                next_id += 1
            layers.append({"id": layer_id, "name": LAYER_NAMES[kind], "type": "objectgroup", "draworder": "index",
                           "opacity": 1, "visible": True, "x": 0, "y": 0, "objects": objects})
        tmj: Doc = {
            "type": "map", "version": MAP_VERSION, "tiledversion": TILED_VERSION, "orientation": "orthogonal",
            "renderorder": "right-down", "compressionlevel": -1, "infinite": False,
            "width": cv.cols, "height": cv.rows, "tilewidth": cv.px, "tileheight": cv.px,
            "nextlayerid": len(layers) + 1, "nextobjectid": next_id, "layers": layers, "tilesets": [],
            "class": "arena-studio",
            "properties": [_prop("arena", meta), _prop("origin_x", float(cv.left)), _prop("origin_y", float(cv.top)),
                           _prop("px_per_length", cv.px)],
        }
        losses = [
            "Tiled draws no directions: acceleration field directions (%s) and start facings are properties only"
            % (ids(items, "acceleration_field") or "none"),
            "Tiled has no circles: circles are ellipse objects with width = height",
            "no background image: the map has object layers only (export svg or png for a picture)",
        ]
        if arena.gates:
            losses.append("one-way gate directions are properties only (%s)" % ids(items, "gate"))
        return ExportResult((json.dumps(tmj, indent=1) + "\n").encode("utf-8"), losses)

    def read(self, data: bytes, *, source: str = "<tmj>") -> Arena:
        tmj = load_json(data, source)
        if not isinstance(tmj, dict) or tmj.get("type") != "map":
            raise FormatError(f"{source}: not a Tiled map (\"type\": \"map\" missing)")
        props = _unprops(tmj.get("properties"), f"{source}: map")
        px = int(props.get("px_per_length") or tmj.get("tilewidth") or DEFAULT_PX_PER_LENGTH)
        cv = Canvas(float(props.get("origin_x", 0.0)), float(props.get("origin_y", 0.0)), int(tmj.get("width", 1)),
                    int(tmj.get("height", 1)), px)
        meta = props.get("arena") or {"format": "arena-studio/1", "system": "gravstrike", "name": source}
        by_layer = {v: k for k, v in LAYER_NAMES.items()}
        items: list[tuple[str, Doc]] = []
        for layer in tmj.get("layers", []):
            if layer.get("type") != "objectgroup":
                continue
            for obj in layer.get("objects", []):
                kind = obj.get("type") or obj.get("class") or by_layer.get(layer.get("name", ""), "")
                where = f"{source}: layer {layer.get('name')!r} object {obj.get('id')} ({obj.get('name', '')!r})"
                if kind not in GEOMETRY:
                    raise FormatError(f"{where}: unknown kind {kind!r}; use one of {', '.join(GEOMETRY)}")
                doc = _unprops(obj.get("properties"), where)
                if kind in ("wall", "checkpoint", "gate", "acceleration_field", "exclusion_field", "static_target"):
                    doc.setdefault("id", obj.get("name") or f"{kind}{obj.get('id')}")
                keep = all(f in doc for f in GEOMETRY[kind])
                if keep:
                    try:
                        ours = geometry(kind, doc, cv)
                    except (FormatError, KeyError, TypeError, ValueError, IndexError):
                        keep = False
                    else:
                        keep = all(close_enough(ours[k], obj.get(k, 0 if k in ("width", "height", "rotation") else None), TOL_PX)
                                   for k in ours if k not in ("point", "ellipse"))
                if not keep:
                    doc.update(_derive(kind, obj, doc, cv, where))
                items.append((kind, {k: (num(v) if isinstance(v, float) else v) for k, v in doc.items()}))
        return join(meta, items, source=source)
