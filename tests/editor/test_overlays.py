"""Analysis overlays: heat map from a start, path of a travel finding, line of sight, and the
travel-time table — computed off the UI thread, drawn on the canvas."""

from __future__ import annotations

import math

from PySide6.QtGui import QImage, QPainter

from editor.export_render import HEAT_BANDS


def scene_image(win) -> QImage:  # type: ignore[no-untyped-def]
    img = QImage(400, 400, QImage.Format.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    win.scene.render(p)
    p.end()
    return img


def test_heat_map_is_computed_in_the_background_and_drawn(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    ov = window.overlays
    before = scene_image(window)
    ov.show_heat(1)
    assert not ov.heat.isVisible()  # nothing blocks: the map arrives later
    qtbot.waitUntil(lambda: ov.heat.isVisible(), timeout=60000)
    reach = ov.heat.reach
    start = window.doc.arena.start(1)
    assert reach.at(*start.position) == 0.0
    finite = reach.times[reach.times < math.inf]
    assert finite.size > 100 and finite.max() <= 4.0
    assert scene_image(window) != before  # the layer paints its cells
    ov.show_heat(None)
    assert not ov.heat.isVisible() and ov.heat.reach is None
    assert HEAT_BANDS[0][0] == 1.0


def test_heat_menu_lists_the_starts(window) -> None:  # type: ignore[no-untyped-def]
    texts = [a.text() for a in window.overlays.heat_menu.actions()]
    assert texts == ["None", "Start 1"]


def test_path_of_a_travel_finding_draws_one_footprint_per_length(window) -> None:  # type: ignore[no-untyped-def]
    ov = window.overlays
    steps = [{"x": -6.0 + i, "y": -7.0, "heading": 0.0, "speed": 2, "turn": 1 + i // 2, "length": 1 + i % 2,
              "pushed_by": None} for i in range(4)]
    before = scene_image(window)
    ov.show_finding_path({"code": "start-checkpoint-access", "elements": ["start:1", "A"], "path": steps})
    assert ov.path.isVisible() and len(ov.path.steps) == 4
    assert ov.path.start == window.doc.arena.start(1).position
    poly = ov.path.footprint(steps[0])
    xs = sorted(p.x() for p in poly)
    assert math.isclose(xs[0], -6.5) and math.isclose(xs[-1], -5.5)  # one length long, along the heading
    assert scene_image(window) != before
    ov.path_action.setChecked(False)
    assert not ov.path.isVisible()
    ov.path_action.setChecked(True)
    ov.show_finding_path({"code": "bounds", "elements": ["A"]})  # no path: nothing drawn
    assert not ov.path.isVisible()


def test_line_of_sight_layer_toggles(window) -> None:  # type: ignore[no-untyped-def]
    ov = window.overlays
    before = scene_image(window)
    ov.sight_action.setChecked(True)
    assert ov.sight.isVisible()
    assert scene_image(window) != before
    ov.sight_action.setChecked(False)
    assert not ov.sight.isVisible()


def test_travel_table_fills_when_its_dock_is_shown(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    dock = window.docks["travel"]
    dock.show()
    dock.raise_()
    table = window.overlays.table.table
    qtbot.waitUntil(lambda: table.rowCount() == 1 and table.item(0, 0) is not None, timeout=60000)
    headers = [table.horizontalHeaderItem(j).text() for j in range(table.columnCount())]
    assert headers == ["A", "M"]
    for j in range(2):
        assert float(table.item(0, j).text()) > 0


def test_travel_table_takes_the_live_validations_travel(window) -> None:  # type: ignore[no-untyped-def]
    from editor.overlays import travel_table
    from engine.planner import Goal, TravelResult

    arena = window.doc.arena
    given = {s.id: {f"checkpoint:{c.id}": TravelResult(Goal("checkpoint", c.id), True, time=2.5, turns=3)
                    for c in arena.checkpoints} for s in arena.start_positions}
    table = travel_table(arena, given)  # no search: the given travel is used as it is
    assert table == {s.id: {c.id: 2.5 for c in arena.checkpoints} for s in arena.start_positions}
