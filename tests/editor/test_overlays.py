"""Analysis overlays: heat map from a start, path of a travel finding, line of sight, and the
travel-time table — computed off the UI thread, drawn on the canvas."""

from __future__ import annotations

import math

from PySide6.QtGui import QImage, QPainter

from editor.games.gravstrike.export_layers import HEAT_BANDS


def gravstrike(win):  # type: ignore[no-untyped-def]
    """The window's Gravstrike overlays (:mod:`editor.games.gravstrike.overlays`)."""
    return win.overlays.parts["gravstrike"]


def scene_image(win) -> QImage:  # type: ignore[no-untyped-def]
    img = QImage(400, 400, QImage.Format.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    win.scene.render(p)
    p.end()
    return img


def test_heat_map_is_computed_in_the_background_and_drawn(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    ov, gs = window.overlays, gravstrike(window)
    before = scene_image(window)
    ov.show_heat(1)
    assert not gs.heat.isVisible()  # nothing blocks: the map arrives later
    qtbot.waitUntil(lambda: gs.heat.isVisible(), timeout=300_000)
    reach = gs.heat.reach
    start = window.doc.arena.start(1)
    assert reach.at(*start.position) == 0.0
    finite = reach.times[reach.times < math.inf]
    assert finite.size > 100 and finite.max() <= 4.0
    assert scene_image(window) != before  # the layer paints its cells
    ov.show_heat(None)
    assert not gs.heat.isVisible() and gs.heat.reach is None
    assert HEAT_BANDS[0][0] == 1.0


def test_heat_menu_lists_the_starts(window) -> None:  # type: ignore[no-untyped-def]
    texts = [a.text() for a in window.overlays.heat_menu.actions()]
    assert texts == ["None", "Start 1"]


def test_path_of_a_travel_finding_draws_one_footprint_per_length(window) -> None:  # type: ignore[no-untyped-def]
    ov, gs = window.overlays, gravstrike(window)
    steps = [{"x": -6.0 + i, "y": -7.0, "heading": 0.0, "speed": 2, "turn": 1 + i // 2, "length": 1 + i % 2,
              "pushed_by": None} for i in range(4)]
    before = scene_image(window)
    window.validation.findingSelected.emit({"code": "start-checkpoint-access", "elements": ["start:1", "A"], "path": steps})
    assert gs.path.isVisible() and len(gs.path.steps) == 4
    assert gs.path.start == window.doc.arena.start(1).position
    poly = gs.path.footprint(steps[0])
    xs = sorted(p.x() for p in poly)
    assert math.isclose(xs[0], -6.5) and math.isclose(xs[-1], -5.5)  # one length long, along the heading
    assert scene_image(window) != before
    ov.path_action.setChecked(False)
    assert not gs.path.isVisible()
    ov.path_action.setChecked(True)
    assert gs.path.isVisible()
    window.validation.findingSelected.emit({"code": "bounds", "elements": ["A"]})  # no path: nothing drawn
    assert not gs.path.isVisible()


def test_line_of_sight_of_one_start_with_a_key(window) -> None:  # type: ignore[no-untyped-def]
    """Issue 18, point 8: the line of sight is drawn for the selected start (or a chosen one),
    with a key in the canvas's corner - not all starts at once in pale colours."""
    from editor.elements import add_element
    from schema.games.gravstrike.model import StartPosition

    window.doc.reset(add_element(window.doc.arena, StartPosition(2, (7.0, -7.0), 135.0)), None)
    ov, gs = window.overlays, gravstrike(window)
    assert [a.text() for a in ov.sight_menu.actions()] == ["None", "Selected start", "Start 1", "Start 2"]
    before = scene_image(window)
    ov.show_sight("selected")
    assert not gs.sight.isVisible() and "select a start" in gs.legend.text()
    window.doc.set_selection(["start:2"])
    assert gs.sight.isVisible() and gs.sight.player == 2
    assert "Line of sight from start 2" in gs.legend.text() and "within 10 lengths" in gs.legend.text()
    box = gs.sight.region.boundingRect()  # one start's view: within the radius of start 2 only
    assert box.right() <= 7.0 + 10.0 + 1e-6 and box.left() >= 7.0 - 10.0 - 1e-6
    assert box.contains(7.0, -7.0) and scene_image(window) != before
    window.doc.set_selection(["start:1"])
    assert gs.sight.player == 1
    ov.show_sight(2)  # a chosen start, whatever is selected
    window.doc.set_selection([])
    assert gs.sight.player == 2 and gs.sight.isVisible()
    assert [a.text() for a in ov.sight_group.actions() if a.isChecked()] == ["Start 2"]
    ov.show_sight(None)
    assert not gs.sight.isVisible() and not gs.legend.isVisible()


def test_heat_map_key_and_computing_indicator(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Issue 18, point 8: while the heat map is computed the key says so (with a busy bar);
    then it shows the bands."""
    ov, gs = window.overlays, gravstrike(window)
    assert not gs.legend.isVisible()
    ov.show_heat(1)
    assert gs.legend.isVisible() and "Computing the heat map from start 1" in gs.legend.text()
    assert gs.legend.busy.isVisible()
    qtbot.waitUntil(lambda: gs.heat.isVisible(), timeout=300_000)
    text = gs.legend.text()
    assert "Heat map from start 1" in text and "Computing" not in text and not gs.legend.busy.isVisible()
    assert all(band in text for band in ("0–1 turns", "1–2 turns", "2–3 turns", "3–4 turns", "over 4 turns"))
    corner = gs.legend.geometry()  # in the view; the viewport's geometry too
    port = window.view.viewport().geometry()
    assert port.contains(corner)  # in a corner: the one covering least of the arena (issue 42, point 10)
    assert min(abs(corner.right() - port.right()), abs(corner.left() - port.left())) < 20
    assert min(abs(corner.top() - port.top()), abs(corner.bottom() - port.bottom())) < 20
    window.view.horizontalScrollBar().setValue(window.view.horizontalScrollBar().value() + 40)  # a pan...
    assert gs.legend.geometry() == corner  # ...does not move the key
    ov.show_heat(None)
    assert not gs.legend.isVisible()


def test_overlays_are_drawn_under_the_elements(window) -> None:  # type: ignore[no-untyped-def]
    gs = gravstrike(window)
    lowest = min(item.zValue() for item in window.scene.items_by_ref.values())
    assert gs.heat.zValue() < lowest and gs.sight.zValue() < lowest


def test_travel_table_fills_when_its_dock_is_shown(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    dock = window.docks["travel"]
    dock.show()
    dock.raise_()
    table = window.overlays.table.table
    qtbot.waitUntil(lambda: table.rowCount() == 1 and table.item(0, 0) is not None, timeout=300_000)
    headers = [table.horizontalHeaderItem(j).text() for j in range(table.columnCount())]
    assert headers == ["A", "M"]
    for j in range(2):
        assert float(table.item(0, j).text()) > 0


def test_travel_table_takes_the_live_validations_travel(window) -> None:  # type: ignore[no-untyped-def]
    from editor.games.gravstrike.overlays import travel_table
    from engine.gravstrike.planner import Goal, TravelResult

    arena = window.doc.arena
    given = {s.id: {f"checkpoint:{c.id}": TravelResult(Goal("checkpoint", c.id), True, time=2.5, turns=3)
                    for c in arena.checkpoints} for s in arena.start_positions}
    table = travel_table(arena, given)  # no search: the given travel is used as it is
    assert table == {s.id: {c.id: 2.5 for c in arena.checkpoints} for s in arena.start_positions}


def test_rendered_heat_map_and_sight_leave_walls_and_starts_uncovered() -> None:
    """``arena render --overlay heatmap:start:N`` / ``los`` (the same painter code): the cells
    go under the elements, so a wall and a start look exactly as without the overlay."""
    from editor.export_render import render_bytes
    from schema.shapes import Rect
    from schema.games.gravstrike.model import Arena, StartPosition, Wall

    arena = Arena(name="heat", bounds=Rect((0.0, 0.0), (12.0, 8.0)), walls=(Wall("W1", Rect((2.0, 0.0), (1.0, 4.0))),),
                  start_positions=(StartPosition(1, (-4.0, -2.0), 0.0),))
    frame = dict(view=(-6.0, -4.0, 6.0, 4.0), px_per_length=20)
    plain = QImage.fromData(render_bytes(arena, "png", **frame))
    for overlay in ("heatmap:start:1", "los"):
        over = QImage.fromData(render_bytes(arena, "png", overlays=[overlay], **frame))
        px = lambda img, x, y: img.pixelColor(round((x + 6.0) * 20), round((4.0 - y) * 20)).getRgb()  # noqa: E731
        near = lambda a, b: max(abs(u - v) for u, v in zip(a, b)) <= 8  # noqa: E731
        assert near(px(over, 2.2, 1.1), px(plain, 2.2, 1.1))  # inside the wall, off its label
        assert near(px(over, -4.3, -2.1), px(plain, -4.3, -2.1))  # the start's footprint (nearly opaque)
        assert not near(px(over, -1.0, 2.5), px(plain, -1.0, 2.5))  # open floor: the overlay is there
