"""Arrange menu, symmetry mode, settings panels, rulers, measure turns, cheat-sheet, templates."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from editor.actions import SymmetryDialog, templates
from schema.games.gravstrike.model import StartPosition, StaticTarget, Symmetry

from tests.editor.conftest import click, drag


def use(win, tool: str) -> None:  # type: ignore[no-untyped-def]
    win.tool_actions[tool].trigger()


def test_align_distribute_mirror_rotate_from_the_menu(window) -> None:  # type: ignore[no-untyped-def]
    original = window.doc.arena
    window.doc.set_selection(["T1", "A", "F1"])
    window.act["align_left"].trigger()
    xs = [window.doc.arena.element(r) for r in ("T1", "A", "F1")]
    assert xs[0].position[0] - 0.3 == pytest.approx(xs[1].shape.center[0] - 1.0) == pytest.approx(
        xs[2].shape.center[0] - 1.0)
    window.act["distribute_vertical"].trigger()
    window.doc.set_selection(["F1"])
    window.act["mirror_vertical"].trigger()
    assert window.doc.arena.element("F1").direction == 270.0  # θ -> −θ
    window.doc.set_selection(["start:1"])
    window.act["mirror_horizontal"].trigger()
    assert window.doc.arena.element("start:1").facing == 135.0  # θ -> 180 − θ
    window.act["rotate_left"].trigger()
    assert window.doc.arena.element("start:1").facing == 225.0
    window.rotate_by(30.0)
    assert window.doc.arena.element("start:1").facing == 255.0
    assert [window.doc.undo_stack.text(i) for i in range(window.doc.undo_stack.count())] == [
        "Align left", "Distribute vertically", "Mirror vertically", "Mirror horizontally",
        "Rotate by 90°", "Rotate by 30°"]
    while window.doc.undo_stack.canUndo():
        window.doc.undo()
    assert window.doc.arena == original


def test_symmetry_mode_rotational_6_places_six_starts_from_one_click(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.reset(window.doc.arena.__class__(name="hex", bounds=window.doc.arena.bounds), None)
    assert window.edit_symmetry(Symmetry("rotational", 6, (0.0, 0.0)))
    assert "rotational order 6" in window.symmetry_label.text()
    use(window, "start")
    click(window, 7, 0)
    starts = window.doc.arena.start_positions
    assert [s.player for s in starts] == [1, 2, 3, 4, 5, 6]
    assert {round(s.facing) % 360 for s in starts} == {180, 240, 300, 0, 60, 120}
    assert window.doc.undo_stack.count() == 2  # SetSymmetry + one placement
    window.doc.undo()
    assert window.doc.arena.start_positions == ()
    window.doc.undo()
    assert window.doc.arena.symmetry is None


def test_symmetry_mode_dihedral_3_and_moving_one_moves_its_images(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.reset(window.doc.arena.__class__(name="tri", bounds=window.doc.arena.bounds), None)
    window.edit_symmetry(Symmetry("dihedral", 3, (0.0, 0.0), 90.0))
    use(window, "target")
    click(window, 2, 5)
    assert len(window.doc.arena.static_targets) == 6
    click(window, 0, -6)  # on the 90° axis: 3 images only
    assert len(window.doc.arena.static_targets) == 9
    use(window, "select")
    drag(window, [(2, 5), (2.5, 5.5), (3, 5)])
    ts = window.doc.arena.static_targets
    assert StaticTarget("T1", (3.0, 5.0)) in ts
    assert any(t.position == pytest.approx((-3.0, 5.0)) for t in ts)  # mirror image moved too
    assert not any(t.position == pytest.approx((-2.0, 5.0)) for t in ts)
    assert window.doc.undo_stack.count() == 4
    window.act["symmetry_mode"].setChecked(False)  # temporarily asymmetric editing
    click(window, 2.99, 5.0)
    window.delete_selection()
    assert len(window.doc.arena.static_targets) == 8


def test_symmetry_dialog_values(qtbot) -> None:  # type: ignore[no-untyped-def]
    dlg = SymmetryDialog(None, (1.0, 2.0), "L")
    qtbot.addWidget(dlg)
    assert dlg.symmetry() is None
    dlg.kind.setCurrentText("dihedral")
    dlg.order.setCurrentText("4")
    dlg.axis.setValue(45)
    assert dlg.symmetry() == Symmetry("dihedral", 4, (1.0, 2.0), 45.0)
    dlg.kind.setCurrentText("mirror")
    assert dlg.symmetry().order == 1 and not dlg.order.isEnabled()


def set_text(w: QLineEdit, text: str) -> None:
    w.setText(text)
    w.editingFinished.emit()


def test_scenario_and_arena_panels_edit_through_undo(window) -> None:  # type: ignore[no-untyped-def]
    sp = window.scenario_panel
    set_text(sp.editors["vp_to_win"], "15")
    assert window.doc.arena.scenario.vp_to_win == 15
    set_text(sp.editors["tier_thresholds.1"], "20")  # must stay below VP to win
    assert "vp_to_win" in sp.error.text() and window.doc.arena.scenario.tier_thresholds == (4, 8)
    assert sp.editors["tier_thresholds.1"].text() == "8"
    sp.editors["variants.gates"].setChecked(True)
    assert window.doc.arena.scenario.variants.gates
    set_text(sp.editors["analysis.safe_area_radius"], "-1")
    assert "greater than 0" in sp.error.text()
    ap = window.arena_panel
    set_text(ap.editors["tags"], "small, fast")
    set_text(ap.editors["units.length_mm"], "32")
    set_text(ap.editors["author"], "Ada")
    a = window.doc.arena
    assert (a.tags, a.units.length_mm, a.author) == (("small", "fast"), 32.0, "Ada")
    set_text(ap.editors["turbine.max_speed"], "seven")
    assert "number" in ap.error.text()
    assert window.doc.undo_stack.count() == 5
    window.doc.undo()
    assert window.doc.arena.author is None and ap.editors["author"].text() == ""


def test_inspector_points_table_edits_polygon_and_gate(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.set_selection([])
    use(window, "wall")
    window.mode_box.setCurrentText("polygon")
    for p in [(0, 2), (2, 2), (1, 4)]:
        click(window, *p)
    QTest.keyClick(window.view, Qt.Key.Key_Return)
    table = window.inspector.points_table
    assert table is not None and table.table.rowCount() == 3
    table.table.item(2, 1).setText("5")
    assert window.doc.arena.walls[-1].shape.points[2] == (1.0, 5.0)
    table = window.inspector.points_table
    table.table.setCurrentCell(0, 0)
    assert table.add_point()
    assert window.doc.arena.walls[-1].shape.points[1] == (1.0, 2.0)
    table = window.inspector.points_table
    table.table.item(0, 0).setText("x")
    assert "number" in window.inspector.error.text()
    for _ in range(2):
        window.inspector.points_table.table.setCurrentCell(0, 0)
        window.inspector.points_table.remove_point()
    assert len(window.doc.arena.walls[-1].shape.points) == 3
    assert "at least 3" in window.inspector.error.text()


def test_rulers_follow_zoom_and_measure_shows_turns(window) -> None:  # type: ignore[no-untyped-def]
    top = window.rulers.top
    assert top.isVisible() and top.height() == 20
    before = top.labelled_ticks()
    window.view.set_scale(80.0)
    after = top.labelled_ticks()
    assert len(after) >= 2 and (after[1] - after[0]) < (before[1] - before[0])
    window.act["rulers"].setChecked(False)
    assert not top.isVisible()
    use(window, "measure")
    window.view.set_scale(20.0)
    window.view.centerOn(0, 0)
    drag(window, [(-6, -3), (0, -3), (6, -3)])
    tool = window.tools["measure"]
    assert tool.distance == pytest.approx(12.0) and tool.turns == pytest.approx(2.0)
    # the reading stays in the status bar (issue 18, point 8), next to the cursor position
    assert window.measure_label.isVisible() and "12.00 L" in window.measure_label.text()
    assert "2.00 turns" in window.measure_label.text()
    assert window.statusBar().isAncestorOf(window.measure_label)
    use(window, "select")
    assert not window.measure_label.isVisible()


def test_shortcut_cheat_sheet_tooltips_and_hint(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    rows = window.shortcut_rows()
    for tool in window.tools.values():
        assert ("Tool", tool.label, tool.shortcut) in rows
        assert f"({tool.shortcut})" in window.tool_actions[tool.name].toolTip()
    keys = [r[2] for r in rows]
    assert "F1" in keys and len(keys) == len(set(keys)), "every shortcut is unique"
    window.act["shortcuts"].trigger()
    dlg = window.shortcuts_dialog
    assert dlg.isVisible() and dlg.table.rowCount() == len(rows)
    dlg.close()
    use(window, "vertices")
    assert window.hint_label.text().startswith("Edit vertices (E)")


def test_new_from_template(window) -> None:  # type: ignore[no-untyped-def]
    labels = [a.text() for a in window.template_menu.actions()]
    assert labels[:2] == ["Empty arena", "Default arena"] and any(t.startswith("Example") for t in labels)
    path = next(p for label, p in templates() if label.startswith("Example"))
    assert window.new_from_template(path)
    assert window.doc.path is None and window.doc.arena.walls and window.doc.dirty  # unsaved until saved
    assert window.new_from_template(None)
    assert window.doc.arena.elements() == ()


def test_finding_marks_and_frame(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.runner.analyse = lambda arena: [
        {"code": "x", "severity": "error", "message": "m", "elements": ["A"]},
        {"code": "y", "severity": "warning", "message": "m", "elements": ["A", "T1"]}]
    with qtbot.waitSignal(window.runner.finished, timeout=120_000):
        window.runner.run_now(window.doc.arena)
    assert window.scene.items_by_ref["A"].severity == "error"
    assert window.scene.items_by_ref["T1"].severity == "warning"
    window.view.set_scale(5.0)
    window.validation._clicked(window.validation.tree.topLevelItem(0))
    assert window.doc.selection == ["A"]
    visible = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert visible.contains(5.0, 5.0) and visible.contains(7.0, 7.0) and visible.width() < 12
    assert math.isfinite(window.view.scale_factor)


def test_start_positions_stay_valid_after_symmetric_mirror(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.set_selection(["start:1"])
    window.act["mirror_horizontal"].trigger()
    s = window.doc.arena.element("start:1")
    assert isinstance(s, StartPosition) and s.facing == 135.0 and s.position == (-7.0, -7.0)


def test_default_arena_declares_symmetry_moving_a_start_keeps_it_symmetric(window) -> None:  # type: ignore[no-untyped-def]
    from editor import symmetry as S
    from editor.document import DEFAULT_ARENA

    assert window.open_path(str(DEFAULT_ARENA), ask=False)
    sym = window.doc.arena.symmetry
    assert sym is not None and window.doc.active_symmetry() == sym
    before = window.doc.arena.start(1).position
    window.doc.set_selection(["start:1"])
    window.nudge(0, 1)  # one snap step (0.5 L) up
    arena = window.doc.arena
    assert arena.start(1).position == (before[0], before[1] + 0.5)
    moved = [s.player for s in arena.start_positions if s != window.doc.undo_stack.command(0).before.start(s.player)]
    assert sorted(moved) == [1, 2, 3, 4, 5, 6]
    for s in arena.start_positions:  # every start still has all its images
        assert len(S.counterparts(arena, s, sym)) == 5
