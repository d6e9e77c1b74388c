"""The Scenario tab edits the start sets and highlights the active one (issue 39, point 1: "The
editor's scenario tab edits the sets and highlights the active one"): one row per declared count,
one undo step per edit, a set the format refuses refused with its words; the active count (view
state) draws the starts outside its set faint and live validation judges that count."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from editor import render
from editor.games.io import load

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "arenas" / "default.yaml"  # declares 3 -> [1, 3, 5] and 6 -> all six


def _box(window: Any) -> Any:
    return window.scenario_panel.start_sets


def _type(window: Any, count: int, text: str) -> None:
    """Type ``text`` into the set row of ``count`` and leave the field, as a user does."""
    from PySide6.QtWidgets import QLineEdit

    edit = window.scenario_panel.findChild(QLineEdit, f"start-set:{count}")
    assert edit is not None, count
    edit.setText(text)
    edit.editingFinished.emit()


def _choose(window: Any, count: int | None) -> None:
    combo = _box(window).active
    i = combo.findData(count)
    assert i >= 0, count
    combo.setCurrentIndex(i)
    combo.activated.emit(i)


def _wait_validated(window: Any, qtbot: Any) -> None:
    qtbot.waitUntil(lambda: not window.runner.busy and window.runner.final, timeout=20000)


@pytest.fixture
def tri(window):  # type: ignore[no-untyped-def]
    window.doc.reset(load(DEFAULT), str(DEFAULT))
    return window


def test_a_set_is_edited_in_one_undo_step_and_undone(tri) -> None:  # type: ignore[no-untyped-def]
    box = _box(tri)
    assert box.isVisible() and sorted(box.edits) == [3, 6]
    assert box.edits[3].text() == "1, 3, 5"
    depth = tri.doc.undo_stack.count()
    _type(tri, 3, "2, 4, 6")
    assert dict(tri.doc.arena.scenario.start_sets)[3] == (2, 4, 6)
    assert tri.doc.undo_stack.count() == depth + 1 and tri.doc.dirty
    tri.doc.undo_stack.undo()
    assert dict(tri.doc.arena.scenario.start_sets)[3] == (1, 3, 5) and box.edits[3].text() == "1, 3, 5"
    tri.doc.undo_stack.redo()
    assert dict(tri.doc.arena.scenario.start_sets)[3] == (2, 4, 6) and box.edits[3].text() == "2, 4, 6"


@pytest.mark.parametrize(("text", "words"), [
    ("1, 3, 7", "the arena has no start 7 (its starts: 1, 2, 3, 4, 5, 6)"),
    ("1, 3", "the 3-player set lists 2 start(s); it lists one start per player, 3 in all"),
    ("1, 3, 3", "start 3 is listed twice in the 3-player set"),
    ("1, three, 5", "'three' is not a start number"),
])
def test_a_bad_set_is_refused_with_the_formats_words(tri, text: str, words: str) -> None:  # type: ignore[no-untyped-def]
    before, depth = tri.doc.arena, tri.doc.undo_stack.count()
    _type(tri, 3, text)
    assert tri.doc.arena is before and tri.doc.undo_stack.count() == depth  # nothing applied
    assert words in _box(tri).error.text()
    assert _box(tri).edits[3].text() == "1, 3, 5"  # the row shows the file's set again


def test_a_count_is_added_and_removed(tri) -> None:  # type: ignore[no-untyped-def]
    box = _box(tri)
    box.new_count.setValue(2)
    box.add_button.click()
    assert tri.doc.arena.scenario.start_sets == ((2, (1, 4)), (3, (1, 3, 5)), (6, (1, 2, 3, 4, 5, 6)))
    assert sorted(box.edits) == [2, 3, 6]
    assert [box.active.itemData(i) for i in range(box.active.count())] == [None, 2, 3, 6]
    box.new_count.setValue(8)  # more players than starts: the format's words, nothing added
    box.add_button.click()
    assert "the 8-player set lists 6 start(s)" in box.error.text() and sorted(box.edits) == [2, 3, 6]
    from PySide6.QtWidgets import QPushButton

    tri.scenario_panel.findChild(QPushButton, "start-set-remove:2").click()
    assert dict(tri.doc.arena.scenario.start_sets).keys() == {3, 6}
    tri.doc.undo_stack.undo()
    assert 2 in dict(tri.doc.arena.scenario.start_sets)
    tri.doc.undo_stack.undo()
    assert dict(tri.doc.arena.scenario.start_sets).keys() == {3, 6}


def test_the_active_count_dims_the_starts_outside_its_set(tri, qtbot) -> None:  # type: ignore[no-untyped-def]
    items = tri.scene.items_by_ref
    _choose(tri, 3)
    assert tri.doc.active_count == 3 and not tri.doc.dirty  # view state: not an edit
    assert {r: items[r].opacity() for r in items if r.startswith("start:")} == {
        "start:1": 1.0, "start:2": render.DIM_OPACITY, "start:3": 1.0,
        "start:4": render.DIM_OPACITY, "start:5": 1.0, "start:6": render.DIM_OPACITY}
    assert all(it.opacity() == 1.0 for r, it in items.items() if not r.startswith("start:"))
    # the starts' labels are drawn over every item by the view: a dimmed start's labels are faint too
    labels = tri.view.label_layout()
    faint = {lab.text for lab in labels if lab.opacity < 1.0}
    assert faint and faint <= {"2", "4", "6", "start:2", "start:4", "start:6", "P2", "P4", "P6"}, faint
    # live validation judges the 3-player set, and the report panel says so
    _wait_validated(tri, qtbot)
    assert "judged at 3 players (starts 1, 3, 5)" in tri.validation.status.text()
    _choose(tri, None)
    assert all(it.opacity() == 1.0 for it in items.values())
    _wait_validated(tri, qtbot)
    assert "judged with all 6 starts" in tri.validation.status.text()


def test_removing_the_active_count_shows_every_start_again(tri) -> None:  # type: ignore[no-untyped-def]
    _choose(tri, 3)
    _box(tri).remove(3)
    assert tri.doc.active_count is None and _box(tri).active.currentData() is None
    assert all(it.opacity() == 1.0 for it in tri.scene.items_by_ref.values())


def test_live_validation_judges_the_active_count_as_players_n(tri, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The judged arena is the one ``arena validate --players 3`` judges: only starts 1, 3 and 5,
    the scenario's count 3, the dihedral symmetry shrunk to the rotations that keep them."""
    from editor.start_sets import judged
    from schema.ruleset import ruleset_of

    arena = tri.doc.arena
    sub, note = judged(arena, 3)
    want = ruleset_of(arena).starts().subset(arena, (1, 3, 5), 3)  # what validators.players judges
    assert [s.player for s in sub.start_positions] == [1, 3, 5] and sub.scenario.players == 3
    assert sub.symmetry == want.symmetry and sub.symmetry.kind == "rotational"
    assert sub.scenario.start_sets == () and "--players 3" in note
    seen: list[Any] = []
    tri.runner.analyse = lambda a: seen.append(a) or []  # type: ignore[method-assign]
    _choose(tri, 3)
    _wait_validated(tri, qtbot)
    assert seen and [s.player for s in seen[-1].start_positions] == [1, 3, 5]


