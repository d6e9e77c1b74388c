"""The editor's schema-driven game machinery (editor/games/) serves Arena Rex: File → New offers
it and opens the 30 in circle, the palette has a tool per shape kind (pits, spikes, hazards), the
inspector edits a hazard's fields from the schema, edits are single undo steps, and files
round-trip; the Arena tab edits a circle board as a circle, and deployment edges are edited in the
inspector and dragged along the board edge.  (Live validation: test_arenarex_validation.py; the
board's canvas handles and zones in symmetry mode: test_arenarex_canvas.py.)"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer, Qt
from PySide6.QtTest import QTest

from schema.games import arenarex as ar
from schema.io import load
from tests.editor.conftest import vp


@pytest.fixture
def arwin(window):  # type: ignore[no-untyped-def]
    assert window.new_arena("arena-rex")
    window.doc.symmetry_enabled = False
    window.view.set_scale(16.0)
    window.view.centerOn(0, 0)
    return window


def drag(win, a, b) -> None:  # type: ignore[no-untyped-def]
    vpw = win.view.viewport()
    QTest.mousePress(vpw, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, *a))
    QTest.mouseMove(vpw, vp(win, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    QTest.mouseMove(vpw, vp(win, *b))
    QTest.mouseRelease(vpw, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp(win, *b))


def test_file_new_offers_arena_rex_and_opens_the_circle(window) -> None:  # type: ignore[no-untyped-def]
    from editor.games.new_dialog import NewArenaDialog

    seen: dict[str, object] = {}

    def choose() -> None:
        dialog = window.new_dialog
        assert isinstance(dialog, NewArenaDialog)
        seen["systems"] = dialog.systems()
        dialog.select("arena-rex")
        dialog.accept()

    QTimer.singleShot(0, choose)
    window.act["new"].trigger()
    assert "arena-rex" in seen["systems"]  # type: ignore[operator]
    assert window.doc.arena == ar.default_arena()
    assert "Arena Rex" in window.windowTitle()
    assert {"arena-rex:pits", "arena-rex:spikes", "arena-rex:hazards"} <= set(window.tools)
    assert window.snap_box.suffix() == " in"


@pytest.mark.parametrize("key,mode", [("pits", "circle"), ("spikes", "rect"), ("hazards", "circle")])
def test_shape_tools_place_arena_rex_elements(arwin, key: str, mode: str) -> None:  # type: ignore[no-untyped-def]
    win = arwin
    win.set_tool(f"arena-rex:{key}")
    win.mode_box.setCurrentText(mode)
    drag(win, (3, 3), (4, 4))
    items = getattr(win.doc.arena, key)
    assert len(items) == 1 and items[0].shape.__class__.__name__.lower() == mode
    assert win.doc.undo_stack.count() == 1
    win.doc.undo()
    assert getattr(win.doc.arena, key) == ()


def test_drag_a_pit_and_save_round_trip(arwin, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The shipped circle opens, a pit drags (one undo step) and the file saves and reopens."""
    from pathlib import Path

    win = arwin
    shipped = load(Path(__file__).resolve().parents[2] / "arenas" / "arena-rex" / "colosseum-30.yaml")
    win.doc.reset(shipped, None)
    win.doc.symmetry_enabled = False
    win.set_tool("select")
    win.snap_box.setValue(0.5)
    drag(win, (-7, 1), (-7, 2))
    moved = win.doc.arena.pits[0].shape
    assert moved.center == (-7.0, 1.0) and win.doc.undo_stack.count() == 1
    path = tmp_path / "drawn.yaml"
    assert win.save_to(str(path))
    assert load(path) == win.doc.arena
    assert win.open_path(str(path), ask=False) and win.doc.arena == load(path)


def test_the_arena_tab_edits_a_circle_board_as_a_circle(arwin) -> None:  # type: ignore[no-untyped-def]
    """"typically ... a 30 diameter circle" (L40): the Arena tab shows the circle's centre and
    radius, each change is one undo step, a radius of 0 is refused, and the board may switch to a
    square and back (the deployment edges then follow: the issue's own wording of the zones is
    an arc of a circle, a side of a rectangle)."""
    from schema.shapes import Circle

    win = arwin
    ed = win.arena_panel.bounds
    assert ed.isEnabled() and ed.shown == "circle" and ed.kind.currentText() == "Circle"
    assert ed.fields["circle"]["radius"].text() == "15"
    steps = win.doc.undo_stack.count()
    assert ed.set_field("radius", 16)
    assert win.doc.arena.bounds == Circle((0.0, 0.0), 16.0) and win.doc.undo_stack.count() == steps + 1
    assert ed.set_field("cx", 1)
    assert win.doc.arena.bounds == Circle((1.0, 0.0), 16.0) and win.doc.undo_stack.count() == steps + 2
    assert not ed.set_field("radius", 0)
    assert "Radius" in win.arena_panel.error.text() and win.doc.arena.bounds == Circle((1.0, 0.0), 16.0)
    win.doc.undo()
    win.doc.undo()
    assert win.doc.arena.bounds == Circle((0.0, 0.0), 15.0)
    assert ed.fields["circle"]["radius"].text() == "15" and ed.fields["circle"]["cx"].text() == "0"
    assert "Circle" in [ed.preset.itemText(i) for i in range(ed.preset.count())]


