"""Rendering (SVG/PNG/PDF), the printable 1:1 PDF measured on paper, and the CLI end to end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import schema
from editor.export_render import RenderError, render_bytes
from editor.print_pdf import MARGIN, PAPERS, layout, print_pdf
from schema.formats import canvas
from tests.packs.conftest import DEFAULT, FAST, measurable_arena

pytestmark = pytest.mark.usefixtures("qapp")
PDFTOPPM = shutil.which("pdftoppm")


def qimage(data: bytes):  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    img = QImage()
    assert img.loadFromData(data)
    return img


def test_render_formats(default_arena) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtSvg import QSvgRenderer

    png = render_bytes(default_arena, "png")
    img = qimage(png)
    assert img.width() == 1400 and img.height() > 700
    svg = render_bytes(default_arena, "svg")
    assert b"<svg" in svg and QSvgRenderer(svg).isValid()
    pdf = render_bytes(default_arena, "pdf")
    assert pdf.startswith(b"%PDF") and b"D:19800101000000Z" in pdf
    assert render_bytes(default_arena, "pdf") == pdf and render_bytes(default_arena, "png") == png


def test_bare_view_is_exactly_framed(default_arena) -> None:  # type: ignore[no-untyped-def]
    cv = canvas(default_arena, 16)
    img = qimage(render_bytes(default_arena, "png", view=cv.view, px_per_length=16))
    assert (img.width(), img.height()) == (cv.width, cv.height)
    # the centre checkpoint M (purple-ish fill) sits at the image centre; the corner is outside the bounds
    assert img.pixelColor(2, 2).name() == "#c9c9c4"
    assert img.pixelColor(cv.width // 2, cv.height // 2).name() != "#c9c9c4"


def test_what_is_drawn_is_the_games_export_hook(default_arena, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 37: ``render_bytes`` names no game; it asks the arena's game's
    ``EditorGame.export()`` to check the overlays and paint the page and the framed view."""
    from editor.export_render import ArenaExport
    from editor.games.gravstrike import GravstrikeEditor
    from editor.games.gravstrike.export_layers import GravstrikeExport

    asked: list[str] = []

    class Recording(GravstrikeExport):
        def check_overlays(self, arena, overlays):  # type: ignore[no-untyped-def]
            asked.append("check " + ",".join(o.kind for o in overlays))
            super().check_overlays(arena, overlays)

        def paint_page(self, painter, arena, width, height, **kw):  # type: ignore[no-untyped-def]
            asked.append("page")
            super().paint_page(painter, arena, width, height, **kw)

        def paint_view(self, painter, arena, target, overlays=()):  # type: ignore[no-untyped-def]
            asked.append("view")
            super().paint_view(painter, arena, target, overlays)

    plain = render_bytes(default_arena, "png", overlays=["los"])
    monkeypatch.setattr(GravstrikeEditor, "export", lambda self: Recording())
    assert render_bytes(default_arena, "png", overlays=["los"]) == plain  # the same drawing, through the hook
    cv = canvas(default_arena, 8)
    render_bytes(default_arena, "png", view=cv.view, px_per_length=8)
    assert asked == ["check los", "page", "check ", "view"]
    assert Recording.overlays == ("los", "paths", "heatmap") and ArenaExport.overlays == ()


def test_overlays(default_arena) -> None:  # type: ignore[no-untyped-def]
    plain = render_bytes(default_arena, "png")
    assert render_bytes(default_arena, "png", overlays=["los"]) != plain
    with pytest.raises(RenderError, match="the arena has no start:9"):
        render_bytes(default_arena, "png", overlays=["heatmap:start:9"])
    with pytest.raises(RenderError, match="heatmap:start:N"):
        render_bytes(default_arena, "png", overlays=["heatmap:middle"])
    with pytest.raises(RenderError, match="unknown overlay 'fog'"):
        render_bytes(default_arena, "png", overlays=["fog"])


def test_print_layout_and_determinism(default_arena) -> None:  # type: ignore[no-untyped-def]
    lay = layout(default_arena, "a4")
    assert lay.cols * lay.rows >= 20 and lay.code(1, 2) == "C2"
    total_w = lay.stride[0] * (lay.cols - 1) + lay.draw_w
    assert total_w >= lay.width and lay.stride[1] * (lay.rows - 1) + lay.draw_h >= lay.height
    small = measurable_arena()
    assert print_pdf(small, "letter") == print_pdf(small, "letter")


