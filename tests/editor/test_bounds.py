"""The arena bounds in the window: the canvas redraws them after every edit, they can be typed
as numbers (rectangle, regular polygon, points) or set from presets, rectangles get resize
handles, and the view stays where it was (issue 18, points 1 and 2)."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from editor import edit_commands as EC
from editor import render
from schema.shapes import Polygon, Rect

from tests.editor.conftest import drag, vp


def pixel(win, x: float, y: float) -> QColor:  # type: ignore[no-untyped-def]
    """The colour the canvas shows at arena point (x, y) (a real repaint, through the view's
    background cache)."""
    img = win.view.viewport().grab().toImage()
    return img.pixelColor(vp(win, x, y))


def close(a: QColor, b: QColor, tol: int = 6) -> bool:
    return all(abs(u - v) <= tol for u, v in zip(a.getRgb()[:3], b.getRgb()[:3]))


def test_bounds_edit_keeping_the_box_redraws_the_outline(window, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Point 1: a notch pushed into the bottom edge keeps the bounding box; the floor there
    must be drawn as outside at once, and after reopening the saved file."""
    at = (0.3, -8.3)
    assert close(pixel(window, *at), render.FLOOR)
    notched = Polygon(((-10.0, -10.0), (0.0, -5.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0)))
    window.doc.push(EC.SetBounds(window.doc, notched))
    assert close(pixel(window, *at), render.OUTSIDE)
    path = str(tmp_path / "notched.yaml")
    assert window.save_to(path)
    window.doc.undo()
    assert close(pixel(window, *at), render.FLOOR)
    window.doc.redo()
    assert window.open_path(path)  # the same bounds again: still drawn
    assert close(pixel(window, *at), render.OUTSIDE)


def centre(win) -> QPointF:  # type: ignore[no-untyped-def]
    return win.view.mapToScene(win.view.viewport().rect().center())


def test_view_does_not_jump_after_a_bounds_edit(window) -> None:  # type: ignore[no-untyped-def]
    """Point 2: growing or shrinking the bounds keeps what the designer was looking at."""
    window.view.set_scale(30.0)
    window.view.centerOn(QPointF(6.0, 4.0))
    before = centre(window)
    for bounds in (Rect((0.0, 0.0), (40.0, 30.0)), Rect((0.0, 0.0), (8.0, 8.0)),
                   Polygon(((-3.0, -3.0), (3.0, -3.0), (0.0, 3.0)))):
        window.doc.push(EC.SetBounds(window.doc, bounds))
        QApplication.processEvents()
        after = centre(window)
        assert abs(after.x() - before.x()) < 0.05 and abs(after.y() - before.y()) < 0.05, bounds


def test_new_arena_is_a_rectangle_resized_by_its_side_handles(window) -> None:  # type: ignore[no-untyped-def]
    """Point 2: a new arena's bounds are a rectangle; the Edit vertices tool with nothing
    selected drags a side (the opposite side stays) or a corner - one drag, no skewing."""
    window.new_document(False)
    window.view.set_scale(20.0)
    window.view.centerOn(QPointF(0, 0))
    assert window.doc.arena.bounds == Rect((0.0, 0.0), (24.0, 24.0))
    window.tool_actions["vertices"].trigger()
    kinds = sorted({h.kind for h in window.tools["vertices"].handles()})
    assert kinds == ["corner", "rotate", "side"]
    drag(window, [(12.0, 0.0), (13.0, 0.4), (15.0, 0.2)])  # the right side's middle
    assert window.doc.arena.bounds == Rect((1.5, 0.0), (27.0, 24.0))
    drag(window, [(0.0 + 1.5, 12.0), (1.5, 10.0)])  # the top side, down to y = 10
    assert window.doc.arena.bounds == Rect((1.5, -1.0), (27.0, 22.0))
    assert window.doc.undo_stack.count() == 2


def test_bounds_typed_as_numbers_and_presets(window) -> None:  # type: ignore[no-untyped-def]
    """Point 2: the Arena tab edits the bounds as a rectangle, a regular polygon or points, and
    offers presets; each is one undo step and a bad value is refused with a message."""
    window.new_document(False)
    ed = window.arena_panel.bounds
    assert ed.shown == "rect" and ed.fields["rect"]["width"].text() == "24"
    assert ed.set_field("width", 30)
    assert window.doc.arena.bounds == Rect((0.0, 0.0), (30.0, 24.0))
    assert ed.set_field("rotation", 15)
    assert window.doc.arena.bounds == Rect((0.0, 0.0), (30.0, 24.0), 15.0)
    assert not ed.set_field("height", -2)
    assert "greater than 0" in window.arena_panel.error.text()
    assert window.doc.arena.bounds == Rect((0.0, 0.0), (30.0, 24.0), 15.0)
    assert ed.fields["rect"]["height"].text() == "24"  # the field shows the arena again
    assert ed.set_field("rotation", 0)
    assert ed.choose_preset("Hexagon")
    assert ed.shown == "regular" and ed.fields["regular"]["sides"].text() == "6"
    assert window.doc.arena.bounds.points[0] == (15.0, 0.0)  # as wide as the rectangle was
    assert window.arena_panel.error.text() == ""
    assert ed.set_field("sides", 8) and len(window.doc.arena.bounds.points) == 8
    assert ed.set_field("radius", 10)
    assert max(math.dist((0, 0), p) for p in window.doc.arena.bounds.points) == pytest.approx(10.0, abs=1e-3)
    assert ed.choose_preset("Round (32 sides)") and len(window.doc.arena.bounds.points) == 32
    assert ed.choose_preset("Square") and window.doc.arena.bounds == Rect((0.0, 0.0), (20.0, 20.0))
    ed.choose_kind("polygon")
    assert ed.shown == "polygon" and ed.points.rowCount() == 4
    ed.points.item(2, 0).setText("14")  # the top-right corner, moved right: a free quadrilateral
    assert window.doc.arena.bounds.points[2] == (14.0, 10.0)
    assert ed.shown == "polygon"
    n = window.doc.undo_stack.count()
    for _ in range(n):
        window.doc.undo()
    assert window.doc.arena.bounds == Rect((0.0, 0.0), (24.0, 24.0))


def test_default_arena_bounds_read_as_a_regular_hexagon(window) -> None:  # type: ignore[no-untyped-def]
    from editor.document import DEFAULT_ARENA

    assert window.open_path(str(DEFAULT_ARENA), ask=False)
    ed = window.arena_panel.bounds
    assert ed.shown == "regular"
    assert [ed.fields["regular"][k].text() for k in ("radius", "sides", "rotation")] == ["12", "6", "0"]
