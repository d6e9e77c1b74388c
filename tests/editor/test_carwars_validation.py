"""Live validation follows the arena's ruleset (issue 13): a Car Wars arena is checked by the
Car Wars checks (the quick stage: schema and the checks that need no travel), its findings are
listed and marked on the canvas, and they clear when the arena is fixed."""

from __future__ import annotations

from editor.games import model as G
from editor.games.carwars.analysis import QuickStage
from editor.validation import StagedAnalysis
from schema.games import carwars as cw
from tests.editor.test_carwars_editor import crossroads

#: A V-shaped wall whose arms meet at 23 degrees on the side cars drive: "Corners of walls must be
#: 90 degrees or more – no acute angles".
SPIKE = {"id": "spike", "shape": {"type": "polyline", "points": [[-8, 6], [0, 0], [-8, 2]], "thickness": 0.5}}


def test_quick_stage_reruns_only_the_checks_an_edit_touches() -> None:
    quick = QuickStage()
    arena = crossroads()
    assert quick(arena) == [] and "cw-wall-gap" in quick.ran  # the shipped arena passes every check
    card = arena.card("checkpoint-1")
    moved = G.move(arena, [card.id], 0.5, 0.0)
    assert quick(moved) == []
    assert set(quick.ran) == {"cw-components", "cw-own-checkpoint"}  # a card drag: the card checks only
    spiked = G.add(arena, "walls", SPIKE)
    codes = {f["code"] for f in quick(spiked)}
    assert "cw-corner-angle" in codes and "cw-wall-gap" in quick.ran


def test_a_firing_finding_is_listed_marked_and_clears_when_fixed(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.doc.reset(cw.default_arena(), None)
    window.runner.game_analyses["car-wars-6e"] = StagedAnalysis(quick=QuickStage(), slow=None)  # travel: its own tests
    window.doc.symmetry_enabled = False
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.runner.run_now(window.doc.arena)
    assert window.runner.findings == []
    from editor import commands as C

    spiked = G.add(window.doc.arena, "walls", SPIKE)
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.doc.push(C.AddElement(window.doc, G.find(spiked, "spike")))
    found = [f for f in window.runner.findings if f["code"] == "cw-corner-angle"]
    assert found and found[0]["severity"] == "error" and "no acute angles" in found[0]["message"]
    assert "spike" in found[0]["elements"]
    rows = [window.validation.tree.topLevelItem(i).text(1) for i in range(window.validation.tree.topLevelItemCount())]
    assert "cw-corner-angle" in rows
    assert window.scene.items_by_ref["spike"].severity == "error"  # highlighted on the canvas
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):  # fixed: a right-angled corner
        window.doc.push(__import__("editor.games.commands", fromlist=["SetField"]).SetField(
            window.doc, "spike", ("shape", "points", 2), [-2, -8]))  # the arms 113 degrees apart
    assert not [f for f in window.runner.findings if f["code"] == "cw-corner-angle"]
    assert window.scene.items_by_ref["spike"].severity is None


def test_the_panel_lists_what_arena_validate_reports() -> None:
    """The editor's two stages give the same findings (code, severity, message, elements) as the
    registered Car Wars validators (``validators.run.validate``, what ``arena validate`` runs), on
    the shipped flawed arena, which trips most of the codes."""
    from pathlib import Path

    from editor.games.carwars.analysis import slow_findings
    from schema import load
    from validators.run import validate

    arena = load(Path(__file__).resolve().parents[2] / "arenas" / "car-wars" / "broken-yard-flawed.yaml")
    editor = QuickStage()(arena) + slow_findings(arena)
    report = validate(arena)

    def key(code: str, severity: str, message: str, elements: object) -> tuple[str, str, str, tuple[str, ...]]:
        return (code, severity, message, tuple(sorted(str(e) for e in elements)))  # type: ignore[attr-defined]

    mine = sorted(key(f["code"], f["severity"], f["message"], f["elements"]) for f in editor)
    theirs = sorted(key(f.code, f.severity, f.message, f.elements) for f in report.findings)
    assert len(theirs) >= 10 and mine == theirs
