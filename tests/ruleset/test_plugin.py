"""A third party adds a game the way the built-in ones are added (issue 13: "the same way third
parties add one (test it with a tiny out-of-tree ruleset installed in the test session)"): a
package with a ``Ruleset``, its JSON Schema and one validator tagged with its id, installed as a
distribution (a ``.dist-info`` with entry points) on the path of this session and of the ``arena``
commands it runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import schema.io as sio
from schema.ruleset import rulesets
from tests.plugin_game.install import installed

PACKAGE = '''
"""Test dots: a one-kind game for the ruleset layer's plug-in test."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schema.ruleset import ElementKind, Ruleset, Style, Units
from validators.findings import Finding, Result


@dataclass(frozen=True)
class DotsArena:
    name: str
    dots: tuple[tuple[str, float, float], ...] = ()
    system: str = "test-dots"

    @property
    def players(self) -> int:
        return 2


def build(doc: dict[str, Any]) -> DotsArena:
    return DotsArena(doc["name"], tuple((d["id"], float(d["at"][0]), float(d["at"][1])) for d in doc.get("dots", [])))


def document(a: DotsArena) -> dict[str, Any]:
    return {"format": "arena-studio/1", "system": "test-dots", "name": a.name,
            "dots": [{"id": i, "at": [x, y]} for i, x, y in a.dots]}


def semantic(doc: Any) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out = []
    for n, d in enumerate(doc.get("dots", []) if isinstance(doc, dict) else []):
        if isinstance(d, dict) and d.get("id") in seen:
            out.append((f"/dots/{n}/id", f"duplicate dot {d['id']!r}"))
        elif isinstance(d, dict):
            seen.add(d.get("id"))
    return out


RULESET = Ruleset(
    id="test-dots", game="Test dots", edition="1", book="none", units=Units("inch", "in", 25.4),
    schema="testdots:dots.schema.json",
    kinds=(ElementKind("dots", "Dot", "/properties/dots/items", "point", Style("#009E73")),),
    build=build, document=document, default_arena=lambda: DotsArena("New dots"), semantic=semantic,
)


class TooFewDots:
    id = "dots-count"
    title = "At least three dots"
    severity = "warning"
    needs_travel = False
    games = ("test-dots",)

    def evaluate(self, arena: DotsArena, context: Any) -> Result:
        if len(arena.dots) >= 3:
            return Result(metrics={"dots": len(arena.dots)})
        return Result([Finding("dots-count", "warning", f"{len(arena.dots)} dots; the game needs 3")],
                      {"dots": len(arena.dots)})
