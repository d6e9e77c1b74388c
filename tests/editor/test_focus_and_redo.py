"""Keyboard (issue 18, points 4 and 5): Enter or Escape in a panel's field hands the focus back
to the canvas, so one-key tool shortcuts work again instead of typing into the field; a refusal
in the inspector does not outlive what it was about; Ctrl+Y redoes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from editor import commands as C

CTRL = Qt.KeyboardModifier.ControlModifier


def activate(win, qtbot) -> None:  # type: ignore[no-untyped-def]
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=120_000)


def type_into(edit, text: str) -> None:  # type: ignore[no-untyped-def]
    QApplication.processEvents()  # a form just built is shown
    edit.setFocus(Qt.FocusReason.MouseFocusReason)
    assert QApplication.focusWidget() is edit  # the keyboard is really in the field
    edit.selectAll()
    QTest.keyClicks(edit, text)


def test_enter_in_the_inspector_applies_and_hands_focus_back(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    activate(window, qtbot)
    window.tool_actions["vertices"].trigger()
    window.doc.set_selection(["A"])
    edit = window.inspector.editors["shape.radius"]
    type_into(edit, "0.7")
    QTest.keyClick(edit, Qt.Key.Key_V)  # while typing, V is a letter (a refused value, not a tool)
    assert window.view.tool.name == "vertices" and edit.text() == "0.7v"
    QTest.keyClick(edit, Qt.Key.Key_Backspace)
    QTest.keyClick(edit, Qt.Key.Key_Return)
    assert window.doc.arena.checkpoints[0].shape.radius == 0.7
    qtbot.waitUntil(window.view.hasFocus, timeout=120_000)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_V)
    assert window.view.tool.name == "select"
    assert window.inspector.editors["shape.radius"].text() == "0.7"


def test_escape_puts_the_field_back_and_hands_focus_back(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    activate(window, qtbot)
    window.doc.set_selection(["A"])
    edit = window.inspector.editors["shape.center.x"]
    type_into(edit, "3.5")
    QTest.keyClick(edit, Qt.Key.Key_Escape)
    qtbot.waitUntil(window.view.hasFocus, timeout=120_000)
    assert window.doc.arena.checkpoints[0].shape.center == (6.0, 6.0)  # nothing applied
    assert window.inspector.editors["shape.center.x"].text() == "6"
    assert window.doc.undo_stack.count() == 0
    # the Scenario tab too
    field = window.scenario_panel.editors["vp_to_win"]
    type_into(field, "15")
    QTest.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(window.view.hasFocus, timeout=120_000)
    assert window.doc.arena.scenario.vp_to_win == 15
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_E)
    assert window.view.tool.name == "vertices"


def test_an_inspector_error_goes_with_its_element(window, qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    activate(window, qtbot)
    window.doc.set_selection(["A"])
    edit = window.inspector.editors["shape.radius"]
    type_into(edit, "wide")
    QTest.keyClick(edit, Qt.Key.Key_Return)
    assert window.inspector.error.text() == "Radius must be a number"
    window.doc.set_selection(["M"])  # another element: the message was about A
    assert window.inspector.error.text() == ""
    for step in (lambda: window.doc.set_selection(["A"]), lambda: window.new_document(False)):
        e = window.inspector.editors.get("shape.radius") or window.inspector.editors["name"]
        type_into(e, "wide" if "shape.radius" in window.inspector.editors else " ")
        QTest.keyClick(e, Qt.Key.Key_Return)
        step()
    path = tmp_path / "a.yaml"
    window.save_to(str(path))
    window.arena_panel.commit("units.length_mm", "-4")
    assert window.arena_panel.error.text()
    assert window.open_path(str(path))
    assert window.inspector.error.text() == "" and window.arena_panel.error.text() == ""


def test_ctrl_y_redoes(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    activate(window, qtbot)
    window.doc.push(C.MoveElements(window.doc, ["A"], 1.0, 0.0))
    moved = window.doc.arena
    window.view.setFocus()
    QTest.keyClick(window.view, Qt.Key.Key_Z, CTRL)
    assert window.doc.arena != moved
    QTest.keyClick(window.view, Qt.Key.Key_Y, CTRL)
    assert window.doc.arena == moved
    keys = [s.toString() for s in window.act["redo"].shortcuts()]
    assert keys.count("Ctrl+Y") == 1 and "Ctrl+Shift+Z" in keys


def test_redo_keys_add_ctrl_y_once() -> None:
    """X11 without a desktop theme binds redo to Ctrl+Shift+Z only (the real-window suite
    presses Ctrl+Y there); the offscreen platform already has Ctrl+Y."""
    from PySide6.QtGui import QKeySequence

    from editor.mainwindow import redo_shortcuts

    x11 = [QKeySequence("Ctrl+Shift+Z")]
    assert [k.toString() for k in redo_shortcuts(x11)] == ["Ctrl+Shift+Z", "Ctrl+Y"]
    both = [QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")]
    assert [k.toString() for k in redo_shortcuts(both)] == ["Ctrl+Y", "Ctrl+Shift+Z"]
