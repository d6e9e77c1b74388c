"""The planner's memory bound (issue 40, simulated play): a long-lived planner meets ever new
heading lattices (a rammed turbine ends at a heading off every lattice so far), each several MB
with its heading spaces, so a planner with ``max_lattices`` keeps that many between queries and
lets the least recently used go, one at a time, with their heading spaces - and answers as an
unbounded planner does.  Counted in work units (lattices and heading spaces kept and built),
never in bytes or seconds."""

from __future__ import annotations

import pytest

from engine.gravstrike.motion import Pose
from engine.gravstrike.planner import Goal, Planner, PlanningError, PoseSource, TravelResult
from tests.engine.gravstrike.test_play import corridor

GOALS = [Goal("checkpoint", "B"), Goal("checkpoint", "M")]


def planner() -> Planner:
    return Planner(corridor(), quantum=0.25, minimise="time")


def source(heading: float) -> PoseSource:
    """A turbine at rest left of the wall, facing ``heading`` (off the start's lattice unless a
    multiple of 30): each heading modulo 30 is a lattice of its own."""
    return PoseSource(Pose(-6.0, 1.0, heading), 0)


def test_a_planner_keeps_at_most_its_bound_of_lattices_least_recently_used_first() -> None:
    # six lattice visits, four lattices: 5 and 10 are visited again
    visits = [5.0, 10.0, 35.0, 15.0, 5.0, 20.0, 10.0]
    bounded, unbounded = planner(), planner()
    bounded.max_lattices = 2  # (also a constructor parameter)
    for h in visits:
        got = bounded.plan_from(source(h), GOALS, max_time=6.0)
        assert got == unbounded.plan_from(source(h), GOALS, max_time=6.0), h
        assert bounded.lattice_count <= 2, f"{bounded.lattice_count} lattices kept after heading {h}"
        assert bounded.cspace.space_count <= 2 * 6  # six heading spaces a lattice (h and h + 180 share one)
    assert unbounded.lattice_count == 4 and unbounded.cspace.space_count == 4 * 6  # what grows unbounded
    # least recently used first: 5 | 10 | 35 (= 5: kept, now the most recent) | 15 lets 10 go |
    # 5 kept | 20 lets 15 go | 10 built again, letting 5 go
    assert (bounded.lattices_built, bounded.lattices_evicted) == (5, 3)
    assert bounded.cspace.spaces_built == 5 * 6 and unbounded.cspace.spaces_built == 4 * 6


def test_no_lattice_is_let_go_while_a_search_runs() -> None:
    """A query made while another search of the same planner runs (here from the search's stop
    callback) doesn't let the running search's lattice go: the bound is applied once the last
    running query is over."""
    bounded, unbounded = planner(), planner()
    bounded.max_lattices = 1
    search = bounded.frontier_search(source(5.0), GOALS, max_time=6.0)
    assert search is not None
    kept: list[int] = []
    inner: list[dict[Goal, TravelResult]] = []

    def meanwhile() -> bool:
        if not inner:
            inner.append(bounded.plan_from(source(20.0), GOALS, max_time=6.0))
            kept.append(bounded.lattice_count)
        return False

    search.stop = meanwhile
    outer = search.run()
    assert kept == [2]  # the running search's lattice and the inner query's, until the search ended
    assert bounded.lattice_count == 1 and bounded.lattices_evicted == 1
    assert outer == unbounded.plan_from(source(5.0), GOALS, max_time=6.0)
    assert inner[0] == unbounded.plan_from(source(20.0), GOALS, max_time=6.0)


def test_a_bound_below_one_is_refused() -> None:
    with pytest.raises(PlanningError, match="max_lattices must be at least 1"):
        Planner(corridor(), max_lattices=0)
