"""The battlefield's file format: schema/games/mothership/mothership-grid.schema.json and the model's
from_document / to_document round trips."""

from __future__ import annotations

import copy
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from schema.games.mothership import (Analysis, Mothership, Scenario, Units, default_arena, from_document, to_document)
from tests.gliderpit.schema_util import errors, schema, untitled

SYSTEM = "mothership-grid"
DATA = Path(__file__).resolve().parents[2] / "arenas" / "mothership-grid"


def test_schema_is_fully_described() -> None:
    assert untitled(schema(SYSTEM)) == []
    assert schema(SYSTEM)["additionalProperties"] is False


def test_default_arena_round_trips_through_the_schema() -> None:
    doc = to_document(default_arena())
    assert errors(SYSTEM, doc) == []
    assert list(doc) == [k for k in schema(SYSTEM)["properties"] if k in doc]
    assert from_document(doc) == default_arena()
    assert to_document(from_document(copy.deepcopy(doc))) == doc


def test_minimal_document_gets_the_defaults() -> None:
    doc = {"format": "arena-studio/1", "system": SYSTEM, "name": "Bare", "squares": [[0, 0]],
           "motherships": [{"id": "M1", "player": 1, "squares": [[0, -1]]}]}
    assert errors(SYSTEM, doc) == []
    a = from_document(doc)
    assert a.units == Units() and a.scenario == Scenario() and a.motherships[0].hp == 5
    assert a.motherships[0].build_squares == () and a.symmetry is None
    assert errors(SYSTEM, to_document(a)) == []


def test_extensions_and_options_survive() -> None:
    a = replace(default_arena(), author="Someone", tags=("grid",), units=Units(square_mm=63.5),
                motherships=(replace(default_arena().motherships[0], extensions={"x-colour": "red"}),
                             default_arena().motherships[1]),
                scenario=Scenario(size=(4, 6), analysis=Analysis(approach_tolerance=1, disabled=("mg-symmetry",))),
                extensions={"x-note": "variant"})
    doc = to_document(a)
    assert errors(SYSTEM, doc) == [] and from_document(doc) == a
    assert doc["motherships"][0]["x-colour"] == "red" and doc["scenario"]["size"] == [4, 6]


@pytest.mark.parametrize("path, value, message", [
    (("motherships", 0, "player"), 3, "3 is greater than the maximum of 2"),
    (("motherships", 0, "hp"), 0, "0 is less than the minimum of 1"),
    (("motherships", 0, "colour"), "red", "does not match any of the regexes"),
    (("squares", 0), [0], "is too short|should be non-empty|minItems"),
    (("scenario", "size"), [3], "is too short"),
    (("symmetry", "kind"), "diagonal", "is not one of"),
    (("grid", "shape"), "hex", "'square' was expected"),
])
def test_bad_documents_are_refused(path: tuple[object, ...], value: object, message: str) -> None:
    doc = to_document(default_arena())
    node = doc
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    found = errors(SYSTEM, doc)
    assert found and any(re.search(message, e) for e in found), found


@pytest.mark.parametrize("name", ["battlefield-3x5.yaml", "lopsided-battlefield-unfair.yaml"])
def test_shipped_files_are_valid_and_canonical(name: str) -> None:
    doc = yaml.safe_load((DATA / name).read_text(encoding="utf-8"))
    assert errors(SYSTEM, doc) == []
    assert to_document(from_document(doc)) == doc
    assert isinstance(from_document(doc).motherships[0], Mothership)
