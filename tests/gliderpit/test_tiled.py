"""Our hex cells in a Tiled hexagonal map (engine/grids_tiled.py).

Tiled's TMX reference: ``staggeraxis`` "x" or "y" says which axis is staggered,
``staggerindex`` "odd" or "even" whether the odd or the even indexes along it are shifted, and
``hexsidelength`` the width or height (depending on the stagger axis) of the tile's edge.  The
placement formulas below are written from Tiled's own renderer
(src/libtiled/hexagonalrenderer.cpp, ``tileToScreenCoords`` and the ``topLeft``/``topRight``/
``bottomLeft``/``bottomRight`` neighbour functions), independently of our module; and the last
test has Tiled itself (``tmxrasterizer``) draw the map.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import hex_disc, hex_neighbours
from engine.grids_tiled import TiledHexGrid, tiled_hex_grid

cell_sets = st.sets(st.tuples(st.integers(-7, 7), st.integers(-7, 7)), min_size=1, max_size=60)
orientations = st.sampled_from(["pointy", "flat"])


def tiled_top_left(g: TiledHexGrid, col: int, row: int) -> tuple[int, int]:
    """HexagonalRenderer::tileToScreenCoords (RenderParams with the map's tile sizes)."""
    tw, th = g.tilewidth & ~1, g.tileheight & ~1
    stagger_x, stagger_even = g.staggeraxis == "x", g.staggerindex == "even"
    side_x = g.hexsidelength if stagger_x else 0
    side_y = 0 if stagger_x else g.hexsidelength
    side_off_x, side_off_y = (tw - side_x) // 2, (th - side_y) // 2
    column_width, row_height = side_off_x + side_x, side_off_y + side_y
    if stagger_x:
        y = row * (th + side_y) + (row_height if (col & 1) ^ stagger_even else 0)
        return col * column_width, y
    x = col * (tw + side_x) + (column_width if (row & 1) ^ stagger_even else 0)
    return x, row * row_height


def tiled_neighbours(g: TiledHexGrid, col: int, row: int) -> set[tuple[int, int]]:
    """Left/right (stagger y) or up/down (stagger x) plus Tiled's four diagonal neighbours."""
    index = 1 if g.staggerindex == "even" else 0  # Map::StaggerIndex: StaggerOdd = 0, StaggerEven = 1
    if g.staggeraxis == "y":
        shifted = (row & 1) ^ index
        diag = [(col, row - 1), (col + 1, row - 1), (col, row + 1), (col + 1, row + 1)] if shifted else \
            [(col - 1, row - 1), (col, row - 1), (col - 1, row + 1), (col, row + 1)]
        return {(col - 1, row), (col + 1, row), *diag}
    shifted = (col & 1) ^ index
    diag = [(col - 1, row), (col + 1, row), (col - 1, row + 1), (col + 1, row + 1)] if shifted else \
        [(col - 1, row - 1), (col + 1, row - 1), (col - 1, row), (col + 1, row)]
    return {(col, row - 1), (col, row + 1), *diag}


@settings(max_examples=80, deadline=None)
@given(cell_sets, orientations)
def test_offsets_round_trip_and_fill_the_map(cells: set[tuple[int, int]], orientation: Literal["pointy", "flat"]) -> None:
    g = tiled_hex_grid(cells, orientation)
    offsets = {g.to_offset(h) for h in cells}
    assert len(offsets) == len(cells)
    assert all(g.from_offset(*g.to_offset(h)) == h for h in cells)
    assert min(c for c, _ in offsets) == 0 and min(r for _, r in offsets) == 0
    assert max(c for c, _ in offsets) == g.width - 1 and max(r for _, r in offsets) == g.height - 1


@settings(max_examples=80, deadline=None)
@given(cell_sets, orientations)
def test_tiled_places_cells_on_our_lattice(cells: set[tuple[int, int]], orientation: Literal["pointy", "flat"]) -> None:
    """Where Tiled draws each cell's tile is our hex lattice, flipped to y-down: a pointy
    cell (q, r) at x = tilewidth * (q + r/2), y = -rowheight * r (plus one shift for all)."""
    g = tiled_hex_grid(cells, orientation)
    shifts = set()
    for q, r in cells:
        x, y = tiled_top_left(g, *g.to_offset((q, r)))
        if orientation == "pointy":
            row_height = (g.tileheight - g.hexsidelength) // 2 + g.hexsidelength
            shifts.add((x - g.tilewidth * (q + r / 2), y + row_height * r))
        else:
            column_width = (g.tilewidth - g.hexsidelength) // 2 + g.hexsidelength
            shifts.add((x - column_width * q, y + g.tileheight * (r + q / 2)))
    assert len(shifts) == 1


@settings(max_examples=60, deadline=None)
@given(cell_sets, orientations)
def test_tiled_neighbours_are_our_neighbours(cells: set[tuple[int, int]], orientation: Literal["pointy", "flat"]) -> None:
    g = tiled_hex_grid(cells, orientation)
    for h in cells:
        ours = {g.to_offset(n) for n in hex_neighbours(h)}
        assert ours == tiled_neighbours(g, *g.to_offset(h))


def test_map_attributes_follow_the_orientation() -> None:
    pit = hex_disc((0, 0), 9)
    pointy, flat = tiled_hex_grid(pit, "pointy", 64), tiled_hex_grid(pit, "flat", 64)
    assert (pointy.staggeraxis, pointy.width, pointy.height) == ("y", 19, 19)
    assert (flat.staggeraxis, flat.width, flat.height) == ("x", 19, 19)
    # regular hexes: the side parallel to the stagger axis's partner is about flats / sqrt 3
    assert (pointy.tilewidth, pointy.tileheight, pointy.hexsidelength) == (64, 72, 36)
    assert (flat.tilewidth, flat.tileheight, flat.hexsidelength) == (72, 64, 36)
    assert pointy.attributes()["orientation"] == "hexagonal"
    with pytest.raises(ValueError):
        tiled_hex_grid([], "pointy")


def _tmx(g: TiledHexGrid, cells: set[tuple[int, int]], image: str) -> str:
    gids = [[0] * g.width for _ in range(g.height)]
    for h in cells:
        c, r = g.to_offset(h)
        gids[r][c] = 1
    attrs = " ".join(f'{k}="{v}"' for k, v in g.attributes().items())
    data = ",\n".join(",".join(str(v) for v in row) for row in gids)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" tiledversion="1.10.2" {attrs} infinite="0" nextlayerid="2" '
            f'nextobjectid="1">\n <tileset firstgid="1" name="hex" tilewidth="{g.tilewidth}" tileheight="{g.tileheight}" '
            f'tilecount="1" columns="1">\n  <image source="{image}" width="{g.tilewidth}" height="{g.tileheight}"/>\n'
            f' </tileset>\n <layer id="1" name="pit" width="{g.width}" height="{g.height}">\n  <data encoding="csv">\n'
            f'{data}\n</data>\n </layer>\n</map>\n')


