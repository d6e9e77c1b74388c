"""TravelSession: travel kept between edits, resumed for moved goals (the editor's live runs).

Rules: "Checkpoints" (checkpoints score, they don't block: moving one changes no turbine's
movement), "Ramming" (walls do block: moving one changes everything)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from schema import load
from schema.games.gravstrike.model import Arena
from tests.engine.arenas import small_arena
from validators.games.gravstrike.context import AnalysisContext
from validators.games.gravstrike.travel_session import TravelSession


def _times(ctx: AnalysisContext, source: str) -> dict[str, float]:
    return {ref: round(r.time, 9) if r.reachable else math.inf for ref, r in ctx.travel_from(source).items()}


def _move_checkpoint(arena: Arena, dx: float, dy: float) -> Arena:
    cp = arena.checkpoints[0]
    shape = dataclasses.replace(cp.shape, center=(cp.shape.center[0] + dx, cp.shape.center[1] + dy))
    return dataclasses.replace(arena, checkpoints=(dataclasses.replace(cp, shape=shape), *arena.checkpoints[1:]))


@pytest.mark.parametrize("seed", [1, 4, 7, 10])
def test_moving_a_checkpoint_resumes_every_kept_search_with_exact_answers(seed: int) -> None:
    arena, turns = small_arena(seed)
    session = TravelSession(tolerance=1e-4, max_turns=turns)
    ctx = session.context(arena)
    before = {s: ctx.travel_from(s) for s in ctx.starts()}
    kept = dict(session.searches)
    moved = _move_checkpoint(arena, 0.6, -0.4)
    ctx = session.context(moved)
    assert session.last_update == ("retarget", frozenset({_goal(moved)}))
    fresh = AnalysisContext(moved, tolerance=1e-4, max_turns=turns)
    for s in ctx.starts():
        assert _times(ctx, s) == _times(fresh, s), s
        if s in kept:
            assert session.searches[s] is kept[s]  # resumed, not searched again
    assert before  # the first run answered too


def _goal(arena: Arena):  # type: ignore[no-untyped-def]
    from engine.gravstrike.planner import Goal

    return Goal("checkpoint", arena.checkpoints[0].id)


def test_moving_a_start_drops_only_its_own_search() -> None:
    arena, turns = small_arena(4)
    session = TravelSession(tolerance=1e-4, max_turns=turns)
    ctx = session.context(arena)
    for s in ctx.starts():
        ctx.travel_from(s)
    session.warm()
    other = dict(session.searches)
    st = arena.start(1)
    moved = dataclasses.replace(arena, start_positions=tuple(
        dataclasses.replace(s, position=(s.position[0] + 0.3, s.position[1])) if s.player == 1 else s for s in arena.start_positions))
    ctx = session.context(moved)
    assert "start:1" not in session.searches and session.searches.get("start:2") is other.get("start:2")
    fresh = AnalysisContext(moved, tolerance=1e-4, max_turns=turns)
    for s in ctx.starts():
        assert _times(ctx, s) == _times(fresh, s), s
    assert st.position != moved.start(1).position


def test_moving_a_wall_starts_afresh() -> None:
    arena, turns = small_arena(1)
    session = TravelSession(max_turns=turns)
    session.context(arena).travel_from("start:1")
    wall = arena.walls[0]
    shape = dataclasses.replace(wall.shape, center=(wall.shape.center[0] + 0.5, wall.shape.center[1]))
    session.context(dataclasses.replace(arena, walls=(dataclasses.replace(wall, shape=shape), *arena.walls[1:])))
    assert session.last_update[0] == "new" and not session.searches


def test_warm_runs_the_missing_searches_and_stops_when_asked() -> None:
    arena, turns = small_arena(4)
    session = TravelSession(max_turns=turns)
    session.context(arena)
    assert session.warm(lambda: True) == 0 and not session.searches
    ran = session.warm()
    sources = {s.id for s in arena.start_positions} | {f"checkpoint:{c.id}" for c in arena.checkpoints if c.kind == "outlying"}
    assert ran == len(sources) and set(session.searches) == sources
    assert session.warm() == 0


def test_a_session_survives_searches_stopped_by_their_limit() -> None:
    """The editor's workers hold a session: a search that reaches its memory limit answers
    "undecided" (findings say so), is not kept for resuming, and the next edit is served."""
    import dataclasses

    from engine.gravstrike.travel_types import SearchLimits
    from validators.run import validate

    arena = load("arenas/default.yaml")
    session = TravelSession(limits=SearchLimits(max_bytes=1 << 16))
    report = validate(arena, context=session.context(arena))
    assert any("undecided" in f.metrics for f in report.findings)
    assert not session.searches  # nothing half-done kept
    cp = arena.checkpoints[0]
    moved = dataclasses.replace(arena, checkpoints=(dataclasses.replace(cp, shape=dataclasses.replace(
        cp.shape, center=(cp.shape.center[0] + 0.3, cp.shape.center[1]))), *arena.checkpoints[1:]))
    again = validate(moved, context=session.context(moved))
    assert any("undecided" in f.metrics for f in again.findings)


def test_switching_the_gates_variant_keeps_kept_searches_exact() -> None:
    """Issue 36 item 4 ("Scoring Variants": gates score only in scenarios that play them): kept
    searches answer the gates when the variant is on, leave them out when it is switched off, and
    answer them again - as a fresh analysis does - when it is switched back on."""
    arena, turns = small_arena(4)
    assert arena.gates and arena.scenario.variants.gates
    off = dataclasses.replace(arena, scenario=dataclasses.replace(arena.scenario, variants=dataclasses.replace(
        arena.scenario.variants, gates=False)))
    session = TravelSession(tolerance=0.05, max_turns=turns)
    for version in (off, arena, off, arena):
        ctx = session.context(version)
        fresh = AnalysisContext(version, tolerance=0.05, max_turns=turns)
        for s in ctx.starts():
            got = _times(ctx, s)
            assert got == _times(fresh, s), s
            assert any(ref.startswith("gate:") for ref in got) == version.scenario.variants.gates
