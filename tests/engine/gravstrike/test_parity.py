"""The faster play engine plays the very same games (issue 40's speed goal): the parity cases of
:mod:`tests.engine.gravstrike.parity` (greedy six-player, look-ahead six-player, greedy three-player
on the default arena) give the JSON and the game records, turn by turn, recorded before the
engine was made faster (``data/play_parity.json``)."""

from __future__ import annotations

import json

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


def test_a_kit_that_lets_its_planner_go_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory bound (:data:`engine.gravstrike.play.kit.MAX_LATTICES`): a kit whose planner
    holds more heading lattices than that lets it go and makes a new one - the same games, to the
    turn (a planner is a pure function of the arena and tier).  Here the bound is 2 lattices, so
    the planner is let go again and again within the case's games."""
    from engine.gravstrike.play import kit as K
    from schema import load

    case = CASES[0]
    want = json.loads(GOLDEN.read_text())[case[0]]
    monkeypatch.setattr(K, "MAX_LATTICES", 2)
    K.forget_kits()
    try:
        got = run(case)
        dropped = K.kit_for(load(case[1])).planners_dropped
    finally:
        K.forget_kits()
    assert dropped > 0
    assert got == want
