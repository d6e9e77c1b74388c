"""Car Wars validation in one call: sharing the travel searches among processes changes no
answer, and the searches are shared so that each process sets a policy's planner up once."""

from __future__ import annotations

from dataclasses import replace

from engine.carwars.fairness import Job, lanes
from engine.carwars.validate import validate
from schema.games.carwars import Card, StartPosition, default_arena

S1: Job = ("safe", 1, "all")
F1: Job = ("flat-out", 1, "all")


def test_two_workers_give_exactly_the_one_core_answers() -> None:
    # an asymmetric arena (every start planned), so both processes search
    a = replace(default_arena(), start_positions=(StartPosition(1, (0.0, -14.75), 90.0),
                                                  StartPosition(2, (0.0, 14.75), 270.0)),
                cards=(Card("A", 0, (6.0, 2.0)), Card("B", 1, (-9.0, -3.0), rotation=90.0)))
    one = validate(a, workers=1)
    two = validate(a, workers=2)
    assert one.issues == two.issues
    assert one.table is not None and two.table is not None
    assert one.table.results == two.table.results and one.table.errors == two.table.errors


def _jobs(starts: tuple[int, ...]) -> list[Job]:
    return [("safe", s, "all") for s in starts] + [("flat-out", s, "all") for s in starts]


def test_lanes_keep_each_policy_in_one_process_when_that_is_quicker() -> None:
    assert lanes([S1, F1], 2) == [[S1], [F1]]  # flat-out forked, safe here after the checks
    four = _jobs((1, 2, 3, 4))
    got = lanes(four, 2)
    assert sorted(j for lane in got for j in lane) == sorted(four)
    assert [{j[0] for j in lane} for lane in got] == [{"safe"}, {"flat-out"}]


def test_one_worker_forks_nothing_and_empty_lanes_are_dropped() -> None:
    two = _jobs((1, 2))
    assert lanes(two, 1) == [two[2:] + two[:2]]  # all here, longest (flat-out) first
    assert lanes([S1], 3) == [[], [S1]]  # one job: forked while this process runs the checks
    assert lanes([], 2) == [[]]
