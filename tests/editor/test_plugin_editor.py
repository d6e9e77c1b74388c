"""A game installed from outside with a ruleset and a validator and nothing for the editor is
edited through the default :class:`editor.game.EditorGame` (issue 37, point 4): its palette is
one tool per kind, the window follows it (label, unit, snapping), and its live validation runs
its JSON Schema - which refers to the studio's ``common.schema.json`` although the plug-in ships
no copy - and its registered validator (before, the editor looked for the plug-in's own
``common.schema.json`` and, with that worked around, never ran its validators).

The plug-in, "test pegs", is installed in this session as a distribution with entry points (a
``.dist-info`` on the path), as a third party's package would be: a board and pegs, and a
validator asking for three pegs."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import schema.io as sio
import validators.registry as vreg
from schema.ruleset import rulesets

PACKAGE = '''
"""Test pegs: a board and pegs, for the editor's plug-in test."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schema.document import point_doc, shape_doc, shape_from
from schema.ruleset import ElementKind, Ruleset, Style, Units
from schema.shapes import Rect
from validators.findings import Finding, Result


@dataclass(frozen=True)
class Peg:
    id: str
    position: tuple[float, float]


@dataclass(frozen=True)
class PegsArena:
    name: str
    bounds: Any = Rect((0.0, 0.0), (12.0, 12.0))
    pegs: tuple[Peg, ...] = ()
    symmetry: Any = None
    system: str = "test-pegs"

    def elements(self) -> tuple[Peg, ...]:
        return self.pegs


def build(doc: dict[str, Any]) -> PegsArena:
    return PegsArena(doc["name"], shape_from(doc["bounds"]),
                     tuple(Peg(p["id"], (float(p["position"][0]), float(p["position"][1]))) for p in doc.get("pegs", [])))


def document(a: PegsArena) -> dict[str, Any]:
    return {"format": "arena-studio/1", "system": "test-pegs", "name": a.name, "bounds": shape_doc(a.bounds),
            "pegs": [{"id": p.id, "position": point_doc(p.position)} for p in a.pegs]}


RULESET = Ruleset(
    id="test-pegs", game="Test pegs", edition="1", book="none", units=Units("inch", "in", 25.4),
    schema="testpegs:pegs.schema.json",
    kinds=(ElementKind("pegs", "Pegs", "/properties/pegs/items", "point", Style("#009E73")),),
    build=build, document=document, default_arena=lambda: PegsArena("New pegs"),
)


class TooFewPegs:
    id = "pegs-count"
    title = "At least three pegs"
    severity = "warning"
    needs_travel = False
    games = ("test-pegs",)

    def evaluate(self, arena: PegsArena, context: Any) -> Result:
        n = len(arena.pegs)
        if n >= 3:
            return Result(metrics={"pegs": n})
        return Result([Finding("pegs-count", "warning", f"{n} pegs; the game needs 3", [p.id for p in arena.pegs])],
                      {"pegs": n})
