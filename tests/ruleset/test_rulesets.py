"""The built-in rulesets (issue 13 section 1): registered through the entry-point group like any
third party's, each kind's schema_def found in its game's schema, styles drawable, every game's
new arena saved and loaded, and the dispatcher choosing the schema by ``system``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import jsonschema
import pytest

from schema import ArenaError, dumps, loads
from schema.io import dispatcher_schema, schema_registry
from schema.games.gravstrike.model import Arena
from schema.ruleset import UnknownSystem, rulesets, ruleset, ruleset_of

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["arena-rex", "car-wars-6e", "glider-pit-gladiators", "gravstrike", "mothership-grid"]
COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


def test_every_builtin_game_is_registered_as_an_entry_point() -> None:
    eps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["arena_studio.rulesets"]
    assert sorted(eps) == GAMES
    assert all(v == f"schema.games.{v.split('.')[2].split(':')[0]}:RULESET" for v in eps.values())
    assert list(rulesets()) == GAMES  # found through the entry points only (no list of games in the code)


@pytest.mark.parametrize("system", GAMES)
def test_kinds_point_into_the_games_schema(system: str) -> None:
    rs = ruleset(system)
    props = rs.json_schema()["properties"]
    assert rs.kinds, system
    for kind in rs.kinds:
        node = rs.kind_schema(kind.key)
        assert kind.key in props and node is props[kind.key]["items"]
        assert kind.placement in ("shape", "pose", "point", "segment", "cell", "cells", "bounds")
        assert COLOUR.match(kind.style.fill) and COLOUR.match(kind.style.stroke)
        assert set(kind.exports) <= {"tiled", "geojson", "uvtt", "foundry", "svg"}
    fills = [k.style.fill.lower() for k in rs.kinds]
    assert len(set(fills)) == len(fills), f"{system}: two kinds share a fill colour"


@pytest.mark.parametrize("system", GAMES)
def test_default_arena_saves_and_loads_for_every_game(system: str) -> None:
    rs = ruleset(system)
    a = rs.default_arena()
    assert ruleset_of(a) is rs
    for fmt in ("yaml", "json"):
        assert loads(dumps(a, fmt), fmt=fmt) == a  # type: ignore[arg-type]


def test_gravstrike_keeps_its_model_and_new_arena() -> None:
    a = loads("{format: arena-studio/1, system: gravstrike, name: Tiny}")
    assert type(a) is Arena
    new = ruleset("gravstrike").default_arena()
    assert new.bounds.size == (24.0, 24.0) and new.name == "Untitled arena"
    assert ruleset("gravstrike").kind("walls").solid and ruleset("car-wars-6e").units.printed_mm == 25.4


def test_dispatcher_refs_every_builtin_games_schema() -> None:
    d = dispatcher_schema()
    assert d["required"] == ["format", "system", "name"]
    refs = {b["if"]["properties"]["system"]["const"]: b["then"]["$ref"] for b in d["allOf"]}
    assert refs == {g: f"systems/{g}.schema.json" for g in GAMES}
    v = jsonschema.Draft202012Validator(d, registry=schema_registry())
    for g in GAMES:  # each branch resolves (a bad $ref would raise here)
        errors = list(v.iter_errors({"format": "arena-studio/1", "system": g, "name": "x", "nonsense": 1}))
        assert any("nonsense" in e.message for e in errors), g


def test_unknown_system_is_located_and_names_the_installed_ones() -> None:
    with pytest.raises(ArenaError) as exc:
        loads("format: arena-studio/1\nsystem: blood-bowl\nname: T\n", source="t.yaml")
    assert str(exc.value) == ("t.yaml:2:9: /system: 'blood-bowl' is not one of the installed systems: "
                              "arena-rex, car-wars-6e, glider-pit-gladiators, gravstrike, mothership-grid")
    with pytest.raises(UnknownSystem):
        ruleset("blood-bowl")


def test_car_wars_errors_are_located_like_gravstrike_ones() -> None:
    text = ("format: arena-studio/1\nsystem: car-wars-6e\nname: T\nwalls:\n- id: A\n  shape: {type: rect, center: [0, 0], size: [1, 1]}\n"
            "obstacles:\n- id: A\n  shape: {type: polygon, points: [[0, 0], [2, 2], [2, 0], [0, 2]]}\n  weight: feather\n")
    with pytest.raises(ArenaError) as exc:
        loads(text, source="cw.yaml")
    lines = str(exc.value).splitlines()
    assert any(line.startswith("cw.yaml:10:11: /obstacles/0/weight:") and "is not one of" in line for line in lines)
    # the game's own checks (ids, geometry) run once the schema passes (issue 36 item 11)
    with pytest.raises(ArenaError) as exc:
        loads(text.replace("feather", "light"), source="cw.yaml")
    lines = str(exc.value).splitlines()
    assert "cw.yaml:8:7: /obstacles/0/id: duplicate id 'A': already used at /walls/0 (ids are unique across the arena)" in lines
    assert any(line.startswith("cw.yaml:9:") and "/obstacles/0/shape/points: the polygon's edges cross" in line for line in lines)
