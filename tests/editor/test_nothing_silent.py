"""Nothing silent (issue 42, point 7): every action does what it says or says why not, where the
designer is looking - in all five games' editors.

* Delete in the Elements list deletes the selected elements (one undo step), as Edit → Delete.
* A press and release that gives a shape no size draws nothing and says why on the canvas,
  under the cursor (not only in the status bar).
* Every area tool starts on the same shape (Rectangle), in every game.
* A combo box (the Kind box, the Shape box...) drops its list below itself: opening it never puts
  an item under the mouse, so the press that opened it cannot pick one.
* A grid stroke that changes nothing says so.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox

from editor.games.rulesets import games
from tests.editor.conftest import click, drag

GAMES = [g[0] for g in games()]


def new(window, system: str):  # type: ignore[no-untyped-def]
    """A new arena of ``system`` with symmetry mode off (one element per edit)."""
    if system != "gravstrike":
        assert window.new_arena(system)
    window.doc.symmetry_enabled = False
    return window


# ------------------------------------------------------------------ Delete in the Elements list

@pytest.mark.parametrize("system", GAMES)
def test_delete_key_in_the_elements_list_deletes_the_selection(window, system) -> None:  # type: ignore[no-untyped-def]
    win = new(window, system)
    refs = [el.id for el in win.doc.arena.elements()][:2]
    assert refs, f"{system}: the default arena has elements to delete"
    win.doc.set_selection(refs)
    depth = win.doc.undo_stack.count()
    before = win.doc.arena
    win.tree.setFocus()
    QTest.keyClick(win.tree, Qt.Key.Key_Delete)
    left = {el.id for el in win.doc.arena.elements()}
    assert not set(refs) & left, f"{system}: Delete in the Elements list deleted {refs}"
    assert win.doc.undo_stack.count() == depth + 1, "one undo step"
    win.doc.undo_stack.undo()
    assert win.doc.arena == before


def test_delete_key_in_the_list_with_nothing_selected_says_so(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.set_selection([])
    window.statusBar().clearMessage()
    window.tree.setFocus()
    QTest.keyClick(window.tree, Qt.Key.Key_Delete)
    assert "nothing selected" in window.statusBar().currentMessage()


def test_delete_key_in_the_list_deletes_elements_not_the_vertex_tools_vertex(window) -> None:  # type: ignore[no-untyped-def]
    window.set_tool("vertices")
    window.doc.set_selection(["W1"])
    window.tree.setFocus()
    QTest.keyClick(window.tree, Qt.Key.Key_Delete)
    assert not window.doc.arena.walls


# ------------------------------------------------------------------ flat drags say why, at the cursor

SHAPE_TOOLS = {"gravstrike": "checkpoint", "car-wars-6e": "car-wars-6e:obstacles", "arena-rex": "arena-rex:pits"}


@pytest.mark.parametrize("system", sorted(SHAPE_TOOLS))
def test_a_flat_drag_says_why_under_the_cursor(window, system) -> None:  # type: ignore[no-untyped-def]
    win = new(window, system)
    win.view.set_scale(20.0)
    win.view.centerOn(0, 0)
    win.set_tool(SHAPE_TOOLS[system])
    assert win.view.tool.mode == "rect"
    count = len(list(win.doc.arena.elements()))
    win.view.notice.hide()
    drag(win, [(1.0, 2.0), (3.0, 2.0), (5.0, 2.0)])  # along a grid line: no height
    assert len(list(win.doc.arena.elements())) == count, "nothing drawn"
    notice = win.view.notice
    assert notice.isVisible() and notice.scene() is win.scene
    assert "nothing drawn" in notice.text and "no height" in notice.text, notice.text
    # where the designer looks: at the release point, not only in the status bar
    assert (notice.pos() - QPointF(5.0, 2.0)).manhattanLength() < 0.1
    assert notice.text in win.statusBar().currentMessage()
    # a click with the circle shape: the same, and the next press clears the notice
    win.mode_box.setCurrentText("circle")
    click(win, -3.0, -3.0)
    assert "radius" in win.view.notice.text and (win.view.notice.pos() - QPointF(-3.0, -3.0)).manhattanLength() < 0.1
    drag(win, [(-4.0, -4.0), (-2.0, -2.0)])
    assert not win.view.notice.isVisible() and len(list(win.doc.arena.elements())) == count + 1


def test_a_notice_near_the_views_edge_stays_inside_the_view(window) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QRectF

    window.set_tool("wall")
    port = window.view.viewport().rect()
    for corner in (port.topRight(), port.bottomRight(), port.bottomLeft()):
        at = window.view.mapToScene(corner + QPoint(-6 if corner.x() > 0 else 6, -6 if corner.y() > 0 else 6))
        drag(window, [(at.x(), at.y()), (at.x(), at.y())])
        notice = window.view.notice
        assert notice.isVisible() and "nothing drawn" in notice.text
        box = notice.boundingRect().translated(QPointF(window.view.mapFromScene(notice.pos())))
        assert QRectF(port).contains(box), (corner, box, port)


def test_a_notice_goes_after_a_few_seconds(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.view.NOTICE_MS = 50
    window.view.show_notice("Place gate: drag from one end to the other")
    assert window.view.notice.isVisible()
    qtbot.waitUntil(lambda: not window.view.notice.isVisible(), timeout=5000)


def test_a_grid_stroke_that_changes_nothing_says_so(window) -> None:  # type: ignore[no-untyped-def]
    from engine.grids import HexLayout

    win = new(window, "glider-pit-gladiators")
    win.view.set_scale(18.0)
    win.view.centerOn(0, 0)
    win.set_tool("grid:paint")
    cell = win.doc.arena.cells[0]
    click(win, *HexLayout("pointy").center(cell))  # a hex already in the pit
    assert win.view.notice.isVisible() and "nothing changed" in win.view.notice.text


# ------------------------------------------------------------------ one default shape

@pytest.mark.parametrize("system", GAMES)
def test_every_area_tool_starts_on_a_rectangle(window, system) -> None:  # type: ignore[no-untyped-def]
    win = new(window, system)
    shaped = {name: t for name, t in win.tools.items() if t.mode_title == "Shape" and t.modes}
    for name, tool in shaped.items():
        assert tool.modes[0] == "rect" and tool.mode == "rect", f"{system}: {name} starts on {tool.mode}"
        win.set_tool(name)
        assert win.mode_box.currentText() == "rect"


# ------------------------------------------------------------------ combo boxes drop below

def popup_below(combo: QComboBox) -> bool:
    """Open ``combo`` with its last item current: is its list wholly under the box?"""
    combo.setCurrentIndex(combo.count() - 1)
    combo.showPopup()
    try:
        popup = combo.view().window()
        box_bottom = combo.mapToGlobal(QPoint(0, combo.height())).y()
        return popup.isVisible() and popup.geometry().top() >= box_bottom - 1
    finally:
        combo.hidePopup()


def test_the_kind_boxes_open_below_not_over_the_current_item(window) -> None:  # type: ignore[no-untyped-def]
    window.move(40, 40)
    window.set_tool("checkpoint")
    assert window.kind_box.isVisible() and popup_below(window.kind_box), "Gravstrike's checkpoint Kind"
    assert popup_below(window.mode_box), "the Shape box"
    new(window, "car-wars-6e")
    window.set_tool("car-wars-6e:tokens")
    assert window.mode_label.text().strip() == "Kind" and window.mode_box.count() > 1
    assert popup_below(window.mode_box), "Car Wars' token Kind"
    kind = window.mode_box.currentText()
    # a press on the box and a release where the list opened picks nothing
    QTest.mouseClick(window.mode_box, Qt.MouseButton.LeftButton, pos=window.mode_box.rect().center())
    QApplication.processEvents()
    window.mode_box.hidePopup()
    assert window.mode_box.currentText() == kind


def test_every_combo_box_of_the_application_opens_below(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The dialogs' and panels' boxes too (the Symmetry dialog's Kind, a schema enum in the
    inspector): the rule is the application's style, not each box's."""
    from editor.actions import SymmetryDialog

    dlg = SymmetryDialog(None, (0.0, 0.0), "L", window)
    dlg.move(60, 60)
    dlg.show()
    qtbot.waitExposed(dlg)
    assert dlg.kind.count() > 2 and popup_below(dlg.kind)
    dlg.close()