def test_a_gravstrike_arena_offers_no_circle(window) -> None:  # type: ignore[no-untyped-def]
    from editor.bounds_panel import KINDS

    ed = window.arena_panel.bounds
    circle = ed.kind.model().item(list(KINDS).index("circle"))
    assert not circle.isEnabled()
    before = window.doc.arena.bounds
    ed.choose_kind("circle")
    assert window.doc.arena.bounds == before
    assert "Circle" not in [ed.preset.itemText(i) for i in range(ed.preset.count())]


def test_switching_the_board_shape_carries_the_deployment_edges(arwin) -> None:  # type: ignore[no-untyped-def]
    """A zone is "along their board edge" (L40): an arc of the circle, a side of the square.
    Turning the 30 in circle into a square puts the south and north arcs on the bottom and top
    sides, in the same undo step; the square back into a circle gives them arcs facing the same
    way."""
    from schema.shapes import Circle, Rect

    win = arwin
    ed = win.arena_panel.bounds
    steps = win.doc.undo_stack.count()
    ed.choose_kind("rect")
    assert win.doc.arena.bounds == Rect((0.0, 0.0), (30.0, 30.0))
    assert [(d.player, d.side, d.arc) for d in win.doc.arena.deployment] == [(1, 0, None), (2, 2, None)]
    assert win.doc.undo_stack.count() == steps + 1 and ed.shown == "rect"
    ed.choose_kind("circle")
    assert win.doc.arena.bounds == Circle((0.0, 0.0), 15.0)
    assert [(d.side, d.arc) for d in win.doc.arena.deployment] == [(None, (225.0, 315.0)), (None, (45.0, 135.0))]
    win.doc.undo()
    win.doc.undo()
    assert win.doc.arena == ar.default_arena()


def test_the_inspector_edits_a_deployment_edge(arwin) -> None:  # type: ignore[no-untyped-def]
    """"Players alternate deploying miniatures along their board edge" (L40): selecting a zone
    shows its fields from the schema (player, side, the arc's ends, the centre); each change is
    one undo step and a value the schema refuses is refused with its words."""
    win = arwin
    win.doc.set_selection(["deploy:1"])
    ins = win.inspector
    assert {"field:player", "field:side", "field:arc.0", "field:arc.1", "field:center.0",
            "field:center.1"} <= set(ins.editors)
    start, end = ins.editors["field:arc.0"], ins.editors["field:arc.1"]
    assert (start.text(), end.text()) == ("225", "315")
    steps = win.doc.undo_stack.count()
    start.setText("240")
    start.editingFinished.emit()
    assert win.doc.arena.deployment[0].arc == (240.0, 315.0) and win.doc.undo_stack.count() == steps + 1
    cx, cy = ins.editors["field:center.0"], ins.editors["field:center.1"]
    cx.setText("1")
    cx.editingFinished.emit()
    cy.setText("-15")
    cy.editingFinished.emit()
    assert win.doc.arena.deployment[0].center == (1.0, -15.0)
    win.doc.undo()
    win.doc.undo()
    win.doc.undo()
    assert win.doc.arena == ar.default_arena()


def test_dragging_a_zone_turns_its_arc_round_the_circle(arwin) -> None:  # type: ignore[no-untyped-def]
    """A zone is dragged along its board edge: on the circle its arc turns (one undo step) and
    stays centred ("Find the center of your board edge", L40); on a square it moves to the side
    it is dropped nearest."""
    win = arwin
    win.set_tool("select")
    drag(win, (0, -14.6), (3, -14.2))
    dep = win.doc.arena.deployment[0]
    assert win.doc.selection == ["deploy:1"] and win.doc.undo_stack.count() == 1
    assert dep.center is None and dep.arc is not None and 5 < dep.arc[0] - 225.0 < 20
    assert dep.arc[1] - dep.arc[0] == pytest.approx(90.0)
    win.doc.undo()
    win.arena_panel.bounds.choose_kind("rect")  # the south arc becomes the bottom side
    win.doc.set_selection([])
    drag(win, (0, -14.6), (14.6, 2))
    assert [(d.player, d.side) for d in win.doc.arena.deployment] == [(1, 1), (2, 2)]
