"""Car Wars sixth edition (issue 13) through render, print, export, import and packs, checked by
other people's tools as tests/packs/test_consumers.py does for Gravstrike (issue 17): CairoSVG
against the Qt render, PyTMX and pytiled-parser (and Tiled itself when installed) for Tiled
maps, the ``geojson`` package, Foundry v13's data model (consumers.py), pdftoppm for the 1:1
print.  And the shipped Car Wars arenas: the four- and two-player ones are clean, the flawed
one trips exactly the codes its description lists."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import schema.io as io
from editor.export_render import render_bytes
from schema.formats import canvas, get, image_frame
from schema.games.carwars import CarWarsArena, Obstacle, Wall
from schema.shapes import Circle, Polygon, Rect
from tests.packs import consumers as C
from tests.packs.test_render import _dark_runs, arena_cli, qimage
from tests.packs.test_uvtt import header_png

pytestmark = pytest.mark.usefixtures("qapp")
ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "arenas" / "car-wars"
CLEAN = ["crossroads-4p", "twin-pillars-2p"]
ALL = [*CLEAN, "broken-yard-flawed"]
PDFTOPPM = shutil.which("pdftoppm")


@pytest.fixture(scope="module", params=ALL)
def arena(request: pytest.FixtureRequest) -> CarWarsArena:
    a = io.load(SHIPPED / f"{request.param}.yaml")
    assert isinstance(a, CarWarsArena)
    return a


# ------------------------------------------------------------------ the shipped arenas


@pytest.mark.parametrize("name", CLEAN)
def test_shipped_clean_arenas_have_no_findings(name: str) -> None:
    """Issue 13: a four-player 3 ft arena that passes every Car Wars check, and a two-player one."""
    from engine.carwars.validate import validate

    a = io.load(SHIPPED / f"{name}.yaml")
    assert isinstance(a, CarWarsArena)
    assert len(a.start_positions) == (4 if "4p" in name else 2)
    assert a.bounds.to_shapely().bounds == (-18.0, -18.0, 18.0, 18.0)  # "roughly 3 feet per side"
    assert validate(a).issues == []


def test_shipped_flawed_arena_trips_exactly_its_listed_codes() -> None:
    from engine.carwars.validate import validate

    a = io.load(SHIPPED / "broken-yard-flawed.yaml")
    listed = set(re.findall(r"cw-[a-z-]+", a.description or ""))
    found = {i.code for i in validate(a).issues}
    assert found == listed and len(listed) >= 10


# ------------------------------------------------------------------ SVG and PNG


def test_svg_renders_the_same_in_cairo_as_in_qt(arena: CarWarsArena) -> None:
    png = C.png_array(render_bytes(arena, "png"))
    svg = render_bytes(arena, "svg")
    cairo = C.png_array(C.cairo_png(svg, png.shape[1], png.shape[0]))
    mean, share = C.image_difference(png, cairo)
    assert mean < 4.0 and share < 0.01, f"CairoSVG vs Qt: mean difference {mean:.1f}, {share:.1%} of blocks differ"


def test_render_draws_the_pieces_where_they_are() -> None:
    """The ruleset painter puts each piece at its place: the pixel at a wall's centre is the
    wall colour, at a start the player's car, and the legend and scale bar speak inches."""
    from editor import render as R

    a = io.load(SHIPPED / "crossroads-4p.yaml")
    img = C.png_array(render_bytes(a, "png"))
    from editor.export_render import GAP, PANEL, page_size

    pw, ph = page_size(a)
    from PySide6.QtCore import QRectF

    area = QRectF(GAP, GAP, pw - PANEL - 3 * GAP, ph - 3 * GAP - 50)
    t = R.arena_transform(R.arena_rect(a, 1.0), area)

    def px(p: tuple[float, float]) -> tuple[int, int]:
        q = t.map(p[0], p[1])
        return round(q[0]), round(q[1])

    wall = a.walls[0]
    assert isinstance(wall.shape, Rect)
    x, y = px((wall.shape.center[0] + 1.5 * math.cos(math.radians(wall.shape.rotation)),
               wall.shape.center[1] + 1.5 * math.sin(math.radians(wall.shape.rotation))))
    assert abs(img[y, x] - [0x3B, 0x3B, 0x3B]).max() < 30  # the wall's fill
    floor_x, floor_y = px((0.5, 13.0))
    assert img[floor_y, floor_x].min() > 200  # the floor is light
    svg = render_bytes(a, "svg").decode()
    assert "12 in = 30.48 cm at 1:1 (25.4 mm per inch)" in svg
    assert "Start: car, heading and turning key" in svg and "turning key 6 x 1.5 in" in svg


