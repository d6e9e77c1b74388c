"""The Car Wars overlays (issue 13: "Heat map, path and line-of-sight overlays as for
Gravstrike"): computed off the UI thread with the Car Wars engine, drawn on the canvas, agreeing
with the engine's own answers, recomputed after an edit (a newer edit cancels), and offered by
View → Overlays for a Car Wars arena."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely import affinity
from PySide6.QtGui import QImage, QPainter

from editor.games import overlay_work as W
from engine.carwars.motion import Pose, car_rectangle
from engine.carwars.planner import Planner
from engine.carwars.reach import reach
from engine.carwars.sight import Car, Point, line_of_sight
from engine.carwars.travel import Goal, StartSource
from tests.editor.conftest import open_shipped

ROOT = Path(__file__).resolve().parents[2]
FOUR = ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml"
WAIT_MS = 300_000


@pytest.fixture
def cwin(window):  # type: ignore[no-untyped-def]
    """The window with the shipped four-player Car Wars arena (symmetry mode off)."""
    return open_shipped(window, FOUR, 12.0)


def scene_image(win) -> QImage:  # type: ignore[no-untyped-def]
    img = QImage(480, 480, QImage.Format.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    win.scene.render(p)
    p.end()
    return img


def idle(cw) -> bool:  # type: ignore[no-untyped-def]
    return not cw.busy()


def card_polygon(card):  # type: ignore[no-untyped-def]
    w, h = card.size
    box = shapely.box(-w / 2, -h / 2, w / 2, h / 2)
    return affinity.translate(affinity.rotate(box, card.rotation, origin=(0, 0)), *card.position)


def test_menu_offers_the_overlays_for_car_wars_only(cwin) -> None:  # type: ignore[no-untyped-def]
    ov, cw = cwin.overlays, cwin.overlays.parts["car-wars-6e"]
    assert cw.active()
    assert [a.text() for a in ov.heat_menu.actions()] == ["None", "Start 1", "Start 2", "Start 3", "Start 4"]
    assert [a.text() for a in ov.sight_menu.actions()][:2] == ["None", "Selected start"]
    for menu in (cw.path_menu, cw.policy_menu):
        assert menu.menuAction().isVisible() and menu.menuAction().isEnabled()
        assert menu.menuAction() in ov.menu.actions()
    starts = [a.menu() for a in cw.path_menu.actions() if a.menu() is not None]
    assert [m.title() for m in starts] == ["Start 1", "Start 2", "Start 3", "Start 4"]
    assert [a.text() for a in starts[0].actions()] == [
        "to card 0 (checkpoint-1)", "to card 1 (checkpoint-2)", "to card 2 (checkpoint-3)", "to card 3 (checkpoint-4)",
        "to the centre"]
    assert [a.data() for a in cw.policy_group.actions()] == ["flat-out", "safe"]
    # choosing the heat map from the shared menu runs the Car Wars one, not "not available"
    next(a for a in ov.heat_menu.actions() if a.text() == "Start 2").trigger()
    assert cw.heat_player == 2 and "heat" in cw.jobs
    assert "not available" not in cwin.statusBar().currentMessage()
    # Gravstrike again: the Car Wars entries go, its own overlays are back
    cwin.new_document(False)
    assert not cw.active() and not cw.path_menu.menuAction().isVisible()
    assert not cw.jobs and not cw.heat.isVisible() and not cw.legend.isVisible()


def test_heat_map_is_the_engines_reach_map_and_agrees_with_the_planner(cwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    ov, cw = cwin.overlays, cwin.overlays.parts["car-wars-6e"]
    cw.set_policy("safe")
    before = scene_image(cwin)
    ov.show_heat(1)
    assert not cw.heat.isVisible() and "Computing Heat map from start 1 (safe)" in cw.legend.text()
    qtbot.waitUntil(lambda: cw.heat.isVisible(), timeout=WAIT_MS)
    arena = cwin.doc.arena
    m = cw.heat.reach
    engine = reach(arena, StartSource(1), limit=W.HORIZON, policy="safe", cell=W.CELL)
    assert np.array_equal(m.times, engine.times) and (m.x0, m.y0, m.cell) == (engine.x0, engine.y0, engine.cell)
    assert m.at(*arena.start_positions[0].position) == 0.0
    planner = Planner(arena, "safe")
    for goal in (Goal("card", "checkpoint-3"), Goal("centre")):
        r = planner.plan(StartSource(1), goal)
        last = r.path[-1]
        # where the plan's car ends: within one movement point of the plan's time
        assert abs(m.at(last.x, last.y) - r.time) <= 1.0 / last.speed + 1e-9
        if goal.kind == "card":
            card = arena.card(goal.id)
            # a car whose centre ends in the card's centre cell touches the card: never sooner
            # than the plan, and within the grid's resolution of it
            assert r.time - 1e-9 <= m.at(*card.position) <= r.time + 0.5
    assert "0–0.5 turns" in cw.legend.text() and "Heat map from start 1 (safe)" in cw.legend.text()
    assert cw.heat.zValue() < 0  # under the elements
    assert scene_image(cwin) != before
    ov.show_heat(None)
    assert not cw.heat.isVisible() and cw.heat.reach is None and not cw.legend.isVisible()


def test_path_is_the_planners_plan_and_ends_touching_the_card(cwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    cw = cwin.overlays.parts["car-wars-6e"]
    arena = cwin.doc.arena
    before = scene_image(cwin)
    choice = next(a for a in cw.path_group.actions() if a.data() == [1, "card:checkpoint-3"])
    choice.trigger()
    qtbot.waitUntil(lambda: cw.path.isVisible(), timeout=WAIT_MS)
    plan = cw.path.plan
    r = Planner(arena, "flat-out").plan(StartSource(1), Goal("card", "checkpoint-3"))
    assert plan.policy == "flat-out" and (plan.time, plan.turns, plan.dice) == (r.time, r.turns, r.dice)
    assert [(s["x"], s["y"], s["heading"], s["turn"]) for s in plan.steps] == [(s.x, s.y, s.heading, s.turn) for s in r.path]
    last = plan.moves()[-1]
    car = car_rectangle(Pose(last["x"], last["y"], last["heading"]), arena.vehicle)
    assert car.intersects(card_polygon(arena.card("checkpoint-3")))
    before_last = plan.moves()[-2]
    assert not car_rectangle(Pose(before_last["x"], before_last["y"], before_last["heading"]),
                             arena.vehicle).intersects(card_polygon(arena.card("checkpoint-3")))
    assert f"{r.time:g} turns, {r.dice} dice" in cw.legend.text()
    assert scene_image(cwin) != before
    # the policy is selectable: safe plans again, with no maneuver dice
    cw.set_policy("safe")
    qtbot.waitUntil(lambda: cw.path.plan is not None and cw.path.plan.policy == "safe" and not cw.jobs, timeout=WAIT_MS)
    safe = Planner(arena, "safe").plan(StartSource(1), Goal("card", "checkpoint-3"))
    assert (cw.path.plan.time, cw.path.plan.dice) == (safe.time, safe.dice)
    assert all(s["maneuver"] in ("speed", "straight") or s["maneuver"].startswith("slight") for s in cw.path.plan.steps)


def test_line_of_sight_full_cover_blocks_partial_counts(cwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    ov, cw = cwin.overlays, cwin.overlays.parts["car-wars-6e"]
    arena = cwin.doc.arena
    ov.show_sight("selected")
    assert "Line of sight: select a start" in cw.legend.text()
    cwin.doc.set_selection(["start:1"])
    qtbot.waitUntil(lambda: cw.sight.isVisible(), timeout=WAIT_MS)
    grid = cw.sight.grid
    assert grid.player == 1
    start = arena.start_positions[0]
    eye = np.array(start.position)
    viewer = Car(Pose(start.position[0], start.position[1], start.facing))
    # straight behind the full-cover barrier across the far corner, seen from start 1: blocked
    wall = next(w for w in arena.walls if w.id == "barrier-NW")
    c = np.array(wall.shape.center)
    behind = c + (c - eye) / np.linalg.norm(c - eye) * 4.0
    assert grid.at(*behind) == W.BLOCKED
    assert not line_of_sight(arena, viewer, Point(*behind)).visible
    # straight behind the partial-cover tyre stack: seen, through cover
    tires = next(o for o in arena.obstacles if o.id == "tires-N")
    t = np.array(tires.shape.center)
    past = t + (t - eye) / np.linalg.norm(t - eye) * 1.6
    assert grid.at(*past) == W.COVER
    assert "tires-N" in line_of_sight(arena, viewer, Point(*past)).partial
    # the centre is in plain view
    assert grid.at(0.0, 0.0) == W.CLEAR
    # every square agrees with the engine (other starting cars count as partial cover)
    assert set(np.unique(grid.classes)) == {W.NOT_A_PLACE, W.BLOCKED, W.COVER, W.CLEAR}
    assert W.BLOCKED in grid.regions and W.COVER in grid.regions and W.CLEAR in grid.regions
    assert "blocked by full cover" in cw.legend.text()
    # following the selection
    cwin.doc.set_selection(["start:3"])
    qtbot.waitUntil(lambda: cw.sight.grid is not None and cw.sight.grid.player == 3 and not cw.jobs, timeout=WAIT_MS)
    assert "Line of sight from start 3" in cw.legend.text()
    assert math.isclose(cw.sight.zValue(), -4.0)


def test_an_edit_recomputes_and_a_newer_edit_cancels(cwin, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.games.commands import SetField

    ov, cw = cwin.overlays, cwin.overlays.parts["car-wars-6e"]
    cw.set_policy("safe")
    ov.show_heat(1)
    cw.show_path((1, "centre"))
    qtbot.waitUntil(lambda: cw.heat.isVisible() and cw.path.isVisible() and not cw.busy(), timeout=WAIT_MS)
    old = cw.heat.reach
    # a wall across start 1's road to the centre
    cwin.doc.push(SetField(cwin.doc, "barrier-SE", ("shape", "center"), [0, -10]))
    cwin.doc.push(SetField(cwin.doc, "barrier-SE", ("shape", "rotation"), 0))
    assert cw.busy()
    first = dict(cw.generation)
    cwin.doc.push(SetField(cwin.doc, "barrier-SE", ("shape", "center"), [0, -9]))  # a newer edit
    assert cw.heat.reach is old  # the old picture stays until the new one arrives
    qtbot.waitUntil(lambda: not cw.busy() and cw.shown["heat"] is not None and cw.shown["heat"][0] is cwin.doc.arena
                    and cw.shown["path"][0] is cwin.doc.arena, timeout=WAIT_MS)
    assert cw.generation["heat"] > first["heat"]
    arena = cwin.doc.arena
    assert next(w for w in arena.walls if w.id == "barrier-SE").shape.center == (0, -9)
    new = reach(arena, StartSource(1), limit=W.HORIZON, policy="safe", cell=W.CELL)
    assert np.array_equal(cw.heat.reach.times, new.times) and not np.array_equal(old.times, new.times)
    r = Planner(arena, "safe").plan(StartSource(1), Goal("centre"))
    assert cw.path.plan.time == r.time and r.time > 1.5  # the detour round the new wall
    assert "Computing" not in cw.legend.text()


def test_heat_display_fills_single_gaps_only() -> None:
    inf = math.inf
    t = np.array([[1.0, 1.0, 1.0], [1.0, inf, 2.0], [inf, inf, inf]])
    shown = W.display_times(t)
    assert shown[1, 1] == 1.0  # a hole among reached cells takes its earliest neighbour
    assert shown[0, 0] == 1.0 and shown[1, 2] == 2.0  # reached cells keep their time
    assert not np.isfinite(shown[2, 0])  # one reached neighbour (and the hole): left uncoloured
    assert not np.isfinite(W.display_times(np.array([[inf, inf], [inf, 1.0]]))[0, 0])  # one neighbour: no
    assert W.heat_colour(0.5) == W.HEAT_BANDS[0][1] and W.heat_colour(3.01) is None and W.heat_colour(inf) is None