def _dark_runs(img, row: int, threshold: int = 110) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    runs, start = [], None
    for x in range(img.width()):
        dark = img.pixelColor(x, row).value() < threshold
        if dark and start is None:
            start = x
        elif not dark and start is not None:
            runs.append((start, x))
            start = None
    return runs


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (poppler-utils) not installed")
def test_one_length_measures_length_mm_on_paper(tmp_path: Path) -> None:
    arena = measurable_arena(30.0)
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(print_pdf(arena, "a4"))
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    lay = layout(arena, "a4")
    assert (lay.cols, lay.rows) == (1, 1)
    w_pt, h_pt = (float(v) for v in info.split("Page size:")[1].split("pts")[0].split("x"))
    # Qt rounds the media box to whole points (A4 = 595 x 842 pt); drawing coordinates are exact
    assert sorted((w_pt / 72 * 25.4, h_pt / 72 * 25.4)) == pytest.approx(sorted(PAPERS["a4"]), abs=0.4)
    dpi = 600
    px_per_mm = dpi / 25.4
    subprocess.run([PDFTOPPM, "-r", str(dpi), "-f", "2", "-l", "3", "-gray", "-png", str(pdf), str(tmp_path / "pg")],
                   check=True)
    tile = qimage((tmp_path / "pg-2.png").read_bytes())
    # wall W1: 4 x 1 lengths centred in a 6 x 3 arena; the drawing area starts MARGIN + HEADER from the top
    from editor.print_pdf import ARENA_MARGIN, HEADER

    wall_top_mm = MARGIN + HEADER + (ARENA_MARGIN + 1.0) * 30.0
    row = round((wall_top_mm + 5.0) * px_per_mm)  # 5 mm inside the wall, above its centred label
    widest = max(b - a for a, b in _dark_runs(tile, row))
    outline_mm = 1.5 / 96 * 25.4  # the cosmetic 1.5 px outline adds half its width on each side
    per_length = (widest / px_per_mm - outline_mm) / 4
    assert per_length == pytest.approx(30.0, abs=0.1)
    # the 1-length calibration bar in the header (solid, no outline)
    bar_row = round((MARGIN + 1.5) * px_per_mm)
    bars = [b - a for a, b in _dark_runs(tile, bar_row) if b - a > 100]
    assert bars and bars[-1] / px_per_mm == pytest.approx(30.0, abs=0.1)
    # the measuring-aids page's n-length solid bar
    aids = qimage((tmp_path / "pg-3.png").read_bytes())
    found = [max((b - a for a, b in _dark_runs(aids, y)), default=0) for y in range(0, aids.height() // 3, 4)]
    n = int((lay.page_w - 2 * MARGIN - 4) // 30)
    assert max(found) / px_per_mm == pytest.approx(n * 30.0, abs=0.1 * n)


runner = CliRunner()


def arena_cli(*args: str):  # type: ignore[no-untyped-def]
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_cli_export_import_render_print(tmp_path: Path) -> None:
    for target, name in (("tiled", "d.tmj"), ("geojson", "d.geojson"), ("uvtt", "d.dd2vtt"), ("foundry", "d.json"),
                         ("svg", "d.svg")):
        r = arena_cli("export", str(DEFAULT), "--to", target, "-o", str(tmp_path / name), "--px", "20")
        assert r.exit_code == 0, r.output
    assert "UVTT has no acceleration fields" in arena_cli("export", str(DEFAULT), "--to", "uvtt", "-o",
                                                          str(tmp_path / "e.dd2vtt"), "--px", "16").output
    assert (tmp_path / "d.png").exists() and json.loads((tmp_path / "d.json").read_text())["background"]["src"] == "d.png"
    for name in ("d.tmj", "d.geojson"):
        r = arena_cli("import", str(tmp_path / name), "-o", str(tmp_path / f"{name}.yaml"))
        assert r.exit_code == 0, r.output
        assert schema.load(tmp_path / f"{name}.yaml") == schema.load(DEFAULT)
    r = arena_cli("import", str(tmp_path / "d.dd2vtt"), "-o", str(tmp_path / "x.yaml"))
    assert r.exit_code == 2 and "cannot import .dd2vtt" in r.output
    r = arena_cli("render", str(DEFAULT), "-o", str(tmp_path / "r.png"), "--overlay", "heatmap:start:7")
    assert r.exit_code == 2 and "no start:7" in r.output
    assert arena_cli("render", str(DEFAULT), "-o", str(tmp_path / "r.svg")).exit_code == 0
    r = arena_cli("print", str(DEFAULT), "-o", str(tmp_path / "p.pdf"), "--paper", "letter")
    assert r.exit_code == 0 and "tile pages" in r.output


def test_cli_pack_build_verify_extract(tmp_path: Path) -> None:
    small = tmp_path / "small.yaml"
    schema.save(measurable_arena(), small)
    only = [a for code in FAST for a in ("--only", code)]
    out1, out2 = tmp_path / "one.arenapack.zip", tmp_path / "two.arenapack.zip"
    for out in (out1, out2):
        r = arena_cli("pack", "build", str(small), str(DEFAULT), "-o", str(out), "--name", "Demo", *only)
        assert r.exit_code == 0, r.output
    assert out1.read_bytes() == out2.read_bytes()
    r = arena_cli("pack", "verify", str(out1))
    assert r.exit_code == 0 and "validation agrees" in r.output, r.output
    r = arena_cli("pack", "extract", str(out1), "-o", str(tmp_path / "x"))
    assert r.exit_code == 0 and schema.load(tmp_path / "x" / "arenas" / "default.json") == schema.load(DEFAULT)
    # a stored report that validation no longer agrees with (checksums re-signed, so only re-validation sees it)
    from schema.packs import PackArena, PackInfo, build_pack, read_pack

    pack = read_pack(out1)
    items = []
    for entry, arena, report in pack.arenas():
        report = dict(report, summary={"error": 3, "warning": 0, "info": 0})
        items.append(PackArena(entry["id"], arena, report, b"", b"", b""))
    (tmp_path / "lie.zip").write_bytes(build_pack(PackInfo("Lie"), items))
    r = arena_cli("pack", "verify", str(tmp_path / "lie.zip"))
    assert r.exit_code == 1 and "reports/small.report.json/summary/error: stored 3" in r.output, r.output
    r = arena_cli("pack", "verify", str(tmp_path / "x" / "manifest.json"))
    assert r.exit_code == 1 and "not a zip file" in r.output


def test_paths_overlay_draws_planner_routes() -> None:
    from schema.shapes import Circle, Rect
    from schema.games.gravstrike.model import Arena, Checkpoint, StartPosition

    arena = Arena(name="t", bounds=Rect((0.0, 0.0), (20.0, 8.0)),
                  checkpoints=(Checkpoint("A", "outlying", Circle((6.0, 0.0), 0.5)),),
                  start_positions=(StartPosition(1, (-8.0, 0.0), 0.0),))
    plain = qimage(render_bytes(arena, "png", view=(-10.0, -4.0, 10.0, 4.0), px_per_length=10))
    routed = qimage(render_bytes(arena, "png", overlays=["paths"], view=(-10.0, -4.0, 10.0, 4.0), px_per_length=10))
    # the route runs along y = 0 from the start to the checkpoint: pixels between them change
    changed = [x for x in range(40, 150) if plain.pixelColor(x, 40) != routed.pixelColor(x, 40)]
    assert len(changed) > 50


def test_heatmap_overlay_colours_cells_by_turns(tmp_path: Path) -> None:
    """``--overlay heatmap:start:N``: cells coloured by the turns a turbine starting at rest needs
    to end a length there ("Distance and Speed": it moves 2 lengths in turn 1 at Speed Delta 2)."""
    from editor.games.gravstrike.export_layers import HEAT_BANDS, heat_colour, reach_map
    from schema.shapes import Rect
    from schema.games.gravstrike.model import Arena, StartPosition, Wall

    arena = Arena(name="heat", bounds=Rect((0.0, 0.0), (12.0, 8.0)), walls=(Wall("W1", Rect((2.0, 0.0), (1.0, 4.0))),),
                  start_positions=(StartPosition(1, (-4.0, -2.0), 0.0),))
    reach = reach_map(arena, 1)
    assert reach.at(-4.0, -2.0) == 0.0
    assert reach.at(-2.2, -2.0) <= 1.0          # two lengths straight ahead: end of turn 1
    assert 1.0 < reach.at(4.5, 3.0) < 4.0      # behind the wall: later
    assert heat_colour(0.5) == HEAT_BANDS[0][1] and heat_colour(9.0) is None
    r = arena_cli("render", str(_write(tmp_path, arena)), "-o", str(tmp_path / "h.png"), "--overlay", "heatmap:start:1")
    assert r.exit_code == 0, r.output
    plain = arena_cli("render", str(_write(tmp_path, arena)), "-o", str(tmp_path / "p.png"))
    assert plain.exit_code == 0
    img, ref = qimage((tmp_path / "h.png").read_bytes()), qimage((tmp_path / "p.png").read_bytes())
    changed = sum(1 for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)
                  if img.pixelColor(x, y) != ref.pixelColor(x, y))
    assert changed > 500  # the overlay really covers the arena


def _write(tmp_path: Path, arena) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / "heat.yaml"
    if not path.exists():
        schema.save(arena, path)
    return path


def test_a_process_that_rendered_can_still_open_a_window() -> None:
    """A pack render makes the process's one Qt application (fonts); a window opened later in the
    same process (the editor after a pack build, a test run after a pack test) needs it to be a
    QApplication - under a bare QGuiApplication Qt aborts the process."""
    import sys

    code = ("from editor.export_render import ensure_app\n"
            "ensure_app()\n"
            "from PySide6.QtWidgets import QMainWindow\n"
            "w = QMainWindow(); w.setWindowTitle('after a render'); print(w.windowTitle())\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "after a render", done.stderr[-2000:]
