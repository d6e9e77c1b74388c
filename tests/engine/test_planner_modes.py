"""Planner options used by analysis: ``minimise="time"`` and reach maps.

Rules: "Distance and Speed" and "The Maneuver Phase" (times are turns of flat-out movement);
the planner's contract in docs/cli.md, ``arena travel`` (time first, then icons, then damage)."""

from __future__ import annotations

import math

import pytest

from engine.gravstrike.planner import Goal, Planner, PlanningError, StartSource
from tests.engine.arenas import small_arena


@pytest.mark.parametrize("seed", range(6))
def test_time_only_mode_finds_the_same_least_time(seed: int) -> None:
    arena, turns = small_arena(seed)
    goals = [Goal("checkpoint", c.id) for c in arena.checkpoints]
    full = Planner(arena, max_turns=turns).plan_from(StartSource(1), goals)
    fast = Planner(arena, max_turns=turns, minimise="time").plan_from(StartSource(1), goals)
    for g in goals:
        assert full[g].reachable == fast[g].reachable
        if full[g].reachable:
            assert fast[g].time == pytest.approx(full[g].time)
            assert fast[g].icons >= full[g].icons  # icons are only minimised in the full mode


def test_unknown_objective_is_refused() -> None:
    arena, _ = small_arena(0)
    with pytest.raises(PlanningError, match="minimise"):
        Planner(arena, minimise="icons")  # type: ignore[arg-type]


def test_reach_map_agrees_with_the_planner() -> None:
    arena, turns = small_arena(4)
    planner = Planner(arena, quantum=0.05, max_turns=turns, minimise="time")
    reach = planner.reach_times(StartSource(1), cell=0.5, max_time=float(turns))
    st = arena.start(1)
    assert reach.at(*st.position) == 0.0
    assert math.isinf(reach.at(1e6, 1e6))
    finite = reach.times[reach.times < math.inf]
    assert finite.size > 10 and finite.max() <= turns
    # a cell's time is when some length ended in it: a planned path's length ends are no earlier
    result = planner.plan(StartSource(1), Goal("checkpoint", arena.checkpoints[0].id))
    if result.reachable:
        for step in result.path:
            if step.pushed_by is None and step.speed:
                t = step.turn - 1 + step.length / step.speed
                assert reach.at(step.x, step.y) <= t + 1e-9


def test_a_goal_in_a_part_of_the_arena_no_length_reaches_is_ruled_out_at_once() -> None:
    """"Ramming": plans never pass through walls; a wall ring wider than one length's reach can't
    be hopped, so the heuristic proves the goal unreachable without searching the arena."""
    from engine.gravstrike.search import ScalarSearch
    from schema.shapes import Circle, Polyline, Rect
    from schema.games.gravstrike.model import Arena, Checkpoint, StartPosition, Wall

    ring = Wall("W1", Polyline(((2.0, -3.0), (8.0, -3.0), (8.0, 3.0), (2.0, 3.0), (2.0, -3.0)), 1.5))
    arena = Arena(name="cage", bounds=Rect((0.0, 0.0), (18.0, 10.0)), walls=(ring,),
                  checkpoints=(Checkpoint("A", "outlying", Circle((5.0, 0.0), 0.5)),),
                  start_positions=(StartPosition(1, (-5.0, 0.0), 0.0),))
    planner = Planner(arena, quantum=0.25, max_turns=12)
    search = ScalarSearch(planner, planner.source_poses(StartSource(1)), [Goal("checkpoint", "A")])
    result = search.run()[Goal("checkpoint", "A")]
    assert not result.reachable
    assert search.count < 100  # nothing was worth expanding
    fast = Planner(arena, quantum=0.25, max_turns=12, minimise="time").frontier_search(StartSource(1), [Goal("checkpoint", "A")])
    assert fast is not None and not fast.run()[Goal("checkpoint", "A")].reachable
    assert fast.store.n < 100  # the vectorised search too
