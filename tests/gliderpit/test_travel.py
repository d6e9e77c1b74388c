"""The pit planner (engine/gliderpit/travel.py) against the plain reference search
(tests/gliderpit/reference.py), on generated pits and on pits built so that a rare maneuver
(turning in place, slipping, diving) is the only fast way; its paths replayed under the rules;
its limits and errors."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.gliderpit.rules import begin_phase, glide_options, maneuvers
from engine.gliderpit.travel import Glider, SearchLimits, TravelError, TravelResult, plan, reach
from engine.grids import Axial, hex_disc, hex_neighbour, hex_neighbours
from schema.games.gliderpit import GliderPitArena, default_arena
from tests.gliderpit.reference import reference_plan, reference_reach


def pit(cells: set[Axial] | list[Axial], floor: int = 0) -> GliderPitArena:
    return GliderPitArena(name="test", cells=tuple(sorted(cells)), floor=floor)


def blob(rng: random.Random, n: int) -> set[Axial]:
    cells = {(0, 0)}
    while len(cells) < n:
        cells.add(rng.choice(hex_neighbours(rng.choice(sorted(cells)))))
    return cells


def replay(arena: GliderPitArena, r: TravelResult, goals: set[Axial], deceleration: str = "never") -> None:
    """Every step of the plan is a legal maneuver (or glide) from the state before it, inside
    the pit, each phase spends its allowance exactly, and the last phase ends on a goal."""
    cells = set(arena.cells)
    start = r.path[0]
    state = begin_phase(start.hex, start.facing, start.speed, start.altitude)
    turns = 0
    for step in r.path[1:]:
        if step.phase == "move":
            if state.mp == state.start_speed:
                turns += 1
            options = [n for name, n in maneuvers(state, floor=arena.floor) if name == step.maneuver]
            match = [n for n in options if (n.hex, n.facing, n.speed, n.altitude) ==
                     (step.hex, step.facing, step.speed, step.altitude)]
            assert match, (step, options)
            state = match[0]
            assert state.hex in cells
        else:
            assert state.mp == 0
            glides = glide_options(state.speed, state.altitude, state.climbed, floor=arena.floor,
                                   deceleration=deceleration)  # type: ignore[arg-type]
            assert any((g.speed, g.altitude) == (step.speed, step.altitude) for g in glides), step
            state = begin_phase(step.hex, step.facing, step.speed, step.altitude)
    assert state.mp == 0 and state.hex in goals
    assert turns == r.turns and state.altitude == r.altitude


@pytest.mark.parametrize("seed", range(6))
def test_planner_agrees_with_the_reference_on_generated_pits(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(6):
        cells = blob(rng, rng.randint(10, 40))
        floor = rng.choice([0, 0, 5, 10])
        arena = pit(cells, floor)
        src, goal = rng.choice(sorted(cells)), rng.choice(sorted(cells))
        start = (src, rng.randint(0, 5), rng.randint(1, 5), rng.randint(floor + 1, 20))
        deceleration = rng.choice(["never", "always"])
        r = plan(arena, Glider(*start), [goal], deceleration=deceleration,  # type: ignore[arg-type]
                 limits=SearchLimits(max_turns=6))
        ref = reference_plan(cells, [start], {goal}, floor, deceleration, 6)
        assert ((r.turns, r.altitude) if r.status == "reached" else None) == ref, (seed, start, goal)
        if r.status == "reached" and r.turns:
            replay(arena, r, {goal}, deceleration)


@pytest.mark.parametrize("seed", range(3))
def test_heat_map_agrees_with_the_reference(seed: int) -> None:
    rng = random.Random(100 + seed)
    cells = blob(rng, 22)
    starts = [(h, f, 2, 12) for h in rng.sample(sorted(cells), 1) for f in (0, 3)]
    m = reach(pit(cells), [Glider(*s) for s in starts], 3)
    assert m.turns == reference_reach(cells, starts, max_turns=3)
    assert len(m.turns) > 5


def test_u_turn_in_a_dead_end_turns_in_place() -> None:
    """A corridor one hex wide: the goal is behind the glider.  At speed 2 or less "Turns may be
    performed in the same hex" (L334), all the same way (L113); the fastest plan turns around on
    the spot."""
    corridor = {(q, 0) for q in range(-3, 4)}
    start = Glider((0, 0), 0, 2, 15)
    r = plan(pit(corridor), start, [(-2, 0)])
    ref = reference_plan(corridor, [((0, 0), 0, 2, 15)], {(-2, 0)})
    assert (r.turns, r.altitude) == ref
    turns = [s for s in r.path if s.maneuver.startswith("turn")]
    assert len(turns) >= 3 and len({s.maneuver for s in turns}) == 1
    replay(pit(corridor), r, {(-2, 0)})


def test_slip_is_the_only_way_round_a_wall_at_speed_three() -> None:
    """At speed 3 a glider "cannot perform a Turn as its first maneuver" (L113) and the hex ahead
    is wall: only a Slip ("diagonally forward one hex left or right while maintaining the same
    facing", L115) keeps it off the wall."""
    cells = {(0, 0), hex_neighbour((0, 0), 1), (-1, 2), (0, 2)}
    r = plan(pit(cells), Glider((0, 0), 0, 3, 15), [hex_neighbour((0, 0), 1)])
    assert r.status == "reached" and r.turns == 1
    assert [s.maneuver for s in r.path if s.phase == "move"] == ["slip-left", "turn-left"]
    assert (r.turns, r.altitude) == reference_plan(cells, [((0, 0), 0, 3, 15)], {hex_neighbour((0, 0), 1)})


def test_long_straight_flights_dive_for_speed() -> None:
    """Diving: "For each altitude level a glider dives, reduce the glider's altitude by 1 and
    increase its speed by 1" (L133) — the only way to speed up on a long straight."""
    corridor = {(q, 0) for q in range(0, 16)}
    r = plan(pit(corridor), Glider((0, 0), 0, 1, 20), [(15, 0)])
    assert any(s.maneuver.startswith("dive") for s in r.path)
    assert (r.turns, r.altitude) == reference_plan(corridor, [((0, 0), 0, 1, 20)], {(15, 0)})
    replay(pit(corridor), r, {(15, 0)})


def test_launch_zone_sources_use_every_legal_launch() -> None:
    arena = default_arena()
    r = plan(arena, "Z2", "centre")
    zone = arena.launch_zones[1]
    assert r.status == "reached" and r.path[0].hex in zone.cells
    first = r.path[0]
    assert (first.speed, first.altitude) in [(1, 20), (2, 19), (3, 18), (4, 17)]
    replay(arena, r, {(0, 0)})
    assert plan(arena, "Z2", "Z2").turns == 0


def test_unreachable_beyond_and_undecided() -> None:
    island = {(0, 0), (1, 0), (5, 5), (6, 5)}
    assert plan(pit(island), Glider((0, 0), 0, 1, 20), [(5, 5)]).status == "unreachable"
    corridor = {(q, 0) for q in range(0, 40)}
    far = plan(pit(corridor), Glider((0, 0), 0, 1, 20), [(39, 0)], limits=SearchLimits(max_turns=3))
    assert far.status == "beyond" and far.horizon == 3
    busy = plan(default_arena(), "Z1", "Z6", limits=SearchLimits(max_states=10))
    assert busy.status == "undecided" and busy.undecided is not None and "states" in busy.undecided
    m = reach(default_arena(), "Z1", 10, limits=SearchLimits(max_states=10))
    assert m.undecided is not None and not m.complete


def test_heat_map_covers_the_default_pit() -> None:
    m = reach(default_arena(), "Z1", 12)
    assert m.complete and len(m.turns) == 271
    assert all(m.turns[h] == 0 for h in default_arena().launch_zones[0].cells)
    assert max(m.turns.values()) <= 5


def test_errors_name_the_bad_source_or_goal() -> None:
    arena = default_arena()
    with pytest.raises(TravelError, match="no launch zone 'Z9'"):
        plan(arena, "Z9", "centre")
    with pytest.raises(TravelError, match=r"goal hex \[40, 40\]"):
        plan(arena, "Z1", [(40, 40)])
    with pytest.raises(TravelError, match="not in the pit"):
        plan(arena, Glider((40, 40), 0, 1, 20), "centre")
    with pytest.raises(TravelError, match="a goal is"):
        plan(arena, "Z1", "middle")
    stray = replace(arena, launch_zones=(*arena.launch_zones[:5], replace(arena.launch_zones[5], cells=((40, 40),))))
    with pytest.raises(TravelError, match="has no hex in the pit"):
        plan(stray, "Z1", "Z6")
    with pytest.raises(TravelError, match="no goal hex given"):
        plan(arena, "Z1", [])


def test_the_floor_limits_plans() -> None:
    """With a blitz FLOOR of 15 (L217) a glider at 17 cannot dive two levels (it would reach the
    FLOOR and be eliminated, L67)."""
    corridor = {(q, 0) for q in range(0, 16)}
    low = plan(pit(corridor, floor=15), Glider((0, 0), 0, 1, 17), [(15, 0)])
    high = plan(pit(corridor), Glider((0, 0), 0, 1, 17), [(15, 0)])
    assert low.status == high.status == "reached" and low.turns is not None and high.turns is not None
    assert low.turns > high.turns
    assert all(s.altitude > 15 for s in low.path)
    arena = replace(pit(corridor, floor=15))
    assert (low.turns, low.altitude) == reference_plan(set(arena.cells), [((0, 0), 0, 1, 17)], {(15, 0)}, 15)


def test_default_pit_plans_are_quick_to_find() -> None:
    """Not a timing test: the bounded search settles every zone-to-zone question well inside
    the default state cap."""
    arena = default_arena()
    for z in arena.launch_zones:
        r = plan(arena, z.id, "centre")
        assert r.status == "reached" and r.states < 200_000
    assert set(hex_disc((0, 0), 9)) == set(arena.cells)
