"""The faster play engine plays the very same games (issue 40's speed goal): the parity cases of
:mod:`tests.engine.gravstrike.parity` (greedy six-player, look-ahead six-player, greedy three-player
on the default arena) give the JSON and the game records, turn by turn, recorded before the
engine was made faster (``data/play_parity.json``; recorded again, deliberately, when seats the
arena's symmetry maps onto each other began to decide alike - ``symmetric_frames`` and the
disentangling hand - which changes the games, not the speed work's answers)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.gravstrike.parity import CASES, GOLDEN, run


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_same_seed_same_games_as_the_reference_engine(case: tuple[str, str, int, int, int | None, str | None]) -> None:
    want = json.loads(GOLDEN.read_text())[case[0]]
    got = run(case)
    for i, (g, w) in enumerate(zip(got["games"], want["games"])):
        parted = next((t for t, (a, b) in enumerate(zip(g["turns"], w["turns"]), 1) if a != b), None)
        assert parted is None and len(g["turns"]) == len(w["turns"]), (
            f"game {i} parts from the reference at turn {parted} ({len(g['turns'])} turns, want {len(w['turns'])})")
        assert g == w, f"game {i}"
    assert len(got["games"]) == len(want["games"])
    assert got["document"] == want["document"]


def test_planners_that_let_lattices_go_play_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory bound (:data:`engine.gravstrike.play.kit.MAX_LATTICES`, :attr:`engine.gravstrike.
    planner.Planner.max_lattices`): a kit's planner keeps that many heading lattices between
    searches and lets the least recently used go, with their heading spaces - the same games, to
    the turn (a lattice let go and needed again is built again, the same).  Here the bound is 2
    lattices, so lattices are let go and built again and again within the case's games, while the
    distance grid and maps, which don't depend on the heading, are made once a planner."""
    from engine.gravstrike import planner as P
    from engine.gravstrike.play import kit as K
    from schema import load

    built: list[tuple[int, float]] = []
    grids: list[int] = []

    class Counted(P.HeadingLattice):
        def __init__(self, planner: P.Planner, base: float) -> None:
            built.append((id(planner), base))
            super().__init__(planner, base)

    class Grid(P.DistanceGrid):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            grids.append(1)
            super().__init__(*args, **kwargs)

    case = CASES[0]
    want = json.loads(GOLDEN.read_text())[case[0]]
    monkeypatch.setattr(K, "MAX_LATTICES", 2)
    monkeypatch.setattr(P, "HeadingLattice", Counted)
    monkeypatch.setattr(P, "DistanceGrid", Grid)
    K.forget_kits()
    try:
        got = run(case)
        planners = K.kit_for(load(case[1])).planners()
    finally:
        K.forget_kits()
    assert sum(p.lattices_evicted for p in planners) > 0
    assert len(built) > len(set(built))  # lattices let go were needed again, and built again
    assert all(p.lattice_count <= 2 and p.cspace.space_count <= 2 * 6 for p in planners)
    assert len(grids) == len(planners)  # the heading-independent tables stay: no planner made again
    assert got == want
