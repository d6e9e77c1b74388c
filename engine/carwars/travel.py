"""The Car Wars travel planner's value types: sources, goals, limits, results and reach maps.

Time is measured in turns: a goal reached at the end of movement point ``k`` of turn ``t``
(1-based) driven at speed ``s`` takes ``t - 1 + k / s`` turns (reverse counts as speed 1).

>>> Goal.parse("card:C1"), Goal.parse("centre").ref, Goal.parse("start:2").ref
(Goal(kind='card', id='C1'), 'centre', 'start:2')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Union

from engine.carwars.motion import Pose
from engine.carwars.rules import START_SPEED

GoalKind = Literal["card", "centre", "start"]
Status = Literal["reached", "unreachable", "beyond", "undecided"]
#: Time unit of the search: 1/60 of a turn (k/s is a whole number of units for s = 1..5).
UNITS = 60


class PlanningError(ValueError):
    """A source or goal the arena doesn't have, or a source the car cannot stand on."""


class SearchStopped(Exception):
    """A search's ``stop`` callback asked it to stop (a newer edit came); it can be resumed."""


@dataclass(frozen=True)
class StartSource:
    """A start position, at the starting speed 2 ("all players set their speed slider to 2")."""

    player: int


@dataclass(frozen=True)
class PoseSource:
    """Any pose, at ``speed`` (-1 = reverse, 0 = stopped, 1..5), having completed a turn."""

    pose: Pose
    speed: int = START_SPEED


Source = Union[StartSource, PoseSource]


@dataclass(frozen=True)
class Goal:
    """``card``: the car's rectangle touches the numbered card ``id``; ``centre``: it covers
    the arena's centre; ``start``: it touches the car standing on start ``id`` (``start:N``) -
    at the end of a movement point (or at the source)."""

    kind: GoalKind
    id: str = ""

    @property
    def ref(self) -> str:
        if self.kind == "centre":
            return "centre"
        return self.id if self.kind == "start" else f"card:{self.id}"

    @classmethod
    def parse(cls, text: str) -> Goal:
        if text == "centre":
            return cls("centre")
        kind, _, ident = text.partition(":")
        if kind not in ("card", "start") or not ident:
            raise PlanningError(f"a goal is card:ID, start:N or centre, not {text!r}")
        return cls(kind, f"start:{ident}" if kind == "start" else ident)  # type: ignore[arg-type]


@dataclass(frozen=True)
class PathStep:
    """One step of a plan: a speed chosen for a turn (``maneuver`` = "speed", ``point`` 0) or a
    movement point driven (its maneuver's label), with the pose after it, the turn's speed, the
    driving roll's dice for that point and whether the speed change was hard."""

    x: float
    y: float
    heading: float
    speed: int
    turn: int
    point: int
    maneuver: str
    dice: int = 0
    hard: bool = False


@dataclass(frozen=True)
class TravelResult:
    """The answer for one goal: ``reached`` (the plan: ``turns``, ``points`` moved in the last
    turn, its ``speed``, ``time``, driving-roll ``dice`` and ``hard`` speed changes on the way,
    the ``path``), ``unreachable`` (proven: no plan reaches it without a collision), ``beyond``
    (not within the horizon: at least ``horizon`` turns away) or ``undecided`` (a search limit
    stopped it first; ``undecided`` says which, ``horizon`` how far it had looked)."""

    goal: Goal
    status: Status
    turns: int = 0
    points: int = 0
    speed: int = 0
    time: float = math.inf
    dice: int = 0
    hard: int = 0
    path: tuple[PathStep, ...] = ()
    horizon: float | None = None
    undecided: str | None = None

    @property
    def reachable(self) -> bool:
        return self.status == "reached"

    def key(self) -> tuple[float, int, int]:
        """What the planner minimises, in order: time, dice, hard speed changes."""
        return (round(self.time, 9), self.dice, self.hard)


@dataclass(frozen=True)
class SearchLimits:
    """What one search may use before answering ``undecided``: ``max_states`` expanded states,
    ``max_seconds`` of wall time (None: no limit)."""

    max_states: int = 400_000
    max_seconds: float | None = None


@dataclass(frozen=True)
class ReachMap:
    """Earliest time (turns) at which the car's centre ends a movement point in each square
    ``cell`` inches wide: ``times[i, j]`` covers x in [x0 + i*cell, x0 + (i+1)*cell), likewise
    y; ``inf`` = not reached within the limit.  ``complete`` is False when a state cap cut the
    search short (the times are then upper bounds)."""

    x0: float
    y0: float
    cell: float
    times: Any  # numpy float array (nx, ny)
    complete: bool = True

    def at(self, x: float, y: float) -> float:
        i, j = int((x - self.x0) // self.cell), int((y - self.y0) // self.cell)
        nx, ny = self.times.shape
        return float(self.times[i, j]) if 0 <= i < nx and 0 <= j < ny else math.inf
