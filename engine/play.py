"""Simulated play's shared types (issue 40): what a game's play engine takes and gives back.

A game that can be played out implements :class:`PlayEngine` in its own engine package
(``engine/<game>/play.py``) and hands it to the apps through its analysis's
:meth:`validators.game.GameAnalysis.play_hook`.  The engine is a pure function of its inputs
(python-chess / Carltographer style): an arena, a :class:`PlaySetup` and a seed in, a
:class:`GameRecord` out - the same inputs give the same record on any process or machine.
Randomness comes only from ``numpy.random.default_rng(setup.seed)`` (or generators spawned
from it), never from the clock or global state.

Shared code (the runner :mod:`validators.simulate`, the CLI, the service, the editor) reads
only these types; what a piece, a move or an event means in a game stays in that game's
package.  Every game's abstractions (a card game played as an icon budget, a driving roll's
crash chance...) are named parameters of its engine, listed in :attr:`PlayEngine.parameters`
and recorded in ``docs/rules-decisions.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

__all__ = ["CONTACT_KINDS", "TurnGame", "checked_parameters", "play_turns", "whole_turns", "END_REASONS", "EndReason", "Event", "GameRecord", "IllegalMove", "PieceState", "PlayEngine",
           "PlaySetup", "Turn"]

#: Why a game ended: its ``target`` reached (a VP target, the last checkpoint card...), the
#: scenario's ``turn-limit``, ``last-standing`` (every other piece out), or ``work-limit`` (the
#: engine's own bound on moves evaluated stopped it: the record says so and the runner counts
#: the game as incomplete, never as a result).
EndReason = Literal["target", "turn-limit", "last-standing", "work-limit"]
END_REASONS: tuple[EndReason, ...] = ("target", "turn-limit", "last-standing", "work-limit")

#: The event kinds the runner's heat map counts (pieces meeting: a ram, a collision, a touch).
CONTACT_KINDS: tuple[str, ...] = ("ram", "contact")


@dataclass(frozen=True)
class PlaySetup:
    """One game to play: which starts play (1-based start numbers as the arena's file numbers
    them, in seat order), the policy each seat plays (a name from :attr:`PlayEngine.policies`),
    the seed, and the game's own parameters (overrides of :attr:`PlayEngine.parameters`).
    ``max_turns`` caps the game (None: the scenario's limit, else the engine's default) and
    ``max_work`` the engine's evaluations (moves or states looked at) over the whole game, so a
    game is bounded in work, never in seconds."""

    starts: tuple[int, ...]
    policies: tuple[str, ...]
    seed: int
    parameters: Mapping[str, Any] = field(default_factory=dict)
    max_turns: int | None = None
    max_work: int | None = None

    def __post_init__(self) -> None:
        if len(self.starts) != len(self.policies):
            raise ValueError(f"{len(self.starts)} starts but {len(self.policies)} policies")
        if len(set(self.starts)) != len(self.starts):
            raise ValueError(f"a start plays twice: {self.starts}")


@dataclass(frozen=True)
class PieceState:
    """Where one piece is at the end of a turn (or of a phase the game records): its seat's
    start number, position in the arena's units, heading in degrees (0 = +x, counter-clockwise;
    None for games whose pieces have no facing), and the game's own fields (speed, altitude,
    damage, cell...) as plain JSON values."""

    start: int
    x: float
    y: float
    heading: float | None = None
    state: Mapping[str, Any] = field(default_factory=dict)
    out: bool = False


@dataclass(frozen=True)
class Event:
    """Something that happened in a turn: ``kind`` is the game's word (``checkpoint``,
    ``ram``, ``contact``, ``crash``, ``shot``, ``score``, ``eliminated``, ``respawn``,
    ``landed``...); ``start`` the seat it happened to or by; ``other`` the other seat or the
    element id (a checkpoint, a card, a wall); ``x``/``y`` where; ``points`` the score it
    gave (0 when none); ``detail`` a short sentence for people.

    Two conventions the runner (:mod:`validators.simulate`) reads: an event whose ``other``
    is one of :meth:`PlayEngine.objectives` (and whose kind is not a contact) records the seat
    taking that objective - the first such event of a game, in turn and event order, is "who
    took it first"; and an event of a kind in :data:`CONTACT_KINDS` is counted once in the
    contact heat map at ``x``/``y`` (one event per meeting, by the seat that moved into it,
    ``other`` the other seat's start number)."""

    kind: str
    start: int
    x: float
    y: float
    other: str | None = None
    points: float = 0.0
    detail: str = ""


@dataclass(frozen=True)
class Turn:
    """One turn of a game record: the turn number (1-based), every piece's state at its end,
    the events in the order they happened, and the scores after it (start number -> score)."""

    number: int
    pieces: tuple[PieceState, ...]
    events: tuple[Event, ...]
    scores: Mapping[int, float]


@dataclass(frozen=True)
class GameRecord:
    """A whole game: its setup, every turn, how it ended and who won (every seat sharing the
    best final score: a tie for first splits the win), and the work it took (the engine's
    evaluations, for benchmarks and the work bound)."""

    setup: PlaySetup
    turns: tuple[Turn, ...]
    ended: EndReason
    winners: tuple[int, ...]
    work: int

    @property
    def scores(self) -> Mapping[int, float]:
        """The final scores (start number -> score): the last turn's, or 0 each when no turn
        was played."""
        if self.turns:
            return self.turns[-1].scores
        return {s: 0.0 for s in self.setup.starts}

    def to_json(self) -> dict[str, Any]:
        """The record as plain JSON (``arena simulate --record``, the editor's replay)."""
        return {
            "starts": list(self.setup.starts), "policies": list(self.setup.policies), "seed": self.setup.seed,
            "parameters": dict(self.setup.parameters), "ended": self.ended, "winners": list(self.winners),
            "work": self.work,
            "turns": [{"turn": t.number,
                       "pieces": [{"start": p.start, "x": p.x, "y": p.y, "heading": p.heading, "out": p.out,
                                   **({"state": dict(p.state)} if p.state else {})} for p in t.pieces],
                       "events": [{"kind": e.kind, "start": e.start, "x": e.x, "y": e.y, "other": e.other,
                                   "points": e.points, "detail": e.detail} for e in t.events],
                       "scores": {str(k): v for k, v in t.scores.items()}} for t in self.turns],
        }


@dataclass(frozen=True)
class IllegalMove:
    """A move of a record that the game's rules refuse when it is replayed: the turn, the seat
    and why (the rule, in the game's words)."""

    turn: int
    start: int
    reason: str


class PlayEngine(Protocol):
    """A game's play engine (implemented in the game's own engine package).

    Optional, read by the runner when present (not part of the protocol, so an engine need
    not have it): ``balance_tolerance(arena) -> float``, the scenario's tolerance of a start's
    win rate around 1/K (e.g. 0.05: five points either way) for the ``play-balance`` finding;
    without it the runner's default (:data:`validators.simulate.DEFAULT_TOLERANCE`)."""

    #: The policies the engine plays, by name; the first is the default.  Every engine has a
    #: ``greedy`` policy (each piece heads for its next objective by the travel planner's
    #: least-time maps, so that a lone piece's record reaches each objective in ``arena
    #: travel``'s time) and at least one stronger one (look-ahead or rollouts).
    policies: tuple[str, ...]

    #: The engine's named parameters and their defaults (the abstractions of what the arena
    #: cannot say: an icon budget per turn, a hit chance, a crash chance...), each documented
    #: in ``docs/rules-decisions.md``.
    parameters: Mapping[str, Any]

    def seats(self, arena: Any, players: int | None) -> tuple[int, ...]:
        """The start numbers that play at ``players`` (None: the scenario's count), in seat
        order: the scenario's start set for that count where the game has them.
        ``ValueError`` naming the count when the arena cannot seat it."""
        ...

    def play(self, arena: Any, setup: PlaySetup) -> GameRecord:
        """Play one game out.  Pure: the same arena and setup give the same record."""
        ...

    def replay(self, arena: Any, record: GameRecord) -> list[IllegalMove]:
        """Replay ``record`` through the game's own rules checks (not the policy's): every move
        a rule refuses, empty when the whole record is legal."""
        ...

    def objectives(self, arena: Any) -> tuple[str, ...]:
        """The element ids a game's pieces race for (checkpoints, numbered cards, the pit
        centre...), for "who takes it first how often"."""
        ...


class TurnGame(Protocol):
    """What :func:`play_turns` asks of a game's state as its engine plays it turn by turn."""

    turn: int
    turns: list[Turn]
    work: int
    #: One of :data:`END_REASONS` once the game has ended, else None.
    ended: str | None

    def play_turn(self, seats: Any) -> None: ...

    def winners(self) -> tuple[int, ...]: ...


def checked_parameters(game: str, setup: PlaySetup, policies: Mapping[str, Any],
                       parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's parameters with ``setup``'s overrides; ``ValueError`` naming ``game`` for a
    policy or a parameter the engine does not know."""
    bad = [p for p in setup.policies if p not in policies]
    if bad:
        raise ValueError(f"unknown {game} policy {bad[0]!r} (known: {', '.join(policies)})")
    unknown = sorted(set(setup.parameters) - set(parameters))
    if unknown:
        raise ValueError(f"unknown {game} play parameters: {', '.join(unknown)} (known: {', '.join(parameters)})")
    return {**parameters, **setup.parameters}


def play_turns(game: TurnGame, setup: PlaySetup, seats: Any, limit: int) -> GameRecord:
    """Play ``game`` turn by turn with ``seats`` until it ends or ``limit`` turns are played."""
    while game.ended is None and game.turn < limit:
        game.play_turn(seats)
    ended = game.ended or "turn-limit"
    assert ended in END_REASONS, ended
    return GameRecord(setup, tuple(game.turns), ended, game.winners(), game.work)


def whole_turns(record: GameRecord) -> GameRecord:
    """``record`` without a last turn its work bound cut short (``work-limit``), for a replay."""
    return replace(record, turns=record.turns[:-1]) if record.ended == "work-limit" else record
