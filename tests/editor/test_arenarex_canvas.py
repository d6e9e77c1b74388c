"""Arena Rex on the canvas (issue 14): the circle board is edited as a circle (the edit-vertices
tool's radius and centre handles, one undo step per drag, the zones staying on the rim), in
symmetry mode a zone turned round the circle turns its image zone, and the validation panel
names the stage still running (Arena Rex's zone "fairness checks", not travel checks)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from editor import commands as C
from schema.games import arenarex as ar
from schema.io import load
from schema.shapes import Circle
from schema.shapes import Symmetry
from tests.editor.conftest import vp
from tests.editor.test_arenarex_editor import arwin, drag  # noqa: F401 - the fixture

COLOSSEUM = Path(__file__).resolve().parents[2] / "arenas" / "arena-rex" / "colosseum-30.yaml"


def press_move(win, a, points, mods=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    vpw = win.view.viewport()
    QTest.mousePress(vpw, Qt.MouseButton.LeftButton, mods, vp(win, *a))
    for p in points:
        QTest.mouseMove(vpw, vp(win, *p))


def release(win, p, mods=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    QTest.mouseRelease(win.view.viewport(), Qt.MouseButton.LeftButton, mods, vp(win, *p))


def test_the_radius_handle_resizes_the_circle_in_one_undo_step(arwin) -> None:  # type: ignore[no-untyped-def]
    """"Our games typically take place on a 30 diameter circle" (L40): with nothing selected the
    edit-vertices tool shows the board's radius handle (east on the rim) and centre handle; a
    drag follows the mouse live (the status bar reads the radius in inches, in whole snap
    steps), the zones stay on the rim ("Find the center of your board edge", L40: the arcs keep
    their degrees, so each zone's centre is on the new rim), and the whole drag is one undo step."""
    win = arwin
    win.set_tool("vertices")
    tool = win.view.tool
    assert [(h.kind, h.point) for h in tool.handles()] == [("radius", (15.0, 0.0)), ("centre", (0.0, 0.0))]
    assert win.view.snap_step == 1.0  # inches
    press_move(win, (15.0, 0.0), [(14.0, 0.2), (12.6, 0.4), (12.2, 0.3)])
    assert win.doc.arena.bounds == Circle((0.0, 0.0), 12.0)  # live, in whole inches
    assert win.measure_label.text() == "Board radius 12.00 in (diameter 24.00 in)" and win.measure_label.isVisible()
    release(win, (11.2, -0.1))
    arena = win.doc.arena
    assert arena.bounds == Circle((0.0, 0.0), 11.0)
    assert win.doc.undo_stack.count() == 1 and win.doc.undo_stack.undoText() == "Edit arena bounds"
    assert [d.arc for d in arena.deployment] == [(225.0, 315.0), (45.0, 135.0)]
    assert [arena.edge(d).centre for d in arena.deployment] == [pytest.approx((0.0, -11.0)), pytest.approx((0.0, 11.0))]
    assert not win.measure_label.isVisible()
    assert [h.point for h in tool.handles()] == [(11.0, 0.0), (0.0, 0.0)]  # the handle follows
    win.doc.undo()
    assert win.doc.arena == ar.default_arena()
    win.doc.redo()
    assert win.doc.arena == arena
    press_move(win, (0.0, 11.0), [(0.0, 12.0), (0.0, 13.1)])  # anywhere on the rim: a second drag, a second step
    release(win, (0.0, 13.1))
    assert win.doc.arena.bounds.radius == 13.0 and win.doc.undo_stack.count() == 2


def test_the_radius_never_reaches_zero_and_ctrl_drags_freely(arwin) -> None:  # type: ignore[no-untyped-def]
    win = arwin
    win.set_tool("vertices")
    press_move(win, (15.0, 0.0), [(8.0, 0.0), (0.05, 0.0)])
    release(win, (0.05, 0.0))
    assert win.doc.arena.bounds.radius == 1.0  # one snap step
    win.doc.undo()
    ctrl = Qt.KeyboardModifier.ControlModifier
    press_move(win, (15.0, 0.0), [(14.0, 0.0), (13.37, 0.0)], ctrl)
    release(win, (13.37, 0.0), ctrl)
    assert win.doc.arena.bounds.radius == pytest.approx(13.37, abs=1 / 16)  # one pixel at 16 px/in
    assert win.doc.undo_stack.count() == 1


def test_escape_puts_the_board_back_and_leaves_no_step(arwin) -> None:  # type: ignore[no-untyped-def]
    win = arwin
    win.set_tool("vertices")
    press_move(win, (15.0, 0.0), [(13.0, 0.0), (12.0, 0.0)])
    assert win.doc.arena.bounds.radius == 12.0
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    release(win, (12.0, 0.0))
    assert win.doc.arena == ar.default_arena() and win.doc.undo_stack.count() == 0


def test_the_centre_handle_moves_the_board_and_its_given_zone_centres(arwin) -> None:  # type: ignore[no-untyped-def]
    """A zone with a given centre keeps its place relative to the rim when the board moves or
    grows (one undo step with the board)."""
    win = arwin
    given = dataclasses.replace(win.doc.arena.deployment[0], center=(3.0, -14.0))
    win.doc.reset(dataclasses.replace(win.doc.arena, deployment=(given, win.doc.arena.deployment[1])), None)
    win.set_tool("vertices")
    press_move(win, (0.0, 0.0), [(1.0, 0.5), (2.1, 1.1)])
    release(win, (2.1, 0.9))
    arena = win.doc.arena
    assert arena.bounds == Circle((2.0, 1.0), 15.0) and win.doc.undo_stack.count() == 1
    assert arena.deployment[0].center == (5.0, -13.0)
    press_move(win, (17.0, 1.0), [(24.0, 1.0), (32.0, 1.0)])  # the radius, doubled
    release(win, (32.0, 1.0))
    d = win.doc.arena.deployment[0]
    assert win.doc.arena.bounds.radius == 30.0 and d.center == (8.0, -27.0)
    edge = win.doc.arena.edge(d)
    assert math.dist(edge.centre, (2.0, 1.0)) == pytest.approx(30.0) and edge.off_edge == pytest.approx(
        load(COLOSSEUM).edge(given).off_edge * 2.0, abs=0.01)


def test_a_resized_board_is_validated_live(arwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    """"We suggest a board at least 24 x 24 for Arena Rex" (L40): a 22 in circle dragged on the
    canvas gets ar-board-size, worded as ``arena validate`` words it; undo clears it."""
    from validators.run import validate

    win = arwin
    r = win.runner

    def settle() -> list[dict]:  # type: ignore[type-arg]
        qtbot.waitUntil(lambda: r.completed_generation == r.generation and r.final and not r.busy, timeout=300_000)
        return r.findings

    r.run_now(win.doc.arena)
    assert not [f for f in settle() if f["code"] == "ar-board-size"]
    win.set_tool("vertices")
    press_move(win, (15.0, 0.0), [(13.0, 0.0), (11.0, 0.0)])
    release(win, (11.0, 0.0))
    found = [f for f in settle() if f["code"] == "ar-board-size"]
    expected = [f.message for f in validate(win.doc.arena).findings if f.code == "ar-board-size"]
    assert [f["message"] for f in found] == expected and "less than 24 in" in expected[0]
    win.doc.undo()
    assert not [f for f in settle() if f["code"] == "ar-board-size"]


def test_turning_a_zone_turns_its_image_zone_in_symmetry_mode(arwin) -> None:  # type: ignore[no-untyped-def]
    """The shipped colosseum turns onto itself by half a turn: in symmetry mode a zone dragged
    round the circle turns the other zone by the same angle (still half a turn apart, so
    ``ar-symmetry`` stays quiet), typing one zone's arc moves the other's, and each edit is one
    undo step, as a pit moves with its image."""
    from validators.run import validate

    win = arwin
    win.doc.reset(load(COLOSSEUM), None)
    win.doc.symmetry_enabled = True
    win.set_tool("select")
    drag(win, (0.0, -14.6), (3.0, -14.2))
    one, two = win.doc.arena.deployment
    assert one.arc is not None and 5 < one.arc[0] - 225.0 < 20
    assert two.arc == pytest.approx(((one.arc[0] + 180.0) % 360.0, (one.arc[0] + 180.0) % 360.0 + 90.0))
    assert win.doc.undo_stack.count() == 1
    assert not [f for f in validate(win.doc.arena).findings if f.code == "ar-symmetry"]
    win.doc.undo()
    assert win.doc.arena == load(COLOSSEUM)
    win.doc.redo()
    assert win.doc.arena.deployment == (one, two)
    win.doc.set_selection(["deploy:2"])
    end = win.inspector.editors["field:arc.1"]
    end.setText(str(two.arc[1] + 5.0))
    end.editingFinished.emit()
    assert win.doc.arena.deployment[0].arc == pytest.approx((one.arc[0], one.arc[1] + 5.0))
    win.doc.push(C.MoveElements(win.doc, ["pit-west"], 0.0, 1.0))
    assert win.doc.arena.pits[1].shape.center == (7.0, -1.0)  # its half-turn image
    assert win.doc.undo_stack.count() == 3
    win.doc.symmetry_enabled = False  # off: the zone turns alone
    win.doc.push(C.MoveElements(win.doc, ["deploy:1"], 3.0, 0.5))
    assert win.doc.arena.deployment[1].arc == pytest.approx((two.arc[0], two.arc[1] + 5.0))


def test_a_mirror_reflects_the_turn_across_its_axis(arwin) -> None:  # type: ignore[no-untyped-def]
    """Mirrored about the east-west axis the north zone is the south zone's image: turning the
    south arc counter-clockwise turns the north arc clockwise by as much (φ -> −φ)."""
    win = arwin
    arena = win.doc.arena
    win.doc.reset(dataclasses.replace(arena, symmetry=Symmetry("mirror", 1, (0.0, 0.0), 0.0)), None)
    win.doc.symmetry_enabled = True
    win.doc.push(C.MoveElements(win.doc, ["deploy:1"], 3.0, 0.5))
    one, two = win.doc.arena.deployment
    turn = one.arc[0] - 225.0
    assert turn > 5 and two.arc == pytest.approx((45.0 - turn, 135.0 - turn))
    assert win.doc.undo_stack.count() == 1
    win.doc.undo()
    assert win.doc.arena.deployment == arena.deployment


@pytest.mark.parametrize("game,stage", [("arena-rex", "fairness checks"), ("gravstrike", "travel checks")])
def test_the_status_names_the_stage_still_running(window, qtbot, game: str, stage: str) -> None:  # type: ignore[no-untyped-def]
    """While the second stage runs the panel says which checks those are, from the stage: Arena
    Rex's zone fairness checks (it has no travel checks), Gravstrike's travel checks."""
    from editor.games.gravstrike.live_travel import LiveTravel
    from editor.validation import StagedAnalysis

    win = window
    if game == "arena-rex":
        win.doc.reset(load(COLOSSEUM), None)
    else:  # the window's own staged analysis, its travel stage on the live workers
        win.runner.analyse = StagedAnalysis(live=LiveTravel())
    win.runner.analyse_for(win.doc.arena).partial_hold_s = 0.0  # the quick stage's findings are shown at once
    seen: list[tuple[bool, str, str]] = []
    win.runner.finished.connect(lambda _f: seen.append((win.runner.final, win.runner.running,
                                                        win.validation.status.text())))
    r = win.runner
    r.run_now(win.doc.arena)
    qtbot.waitUntil(lambda: r.completed_generation == r.generation and r.final and not r.busy, timeout=300_000)
    assert seen[0][:2] == (False, stage)
    assert seen[0][2].endswith(f" so far — {stage} running in the background…")
    assert seen[-1][:2] == (True, "") and "running" not in seen[-1][2]


def test_zones_added_or_deleted_in_symmetry_mode_bring_their_images() -> None:
    """As for start positions: a zone added on a symmetric board gets its image zones (the next
    free players), deleting one deletes its images; a square's side maps onto the opposite side."""
    from editor import elements as E
    from editor.symmetry import propagate
    from schema.shapes import Rect

    rex = load(COLOSSEUM)
    sym = rex.symmetry
    assert sym is not None
    alone = dataclasses.replace(rex, deployment=())
    added = propagate(alone, dataclasses.replace(alone, deployment=(ar.Deployment(1, arc=(0.0, 60.0)),)), sym)
    assert added.deployment == (ar.Deployment(1, arc=(0.0, 60.0)), ar.Deployment(2, arc=(180.0, 240.0)))
    assert propagate(rex, E.remove_elements(rex, ["deploy:1"]), sym).deployment == ()
    square = dataclasses.replace(rex, bounds=Rect((0.0, 0.0), (24.0, 24.0)),
                                 deployment=(ar.Deployment(1, side=0), ar.Deployment(2, side=2)))
    moved = dataclasses.replace(square, deployment=(ar.Deployment(1, side=0, center=(4.0, -12.0)), square.deployment[1]))
    assert propagate(square, moved, sym).deployment[1] == ar.Deployment(2, side=2, center=(-4.0, 12.0))