def test_glider_pit_launch_zones_are_edited_and_dimmed(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage, QPainter

    from editor import grid_render

    assert window.new_arena("glider-pit-gladiators")
    box = _box(window)
    assert box.isVisible() and box.edits == {}  # no sets declared yet
    assert "launch zones: 1, 2, 3, 4, 5, 6" in box.hint.text()
    box.add(2)
    assert window.doc.arena.scenario.start_sets == ((2, (1, 4)),)
    _type(window, 2, "1, 9")
    assert "the arena has no launch zone 9" in box.error.text()
    assert window.doc.arena.scenario.start_sets == ((2, (1, 4)),)
    _type(window, 2, "2, 5")
    assert window.doc.arena.scenario.start_sets == ((2, (2, 5)),)
    assert box.active.itemText(1) == "2 gliders: 2, 5"
    _choose(window, 2)
    item = window.game.grid.item
    zones = {z.track: z.id for z in window.doc.arena.launch_zones}
    assert item.dimmed == frozenset(zones[t] for t in (1, 3, 4, 6))
    # the painted pixels: a dimmed zone's middle hex is paler than a chosen one's
    arena = window.doc.arena
    rect = grid_render.arena_rect(arena, 0.5)
    image = QImage(800, 800, QImage.Format.Format_ARGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    painter.setWorldTransform(render.arena_transform(rect, image.rect().toRectF()))
    grid_render.paint_grid(painter, arena, dimmed=item.dimmed)
    transform = painter.worldTransform()
    painter.end()
    lay = grid_render.layout(arena)

    def shade(track: int) -> int:
        zone = next(z for z in arena.launch_zones if z.track == track)
        x, y = lay.center(zone.cells[0])
        p = transform.map(render.QPointF(x, y)).toPoint()
        c = image.pixelColor(p)
        return c.red() + c.green() + c.blue()

    assert shade(1) > shade(2) + 60 and shade(4) > shade(5) + 60  # faint zones are near the floor's white


def test_a_game_without_start_sets_shows_no_section(window) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena("mothership-grid")
    assert not _box(window).isVisible()


def test_a_glider_count_leaves_the_pits_build_checks_to_every_zone(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    # "On the long edges of the mapsheet are six Airspeed Tracks": a 2-glider set keeps two zones,
    # which gp-launch-zones (six zones) would refuse; live validation leaves it to "All starts".
    from editor.start_sets import judged, set_aside

    assert window.new_arena("glider-pit-gladiators")
    _box(window).add(2)
    arena = window.doc.arena
    assert set_aside(arena, None) == frozenset() and set_aside(arena, 2) == frozenset({"gp-launch-zones"})
    sub, note = judged(arena, 2)
    assert len(sub.launch_zones) == 2 and "gp-launch-zones judged with all launch zones" in note
    runner = window.runner
    published: list[list[object]] = []
    runner.finished.connect(published.append)
    runner.pending_drop = set_aside(arena, 2)
    generation = runner.run_now(sub)
    runner._done(generation, [{"code": code, "severity": "error", "message": code, "elements": [], "metrics": {}}
                              for code in ("gp-launch-zones", "gp-zone-centre")])
    assert [f["code"] for f in published[-1]] == ["gp-zone-centre"]  # type: ignore[index]
