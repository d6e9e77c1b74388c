"""The grid games' Tiled maps (issue 15: "Tiled export writes real grid maps — a hexagonal map
for the pit (Tiled's staggered hex orientation), an orthogonal one for the battlefield, row
labels and zones as properties — that Tiled's own tools and pytiled-parser read").

Checked with other people's code: pytiled-parser (TMX and TMJ), PyTMX (TMX), Tiled itself
(re-saving the map, and ``tmxrasterizer`` drawing it).  The tile each cell should land on is
computed here from the axial coordinates with the offset-coordinate formulas of Red Blob
Games' hex grid guide ("odd-r"/"even-r" for pointy hexes, "odd-q"/"even-q" for flat ones,
after turning our y-up axial coordinates into its y-down ones), not with our module; and where
Tiled draws a tile with the formulas of Tiled's hexagonal renderer (tests/gliderpit/test_tiled.py).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from schema.games import gliderpit, mothership
from schema.formats import FormatError, get
from tests.gliderpit.test_tiled import tiled_top_left
from tests.packs.consumers import TILED, tiled_resave

Cell = tuple[int, int]
runner = CliRunner()


def pit(orientation: str = "pointy") -> gliderpit.GliderPitArena:
    return replace(gliderpit.default_arena(), orientation=orientation)  # type: ignore[arg-type]


def export(arena: Any, tmp_path: Path, suffix: str) -> Path:
    result = get("tiled").write(arena, px_per_length=48, image_name="map.tiles.png", suffix=suffix)
    out = tmp_path / f"map{suffix}"
    out.write_bytes(result.data)
    for name, data in result.files.items():
        (tmp_path / name).write_bytes(data)
    return out


# ------------------------------------------------------------------ Red Blob Games' offset coordinates


def unshifted_offsets(cells: list[Cell], orientation: str, stagger_parity: int, shift: int) -> dict[Cell, Cell]:
    """(column, row) of each cell before the map's shift: our y-up axial turned into the
    guide's y-down axial, then its "odd"/"even" offset conversion for the parity that Tiled's
    staggered rows (pointy) or columns (flat) have once shifted by ``shift``."""
    out = {}
    for q, r in cells:
        if orientation == "pointy":
            qd, rd = q + r, -r  # our (0, 1) points up-right: the guide's (+1, -1)
            odd = (stagger_parity - shift) % 2 == 1  # which rd rows Tiled pushes right
            col = qd + (rd - (rd & 1)) // 2 if odd else qd + (rd + (rd & 1)) // 2
            out[(q, r)] = (col, rd)
        else:
            qd, rd = q, -q - r  # our (1, 0) points up-right: the guide's (+1, -1); (0, 1) up: (0, -1)
            odd = (stagger_parity - shift) % 2 == 1  # which qd columns Tiled pushes down
            row = rd + (qd - (qd & 1)) // 2 if odd else rd + (qd + (qd & 1)) // 2
            out[(q, r)] = (qd, row)
    return out


def painted(layer_data: list[list[int]]) -> set[Cell]:
    return {(c, r) for r, row in enumerate(layer_data) for c, gid in enumerate(row) if gid}


def expected_tiles(cells: list[Cell], orientation: str, staggerindex: str, pit_tiles: set[Cell]) -> dict[Cell, Cell]:
    """Each cell's Tiled (column, row), anchored on the painted pit layer's top-left."""
    parity = 1 if staggerindex == "odd" else 0
    # the stagger axis's shift: the smallest painted index minus the smallest unshifted one
    axis = 1 if orientation == "pointy" else 0
    base = unshifted_offsets(cells, orientation, parity, 0)
    shift = min(t[axis] for t in pit_tiles) - min(o[axis] for o in base.values())
    offsets = unshifted_offsets(cells, orientation, parity, shift)
    other = 1 - axis
    other_shift = min(t[other] for t in pit_tiles) - min(o[other] for o in offsets.values())
    return {c: ((o[0] + (shift if axis == 0 else other_shift)), (o[1] + (shift if axis == 1 else other_shift)))
            for c, o in offsets.items()}


def flat(points: list[tuple[float, float]]) -> list[float]:
    return [v for p in points for v in p]


def tile_centre(m: Any, col: int, row: int) -> tuple[float, float]:
    g = SimpleNamespace(tilewidth=m.tile_size.width, tileheight=m.tile_size.height, hexsidelength=m.hex_side_length,
                        staggeraxis=m.stagger_axis, staggerindex=m.stagger_index)
    x, y = tiled_top_left(g, col, row)  # type: ignore[arg-type]
    return x + g.tilewidth / 2, y + g.tileheight / 2


# ------------------------------------------------------------------ the pit


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_pytiled_parser_finds_every_hex_and_element_on_its_tile(tmp_path: Path, orientation: str, suffix: str) -> None:
    """The pit is a hexagonal map staggered along the recorded orientation's axis; every pit
    hex is painted on the tile the offset formulas give; every row's and launch zone's points
    lie on the centres of its hexes' tiles, with the book's numbers as properties."""
    import pytiled_parser

    arena = pit(orientation)
    m = pytiled_parser.parse_map(export(arena, tmp_path, suffix))
    assert m.orientation == "hexagonal"
    assert m.stagger_axis == ("y" if orientation == "pointy" else "x")
    assert m.hex_side_length == 28  # 48 px across the flats: sides of 48 / sqrt 3, rounded even
    (tileset,) = m.tilesets.values()
    assert {t.class_ for t in tileset.tiles.values()} == {"pit", "launch_zone"}
    assert (tmp_path / tileset.image.name).exists()
    layers = {layer.name: layer for layer in m.layers}
    pit_tiles = painted(layers["pit hexes"].data)
    tiles = expected_tiles(list(arena.cells), orientation, m.stagger_index, pit_tiles)
    assert pit_tiles == set(tiles.values())
    zone_tiles = painted(layers["launch zone hexes"].data)
    assert zone_tiles == {tiles[c] for z in arena.launch_zones for c in z.cells}
    zone_gid = next(tileset.firstgid + i for i, t in tileset.tiles.items() if t.class_ == "launch_zone")
    assert all(layers["launch zone hexes"].data[r][c] == zone_gid for c, r in zone_tiles)

    objects = {o.name: o for layer in m.layers for o in getattr(layer, "tiled_objects", [])}
    for zone in arena.launch_zones:
        o = objects[zone.id]
        assert o.class_ == "launch_zone" and o.properties["track"] == zone.track
        points = [(o.coordinates.x + p.x, o.coordinates.y + p.y) for p in o.points]
        assert flat(points) == pytest.approx(flat([tile_centre(m, *tiles[c]) for c in zone.cells]))
    line = 1 if orientation == "pointy" else 0
    for row in arena.rows:
        o = objects[row.id]
        assert o.class_ == "row" and (o.properties["label"], o.properties["line"]) == (row.label, row.line)
        on_row = sorted((c for c in arena.cells if c[line] == row.line), key=lambda c: c[1 - line])
        points = [(o.coordinates.x + p.x, o.coordinates.y + p.y) for p in o.points]
        assert flat(points) == pytest.approx(flat([tile_centre(m, *tiles[c]) for c in on_row]))
    assert m.properties["system"] == "glider-pit-gladiators" and m.properties["floor"] == "standard"
    assert m.properties["hex_orientation"] == orientation
    texts = sorted(o.text for layer in m.layers if layer.name == "labels" for o in layer.tiled_objects)
    assert texts == sorted(str(r.label) for r in arena.rows)


def test_pytmx_reads_the_pit_with_the_same_tiles_and_points(tmp_path: Path) -> None:
    import logging

    import pytiled_parser
    import pytmx

    logging.getLogger("pytmx").setLevel(logging.CRITICAL)
    arena = pit()
    path = export(arena, tmp_path, ".tmx")
    tm = pytmx.TiledMap(str(path))
    assert (tm.orientation, tm.staggeraxis, tm.staggerindex, int(tm.hexsidelength)) == ("hexagonal", "y", "even", 28)
    m = pytiled_parser.parse_map(path)  # only for the stagger attributes the renderer formula needs
    layer = tm.get_layer_by_name("pit hexes")
    pit_tiles = {(c, r) for r, row in enumerate(layer.data) for c, gid in enumerate(row) if gid}
    tiles = expected_tiles(list(arena.cells), "pointy", tm.staggerindex, pit_tiles)
    assert pit_tiles == set(tiles.values())
    zones = tm.get_layer_by_name("launch zone hexes")
    for zone in arena.launch_zones:
        o = tm.get_object_by_name(zone.id)
        assert (o.type, o.properties["track"], json.loads(o.properties["json:cells"])) == \
            ("launch_zone", zone.track, [list(c) for c in zone.cells])
        assert flat([(p.x, p.y) for p in o.points]) == pytest.approx(flat([tile_centre(m, *tiles[c]) for c in zone.cells]))
        for c in zone.cells:
            col, row = tiles[c]
            assert tm.get_tile_properties_by_gid(zones.data[row][col])["type"] == "launch_zone"
    assert tm.properties["system"] == "glider-pit-gladiators"
    assert json.loads(tm.properties["json:arena"])["floor"] == "standard"


@pytest.mark.skipif(shutil.which("tmxrasterizer") is None, reason="Tiled's tmxrasterizer is not installed")
@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_tiled_draws_zone_hexes_orange_and_pit_hexes_pale(tmp_path: Path, orientation: str) -> None:
    """Tiled's own renderer draws the map from our tileset: at the centre of each launch
    zone's tiles the launch-zone colour (#E69F00 over the pit hex), of other pit hexes the
    pit's pale fill."""
    import subprocess

    import numpy as np
    import pytiled_parser
    from PIL import Image

    arena = pit(orientation)
    path = export(arena, tmp_path, ".tmx")
    env = {"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(tmp_path)}
    subprocess.run(["tmxrasterizer", "--no-smoothing", "--hide-layer", "labels", "--hide-layer", "rows",
                    "--hide-layer", "launch zones", str(path), str(tmp_path / "map.png")],
                   check=True, env=env, capture_output=True, timeout=60)
    px = np.asarray(Image.open(tmp_path / "map.png").convert("RGB")).astype(int)
    m = pytiled_parser.parse_map(path)
    layers = {layer.name: layer for layer in m.layers}
    tiles = expected_tiles(list(arena.cells), orientation, m.stagger_index, painted(layers["pit hexes"].data))
    zone = {c for z in arena.launch_zones for c in z.cells}
    for c, (col, row) in tiles.items():
        x, y = tile_centre(m, col, row)
        r, g, b = px[int(y), int(x)]
        if c in zone:
            assert r > 200 and 130 < g < 190 and b < 90, (c, (r, g, b))
        else:
            assert min(r, g, b) > 235, (c, (r, g, b))


@pytest.mark.skipif(TILED is None, reason="Tiled is not installed")
def test_tiled_opens_the_pit_and_keeps_its_grid(tmp_path: Path) -> None:
    """Tiled opens the TMX and saves it as JSON: same stagger, same painted tiles, same objects."""
    arena = pit()
    path = export(arena, tmp_path, ".tmx")
    tiled_resave(path, tmp_path / "resaved.tmj")
    ours = json.loads(get("tiled").write(arena, px_per_length=48, image_name="map.tiles.png").data)
    theirs = json.loads((tmp_path / "resaved.tmj").read_text())
    for key in ("orientation", "staggeraxis", "staggerindex", "hexsidelength", "width", "height", "tilewidth"):
        assert theirs[key] == ours[key], key
    data = {layer["name"]: layer.get("data") for layer in theirs["layers"]}
    assert data["pit hexes"] == ours["layers"][0]["data"]
    names = sorted(o["name"] for layer in theirs["layers"] for o in layer.get("objects", []) if o["name"])
    assert names == sorted(e.id for e in arena.elements())


# ------------------------------------------------------------------ the battlefield


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_battlefield_is_an_orthogonal_map_with_motherships_outside_it(tmp_path: Path, suffix: str) -> None:
    """Square (x, y), y up, lands on Tiled column x - min x and row max y - y; the Motherships'
    squares are a row beyond each short side, the build squares next to them."""
    import pytiled_parser

    arena = mothership.default_arena()
    m = pytiled_parser.parse_map(export(arena, tmp_path, suffix))
    assert (m.orientation, m.map_size.width, m.map_size.height, m.tile_size.width) == ("orthogonal", 3, 7, 48)
    layers = {layer.name: layer for layer in m.layers}
    every = [*arena.squares, *(s for ms in arena.motherships for s in ms.squares)]
    x0, y1 = min(x for x, _ in every), max(y for _, y in every)
    tile = {s: (s[0] - x0, y1 - s[1]) for s in every}
    assert painted(layers["battlefield squares"].data) == {tile[s] for s in arena.squares}
    assert painted(layers["mothership squares"].data) == {tile[s] for ms in arena.motherships for s in ms.squares}
    assert painted(layers["build squares"].data) == {tile[s] for ms in arena.motherships for s in ms.build_squares}
    objects = {o.name: o for layer in m.layers for o in getattr(layer, "tiled_objects", [])}
    for ms in arena.motherships:
        o = objects[ms.id]
        assert (o.class_, o.properties["player"], o.properties["hp"]) == ("mothership", ms.player, 5)
        points = [(o.coordinates.x + p.x, o.coordinates.y + p.y) for p in o.points]
        assert points == [((tile[s][0] + 0.5) * 48, (tile[s][1] + 0.5) * 48) for s in ms.squares]
        b = objects[f"{ms.id}-build"]
        points = [(b.coordinates.x + p.x, b.coordinates.y + p.y) for p in b.points]
        assert points == [((tile[s][0] + 0.5) * 48, (tile[s][1] + 0.5) * 48) for s in ms.build_squares]


def test_pytmx_reads_the_battlefield(tmp_path: Path) -> None:
    import logging

    import pytmx

    logging.getLogger("pytmx").setLevel(logging.CRITICAL)
    arena = mothership.default_arena()
    tm = pytmx.TiledMap(str(export(arena, tmp_path, ".tmx")))
    m1 = tm.get_object_by_name("M1")
    assert json.loads(m1.properties["json:build_squares"]) == [[0, 0], [1, 0], [2, 0]]
    # M1's squares are y = -1: the bottom row (6) of the 7-row map
    assert [(p.x, p.y) for p in m1.points] == [(24.0, 312.0), (72.0, 312.0), (120.0, 312.0)]
    layer = tm.get_layer_by_name("mothership squares")
    assert tm.get_tile_properties_by_gid(layer.data[6][1])["type"] == "mothership"


# ------------------------------------------------------------------ the loss report, the CLI, other formats


def test_loss_report_names_what_tiled_cannot_show() -> None:
    losses = get("tiled").write(pit(), image_name="p.tiles.png").losses
    assert any("p.tiles.png must stay beside the map" in s for s in losses)
    assert any("Airspeed Tracks" in s and "FLOOR" in s for s in losses)
    assert any("19.05 mm" in s for s in losses)
    arena = replace(pit(), rows=(*pit().rows, gliderpit.Row("R20", 40, 7)))
    result = get("tiled").write(arena)
    assert any("row R20 lies on no cell" in s for s in result.losses)
    props = {p["name"]: p["value"] for p in json.loads(result.data)["properties"]}
    assert json.loads(props["json:unplaced"])[0]["id"] == "R20"


def arena_cli(*args: str) -> Any:
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_export_command_writes_the_tileset_beside_the_map(tmp_path: Path) -> None:
    from schema.io import dumps

    src = tmp_path / "pit.yaml"
    src.write_text(dumps(pit(), "yaml"))
    r = arena_cli("export", str(src), "--to", "tiled", "-o", str(tmp_path / "pit.tmx"))
    assert r.exit_code == 0, r.output
    assert (tmp_path / "pit.tiles.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert 'source="pit.tiles.png"' in (tmp_path / "pit.tmx").read_text()
    assert "also wrote" in r.output and "tiled cannot represent" in r.output


@pytest.mark.parametrize("to", ["uvtt", "foundry"])
@pytest.mark.parametrize("arena", [pit(), mothership.default_arena()], ids=["pit", "battlefield"])
def test_vtt_formats_refuse_grid_arenas_with_a_reason(tmp_path: Path, to: str, arena: Any) -> None:
    """UVTT and Foundry are refused (never a silently wrong file): the message says why and
    which formats carry the grid."""
    from schema.io import dumps

    with pytest.raises(FormatError, match="Export tiled .* or geojson"):
        get(to).write(arena)
    src = tmp_path / "a.yaml"
    src.write_text(dumps(arena, "yaml"))
    r = arena_cli("export", str(src), "--to", to, "-o", str(tmp_path / "out.json"))
    assert r.exit_code == 2 and f"{to} cannot carry" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "out.json").exists()


# ------------------------------------------------------------------ reading maps back


def same_arena(a: Any, b: Any) -> bool:
    """Equal but for the order of the cells (a map gives them back row by row)."""
    key = "cells" if hasattr(a, "cells") else "squares"
    return set(getattr(a, key)) == set(getattr(b, key)) and \
        replace(a, **{key: ()}) == replace(b, **{key: ()})


@pytest.mark.parametrize("arena", [pit(), pit("flat"), mothership.default_arena()], ids=["pointy", "flat", "battlefield"])
@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_maps_we_wrote_come_back_as_the_arena(arena: Any, suffix: str) -> None:
    warnings: list[str] = []
    back = get("tiled").read(get("tiled").write(arena, suffix=suffix).data, source=f"m{suffix}", warnings=warnings)
    assert same_arena(back, arena) and warnings == []


@pytest.mark.skipif(TILED is None, reason="Tiled is not installed")
@pytest.mark.parametrize("arena", [pit("flat"), mothership.default_arena()], ids=["pit", "battlefield"])
def test_maps_resaved_by_tiled_come_back(tmp_path: Path, arena: Any) -> None:
    path = export(arena, tmp_path, ".tmx")
    for name in ("resaved.tmj", "resaved.tmx"):
        tiled_resave(path, tmp_path / name)
        back = get("tiled").read((tmp_path / name).read_bytes(), source=name)
        assert same_arena(back, arena), name


def test_cells_painted_or_erased_and_zones_moved_in_tiled_are_read() -> None:
    """Erase a pit hex's tile and move a launch zone's polyline one tile right: the hex is
    gone, the zone's cells are where its points now are (with a warning)."""
    arena = pit()
    tmj = json.loads(get("tiled").write(arena, px_per_length=48).data)
    layers = {layer["name"]: layer for layer in tmj["layers"]}
    data = layers["pit hexes"]["data"]
    first = data.index(1)
    data[first] = 0
    z1 = next(o for o in layers["launch zones"]["objects"] if o["name"] == "Z1")
    z1["x"] += tmj["tilewidth"]  # one hex to the right along the row: q + 1
    warnings: list[str] = []
    back = get("tiled").read(json.dumps(tmj).encode(), source="edited.tmj", warnings=warnings)
    assert set(arena.cells) - set(back.cells) == {arena.cells[0]}  # the top row's first hex
    assert back.element("Z1").cells == tuple((q + 1, r) for q, r in arena.element("Z1").cells)
    assert any("Z1" in w and "moved in Tiled" in w for w in warnings)


def test_a_pit_map_with_the_wrong_stagger_is_refused() -> None:
    tmj = json.loads(get("tiled").write(pit()).data)
    tmj["staggeraxis"] = "x"
    with pytest.raises(FormatError, match="hexagonal map staggered along y"):
        get("tiled").read(json.dumps(tmj).encode(), source="bad.tmj")
