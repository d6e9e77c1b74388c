"""Importing Tiled maps we did not write (issue 17): files written by Tiled 1.8 itself
(tests/packs/data/tiled/), what lands where, what is skipped with a warning, and located
errors (never a traceback) for maps that cannot become an arena."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import schema
from schema.games.gravstrike.model import Arena
from schema.formats import FormatError, get
from schema.shapes import Circle, Polygon, Rect

DATA = Path(__file__).parent / "data" / "tiled"
runner = CliRunner()


def arena_cli(*args: str):  # type: ignore[no-untyped-def]
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    return runner.invoke(app, list(args), catch_exceptions=False)


def read(name: str) -> tuple[Arena, list[str]]:
    warnings: list[str] = []
    return get("tiled").read((DATA / name).read_bytes(), source=name, warnings=warnings), warnings


@pytest.mark.parametrize("name", ["drawn.tmx", "drawn.tmj"])
def test_a_map_drawn_in_tiled_lands_where_tiled_shows_it(name: str) -> None:
    """20 x 16 tiles of 32 px, origin at the map's centre: x = -10 + px/32, y = 8 - py/32.
    Objects in a group layer (offset 32, 16) inside a layer offset 32 more; a polygon rotated
    90 degrees clockwise about its origin; a tile object standing up from its bottom-left."""
    arena, warnings = read(name)
    assert arena.name == "Drawn in Tiled" and arena.bounds == Rect((0.0, 0.0), (20.0, 16.0))
    assert arena.element("W1").shape == Rect((-3.875, 3.875), (2.0, 1.0), 0.0)  # (164, 116) + half its size
    assert arena.element("W2").shape == Polygon(((1.375, -1.875), (1.375, -3.875), (0.375, -1.875)))
    assert arena.element("W3").shape == Rect((5.0, 2.25), (1.0, 2.0), 0.0)  # bottom-left at (464, 216)
    assert arena.element("A").shape == Circle((-6.75, 0.25), 1.0)
    assert [(s.player, s.position, s.facing) for s in arena.start_positions] == [(1, (-5.0, -4.5), 0.0),
                                                                                 (2, (5.0, -4.5), 180.0)]
    assert {w.id for w in arena.walls} == {"W1", "W2", "W3"}  # not the text object, not the hidden layer's W9
    text = "\n".join(warnings)
    assert "'Label'): text object skipped" in text
    assert "(layer 'walls'): hidden layer skipped" in text
    assert "'tree'): skipped: it has no class and its layer 'decoration' is not an arena kind" in text
    assert "no arena properties" in text
    assert ("line 22 (" in text) == name.endswith(".tmx")  # TMX warnings give the line


def test_the_same_map_from_tmx_and_tmj_is_the_same_arena() -> None:
    assert read("drawn.tmx")[0] == read("drawn.tmj")[0]


def test_isometric_maps_are_refused_saying_what_is_read() -> None:
    with pytest.raises(FormatError) as exc:
        read("isometric.tmx")
    assert str(exc.value).startswith("isometric.tmx: 'isometric' maps are not read: arenas are read from orthogonal "
                                     "maps (Map > Map Properties > Orientation); Glider-Pit Gladiators pits are read "
                                     "from the hexagonal maps `arena export --to tiled` writes")


HEX_REFUSAL = ("this hexagonal map is not read: it is not a pit Arena Studio wrote (it has no json:arena property). "
               "Glider-Pit Gladiators pits are read from the hexagonal maps `arena export --to tiled` writes, "
               "recognised by their map properties json:arena (with \"system\": \"glider-pit-gladiators\") and "
               "json:frame (the hex at the map's corner); other hexagonal maps (Tiled's own examples, a pit drawn "
               "from scratch) are not")


@pytest.mark.parametrize("name", ["hexagonal-mini.tmx", "hexagonal-mini.tmj", "hexagonal.tmx"])
def test_foreign_hexagonal_maps_are_refused_saying_which_hexagonal_maps_are_read(name: str, tmp_path: Path) -> None:
    """Tiled's own example hexagonal map (and Tiled's JSON of it) and a hexagonal map made in
    Tiled 1.8: the message names the file and says which hexagonal maps are read (issue 43)."""
    with pytest.raises(FormatError) as exc:
        read(name)
    assert str(exc.value).startswith(f"{name}: {HEX_REFUSAL}")
    r = arena_cli("import", str(DATA / name), "-o", str(tmp_path / "a.yaml"))
    assert r.exit_code == 1 and not (tmp_path / "a.yaml").exists()
    assert f"{DATA / name}: {HEX_REFUSAL}" in " ".join(r.output.split()) and "Traceback" not in r.output


def test_a_hexagonal_map_naming_another_game_says_so() -> None:
    tmj = json.loads((DATA / "hexagonal-mini.tmj").read_bytes())
    tmj["properties"] = [{"name": "json:arena", "type": "string", "value": '{"system": "car-wars-6e"}'}]
    with pytest.raises(FormatError, match=r'^m.tmj: this hexagonal map is not read: it is not a pit Arena Studio '
                                          r'wrote \(its json:arena says "system": "car-wars-6e"\)'):
        get("tiled").read(json.dumps(tmj).encode(), source="m.tmj")


def test_the_hexagonal_maps_the_refusal_names_are_read(tmp_path: Path) -> None:
    """What the message says is read is read: a pit written by arena export, recognised by its
    json:arena and json:frame (test_grid_tiled.py reads it re-saved by Tiled itself)."""
    pit = Path(__file__).resolve().parents[2] / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"
    out = tmp_path / "pit.tmx"
    assert arena_cli("export", str(pit), "--to", "tiled", "-o", str(out), "-q").exit_code == 0
    doc = out.read_text("utf-8")
    assert 'orientation="hexagonal"' in doc and 'name="json:arena"' in doc and 'name="json:frame"' in doc
    assert get("tiled").read(out.read_bytes(), source="pit.tmx") == schema.load(pit)


def test_cli_import_of_tiled_maps(tmp_path: Path) -> None:
    r = arena_cli("import", str(DATA / "drawn.tmx"), "-o", str(tmp_path / "a.yaml"))
    assert r.exit_code == 0, r.output
    assert "warning:" in r.output and "text object skipped" in r.output and "6 elements" in r.output
    assert schema.load(tmp_path / "a.yaml") == read("drawn.tmx")[0]
    # a Tiled map saved as .json is recognised by its content
    (tmp_path / "map.json").write_bytes((DATA / "drawn.tmj").read_bytes())
    r = arena_cli("import", str(tmp_path / "map.json"), "-o", str(tmp_path / "b.yaml"))
    assert r.exit_code == 0, r.output
    # tile-only maps and maps without a bounds object: a clear error and exit 1, nothing written
    for name, message in (("tiles.tmj", "the map has no objects"), ("nobounds.tmj", "no bounds object")):
        r = arena_cli("import", str(DATA / name), "-o", str(tmp_path / "c.yaml"))
        assert r.exit_code == 1 and message in r.output and "Traceback" not in r.output, r.output
        assert not (tmp_path / "c.yaml").exists()
    r = arena_cli("import", str(DATA / "tiles.tmj"), "-o", str(tmp_path / "c.yaml"))
    assert "warning: " in r.output and "tile layer skipped" in r.output


def _map(**changes: object) -> dict:  # type: ignore[type-arg]
    tmj = json.loads((DATA / "drawn.tmj").read_text())
    tmj.update(changes)
    return tmj


@pytest.mark.parametrize("mutate, located", [
    (lambda m: m.update(layers="nope"), "/layers must be a list of layers"),
    (lambda m: m.update(height="x"), "map: height must be a whole number, got 'x'"),
    (lambda m: m["layers"][0]["objects"][0].update(x="a"), "/layers/0/objects/0 (layer 'bounds', object 1 ''): x must be a number, got 'a'"),
    (lambda m: m["layers"][1]["layers"][0]["objects"][1]["polygon"][1].pop("y"), "polygon point 1: y must be a number"),
    (lambda m: m["layers"][0].update(objects={"a": 1}), "objects must be a list"),
    (lambda m: m["layers"][0]["objects"][0].update(properties="p"), "properties must be a list"),
    (lambda m: m.update(tilewidth=32, tileheight=16), "tiles are 32 x 16 px"),
    (lambda m: m["layers"][2]["objects"][0].update(template="start.tx"), "template objects cannot be read"),
])
def test_malformed_json_maps_give_located_errors(mutate, located: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 17: these crashed with a traceback."""
    tmj = _map()
    mutate(tmj)
    path = tmp_path / "bad.tmj"
    path.write_text(json.dumps(tmj))
    with pytest.raises(FormatError) as err:
        get("tiled").read(path.read_bytes(), source="bad.tmj")
    assert located in str(err.value)
    r = arena_cli("import", str(path), "-o", str(tmp_path / "x.yaml"))
    assert r.exit_code == 1 and located in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("text, located", [
    ('<map orientation="orthogonal" width="2" height="2" tilewidth="32" tileheight="32"><objectgroup>'
     '<object id="1" x="a" y="0"/></objectgroup></map>', "line 1: <object> x='a' is not a number"),
    ('<map width="2" height="2" tilewidth="32" tileheight="32">\n<objectgroup>\n<object id="1" x="0" y="0">'
     '\n<polygon points="0,0 5"/></object></objectgroup></map>', "line 4: <polygon> point 1 is '5', not x,y"),
    ('<map width="2">\n<objectgroup>\n<object id="1" x="0"></objectgroup>', "line 3, column 24: not well-formed XML: mismatched tag"),
    ('<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa">]>\n<map/>', "entity declarations are not allowed"),
    ('<tileset name="t"/>', "not a Tiled map (the root element is <tileset>"),
    ('<map width="2" height="2" tilewidth="32" tileheight="32"><properties><property name="b" type="bool" '
     'value="yes"/></properties></map>', "bool property 'b' is 'yes'"),
])
def test_malformed_tmx_gives_located_errors(text: str, located: str) -> None:
    with pytest.raises(FormatError) as err:
        get("tiled").read(text.encode(), source="bad.tmx")
    assert located in str(err.value)