def test_render_refuses_overlays_it_cannot_draw_yet() -> None:
    from editor.export_render import RenderError

    a = io.load(SHIPPED / "twin-pillars-2p.yaml")
    with pytest.raises(RenderError, match="Gravstrike arenas only"):
        render_bytes(a, "png", overlays=["los"])


# ------------------------------------------------------------------ Tiled


def _expected(a: CarWarsArena) -> dict[str, tuple[float, float]]:
    """Centres (pixels, y down) every Tiled object must have, from the model."""
    cv = canvas(a)
    out = {s.id: cv.to_px(s.position) for s in a.start_positions}
    for el in (*a.walls, *a.obstacles, *a.terrain, *a.hazards):
        if isinstance(el.shape, (Circle, Rect)):
            out[el.id] = cv.to_px(el.shape.center)
    out.update({c.id: cv.to_px(c.position) for c in a.cards})
    out.update({t.id: cv.to_px(t.position) for t in a.tokens})
    return out


def _centre(x: float, y: float, w: float, h: float, rot: float) -> tuple[float, float]:
    r = math.radians(rot)  # Tiled: clockwise about the top-left corner
    return (x + w / 2 * math.cos(r) - h / 2 * math.sin(r), y + w / 2 * math.sin(r) + h / 2 * math.cos(r))


def _check_objects(a: CarWarsArena, table: dict[str, tuple[float, float, float, float, float, list]]) -> None:
    cv = canvas(a)
    assert {e.id for e in a.elements()} | {"bounds"} <= set(table)
    for name, want in _expected(a).items():
        x, y, w, h, rot, _ = table[name]
        got = _centre(x, y, w, h, rot) if w else (x, y)
        assert got == pytest.approx(want, abs=1e-3), name
    for el in (*a.walls, *a.obstacles, *a.terrain, *a.hazards):
        if isinstance(el.shape, Polygon):
            x, y, *_, points = table[el.id]
            got = sorted((x + px, y + py) for px, py in points)
            assert [v for p in got for v in p] == pytest.approx(
                [v for p in sorted(cv.to_px(q) for q in el.shape.points) for v in p], abs=1e-3), el.id


