"""Exporters against their targets' documented structure; TMJ and GeoJSON round-trips."""

from __future__ import annotations

import base64
import json
import struct
from dataclasses import replace

import jsonschema
import pytest

import schema
from schema.formats import FORMATS, FormatError, canvas, for_import, get
from schema.shapes import Circle, Polygon, Polyline, Rect
from schema.games.gravstrike.model import Arena, Gate, Wall
from tests.packs.conftest import SHIPPED

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + struct.pack(">II", 1, 1) + b"\x08\x06\x00\x00\x00" + b"\x00" * 4

POINT = {"type": "object", "required": ["x", "y"], "properties": {"x": {"type": "number"}, "y": {"type": "number"}}}
NUM = {"type": "number"}
# Tiled JSON map format (doc.mapeditor.org, "JSON Map Format"): the fields Tiled needs to open a map.
TMJ_SCHEMA = {
    "type": "object",
    "required": ["type", "version", "tiledversion", "orientation", "renderorder", "width", "height", "tilewidth",
                 "tileheight", "infinite", "layers", "nextlayerid", "nextobjectid"],
    "properties": {
        "type": {"const": "map"}, "orientation": {"enum": ["orthogonal", "isometric", "staggered", "hexagonal"]},
        "infinite": {"const": False}, "width": {"type": "integer", "minimum": 1},
        "height": {"type": "integer", "minimum": 1}, "tilewidth": {"type": "integer"}, "tileheight": {"type": "integer"},
        "properties": {"type": "array", "items": {"$ref": "#/$defs/property"}},
        "layers": {"type": "array", "items": {
            "type": "object", "required": ["id", "name", "type", "objects", "visible", "opacity", "x", "y"],
            "properties": {"type": {"const": "objectgroup"}, "draworder": {"enum": ["topdown", "index"]},
                           "objects": {"type": "array", "items": {"$ref": "#/$defs/object"}}}}},
    },
    "$defs": {
        "property": {"type": "object", "required": ["name", "type", "value"],
                     "properties": {"name": {"type": "string"},
                                    "type": {"enum": ["string", "int", "float", "bool", "color", "file", "object", "class"]}}},
        "object": {"type": "object", "required": ["id", "name", "x", "y", "width", "height", "rotation", "visible"],
                   "properties": {"id": {"type": "integer"}, "x": NUM, "y": NUM, "width": NUM, "height": NUM,
                                  "rotation": NUM, "ellipse": {"const": True}, "point": {"const": True},
                                  "polygon": {"type": "array", "minItems": 3, "items": POINT},
                                  "polyline": {"type": "array", "minItems": 2, "items": POINT},
                                  "properties": {"type": "array", "items": {"$ref": "#/$defs/property"}}}},
    },
}
POSITION = {"type": "array", "minItems": 2, "maxItems": 3, "items": NUM}
# RFC 7946 sections 3.1-3.3.
GEOJSON_SCHEMA = {
    "type": "object", "required": ["type", "features"],
    "properties": {"type": {"const": "FeatureCollection"}, "features": {"type": "array", "items": {
        "type": "object", "required": ["type", "geometry", "properties"],
        "properties": {"type": {"const": "Feature"}, "id": {"type": ["string", "number"]},
                       "properties": {"type": "object", "required": ["kind"]},
                       "geometry": {"oneOf": [
                           {"type": "object", "required": ["type", "coordinates"],
                            "properties": {"type": {"const": "Point"}, "coordinates": POSITION}},
                           {"type": "object", "required": ["type", "coordinates"],
                            "properties": {"type": {"const": "LineString"},
                                           "coordinates": {"type": "array", "minItems": 2, "items": POSITION}}},
                           {"type": "object", "required": ["type", "coordinates"],
                            "properties": {"type": {"const": "Polygon"}, "coordinates": {
                                "type": "array", "items": {"type": "array", "minItems": 4, "items": POSITION}}}},
                       ]}}}}},
}
# Universal VTT 0.3 as written by Dungeondraft (grid-cell coordinates).
UVTT_SCHEMA = {
    "type": "object", "required": ["format", "resolution", "line_of_sight", "portals", "environment", "lights", "image"],
    "properties": {
        "format": {"type": "number"},
        "resolution": {"type": "object", "required": ["map_origin", "map_size", "pixels_per_grid"],
                       "properties": {"map_origin": POINT, "map_size": POINT, "pixels_per_grid": {"type": "integer"}}},
        "line_of_sight": {"type": "array", "items": {"type": "array", "minItems": 2, "items": POINT}},
        "objects_line_of_sight": {"type": "array"}, "portals": {"type": "array"}, "lights": {"type": "array"},
        "environment": {"type": "object", "properties": {"baked_lighting": {"type": "boolean"},
                                                         "ambient_light": {"type": "string", "pattern": "^[0-9a-fA-F]{8}$"}}},
        "image": {"type": "string", "contentEncoding": "base64"},
    },
}
FLAT_POINTS = {"type": "array", "minItems": 6, "items": NUM}
# Foundry VTT v12/v13 SceneData / WallData / RegionData / NoteData (foundryvtt.com/api).
FOUNDRY_SCHEMA = {
    "type": "object", "required": ["name", "width", "height", "grid", "background", "walls", "regions", "notes"],
    "properties": {
        "width": {"type": "integer", "minimum": 1}, "height": {"type": "integer", "minimum": 1},
        "grid": {"type": "object", "required": ["type", "size", "distance", "units"],
                 "properties": {"type": {"enum": [0, 1, 2, 3, 4, 5]}, "size": {"type": "integer", "minimum": 50}}},
        "background": {"type": "object", "required": ["src"]},
        "walls": {"type": "array", "items": {"type": "object", "required": ["c", "move", "sight", "light", "sound"],
                                             "properties": {"c": {"type": "array", "minItems": 4, "maxItems": 4, "items": NUM},
                                                            "move": {"enum": [0, 20]},
                                                            "sight": {"enum": [0, 10, 20, 30, 40]}}}},
        "regions": {"type": "array", "items": {"type": "object", "required": ["name", "shapes"], "properties": {
            "shapes": {"type": "array", "minItems": 1, "items": {"oneOf": [
                {"type": "object", "required": ["type", "x", "y", "radiusX", "radiusY"], "properties": {"type": {"const": "ellipse"}}},
                {"type": "object", "required": ["type", "x", "y", "width", "height"], "properties": {"type": {"const": "rectangle"}}},
                {"type": "object", "required": ["type", "points"], "properties": {"type": {"const": "polygon"}, "points": FLAT_POINTS}},
            ]}}}}},
        "notes": {"type": "array", "items": {"type": "object", "required": ["x", "y", "text"]}},
    },
}


