"""The pit's file format: schema/games/gliderpit/glider-pit-gladiators.schema.json and the model's
from_document / to_document round trips."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from schema.games.gliderpit import Analysis, GliderPitArena, Row, Scenario, Units, default_arena, from_document, to_document
from tests.gliderpit.schema_util import errors, schema, untitled

SYSTEM = "glider-pit-gladiators"
DATA = Path(__file__).resolve().parents[2] / "arenas" / "glider-pit-gladiators"


def test_schema_is_fully_described() -> None:
    """Every property has a title and a description: the editor's inspector is built from them."""
    assert untitled(schema(SYSTEM)) == []
    top = schema(SYSTEM)
    assert top["additionalProperties"] is False and "^x-" in top["patternProperties"]


def test_default_arena_round_trips_through_the_schema() -> None:
    doc = to_document(default_arena())
    assert errors(SYSTEM, doc) == []
    assert list(doc) == [k for k in schema(SYSTEM)["properties"] if k in doc]  # schema order
    assert from_document(doc) == default_arena()
    assert to_document(from_document(copy.deepcopy(doc))) == doc


def test_minimal_document_gets_the_defaults() -> None:
    doc = {"format": "arena-studio/1", "system": SYSTEM, "name": "Bare", "cells": [[0, 0], [1, 0]]}
    assert errors(SYSTEM, doc) == []
    a = from_document(doc)
    assert (a.orientation, a.floor, a.units, a.scenario) == ("pointy", 0, Units(), Scenario())
    full = to_document(a)
    assert full["floor"] == "standard" and full["grid"] == {"shape": "hex", "orientation": "pointy"}
    assert full["scenario"]["analysis"]["exposure_speed"] == 1
    assert errors(SYSTEM, full) == []


def test_extensions_and_optional_fields_survive() -> None:
    a = replace(default_arena(), author="A. Designer", license="CC-BY-4.0", tags=("pit", "six"), floor=15,
                orientation="flat", units=Units(hex_mm=25.0),
                rows=(Row("R1", 3, 7, "updraft", {"x-colour": "blue"}),),
                scenario=Scenario(gliders=4, analysis=Analysis(current_tolerance=0.25, disabled=("gp-symmetry",))),
                extensions={"x-tool": {"v": 1}})
    doc = to_document(a)
    assert errors(SYSTEM, doc) == []
    assert doc["floor"] == 15 and doc["units"] == {"hex_mm": 25} and doc["x-tool"] == {"v": 1}
    assert doc["rows"][0] == {"id": "R1", "line": 3, "label": 7, "current": "updraft", "x-colour": "blue"}
    assert from_document(doc) == a


@pytest.mark.parametrize("path, value, message", [
    (("nmae",), "x", "does not match any of the regexes"),
    (("rows", 0, "label"), 13, "13 is greater than the maximum of 12"),
    (("rows", 0, "current"), "sideways", "is not one of"),
    (("floor",), 20, "is not valid under any of the given schemas"),
    (("floor",), "blitz", "is not valid under any of the given schemas"),
    (("launch_zones", 0, "track"), 7, "7 is greater than the maximum of 6"),
    (("cells", 0), [1, 2, 3], "is not valid under any|Expected at most 2 items|is too long"),
    (("grid", "orientation"), "diagonal", "is not one of"),
    (("scenario", "gliders"), 7, "7 is greater than the maximum of 6"),
    (("scenario", "analysis", "exposure_speed"), 5, "5 is greater than the maximum of 4"),
    (("symmetry", "order"), 4, "is not one of"),
])
def test_bad_documents_are_refused(path: tuple[object, ...], value: object, message: str) -> None:
    import re

    doc = to_document(default_arena())
    node = doc
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    found = errors(SYSTEM, doc)
    assert found and any(re.search(message, e) for e in found), found


@pytest.mark.parametrize("name", ["hexagonal-pit.yaml", "crooked-pit-unfair.yaml"])
def test_shipped_files_are_valid_and_canonical(name: str) -> None:
    doc = yaml.safe_load((DATA / name).read_text(encoding="utf-8"))
    assert errors(SYSTEM, doc) == []
    assert to_document(from_document(doc)) == doc


def test_integral_numbers_are_written_as_integers() -> None:
    a = replace(default_arena(), units=Units(hex_mm=19.0), scenario=Scenario(analysis=Analysis(centre_tolerance=2.0)))
    doc = to_document(a)
    assert isinstance(doc["units"]["hex_mm"], int) and isinstance(doc["scenario"]["analysis"]["centre_tolerance"], int)
    assert isinstance(GliderPitArena(name="x", cells=()).cells, tuple)
