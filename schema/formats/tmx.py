"""Tiled's XML map format (``.tmx``), converted to and from the JSON map format's structure.

:func:`dumps` writes a TMJ-shaped map dictionary as TMX, the way Tiled writes it (attributes
Tiled would omit at their defaults are omitted; numbers in full precision).  :func:`loads`
reads any TMX file Tiled writes into the same dictionary shape the JSON reader takes, with
numbers converted and each element's source line kept under ``LINE`` for located messages.

Parsing uses the standard library's expat with entity declarations refused (no "billion
laughs", no external entities; a ``DOCTYPE`` naming Tiled's DTD is fine and never fetched).
Tile layer data is not decoded: arenas are read from object layers.
"""

from __future__ import annotations

import math
import xml.parsers.expat
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from schema.formats.base import FormatError

Doc = dict[str, Any]
#: Key holding an element's source line in :func:`loads`'s dictionaries.
LINE = "__line__"
LAYER_TAGS = {"objectgroup": "objectgroup", "layer": "tilelayer", "imagelayer": "imagelayer", "group": "group"}


# ------------------------------------------------------------------ writing


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return str(int(v))
    return str(v)


def _attrs(pairs: list[tuple[str, Any]]) -> str:
    return "".join(f" {k}={quoteattr(_fmt(v))}" for k, v in pairs if v is not None)


def _properties(props: list[Doc], indent: str) -> list[str]:
    if not props:
        return []
    out = [f"{indent}<properties>"]
    for p in props:
        kind = None if p.get("type", "string") == "string" else p["type"]
        out.append(f"{indent} <property{_attrs([('name', p['name']), ('type', kind), ('value', p['value'])])}/>")
    out.append(f"{indent}</properties>")
    return out


def _points(points: list[Doc]) -> str:
    return " ".join(f"{_fmt(p['x'])},{_fmt(p['y'])}" for p in points)


def _tileset(ts: Doc) -> list[str]:
    """An embedded tileset: its image and each tile's class."""
    a = [("firstgid", ts["firstgid"]), ("name", ts.get("name")), ("tilewidth", ts["tilewidth"]),
         ("tileheight", ts["tileheight"]), ("tilecount", ts.get("tilecount")), ("columns", ts.get("columns"))]
    out = [f" <tileset{_attrs(a)}>"]
    if "image" in ts:
        ia = [("source", ts["image"]), ("width", ts.get("imagewidth")), ("height", ts.get("imageheight"))]
        out.append(f"  <image{_attrs(ia)}/>")
    for tile in ts.get("tiles", []):
        out.append(f"  <tile{_attrs([('id', tile['id']), ('type', tile.get('type'))])}/>")
    out.append(" </tileset>")
    return out


def _tile_layer(layer: Doc, attrs: list[tuple[str, Any]]) -> list[str]:
    """A tile layer, its global tile ids as CSV rows (as Tiled writes them)."""
    w, h, data = layer["width"], layer["height"], layer["data"]
    rows = [",".join(str(v) for v in data[r * w:(r + 1) * w]) for r in range(h)]
    head = f" <layer{_attrs([*attrs[:2], ('width', w), ('height', h), *attrs[2:3]])}>"
    return [head, *_properties(layer.get("properties", []), "  "), '  <data encoding="csv">', ",\n".join(rows), "</data>",
            " </layer>"]