def _hex_tile(g: TiledHexGrid, path: Path) -> None:
    from PIL import Image, ImageDraw

    w, h, s = g.tilewidth, g.tileheight, g.hexsidelength
    if g.staggeraxis == "y":
        o = (h - s) // 2
        pts = [(w / 2, 0), (w, o), (w, h - o), (w / 2, h), (0, h - o), (0, o)]
    else:
        o = (w - s) // 2
        pts = [(o, 0), (w - o, 0), (w, h / 2), (w - o, h), (o, h), (0, h / 2)]
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).polygon(pts, fill=(200, 30, 30, 255))
    img.save(path)


@pytest.mark.skipif(shutil.which("tmxrasterizer") is None, reason="Tiled's tmxrasterizer is not installed")
@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_tiled_draws_the_pit_where_our_geometry_has_it(tmp_path: Path, orientation: Literal["pointy", "flat"]) -> None:
    """Tiled renders a map written with our attributes and offsets; we look for each hex at the
    place *our* lattice puts it (anchored on the painted area's centroid, nothing from Tiled's
    formulas): every pit hex is painted there, every other hex around the pit is not.  And
    pytiled-parser reads the stagger attributes back."""
    import numpy as np
    from PIL import Image
    import pytiled_parser

    rng = random.Random(7)
    cells = set(hex_disc((0, 0), 4))
    cells -= set(rng.sample(sorted(cells), 12))
    g = tiled_hex_grid(cells, orientation, 48)
    _hex_tile(g, tmp_path / "hex.png")
    (tmp_path / "pit.tmx").write_text(_tmx(g, cells, "hex.png"), encoding="utf-8")
    env = {"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "XDG_RUNTIME_DIR": str(tmp_path)}
    subprocess.run(["tmxrasterizer", "--no-smoothing", str(tmp_path / "pit.tmx"), str(tmp_path / "pit.png")],
                   check=True, env=env, capture_output=True, timeout=60)
    px = np.asarray(Image.open(tmp_path / "pit.png").convert("RGBA"))
    painted = (px[:, :, 3] > 128) & (px[:, :, 0] > 150)
    if orientation == "pointy":
        step = ((g.tileheight - g.hexsidelength) // 2 + g.hexsidelength)
        def lattice(h: tuple[int, int]) -> tuple[float, float]:
            return g.tilewidth * (h[0] + h[1] / 2), -step * h[1]
    else:
        step = ((g.tilewidth - g.hexsidelength) // 2 + g.hexsidelength)
        def lattice(h: tuple[int, int]) -> tuple[float, float]:
            return step * h[0], -g.tileheight * (h[1] + h[0] / 2)
    ys, xs = np.nonzero(painted)
    lx = sum(lattice(h)[0] for h in cells) / len(cells)
    ly = sum(lattice(h)[1] for h in cells) / len(cells)
    ax, ay = xs.mean() - lx, ys.mean() - ly
    around = {n for h in cells for n in hex_neighbours(h)} | cells
    checked = 0
    for h in around:
        x, y = lattice(h)
        col, row = round(x + ax), round(y + ay)
        if 0 <= row < painted.shape[0] and 0 <= col < painted.shape[1]:
            assert bool(painted[row, col]) == (h in cells), h
            checked += 1
    assert checked >= len(cells)
    parsed = pytiled_parser.parse_map(tmp_path / "pit.tmx")
    assert parsed.orientation == "hexagonal"
    assert (parsed.stagger_axis, parsed.stagger_index, parsed.hex_side_length) == (g.staggeraxis, g.staggerindex,
                                                                                   g.hexsidelength)
