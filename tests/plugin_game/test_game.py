"""Tortoise Derby itself (issue 37, point 4): the studio knows it only through its entry points
(no file of the product names it), its own doctests pass, its ruleset round-trips its files, and
docs/rulesets.md, which walks through it, names only the game's own files."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

import schema.io as sio
from schema.ruleset import ruleset, rulesets
from tests.plugin_game.conftest import ARENAS
from tests.plugin_game.install import TORTOISE_DERBY

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("schema", "engine", "validators", "editor", "app")


def test_no_file_of_the_product_names_it() -> None:
    files = [ROOT / "pyproject.toml", *(p for top in PRODUCT for p in (ROOT / top).rglob("*") if p.is_file()
                                        and p.suffix in (".py", ".json", ".yaml", ".toml", ".md"))]
    assert len(files) > 100
    named = [str(p.relative_to(ROOT)) for p in files if re.search(r"tortoise", p.read_text(encoding="utf-8",
                                                                                               errors="replace"), re.I)]
    assert named == []


def test_it_is_found_through_its_entry_points_beside_the_built_in_games() -> None:
    assert {"tortoise-derby", "gravstrike", "car-wars-6e", "arena-rex"} <= set(rulesets())
    rs = ruleset("tortoise-derby")
    assert (rs.game, rs.units.symbol, [k.placement for k in rs.kinds]) == ("Tortoise Derby", "in",
                                                                           ["shape", "point", "pose"])
    assert type(rs).__module__ == "schema.ruleset" and rs.build.__module__ == "tortoise_derby.model"


@pytest.mark.parametrize("module", ["model", "movement", "travel", "play"])
def test_its_doctests_pass(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"tortoise_derby.{module}"))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", ["meadow.yaml", "unfair.yaml", "walled.yaml"])
def test_its_files_round_trip(name: str) -> None:
    arena = sio.load(ARENAS / name)
    assert type(arena).__name__ == "TortoiseDerbyArena"
    assert sio.loads(sio.dumps(arena)) == arena


def walkthrough() -> str:
    """The part of docs/rulesets.md that walks through the example (up to the built-in games)."""
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    start = text.index("## A game from outside: Tortoise Derby")
    return text[start:text.index("## The built-in games")]


def test_the_walkthrough_names_only_the_games_own_files() -> None:
    """Every file the walkthrough names is in the game's distribution (its pyproject.toml or its
    package): the only places a game author touches."""
    named = set(re.findall(r"`([\w./-]+\.(?:py|json|toml|yaml))`", walkthrough()))
    assert {"pyproject.toml", "tortoise_derby/model.py", "tortoise_derby/checks.py"} <= named
    game_files = {str(p.relative_to(TORTOISE_DERBY)) for p in TORTOISE_DERBY.rglob("*") if p.is_file()}
    assert sorted(n for n in named if n not in game_files) == []