def dumps(tmj: Doc) -> bytes:
    """A TMJ-shaped map (as :class:`~schema.formats.tiled.TiledFormat` builds it) as TMX bytes."""
    head = [("version", tmj.get("version")), ("tiledversion", tmj.get("tiledversion")),
            ("class", tmj.get("class")), ("orientation", tmj["orientation"]), ("renderorder", tmj.get("renderorder")),
            ("width", tmj["width"]), ("height", tmj["height"]), ("tilewidth", tmj["tilewidth"]),
            ("tileheight", tmj["tileheight"]), ("infinite", 1 if tmj.get("infinite") else 0),
            ("hexsidelength", tmj.get("hexsidelength")), ("staggeraxis", tmj.get("staggeraxis")),
            ("staggerindex", tmj.get("staggerindex")),
            ("nextlayerid", tmj.get("nextlayerid")), ("nextobjectid", tmj.get("nextobjectid"))]
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f"<map{_attrs(head)}>"]
    lines += _properties(tmj.get("properties", []), " ")
    for ts in tmj.get("tilesets", []):
        lines += _tileset(ts)
    for layer in tmj["layers"]:
        attrs = [("id", layer.get("id")), ("name", layer.get("name")),
                 ("visible", None if layer.get("visible", True) else 0), ("draworder", layer.get("draworder"))]
        if layer.get("type") == "tilelayer":
            lines += _tile_layer(layer, attrs)
            continue
        lines.append(f" <objectgroup{_attrs(attrs)}>")
        for obj in layer.get("objects", []):
            shape = {k: obj[k] for k in ("polygon", "polyline") if k in obj}
            a = [("id", obj["id"]), ("name", obj.get("name") or None), ("type", obj.get("type") or None),
                 ("x", obj["x"]), ("y", obj["y"]),
                 ("width", obj.get("width") or None), ("height", obj.get("height") or None),
                 ("rotation", obj.get("rotation") or None)]
            inner = _properties(obj.get("properties", []), "   ")
            if obj.get("ellipse"):
                inner.append("   <ellipse/>")
            if obj.get("point"):
                inner.append("   <point/>")
            if "text" in obj:
                t = obj["text"]
                ta = [(k, int(v) if isinstance(v, bool) else v)  # TMX writes text flags as 1/0
                      for k, v in ((k, t.get(k)) for k in ("fontfamily", "pixelsize", "wrap", "color", "halign", "valign"))]
                inner.append(f"   <text{_attrs(ta)}>{escape(str(t.get('text', '')))}</text>")
            for key, points in shape.items():
                inner.append(f"   <{key} points={quoteattr(_points(points))}/>")
            if inner:
                lines += [f"  <object{_attrs(a)}>", *inner, "  </object>"]
            else:
                lines.append(f"  <object{_attrs(a)}/>")
        lines.append(" </objectgroup>")
    lines.append("</map>")
    return ("\n".join(lines) + "\n").encode("utf-8")


# ------------------------------------------------------------------ reading


class _Node:
    __slots__ = ("tag", "attrs", "children", "text", "line")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag, self.attrs, self.line = tag, attrs, line
        self.children: list[_Node] = []
        self.text = ""


def _parse(data: bytes, source: str) -> _Node:
    parser = xml.parsers.expat.ParserCreate()
    stack: list[_Node] = []
    root: list[_Node] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else root).append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def text(s: str) -> None:
        if stack:
            stack[-1].text += s

    def no_entities(name: str, *args: Any) -> None:
        raise FormatError(f"{source}: line {parser.CurrentLineNumber}: entity declarations are not allowed ({name!r})")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.EntityDeclHandler = no_entities
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise FormatError(f"{source}: line {exc.lineno}, column {exc.offset + 1}: not well-formed XML: "
                          f"{xml.parsers.expat.ErrorString(exc.code)}") from None
    if not root:
        raise FormatError(f"{source}: no XML element")
    return root[0]


def _number(node: _Node, name: str, source: str, *, integer: bool = False) -> float | int | None:
    raw = node.attrs.get(name)
    if raw is None:
        return None
    try:
        value = float(raw)
        if not math.isfinite(value):
            raise ValueError
        if integer:
            if not value.is_integer():
                raise ValueError
            return int(value)
    except ValueError:
        what = "a whole number" if integer else "a number"
        raise FormatError(f"{source}: line {node.line}: <{node.tag}> {name}={raw!r} is not {what}") from None
    return value


def _props(node: _Node, source: str) -> list[Doc]:
    out: list[Doc] = []
    for block in (c for c in node.children if c.tag == "properties"):
        for p in (c for c in block.children if c.tag == "property"):
            kind = p.attrs.get("type", "string")
            raw = p.attrs.get("value", p.text)
            if "name" not in p.attrs:
                raise FormatError(f"{source}: line {p.line}: <property> has no name")
            value: Any = raw
            if kind == "int":
                value = _number(p, "value", source, integer=True) if "value" in p.attrs else 0
            elif kind == "float":
                value = _number(p, "value", source) if "value" in p.attrs else 0.0
            elif kind == "bool":
                if raw not in ("true", "false"):
                    raise FormatError(f"{source}: line {p.line}: bool property {p.attrs['name']!r} is {raw!r}, "
                                      "not true or false")
                value = raw == "true"
            elif kind == "class":
                value = {q["name"]: q["value"] for q in _props(p, source)}
            out.append({"name": p.attrs["name"], "type": kind, "value": value, LINE: p.line})
    return out


