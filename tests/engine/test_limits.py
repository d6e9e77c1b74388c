"""Travel analysis always answers: sealed goals are proven unreachable before any search, every
search is bounded in memory and time and says so when it stops, and a goal past the turn limit
is "beyond", never "unreachable".

Rules: "Ramming" (plans never ram, so a goal walled in is unreachable), "Exclusion Fields"
(avoided on request), "Maneuvering" and "Pivots" (the headings a footprint can take)."""

from __future__ import annotations

import math

import pytest

from engine.gravstrike.frontier import FrontierSearch
from engine.gravstrike.planner import Goal, Planner, StartSource
from engine.gravstrike.travel_types import SearchLimits
from schema.model import Arena, Checkpoint, Circle, Rect, StartPosition, Turbine, Wall
from tests.engine.arenas import avoid_arena, sealed_arena

A = Goal("checkpoint", "A")


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
