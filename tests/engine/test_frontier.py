"""The vectorised time-only search (:mod:`engine.gravstrike.frontier`) against the scalar planner.

Rules: "The Maneuver Phase" and "Maneuvering" (lengths, turns, sideslips, icon costs),
"In the Middle of a Length of Movement..." (checks at the ends of lengths), "Ramming" (plans never
ram), "Acceleration Fields" (pushes without turning, once per field per turn), "Exclusion Fields"
(damage on entering and ending with two corners inside). Its exactness against the plain reference
search is checked in test_planner_oracle.py."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.gravstrike.frontier as frontier
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.length import TurnState, apply
from engine.gravstrike.motion import Pose
from engine.gravstrike.planner import CheckpointSource, Goal, Planner, StartSource
from schema import load
from tests.engine.arenas import small_arena

ROOT = Path(__file__).resolve().parents[2]


def _times(results: dict) -> dict:
    return {g: (r.reachable, round(r.time, 9) if r.reachable else None, r.horizon) for g, r in results.items()}


@pytest.mark.parametrize("seed", range(0, 36, 5))
def test_whole_and_paged_key_tables_give_identical_answers(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key table allocated whole (small arenas) and page by page (big ones, issue 20: no
    cliff where the table outgrows ``DENSE_LIMIT``) are one policy: the same states kept, so
    the same answers, paths and all - here with tiny pages, so that the pool grows many times."""
    arena, turns = small_arena(seed)
    whole = Planner(arena, quantum=0.1, max_turns=turns, minimise="time").plan_from(StartSource(1))
    monkeypatch.setattr(frontier, "DENSE_LIMIT", 0)
    monkeypatch.setattr(frontier, "PAGE_BITS", 6)
    planner = Planner(arena, quantum=0.1, max_turns=turns, minimise="time")
    search = planner.frontier_search(StartSource(1))
    assert search is not None and search.best.bits == 6
    paged = planner.confirm(StartSource(1), search.run(), search.proven)
    assert paged == whole
    assert search.best.pages < (search.best.size >> 6) // 2  # pages only where the search went


@pytest.mark.parametrize("seed", range(0, 36, 3))
def test_vectorised_paths_replay_with_the_rules(seed: int) -> None:
    """Each plan replays length by length with the rules' apply(): no ram, the same poses, pushes
    where the plan says, and the reported time, icons and damage."""
    arena, turns = small_arena(seed)
    tier = 3 if seed % 2 else 1
    planner = Planner(arena, tier=tier, max_turns=turns, pivots=False, minimise="time")
    g = ArenaGeometry(arena)
    by_label = {m.label: m for m in planner.maneuvers}
    st = arena.start(1)
    for goal, res in planner.plan_from(StartSource(1)).items():
        if not res.reachable:
            continue
        pose = Pose(st.position[0], st.position[1], st.facing)
        state, turn, icons, damage = None, 0, 0, 0
        lengths = [s for s in res.path if s.pushed_by is None]
        for step in lengths:
            if step.turn != turn:
                turn = step.turn
                state = TurnState.start(step.speed, icons=arena.turbine.icons_per_turn, tier=tier)
            assert state is not None
            r = apply(g, pose, by_label[step.maneuver], state)
            assert not any(type(e).__name__ == "Ram" for e in r.events)
            pushes = [e for e in r.events if type(e).__name__ == "FieldPush"]
            planned = [s for s in res.path if s.pushed_by is not None and (s.turn, s.length) == (step.turn, step.length)]
            assert [e.field for e in pushes] == [s.pushed_by for s in planned]  # type: ignore[attr-defined]
            icons += by_label[step.maneuver].cost
            damage += r.damage
            pose, state = r.pose, r.state
            assert pose.heading == pytest.approx(step.heading)  # the facing, also in reverse
        assert (pose.x, pose.y) == pytest.approx((res.path[-1].x, res.path[-1].y))
        assert res.time == pytest.approx(res.turns - 1 + res.lengths / abs(res.speed))
        assert res.icons == icons
        assert res.damage == damage


def test_default_arena_travel_matches_the_scalar_search() -> None:
    """On the shipped default arena, at the analysis tolerance, both searches give start 1's
    times to every goal (the book's "Custom Arenas" fairness inputs)."""
    arena = load(ROOT / "arenas" / "default.yaml")
    vec = Planner(arena, quantum=0.25, max_turns=12, minimise="time").plan_from(StartSource(1))
    ref = Planner(arena, quantum=0.25, max_turns=12, minimise="time", vectorised=False).plan_from(StartSource(1))
    assert _times(vec) == _times(ref)
    assert vec[Goal("checkpoint", "A")].time == pytest.approx(1.5)


def test_horizon_stops_the_search() -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    planner = Planner(arena, quantum=0.25, max_turns=12, minimise="time")
    cps = [Goal("checkpoint", c.id) for c in arena.checkpoints]
    res = planner.plan_from(CheckpointSource("A"), cps, max_time=2.0)
    far = [g for g in cps if not res[g].reachable]
    assert far and all(res[g].horizon == 2.0 for g in far)
    assert all(res[g].time <= 2.0 for g in cps if res[g].reachable)