def _points_of(node: _Node, source: str) -> list[Doc]:
    pts: list[Doc] = []
    for i, pair in enumerate(node.attrs.get("points", "").split()):
        try:
            x, y = (float(v) for v in pair.split(","))
        except ValueError:
            raise FormatError(f"{source}: line {node.line}: <{node.tag}> point {i} is {pair!r}, not x,y") from None
        pts.append({"x": x, "y": y})
    return pts


def _object(node: _Node, source: str) -> Doc:
    obj: Doc = {LINE: node.line, "name": node.attrs.get("name", "")}
    for key in ("id", "gid"):
        if key in node.attrs:
            obj[key] = _number(node, key, source, integer=True)
    for key in ("x", "y", "width", "height", "rotation"):
        v = _number(node, key, source)
        if v is not None:
            obj[key] = v
    for key in ("type", "class", "template"):
        if key in node.attrs:
            obj[key] = node.attrs[key]
    if node.attrs.get("visible") == "0":
        obj["visible"] = False
    obj["properties"] = _props(node, source)
    for child in node.children:
        if child.tag in ("ellipse", "point"):
            obj[child.tag] = True
        elif child.tag in ("polygon", "polyline"):
            obj[child.tag] = _points_of(child, source)
        elif child.tag == "text":
            obj["text"] = {"text": child.text}
    return obj


def _layers(node: _Node, source: str) -> list[Doc]:
    out: list[Doc] = []
    for child in node.children:
        if child.tag not in LAYER_TAGS:
            continue
        layer: Doc = {LINE: child.line, "type": LAYER_TAGS[child.tag], "name": child.attrs.get("name", ""),
                      "visible": child.attrs.get("visible") != "0", "properties": _props(child, source)}
        for key in ("offsetx", "offsety"):
            v = _number(child, key, source)
            if v is not None:
                layer[key] = v
        if "id" in child.attrs:
            layer["id"] = _number(child, "id", source, integer=True)
        if child.tag == "objectgroup":
            layer["objects"] = [_object(o, source) for o in child.children if o.tag == "object"]
        elif child.tag == "group":
            layer["layers"] = _layers(child, source)
        elif child.tag == "layer":
            for key in ("width", "height"):
                layer[key] = _number(child, key, source, integer=True)
            data = next((c for c in child.children if c.tag == "data"), None)
            if data is not None:
                encoding = data.attrs.get("encoding")
                if encoding == "csv":
                    try:
                        layer["data"] = [int(v) for v in data.text.replace("\n", "").split(",") if v.strip()]
                    except ValueError:
                        raise FormatError(f"{source}: line {data.line}: tile layer data is not comma-separated "
                                          "whole numbers") from None
                elif encoding == "base64":
                    layer.update(encoding="base64", data=data.text.strip(), compression=data.attrs.get("compression", ""))
                else:
                    layer["data"] = [_number(t, "gid", source, integer=True) or 0 for t in data.children if t.tag == "tile"]
        out.append(layer)
    return out


def loads(data: bytes, source: str) -> Doc:
    """A TMX file as a TMJ-shaped dictionary (``"type": "map"``), or a located FormatError."""
    root = _parse(data, source)
    if root.tag != "map":
        raise FormatError(f"{source}: line {root.line}: not a Tiled map (the root element is <{root.tag}>, not <map>)")
    tmj: Doc = {"type": "map", LINE: root.line, "orientation": root.attrs.get("orientation", "orthogonal"),
                "properties": _props(root, source), "layers": _layers(root, source),
                "infinite": root.attrs.get("infinite") == "1"}
    for key in ("width", "height", "tilewidth", "tileheight", "hexsidelength"):
        v = _number(root, key, source, integer=True)
        if v is not None:
            tmj[key] = v
    for key in ("staggeraxis", "staggerindex"):
        if key in root.attrs:
            tmj[key] = root.attrs[key]
    return tmj


__all__ = ["LINE", "dumps", "loads"]
