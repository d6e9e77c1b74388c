"""``arena print`` / File → Export → Printable PDF (issue 18, point 11): a square of the page
grid that holds only floor outside the arena is not printed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import shapely

from editor.print_pdf import ARENA_MARGIN, layout, print_pdf
from schema import load

ROOT = Path(__file__).resolve().parents[2]


def printed_bounds(arena):  # type: ignore[no-untyped-def]
    """The bounds in the printed rectangle's millimetres (y down), computed here on their own."""
    minx, _, _, maxy = arena.bounds.to_shapely().bounds
    L = arena.units.length_mm
    return shapely.Polygon([((x - minx + ARENA_MARGIN) * L, (maxy + ARENA_MARGIN - y) * L)
                            for x, y in arena.bounds.to_shapely().exterior.coords])


def test_default_arena_skips_the_empty_corners() -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    lay = layout(arena, "a4")
    grid = {(r, c) for r in range(lay.rows) for c in range(lay.cols)}
    skipped = grid - set(lay.tiles)
    assert len(grid) == 24 and len(skipped) == 3  # the hexagon leaves three corner squares empty
    hexagon = printed_bounds(arena)
    for r, c in grid:
        tx, ty = lay.tile_origin(r, c)
        holds = hexagon.intersection(shapely.box(tx, ty, tx + lay.draw_w, ty + lay.draw_h)).area > 1.0
        assert holds == ((r, c) in lay.tiles), (r, c)
    # every part of the arena is still on some printed page
    covered = shapely.union_all([shapely.box(*lay.tile_origin(r, c), lay.tile_origin(r, c)[0] + lay.draw_w,
                                             lay.tile_origin(r, c)[1] + lay.draw_h) for r, c in lay.tiles])
    assert hexagon.difference(covered).area < 1e-6


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="pdfinfo (poppler-utils) not installed")
def test_the_pdf_has_only_the_printed_tiles(tmp_path: Path) -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    lay = layout(arena, "a4")
    pdf = tmp_path / "p.pdf"
    pdf.write_bytes(print_pdf(arena, "a4"))
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(info.split("Pages:")[1].split()[0])
    assert pages == 1 + len(lay.tiles) + 1 == 23  # assembly map, 21 tiles, measuring aids