def _check(doc: dict, schema_doc: dict) -> None:
    jsonschema.Draft202012Validator(schema_doc).validate(doc)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
@pytest.mark.parametrize("name", ["tiled", "geojson"])
def test_round_trip_is_exact(path, name) -> None:  # type: ignore[no-untyped-def]
    arena = schema.load(path)
    fmt = get(name)
    result = fmt.write(arena)
    assert fmt.read(result.data, source=f"x.{name}") == arena
    assert result.losses


def test_tmj_matches_tiled_structure(default_arena) -> None:  # type: ignore[no-untyped-def]
    tmj = json.loads(get("tiled").write(default_arena).data)
    _check(tmj, TMJ_SCHEMA)
    ids = [o["id"] for layer in tmj["layers"] for o in layer["objects"]]
    assert len(ids) == len(set(ids)) == len(default_arena.elements()) + 1
    assert tmj["nextobjectid"] > max(ids) and tmj["nextlayerid"] > max(layer["id"] for layer in tmj["layers"])
    objects = {o["name"]: o for layer in tmj["layers"] for o in layer["objects"]}
    cv = canvas(default_arena)
    a = objects["A"]  # circle (10.2, 0) r 0.9 -> ellipse whose box centre is A's centre in pixels
    assert a["ellipse"] and a["width"] == a["height"] == pytest.approx(0.9 * 2 * cv.px)
    assert (a["x"] + a["width"] / 2, a["y"] + a["height"] / 2) == pytest.approx(cv.to_px((10.2, 0.0)))
    assert objects["start:2"]["point"] and objects["start:2"]["y"] < objects["start:5"]["y"]  # y points down


def test_tiled_edits_win_over_stored_values(default_arena) -> None:  # type: ignore[no-untyped-def]
    tmj = json.loads(get("tiled").write(default_arena).data)
    layer = next(la for la in tmj["layers"] if la["name"] == "walls")
    w1 = next(o for o in layer["objects"] if o["name"] == "W1")
    w1["x"] += 64  # one length to the right
    layer["objects"].append({"id": 999, "name": "W9", "type": "wall", "x": 0, "y": 0, "width": 64, "height": 128,
                             "rotation": 0, "visible": True})
    arena = get("tiled").read(json.dumps(tmj).encode(), source="edited.tmj")
    moved = arena.element("W1").shape
    assert isinstance(moved, Rect) and moved.center == pytest.approx((3.5, 4.3301)) and moved.rotation == 150
    new = arena.element("W9").shape
    assert isinstance(new, Rect) and new.size == (1.0, 2.0) and new.center == pytest.approx((-11.5, 10.0))  # the frame's top edge is y = 11


def test_geojson_is_rfc7946(default_arena) -> None:  # type: ignore[no-untyped-def]
    fc = json.loads(get("geojson").write(default_arena).data)
    _check(fc, GEOJSON_SCHEMA)
    kinds = [f["properties"]["kind"] for f in fc["features"]]
    assert kinds.count("bounds") == 1 and kinds.count("wall") == 6 and kinds.count("start_position") == 6
    for f in fc["features"]:
        if f["geometry"]["type"] == "Polygon":
            ring = f["geometry"]["coordinates"][0]
            assert ring[0] == ring[-1]
            area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:]))
            assert area > 0, f"{f['id']}: exterior ring must be counter-clockwise (RFC 7946 3.1.6)"
    assert "coordinates" not in fc  # RFC 7946 7.1: no "coordinates" member on a FeatureCollection
    assert fc["coordinate_system"] == "arena-lengths" and fc["length_mm"] == 40


