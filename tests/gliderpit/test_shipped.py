"""The shipped pits (arenas/glider-pit-gladiators/): the default validates clean; the
unfair one trips exactly the codes its description lists."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest
import yaml

from engine.gliderpit.checks import check_all
from engine.gliderpit.fairness import compare
from schema.games.gliderpit import default_arena, from_document

DATA = Path(__file__).resolve().parents[2] / "arenas" / "glider-pit-gladiators"


def load(name: str):  # type: ignore[no-untyped-def]
    return from_document(yaml.safe_load((DATA / name).read_text(encoding="utf-8")))


def test_default_file_is_the_new_arena_and_validates_clean() -> None:
    arena = load("hexagonal-pit.yaml")
    assert arena == default_arena()
    assert check_all(arena) == [] and compare(arena) == []


def test_unfair_file_trips_exactly_the_codes_it_lists() -> None:
    arena = load("crooked-pit-unfair.yaml")
    listed = set(re.findall(r"gp-[a-z-]+[a-z]", arena.description or ""))
    found = {i.code for i in (*check_all(arena), *compare(arena))}
    assert listed and found == listed


@pytest.mark.parametrize("name", ["engine.grids", "engine.grids_tiled", "schema.games.gliderpit",
                                  *[f"engine.gliderpit.{m}" for m in ("rules", "movement", "pit", "search", "travel",
                                                                      "checks", "fairness")]])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
