"""The live travel stage: persistent worker processes, newer requests superseding older ones,
dead workers started again, and findings from the travel validators on the workers' answers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from editor.games.gravstrike.travel_workers import Stopped, TravelWorkers, travel_sources
from editor.games.gravstrike.live_travel import LiveTravel
from schema import load
from schema.games.gravstrike.model import Arena
from validators.games.gravstrike.context import AnalysisContext

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
    first.proc.join()  # SIGKILL: it dies; reaped however long that takes
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


# -- sharing the work out (editor.games.gravstrike.travel_workers.plan) ---------------------------------------------

def _default() -> Arena:
    return load(ROOT / "arenas" / "default.yaml")


def test_symmetric_sources_are_one_task_each_orbit() -> None:
    from editor.games.gravstrike.travel_workers import orbits

    arena = _default()
    assert [len(o) for o in orbits(arena, travel_sources(arena))] == [6, 3]
    cp = arena.checkpoints[0]  # A moved off its mirror axis: no symmetry left
    shape = dataclasses.replace(cp.shape, center=(cp.shape.center[0], cp.shape.center[1] + 0.4))
    lopsided = dataclasses.replace(arena, checkpoints=(dataclasses.replace(cp, shape=shape), *arena.checkpoints[1:]))
    assert all(len(o) == 1 for o in orbits(lopsided, travel_sources(lopsided)))


def test_plan_keeps_resumes_with_their_owner_and_balances_the_rest() -> None:
    from editor.games.gravstrike.travel_workers import plan

    arena = _moved(_arena(), 0.3)
    sources = travel_sources(arena)
    owner = {s: i % 2 for i, s in enumerate(sources)}
    moved_source = f"checkpoint:{arena.checkpoints[0].id}"
    cost = {(s, "resume"): 0.01 for s in sources}
    cost[(moved_source, "new")] = 0.05
    shares = plan(arena, 2, dict(owner), {moved_source}, cost, quick=True)
    for i, share in enumerate(shares):  # a kept search is resumed where it is
        assert all(owner[s] == i for s in share.searched if s != moved_source)
    assert sorted(s for share in shares for s in share.tasks) == sorted(sources)
    heavy = next(i for i, share in enumerate(shares) if moved_source in share.tasks)
    assert shares[1 - heavy].quick  # the quick stage goes to the other worker
    assert set(shares[0].owned).isdisjoint(shares[1].owned)


def test_quick_stage_runs_on_a_worker(workers: TravelWorkers) -> None:
    from editor.analysis import quick_findings

    arena = _arena()
    workers.submit(arena, quick=True)
    assert workers.collect_quick() == quick_findings(arena)
    assert set(workers.collect()) == set(travel_sources(arena))


def test_new_searches_on_one_heading_lattice_share_a_worker() -> None:
    """Starts facing alike modulo 30 degrees search on one heading lattice (0.036 s to build on a
    48-length table): after a wall edit (every search new) each worker gets the two starts of one
    lattice - the checkpoints' searches (every multiple of 30 degrees) going to the one facing a
    multiple of 30 - whatever the starts' last measured times say (they carry the setup of
    whichever search ran first on its worker, or go stale across edits)."""
    from editor.games.gravstrike.travel_workers import lattice_base, plan
    from tests.engine.table_arenas import table_arena

    arena = table_arena(48, 1)
    s1, s2, s3, s4 = arena.start_positions  # facing 0, 90, 197, 287: made 0, 197, 90, 287
    arena = dataclasses.replace(arena, start_positions=(s1, dataclasses.replace(s2, facing=197.0),
                                                        dataclasses.replace(s3, facing=90.0), s4))
    starts = [f"start:{s.player}" for s in arena.start_positions]
    assert [lattice_base(arena, s) for s in starts] == [0.0, 17.0, 0.0, 17.0]
    sources = travel_sources(arena)
    for measured in ([0.45, 0.45, 0.45, 0.45], [1.6, 0.35, 0.4, 0.9]):
        cost = {(s, "new"): c for s, c in zip(starts, measured)}
        cost |= {(s, "new"): 0.003 for s in sources if s.startswith("checkpoint:")}  # as measured
        shares = plan(arena, 2, {}, set(sources), cost, quick=True)
        split = sorted(sorted(s for s in share.tasks if s.startswith("start:")) for share in shares)
        assert split == [["start:1", "start:3"], ["start:2", "start:4"]], measured
        zero = next(share for share in shares if "start:1" in share.tasks)
        assert all(s in zero.tasks for s in sources if s.startswith("checkpoint:"))


def test_the_editor_s_analysis_runs_under_arena_validate_s_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 point 9: every analysis is bounded, the editor's too. The live stages run under
    ``arena validate``'s caps (``ARENA_TIME_LIMIT`` / ``ARENA_MEMORY_LIMIT_MIB`` as the CLI reads
    them): a time cap of a nanosecond - spent by the first look at it - stops the workers'
    searches and the quick stage at once, and the panel gets ``analysis-limit`` warnings, not a
    silent "no problems"."""
    from editor.analysis import quick_findings

    monkeypatch.setenv("ARENA_TIME_LIMIT", "1e-9")  # the workers inherit it
    live = LiveTravel(workers=2)
    try:
        arena = _arena()
        quick = live.quick(arena)
        travel = live(arena)
    finally:
        live.close()
    for findings in (quick, travel, quick_findings(arena)):
        limits = [f for f in findings if f["code"] == "analysis-limit"]
        assert limits and all(f["severity"] == "warning" for f in limits), findings
    assert any("time limit" in f["message"] for f in travel if f["code"] == "analysis-limit")
