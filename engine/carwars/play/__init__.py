"""Car Wars' play engine (issue 40): whole races of cars taking the numbered checkpoint cards in
order under the book's movement, driving rolls and collisions - :class:`CarWarsPlay`, the game's
:class:`engine.play.PlayEngine`.

* :mod:`.kit` - what every game on an arena shares (geometry, the travel planners, cached plans);
* :mod:`.game` - the rules of a round and the engine's parameters (:data:`PARAMETERS`);
* :mod:`.policies` - ``greedy`` and ``lookahead``;
* :mod:`.replay` - a record checked move by move through the rules.

What the book leaves out (the dice's faces, the dashboard's CONTROL icons, how a race is won)
is a named parameter or a decision in docs/rules-decisions.md, "Simulated play: Car Wars".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.carwars.play.game import PARAMETERS, Game
from engine.carwars.play.kit import kit_for
from engine.carwars.play.policies import POLICIES, Seats
from engine.carwars.play.replay import replay as replay_record
from engine.play import GameRecord, IllegalMove, PlaySetup, checked_parameters, play_turns, whole_turns
from schema.games.carwars import CarWarsArena

__all__ = ["ENGINE", "CarWarsPlay", "PARAMETERS"]


class CarWarsPlay:
    """Car Wars' :class:`engine.play.PlayEngine`."""

    policies: tuple[str, ...] = tuple(POLICIES)
    parameters: Mapping[str, Any] = PARAMETERS

    def seats(self, arena: Any, players: int | None) -> tuple[int, ...]:
        from schema.ruleset import ruleset_of

        slots = ruleset_of(arena).starts
        assert slots is not None  # the game's ruleset has starts
        return slots().seats(arena, players)

    def objectives(self, arena: Any) -> tuple[str, ...]:
        return tuple(c.id for c in kit_for(arena).cards)

    def _game(self, arena: CarWarsArena, setup: PlaySetup) -> Game:
        starts = {s.player for s in arena.start_positions}
        missing = [k for k in setup.starts if k not in starts]
        if missing:
            raise ValueError(f"the arena has no start {missing[0]}")
        values = checked_parameters("Car Wars", setup, POLICIES, PARAMETERS)
        kit = kit_for(arena)
        if not kit.cards:
            raise ValueError("the arena has no numbered cards to race for")
        return Game(kit, setup, values)

    def play(self, arena: Any, setup: PlaySetup) -> GameRecord:
        game = self._game(arena, setup)
        seats = Seats({k: POLICIES[p](k) for k, p in zip(setup.starts, setup.policies)})
        return play_turns(game, setup, seats, setup.max_turns or int(game.p["turn_limit"]))

    def replay(self, arena: Any, record: GameRecord) -> list[IllegalMove]:
        game = self._game(arena, replace(record.setup, max_work=None))
        return replay_record(game, whole_turns(record))


ENGINE = CarWarsPlay()
