"""Edit-vertices and rotate tools driven with simulated mouse/keyboard events."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from schema.shapes import Circle, Polygon, Polyline, Rect
from schema.games.gravstrike.model import Gate, Wall

from tests.editor.conftest import click, drag, vp

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier
TRI = Wall("W2", Polygon(((0.0, 2.0), (4.0, 2.0), (0.0, 6.0))))


def use(win, tool: str) -> None:  # type: ignore[no-untyped-def]
    win.tool_actions[tool].trigger()
    assert win.view.tool is win.tools[tool]


def add(win, el) -> None:  # type: ignore[no-untyped-def]
    from editor import commands as C

    win.doc.push(C.AddElement(win.doc, el))
    win.doc.undo_stack.clear()


def test_drag_polygon_vertex_is_one_undo_step(window) -> None:  # type: ignore[no-untyped-def]
    add(window, TRI)
    use(window, "vertices")
    window.doc.set_selection(["W2"])
    assert [h.point for h in window.tools["vertices"].handles()] == list(TRI.shape.points)
    drag(window, [(4, 2), (5, 2.2), (6.1, 1.1), (6.1, 1.1)])
    assert window.doc.arena.walls[-1].shape.points == ((0.0, 2.0), (6.0, 1.0), (0.0, 6.0))
    assert window.doc.undo_stack.count() == 1
    window.doc.undo()
    assert window.doc.arena.walls[-1] == TRI


def test_insert_vertex_by_double_click_and_alt_click_then_delete(window) -> None:  # type: ignore[no-untyped-def]
    add(window, TRI)
    use(window, "vertices")
    window.doc.set_selection(["W2"])
    QTest.mouseDClick(window.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                      vp(window, 2, 2.05))
    assert window.doc.arena.walls[-1].shape.points == ((0.0, 2.0), (2.0, 2.0), (4.0, 2.0), (0.0, 6.0))
    click(window, 0.02, 4, ALT)
    pts = window.doc.arena.walls[-1].shape.points
    assert len(pts) == 5 and pts[-1] == (0.0, 4.0)
    assert window.doc.undo_stack.count() == 2
    click(window, 2, 2)  # select the inserted vertex
    assert window.tools["vertices"].selected_vertex == 1
    QTest.keyClick(window.view, Qt.Key.Key_Delete)
    assert window.doc.arena.walls[-1].shape.points == ((0.0, 2.0), (4.0, 2.0), (0.0, 6.0), (0.0, 4.0))
    assert len(window.doc.arena.walls) == 2  # the wall itself was not deleted
    click(window, 0, 4)
    QTest.keyClick(window.view, Qt.Key.Key_Delete)
    click(window, 0, 6)
    QTest.keyClick(window.view, Qt.Key.Key_Delete)  # refused: a polygon keeps 3 points
    assert len(window.doc.arena.walls[-1].shape.points) == 3
    assert window.doc.undo_stack.count() == 4


def test_polyline_keeps_two_points_and_gate_ends_drag(window) -> None:  # type: ignore[no-untyped-def]
    add(window, Wall("W2", Polyline(((0.0, -2.0), (4.0, -2.0)), 0.5)))
    use(window, "vertices")
    window.doc.set_selection(["W2"])
    click(window, 4, -2)
    assert window.tools["vertices"].delete_vertex()  # handled, but refused
    assert len(window.doc.arena.walls[-1].shape.points) == 2
    add(window, Gate("G1", "outlying", (2.0, 8.0), (5.0, 8.0)))
    window.doc.set_selection(["G1"])
    drag(window, [(5, 8), (5.5, 9), (5.1, 9.2)], SHIFT)  # 15° steps from the other end
    g = window.doc.arena.gates[-1]
    assert g.start == (2.0, 8.0) and g.end != (5.0, 8.0)
    assert math.degrees(math.atan2(g.end[1] - 8.0, g.end[0] - 2.0)) == pytest.approx(15.0)


def test_rect_corner_resize_and_rotate_handle(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "vertices")
    window.doc.set_selection(["W1"])  # Rect((-4, 0), (1, 3))
    drag(window, [(-3.5, 1.5), (-2.7, 2.4), (-2.5, 2.5)])  # drag the top-right corner
    assert window.doc.arena.walls[0].shape == Rect((-3.5, 0.5), (2.0, 4.0))  # (-4.5, -1.5) stays put
    tool = window.tools["vertices"]
    rot = next(h for h in tool.handles() if h.kind == "rotate")
    c = window.doc.arena.walls[0].shape.center
    drag(window, [rot.point, (c[0] - 1.0, c[1] + 1.9), (c[0] - 2.0, c[1] + 1.9)], SHIFT)
    r = window.doc.arena.walls[0].shape.rotation
    assert r % 15 == 0 and 30 <= r <= 60
    assert window.doc.undo_stack.count() == 2


def test_circle_radius_handle(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "vertices")
    window.doc.set_selection(["A"])  # circle (6, 6) r 1
    drag(window, [(7, 6), (7.6, 6.1), (8.0, 6.0)])
    assert window.doc.arena.checkpoints[0].shape == Circle((6.0, 6.0), 2.0)


def test_bounds_edit_when_nothing_selected(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "vertices")
    window.doc.set_selection([])
    drag(window, [(10, 10), (11, 11), (12, 12)])
    assert window.doc.arena.bounds.points[2] == (12.0, 12.0)
    window.doc.undo()
    assert window.doc.arena.bounds.points[2] == (10.0, 10.0)


def test_vertex_snaps_to_another_elements_vertex_ctrl_disables(window) -> None:  # type: ignore[no-untyped-def]
    add(window, TRI)
    use(window, "vertices")
    window.doc.set_selection(["W2"])
    # W1 is Rect((-4, 0), (1, 3)): its corner (-3.5, 1.5) is off the 1-length grid but a snap target
    window.view.snap_step = 1.0
    drag(window, [(0, 2), (-3, 1.6), (-3.4, 1.6)])
    assert window.doc.arena.walls[-1].shape.points[0] == (-3.5, 1.5)
    drag(window, [(-3.5, 1.5), (-3.3, 1.7), (-3.4, 1.6)], CTRL)
    p = window.doc.arena.walls[-1].shape.points[0]
    assert p != (-3.5, 1.5) and p == pytest.approx((-3.4, 1.6), abs=0.06)


def test_rotate_tool_turns_selection_about_its_centre(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "rotate")
    window.doc.set_selection(["W1"])
    drag(window, [(-2, 0), (-3, 1.5), (-4, 2)], SHIFT)  # a quarter turn around (-4, 0)
    w = window.doc.arena.walls[0]
    assert w.shape.center == (-4.0, 0.0) and w.shape.rotation == 90.0
    assert window.doc.undo_stack.count() == 1
