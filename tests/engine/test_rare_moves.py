"""The planner against the plain reference search on arenas built so that a rare move is the only
way (or the only fast way): travelling in reverse, a partial sideslip, a chain of acceleration
fields.

Rules: "About Distance and Speed" ("Turbines can travel in reverse"), "Going From Forward to
Reverse" (through 0 in one Acceleration Phase, within the Speed Delta), "About Traveling in
Reverse", "Sideslipping" ("shift the turbine sideways up to one width in either direction"),
"Acceleration Fields" (pushes repeat the end-of-length checks, each field once a turn)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.gravstrike.planner import Goal, Planner, StartSource, TravelResult
from tests.engine.arenas import chain_arena, jog_arena, reverse_arena
from tests.engine.reference_planner import reference_plan

GOAL = Goal("checkpoint", "A")


def _time(r: TravelResult) -> Fraction | None:
    return Fraction(r.turns - 1) + Fraction(r.lengths, abs(r.speed)) if r.reachable else None


def _ref_time(o: tuple[int, int, int, int, int] | None) -> Fraction | None:
    return None if o is None else Fraction(o[0] - 1) + Fraction(o[1], abs(o[2]))


@pytest.mark.parametrize("seed", range(4))
def test_reverse_is_the_only_way_out_of_a_dead_end(seed: int) -> None:
    arena = reverse_arena(seed)
    kw = dict(quantum=1e-4, slip_steps=1, max_turns=6)
    ref = reference_plan(arena, StartSource(1), [GOAL], budget=arena.turbine.icons_per_turn, quantum=1e-4,
                         max_turns=6, slip_steps=1)[GOAL]
    assert ref is not None and ref[2] < 0  # the reference reverses too
    full = Planner(arena, **kw).plan_from(StartSource(1), [GOAL])[GOAL]  # type: ignore[arg-type]
    fast = Planner(arena, minimise="time", **kw).plan_from(StartSource(1), [GOAL])[GOAL]  # type: ignore[arg-type]
    assert _time(full) == _time(fast) == _ref_time(ref)
    assert (full.icons, full.damage) == (ref[3], ref[4])
    assert all(step.speed < 0 for step in full.path)
    forward = Planner(arena, reverse=False, **kw).plan_from(StartSource(1), [GOAL])[GOAL]  # type: ignore[arg-type]
    assert not forward.reachable
    assert reference_plan(arena, StartSource(1), [GOAL], budget=arena.turbine.icons_per_turn, quantum=1e-4,
                          max_turns=6, slip_steps=1, reverse=False)[GOAL] is None


@pytest.mark.parametrize("seed", range(3))
def test_a_partial_sideslip_is_the_only_way_through_a_jog(seed: int) -> None:
    arena, fraction = jog_arena(seed)
    kw = dict(quantum=1e-4, slip_steps=4, max_turns=8)
    ref = reference_plan(arena, StartSource(1), [GOAL], budget=arena.turbine.icons_per_turn, quantum=1e-4,
                         max_turns=8, slip_steps=4)[GOAL]
    assert ref is not None
    full = Planner(arena, **kw).plan_from(StartSource(1), [GOAL])[GOAL]  # type: ignore[arg-type]
    fast = Planner(arena, minimise="time", **kw).plan_from(StartSource(1), [GOAL])[GOAL]  # type: ignore[arg-type]
    assert _time(full) == _time(fast) == _ref_time(ref)
    slips = [s.maneuver for s in full.path if "slip" in s.maneuver]
    assert slips == [f"straight+slip{'L' if fraction > 0 else 'R'}{abs(fraction):g}"]
    # whole and half widths miss the joint: both searches agree there is no way through
    coarse = Planner(arena, quantum=1e-4, slip_steps=2, max_turns=8).plan_from(StartSource(1), [GOAL])[GOAL]
    assert not coarse.reachable
    assert reference_plan(arena, StartSource(1), [GOAL], budget=arena.turbine.icons_per_turn, quantum=1e-4,
                          max_turns=8, slip_steps=2)[GOAL] is None


@pytest.mark.parametrize("seed", range(3))
def test_a_chain_of_fields_carries_the_turbine(seed: int) -> None:
    arena = chain_arena(seed)
    ref = reference_plan(arena, StartSource(1), [GOAL], budget=arena.turbine.icons_per_turn, quantum=1e-4,
                         max_turns=4, slip_steps=1)[GOAL]
    full = Planner(arena, quantum=1e-4, slip_steps=1, max_turns=4).plan_from(StartSource(1), [GOAL])[GOAL]
    fast = Planner(arena, quantum=1e-4, slip_steps=1, max_turns=4, minimise="time").plan_from(StartSource(1), [GOAL])[GOAL]
    assert _time(full) == _time(fast) == _ref_time(ref)
    pushed = [s.pushed_by for s in full.path if s.pushed_by]
    assert len(pushed) >= 2  # carried down the chain within one length


def test_the_validators_tolerance_confirms_an_unreachable_answer_finer() -> None:
    """At the validators' tolerance (0.25, half-width sideslips) the jog looks impassable; the
    planner searches again at the confirming tolerance before it says so, and finds the way."""
    arena, _ = jog_arena(2)
    coarse = Planner(arena, quantum=0.25, max_turns=8, minimise="time")
    assert coarse.slip_steps == 2
    r = coarse.plan_from(StartSource(1), [GOAL])[GOAL]
    assert r.reachable
