"""The live travel stage: persistent worker processes, newer requests superseding older ones,
dead workers started again, and findings from the travel validators on the workers' answers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from editor.travel_workers import Stopped, TravelWorkers, travel_sources
from editor.validation import LiveTravel
from schema import load
from schema.model import Arena
from validators.context import AnalysisContext

ROOT = Path(__file__).resolve().parents[2]


def _arena() -> Arena:
    return load(ROOT / "arenas" / "examples" / "three-player.yaml")


def _moved(arena: Arena, dx: float) -> Arena:
    cp = arena.checkpoints[0]
    shape = dataclasses.replace(cp.shape, center=(cp.shape.center[0] + dx, cp.shape.center[1]))
    return dataclasses.replace(arena, checkpoints=(dataclasses.replace(cp, shape=shape), *arena.checkpoints[1:]))


@pytest.fixture
def workers():  # type: ignore[no-untyped-def]
    w = TravelWorkers(2)
    yield w
    w.close()


def test_workers_answer_every_source_like_a_plain_analysis(workers: TravelWorkers) -> None:
    arena = _arena()
    got = workers.run(arena)
    assert set(got) == set(travel_sources(arena))
    plain = AnalysisContext(arena)
    for source, row in got.items():
        expected = plain.travel_from(source)
        assert {ref: r.reachable for ref, r in row.items()} == {ref: r.reachable for ref, r in expected.items()}
        for ref, r in row.items():  # same searches up to the analysis tolerance's merging
            if r.reachable:
                assert abs(r.time - expected[ref].time) <= 1 / 6 + 1e-9, (source, ref)


def test_a_moved_checkpoint_is_answered_after_warm_up(workers: TravelWorkers) -> None:
    arena = _arena()
    workers.run(arena)
    assert sum(workers.wait_warm()) == len(travel_sources(arena))
    moved = _moved(arena, -0.5)
    got = workers.run(moved)
    plain = AnalysisContext(moved)
    ref = f"checkpoint:{arena.checkpoints[0].id}"
    for source in travel_sources(moved):
        if source == ref:
            continue
        a, b = got[source][ref], plain.travel_from(source)[ref]
        assert a.reachable == b.reachable and (not a.reachable or abs(a.time - b.time) <= 1 / 6 + 1e-9)


def test_a_newer_request_supersedes_the_running_one(workers: TravelWorkers) -> None:
    arena = _arena()
    workers.submit(arena)
    with pytest.raises(Stopped):
        workers.collect(lambda: True)
    far = _moved(arena, -1.0)
    got = workers.run(far)  # the first request's late answers are dropped: these are far's
    plain = AnalysisContext(far)
    ref = f"checkpoint:{far.checkpoints[0].id}"
    for source in got:
        if source.startswith("start:"):
            a, b = got[source][ref], plain.travel_from(source)[ref]
            assert a.reachable == b.reachable and (not a.reachable or abs(a.time - b.time) <= 1 / 6 + 1e-9)


def test_a_dead_worker_is_started_again(workers: TravelWorkers) -> None:
    arena = _arena()
    workers.run(arena)
    first = workers.workers[0]
    assert first is not None
    first.proc.kill()
    first.proc.join(5)
    got = workers.run(_moved(arena, 0.3))
    assert set(got) == set(travel_sources(arena))
    assert workers.workers[0] is not first


def test_live_travel_reports_the_travel_validators_findings() -> None:
    live = LiveTravel(workers=2)
    try:
        findings = live(load(ROOT / "arenas" / "examples" / "lopsided.yaml"))
    finally:
        live.close()
    codes = {f["code"] for f in findings}
    assert {"start-checkpoint-access", "checkpoint-spacing", "start-spacing"} <= codes
    assert all(f["severity"] in ("error", "warning", "info") for f in findings)
