"""Travel analysis always answers: sealed goals are proven unreachable before any search, every
search is bounded in memory and time and says so when it stops, and a goal past the turn limit
is "beyond", never "unreachable".

Rules: "Ramming" (plans never ram, so a goal walled in is unreachable), "Exclusion Fields"
(avoided on request), "Maneuvering" and "Pivots" (the headings a footprint can take)."""

from __future__ import annotations

import math

import pytest

from dataclasses import replace

from engine.gravstrike.frontier import FrontierSearch
from engine.gravstrike.planner import Goal, Planner, StartSource
from engine.gravstrike.reach import longest_piece
from engine.gravstrike.travel_types import SearchLimits
from schema import load
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, Checkpoint, StartPosition, Turbine, Wall
from tests.engine.arenas import avoid_arena, boxed_gate, boxed_gate_arena, sealed_arena, wall_box

A = Goal("checkpoint", "A")
G = Goal("gate", "G")


class TooMuchWork(Exception):
    """A search kept more states than a test allows (raised from its progress report)."""


def capped(states: int) -> SearchLimits:
    """Limits whose progress report (every expansion step) stops a search past ``states`` states:
    the tests' work bound, in states rather than seconds."""
    def check(n: int, bound: float) -> None:
        if n > states:
            raise TooMuchWork(f"the search kept {n:,} states (allowed {states:,})")
    return SearchLimits(progress=check, progress_every=0.0)


def gapped_cage() -> Arena:
    """A walled room whose only way in is a corridor 0.6 lengths wide and 4 long, turned 45
    degrees: a disc 0.5 across passes, a footprint only facing along the corridor (45 or 225
    degrees) - and a turbine that starts facing 0 degrees only ever faces multiples of 30
    ("Maneuvering": 30/60/90-degree turns; the planner pivots by multiples of 30 too)."""
    t, side, gap, run = 0.5, 3.0, 0.6, 4.0
    pieces = [((0.0, side / 2), (side + t, t)), ((0.0, -side / 2), (side + t, t)), ((-side / 2, 0.0), (t, side + t)),
              ((side / 2, (side / 2 + gap / 2) / 2 + gap / 4), (t, side / 2 - gap / 2 + t / 2)),
              ((side / 2, -(side / 2 + gap / 2) / 2 - gap / 4), (t, side / 2 - gap / 2 + t / 2)),
              ((side / 2 + run / 2, gap / 2 + t / 2), (run, t)), ((side / 2 + run / 2, -gap / 2 - t / 2), (run, t))]
    c, s = math.cos(math.radians(45)), math.sin(math.radians(45))
    walls = tuple(Wall(f"W{i}", Rect((x * c - y * s, x * s + y * c), size, 45.0)) for i, ((x, y), size) in enumerate(pieces))
    return Arena(name="gapped", bounds=Rect((0.0, 0.0), (22.0, 16.0)), walls=walls,
                 checkpoints=(Checkpoint("A", "outlying", Circle((0.0, 0.0), 0.3)),),
                 start_positions=(StartPosition(1, (-8.0, -5.0), 0.0),))


def test_a_walled_in_checkpoint_is_proven_unreachable_without_searching() -> None:
    planner = Planner(sealed_arena(), quantum=0.01, minimise="time")
    search = planner.frontier_search(StartSource(1), [A, Goal("checkpoint", "B")])
    assert isinstance(search, FrontierSearch)
    results = search.run()
    assert results[A].status == "unreachable" and A in search.proven
    assert results[Goal("checkpoint", "B")].reachable
    # the full objective (the CLI's) proves it too, at the finest tolerance
    assert Planner(sealed_arena(), quantum=0.01).plan(StartSource(1), A).status == "unreachable"


def test_a_gap_only_a_disc_could_pass_is_proven_sealed() -> None:
    arena = gapped_cage()
    planner = Planner(arena, quantum=0.25, minimise="time")
    assert A in planner.proven_unreachable(StartSource(1), [A])
    # ... while a turbine already facing along the gap gets in
    entrance = 3.0 / 2 + 4.0 + 1.0
    outside = (entrance * math.cos(math.radians(45)), entrance * math.sin(math.radians(45)))
    facing = Arena(**{**arena.__dict__, "start_positions": (StartPosition(1, outside, 225.0),)})
    r = Planner(facing, quantum=0.1, minimise="time", max_turns=8).plan(StartSource(1), A)
    assert r.reachable


def test_avoiding_exclusion_fields_proves_a_goal_behind_one_unreachable() -> None:
    """A checkpoint reachable only through an exclusion field: paid for, it is reachable; with
    --avoid-exclusions it is proven unreachable at once (no runaway search)."""
    arena = avoid_arena()
    assert Planner(arena, quantum=0.1, minimise="time").plan(StartSource(1), A).reachable
    avoid = Planner(arena, quantum=0.01, exclusions="avoid", minimise="time")
    assert A in avoid.proven_unreachable(StartSource(1), [A])
    assert avoid.plan(StartSource(1), A).status == "unreachable"


