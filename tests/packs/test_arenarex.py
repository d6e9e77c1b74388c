"""Arena Rex outputs read by other people's code: the render (CairoSVG against Qt), Tiled maps
(pytmx, pytiled-parser), GeoJSON (the geojson package), Foundry's data model, the 1:1 print in
inches on A4 and Letter, and a pack."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import schema.io as io
from editor.export_render import render_bytes
from schema.formats import canvas, get
from schema.games.arenarex import ArenaRexArena, Pit
from schema.shapes import Circle, Rect
from tests.packs import consumers as C
from tests.packs.test_render import _dark_runs, qimage

SHIPPED = Path(__file__).resolve().parents[2] / "arenas" / "arena-rex"
PDFTOPPM = shutil.which("pdftoppm")


@pytest.fixture(scope="module", params=["colosseum-30.yaml", "square-24.yaml"])
def arena(request: pytest.FixtureRequest) -> ArenaRexArena:
    a = io.load(SHIPPED / request.param)
    assert isinstance(a, ArenaRexArena)
    return a


def test_svg_renders_the_same_in_cairo_as_in_qt(arena: ArenaRexArena) -> None:
    png = C.png_array(render_bytes(arena, "png"))
    cairo = C.png_array(C.cairo_png(render_bytes(arena, "svg"), png.shape[1], png.shape[0]))
    mean, share = C.image_difference(png, cairo)
    assert mean < 4.0 and share < 0.01, f"CairoSVG vs Qt: mean difference {mean:.1f}, {share:.1%} of blocks differ"


@pytest.mark.parametrize("fmt,suffix", [("tiled", ".tmj"), ("tiled", ".tmx"), ("geojson", ".geojson")])
def test_round_trips_through_tiled_and_geojson(arena: ArenaRexArena, fmt: str, suffix: str) -> None:
    """Pits, spikes and hazards are objects; the deployment edges ride in the arena's fields."""
    warnings: list[str] = []
    result = get(fmt).write(arena, suffix=suffix)
    assert any("deployment zones are not objects" in loss for loss in result.losses)
    back = get(fmt).read(result.data, source=f"a{suffix}", warnings=warnings)
    assert back == arena and warnings == []


def test_pytiled_parser_places_the_pits(arena: ArenaRexArena, tmp_path: Path) -> None:
    path = tmp_path / "a.tmj"
    path.write_bytes(get("tiled").write(arena, suffix=".tmj").data)
    objects = C.pytiled_objects(path)
    cv = canvas(arena)
    for p in arena.pits:
        o = objects[p.id]
        assert isinstance(p.shape, Circle)
        centre = (o.coordinates.x + o.size.width / 2, o.coordinates.y + o.size.height / 2)
        assert centre == pytest.approx(cv.to_px(p.shape.center), abs=1e-3)
        assert o.size.width == pytest.approx(2 * p.shape.radius * cv.px, abs=1e-3)


def test_geojson_package_validates(arena: ArenaRexArena) -> None:
    import geojson

    text = get("geojson").write(arena).data.decode()
    fc = geojson.loads(text)
    assert fc.is_valid, fc.errors()
    doc = json.loads(text)
    assert doc["coordinate_system"] == "arena-inches"
    assert doc["features"][0]["properties"]["arena"]["deployment"]  # the bounds feature carries the arena's fields
    kinds = {f["properties"]["kind"] for f in doc["features"]}
    assert {"pit", "hazard", "bounds"} <= kinds


def test_foundry_walls_follow_blocks_movement_and_sight() -> None:
    a = io.load(SHIPPED / "colosseum-30.yaml")
    scene = json.loads(get("foundry").write(a, image_png=b"", px_per_length=64, image_name="a.png").data)
    assert C.foundry_problems(scene) == []
    by: dict[str, set[tuple[int, int]]] = {}
    for w in scene["walls"]:
        by.setdefault(w["flags"]["arena-studio"]["element"], set()).add((w["move"], w["sight"]))
    assert by["column-nw"] == {(20, 20)}
    assert "rubble" not in by  # walked over and seen through: a region
    regions = {r["flags"]["arena-studio"]["id"] for r in scene["regions"]}
    assert {"pit-west", "pit-east", "spikes-north", "rubble"} <= regions


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) not installed")
def test_print_is_one_to_one_in_inches(tmp_path: Path) -> None:
    """A pit of 2 in diameter on paper: 0.6 in above its centre its chord is 2 sqrt(1 - 0.36) =
    1.6 in = 40.64 mm (above the label printed on its centre)."""
    from editor.print_pdf import ARENA_MARGIN, HEADER, MARGIN, layout, print_pdf

    a = ArenaRexArena("Ruler", bounds=Rect((0.0, 0.0), (6.0, 3.0)), pits=(Pit("p", Circle((0.0, 0.0), 1.0)),))
    lay = layout(a, "a4")
    assert (lay.cols, lay.rows, len(lay.tiles)) == (1, 1, 1)
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(print_pdf(a, "a4"))
    dpi = 600
    px_per_mm = dpi / 25.4
    subprocess.run([PDFTOPPM, "-r", str(dpi), "-f", "2", "-l", "2", "-gray", "-png", str(pdf), str(tmp_path / "pg")],
                   check=True)
    tile = qimage((tmp_path / "pg-2.png").read_bytes())
    row = round((MARGIN + HEADER + (ARENA_MARGIN + 1.5 - 0.6) * 25.4) * px_per_mm)
    widest = max(b - a for a, b in _dark_runs(tile, row))
    assert widest / px_per_mm - 0.5 == pytest.approx(40.64, abs=0.3)  # less the 0.5 mm outline (half each side)


def test_print_of_the_30_circle_tiles_a4_and_letter() -> None:
    from editor.print_pdf import layout

    a = io.load(SHIPPED / "colosseum-30.yaml")
    for paper in ("a4", "letter"):
        lay = layout(a, paper)
        assert lay.width == pytest.approx(31 * 25.4) and 1 < len(lay.tiles) <= lay.cols * lay.rows  # corners off the circle skipped
