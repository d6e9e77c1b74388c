"""Analysis → Simulate play… and the Simulated play dock (issue 40 point 5): the run off the GUI
thread with the runner's own figures, the bars and whiskers of the chart, the findings selecting
their start, stepping a recorded game on the canvas, Cancel leaving a partial result that says
so, and no undo entry from any of it.  Bounded in games: a handful of games of the shipped
Glider-Pit hexagonal pit (the fastest engine) and of the Car Wars crossroads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt

from editor.simulate_canvas import PieceMark, start_colour
from editor.simulate_play import Request, SimulateDialog
from tests.editor.conftest import open_shipped
from validators.simulate import engine_of, simulate

ROOT = Path(__file__).resolve().parents[2]
PIT = ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml"
CROSSROADS = ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml"
SQUARE_REX = ROOT / "arenas" / "arena-rex" / "square-24.yaml"


def run(window: Any, qtbot: Any, request: Request, workers: int = 1) -> Any:
    """Start a run of ``request`` from the window and wait for its result."""
    sim = window.simulation
    sim.run.workers = workers
    with qtbot.waitSignal(sim.run.finished, timeout=300_000) as got:
        assert sim.start(request)
    return got.args[0]


def test_the_action_follows_the_game_and_the_dialog_offers_its_counts_and_policies(window) -> None:  # type: ignore[no-untyped-def]
    act = window.act["simulate"]
    assert act.text() == "&Simulate play…" and act in window.menus["analysis"].actions()
    assert act.isEnabled()  # the window's first arena's game plays games out
    open_shipped(window, SQUARE_REX, 10.0)  # a game without a play engine yet
    assert not act.isEnabled()
    open_shipped(window, CROSSROADS, 10.0)
    assert act.isEnabled()
    arena = window.doc.arena
    engine = engine_of(arena)
    dialog = SimulateDialog(arena, engine, None, Request(), window)
    policies = [dialog.policy.itemData(i) for i in range(dialog.policy.count())]
    assert policies == [*engine.policies, ",".join(engine.policies)]
    counts = [dialog.players.itemData(i) for i in range(dialog.players.count())]
    from editor.start_sets import declared

    assert counts == [None, *declared(arena)]
    assert dialog.request() == Request(100, 0, None, engine.policies[0])
    dialog.games.setValue(7)
    dialog.seed.setValue(9)
    assert dialog.request().games == 7 and dialog.request().seed == 9


def test_the_dock_shows_the_runners_figures_as_bars_with_whiskers_and_the_fair_share(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    open_shipped(window, PIT, 12.0)
    undo = window.doc.undo_stack.count()
    seen: list[tuple[int, int]] = []
    window.simulation.run.progress.connect(lambda d, t: seen.append((d, t)))
    result = run(window, qtbot, Request(4, 3))
    arena = window.doc.arena
    # the runner's own JSON for the same games (another chunking, the same figures)
    cli = simulate(arena, 4, 3, workers=1, records=True)
    assert json.dumps(result.document) == json.dumps(cli.document)
    assert result.records == cli.records and len(result.records) == 4
    assert seen[-1] == (4, 4) and window.simulation.dialog is None
    dock = window.simulation.panel
    doc = dock.doc
    chart = dock.chart
    k = doc["players"]
    assert k == 6 and len(chart.bars()) == k
    assert chart.values() == [(s["start"], s["win_rate"], s["ci"][0], s["ci"][1]) for s in doc["starts"]]
    for (start, rect, (y_hi, y_lo)), row in zip(chart.bars(), doc["starts"], strict=True):
        assert start == row["start"]
        assert rect.top() == pytest.approx(chart.y_of(row["win_rate"]))
        assert rect.bottom() == pytest.approx(chart.plot().bottom())
        assert (y_hi, y_lo) == (pytest.approx(chart.y_of(row["ci"][1])), pytest.approx(chart.y_of(row["ci"][0])))
        assert y_hi <= rect.top() + 1e-9 <= y_lo + rect.height() + 1e-9
    assert chart.fair_y() == pytest.approx(chart.y_of(1 / 6, ), abs=0.5)
    # the chart as drawn: each bar's middle in its start's colour, the whisker's top above it in ink
    image = chart.grab().toImage()
    for start, rect, (y_hi, _y_lo) in chart.bars():
        if rect.height() > 6:
            px = image.pixelColor(int(rect.left() + 3), int(rect.bottom() - 3))
            assert px.name() == start_colour(start).name()
    assert "Incomplete" not in dock.summary.text() and "6 players" in dock.summary.text()
    table = dock.objectives
    assert table.rowCount() == len(doc["objectives"]) == 1
    assert [table.item(0, c).text() for c in range(1, k + 1)] == \
        [f"{doc['objectives'][0]['first'][str(s)] * 100:.1f} %" for s in range(1, 7)]
    assert window.doc.undo_stack.count() == undo and not window.doc.dirty


def test_stepping_a_recorded_game_moves_the_markers_to_the_recorded_poses(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    open_shipped(window, CROSSROADS, 8.0)
    undo = window.doc.undo_stack.count()
    result = run(window, qtbot, Request(4, 5))
    dock = window.simulation.panel
    record = result.records[1]
    dock.show_turn(2, 1)
    for number in range(1, len(record["turns"]) + 1):
        turn = record["turns"][number - 1]
        assert dock.turn.value() == number and dock.turn_label.text().startswith(f"turn {number} of {len(record['turns'])} · seed ")
        drawn = dock.replay.markers()
        assert drawn == {p["start"]: (pytest.approx(p["x"]), pytest.approx(p["y"]), p["heading"], p["out"])
                         for p in turn["pieces"]}
        marks = [m for m in dock.replay.childItems() if isinstance(m, PieceMark)]
        assert len(marks) == 4 and all(m.scene() is window.scene for m in marks)
        for m in marks:  # at its recorded place on the canvas
            p = next(p for p in turn["pieces"] if p["start"] == m.start)
            assert (m.scenePos().x(), m.scenePos().y()) == (pytest.approx(p["x"]), pytest.approx(p["y"]))
        for s, v in turn["scores"].items():
            assert f"start {s}: <b>{v:g}</b>" in dock.scores.text()
        assert dock.events.count() == max(1, len(turn["events"]))
        dock.step(1)
    # the marker is drawn where the record puts it: its disc in its start's colour
    dock.show_turn(2, 3)
    window.view.fit_arena()
    qtbot.wait(50)
    image = window.view.viewport().grab().toImage()
    piece = record["turns"][2]["pieces"][0]
    at = window.view.mapFromScene(QPointF(piece["x"], piece["y"]))
    colour = image.pixelColor(at.x() - 4, at.y() + 4)  # inside the disc, off its number
    assert abs(colour.red() - start_colour(piece["start"]).red()) < 40
    assert abs(colour.blue() - start_colour(piece["start"]).blue()) < 40
    # the heat map: a toggle, its cells the run's contacts
    dock.heat_box.setChecked(True)
    assert dock.heat.scene() is window.scene
    assert sum(n for _r, n in dock.heat.cells()) == result.document["contacts"]["total"]
    dock.heat_box.setChecked(False)
    assert dock.heat.scene() is None
    dock.show_replay.setChecked(False)
    assert dock.replay.scene() is None
    assert window.doc.undo_stack.count() == undo and not window.doc.dirty
    # a finding selects its start (and the objective it names) on the canvas
    findings = result.document["findings"]
    # (start 4 wins 3 of these 4 games: a finding 4 games make now and then on a fair arena - the
    # crossroads' starts win equal shares, tests/engine/test_play_fairness.py)
    assert findings, "four games of the crossroads at seed 5: start 4 wins 3"
    item = dock.findings.item(0)
    dock.findings.itemClicked.emit(item)
    assert set(window.doc.selection) == {e for e in findings[0]["elements"]}
    chart = dock.chart
    start, rect, _w = chart.bars()[1]
    from PySide6.QtTest import QTest

    QTest.mouseClick(chart, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert window.doc.selection == [f"start:{start}"]
    assert window.doc.undo_stack.count() == undo


def test_cancel_leaves_the_games_done_so_far_labelled_incomplete(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    open_shipped(window, PIT, 12.0)
    sim = window.simulation
    sim.run.workers = 1
    undo = window.doc.undo_stack.count()
    # the runner's stop, asked before each game: stopped after the second game, on the run's thread
    sim.run._signals.progress.connect(lambda _r, done, _n: sim.run.stop() if done == 2 else None,
                                      Qt.ConnectionType.DirectConnection)
    with qtbot.waitSignal(sim.run.finished, timeout=300_000) as got:
        assert sim.start(Request(30, 5))
    doc = got.args[0].document
    assert doc["complete"] is False and doc["stopped"] == "cancelled" and doc["games_played"] == 2
    whole = simulate(window.doc.arena, 2, 5, workers=1).document
    assert doc["starts"] == whole["starts"] and doc["objectives"] == whole["objectives"]
    dock = sim.panel
    assert dock.summary.text().startswith("<b>Incomplete: 2 of 30 games</b> (cancelled)")
    assert dock.chart.values() == [(s["start"], s["win_rate"], s["ci"][0], s["ci"][1]) for s in whole["starts"]]
    assert dock.game.maximum() == 2  # the two games' records
    # the progress dialog's Cancel is that stop
    sim.run._signals.progress.disconnect()
    sim.run._signals.progress.connect(sim.run._progress)
    with qtbot.waitSignal(sim.run.finished, timeout=300_000) as got:
        assert sim.start(Request(30, 6))
        assert sim.dialog is not None
        from PySide6.QtWidgets import QPushButton

        button = next(b for b in sim.dialog.findChildren(QPushButton) if b.text() == "Cancel")
        button.click()
        assert sim.run._stop.is_set() and sim.dialog is not None and "Cancelling" in sim.dialog.labelText()
    doc = got.args[0].document
    assert doc["complete"] is False and doc["stopped"] == "cancelled" and doc["games_played"] < 30
    assert sim.dialog is None and window.doc.undo_stack.count() == undo


def test_the_window_default_runs_on_worker_processes_with_the_same_figures(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    open_shipped(window, PIT, 12.0)
    result = run(window, qtbot, Request(3, 11), workers=2)
    assert json.dumps(result.document) == json.dumps(simulate(window.doc.arena, 3, 11, workers=1).document)
