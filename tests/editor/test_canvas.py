"""Drive the real canvas headless: draw every element kind with simulated mouse events."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from editor import elements as E
from schema.shapes import Circle, Polygon, Polyline, Rect
from schema.games.gravstrike.model import AccelerationField, Checkpoint, ExclusionField, Gate, StartPosition, StaticTarget, Wall

from tests.editor.conftest import click, drag, vp

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


def use(win, tool: str, mode: str | None = None) -> None:  # type: ignore[no-untyped-def]
    win.tool_actions[tool].trigger()
    if mode is not None:
        win.mode_box.setCurrentText(mode)
    assert win.view.tool is win.tools[tool]


def test_y_is_up_on_screen(window) -> None:  # type: ignore[no-untyped-def]
    assert vp(window, 0, 5).y() < vp(window, 0, -5).y()
    assert vp(window, 5, 0).x() > vp(window, -5, 0).x()


def test_draw_wall_rect_snaps_and_undo_restores(window) -> None:  # type: ignore[no-untyped-def]
    original = window.doc.arena
    use(window, "wall", "rect")
    drag(window, [(1.1, 1.1), (2.0, 2.0), (3.05, 2.4)])
    wall = window.doc.arena.walls[-1]
    assert wall == Wall("W2", Rect((2.0, 1.75), (2.0, 1.5)))
    assert window.doc.selection == ["W2"]
    assert "W2" in window.scene.items_by_ref
    window.doc.undo()
    assert window.doc.arena == original and "W2" not in window.scene.items_by_ref


def test_draw_wall_polygon_and_polyline(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "wall", "polygon")
    for p in [(0, 2), (2, 2), (1, 4)]:
        click(window, *p)
    # a real double-click is press, release, double-click, release: its first click added (1, 4)
    QTest.mouseDClick(window.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                      vp(window, 1, 4))
    assert window.doc.arena.walls[-1] == Wall("W2", Polygon(((0.0, 2.0), (2.0, 2.0), (1.0, 4.0))))
    use(window, "wall", "polyline")
    for p in [(-2, -2), (0, -2), (0, -4)]:
        click(window, *p)
    QTest.keyClick(window.view, Qt.Key.Key_Return)
    assert window.doc.arena.walls[-1] == Wall("W3", Polyline(((-2.0, -2.0), (0.0, -2.0), (0.0, -4.0)), 0.5))
    assert window.doc.undo_stack.count() == 2


def test_polygon_with_crossing_edges_is_refused(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "wall", "polygon")
    for p in [(0, 2), (2, 4), (2, 2), (0, 4)]:
        click(window, *p)
    QTest.keyClick(window.view, Qt.Key.Key_Return)
    assert len(window.doc.arena.walls) == 1 and window.doc.undo_stack.count() == 0


def test_draw_checkpoints_and_fields(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "checkpoint", "circle")
    drag(window, [(-6, -6), (-6, -4.5)])
    window.kind_box.setCurrentText("central")
    drag(window, [(6, -2), (7, -2)])
    cps = window.doc.arena.checkpoints
    assert cps[-2] == Checkpoint("B", "outlying", Circle((-6.0, -6.0), 1.5))
    assert cps[-1] == Checkpoint("N", "central", Circle((6.0, -2.0), 1.0))
    use(window, "acceleration", "rect")
    drag(window, [(2, 6), (4, 7)])
    assert window.doc.arena.acceleration_fields[-1] == AccelerationField("F2", Rect((3.0, 6.5), (2.0, 1.0)), 0.0)
    use(window, "exclusion", "polygon")
    for p in [(-9, 9), (-7, 9), (-9, 7)]:
        click(window, *p)
    QTest.keyClick(window.view, Qt.Key.Key_Enter)
    assert window.doc.arena.exclusion_fields[-1] == ExclusionField("X1", Polygon(((-9.0, 9.0), (-7.0, 9.0), (-9.0, 7.0))), 3)


def test_place_gate_target_and_start(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "gate")
    drag(window, [(-2, 5), (0, 5.2), (2, 5.4)], SHIFT)  # Shift: 15-degree steps -> horizontal
    assert window.doc.arena.gates[-1] == Gate("G1", "outlying", (-2.0, 5.0), (2.0, 5.0))
    use(window, "target")
    click(window, 7.2, 2.9)
    assert window.doc.arena.static_targets[-1] == StaticTarget("T2", (7.0, 3.0))
    use(window, "start")
    drag(window, [(5, -7), (5, -5), (5, -4)])  # drag the facing handle straight up
    assert window.doc.arena.start_positions[-1] == StartPosition(2, (5.0, -7.0), 90.0)
    click(window, 0, -8)  # a plain click faces the arena centre
    assert window.doc.arena.start_positions[-1] == StartPosition(3, (0.0, -8.0), 90.0)


def test_ctrl_disables_snapping(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "target")
    click(window, 1.3, 1.3, CTRL)
    x, y = window.doc.arena.static_targets[-1].position
    assert abs(x - 1.3) < 0.06 and abs(y - 1.3) < 0.06 and (x, y) != (1.5, 1.5)


def test_select_and_drag_is_one_undo_step(window) -> None:  # type: ignore[no-untyped-def]
    original = window.doc.arena
    use(window, "select")
    drag(window, [(-6, 6), (-5, 6.5), (-4, 7), (-3.9, 7.1)])
    assert window.doc.arena.static_targets[0].position == (-4.0, 7.0)
    assert window.doc.undo_stack.count() == 1
    window.doc.undo()
    assert window.doc.arena == original


def test_shift_click_and_rubber_band(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "select")
    click(window, 6, 6)
    click(window, 0, 0, SHIFT)
    assert window.doc.selection == ["A", "M"]
    click(window, 6, 6, SHIFT)
    assert window.doc.selection == ["M"]
    drag(window, [(-9.5, -1), (-2, 9.5)])  # floor to floor: W1 and T1 intersect the band
    assert window.doc.selection == ["W1", "T1"]
    assert {i.ref for i in window.scene.selectedItems()} == {"W1", "T1"}
    click(window, 9, -9)
    assert window.doc.selection == []


def test_turn_start_with_handle(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "select")
    click(window, -7, -7)
    assert window.doc.selection == ["start:1"]
    r = window.doc.arena.turbine.length * 1.1
    tip = (-7 + r * math.cos(math.radians(45)), -7 + r * math.sin(math.radians(45)))
    drag(window, [tip, (-7, -4), (-7, -3)])
    assert window.doc.arena.start_positions[0].facing == 90.0
    window.doc.undo()
    assert window.doc.arena.start_positions[0].facing == 45.0


def test_measure_tool(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "measure")
    drag(window, [(0, 0), (3, 4)])
    assert window.tools["measure"].distance == pytest.approx(5.0)
    assert window.doc.undo_stack.count() == 0


def test_delete_nudge_duplicate_copy_paste(window) -> None:  # type: ignore[no-untyped-def]
    original = window.doc.arena
    window.doc.set_selection(["T1"])
    window.view.setFocus()
    QTest.keyClick(window.view, Qt.Key.Key_Right)
    QTest.keyClick(window.view, Qt.Key.Key_Right)
    QTest.keyClick(window.view, Qt.Key.Key_Up)
    assert window.doc.arena.static_targets[0].position == (-5.0, 6.5)
    assert window.doc.undo_stack.count() == 1  # nudges merge
    window.duplicate()
    assert [t.id for t in window.doc.arena.static_targets] == ["T1", "T2"] and window.doc.selection == ["T2"]
    window.doc.set_selection(["W1", "A"])
    window.copy()
    window.paste()
    assert E.find(window.doc.arena, "W2") is not None and E.find(window.doc.arena, "B") is not None
    window.doc.set_selection(["W2"])
    window.cut()
    assert E.find(window.doc.arena, "W2") is None
    QTest.keyClick(window.view, Qt.Key.Key_Delete)  # nothing selected after cut: refused quietly
    window.doc.set_selection(["M"])
    QTest.keyClick(window.view, Qt.Key.Key_Delete)
    assert E.find(window.doc.arena, "M") is None
    while window.doc.undo_stack.canUndo():
        window.doc.undo()
    assert window.doc.arena == original


def test_tool_shortcuts_switch_tools_and_show_in_tooltips(window) -> None:  # type: ignore[no-untyped-def]
    for name, act in window.tool_actions.items():
        tool = window.tools[name]
        assert f"({tool.shortcut})" in act.toolTip()
        assert act.shortcut().toString() == tool.shortcut
    QTest.keyClick(window.view, Qt.Key.Key_W)
    assert window.view.tool is window.tools["wall"]
    QTest.keyClick(window.view, Qt.Key.Key_V)
    assert window.view.tool is window.tools["select"]


def test_zoom_fit_and_status_position(window) -> None:  # type: ignore[no-untyped-def]
    window.view.fit_arena()
    fitted = window.view.scale_factor
    window.view.zoom_by(2.0)
    assert window.view.scale_factor == pytest.approx(fitted * 2)
    window.view.zoom_100()
    assert window.view.scale_factor == pytest.approx(40 / 25.4 * window.view.logicalDpiX())
    window.view.set_scale(20)
    window.view.centerOn(0, 0)
    QTest.mouseMove(window.view.viewport(), vp(window, 2, 3))
    assert "2.00" in window.pos_label.text() and "3.00" in window.pos_label.text()


def test_labels_keep_room_at_any_zoom(window) -> None:  # type: ignore[no-untyped-def]
    """Only changed items are repainted, so an item's bounds include its device-size labels."""
    from editor.canvas import LABEL_PAD, LABEL_PX

    item = window.scene.items_by_ref["A"]
    window.view.set_scale(30.0)
    near = item.boundingRect()
    window.view.set_scale(5.0)
    far = item.boundingRect()
    assert window.scene.label_pad == max(LABEL_PAD, LABEL_PX / 5.0)
    assert abs(far.width() - near.width() - 2 * (LABEL_PX / 5.0 - max(LABEL_PAD, LABEL_PX / 30.0))) < 1e-6