def test_geojson_polyline_and_gates_round_trip() -> None:
    arena = Arena(name="lines", bounds=Rect((0.0, 0.0), (10.0, 10.0)),
                  walls=(Wall("L", Polyline(((-3.0, 0.0), (0.0, 2.0), (3.0, 0.0)), 0.4)),
                         Wall("P", Polygon(((2.0, -3.0), (4.0, -3.0), (3.0, -1.0))))),
                  gates=(Gate("G", "central", (-1.0, -4.0), (1.0, -4.0), one_way=True),))
    for name in ("geojson", "tiled"):
        assert get(name).read(get(name).write(arena).data) == arena


def test_uvtt_structure_and_losses(default_arena) -> None:  # type: ignore[no-untyped-def]
    png = PNG[:16] + struct.pack(">II", 24 * 32, 24 * 32) + PNG[24:]
    result = get("uvtt").write(default_arena, image_png=png, px_per_length=32)
    doc = json.loads(result.data)
    _check(doc, UVTT_SCHEMA)
    assert base64.b64decode(doc["image"]) == png
    size = doc["resolution"]["map_size"]
    # whole cells from y = -11 to 11, padded to 24 x 24 (Foundry's UVTT importer makes the picture square)
    assert (size["x"], size["y"]) == (24, 24) and doc["resolution"]["pixels_per_grid"] == 32
    assert len(doc["line_of_sight"]) == 1 + len(default_arena.walls)
    for line in doc["line_of_sight"]:
        assert line[0] == line[-1]
        assert all(-1e-6 <= p["x"] <= size["x"] + 1e-6 and -1e-6 <= p["y"] <= size["y"] + 1e-6 for p in line)
    text = " ".join(result.losses)
    assert "UVTT has no acceleration fields: F1, F2, F3, F4, F5, F6 dropped" in text
    assert "field directions not representable" in text and "W4, W5, W6" in text
    with pytest.raises(FormatError, match="render the arena"):
        get("uvtt").write(default_arena)


def test_foundry_structure(default_arena) -> None:  # type: ignore[no-untyped-def]
    result = get("foundry").write(default_arena, image_png=PNG, image_name="scene.png")
    scene = json.loads(result.data)
    _check(scene, FOUNDRY_SCHEMA)
    assert scene["background"]["src"] == "scene.png"
    assert scene["grid"]["size"] == 64 and (scene["width"], scene["height"]) == (24 * 64, 22 * 64)
    names = {r["name"] for r in scene["regions"]}
    assert names == {"A", "B", "C", "M", "F1", "F2", "F3", "F4", "F5", "F6", "X1", "X2", "X3"}
    assert len(scene["notes"]) == 9
    assert all(0 <= v <= scene["width"] for w in scene["walls"] for v in w["c"][::2])
    assert any("acceleration field directions (F1" in loss for loss in result.losses)


def test_format_registry_and_errors() -> None:
    assert set(FORMATS) == {"uvtt", "foundry", "tiled", "geojson"}
    assert for_import("x.tmj").name == "tiled" and for_import("x.GeoJSON").name == "geojson"
    with pytest.raises(FormatError, match="cannot import .dd2vtt"):
        for_import("x.dd2vtt")
    with pytest.raises(FormatError, match="not a Tiled map"):
        get("tiled").read(b'{"type": "tileset"}', source="t.tmj")
    with pytest.raises(FormatError, match="/features/0"):
        get("geojson").read(b'{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}}]}')


def test_arena_export_offers_every_format_and_svg() -> None:
    """``arena export --to`` names its targets without loading the formats (for a fast help):
    the list must stay the formats installed, plus the renderer's svg."""
    from app.cli.export import TARGETS

    assert sorted(TARGETS) == sorted([*FORMATS, "svg"])


def test_imported_invalid_arena_is_located(default_arena) -> None:  # type: ignore[no-untyped-def]
    fc = json.loads(get("geojson").write(default_arena).data)
    fc["features"][1]["properties"]["id"] = "bad id!"
    with pytest.raises(schema.ArenaError, match="/walls/0/id"):
        get("geojson").read(json.dumps(fc).encode(), source="x.geojson")


def test_circle_bounds_are_never_written_as_ellipses_with_unequal_sides() -> None:
    arena = replace(Arena(name="c", bounds=Rect((0.0, 0.0), (8.0, 6.0))),
                    walls=(Wall("C", Circle((1.0, 1.0), 0.5)),))
    tmj = json.loads(get("tiled").write(arena).data)
    c = tmj["layers"][1]["objects"][0]
    assert c["ellipse"] and c["width"] == c["height"] == 64
