"""The Car Wars travel-time dock, paths of travel findings and heat maps from a card (issue 13:
"Heat map, path and line-of-sight overlays as for Gravstrike"): every start's fewest turns and
dice to each checkpoint, the centre and the other starts under both policies, agreeing with the
engine's planner and fairness table, updated after an edit in the background; a selected row
or a clicked travel finding draws its plan; the heat map can be from a card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from editor.games import overlay_work as W
from editor.games.carwars import travel_work as T
from editor.games.commands import SetField
from engine.carwars import fairness
from engine.carwars.issues import fmt
from engine.carwars.planner import Planner
from engine.carwars.reach import reach_from_card
from engine.carwars.symmetry import symmetries
from engine.carwars.travel import Goal, StartSource, TravelResult
from tests.editor.test_carwars_overlays import scene_image

ROOT = Path(__file__).resolve().parents[2]
ARENAS = ROOT / "arenas" / "car-wars"
WAIT_MS = 300_000


def open_arena(win, name: str):  # type: ignore[no-untyped-def]
    assert win.open_path(str(ARENAS / name), ask=False)
    win.doc.symmetry_enabled = False
    win.view.set_scale(12.0)
    win.view.centerOn(0, 0)
    return win.overlays.pages["car-wars-6e"]


def show_dock(win, qtbot):  # type: ignore[no-untyped-def]
    dock = win.docks["travel"]
    dock.show()
    dock.raise_()
    qtbot.waitUntil(lambda: win.overlays.pages["car-wars-6e"].page.isVisible(), timeout=120_000)


def settled(d) -> bool:  # type: ignore[no-untyped-def]
    arena = d.win.doc.arena
    return not d.busy() and all(d.fresh(s.player) is not None for s in arena.start_positions)


def engine_rows(arena) -> dict[tuple[str, int, str], TravelResult]:  # type: ignore[no-untyped-def]
    out = {}
    for policy in T.POLICIES:
        planner = Planner(arena, policy)
        for s in arena.start_positions:
            goals = [Goal.parse(g) for g in T.dock_goals(arena, s.player)]
            for g, r in planner.plan_many(StartSource(s.player), goals).items():
                out[(policy, s.player, g.ref)] = r
    return out


def test_dock_rows_are_every_start_and_goal_with_the_planners_turns_and_dice(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    d = open_arena(window, "twin-pillars-2p.yaml")
    assert window.docks["travel"].widget().currentWidget() is d.page  # the dock's Car Wars page
    show_dock(window, qtbot)
    assert "Computing travel times in the background" in d.status.text()
    qtbot.waitUntil(lambda: settled(d), timeout=WAIT_MS)
    arena = window.doc.arena
    checkpoints = sorted((c for c in arena.cards if c.role == "checkpoint"), key=lambda c: c.number)
    assert d.rows == [(p, g) for p in (1, 2) for g in [f"card:{c.id}" for c in checkpoints] + ["centre", f"start:{3 - p}"]]
    assert d.table.rowCount() == len(d.rows) == 2 * (len(checkpoints) + 2)
    want = engine_rows(arena)
    for (policy, player, goal), r in want.items():
        assert r.status == "reached"
        assert d.value(player, goal, policy) == (fmt(r.time), str(r.dice)), (policy, player, goal)
    # the same numbers as the fairness checks' travel table, where it asks the same question
    table = fairness.travel_table(arena)
    for policy, rows in table.results.items():
        for sid, row in rows.items():
            for goal, r in row.items():
                if (policy, int(sid[6:]), goal) in want:
                    assert d.value(int(sid[6:]), goal, policy) == (fmt(r.time), str(r.dice))
    assert "best start per goal bold" in d.status.text()
    # best start per goal bold, worst red: own-1 is nearer start 2 (the pillars' mirror image)
    for goal in {g for _, g in d.rows if not g.startswith("start:")}:
        for policy, c in (("safe", 2), ("flat-out", 4)):
            times = {p: want[(policy, p, goal)].time for p in (1, 2)}
            for p in (1, 2):
                item = d.table.item(d.rows.index((p, goal)), c)
                differ = times[1] != times[2]
                assert item.font().bold() == (differ and times[p] == min(times.values())), (goal, policy, p)
                assert (item.data(0x0100) == "worst") == (differ and times[p] == max(times.values()))
    assert d.table.item(d.rows.index((1, "card:own-2")), 4).font().bold()


def test_unreachable_and_failed_answers_are_written_as_such(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    d = open_arena(window, "broken-yard-flawed.yaml")
    show_dock(window, qtbot)
    qtbot.waitUntil(lambda: settled(d), timeout=WAIT_MS)
    for player in (1, 2):
        for policy in T.POLICIES:
            assert d.value(player, "card:lost", policy) == ("unreachable", "—")
    i = d.rows.index((1, "card:lost"))
    assert "no plan reaches it without a collision" in d.table.item(i, 4).toolTip()
    # best bold, worst red, per goal: start 2 is the nearer to the centre, start 1 the farther
    want = engine_rows(window.doc.arena)
    near, far = sorted((1, 2), key=lambda p: want[("flat-out", p, "centre")].time)
    assert d.table.item(d.rows.index((near, "centre")), 4).font().bold()
    assert d.table.item(d.rows.index((far, "centre")), 4).data(0x0100) == "worst"
    # beyond the horizon and undecided, as the planner says them
    beyond = TravelResult(Goal("centre"), "beyond", horizon=8.0)
    undecided = TravelResult(Goal("centre"), "undecided", horizon=3.5, undecided="states")
    assert (T.turns_text(beyond), T.dice_text(beyond)) == ("beyond 8", "—")
    assert (T.turns_text(undecided), T.dice_text(undecided)) == ("undecided", "—")
    assert "states" in T.status_note(undecided) and "8 turns" in T.status_note(beyond)


def test_a_horizon_too_short_shows_beyond(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The scenario's horizon (``max_turns``) bounds every search: a goal further away is
    "beyond", not a number."""
    from editor.games.settings import SetArenaField

    d = open_arena(window, "twin-pillars-2p.yaml")
    window.doc.push(SetArenaField(window.doc, ("scenario", "analysis", "max_turns"), 1))
    show_dock(window, qtbot)
    qtbot.waitUntil(lambda: settled(d), timeout=WAIT_MS)
    arena = window.doc.arena
    assert arena.scenario.analysis.max_turns == 1
    r = Planner(arena, "safe").plan(StartSource(1), Goal.parse("start:2"))
    assert r.status == "beyond"
    assert d.value(1, "start:2", "safe") == ("beyond 1", "—")


