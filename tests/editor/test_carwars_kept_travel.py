"""The editor's Car Wars travel stage runs on persistent workers that keep their searches
(:mod:`editor.games.carwars.kept_travel`): its findings after a card drag are a cold run's, whether one
worker holds every search or two share them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from editor.analysis import Cancelled
from editor.games.carwars.analysis import slow_findings
from editor.games.carwars.kept_travel import CarWarsKept, CarWarsTravel
from engine.carwars import fairness as fair
from engine.carwars.kept import merged
from engine.carwars.rules import POLICIES
from schema.io import load

SHIPPED = Path(__file__).parents[1] / "carwars" / "data" / "shipped"


def dragged(base, dx: float):  # type: ignore[no-untyped-def]
    card = base.cards[0]
    return dataclasses.replace(base, cards=(dataclasses.replace(card, position=(card.position[0] + dx,
                                                                               card.position[1])),) + base.cards[1:])


@pytest.mark.parametrize("stage", [CarWarsKept, CarWarsTravel])
def test_the_worker_finds_what_a_cold_run_finds(stage) -> None:  # type: ignore[no-untyped-def]
    """The flawed yard has a card no car reaches: not every answer is ``reached``, so the cold
    table decides (with two workers: the first computes it)."""
    base = load(str(SHIPPED / "broken-yard-flawed.yaml"))
    drag = dragged(base, 0.5)
    live = stage()
    try:
        first = live(base)
        assert first and first == slow_findings(base)  # the flawed yard trips travel checks
        live.submit(drag)
        with pytest.raises(Cancelled):
            live(drag, should_stop=lambda: True)
        assert live(drag) == slow_findings(drag)
    finally:
        live.close()


def answers(t):  # type: ignore[no-untyped-def]
    return {(p, s, g): (r.status, r.key(), r.turns, r.points, r.speed) for p, rows in t.results.items()
            for s, row in rows.items() for g, r in row.items()}


def test_two_workers_share_the_searches_and_answer_as_one_cold_run() -> None:
    """Twin Pillars: every answer reached, so each worker answers its share of the (policy,
    start) searches (resumed after each drag), and the joined table is a cold run's."""
    base = load(str(SHIPPED / "twin-pillars-2p.yaml"))
    live = CarWarsTravel()
    try:
        for arena in (base, dragged(base, 0.5), dragged(base, 1.5), dragged(base, -2.0)):
            live.submit(arena)
            got = [part.answer(arena) for part in live.parts]
            shares = [share for share, _ in got]
            assert [sorted(share) for share in shares] == [[("flat-out", "start:2"), ("safe", "start:1")],
                                                           [("flat-out", "start:1"), ("safe", "start:2")]]
            assert answers(merged(arena, POLICIES, shares, got[0][1])) == answers(fair.travel_table(arena))
            assert live(arena) == slow_findings(arena)
    finally:
        live.close()


def test_the_car_wars_travel_stage_is_named_travel_checks_in_the_status() -> None:
    """The status line names the stage still running from the stage itself: Car Wars' two-worker
    travel stage says "travel checks" (as Gravstrike's), Arena Rex's "fairness checks"."""
    from editor.games.carwars.kept_travel import CarWarsTravel
    from editor.games.arenarex.analysis import RexFairness
    from editor.validation import stage_name

    assert stage_name(CarWarsTravel()) == "travel checks"
    assert stage_name(RexFairness()) == "fairness checks"


def test_a_worker_loads_its_compiled_loops_after_its_first_answer() -> None:
    """:func:`serve_loop`'s ``idle`` (the Car Wars workers load numba there): once, after the
    first reply, when no request waits - never before the arena's first findings are sent."""
    import queue

    from editor.kept_worker import serve_loop
    from engine.budget import Caps

    requests: queue.Queue[tuple[object, ...]] = queue.Queue()
    sent: list[tuple[object, ...]] = []

    class Replies:
        def send(self, msg: tuple[object, ...]) -> None:
            sent.append(msg)

    calls: list[int] = []

    def idle() -> None:
        calls.append(len(sent))
        requests.put(("run", 2, "b", Caps()))
        requests.put(("quit",))

    requests.put(("run", 1, "a", Caps()))  # a request ends with its caps
    serve_loop(requests, Replies(), lambda msg: str(msg[2]).upper(), idle=idle)
    assert calls == [1]  # after the first answer, once
    assert sent == [("ok", 1, "A")]  # the second request came with "quit" behind it: dropped


def test_the_travel_stage_names_what_its_searches_left_open_as_arena_validate_does() -> None:
    """Issue 36 point 6, in the editor: Crossroads doubled to 6 ft, whose start-to-start
    searches stop at their state limit (20 000 here), showed "No findings" in the panel while
    ``arena validate`` reported them. The travel stage's findings carry the same
    ``analysis-limit`` warnings as the report's."""
    from editor.analysis import normalise
    from editor.games.carwars.analysis import slow_findings
    from engine.carwars.travel import SearchLimits
    from tests.runaway import crossroads_six_feet
    from validators.games.carwars.context import CarWarsContext
    from validators.games.carwars.run import validate

    arena, limits = crossroads_six_feet(), SearchLimits(max_states=20_000)
    ctx = CarWarsContext(arena, limits=limits)
    report = validate(arena, limits=limits, context=ctx)
    expected = [normalise(f) for f in report.findings if f.code == "analysis-limit"]
    assert expected and "state limit (20,000 states)" in expected[0]["message"]
    found = slow_findings(arena, lambda _arena: ctx.table, limits)
    assert [f for f in found if f["code"] == "analysis-limit"] == expected
