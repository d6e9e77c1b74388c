"""The editor serves the grid games (issue 15): File → New offers Glider-Pit Gladiators' pit and
the Mothership battlefield; cells are painted and erased, rows labelled and cells assigned to
launch zones, Motherships and build squares in strokes — one undo step each —; symmetry mode
paints each cell's images; live validation lists the gp-/mg- findings as ``arena validate``
words them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer

from engine.grids import HexLayout, SquareLayout
from schema.games import gliderpit as gp
from schema.games import mothership as ms
from tests.editor.conftest import click, drag

PIT = HexLayout("pointy")


def at(c: tuple[int, int]) -> tuple[float, float]:
    return PIT.center(c)


@pytest.fixture
def pit(window):  # type: ignore[no-untyped-def]
    assert window.new_arena("glider-pit-gladiators")
    window.doc.symmetry_enabled = False
    window.view.set_scale(18.0)
    window.view.centerOn(0, 0)
    return window


@pytest.fixture
def field(window):  # type: ignore[no-untyped-def]
    assert window.new_arena("mothership-grid")
    window.doc.symmetry_enabled = False
    window.view.set_scale(60.0)
    window.view.centerOn(1.5, 2.5)
    return window


def test_file_new_offers_both_grid_games(window) -> None:  # type: ignore[no-untyped-def]
    from editor.games.new_dialog import NewArenaDialog

    seen: dict[str, object] = {}

    def choose() -> None:
        dialog = window.new_dialog
        assert isinstance(dialog, NewArenaDialog)
        seen["systems"] = dialog.systems()
        dialog.select("mothership-grid")
        dialog.accept()

    QTimer.singleShot(0, choose)
    window.act["new"].trigger()
    assert {"glider-pit-gladiators", "mothership-grid"} <= set(seen["systems"])  # type: ignore[arg-type]
    assert window.doc.arena == ms.default_arena()
    assert "grid:motherships" in window.tools and "grid:paint" in window.tools


def test_a_paint_stroke_over_many_cells_is_one_undo_step(pit) -> None:  # type: ignore[no-untyped-def]
    before = pit.doc.arena
    depth = pit.doc.undo_stack.count()
    pit.set_tool("grid:paint")
    # outside the pit's right wall: (10, 0) .. (10, -4); the drag skips cells, the line fills them
    drag(pit, [at((10, 0)), at((10, -2)), at((10, -4))])
    added = set(pit.doc.arena.cells) - set(before.cells)
    assert added == {(10, 0), (10, -1), (10, -2), (10, -3), (10, -4)}
    assert pit.doc.undo_stack.count() == depth + 1
    pit.doc.undo_stack.undo()
    assert pit.doc.arena == before


def test_erase_takes_cells_out_of_the_pit_and_their_zone(pit) -> None:  # type: ignore[no-untyped-def]
    pit.set_tool("grid:erase")
    depth = pit.doc.undo_stack.count()
    drag(pit, [at((-9, 8)), at((-9, 7))])  # two hexes of zone Z1
    arena = pit.doc.arena
    assert (-9, 8) not in arena.cells and (-9, 7) not in arena.cells
    assert arena.element("Z1").cells == ((-9, 6), (-9, 5), (-9, 4))
    assert pit.doc.undo_stack.count() == depth + 1
    pit.set_tool("grid:paint")  # the paint tool's right button erases too
    drag(pit, [at((0, 0))], button=Qt.MouseButton.RightButton)
    assert (0, 0) not in pit.doc.arena.cells


def test_label_a_row_with_a_2d6_total(pit) -> None:  # type: ignore[no-untyped-def]
    pit.set_tool("grid:rows")
    pit.tools["grid:rows"].mode = "3"
    click(pit, *at((0, 9)))  # the top row, line r = 9: R1, labelled 8 by default
    row = pit.doc.arena.element("R1")
    assert (row.line, row.label) == (9, 3)
    assert pit.doc.selection == ["R1"]  # the inspector shows it
    assert pit.inspector.ref == "R1"
    # a dragged stroke across three rows labels each: one undo step
    depth = pit.doc.undo_stack.count()
    pit.tools["grid:rows"].mode = "11"
    drag(pit, [at((0, 0)), at((0, -2))])
    assert [r.label for r in pit.doc.arena.rows if r.line in (0, -1, -2)] == [11, 11, 11]
    assert pit.doc.undo_stack.count() == depth + 1


def test_a_new_line_gets_a_new_row_element(pit) -> None:  # type: ignore[no-untyped-def]
    pit.set_tool("grid:paint")
    drag(pit, [at((-5, 10)), at((0, 10))])  # a 20th line above the pit
    pit.set_tool("grid:rows")
    pit.tools["grid:rows"].mode = "7"
    click(pit, *at((-2, 10)))
    rows = pit.doc.arena.rows
    assert len(rows) == 20 and rows[0].line == 10 and rows[0].label == 7 and rows[0].id == "R20"


def test_assign_a_launch_zone_in_stroke_order(pit) -> None:  # type: ignore[no-untyped-def]
    pit.set_tool("grid:zones")
    zones = pit.tools["grid:zones"]
    zones.mode = "Z1"
    drag(pit, [at((-9, 3))], button=Qt.MouseButton.RightButton)  # nothing there: no undo step
    depth = pit.doc.undo_stack.count()
    drag(pit, [at((-9, 8)), at((-9, 4))], button=Qt.MouseButton.RightButton)  # empty Z1
    assert "Z1" not in [z.id for z in pit.doc.arena.launch_zones]
    drag(pit, [at((-9, 7)), at((-9, 3))])  # a new Z1, one hex lower, on the free Airspeed Track 1
    z1 = pit.doc.arena.element("Z1")
    assert z1.cells == ((-9, 7), (-9, 6), (-9, 5), (-9, 4), (-9, 3)) and z1.track == 1
    assert pit.doc.selection == ["Z1"]
    assert pit.doc.undo_stack.count() == depth + 2


def test_symmetry_mode_paints_the_mirror_image_in_the_same_stroke(pit) -> None:  # type: ignore[no-untyped-def]
    """The default pit declares a mirror about the vertical axis through its centre."""
    pit.doc.symmetry_enabled = True
    depth = pit.doc.undo_stack.count()
    pit.set_tool("grid:paint")
    drag(pit, [at((10, 0)), at((10, -1))])
    added = set(pit.doc.arena.cells) - set(gp.default_arena().cells)
    assert added == {(10, 0), (10, -1), (-10, 0), (-9, -1)}  # images across x = 0
    assert pit.doc.undo_stack.count() == depth + 1
    pit.tools["grid:rows"].mode = "4"
    pit.set_tool("grid:rows")
    click(pit, *at((3, 4)))  # a mirror keeps rows: the image of line 4 is line 4
    assert [r.label for r in pit.doc.arena.rows if r.line == 4] == [4]


def test_symmetry_mode_mirrors_a_launch_zone_stroke_onto_its_image_zone(pit) -> None:  # type: ignore[no-untyped-def]
    """A zone drawn in symmetry mode gets its mirror zone in the same stroke: the images join the
    zone that already holds them, else a new zone on the next free Airspeed Track."""
    z1 = pit.doc.arena.element("Z1").cells
    z4 = pit.doc.arena.element("Z4").cells  # the mirror image of Z1 across the pit's axis
    pit.set_tool("grid:zones")
    pit.doc.symmetry_enabled = False
    drag(pit, [at(z1[0]), at(z1[-1])], button=Qt.MouseButton.RightButton)
    drag(pit, [at(z4[0]), at(z4[-1])], button=Qt.MouseButton.RightButton)
    assert {z.id for z in pit.doc.arena.launch_zones} == {"Z2", "Z3", "Z5", "Z6"}
    pit.doc.symmetry_enabled = True
    depth = pit.doc.undo_stack.count()
    pit.tools["grid:zones"].mode = "Z1"
    drag(pit, [at(z1[0]), at(z1[-1])])
    arena = pit.doc.arena
    assert arena.element("Z1").cells == z1 and arena.element("Z1").track == 1
    assert set(arena.element("Z4").cells) == set(z4) and arena.element("Z4").track == 4
    assert pit.doc.undo_stack.count() == depth + 1
    drag(pit, [at(z1[0]), at(z1[1])])  # again over Z1's hexes: the images stay in Z4, nothing changes
    assert len(pit.doc.arena.launch_zones) == 6 and pit.doc.undo_stack.count() == depth + 1
    pit.doc.undo_stack.undo()
    assert {z.id for z in pit.doc.arena.launch_zones} == {"Z2", "Z3", "Z5", "Z6"}


def test_battlefield_motherships_and_build_squares_mirror_to_the_other_player(field) -> None:  # type: ignore[no-untyped-def]
    sq = SquareLayout()
    field.set_tool("grid:erase")
    drag(field, [sq.center((0, 4)), sq.center((2, 4))])  # player 2's build row goes
    assert field.doc.arena.mothership(2).build_squares == ()
    field.set_tool("grid:motherships")
    field.tools["grid:motherships"].mode = "player 2"
    field.set_tool("grid:paint")
    drag(field, [sq.center((0, 4)), sq.center((2, 4))])
    field.set_tool("grid:motherships")
    drag(field, [sq.center((0, 4)), sq.center((2, 4))])
    assert field.doc.arena.mothership(2).build_squares == ((0, 4), (1, 4), (2, 4))
    assert field.doc.arena == ms.default_arena()
    field.doc.symmetry_enabled = True  # the declared mirror: player 1's edit lands for player 2
    field.set_tool("grid:motherships")
    field.tools["grid:motherships"].mode = "player 1"
    drag(field, [sq.center((0, 0))], button=Qt.MouseButton.RightButton)
    arena = field.doc.arena
    assert arena.mothership(1).build_squares == ((1, 0), (2, 0))
    assert arena.mothership(2).build_squares == ((1, 4), (2, 4))


def test_live_findings_are_worded_as_arena_validate_words_them(pit, qtbot) -> None:  # type: ignore[no-untyped-def]
    from validators.run import validate

    with qtbot.waitSignal(pit.runner.finished, timeout=120_000):  # the editor's own staged analysis
        pit.runner.run_now(pit.doc.arena)
    assert pit.runner.findings == []  # the default pit validates clean
    # a grid game has no travel stage: the first findings are final, no child process is started
    assert pit.runner.final and pit.validation.status.text() == "No findings"
    pit.set_tool("grid:rows")
    pit.tools["grid:rows"].mode = "7"
    with qtbot.waitSignal(pit.runner.finished, timeout=120_000):
        click(pit, *at((0, 5)))  # R5, an 8, becomes a 7 (every total 2-12 still has a row)
    with qtbot.waitSignal(pit.runner.finished, timeout=120_000):
        pit.set_tool("grid:erase")
        drag(pit, [at((-9, 8)), at((-9, 7))])  # Z1 is three hexes long now
    found = pit.runner.findings
    expected = [(f.code, f.severity, f.message, list(f.elements)) for f in validate(pit.doc.arena).findings]
    assert sorted((f["code"], f["severity"], f["message"], f["elements"]) for f in found) == sorted(expected)
    assert "gp-launch-zones" in {f["code"] for f in found}
    rows = [pit.validation.tree.topLevelItem(i).text(1) for i in range(pit.validation.tree.topLevelItemCount())]
    assert "gp-launch-zones" in rows
    assert pit.game.grid.item.severities.get("Z1") == "error"  # outlined on the canvas
    pit.doc.undo_stack.undo()
    with qtbot.waitSignal(pit.runner.finished, timeout=120_000):
        pit.runner.run_now(pit.doc.arena)
    assert "gp-launch-zones" not in {f["code"] for f in pit.runner.findings}


def test_the_tool_options_bar_names_what_its_box_chooses(pit) -> None:  # type: ignore[no-untyped-def]
    """A grid tool's box chooses a 2d6 total, a zone or a player, not a shape; a grid snaps to its
    cells (no snap step) and has no Gravstrike checkpoint kind."""
    pit.set_tool("grid:rows")
    assert pit.mode_label.text().strip() == "2d6 total" and pit.mode_box.currentText() in [str(n) for n in range(2, 13)]
    pit.set_tool("grid:zones")
    assert pit.mode_label.text().strip() == "Zone"
    assert not any(a.isVisible() for a in pit.snap_actions + pit.kind_actions)
    assert pit.new_arena("gravstrike")
    pit.set_tool("select")
    assert all(a.isVisible() for a in pit.snap_actions + pit.kind_actions)
    assert pit.mode_label.text().strip() == "Shape"
