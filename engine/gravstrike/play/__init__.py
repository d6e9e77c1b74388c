"""Gravstrike's play engine (issue 40): whole games of turbines racing for checkpoints, played by
the book's turns and scored by its rules - :class:`GravstrikePlay`, the game's
:class:`engine.play.PlayEngine`.

* :mod:`.kit` - what every game on an arena shares (geometry, planners, cached plans);
* :mod:`.game` - the rules of a turn and the engine's parameters (:data:`PARAMETERS`);
* :mod:`.policies` - ``greedy`` and ``lookahead``;
* :mod:`.replay` - a record checked move by move through the rules.

The card game is abstracted (docs/rules-decisions.md, "Simulated play"): a fixed Maneuver-icon
budget a turn, Attack icons drawn from a Poisson law for shots, a deck of cards as the damage a
turbine takes before it explodes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.gravstrike.play.game import PARAMETERS, Game
from engine.gravstrike.play.kit import kit_for
from engine.gravstrike.play.policies import POLICIES, Seats
from engine.gravstrike.play.replay import replay as replay_record
from engine.play import GameRecord, IllegalMove, PlaySetup, checked_parameters, play_turns, whole_turns
from schema.games.gravstrike.model import Arena

__all__ = ["ENGINE", "GravstrikePlay", "PARAMETERS", "play_out"]


def play_out(game: Game) -> GameRecord:
    """Play ``game`` (just made: :class:`Game`) to its end with its setup's policies."""
    setup = game.setup
    seats = Seats({k: POLICIES[p](k) for k, p in zip(setup.starts, setup.policies)})
    limit = setup.max_turns or getattr(game.arena.scenario, "turn_limit", None) or int(game.p["turn_limit"])
    return play_turns(game, setup, seats, limit)


class GravstrikePlay:
    """Gravstrike's :class:`engine.play.PlayEngine`."""

    policies: tuple[str, ...] = tuple(POLICIES)
    parameters: Mapping[str, Any] = PARAMETERS

    def seats(self, arena: Any, players: int | None) -> tuple[int, ...]:
        from schema.ruleset import ruleset_of

        slots = ruleset_of(arena).starts
        assert slots is not None  # the game's ruleset has starts
        return slots().seats(arena, players)

    def objectives(self, arena: Any) -> tuple[str, ...]:
        return tuple(o.id for o in kit_for(arena).objectives)

    def _game(self, arena: Arena, setup: PlaySetup) -> Game:
        starts = {s.player for s in arena.start_positions}
        missing = [k for k in setup.starts if k not in starts]
        if missing:
            raise ValueError(f"the arena has no start {missing[0]}")
        return Game(kit_for(arena), setup, checked_parameters("Gravstrike", setup, POLICIES, PARAMETERS))

    def play(self, arena: Any, setup: PlaySetup) -> GameRecord:
        return play_out(self._game(arena, setup))

    def replay(self, arena: Any, record: GameRecord) -> list[IllegalMove]:
        game = self._game(arena, replace(record.setup, max_work=None))
        return replay_record(game, whole_turns(record))


ENGINE = GravstrikePlay()