def test_selecting_a_row_draws_its_plan_by_the_column_clicked(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    d = open_arena(window, "crossroads-4p.yaml")
    cw = window.overlays.parts["car-wars-6e"]
    show_dock(window, qtbot)
    qtbot.waitUntil(lambda: settled(d), timeout=WAIT_MS)
    arena = window.doc.arena
    before = scene_image(window)
    i = d.rows.index((1, "card:checkpoint-3"))
    d.table.setCurrentCell(i, 2)  # Safe: turns
    assert cw.path.isVisible() and cw.path.plan is not None
    safe = Planner(arena, "safe").plan(StartSource(1), Goal("card", "checkpoint-3"))
    plan = cw.path.plan
    assert (plan.player, plan.goal, plan.policy, plan.time, plan.dice) == (1, "card:checkpoint-3", "safe", safe.time, safe.dice)
    # the dock's answer to checkpoint-3 is start 3's to checkpoint-1 carried by the half turn
    # (kept.card_plan): that plan's path turned half round
    half = next(t for t in symmetries(arena) if t.angle == 180.0 and not t.mirror)
    rep = Planner(arena, "safe").plan(StartSource(3), Goal("card", "checkpoint-1"))
    image = [v for s in rep.path for v in (*half.point(s.x, s.y), half.heading(s.heading))]
    assert [v for s in plan.steps for v in (s["x"], s["y"], s["heading"])] == pytest.approx(image, abs=1e-9)
    assert "Path from start 1 to card 2 (checkpoint-3) (safe)" in cw.legend.text()
    assert scene_image(window) != before
    d.table.setCurrentCell(i, 5)  # Flat out: dice
    fast = Planner(arena, "flat-out").plan(StartSource(1), Goal("card", "checkpoint-3"))
    assert (cw.path.plan.policy, cw.path.plan.time, cw.path.plan.dice) == ("flat-out", fast.time, fast.dice)
    # a start as the goal
    j = d.rows.index((2, "start:4"))
    d.table.setCurrentCell(j, 4)
    r = Planner(arena, "flat-out").plan(StartSource(2), Goal.parse("start:4"))
    assert (cw.path.plan.goal, cw.path.plan.time) == ("start:4", r.time)
    assert "Path from start 2 to start 4 (flat-out)" in cw.legend.text()
    # nothing selected: no path
    d.table.clearSelection()
    d.table.setCurrentCell(-1, -1)
    assert not cw.path.isVisible() and cw.pinned is None


def test_an_edit_updates_the_dock_and_the_selected_path(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    d = open_arena(window, "twin-pillars-2p.yaml")
    cw = window.overlays.parts["car-wars-6e"]
    show_dock(window, qtbot)
    qtbot.waitUntil(lambda: settled(d), timeout=WAIT_MS)
    card = sorted(window.doc.arena.cards, key=lambda c: c.number)[0]
    i = d.rows.index((1, f"card:{card.id}"))
    d.table.setCurrentCell(i, 4)
    old = cw.path.plan
    assert old is not None
    x, y = card.position
    window.doc.push(SetField(window.doc, card.id, ("position",), [x * 0.5, y * 0.5]))
    assert d.busy() and "Updating travel times" in d.status.text()
    assert d.table.item(i, 4).foreground().color().name() == "#8a8a8a"  # the old numbers, greyed
    assert not cw.path.isVisible()  # the old arena's plan is gone at once
    qtbot.waitUntil(lambda: settled(d) and cw.path.isVisible(), timeout=WAIT_MS)
    arena = window.doc.arena
    r = Planner(arena, "flat-out").plan(StartSource(1), Goal("card", card.id))
    assert d.value(1, f"card:{card.id}", "flat-out") == (fmt(r.time), str(r.dice))
    assert cw.path.plan.time == r.time and cw.path.plan.steps != old.steps
    assert d.table.currentRow() == i  # the selection stays on its row


def flawed_findings(arena) -> list[dict]:  # type: ignore[no-untyped-def]
    from editor.games.carwars.analysis import _finding

    table = fairness.travel_table(arena)
    return [_finding(i) for code, check in fairness.TRAVEL_CHECKS.items() for i in check(arena, table)]


@pytest.mark.parametrize("dock_shown", [False, True])
def test_clicking_a_travel_finding_draws_its_path(window, qtbot, dock_shown: bool) -> None:  # type: ignore[no-untyped-def]
    d = open_arena(window, "broken-yard-flawed.yaml")
    cw = window.overlays.parts["car-wars-6e"]
    if dock_shown:
        show_dock(window, qtbot)
        qtbot.waitUntil(lambda: settled(d), timeout=WAIT_MS)
    arena = window.doc.arena
    found = flawed_findings(arena)
    centre = next(f for f in found if f["code"] == "cw-centre-access" and "(flat-out)" in f["message"]
                  and "needs" in f["message"])
    window.validation.findingSelected.emit(centre)
    if not dock_shown:
        assert "Computing Path from start 1 to the centre (flat-out)" in cw.legend.text()
    qtbot.waitUntil(lambda: cw.path.isVisible(), timeout=WAIT_MS)
    worse = int(centre["elements"][0][6:])
    r = Planner(arena, "flat-out").plan(StartSource(worse), Goal("centre"))
    assert (cw.path.plan.player, cw.path.plan.goal, cw.path.plan.time, cw.path.plan.dice) == (worse, "centre", r.time, r.dice)
    # the nearest checkpoint of the worse start, under the finding's policy
    access = next(f for f in found if f["code"] == "cw-start-access" and "nearest checkpoint" in f["message"]
                  and "(safe)" in f["message"])
    window.validation.findingSelected.emit(access)
    qtbot.waitUntil(lambda: cw.path.plan is not None and cw.path.plan.policy == "safe" and not d.busy(), timeout=WAIT_MS)
    who = int(access["elements"][0][6:])
    metrics = fairness.start_metrics(arena, fairness.travel_table(arena))[f"start:{who}"]["safe"]
    assert (cw.path.plan.player, cw.path.plan.goal, cw.path.plan.time) == (who, metrics["nearest"], metrics["nearest_time"])
    # an unreachable card: nothing to draw, the key says why
    lost = next(f for f in found if f["code"] == "cw-card-reach")
    window.validation.findingSelected.emit(lost)
    qtbot.waitUntil(lambda: cw.path.plan is not None and cw.path.plan.status == "unreachable" and not d.busy(),
                    timeout=WAIT_MS)
    assert "unreachable (no plan without a collision)" in cw.legend.text()
    # another kind of finding leaves the path alone
    window.validation.findingSelected.emit({"code": "cw-wall-gap", "severity": "error", "message": "", "elements": []})
    assert cw.path.plan.status == "unreachable"


def test_heat_map_from_a_card(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    open_arena(window, "crossroads-4p.yaml")
    ov, cw = window.overlays, window.overlays.parts["car-wars-6e"]
    cw.set_policy("safe")
    assert [a.text() for a in cw.card_heat_menu.actions()][:3] == ["None", "Selected card", "Card 0 (checkpoint-1)"]
    ov.show_heat(2)
    next(a for a in cw.card_heat_menu.actions() if a.data() == "checkpoint-1").trigger()
    assert cw.heat_player is None and ov.heat_player is None  # a card replaces the start
    assert next(a for a in ov.heat_group.actions() if a.isChecked()).data() is None
    assert "Computing Heat map from card 0 (checkpoint-1) (safe)" in cw.legend.text()
    qtbot.waitUntil(lambda: cw.heat.isVisible() and not cw.busy(), timeout=WAIT_MS)
    arena = window.doc.arena
    m = reach_from_card(arena, "checkpoint-1", limit=W.HORIZON, policy="safe", cell=W.CELL)
    assert np.array_equal(cw.heat.reach.times, m.times)
    assert cw.heat.reach.at(*arena.card("checkpoint-1").position) == 0.0
    # the selected card: follows the selection
    cw.show_heat_card("selected")
    assert "Heat map: select a card" in cw.legend.text()
    window.doc.set_selection(["checkpoint-3"])
    qtbot.waitUntil(lambda: cw.shown["heat"] is not None and cw.shown["heat"][1][0] == "card:checkpoint-3"
                    and not cw.busy(), timeout=WAIT_MS)
    assert cw.heat.reach.at(*arena.card("checkpoint-3").position) == 0.0
    assert "Heat map from card 2 (checkpoint-3) (safe)" in cw.legend.text()
    # a start again: the card is off
    ov.show_heat(1)
    assert cw.heat_card is None and cw.heat_player == 1
    assert next(a for a in cw.card_heat_group.actions() if a.isChecked()).data() is None


def test_gravstrike_keeps_its_own_travel_table(window) -> None:  # type: ignore[no-untyped-def]
    stack = window.docks["travel"].widget()
    assert stack.currentWidget() is window.overlays.table
    d = open_arena(window, "twin-pillars-2p.yaml")
    assert stack.currentWidget() is d.page
    window.new_document(False)
    assert stack.currentWidget() is window.overlays.table and not d.busy()


def test_the_dock_searches_only_while_shown(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Without the live validation's answers (as after its cold table: a goal not reached) the
    dock searches itself, only while it is shown."""
    d = open_arena(window, "twin-pillars-2p.yaml")
    window.docks["travel"].hide()
    window.doc.push(SetField(window.doc, "start:1", ("facing",), 80))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=WAIT_MS)
    qtbot.wait(2 * 200 + 100)  # past the edit delay
    assert not d.jobs and not d.busy() and d.answers == {}
    live = d._live()
    assert live is not None and live.last_rows is not None and live.last_rows[0] is window.doc.arena
    live.last_rows = None
    show_dock(window, qtbot)
    assert set(d.jobs) == {"start:1", "start:2"}
    running = list(d.jobs.values())
    window.docks["travel"].hide()  # hidden: the searches stop
    assert not d.jobs and all(job.cancelled.is_set() for job in running)


def test_the_dock_shows_the_live_validations_answers_without_searching(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The live validation's kept searches answer every start to every card, the centre and
    every other start under both policies: the dock shows their answers (the planner's turns
    and dice) and starts no search of its own, after opening and after a card is dragged."""
    d = open_arena(window, "twin-pillars-2p.yaml")
    started: list[object] = []
    d.pool.start = started.append  # type: ignore[method-assign]  # a search of the dock's own
    show_dock(window, qtbot)
    for step in range(2):
        qtbot.waitUntil(lambda: settled(d), timeout=WAIT_MS)
        arena = window.doc.arena
        assert started == [] and d._live().last_rows[0] is arena
        for (policy, player, goal), r in engine_rows(arena).items():
            assert r.status == "reached"
            assert d.value(player, goal, policy) == (fmt(r.time), str(r.dice)), (step, policy, player, goal)
        if step == 0:
            card = sorted(arena.cards, key=lambda c: c.number)[0]
            x, y = card.position
            window.doc.push(SetField(window.doc, card.id, ("position",), [x * 0.5, y * 0.5]))
            assert d.table.item(0, 4).foreground().color().name() == "#8a8a8a"  # greyed until answered