@pytest.mark.parametrize("minimise", ["time", "time-icons-damage"])
def test_a_search_at_its_memory_limit_answers_undecided(minimise: str) -> None:
    arena = sealed_arena((30.0, 20.0))
    planner = Planner(arena, quantum=0.05, minimise=minimise, limits=SearchLimits(max_bytes=2 << 20))  # type: ignore[arg-type]
    r = planner.plan(StartSource(1), Goal("checkpoint", "B"))
    assert r.status == "undecided" and "memory limit (2 MiB)" in (r.undecided or "")
    exact = Planner(arena, quantum=0.05, minimise="time").plan(StartSource(1), Goal("checkpoint", "B"))
    assert r.horizon is not None and r.horizon <= exact.time  # a true lower bound


def test_a_search_at_its_time_limit_answers_undecided() -> None:
    planner = Planner(sealed_arena(), quantum=0.05, minimise="time", limits=SearchLimits(max_seconds=1e-9))
    r = planner.plan(StartSource(1), Goal("checkpoint", "B"))
    assert r.status == "undecided" and "time limit" in (r.undecided or "")


def test_progress_reports_states_and_a_rising_bound() -> None:
    seen: list[tuple[int, float]] = []
    limits = SearchLimits(progress=lambda n, bound: seen.append((n, bound)), progress_every=0.0)
    Planner(sealed_arena(), quantum=0.1, minimise="time", limits=limits).plan(StartSource(1), Goal("checkpoint", "B"))
    assert len(seen) > 3
    assert [n for n, _ in seen] == sorted(n for n, _ in seen)


def test_a_goal_past_the_turn_limit_is_beyond_not_unreachable() -> None:
    """Far but reachable: with a 2-turn limit the answer is "at least 2 turns", not "unreachable"."""
    arena = Arena(name="long", bounds=Rect((0.0, 0.0), (40.0, 6.0)), turbine=Turbine(speed_delta=1, max_speed=2),
                  checkpoints=(Checkpoint("A", "outlying", Circle((18.0, 0.0), 0.5)),),
                  start_positions=(StartPosition(1, (-18.0, 0.0), 0.0),))
    for minimise in ("time", "time-icons-damage"):
        r = Planner(arena, quantum=0.25, minimise=minimise, max_turns=2).plan(StartSource(1), A)  # type: ignore[arg-type]
        assert r.status == "beyond" and r.horizon == 2
    assert Planner(arena, quantum=0.25, minimise="time", max_turns=30).plan(StartSource(1), A).reachable


@pytest.mark.parametrize("one_way, reverse", [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("minimise", ["time", "time-icons-damage"])
def test_a_gate_boxed_in_by_walls_is_proven_unreachable_without_searching(one_way: bool, reverse: bool,
                                                                          minimise: str) -> None:
    """Issue 36 item 10: a gate inside a 2 x 2 box of walls 0.5 thick ran for minutes while the
    same box around a checkpoint was proven sealed at once.  "In the Middle of a Length of
    Movement..." (walls count only where a length begins or ends) and "Scoring Variants" (a gate
    is crossed by the path): no length that begins and ends outside the box can reach the gate,
    whichever way a one-way gate faces.  The search keeps no state beyond its source."""
    planner = Planner(boxed_gate_arena(one_way=one_way, reverse=reverse), quantum=0.25, minimise=minimise,  # type: ignore[arg-type]
                      limits=capped(100))
    results = planner.plan_from(StartSource(1), [G])
    assert results[G].status == "unreachable"
    assert G in planner.proven_unreachable(StartSource(1), [G])


def test_a_boxed_gate_in_the_default_arena_costs_no_more_search_than_its_neighbour() -> None:
    """The same box and gate added to the shipped default arena (where its six acceleration
    fields made the old proof give up on every gate): the search for the gate and checkpoint M
    keeps exactly the states the search for M alone keeps - the gate is decided by the proof, not
    by exhausting the arena (over two million states at this tolerance)."""
    arena = load("arenas/default.yaml")
    centre = (3.5, 0.0)
    arena = replace(arena, walls=arena.walls + wall_box(centre), gates=(boxed_gate(centre),), symmetry=None)
    M = Goal("checkpoint", "M")
    alone = Planner(arena, quantum=0.25, minimise="time").frontier_search(StartSource(1), [M])
    assert isinstance(alone, FrontierSearch)
    assert alone.run()[M].reachable
    both = Planner(arena, quantum=0.25, minimise="time", limits=capped(10 * alone.store.n)).frontier_search(
        StartSource(1), [G, M])
    assert isinstance(both, FrontierSearch)
    results = both.run()
    assert results[G].status == "unreachable" and G in both.proven and results[M].reachable
    assert both.store.n == alone.store.n


def test_the_gate_proof_leaves_gates_a_turbine_can_reach() -> None:
    """Soundness: the proof only rules out gates no plan reaches.  Walls 0.2 thick let a turning
    length hop into the box (walls count only at a length's ends; a search at tolerance 0.25
    crosses the gate in 4.2 turns); a box with one side open is simply open; a gate in the open
    is never touched by the proof."""
    thin = Planner(boxed_gate_arena(thickness=0.2), quantum=0.25, minimise="time")
    assert G not in thin.proven_unreachable(StartSource(1), [G])
    arena = boxed_gate_arena()
    door = replace(arena, walls=tuple(w for w in arena.walls if not w.id.endswith("E")))
    assert G not in Planner(door, quantum=0.25, minimise="time").proven_unreachable(StartSource(1), [G])
    assert Planner(door, quantum=0.25, minimise="time", max_turns=8).plan(StartSource(1), G).reachable
    assert round(longest_piece(Turbine()), 6) == 1.5  # a length (1) and a whole sideslip (0.5)