'''

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.org/test-dots.schema.json",
    "title": "Test dots arena", "description": "A test game.",
    "type": "object", "required": ["format", "system", "name"], "additionalProperties": False,
    "properties": {
        "format": {"const": "arena-studio/1", "title": "Format", "description": "Format."},
        "system": {"const": "test-dots", "title": "System", "description": "System."},
        "name": {"type": "string", "title": "Name", "description": "Name."},
        "dots": {"type": "array", "title": "Dots", "description": "Dots.", "items": {
            "type": "object", "title": "Dot", "description": "A dot.", "required": ["id", "at"],
            "additionalProperties": False,
            "properties": {"id": {"type": "string", "title": "Id", "description": "Id."},
                           "at": {"$ref": "https://arena-studio.dev/schema/systems/common.schema.json#/$defs/point",
                                  "title": "At", "description": "Where."}}}},
    },
}

GOOD = "format: arena-studio/1\nsystem: test-dots\nname: Three\ndots:\n- {id: a, at: [0, 0]}\n- {id: b, at: [1, 0]}\n- {id: c, at: [2, 0]}\n"
FEW = "format: arena-studio/1\nsystem: test-dots\nname: One\ndots:\n- {id: a, at: [0, 0]}\n"
BAD = "format: arena-studio/1\nsystem: test-dots\nname: Bad\ndots:\n- {id: a, at: [0, 0, 0]}\n- {id: a, at: [1, 1]}\n"


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The test-dots distribution (its package and a pyproject.toml with its entry points),
    installed as tests/plugin_game/install.py installs a game from outside."""
    tree = tmp_path_factory.mktemp("testdots-src")
    pkg = tree / "testdots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    (pkg / "dots.schema.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    (tree / "pyproject.toml").write_text(textwrap.dedent("""\
        [project]
        name = "testdots"
        version = "0.1"

        [project.entry-points."arena_studio.rulesets"]
        test-dots = "testdots:RULESET"

        [project.entry-points."arena_studio.validators"]
        dots-count = "testdots:TooFewDots"
        """), encoding="utf-8")
    with installed(tree, tmp_path_factory.mktemp("plugin")) as root:
        yield root


def arena(plugin: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)  # PYTHONPATH holds the plug-in's folder while it is installed
    cmd = [sys.executable, "-c", "from app.cli.main import main; main()", *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_ruleset_loads_and_round_trips(plugin: Path) -> None:
    assert "test-dots" in rulesets() and "gravstrike" in rulesets()
    a = sio.loads(GOOD)
    assert type(a).__name__ == "DotsArena" and len(a.dots) == 3
    assert sio.loads(sio.dumps(a)) == a


def test_its_schema_and_semantic_checks_give_located_errors(plugin: Path) -> None:
    with pytest.raises(sio.ArenaError) as exc:
        sio.loads(BAD, source="bad.yaml")
    text = str(exc.value)
    assert "bad.yaml:5:15: /dots/0/at: expected exactly 2 items" in text  # common.schema.json's point, via $ref
    # the ruleset's own checks run on a document that passed its schema (issue 36 item 11)
    assert "duplicate dot" not in text
    with pytest.raises(sio.ArenaError) as exc:
        sio.loads(BAD.replace("[0, 0, 0]", "[0, 0]"), source="bad.yaml")
    assert str(exc.value) == "bad.yaml:6:8: /dots/1/id: duplicate dot 'a'"


def test_its_validator_runs_on_its_game_only(plugin: Path) -> None:
    from validators.registry import NotForGame, default_registry
    from validators.run import validate

    report = validate(sio.loads(FEW))
    assert [v.id for v in report.validators] == ["dots-count"]
    assert [f.code for f in report.findings] == ["dots-count"] and report.to_json()["system"] == "test-dots"
    assert "dots-count" not in [v.id for v in default_registry().select(game="gravstrike")]
    with pytest.raises(NotForGame):
        default_registry().select(["dots-count"], game="car-wars-6e")


def test_arena_check_validate_and_list_see_it(plugin: Path, tmp_path: Path) -> None:
    (tmp_path / "few.yaml").write_text(FEW, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(BAD.replace("[0, 0, 0]", "[0, 0]"), encoding="utf-8")  # schema-valid
    r = arena(plugin, "check", "few.yaml", "bad.yaml", cwd=tmp_path)
    assert r.returncode == 1 and "bad.yaml:6:8: /dots/1/id: duplicate dot 'a'" in r.stderr and "Traceback" not in r.stderr
    r = arena(plugin, "validate", "--json", "few.yaml", cwd=tmp_path)
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["system"] == "test-dots" and [f["code"] for f in doc["findings"]] == ["dots-count"]
    r = arena(plugin, "validate", "--list", "--json", "--game", "test-dots", cwd=tmp_path)
    assert json.loads(r.stdout) == [{"code": "dots-count", "games": ["test-dots"], "severity": "warning",
                                     "title": "At least three dots", "needs_travel": False}]
    r = arena(plugin, "validate", "--list", "--json", "--game", "gravstrike", cwd=tmp_path)
    assert "dots-count" not in {v["code"] for v in json.loads(r.stdout)}


def test_the_editors_schema_gate_needs_no_copy_of_the_shared_definitions(plugin: Path) -> None:
    """Its schema refers to the studio's common.schema.json by $id; the plug-in ships no copy
    (issue 37: the editor's gate used to look for one beside the plug-in's schema)."""
    import yaml

    from editor.games.model import validator

    assert not (plugin / "testdots" / "common.schema.json").exists()
    doc = yaml.safe_load(BAD)
    messages = [e.message for e in validator(rulesets()["test-dots"].schema).iter_errors(doc)]
    assert messages == ["Expected at most 2 items but found 1 extra: 0"]  # the shared point, resolved
