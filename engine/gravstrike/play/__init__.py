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
from engine.play import GameRecord, IllegalMove, PlaySetup
from schema.games.gravstrike.model import Arena

__all__ = ["ENGINE", "GravstrikePlay", "PARAMETERS", "play_out"]


def play_out(game: Game) -> GameRecord:
    """Play ``game`` (just made: :class:`Game`) to its end with its setup's policies."""
    setup = game.setup
    seats = Seats({k: POLICIES[p](k) for k, p in zip(setup.starts, setup.policies)})
    limit = setup.max_turns or getattr(game.arena.scenario, "turn_limit", None) or int(game.p["turn_limit"])
    while game.ended is None and game.turn < limit:
        game.play_turn(seats)
    ended = game.ended or "turn-limit"
    return GameRecord(setup, tuple(game.turns), ended, game.winners(), game.work)  # type: ignore[arg-type]


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

    def _parameters(self, setup: PlaySetup) -> dict[str, Any]:
        unknown = sorted(set(setup.parameters) - set(PARAMETERS))
        if unknown:
            raise ValueError(f"unknown Gravstrike play parameters: {', '.join(unknown)} (known: {', '.join(PARAMETERS)})")
        return {**PARAMETERS, **setup.parameters}

    def _game(self, arena: Arena, setup: PlaySetup) -> Game:
        starts = {s.player for s in arena.start_positions}
        missing = [k for k in setup.starts if k not in starts]
        if missing:
            raise ValueError(f"the arena has no start {missing[0]}")
        bad = [p for p in setup.policies if p not in POLICIES]
        if bad:
            raise ValueError(f"unknown Gravstrike policy {bad[0]!r} (known: {', '.join(POLICIES)})")
        return Game(kit_for(arena), setup, self._parameters(setup))

    def play(self, arena: Any, setup: PlaySetup) -> GameRecord:
        return play_out(self._game(arena, setup))

    def replay(self, arena: Any, record: GameRecord) -> list[IllegalMove]:
        game = self._game(arena, replace(record.setup, max_work=None))
        if record.ended == "work-limit":  # its last turn was cut short by the bound: not a whole turn
            record = replace(record, turns=record.turns[:-1])
        return replay_record(game, record)


ENGINE = GravstrikePlay()
