"""The Car Wars arena format: JSON Schema (schema/games/carwars/car-wars-6e.schema.json, checked with
jsonschema and a referencing registry holding common.schema.json), the typed model and the
canonical document."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from schema.games import carwars as cw
from tests.carwars.util import DATA, SCHEMA, errors, load_doc

ARENAS = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*.yaml"))


def test_schema_is_a_valid_draft_2020_12_schema_with_titles_everywhere() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    missing = []

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if "$ref" not in sub and not ({"title", "description"} <= set(sub)):
                    missing.append(f"{where}/{key}")
                walk(sub, f"{where}/{key}")
            for key in ("items", "additionalProperties"):
                if isinstance(node.get(key), dict):
                    walk(node[key], f"{where}[{key}]")
            for sub in node.get("prefixItems", []):
                walk(sub, f"{where}[]")

    walk(schema, "")
    assert not missing, missing


def test_default_arena_is_valid_and_round_trips() -> None:
    arena = cw.default_arena()
    doc = cw.to_document(arena)
    assert errors(doc) == []
    assert cw.from_document(doc) == arena
    assert cw.to_document(cw.from_document(doc)) == doc


@pytest.mark.parametrize("name", ARENAS)
def test_test_and_shipped_arenas_round_trip_canonically(name: str) -> None:
    doc = load_doc(DATA / name)
    assert errors(doc) == [], name
    arena = cw.from_document(doc)
    canon = cw.to_document(arena)
    assert errors(canon) == []
    assert cw.from_document(canon) == arena
    assert cw.to_document(cw.from_document(canon)) == canon
    assert list(canon) == [k for k in ("format", "system", "name", "description", "author", "license", "tags", "units",
                                       "bounds", "vehicle", "turning_key", "symmetry", "walls", "obstacles", "terrain",
                                       "hazards", "cards", "tokens", "start_positions", "scenario") if k in canon]


def test_defaults_are_filled_from_the_book_and_the_physical_game() -> None:
    doc = {"format": "arena-studio/1", "system": "car-wars-6e", "name": "Bare",
           "obstacles": [{"id": "O", "shape": {"type": "circle", "center": [0, 0], "radius": 1}}],
           "hazards": [{"id": "H", "shape": {"type": "rect", "center": [5, 0], "size": [2.5, 3.5]}}],
           "cards": [{"id": "C", "number": 2, "position": [1, 2]}],
           "tokens": [{"id": "B", "kind": "barrel", "position": [0, 5]}, {"id": "W", "kind": "wreck", "position": [0, 9]}]}
    assert errors(doc) == []
    a = cw.from_document(doc)
    assert a.bounds.size == (36.0, 36.0)  # "roughly 3 feet per side"
    assert (a.vehicle.key_length, a.vehicle.key_width) == (6.0, 1.5)  # "2 car-lengths long and 1/2 car-length wide"
    assert a.obstacles[0].weight == "heavy"  # "considered a heavy obstacle" when no weight icon shows
    assert a.obstacles[0].durability is None  # "that item cannot take damage"
    assert (a.hazards[0].drive_over, a.hazards[0].cover) == (True, "none")
    assert (a.cards[0].role, a.cards[0].owner, a.cards[0].size) == ("checkpoint", None, (2.5, 3.5))
    barrel, wreck = a.tokens
    assert (barrel.weight, barrel.shape.radius) == ("light", 0.5)  # type: ignore[union-attr]
    assert wreck.face_up == "blank"  # "Place the marker with the durability icon face-down."
    assert a.units.printed_mm == 25.4 and a.box == "2-player"
    canon = cw.to_document(a)
    assert canon["tokens"][1]["size"] == [3.5, 1.5] and errors(canon) == []


@pytest.mark.parametrize("patch, where", [
    ({"system": "gravstrike"}, "/system"),
    ({"walls": [{"id": "W", "shape": {"type": "circle", "center": [0, 0], "radius": 1}}]}, "/walls/0/shape/type"),
    ({"cards": [{"id": "C", "number": 4, "position": [0, 0]}]}, "/cards/0/number"),
    ({"cards": [{"id": "C", "number": 1, "position": [0, 0], "role": "bonus"}]}, "/cards/0/role"),
    ({"terrain": [{"id": "T", "shape": {"type": "rect", "center": [0, 0], "size": [1, 1]}, "level": 4}]}, "/terrain/0/level"),
    ({"obstacles": [{"id": "O", "shape": {"type": "rect", "center": [0, 0], "size": [1, 1]}, "weight": "huge"}]},
     "/obstacles/0/weight"),
    ({"turning_key": {"zones": [18, 36, 54, 72, 80]}}, "/turning_key/zones/4"),
    ({"vehicle": {"length": 0}}, "/vehicle/length"),
    ({"units": {"name": "cm"}}, "/units/name"),
    ({"start_positions": [{"player": 1, "position": [0, 0]}]}, "/start_positions/0"),
    ({"colour": "red"}, "/"),
])
def test_bad_documents_are_rejected_at_their_pointer(patch: dict[str, object], where: str) -> None:
    doc = {"format": "arena-studio/1", "system": "car-wars-6e", "name": "Bad", **patch}
    found = errors(doc)
    assert found and any(e.startswith(where) for e in found), found


def test_tool_extensions_are_kept_and_written_last() -> None:
    doc = cw.to_document(cw.default_arena())
    doc = copy.deepcopy(doc)
    doc["x-editor"] = {"zoom": 2}
    doc["start_positions"][0]["x-colour"] = "red"
    assert errors(doc) == []
    out = cw.to_document(cw.from_document(doc))
    assert out["x-editor"] == {"zoom": 2} and list(out)[-1] == "x-editor"
    assert out["start_positions"][0]["x-colour"] == "red"


def test_integral_numbers_are_written_as_integers() -> None:
    doc = cw.to_document(cw.default_arena())
    assert doc["bounds"] == {"type": "rect", "center": [0, 0], "size": [36, 36], "rotation": 0}
    assert doc["start_positions"][0]["position"] == [0, -14.75]
    assert all(isinstance(v, int) for v in doc["turning_key"]["zones"])


def test_elements_and_lookups() -> None:
    a = load_arena("shipped/crossroads-4p.yaml")
    assert a.element("start:2").id == "start:2"
    assert a.card("checkpoint-1").owner == 1
    with pytest.raises(KeyError):
        a.element("nope")
    assert a.players == 4 and a.box == "4-player" and a.centre() == (0.0, 0.0)


def load_arena(name: str) -> cw.CarWarsArena:
    return cw.from_document(load_doc(DATA / name))


def test_data_files_exist() -> None:
    assert {"shipped/crossroads-4p.yaml", "shipped/twin-pillars-2p.yaml", "shipped/broken-yard-flawed.yaml"} <= set(ARENAS)
    assert all(Path(DATA / n).stat().st_size > 0 for n in ARENAS)