def test_sources_off_the_lattice_fall_back_to_the_scalar_search() -> None:
    arena, _ = small_arena(1)
    planner = Planner(arena, minimise="time")
    st = arena.start(1)
    assert frontier.supported(planner, [(Pose(st.position[0], st.position[1], st.facing), 0)])
    mixed = [(Pose(0.0, 0.0, 0.0), 0), (Pose(0.0, 0.0, 45.0), 0)]
    assert not frontier.supported(planner, mixed)


def _moved(arena, dx: float, dy: float):  # type: ignore[no-untyped-def]
    import dataclasses

    cp = arena.checkpoints[0]
    shape = dataclasses.replace(cp.shape, center=(cp.shape.center[0] + dx, cp.shape.center[1] + dy))
    return dataclasses.replace(arena, checkpoints=(dataclasses.replace(cp, shape=shape), *arena.checkpoints[1:]))


@pytest.mark.parametrize("seed,bound", [(s, True) for s in range(0, 36, 4)] + [(5, False)])
def test_resumed_search_answers_a_moved_goal_like_a_new_search(seed: int, bound: bool) -> None:
    """Checkpoints don't change how a turbine moves ("Checkpoints": they score, they don't
    block), so a finished search can be resumed for a moved checkpoint; with no state merging
    (tolerance 1e-4) the answers equal a new search's exactly (also without the distance bound)."""
    arena, turns = small_arena(seed)
    planner = Planner(arena, quantum=1e-4, max_turns=turns, minimise="time", heuristic=bound, slip_steps=2)
    search = planner.frontier_search(StartSource(1))
    assert search is not None
    search.run()
    for dx, dy in ((0.4, -0.3), (-0.9, 0.5)):
        arena = _moved(arena, dx, dy)
        moved = planner.retarget(arena)
        assert moved == {Goal("checkpoint", arena.checkpoints[0].id)}
        resumed = search.resume(sorted(moved, key=str))
        fresh = Planner(arena, quantum=1e-4, max_turns=turns, minimise="time", slip_steps=2).plan_from(StartSource(1))
        assert _times(resumed) == _times(fresh), (seed, dx, dy)


def test_retarget_refuses_changes_to_how_turbines_move() -> None:
    import dataclasses

    arena, _ = small_arena(1)
    planner = Planner(arena, minimise="time")
    assert planner.retarget(arena) == set()
    wall = arena.walls[0]
    nudged = dataclasses.replace(wall, shape=dataclasses.replace(wall.shape, center=(wall.shape.center[0] + 0.5, wall.shape.center[1])))
    assert planner.retarget(dataclasses.replace(arena, walls=(nudged, *arena.walls[1:]))) is None
    fewer = dataclasses.replace(arena, checkpoints=arena.checkpoints[:-1] if len(arena.checkpoints) > 1 else ())
    assert planner.retarget(fewer) is None


def test_a_translated_goal_gets_the_same_zone_masks_as_a_new_planner() -> None:
    """Retargeting translates a moved checkpoint's configuration-space regions instead of
    summing them again ("Checkpoints": a checkpoint counts when the footprint touches it): the
    lattice's zone masks equal those a new planner builds for the moved arena."""
    import numpy as np

    arena = load(ROOT / "arenas" / "default.yaml")
    planner = Planner(arena, minimise="time")
    search = planner.frontier_search(StartSource(1))
    assert search is not None
    search.run()
    moved_arena = _moved(arena, -0.37, 0.21)
    assert planner.retarget(moved_arena) == {Goal("checkpoint", "A")}
    fresh = Planner(moved_arena, minimise="time")
    fresh_search = fresh.frontier_search(StartSource(1))
    assert fresh_search is not None
    old_lat, new_lat = search.lat, fresh_search.lat
    assert np.array_equal(old_lat.sure, new_lat.sure)
    assert np.array_equal(old_lat.maybe, new_lat.maybe)


def test_a_paged_key_table_handed_on_holds_only_the_next_searchs_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38, goal 3 (memory): a search's key table is handed to the next search of its
    planner (no allocating again), which claims its pages from the first again - so the pages
    it holds are its own, as many as a new table's, not also every page of the searches before
    it (a 48-length table's fourth start search held 52 MB of pages instead of 33 MB) - with the
    answers, paths and all, of a search with a table of its own."""
    monkeypatch.setattr(frontier, "DENSE_LIMIT", 0)
    monkeypatch.setattr(frontier, "PAGE_BITS", 6)
    arena, turns = small_arena(5)
    planner = Planner(arena, quantum=0.1, max_turns=turns, minimise="time")
    first = planner.frontier_search(StartSource(1))
    assert first is not None
    first.run()
    table, theirs = first.best, first.best.pages
    first.release()
    second = planner.frontier_search(StartSource(2))
    assert second is not None and second.best is table  # handed on
    got = second.run()
    fresh = Planner(arena, quantum=0.1, max_turns=turns, minimise="time").frontier_search(StartSource(2))
    assert fresh is not None
    assert got == fresh.run()
    assert second.best.pages == fresh.best.pages < theirs + fresh.best.pages - 1
