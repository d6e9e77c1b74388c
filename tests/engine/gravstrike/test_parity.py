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
