"""Snapping (issue 18, point 6): positions land on grid points, other elements' vertices and
edges only win within a few pixels (an edge only when nearer than the grid point), and the
snap target is highlighted."""

from __future__ import annotations

import dataclasses

import pytest

from PySide6.QtTest import QTest

from editor import commands as C
from schema.shapes import Circle, Polygon

from tests.editor.conftest import click, drag, vp


def use(win, tool: str, mode: str | None = None) -> None:  # type: ignore[no-untyped-def]
    win.tool_actions[tool].trigger()
    if mode is not None:
        win.mode_box.setCurrentText(mode)


def test_a_dragged_element_lands_on_a_grid_point(window) -> None:  # type: ignore[no-untyped-def]
    """A at x = 6.2 dragged about 5 to the left ends at a grid point (1.0 with the 0.5 step),
    not at 1.2 (the distance snapped instead of the position)."""
    window.doc.push(C.SetProperty(window.doc, "A", "shape.center.x", 6.2))
    window.doc.set_selection([])
    use(window, "select")
    drag(window, [(6.2, 6.0), (3.0, 6.1), (1.15, 6.1)])
    assert window.doc.arena.checkpoints[0].shape.center == (1.0, 6.0)
    window.doc.push(C.SetProperty(window.doc, "A", "shape.center.x", 10.2 - 4.0))  # 6.199999999999999
    drag(window, [(6.2, 6.0), (5.6, 6.1), (5.45, 6.1)])
    assert window.doc.arena.checkpoints[0].shape.center == (5.5, 6.0)  # exactly: no float noise
    # a polygon wall: its vertex nearest to where it was grabbed lands on a grid point
    wall = dataclasses.replace(window.doc.arena.walls[0], id="W9",
                               shape=Polygon(((2.2, -2.3), (4.2, -2.3), (3.2, -0.3))))
    window.doc.push(C.AddElement(window.doc, wall))
    drag(window, [(4.0, -2.1), (5.0, -3.0), (5.1, -3.4)])
    moved = next(w for w in window.doc.arena.walls if w.id == "W9").shape.points
    assert moved[1] == (5.5, -3.5) and moved[0] == (3.5, -3.5)


def test_edges_only_win_when_nearer_than_the_grid_point(window) -> None:  # type: ignore[no-untyped-def]
    """M is a circle of radius 1 at the origin. (0.55, 0.95) is 2 px from its outline but
    nearer to the grid point (0.5, 1): the grid wins. Zoomed out (5 px per length) a click
    well inside the old 7-pixel reach of the outline still lands on the grid."""
    assert window.doc.arena.checkpoints[1].shape == Circle((0.0, 0.0), 1.0)
    use(window, "target")
    click(window, 0.55, 0.95)
    assert window.doc.arena.static_targets[-1].position == (0.5, 1.0)
    click(window, -3.4, 0.8)  # W1's right edge (x = -3.5) is nearer than any grid point
    assert window.doc.arena.static_targets[-1].position == (-3.5, 0.8)
    window.view.set_scale(5.0)
    click(window, 1.9, 0.1)
    assert window.doc.arena.static_targets[-1].position == (2.0, 0.0)


def test_the_snap_target_is_highlighted(window) -> None:  # type: ignore[no-untyped-def]
    use(window, "wall", "polygon")
    port = window.view.viewport()
    QTest.mouseMove(port, vp(window, 3.1, -3.1))  # (a move to where the cursor already is sends nothing)
    QTest.mouseMove(port, vp(window, -3.47, 1.53))  # near W1's top-right corner
    marker = window.scene.snap_marker
    assert marker.isVisible() and marker.hit is not None
    assert (marker.hit.kind, marker.hit.ref, marker.hit.point) == ("vertex", "W1", (-3.5, 1.5))
    QTest.mouseMove(port, vp(window, 2.3, -6.2))  # open floor: the grid, nothing highlighted
    assert marker.hit is None
    QTest.mouseMove(port, vp(window, -3.47, 1.53))
    assert marker.hit is not None
    use(window, "select")  # the select tool does not place points: no highlight
    assert marker.hit is None


def test_a_click_does_not_move_an_element_onto_the_grid(window) -> None:  # type: ignore[no-untyped-def]
    """Selecting start 1 off the grid (a click, or a press with a hand's tremor) leaves it where
    it is: only a drag moves, and then it lands on a grid point."""
    window.doc.push(C.SetProperty(window.doc, "start:1", "position.x", -7.7942))
    window.doc.set_selection([])
    use(window, "select")
    click(window, -7.7942, -7.0)
    assert window.doc.selection == ["start:1"] and window.doc.arena.start_positions[0].position == (-7.7942, -7.0)
    drag(window, [(-7.7942, -7.0), (-7.75, -7.02)])  # 1 px: still a click
    assert window.doc.arena.start_positions[0].position == (-7.7942, -7.0)
    n = window.doc.undo_stack.count()
    drag(window, [(-7.7942, -7.0), (-6.0, -6.9), (-5.9, -7.1)])
    assert window.doc.arena.start_positions[0].position == (-6.0, -7.0)
    assert window.doc.undo_stack.count() == n + 1


@dataclasses.dataclass(frozen=True)
class Rail:
    """A third-party game's segment kind (placement ``segment``): its own class, not Gravstrike's gate."""

    id: str
    start: tuple[float, float]
    end: tuple[float, float]


class RailBoard:
    """An arena of that game with no outline (so nothing but the rail to snap to)."""

    system = "rails"

    def elements(self) -> tuple[object, ...]:
        return (Rail("R1", (0.0, 0.0), (4.0, 0.0)),)


def test_a_segment_of_any_game_snaps_by_its_ends_and_its_line() -> None:
    """Snapping asks an element's role by its fields (issue 37: no Gravstrike class in shared code):
    a segment's ``start``/``end`` are vertices and the line between them an edge."""
    from editor import snapping

    rail = RailBoard().elements()[0]
    assert snapping.geometry(rail) == ([(0.0, 0.0), (4.0, 0.0)], [((0.0, 0.0), (4.0, 0.0))], [])
    hit = snapping.nearest_target(RailBoard(), (3.9, 0.1), 0.2)  # type: ignore[arg-type]
    assert hit is not None and (hit.kind, hit.point, hit.ref) == ("vertex", (4.0, 0.0), "R1")
    hit = snapping.nearest_target(RailBoard(), (2.0, 0.1), 0.2)  # type: ignore[arg-type]
    assert hit is not None and (hit.kind, hit.point) == ("edge", (2.0, 0.0))
    assert snapping.segment_ends(rail) == ((0.0, 0.0), (4.0, 0.0))


def test_the_measure_tool_and_the_turn_handle_ask_the_game() -> None:
    """Gravstrike's turbine gives the turns at top speed and turns its starts 1.1 lengths out;
    a game with no answer (Car Wars) measures the length alone and turns a car by its facing."""
    from editor.game import editor_game
    from schema.ruleset import ruleset

    grav, cw = ruleset("gravstrike").default_arena(), ruleset("car-wars-6e").default_arena()
    assert editor_game("gravstrike").measure_turns(grav, 12.0) == (2.0, "2.00 turns at speed 6")
    assert editor_game("car-wars-6e").measure_turns(cw, 12.0) is None
    start = cw.start_positions[0]
    centre, facing, r = editor_game("car-wars-6e").turn_handle(cw, start)
    assert centre == start.position and facing == start.facing and r == pytest.approx(cw.vehicle.length * 0.9)
    assert editor_game("car-wars-6e").turn_handle(cw, RailBoard().elements()[0]) is None  # no facing: no handle
