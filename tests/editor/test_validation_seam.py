"""The validators seam: staged analysis, the killable child process, stale runs dropped."""

from __future__ import annotations

import time

import pytest

from editor import validation as V
from editor.validation import Cancelled, StagedAnalysis, ValidationRunner, run_isolated

from tests.editor.conftest import make_arena


def _never_finishes(arena):  # type: ignore[no-untyped-def]
    time.sleep(120)
    return []


def _one_finding(arena):  # type: ignore[no-untyped-def]
    return [{"code": "child", "severity": "info", "message": arena.name, "elements": ["A"]}]


def test_editor_uses_the_validators_when_they_import() -> None:
    assert V.validators_available()
    analysis = V.editor_analysis()
    assert isinstance(analysis, StagedAnalysis)
    # the travel stage runs on persistent workers (editor.travel_workers), not a child per run
    assert [isolated for _fn, isolated in analysis.stages()] == [False, False]
    assert isinstance(analysis.stages()[1][0], V.LiveTravel)
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
    with qtbot.waitSignal(runner.finished, timeout=10000) as first:
        runner.run_now(make_arena())
    assert first.args[0][0]["code"] == "q" and runner.busy and not runner.final
    # a newer run kills the running child: its quick stage is published next
    with qtbot.waitSignal(runner.finished, timeout=10000) as second:
        gen = runner.run_now(make_arena())
    assert runner.generation == gen and second.args[0][0]["code"] == "q"
    runner.shutdown()
    assert runner.pool.activeThreadCount() == 0
