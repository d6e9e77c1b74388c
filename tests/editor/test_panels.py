"""Inspector, element tree, validation panel and the background runner."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from editor.validation import ValidationRunner

from tests.editor.conftest import make_arena


def edit_line(window, name: str, text: str) -> QLineEdit:  # type: ignore[no-untyped-def]
    edit = window.inspector.editors[name]
    assert isinstance(edit, QLineEdit)
    edit.setText(text)
    edit.editingFinished.emit()
    return edit


def test_inspector_edits_go_through_undo(window) -> None:  # type: ignore[no-untyped-def]
    original = window.doc.arena
    window.doc.set_selection(["A"])
    assert window.inspector.title.text() == "Checkpoint A"
    edit_line(window, "shape.radius", "2.5")
    assert window.doc.arena.checkpoints[0].shape.radius == 2.5
    window.inspector.editors["kind"].setCurrentText("central")
    window.inspector.editors["decaying"].setChecked(True)
    cp = window.doc.arena.checkpoints[0]
    assert (cp.kind, cp.decaying) == ("central", True)
    assert window.doc.undo_stack.count() == 3
    while window.doc.undo_stack.canUndo():
        window.doc.undo()
    assert window.doc.arena == original


def test_inspector_refuses_invalid_values(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.set_selection(["A"])
    edit = edit_line(window, "shape.radius", "-3")
    assert "greater than 0" in window.inspector.error.text()
    assert edit.text() == "1" and window.doc.undo_stack.count() == 0
    edit_line(window, "id", "M")
    assert "already used" in window.inspector.error.text()
    edit_line(window, "shape.radius", "wide")
    assert "must be a number" in window.inspector.error.text()
    assert window.doc.undo_stack.count() == 0


def test_inspector_renames_and_sets_direction(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.set_selection(["F1"])
    edit_line(window, "direction", "-45")
    assert window.doc.arena.acceleration_fields[0].direction == 315.0
    edit_line(window, "id", "F7")
    assert window.doc.selection == ["F7"] and window.inspector.title.text().endswith("F7")
    window.doc.set_selection([])
    edit_line(window, "name", "Renamed")
    assert window.doc.arena.name == "Renamed" and "Renamed" in window.windowTitle()


def test_tree_and_canvas_selection_stay_in_sync(window) -> None:  # type: ignore[no-untyped-def]
    tree = window.tree
    tree.items_by_ref["W1"].setSelected(True)
    assert window.doc.selection == ["W1"]
    assert window.scene.items_by_ref["W1"].isSelected()
    window.scene.items_by_ref["T1"].setSelected(True)
    assert set(window.doc.selection) == {"W1", "T1"}
    assert tree.items_by_ref["T1"].isSelected()
    window.doc.set_selection(["M"])
    assert [i.data(0, 256) for i in tree.selectedItems()] == ["M"]
    assert [i.ref for i in window.scene.selectedItems()] == ["M"]


def test_clicking_a_finding_selects_and_frames_elements(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.runner.analyse = lambda arena: [
        {"code": "near-wall", "severity": "warning", "message": "too close", "elements": ["T1", "W1"]}]
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.runner.run_now(window.doc.arena)
    panel = window.validation
    assert panel.tree.topLevelItemCount() == 1 and panel.status.text() == "1 finding"
    assert window.scene.items_by_ref["T1"].severity == "warning"
    assert window.scene.items_by_ref["A"].severity is None
    window.view.set_scale(5)
    item = panel.tree.topLevelItem(0)
    rect = panel.tree.visualItemRect(item)
    QTest.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert window.doc.selection == ["T1", "W1"]
    assert window.view.scale_factor > 5


def test_format_errors_become_findings(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    from schema.games.gravstrike.model import StaticTarget

    bad = dataclasses.replace(window.doc.arena, static_targets=(StaticTarget("A", (0.0, 5.0)),))
    with qtbot.waitSignal(window.runner.finished, timeout=120_000) as blocker:
        window.runner.run_now(bad)
    findings = blocker.args[0]
    assert findings and findings[0]["severity"] == "error" and findings[0]["elements"] == ["A"]


def test_background_validation_does_not_block_the_event_loop(qtbot) -> None:  # type: ignore[no-untyped-def]
    release = threading.Event()

    def slow(arena):  # type: ignore[no-untyped-def]
        release.wait(120)  # set by the test: a safety net
        return [{"code": "x", "severity": "info", "message": arena.name, "elements": []}]

    runner = ValidationRunner(slow)
    results: list[list[dict]] = []
    runner.finished.connect(results.append)
    gen = runner.run_now(make_arena())
    ticks: list[int] = []
    QTimer.singleShot(0, lambda: ticks.append(1))
    qtbot.waitUntil(lambda: bool(ticks), timeout=120_000)  # the UI thread keeps processing events
    assert runner.busy and not results
    assert gen == runner.generation
    release.set()
    qtbot.waitUntil(lambda: bool(results), timeout=120_000)
    assert results[0][0]["message"] == "Test arena"
    runner.shutdown()


def test_stale_runs_are_ignored(qtbot) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    gate = threading.Event()

    def analyse(arena):  # type: ignore[no-untyped-def]
        if arena.name == "old":
            gate.wait(120)  # set by the test: a safety net
        return [{"code": "n", "severity": "info", "message": arena.name, "elements": []}]

    runner = ValidationRunner(analyse)
    results: list[list[dict]] = []
    runner.finished.connect(results.append)
    runner.run_now(dataclasses.replace(make_arena(), name="old"))
    runner.run_now(dataclasses.replace(make_arena(), name="new"))
    gate.set()
    qtbot.waitUntil(lambda: bool(results), timeout=120_000)
    assert runner.pool.waitForDone(120_000)
    QTest.qWait(0)
    assert [r[0]["message"] for r in results] == ["new"]
    runner.shutdown()


def test_analysis_errors_are_reported_not_raised(qtbot) -> None:  # type: ignore[no-untyped-def]
    def broken(arena):  # type: ignore[no-untyped-def]
        raise RuntimeError("validator exploded")

    runner = ValidationRunner(broken)
    with qtbot.waitSignal(runner.failed, timeout=120_000) as blocker:
        runner.run_now(make_arena())
    assert "validator exploded" in blocker.args[0]
    runner.shutdown()


def test_moving_the_inspected_element_updates_its_fields_in_place(window) -> None:  # type: ignore[no-untyped-def]
    from editor import commands as C

    window.doc.set_selection(["A"])
    field = window.inspector.editors["shape.center.x"]
    tree_item = window.tree.items_by_ref["A"]
    x = window.doc.arena.checkpoints[0].shape.center[0]
    window.doc.push(C.MoveElements(window.doc, ["A"], 1.5, 0.0))
    assert window.inspector.editors["shape.center.x"] is field  # updated, not rebuilt
    assert float(field.text()) == x + 1.5
    assert window.tree.items_by_ref["A"] is tree_item  # a move leaves the tree as it is
    field.editingFinished.emit()  # the shown value is the current one: nothing to commit
    assert window.doc.undo_stack.count() == 1
    edit_line(window, "shape.center.x", str(x))
    assert window.doc.arena.checkpoints[0].shape.center[0] == x and window.doc.undo_stack.count() == 2