def test_pytmx_reads_car_wars_maps(arena: CarWarsArena, tmp_path: Path) -> None:
    path = tmp_path / "a.tmx"
    path.write_bytes(get("tiled").write(arena, suffix=".tmx").data)
    objects = C.pytmx_objects(path)
    _check_objects(arena, {n: (o.x, o.y, o.width, o.height, o.rotation,
                               [(p.x - o.x, p.y - o.y) for p in getattr(o, "points", ())]) for n, o in objects.items()})
    cards = [o for o in objects.values() if o.type == "card"]
    assert len(cards) == len(arena.cards) and all(int(o.properties["number"]) in range(4) for o in cards)


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_pytiled_parser_reads_car_wars_maps(arena: CarWarsArena, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"a{suffix}"
    path.write_bytes(get("tiled").write(arena, suffix=suffix).data)
    objects = C.pytiled_objects(path)
    _check_objects(arena, {n: (o.coordinates.x, o.coordinates.y, o.size.width, o.size.height, o.rotation,
                               [(p.x, p.y) for p in (getattr(o, "points", None) or [])]) for n, o in objects.items()})
    layers = {layer.name for layer in __import__("pytiled_parser").parse_map(path).layers}
    assert {"walls", "obstacles", "terrain", "hazards", "cards", "tokens", "start_positions"} <= layers


@pytest.mark.skipif(C.TILED is None, reason="Tiled (Debian package tiled) not installed")
def test_tiled_itself_round_trips_car_wars_maps(arena: CarWarsArena, tmp_path: Path) -> None:
    (tmp_path / "a.tmj").write_bytes(get("tiled").write(arena).data)
    C.tiled_resave(tmp_path / "a.tmj", tmp_path / "by-tiled.tmx")
    warnings: list[str] = []
    back = get("tiled").read((tmp_path / "by-tiled.tmx").read_bytes(), source="by-tiled.tmx", warnings=warnings)
    assert back == arena and warnings == []


@pytest.mark.parametrize("fmt,suffix", [("tiled", ".tmj"), ("tiled", ".tmx"), ("geojson", ".geojson")])
def test_car_wars_round_trips_through_tiled_and_geojson(arena: CarWarsArena, fmt: str, suffix: str) -> None:
    warnings: list[str] = []
    back = get(fmt).read(get(fmt).write(arena, suffix=suffix).data, source=f"a{suffix}", warnings=warnings)
    assert isinstance(back, CarWarsArena) and back == arena and warnings == []


def test_card_moved_in_tiled_comes_back_moved(tmp_path: Path) -> None:
    """A card dragged (and turned) in Tiled keeps its number and role and takes Tiled's place."""
    a = io.load(SHIPPED / "twin-pillars-2p.yaml")
    tmj = json.loads(get("tiled").write(a).data)
    card = next(o for layer in tmj["layers"] for o in layer["objects"] if o["type"] == "card")
    card["x"] += 64.0  # one inch right at 64 px per inch
    back = get("tiled").read(json.dumps(tmj).encode(), source="moved.tmj")
    before, after = a.card(card["name"]), back.card(card["name"])
    assert after.position == pytest.approx((before.position[0] + 1.0, before.position[1]))
    assert (after.number, after.role, after.owner, after.size) == (before.number, before.role, before.owner, before.size)


def test_geojson_card_must_stay_a_rectangle() -> None:
    a = io.load(SHIPPED / "twin-pillars-2p.yaml")
    fc = json.loads(get("geojson").write(a).data)
    f = next(f for f in fc["features"] if f["properties"]["kind"] == "card")
    f["geometry"]["coordinates"][0][1] = [f["geometry"]["coordinates"][0][1][0] + 0.7, f["geometry"]["coordinates"][0][1][1]]
    from schema.formats import FormatError

    with pytest.raises(FormatError, match="a card is a rectangle"):
        get("geojson").read(json.dumps(fc).encode(), source="bent.geojson")


# ------------------------------------------------------------------ GeoJSON


def test_geojson_package_validates_car_wars(arena: CarWarsArena) -> None:
    import geojson

    text = get("geojson").write(arena).data.decode()
    fc = geojson.loads(text)
    assert fc.is_valid, fc.errors()
    doc = json.loads(text)
    assert "coordinates" not in doc and doc["coordinate_system"] == "arena-inches" and doc["printed_mm"] == 25.4
    features = {f["id"]: f for f in fc["features"]}
    for s in arena.start_positions:
        assert tuple(features[s.id]["geometry"]["coordinates"]) == pytest.approx(s.position)
    for t in arena.tokens:
        ring = features[t.id]["geometry"]["coordinates"][0]
        cx, cy = sum(p[0] for p in ring[:-1]) / (len(ring) - 1), sum(p[1] for p in ring[:-1]) / (len(ring) - 1)
        assert (cx, cy) == pytest.approx(t.position, abs=1e-6)
        assert features[t.id]["properties"]["token_kind"] == t.kind


# ------------------------------------------------------------------ Foundry and UVTT


@pytest.mark.parametrize("px", [20, 64])
def test_foundry_car_wars_scene_fits_the_v13_data_model(arena: CarWarsArena, px: int) -> None:
    scene = json.loads(get("foundry").write(arena, image_png=b"", px_per_length=px, image_name="a.png").data)
    assert C.foundry_problems(scene) == []
    assert scene["grid"] == {"type": 1, "size": px, "distance": 1, "units": "in", "color": "#000000", "alpha": 0.2}
    minx, miny, maxx, maxy = arena.bounds.to_shapely().bounds
    assert scene["width"] == math.ceil(maxx - 1e-9) * px - math.floor(minx + 1e-9) * px  # one square per inch
    by = {}
    for w in scene["walls"]:
        by.setdefault(w["flags"]["arena-studio"]["element"], set()).add((w["move"], w["sight"]))
    assert by["bounds"] == {(20, 20)}
    for wall in arena.walls:
        assert by[wall.id] == {(20, 20 if wall.cover == "full" else 10 if wall.cover == "partial" else 0)}
    for ob in arena.obstacles:
        sight = {"full": 20, "partial": 10, "none": 0}[ob.cover]
        move = 20 if ob.weight in ("heavy", "wall") else 0
        assert by.get(ob.id, {(0, 0)}) == {(move, sight)} or (move, sight) == (0, 0), ob.id
    cv = canvas(arena, px)
    notes = {n["flags"]["arena-studio"].get("player"): n for n in scene["notes"]
             if n["flags"]["arena-studio"]["kind"] == "start_position"}
    for s in arena.start_positions:
        x, y = cv.to_px(s.position)
        assert abs(notes[s.player]["x"] - x) <= 0.5 and abs(notes[s.player]["y"] - y) <= 0.5


def test_foundry_partial_cover_is_a_limited_wall_and_said_so() -> None:
    a = CarWarsArena(name="cover", bounds=Rect((0.0, 0.0), (12.0, 12.0)),
                     obstacles=(Obstacle("rock", Rect((0.0, 0.0), (2.0, 2.0)), cover="partial", weight="heavy"),
                                Obstacle("bush", Circle((3.0, 3.0), 1.0), cover="partial", weight="drive-thru")),
                     walls=(Wall("W", Rect((-3.0, -3.0), (4.0, 1.0))),))
    result = get("foundry").write(a, image_png=b"", image_name="c.png")
    scene = json.loads(result.data)
    kinds = {(w["flags"]["arena-studio"]["element"], w["move"], w["sight"]) for w in scene["walls"]}
    assert ("rock", 20, 10) in kinds and ("bush", 0, 10) in kinds and ("W", 20, 20) in kinds
    losses = " | ".join(result.losses)
    assert "partial cover (rock, bush) is a LIMITED sight wall" in losses
    assert "round pieces (bush) are 48-sided" in losses and "W," not in losses


def test_uvtt_car_wars_walls(arena: CarWarsArena) -> None:
    fr = image_frame("uvtt", arena, 32)
    result = get("uvtt").write(arena, image_png=header_png(fr.width, fr.height), px_per_length=32)
    doc = json.loads(result.data)
    size = doc["resolution"]["map_size"]
    assert doc["resolution"]["pixels_per_grid"] == 32
    minx, miny, maxx, maxy = arena.bounds.to_shapely().bounds
    side = max(math.ceil(maxx - 1e-9) - math.floor(minx + 1e-9), math.ceil(maxy - 1e-9) - math.floor(miny + 1e-9))
    assert (size["x"], size["y"]) == (side, side)  # whole inches, padded to a square for Foundry's importer
    full = [w for w in arena.walls if w.cover == "full"] + [o for o in arena.obstacles if o.cover == "full"]
    assert len(doc["line_of_sight"]) == 1 + len(full) and doc["objects_line_of_sight"] == []
    for line in doc["line_of_sight"]:
        assert line[0] == line[-1]
        assert all(0 <= p["x"] <= size["x"] and 0 <= p["y"] <= size["y"] for p in line)
    partial = [o.id for o in arena.obstacles if o.cover == "partial"]
    if partial:
        assert any(", ".join(partial) in loss for loss in result.losses)


def test_vtt_image_is_whole_inches(tmp_path: Path) -> None:
    """The background image of the VTT exports: one grid square per inch, grid lines on it."""
    a = io.load(SHIPPED / "twin-pillars-2p.yaml")
    cv = canvas(a, 32)
    img = C.png_array(render_bytes(a, "png", view=cv.view, px_per_length=32))
    assert img.shape[:2] == (cv.height, cv.width) == (36 * 32, 36 * 32)


# ------------------------------------------------------------------ the 1:1 print


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) not installed")
def test_car_wars_print_is_one_to_one_in_inches(tmp_path: Path) -> None:
    """A 4 x 1 in wall measures 101.6 mm on paper; the header's 1-inch bar 25.4 mm; the aids
    page's turning key 2 car lengths (6 in = 152.4 mm)."""
    from editor.print_pdf import ARENA_MARGIN, HEADER, MARGIN, layout, print_pdf

    a = CarWarsArena(name="Ruler", bounds=Rect((0.0, 0.0), (6.0, 3.0)), walls=(Wall("W1", Rect((0.0, 0.0), (4.0, 1.0))),))
    lay = layout(a, "a4")
    assert (lay.cols, lay.rows, len(lay.tiles)) == (1, 1, 1)
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(print_pdf(a, "a4"))
    dpi = 600
    px_per_mm = dpi / 25.4
    subprocess.run([PDFTOPPM, "-r", str(dpi), "-f", "2", "-l", "3", "-gray", "-png", str(pdf), str(tmp_path / "pg")],
                   check=True)
    tile = qimage((tmp_path / "pg-2.png").read_bytes())
    wall_top_mm = MARGIN + HEADER + (ARENA_MARGIN + 1.0) * 25.4
    row = round((wall_top_mm + 3.0) * px_per_mm)
    widest = max(b - a for a, b in _dark_runs(tile, row))
    per_inch = (widest / px_per_mm - 0.5 * 0.9) / 4  # less about one stroke width (0.5 mm style, cosmetic >= 1 px)
    assert per_inch == pytest.approx(25.4, abs=0.15)
    bars = [b - a for a, b in _dark_runs(tile, round((MARGIN + 1.5) * px_per_mm)) if b - a > 100]
    assert bars and bars[-1] / px_per_mm == pytest.approx(25.4, abs=0.1)
    aids = qimage((tmp_path / "pg-3.png").read_bytes())
    found = [max((b - a for a, b in _dark_runs(aids, y)), default=0) for y in range(0, aids.height() // 3, 4)]
    n = int((lay.page_w - 2 * MARGIN - 4) // 25.4)
    assert max(found) / px_per_mm == pytest.approx(n * 25.4, abs=0.1 * n)


def test_print_of_the_3ft_arena_tiles_a4_and_letter() -> None:
    from editor.print_pdf import layout

    a = io.load(SHIPPED / "crossroads-4p.yaml")
    for paper in ("a4", "letter"):
        lay = layout(a, paper)
        assert lay.width == pytest.approx(37 * 25.4) and len(lay.tiles) == lay.cols * lay.rows


# ------------------------------------------------------------------ the CLI


def test_cli_exports_imports_renders_and_prints_car_wars(tmp_path: Path) -> None:
    src = SHIPPED / "twin-pillars-2p.yaml"
    for to, name in (("tiled", "a.tmx"), ("tiled", "a.tmj"), ("geojson", "a.geojson"), ("uvtt", "a.dd2vtt"),
                     ("foundry", "a.json"), ("svg", "a.svg")):
        r = arena_cli("export", str(src), "--to", to, "-o", str(tmp_path / name))
        assert r.exit_code == 0, r.output
        assert (tmp_path / name).stat().st_size > 100
    r = arena_cli("export", str(src), "--to", "foundry", "-o", str(tmp_path / "b.json"))
    assert "partial cover" in r.output or "grid square is 1 inch" in r.output
    for name in ("a.tmx", "a.geojson"):
        r = arena_cli("import", str(tmp_path / name), "-o", str(tmp_path / f"{name}.yaml"))
        assert r.exit_code == 0, r.output
        assert io.load(tmp_path / f"{name}.yaml") == io.load(src)
    r = arena_cli("render", str(src), "-o", str(tmp_path / "r.png"))
    assert r.exit_code == 0, r.output
    r = arena_cli("print", str(src), "-o", str(tmp_path / "p.pdf"), "--paper", "letter")
    assert r.exit_code == 0 and "1 inch = 25.4 mm" in r.output, r.output


# ------------------------------------------------------------------ validators and packs


@pytest.mark.parametrize("name", ALL)
def test_arena_validate_agrees_about_the_shipped_arenas(name: str) -> None:
    """``arena validate`` (the validators' runner, dispatching by ruleset): no errors or
    warnings on the clean arenas, exactly the listed codes on the flawed one."""
    from validators.run import validate

    a = io.load(SHIPPED / f"{name}.yaml")
    report = validate(a, source=name).to_json()
    codes = {f["code"] for f in report["findings"] if f["severity"] in ("error", "warning")}
    if name in CLEAN:
        assert codes == set()
    else:
        assert codes == set(re.findall(r"cw-[a-z-]+", a.description or ""))


def test_car_wars_pack_builds_verifies_and_extracts(tmp_path: Path) -> None:
    from schema.packs import read_pack

    out = tmp_path / "cw.arenapack.zip"
    r = arena_cli("pack", "build", str(SHIPPED), "-o", str(out))
    assert r.exit_code == 0, r.output
    pack = read_pack(out)
    names = sorted(entry["path"] for entry, _, _ in pack.arenas())
    assert names == [f"arenas/{n}.json" for n in sorted(ALL)]
    for entry, arena, report in pack.arenas():
        assert isinstance(arena, CarWarsArena) and report["system"] == "car-wars-6e"
    assert arena_cli("pack", "verify", str(out)).exit_code == 0
    r = arena_cli("pack", "extract", str(out), "-o", str(tmp_path / "x"))
    assert r.exit_code == 0, r.output
    pdf = (tmp_path / "x" / "print" / "crossroads-4p.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and qimage((tmp_path / "x" / "previews" / "crossroads-4p.png").read_bytes()).width() > 1000
