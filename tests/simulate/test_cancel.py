"""The runner's ``should_stop`` (the editor's Cancel, issue 40 point 5): it stops a run between
chunks like the time budget does, with the games done so far, and says it was cancelled."""

from __future__ import annotations

from tests.simulate.conftest import toy
from validators.simulate import simulate


def test_should_stop_ends_the_run_with_the_games_done_so_far() -> None:
    arena = toy("unfair")
    asked: list[int] = []

    def stop() -> bool:  # asked before each chunk of one game: stop before the fourth
        asked.append(1)
        return len(asked) > 3

    doc = simulate(arena, 10, 4, workers=1, chunk=1, should_stop=stop).document
    assert doc["complete"] is False and doc["stopped"] == "cancelled"
    assert doc["games_played"] == 3 and doc["games"] == 10
    whole = simulate(arena, 3, 4, workers=1, chunk=1).document  # the same three games
    assert doc["starts"] == whole["starts"] and doc["objectives"] == whole["objectives"]
    never = simulate(arena, 4, 4, workers=1, chunk=1, should_stop=lambda: False).document
    assert never["complete"] and never["stopped"] is None
