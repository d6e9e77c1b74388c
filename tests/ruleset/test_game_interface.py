"""The schema layer's game interface (issue 37 points 1, 2 and 7): a game is its registered
``Ruleset`` - typed hooks, not dotted strings - and the shared schema modules reach a game only
through it: they name no game and import none (``lint-imports`` holds the import side)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from schema.formats.grid_games import GridProfile
from schema.formats.systems import ExportProfile, profile, unnamed_system
from schema.io import arena_schema
from schema.ruleset import COMMON_SCHEMA_ID, Ruleset, common_schema, default_system, ruleset, rulesets

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("gravstrike", "car-wars-6e", "arena-rex", "glider-pit-gladiators", "mothership-grid")
#: The games' own packages: the only schema modules that may name a game.
GAME_PACKAGE = re.compile(r"^schema/games/[a-z]+/")


def _named_games(path: Path) -> list[str]:
    """Game ids in string constants (docstrings aside) and imports of a game's package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            out += [f"{path}:{n.lineno}: {g!r}" for g in GAMES if re.search(rf"\b{re.escape(g)}\b", n.value)]
        if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("schema.games."):
            out.append(f"{path}:{n.lineno}: imports {n.module}")
    return out


def test_shared_schema_modules_name_no_game() -> None:
    found = [hit for p in sorted((ROOT / "schema").rglob("*.py"))
             if not GAME_PACKAGE.match(p.relative_to(ROOT).as_posix()) for hit in _named_games(p)]
    assert found == []


@pytest.mark.parametrize("system", GAMES)
def test_each_game_names_its_export_profile(system: str) -> None:
    rs = ruleset(system)
    assert rs.exports is not None
    prof = rs.exports()
    assert isinstance(prof, ExportProfile) and prof.system == system and profile(system) is prof
    assert isinstance(prof, GridProfile) == (rs.grid is not None)
    if isinstance(prof, GridProfile):
        assert prof.grid == rs.grid
    # its JSON Schema is in its own package, and refers to the shared definitions by $id
    assert rs.schema.startswith("schema.games.") and rs.json_schema()["$id"].endswith(f"/{system}.schema.json")


def test_a_rulesets_document_refuses_another_games_arena() -> None:
    cw = ruleset("car-wars-6e").default_arena()
    with pytest.raises(TypeError, match=r"^Arena expected, got CarWarsArena \(system 'car-wars-6e'\)$"):
        ruleset("gravstrike").document(cw)
    assert ruleset("car-wars-6e").document(cw)["system"] == "car-wars-6e"


def test_the_default_game_is_the_rulesets_own_say() -> None:
    flagged = [rs.id for rs in rulesets().values() if rs.default]
    assert flagged == ["gravstrike"] == [default_system()] == [unnamed_system()]
    assert arena_schema() is ruleset("gravstrike").json_schema()
    assert Ruleset.__dataclass_fields__["default"].default is False  # a plug-in is never the default by accident


def test_the_common_schema_is_offered_under_its_id() -> None:
    assert common_schema()["$id"] == COMMON_SCHEMA_ID
    assert "point" in common_schema()["$defs"]


def test_each_kind_names_its_tool_key_and_id_prefix() -> None:
    """A kind's drawing tool key and new ids' prefix come from the game's ruleset (issue 37: the
    shared editor holds no table of kind names).  Within a game the keys differ from each other
    and from the shared tools' (Select V, Vertices E, Rotate R, Measure M), so every tool of a
    palette has its own key; a kind named by its player has no id prefix."""
    from editor.games.model import player_named
    from schema.ruleset import rulesets

    for system, rs in rulesets().items():
        placed = [k for k in rs.kinds if k.placement not in ("cell", "cells", "bounds")]
        keys = [k.shortcut for k in placed if k.shortcut]
        assert len(keys) == len(set(keys)), (system, keys)
        assert not set(keys) & {"V", "E", "R", "M"}, (system, keys)
        for k in placed:
            if k.id_prefix is not None:
                assert k.id_prefix.isalpha() and not player_named(rs, k.key), (system, k.key)
