"""The Layers dock (issue 18, point 10): each element kind can be hidden or locked. Hidden:
not drawn, not picked, not snapped to; locked: drawn but not picked or selected, so no tool
edits it. The file is unchanged."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from editor.layers import LOCK_COL, VISIBLE_COL

from tests.editor.conftest import click, drag, vp


def test_layers_panel_lists_every_kind(window) -> None:  # type: ignore[no-untyped-def]
    panel = window.layers_panel
    assert [panel.rows[k].text(0) for k in ("walls", "checkpoints", "start_positions")] == \
        ["Walls", "Checkpoints", "Start positions"]
    assert panel.rows["checkpoints"].toolTip(0) == "Checkpoints: 2 in the arena"
    assert all(r.checkState(VISIBLE_COL) == Qt.CheckState.Checked for r in panel.rows.values())
    assert all(r.checkState(LOCK_COL) == Qt.CheckState.Unchecked for r in panel.rows.values())


def test_hidden_kind_is_not_drawn_picked_or_snapped_to(window) -> None:  # type: ignore[no-untyped-def]
    panel = window.layers_panel
    window.doc.set_selection(["W1"])
    panel.rows["walls"].setCheckState(VISIBLE_COL, Qt.CheckState.Unchecked)  # as clicking the box
    assert not window.scene.items_by_ref["W1"].isVisible()
    assert window.doc.selection == []  # a hidden element is dropped from the selection
    click(window, -4.0, 0.0)  # where W1 is
    assert window.doc.selection == []
    assert not window.tree.items_by_ref["W1"].flags() & Qt.ItemFlag.ItemIsSelectable  # greyed in the tree
    window.tool_actions["target"].trigger()
    click(window, -3.42, 1.05)  # 1.6 px from W1's edge (nearer than the grid point): hidden, so the grid
    assert window.doc.arena.static_targets[-1].position == (-3.5, 1.0)
    QTest.mouseMove(window.view.viewport(), vp(window, 2.2, -2.2))
    QTest.mouseMove(window.view.viewport(), vp(window, -3.47, 1.53))  # W1's corner: no highlight
    assert window.scene.snap_marker.hit is None
    panel.rows["walls"].setCheckState(VISIBLE_COL, Qt.CheckState.Checked)
    assert window.scene.items_by_ref["W1"].isVisible()


def test_locked_kind_is_drawn_but_not_picked_moved_or_deleted(window) -> None:  # type: ignore[no-untyped-def]
    before = window.doc.arena
    window.layers_panel.rows["checkpoints"].setCheckState(LOCK_COL, Qt.CheckState.Checked)
    assert window.scene.layers.is_locked("checkpoints")
    assert window.scene.items_by_ref["A"].isVisible()
    window.tool_actions["select"].trigger()
    drag(window, [(6.0, 6.0), (3.0, 3.0)])  # a drag on A: a rubber band, nothing moves
    assert window.doc.arena == before and window.doc.selection == []
    drag(window, [(-9.0, -9.0), (9.0, 9.0)])  # the band takes everything but the checkpoints
    assert "A" not in window.doc.selection and "M" not in window.doc.selection and "W1" in window.doc.selection
    window.doc.set_selection(["A"])  # from the tree or a finding: refused as well
    assert window.doc.selection == []
    window.layers_panel.rows["checkpoints"].setCheckState(LOCK_COL, Qt.CheckState.Unchecked)
    click(window, 6.0, 6.0)
    assert window.doc.selection == ["A"]
    assert window.doc.arena == before  # layers never change the file
