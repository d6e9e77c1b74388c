"""The shipped battlefields (arenas/mothership-grid/): the default validates
clean; the unfair one trips exactly the codes its description lists."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest
import yaml

from engine.mothership.checks import check_all
from engine.mothership.fairness import compare
from schema.games.mothership import MothershipArena, default_arena, from_document

DATA = Path(__file__).resolve().parents[2] / "arenas" / "mothership-grid"


def load(name: str) -> MothershipArena:
    return from_document(yaml.safe_load((DATA / name).read_text(encoding="utf-8")))


def test_default_file_is_the_books_battlefield_and_validates_clean() -> None:
    arena = load("battlefield-3x5.yaml")
    assert arena == default_arena()
    assert check_all(arena) == [] and compare(arena) == []


def test_unfair_file_trips_exactly_the_codes_it_lists() -> None:
    arena = load("lopsided-battlefield-unfair.yaml")
    listed = set(re.findall(r"mg-[a-z-]+[a-z]", arena.description or ""))
    found = {i.code for i in (*check_all(arena), *compare(arena))}
    assert listed and found == listed


@pytest.mark.parametrize("name", ["schema.games.mothership",
                                  *[f"engine.mothership.{m}" for m in ("rules", "battlefield", "travel", "checks",
                                                                       "fairness")]])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
