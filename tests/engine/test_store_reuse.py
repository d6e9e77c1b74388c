"""A finished search hands its state store (emptied, its room kept) and its key table back to
its planner - or, when the editor's session moves to the arena's next version, to the new
planner - so that the next search neither allocates nor grows them.  Reusing them must not
change an answer: the same times and paths as searches with new ones."""

from __future__ import annotations

import dataclasses

from engine.gravstrike.planner import Goal, Planner, StartSource
from schema import load
from validators.games.gravstrike.travel_session import TravelSession

ARENA = load("arenas/examples/lopsided.yaml")


def answers(planner: Planner, player: int) -> dict[Goal, tuple[str, float, list[tuple[float, float]]]]:
    got = planner.plan_from(StartSource(player), [g for g in planner.goals() if g.kind == "checkpoint"])
    return {g: (r.status, round(r.time, 9), [(round(s.x, 9), round(s.y, 9)) for s in r.path]) for g, r in got.items()}


def test_a_second_search_takes_the_first_ones_store_and_answers_as_a_new_one() -> None:
    shared = Planner(ARENA, quantum=0.25, minimise="time")
    first = answers(shared, 1)
    stores = shared.scratch["stores"]
    assert len(stores) == 1 and stores[0].n == 0 and stores[0].cap > 4096  # grown, emptied, kept
    kept = stores[0]
    second = answers(shared, 2)
    assert shared.scratch["stores"] == [kept]  # taken by the second search, then handed back
    assert first == answers(Planner(ARENA, quantum=0.25, minimise="time"), 1)
    assert second == answers(Planner(ARENA, quantum=0.25, minimise="time"), 2)


def test_the_next_version_of_the_arena_takes_the_old_searches_stores_and_tables() -> None:
    session = TravelSession()
    ctx = session.context(ARENA)
    ctx.travel_from("start:1")
    ctx.travel_from("start:2")
    old = session.planner
    assert old is not None and len(session.searches) == 2
    w = ARENA.walls[0]
    moved = dataclasses.replace(ARENA, walls=(dataclasses.replace(w, shape=dataclasses.replace(
        w.shape, center=(w.shape.center[0] + 0.3, w.shape.center[1]))), *ARENA.walls[1:]))
    ctx = session.context(moved)
    new = session.planner
    assert new is not old and not session.searches
    assert len(new.scratch["stores"]) == 2 and len(new.scratch["tables"]) == 2
    got = ctx.travel_from("start:1")
    fresh = TravelSession().context(moved).travel_from("start:1")
    assert {k: (r.status, r.time) for k, r in got.items()} == {k: (r.status, r.time) for k, r in fresh.items()}