'''

COMMON = "https://arena-studio.dev/schema/systems/common.schema.json"
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.org/test-pegs.schema.json",
    "title": "Test pegs arena", "description": "A test game.",
    "type": "object", "required": ["format", "system", "name", "bounds"], "additionalProperties": False,
    "properties": {
        "format": {"const": "arena-studio/1", "title": "Format", "description": "Format."},
        "system": {"const": "test-pegs", "title": "System", "description": "System."},
        "name": {"type": "string", "title": "Name", "description": "Name."},
        "bounds": {"$ref": f"{COMMON}#/$defs/rect", "title": "Board", "description": "The board."},
        "pegs": {"type": "array", "title": "Pegs", "description": "Pegs.", "items": {
            "type": "object", "title": "Peg", "description": "A peg.", "required": ["id", "position"],
            "additionalProperties": False,
            "properties": {"id": {"type": "string", "title": "Id", "description": "Id."},
                           "position": {"$ref": f"{COMMON}#/$defs/point", "title": "Position", "description": "Where."}}}},
    },
}

BOARD = "bounds: {type: rect, center: [0, 0], size: [12, 12]}\n"
ONE = "format: arena-studio/1\nsystem: test-pegs\nname: One\n" + BOARD + "pegs:\n- {id: a, position: [0, 0]}\n"
THREE = ONE.replace("name: One", "name: Three") + "- {id: b, position: [1, 0]}\n- {id: c, position: [2, 0]}\n"


def _reset() -> None:
    from editor import game

    rulesets.cache_clear()
    sio.schema_registry.cache_clear()
    sio._system_validator.cache_clear()
    vreg._default = None
    game._registered.cache_clear()


@pytest.fixture(scope="module")
def pegs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("plugin")
    pkg = root / "testpegs"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(PACKAGE, encoding="utf-8")
    (pkg / "pegs.schema.json").write_text(json.dumps(SCHEMA), encoding="utf-8")  # no common.schema.json
    info = root / "testpegs-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: testpegs\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent("""\
        [arena_studio.rulesets]
        test-pegs = testpegs:RULESET

        [arena_studio.validators]
        pegs-count = testpegs:TooFewPegs
        """), encoding="utf-8")
    sys.path.insert(0, str(root))
    _reset()
    yield root
    sys.path.remove(str(root))
    for name in [m for m in sys.modules if m == "testpegs"]:
        del sys.modules[name]
    _reset()


def test_a_game_with_no_editor_gets_the_default_one(pegs: Path) -> None:
    from editor.game import EditorGame, editor_game, editors

    game = editor_game("test-pegs")
    assert type(game) is EditorGame and game.schema_driven and game.system == "test-pegs"
    assert "test-pegs" in editors() and list(editors())[0] == "gravstrike"  # the window's first game leads
    assert [cls.name for cls in game.tool_classes()] == ["select", "vertices", "rotate", "test-pegs:pegs", "measure"]
    assert game.label() == "Test pegs (1)" and game.snap_step() == 1.0
    assert type(game.symmetry_rules()).__name__ == "Rules"  # the next free id


def test_its_live_validation_runs_its_schema_and_its_validator(pegs: Path) -> None:
    from editor.game import editor_game

    analyse = editor_game("test-pegs").analysis()
    try:
        assert [(f["code"], f["elements"]) for f in analyse(sio.loads(ONE))] == [("pegs-count", ["a"])]
        assert analyse(sio.loads(THREE)) == []
    finally:
        analyse.close()  # type: ignore[attr-defined]


def test_the_window_shows_its_findings_live(pegs: Path, window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor import commands as C

    win = window
    win.doc.reset(sio.loads(ONE), None)
    assert win.game.label.text() == "Test pegs (1)" and "test-pegs:pegs" in win.tools
    assert win.snap_box.suffix() == " in"
    with qtbot.waitSignal(win.runner.finished, timeout=60_000):
        win.runner.run_now(win.doc.arena)
    assert [f["code"] for f in win.runner.findings] == ["pegs-count"]
    assert win.runner.findings[0]["message"] == "1 pegs; the game needs 3"
    # an edit (through the undo stack) re-validates: the finding goes, and comes back on undo
    win.doc.reset(sio.loads(THREE.replace("- {id: c, position: [2, 0]}\n", "")), None)
    with qtbot.waitSignal(win.runner.finished, timeout=60_000):
        win.runner.run_now(win.doc.arena)
    assert [f["code"] for f in win.runner.findings] == ["pegs-count"]
    from editor.games import model as G

    win.doc.push(C.AddElement(win.doc, G.find(G.add(win.doc.arena, "pegs", {"id": "c", "position": [2, 0]}), "c")))
    qtbot.waitUntil(lambda: not win.runner.busy and win.runner.findings == [], timeout=60_000)
    win.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: not win.runner.busy and [f["code"] for f in win.runner.findings] == ["pegs-count"],
                    timeout=60_000)


def test_its_palette_places_a_peg_and_undo_takes_it_back(pegs: Path, window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QPointF

    from tests.editor.conftest import click

    win = window
    win.doc.reset(sio.loads(ONE), None)
    win.view.set_scale(20.0)
    win.view.centerOn(QPointF(0, 0))
    win.set_tool("test-pegs:pegs")
    click(win, 3.0, 2.0)
    assert [(p.id, p.position) for p in win.doc.arena.pegs] == [("a", (0.0, 0.0)), ("P1", (3.0, 2.0))]
    assert sio.loads(sio.dumps(win.doc.arena)) == win.doc.arena  # what the file holds
    # the inspector's fields come from its schema, which refers to the studio's shared definitions
    win.doc.set_selection(["P1"])
    assert win.inspector.title.text() == "Peg P1" and win.inspector.generic_fields
    win.set_tool("select")
    win.doc.undo_stack.undo()
    assert [p.id for p in win.doc.arena.pegs] == ["a"]


def test_an_editor_entry_that_is_not_its_games_editor_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``arena_studio.editors`` entry point must load an EditorGame for the id it is named by:
    anything else is an error naming the entry point, never a silently wrong editor."""
    from importlib.metadata import EntryPoint

    import editor.game as g

    def entries(*eps: EntryPoint) -> None:
        monkeypatch.setattr(g, "entry_points", lambda group: [ep for ep in eps if ep.group == group])
        g._registered.cache_clear()

    try:
        entries(EntryPoint("car-wars-6e", "editor.games.arenarex:EDITOR", g.GROUP))
        with pytest.raises(ValueError, match="'car-wars-6e' in arena_studio.editors loads the editor of 'arena-rex'"):
            g.editor_game("car-wars-6e")
        entries(EntryPoint("car-wars-6e", "editor.game:GROUP", g.GROUP))
        with pytest.raises(TypeError, match="'car-wars-6e' in arena_studio.editors is not an editor.game.EditorGame"):
            g.editor_game("car-wars-6e")
    finally:
        monkeypatch.undo()
        g._registered.cache_clear()
    assert type(g.editor_game("car-wars-6e")).__name__ == "CarWarsEditor"
