"""The fast planner against the plain reference search on generated small arenas.

Rules exercised: "The Acceleration Phase" (speed delta), "The Maneuver Phase" / "Maneuvering"
(lengths, turns, sideslips, pivots, icon costs), "In the Middle of a Length of Movement..."
(checks only at the end of lengths), "Ramming" (rams excluded from plans), "Acceleration
Fields", "Exclusion Fields", "Checkpoints" and "Scoring Variants" (gates).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.gravstrike.motion import Pose
from engine.gravstrike.planner import CheckpointSource, Planner, PoseSource, Source, StartSource, TravelResult
from tests.engine.arenas import small_arena
from tests.engine.reference_planner import reference_plan

SEEDS = range(36)


def _case(seed: int) -> tuple[Source, str, int, bool, int, int]:
    arena, turns = small_arena(seed)
    sources: list[Source] = [StartSource(1), StartSource(2), CheckpointSource("A")]
    st = arena.start(2)
    sources.append(PoseSource(Pose(st.position[0], st.position[1], st.facing), 1))
    source = sources[seed % 4]
    exclusions = "avoid" if seed % 5 == 0 else "pay"
    tier = 3 if seed % 2 else 1
    pivots = seed % 6 == 1
    if pivots or isinstance(source, (CheckpointSource, PoseSource)):
        turns = min(turns, 2)
    slip_steps = 2 if seed % 3 == 1 else 1
    return source, exclusions, tier, pivots, turns, slip_steps


def _key(r: TravelResult) -> tuple[Fraction, int, int] | None:
    if not r.reachable:
        return None
    return (Fraction(r.turns - 1) + Fraction(r.lengths, abs(r.speed)), r.icons, r.damage)


@pytest.mark.parametrize("seed", SEEDS)
def test_fast_planner_matches_reference(seed: int) -> None:
    arena, _ = small_arena(seed)
    source, exclusions, tier, pivots, turns, slips = _case(seed)
    planner = Planner(arena, tier=tier, exclusions=exclusions, quantum=1e-4, max_turns=turns, pivots=pivots,  # type: ignore[arg-type]
                      slip_steps=slips)
    goals = planner.goals()
    fast = planner.plan_from(source)
    ref = reference_plan(
        arena, source, goals, tier=tier, budget=arena.turbine.icons_per_turn, exclusions=exclusions,
        quantum=1e-4, max_turns=turns, pivots=pivots, slip_steps=slips,
    )
    # the vectorised time-only search (engine.gravstrike.frontier) finds the same least times
    vec = Planner(arena, tier=tier, exclusions=exclusions, quantum=1e-4, max_turns=turns, pivots=pivots,  # type: ignore[arg-type]
                  minimise="time", slip_steps=slips).plan_from(source)
    for goal in goals:
        o = ref[goal]
        expected = None if o is None else (Fraction(o[0] - 1) + Fraction(o[1], abs(o[2])), o[3], o[4])
        assert _key(fast[goal]) == expected, (seed, goal)
        got = _key(vec[goal])
        assert (got and got[0]) == (expected and expected[0]), (seed, goal, "vectorised")


@pytest.mark.parametrize("seed", range(6))
def test_path_replays_with_apply(seed: int) -> None:
    """Replaying a plan's lengths with the rules' apply() reaches the same poses, never rams."""
    from engine.gravstrike.geometry import ArenaGeometry
    from engine.gravstrike.length import TurnState, apply

    arena, turns = small_arena(seed)
    planner = Planner(arena, max_turns=turns, pivots=False, slip_steps=4)
    g = ArenaGeometry(arena)
    by_label = {m.label: m for m in planner.maneuvers}
    for goal, res in planner.plan_from(StartSource(1)).items():
        if not res.reachable:
            continue
        st = arena.start(1)
        pose = Pose(st.position[0], st.position[1], st.facing)
        state = None
        turn = 0
        for step in res.path:
            if step.pushed_by is not None:
                continue
            if step.turn != turn:
                turn = step.turn
                state = TurnState.start(step.speed, icons=arena.turbine.icons_per_turn)
            assert state is not None
            r = apply(g, pose, by_label[step.maneuver], state)
            assert not any(type(e).__name__ == "Ram" for e in r.events)
            pushes = [e for e in r.events if type(e).__name__ == "FieldPush"]
            target = pushes[-1].end if pushes else r.pose  # type: ignore[union-attr]
            assert target.x == pytest.approx(r.pose.x) and target.y == pytest.approx(r.pose.y)
            pose, state = r.pose, r.state
        last = [s for s in res.path][-1]
        assert (pose.x, pose.y) == pytest.approx((last.x, last.y))
        assert res.time == pytest.approx(res.turns - 1 + res.lengths / abs(res.speed))
