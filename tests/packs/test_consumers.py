"""Every export of every shipped arena, read by the tools that read that format (issue 17):
CairoSVG for SVG, PyTMX / pytiled-parser / Tiled itself for Tiled maps, the ``geojson``
package for GeoJSON, Foundry v13's data model (tests/packs/consumers.py) for scenes.  Objects
must land where the arena puts them; no check here uses our own readers."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import schema
from editor.export_render import render_bytes
from schema.formats import canvas, get, image_frame
from schema.shapes import Circle, Polygon, Rect
from schema.games.gravstrike.model import Arena, Checkpoint
from tests.packs import consumers as C
from tests.packs.conftest import SHIPPED
from tests.packs.test_uvtt import header_png

pytestmark = pytest.mark.usefixtures("qapp")
ARENAS = {p.stem: p for p in SHIPPED}
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", params=sorted(ARENAS))
def arena(request: pytest.FixtureRequest) -> Arena:
    return schema.load(ARENAS[request.param])


# ------------------------------------------------------------------ SVG


def test_svg_renders_the_same_in_cairo_as_in_qt(arena: Arena) -> None:
    """Issue 17, SVG: outlines were drawn in a ~39x scaled group with non-scaling strokes, so
    CairoSVG/librsvg/resvg drew every outline ~58 px thick (half the picture differed)."""
    png = C.png_array(render_bytes(arena, "png"))
    svg = render_bytes(arena, "svg")
    cairo = C.png_array(C.cairo_png(svg, png.shape[1], png.shape[0]))
    mean, share = C.image_difference(png, cairo)
    assert mean < 4.0 and share < 0.01, f"CairoSVG vs Qt: mean difference {mean:.1f}, {share:.1%} of blocks differ"


def test_svg_is_in_output_units(arena: Arena) -> None:
    root = ET.fromstring(render_bytes(arena, "svg"))
    assert root.get("version") == "1.1"
    for el in root.iter():
        tag = el.tag.removeprefix(SVG_NS)
        assert el.get("vector-effect") is None, "a renderer-dependent non-scaling stroke"
        if tag not in ("text", "image"):
            assert el.get("transform") is None, f"<{tag}> still drawn through a transform"
        width = el.get("stroke-width")
        assert width is None or float(width) <= 6.0, f"<{tag}> stroke {width} units wide"
        assert tag != "mask", "hatches must be plain pattern tiles (masks render as blocks or blur)"
    patterns = list(root.iter(f"{SVG_NS}pattern"))
    assert all(p.get("patternUnits") == "userSpaceOnUse" and p.get("width") == "8" for p in patterns)


def test_svg_matches_in_qtsvg_too(default_arena: Arena) -> None:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    png = C.png_array(render_bytes(default_arena, "png"))
    renderer = QSvgRenderer(QByteArray(render_bytes(default_arena, "svg")))
    img = QImage(png.shape[1], png.shape[0], QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    renderer.render(p)
    p.end()
    ba = QByteArray()
    buf = QBuffer(ba)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    mean, share = C.image_difference(png, C.png_array(bytes(ba)))
    assert mean < 3.0 and share < 0.01


# ------------------------------------------------------------------ Tiled


def _expected_px(arena: Arena) -> dict[str, tuple[float, float]]:
    """Where each element's Tiled object must be, from the arena model: centres of circles,
    points of starts and targets (pixels, y down)."""
    cv = canvas(arena)
    out = {f"start:{s.player}": cv.to_px(s.position) for s in arena.start_positions}
    out.update({t.id: cv.to_px(t.position) for t in arena.static_targets})
    for el in (*arena.walls, *arena.checkpoints, *arena.acceleration_fields, *arena.exclusion_fields):
        if isinstance(el.shape, Circle):
            out[el.id] = cv.to_px(el.shape.center)
    return out


def _centre_of(obj_x: float, obj_y: float, w: float, h: float, rotation: float) -> tuple[float, float]:
    a = math.radians(rotation)  # Tiled: clockwise about the object's top-left corner
    return (obj_x + w / 2 * math.cos(a) - h / 2 * math.sin(a), obj_y + w / 2 * math.sin(a) + h / 2 * math.cos(a))


def _check_tiled_objects(arena: Arena, objects: dict[str, tuple[float, float, float, float, float, list]]) -> None:
    cv = canvas(arena)
    names = {f"start:{s.player}" for s in arena.start_positions} | {e.id for e in arena.elements() if e.id}
    assert names <= set(objects) and "bounds" in objects
    for name, (x, y) in _expected_px(arena).items():
        ox, oy, w, h, rot, _ = objects[name]
        got = (ox + w / 2, oy + h / 2) if w else (ox, oy)
        assert got == pytest.approx((x, y), abs=1e-3), name
    for el in arena.elements():
        shape = getattr(el, "shape", None)
        if isinstance(shape, Rect):
            ox, oy, w, h, rot, _ = objects[el.id]
            assert _centre_of(ox, oy, w, h, rot) == pytest.approx(cv.to_px(shape.center), abs=1e-3), el.id
        elif isinstance(shape, Polygon):
            ox, oy, *_, points = objects[el.id]
            got = [v for pt in sorted((ox + px, oy + py) for px, py in points) for v in pt]
            want = [v for pt in sorted(cv.to_px(p) for p in shape.points) for v in pt]
            assert got == pytest.approx(want, abs=1e-3), el.id
    for gate in arena.gates:
        ox, oy, *_, points = objects[gate.id]
        got = [v for px, py in points for v in (ox + px, oy + py)]
        assert got == pytest.approx([*cv.to_px(gate.start), *cv.to_px(gate.end)], abs=1e-3), gate.id


def test_pytmx_reads_our_tmx(arena: Arena, tmp_path: Path) -> None:
    """Issue 17, Tiled: a custom property named ``id`` clashed with Tiled's object id and PyTMX
    refused every map; and .tmx was not written at all."""
    path = tmp_path / "a.tmx"
    path.write_bytes(get("tiled").write(arena, suffix=".tmx").data)
    objects = C.pytmx_objects(path)
    _check_tiled_objects(arena, {n: (o.x, o.y, o.width, o.height, o.rotation,
                                     [(p.x - o.x, p.y - o.y) for p in getattr(o, "points", ())])
                                 for n, o in objects.items()})
    assert objects["bounds"].type == "bounds"


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_pytiled_parser_reads_our_maps(arena: Arena, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"a{suffix}"
    path.write_bytes(get("tiled").write(arena, suffix=suffix).data)
    objects = C.pytiled_objects(path)
    table = {}
    for n, o in objects.items():
        pts = getattr(o, "points", None) or []
        table[n] = (o.coordinates.x, o.coordinates.y, o.size.width, o.size.height, o.rotation,
                    [(p.x, p.y) for p in pts])
    _check_tiled_objects(arena, table)
    assert all(prop != "id" for o in objects.values() for prop in o.properties)


@pytest.mark.skipif(C.TILED is None, reason="Tiled (Debian package tiled) not installed")
def test_tiled_itself_opens_and_resaves_our_maps(arena: Arena, tmp_path: Path) -> None:
    """Tiled re-saves our .tmj as .tmx (numbers to six digits) and our .tmx as JSON; both come
    back as the same arena: the round trip through Tiled is lossless."""
    (tmp_path / "a.tmj").write_bytes(get("tiled").write(arena).data)
    (tmp_path / "a.tmx").write_bytes(get("tiled").write(arena, suffix=".tmx").data)
    C.tiled_resave(tmp_path / "a.tmj", tmp_path / "by-tiled.tmx")
    C.tiled_resave(tmp_path / "a.tmx", tmp_path / "by-tiled.json")
    for name in ("by-tiled.tmx", "by-tiled.json"):
        warnings: list[str] = []
        assert get("tiled").read((tmp_path / name).read_bytes(), source=name, warnings=warnings) == arena
        assert warnings == []


# ------------------------------------------------------------------ GeoJSON


def test_geojson_package_validates_and_positions_hold(arena: Arena) -> None:
    """Issue 17, GeoJSON: the FeatureCollection carried a ``coordinates`` member (RFC 7946
    section 7.1 forbids it there)."""
    import geojson

    text = get("geojson").write(arena).data.decode()
    fc = geojson.loads(text)
    assert fc.is_valid, fc.errors()
    assert "coordinates" not in json.loads(text)
    features = {f["properties"].get("id") or f"start:{f['properties'].get('player')}": f for f in fc["features"]}
    for s in arena.start_positions:
        assert tuple(features[f"start:{s.player}"]["geometry"]["coordinates"]) == pytest.approx(s.position)
    for c in arena.checkpoints:
        ring = features[c.id]["geometry"]["coordinates"][0]
        if isinstance(c.shape, Circle):
            assert all(math.dist(p, c.shape.center) == pytest.approx(c.shape.radius) for p in ring)


# ------------------------------------------------------------------ Foundry VTT


@pytest.mark.parametrize("px", [20, 64])
def test_foundry_scene_fits_the_v13_data_model(arena: Arena, px: int) -> None:
    """Issue 17, Foundry: wall ``c`` and note x/y were fractions; grid.size under 20 was written."""
    scene = json.loads(get("foundry").write(arena, image_png=b"", px_per_length=px, image_name="a.png").data)
    assert C.foundry_problems(scene) == []
    assert scene["grid"]["size"] == px and scene["background"]["src"] == "a.png"
    cv = canvas(arena, px)
    notes = {n["flags"]["arena-studio"].get("player"): n for n in scene["notes"]}
    for s in arena.start_positions:  # notes sit on the starts, to the nearest pixel
        x, y = cv.to_px(s.position)
        assert abs(notes[s.player]["x"] - x) <= 0.5 and abs(notes[s.player]["y"] - y) <= 0.5


def test_foundry_model_helper_catches_what_foundry_refuses() -> None:
    bad = {"name": "x", "width": 10, "height": 10, "background": {"src": None}, "notes": [{"x": 1.5, "y": 2}],
           "grid": {"type": 1, "size": 10, "distance": 1, "units": "len"},
           "walls": [{"c": [0, 0, 1.5, 2], "move": 20, "sight": 20, "light": 20, "sound": 7}],
           "regions": [{"name": "A", "color": "red", "visibility": 2, "shapes": [{"type": "ellipse", "x": 0, "y": 0}]}]}
    problems = " | ".join(C.foundry_problems(bad))
    for expected in ("scene.grid.size: 10 is out of range", "walls[0].c[2]: 1.5 is not a integer",
                     "walls[0].sound: 7 is not one of", "notes[0].x: 1.5 is not a integer",
                     "regions[0].color: 'red' is not a #rrggbb", "regions[0].shapes[0].radiusX: required"):
        assert expected in problems


def test_foundry_losses_name_only_what_is_there() -> None:
    """Issue 17: the loss report said "circular walls (none) are 48-sided"."""
    arena = Arena(name="plain", bounds=Rect((0.0, 0.0), (10.0, 8.0)),
                  checkpoints=(Checkpoint("A", "outlying", Circle((2.0, 1.0), 0.8)),))
    losses = " | ".join(get("foundry").write(arena, image_png=b"", image_name="p.png").losses)
    assert "(none)" not in losses and "circular walls" not in losses and "acceleration" not in losses
    default = schema.load(ARENAS["default"])
    losses = " | ".join(get("foundry").write(default, image_png=b"", image_name="p.png").losses)
    assert "circular walls (W4, W5, W6) are 48-sided polygons" in losses


# ------------------------------------------------------------------ the painted grid and the VTT grid


@pytest.mark.parametrize("px", [20, 32])
def test_vtt_image_grid_lines_lie_on_the_vtt_grid(px: int) -> None:
    """Issue 17, UVTT and Foundry images: on arenas whose size is not whole cells (a hexagon)
    the grid painted in the image was half a cell off the VTT's grid.  The darkest columns
    and rows of the empty floor must be the cell edges, multiples of the grid size."""
    r = 5.0
    hexagon = Polygon(tuple((r * math.cos(math.radians(60 * i)), r * math.sin(math.radians(60 * i))) for i in range(6)))
    arena = Arena(name="hex", bounds=hexagon)
    cv = canvas(arena, px)
    img = C.png_array(render_bytes(arena, "png", view=cv.view, px_per_length=px)).mean(axis=2)
    inner = img[cv.height // 2 - px: cv.height // 2 + px, cv.width // 2 - px: cv.width // 2 + px]
    y0, x0 = cv.height // 2 - px, cv.width // 2 - px
    for profile, offset in ((inner.mean(axis=0), x0), (inner.mean(axis=1), y0)):
        floor = float(profile.max())
        lines = [i + offset for i, v in enumerate(profile) if v < floor - 6]
        assert lines, "no grid lines painted"
        assert all(min(p % px, px - p % px) <= 1 for p in lines), f"grid lines at {lines}, cells every {px} px"
    # and the VTT's frame (UVTT map_size, Foundry width/height) is that whole-cell frame
    doc = json.loads(get("uvtt").write(arena, image_png=header_png(cv.width, cv.height), px_per_length=px).data)
    assert (doc["resolution"]["map_size"]["x"], doc["resolution"]["map_size"]["y"]) == (cv.cols, cv.rows)
    assert cv.left.is_integer() and cv.top.is_integer()


def test_uvtt_walls_close_and_stay_in_the_image(arena: Arena) -> None:
    fr = image_frame("uvtt", arena, 32)  # whole cells too, padded to a square (tests/packs/test_uvtt.py)
    assert fr.left.is_integer() and fr.top.is_integer() and fr.cols == fr.rows
    doc = json.loads(get("uvtt").write(arena, image_png=header_png(fr.width, fr.height), px_per_length=32).data)
    size = doc["resolution"]["map_size"]
    for line in doc["line_of_sight"]:
        assert line[0] == line[-1]
        assert all(0 <= p["x"] <= size["x"] and 0 <= p["y"] <= size["y"] for p in line)
    assert re.fullmatch(r"[0-9a-f]{8}", doc["environment"]["ambient_light"])
