"""Moving Units on the battlefield (engine/mothership/travel.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import square_distance
from engine.mothership.travel import SearchLimits, TravelError, plan, reach
from schema.games.mothership import MothershipArena, default_arena

DEFAULT = default_arena()


def test_one_ap_per_square_orthogonally() -> None:
    """"For every square in which the Units move, they spend 1 AP." (L56)"""
    r = plan(DEFAULT, (0, 0), (2, 4))
    assert (r.status, r.ap, r.rounds) == ("reached", 6, 2)  # one Unit spends at most 5 AP a round (L53)
    assert r.path[0] == (0, 0) and r.path[-1] == (2, 4) and len(r.path) == 7
    assert all(square_distance(a, b) == 1 for a, b in zip(r.path, r.path[1:]))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 8), st.data())
def test_reach_on_a_full_rectangle_is_manhattan(w: int, h: int, data: st.DataObject) -> None:
    arena = MothershipArena(name="r", squares=tuple((x, y) for x in range(w) for y in range(h)))
    src = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
    dist = reach(arena, src)
    assert dist == {s: square_distance(src, s) for s in arena.squares}


def test_enemies_block_and_allies_cost_a_sidestep() -> None:
    """"They can move through ally Units, but if they are on the same plane those must sidestep
    paying 1 AP ... They cannot move through enemy Units on the same plane." (L62)"""
    wall = [(0, 2), (1, 2), (2, 2)]
    assert plan(DEFAULT, (1, 0), "approach:2", blocked=wall).status == "unreachable"
    r = plan(DEFAULT, (1, 0), "approach:2", blocked=[(0, 2), (2, 2)], allies=[(1, 2)])
    assert (r.ap, r.path) == (5, ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4)))
    around = plan(DEFAULT, (1, 0), (1, 4), allies=[(1, 2)])
    assert around.ap == 5  # 4 squares + a sidestep, or a 6-square detour: 5 wins
    assert reach(DEFAULT, (1, 0), 2) == {(1, 0): 0, (0, 0): 1, (2, 0): 1, (1, 1): 1, (0, 1): 2, (2, 1): 2, (1, 2): 2}


def test_named_sources_and_goals() -> None:
    assert plan(DEFAULT, "build:1", "approach:2").ap == 4
    assert plan(DEFAULT, "build:2", "build:2").ap == 0
    with pytest.raises(TravelError, match="not on the battlefield"):
        plan(DEFAULT, (5, 5), (0, 0))
    with pytest.raises(TravelError, match="build:P, approach:P"):
        plan(DEFAULT, "start:1", (0, 0))
    with pytest.raises(TravelError, match="no player"):
        plan(DEFAULT, "build:3", (0, 0))
    with pytest.raises(TravelError, match="no goal square given"):
        plan(DEFAULT, (0, 0), [])


def test_search_is_bounded() -> None:
    big = replace(DEFAULT, squares=tuple((x, y) for x in range(60) for y in range(60)))
    r = plan(big, (0, 0), (59, 59), limits=SearchLimits(max_states=100))
    assert r.status == "undecided" and r.undecided is not None
    assert plan(big, (0, 0), (59, 59)).ap == 118
