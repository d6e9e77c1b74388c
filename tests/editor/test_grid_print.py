"""Grid arenas render (PNG, SVG, PDF) and print 1:1 (issue 15): a hex printed at N mm measures
N mm across the flats on paper, a square N mm a side; A4 and Letter pages, tiled when the
arena is bigger than a page.  Measured with other people's code: poppler's pdftoppm rasterises
the PDF, Pillow and numpy read the pixels, CairoSVG draws the SVG."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from editor.export_render import render_bytes
from editor.grid_render import extent
from editor.print_pdf import ARENA_MARGIN, HEADER, MARGIN, layout, print_pdf
from schema.games import gliderpit as gp
from schema.games import mothership as ms

PDFTOPPM = shutil.which("pdftoppm")
DPI = 600
PX_MM = DPI / 25.4
needs_poppler = pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) not installed")


def pages(pdf: bytes, tmp_path: Path, first: int, last: int) -> list[np.ndarray]:
    src = tmp_path / "p.pdf"
    src.write_bytes(pdf)
    subprocess.run([PDFTOPPM, "-r", str(DPI), "-f", str(first), "-l", str(last), "-gray", "-png", str(src),
                    str(tmp_path / "pg")], check=True)
    out = sorted(tmp_path.glob("pg-*.png"))
    return [np.asarray(Image.open(p).convert("L")) for p in out]


def dark_runs(row: np.ndarray, level: int = 100) -> list[tuple[int, int]]:
    dark = np.concatenate([[False], row < level, [False]])
    edges = np.flatnonzero(dark[1:] != dark[:-1])
    return list(zip(edges[::2], edges[1::2]))


def line_y_mm(arena: object, y: float) -> float:
    """The page's y (mm) of arena height ``y`` on a single-tile print."""
    _x0, _y0, _x1, y1 = extent(arena)
    mm = arena.units.printed_mm  # type: ignore[attr-defined]
    return MARGIN + HEADER + (y1 + ARENA_MARGIN - y) * mm


@needs_poppler
@pytest.mark.parametrize("cell", [15.0, 19.05])
def test_a_hex_printed_at_n_mm_measures_n_mm_across_the_flats(tmp_path: Path, cell: float) -> None:
    """Four pointy hexes in a row: the pit wall's two vertical hexsides on the centre line are
    four hexes apart, 4 N mm."""
    arena = gp.GliderPitArena(name="Ruler", cells=((0, 0), (1, 0), (2, 0), (3, 0)))
    lay = layout(gp.GliderPitArena(name="Ruler", cells=arena.cells, units=gp.Units(hex_mm=cell)), "a4")
    assert len(lay.tiles) == 1
    tile = pages(print_pdf(arena, "a4", cell_mm=cell), tmp_path, 2, 2)[0]
    assert np.allclose(np.array(tile.shape) / PX_MM, (297, 210), atol=0.2)  # an A4 page, portrait
    printed = gp.GliderPitArena(name="Ruler", cells=arena.cells, units=gp.Units(hex_mm=cell))
    runs = dark_runs(tile[round(line_y_mm(printed, 0.0) * PX_MM)])
    walls = [(a + b) / 2 for a, b in runs if b - a < 2 * PX_MM]  # the wall strokes, not text
    assert len(walls) == 2
    assert (walls[1] - walls[0]) / PX_MM == pytest.approx(4 * cell, abs=0.1)


@needs_poppler
def test_a_square_printed_at_n_mm_on_letter(tmp_path: Path) -> None:
    """The battlefield's heavy edge, 3 squares wide at 20 mm: 60 mm; a Letter page."""
    arena = ms.default_arena()
    pdf = print_pdf(arena, "letter", cell_mm=20.0)
    printed = ms.MothershipArena(name=arena.name, squares=arena.squares, motherships=arena.motherships,
                                 units=ms.Units(square_mm=20.0))
    assert len(layout(printed, "letter").tiles) == 1
    tile = pages(pdf, tmp_path, 2, 2)[0]
    assert np.allclose(np.array(tile.shape) / PX_MM, (279.4, 215.9), atol=0.2)  # Letter
    runs = dark_runs(tile[round(line_y_mm(printed, 2.5) * PX_MM)])
    edges = [(a + b) / 2 for a, b in runs if b - a < 2 * PX_MM]
    assert (edges[-1] - edges[0]) / PX_MM == pytest.approx(60.0, abs=0.1)


def test_the_book_sized_pit_tiles_over_pages_on_a4_and_letter() -> None:
    """At 19.05 mm a hex (the printed default) the radius-9 pit is wider than a page."""
    for paper in ("a4", "letter"):
        lay = layout(gp.default_arena(), paper)
        assert len(lay.tiles) > 1 and lay.width > 19 * 19.05
    lay = layout(ms.default_arena(), "a4")  # 90 mm squares: 3 x 7 of them
    assert len(lay.tiles) > 1 and lay.height == pytest.approx((7 + 0.5 + 2 * ARENA_MARGIN) * 90.0)


def test_refuses_an_impossible_cell_size() -> None:
    with pytest.raises(ValueError, match="between 2 and 500 mm"):
        print_pdf(gp.default_arena(), "a4", cell_mm=0.0)


def test_the_svg_render_draws_hexes_zones_and_labels_for_cairosvg() -> None:
    """CairoSVG (not Qt) draws the SVG: the zone orange and the hex floor are on it, and the
    row totals are text."""
    import cairosvg

    svg = render_bytes(gp.default_arena(), "svg")
    assert b"Track 1" in svg and b"FLOOR: standard" in svg
    png = cairosvg.svg2png(bytestring=svg)
    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).reshape(-1, 3).astype(int)
    zone = np.abs(img - [0xEE, 0xC1, 0x59]).sum(axis=1) < 40  # #E69F00 at 60 % over the floor
    floor = np.abs(img - [0xFB, 0xFA, 0xF5]).sum(axis=1) < 6
    assert zone.sum() > 2000 and floor.sum() > 50000


def test_png_render_of_the_battlefield_shows_both_players_colours() -> None:
    png = render_bytes(ms.default_arena(), "png")
    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).reshape(-1, 3).astype(int)
    for colour in ((0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00)):  # player 1 blue, player 2 vermillion at 70 %
        blend = [round(0.7 * c + 0.3 * 255) for c in colour]
        assert (np.abs(img - blend).sum(axis=1) < 30).sum() > 5000


def test_cli_prints_with_a_chosen_cell_size_and_refuses_it_for_free_tables(tmp_path: Path) -> None:
    import yaml

    from tests.packs.test_render import arena_cli

    src = tmp_path / "pit.yaml"
    src.write_text(yaml.safe_dump(gp.to_document(gp.default_arena()), sort_keys=False), encoding="utf-8")
    r = arena_cli("print", str(src), "-o", str(tmp_path / "p.pdf"), "--cell-mm", "12", "--paper", "letter")
    assert r.exit_code == 0 and "1 hex = 12 mm" in r.output, r.output
    assert (tmp_path / "p.pdf").read_bytes().startswith(b"%PDF")
    r = arena_cli("print", str(src), "-o", str(tmp_path / "q.pdf"), "--cell-mm", "0.5")
    assert r.exit_code == 2 and "between 2 and 500 mm" in r.output
    r = arena_cli("render", str(src), "-o", str(tmp_path / "r.svg"))
    assert r.exit_code == 0 and (tmp_path / "r.svg").stat().st_size > 10000
