"""The validators seam: staged analysis, the killable child process, stale runs dropped."""

from __future__ import annotations

import time

import pytest

from editor import validation as V
from editor.games.gravstrike import live_travel as L
from editor.validation import Cancelled, StagedAnalysis, ValidationRunner, run_isolated

from tests.editor.conftest import make_arena


def _never_finishes(arena):  # type: ignore[no-untyped-def]
    time.sleep(3600)  # longer than any test here, however loaded the machine: only a kill ends it
    return []


def _one_finding(arena):  # type: ignore[no-untyped-def]
    return [{"code": "child", "severity": "info", "message": arena.name, "elements": ["A"]}]


def test_editor_uses_the_validators_when_they_import() -> None:
    assert V.validators_available()
    analysis = L.editor_analysis()
    assert isinstance(analysis, StagedAnalysis)
    # the travel stage runs on persistent workers (editor.games.gravstrike.travel_workers), not a child per run;
    # its findings on the workers' first answers are replaced by those on the exact ones
    assert [isolated for _fn, isolated in analysis.stages()] == [False, False, False]
    assert isinstance(analysis.stages()[1][0], L.LiveTravel)
    assert isinstance(analysis.stages()[2][0], L.ExactTravel) and analysis.stages()[2][0].replaces_previous
    analysis.close()


def test_quick_stage_runs_the_validators_that_need_no_travel() -> None:
    findings = V.quick_findings(make_arena())
    assert {"code", "severity", "message", "elements"} <= set(findings[0])
    assert any(f["code"] == "checkpoint-mix" and f["elements"] == ["A"] for f in findings)


def test_quick_stage_stops_when_stale() -> None:
    with pytest.raises(Cancelled):
        V.quick_findings(make_arena(), should_stop=lambda: True)


def test_child_process_returns_results_and_is_killed_when_stale() -> None:
    assert run_isolated(_one_finding, make_arena(), lambda: False)[0]["message"] == "Test arena"
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(Cancelled):
        run_isolated(_never_finishes, make_arena(), stop)


def test_runner_publishes_partial_results_then_drops_the_stale_slow_stage(qtbot) -> None:  # type: ignore[no-untyped-def]
    analysis = StagedAnalysis(quick=lambda arena: [{"code": "q", "severity": "warning", "message": arena.name,
                                                      "elements": []}], slow=_never_finishes)
    runner = ValidationRunner(analysis)
    with qtbot.waitSignal(runner.finished, timeout=60_000) as first:
        runner.run_now(make_arena())
    assert first.args[0][0]["code"] == "q" and runner.busy and not runner.final
    # a newer run kills the running child: its quick stage is published next
    with qtbot.waitSignal(runner.finished, timeout=60_000) as second:
        gen = runner.run_now(make_arena())
    assert runner.generation == gen and second.args[0][0]["code"] == "q"
    runner.shutdown()
    assert runner.pool.activeThreadCount() == 0


def test_a_wall_drawn_over_a_checkpoint_is_a_finding_on_both(window) -> None:  # type: ignore[no-untyped-def]
    """Issue 18, point 9: drawing a thin wall across checkpoint A (not burying it) gives the
    designer a finding marked on the checkpoint and on the new wall."""
    from tests.editor.conftest import click

    window.tool_actions["wall"].trigger()
    window.mode_box.setCurrentText("polyline")
    click(window, 4.0, 6.0)
    click(window, 8.0, 6.0)
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.keyClick(window.view, Qt.Key.Key_Return)
    assert window.doc.arena.walls[-1].id == "W2"
    found = [f for f in V.quick_findings(window.doc.arena) if f["code"] == "overlap"]
    assert [(f["severity"], f["elements"]) for f in found] == [("warning", ["A", "W2"])]


def test_an_edit_is_sent_to_validation_before_the_canvas_redraws(window) -> None:  # type: ignore[no-untyped-def]
    """The runner is the first to hear of an edit (its workers start on it while the canvas, the
    panels and the overlays redraw): when it is asked, the moved element's item is still where
    it was."""
    from editor import commands as C

    ref = window.doc.arena.elements()[0].id
    item = window.scene.items_by_ref[ref]
    before = item.element
    seen: list[bool] = []
    request = window.runner.request
    window.runner.request = lambda arena: (seen.append(item.element is before), request(arena))  # type: ignore[method-assign]
    window.doc.push(C.MoveElements(window.doc, [ref], 1.0, 0.0))
    assert seen == [True]
    assert item.element is not before  # and the canvas did redraw it


def test_a_stage_that_replaces_the_one_before_ends_the_run_on_its_findings(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The live travel stage's findings rest on the workers' first answers; the stage after it
    (:class:`editor.games.gravstrike.live_travel.ExactTravel`) replaces them with those on the exact answers.  The
    first are shown at once (``hold_s`` 0: the exact ones take a new search), the run ends on the
    second, and the findings of the stages before stay."""
    def finding(code: str) -> dict[str, object]:
        return {"code": code, "severity": "warning", "message": code, "elements": []}

    class Exact:
        stage = "travel checks"
        replaces_previous = True
        hold_s = 0.0

        def __call__(self, arena, should_stop=None):  # type: ignore[no-untyped-def]
            for _ in range(40):  # a while, asking to stop between steps (the held findings go out)
                if should_stop is not None and should_stop():
                    raise Cancelled()
                time.sleep(0.005)
            return [finding("exact")]

    class Analysis:
        def stages(self):  # type: ignore[no-untyped-def]
            return [(lambda arena: [finding("quick")], False), (lambda arena: [finding("provisional")], False),
                    (Exact(), False)]

    runner = ValidationRunner(Analysis())  # type: ignore[arg-type]
    shown: list[tuple[bool, list[str]]] = []
    runner.finished.connect(lambda found: shown.append((runner.final, [f["code"] for f in found])))
    runner.run_now(make_arena())
    qtbot.waitUntil(lambda: bool(shown) and shown[-1][0], timeout=120_000)
    assert shown == [(False, ["quick", "provisional"]), (True, ["quick", "exact"])]
    assert V.combined([(Analysis().stages()[0][0], [finding("quick")]), (print, [finding("provisional")]),
                       (Exact(), [finding("exact")])]) == [finding("quick"), finding("exact")]
    runner.shutdown()
