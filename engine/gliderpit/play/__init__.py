"""Glider-Pit's play engine (issue 40): whole matches of gliders launched into the pit, flown by
the book's Turn Sequence under the movement rules the travel analysis uses, and won by the last
glider (side) airborne - :class:`GliderPitPlay`, the game's :class:`engine.play.PlayEngine`.

* :mod:`.game` - the rules of a turn and the engine's parameters (:data:`PARAMETERS`);
* :mod:`.policies` - ``greedy`` and ``lookahead``;
* :mod:`.replay` - a record checked move by move through the rules.

Combat is not played (docs/rules-decisions.md, "Simulated play: Glider-Pit").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.gliderpit.play.game import PARAMETERS, Game
from engine.gliderpit.play.policies import POLICIES, Seats
from engine.gliderpit.play.replay import replay as replay_record
from engine.play import GameRecord, IllegalMove, PlaySetup, checked_parameters, play_turns, whole_turns
from schema.games.gliderpit import GliderPitArena

__all__ = ["CENTRE", "ENGINE", "GliderPitPlay", "PARAMETERS"]

#: The objective id of the pit centre (the centre hexes, ``engine.gliderpit.pit.Pit.centre_cells``).
CENTRE = "centre"


class GliderPitPlay:
    """Glider-Pit's :class:`engine.play.PlayEngine`; a seat is a launch zone's Airspeed Track."""

    policies: tuple[str, ...] = tuple(POLICIES)
    parameters: Mapping[str, Any] = PARAMETERS

    def seats(self, arena: Any, players: int | None) -> tuple[int, ...]:
        from schema.ruleset import ruleset_of

        slots = ruleset_of(arena).starts
        assert slots is not None  # the game's ruleset has starts
        return slots().seats(arena, players)

    def objectives(self, arena: Any) -> tuple[str, ...]:
        return (CENTRE,)

    def _game(self, arena: GliderPitArena, setup: PlaySetup) -> Game:
        tracks = {z.track for z in arena.launch_zones}
        missing = [k for k in setup.starts if k not in tracks]
        if missing:
            raise ValueError(f"the pit has no launch zone on Airspeed Track {missing[0]}")
        return Game(arena, setup, checked_parameters("Glider-Pit", setup, POLICIES, PARAMETERS))

    def play(self, arena: Any, setup: PlaySetup) -> GameRecord:
        game = self._game(arena, setup)
        seats = Seats({k: POLICIES[p](k) for k, p in zip(setup.starts, setup.policies)})
        return play_turns(game, setup, seats, setup.max_turns or int(game.p["turn_limit"]))

    def replay(self, arena: Any, record: GameRecord) -> list[IllegalMove]:
        game = self._game(arena, replace(record.setup, max_work=None))
        return replay_record(game, whole_turns(record))


ENGINE = GliderPitPlay()
