"""The travel planner's value types: sources, goals, results and reach maps.

>>> Goal.parse("gate:G1"), StartSource(2)
(Goal(kind='gate', id='G1'), StartSource(player=2))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Union

from engine.gravstrike.motion import EngineError, Pose

GoalKind = Literal["checkpoint", "gate", "start", "target"]
#: A time (in 1/scale turns) beyond any real plan: "unreachable" for the heuristic.
UNBOUNDED = 1 << 40


class PlanningError(EngineError):
    """A source or goal the arena doesn't have, or an impossible request."""


@dataclass(frozen=True)
class StartSource:
    """A start position: its position and facing, speed 0."""

    player: int


@dataclass(frozen=True)
class PoseSource:
    """Any pose, already moving at ``speed`` (-max_speed..max_speed; negative = in reverse)."""

    pose: Pose
    speed: int = 0


@dataclass(frozen=True)
class CheckpointSource:
    """A checkpoint's centre at max speed, with the best of the 12 headings k*30 degrees."""

    checkpoint: str


Source = Union[StartSource, PoseSource, CheckpointSource]


@dataclass(frozen=True)
class Goal:
    """``checkpoint``/``start``/``target``: the footprint touches it at the end of a length (a
    start's footprint; a target's point - touching or covering it); ``gate``: the centre's path
    of a length crosses it, in the scoring direction if one-way.

    >>> Goal.parse("checkpoint:A"), Goal.parse("start:2").ref
    (Goal(kind='checkpoint', id='A'), 'start:2')
    """

    kind: GoalKind
    id: str

    @property
    def ref(self) -> str:
        return self.id if self.kind == "start" else f"{self.kind}:{self.id}"

    @classmethod
    def parse(cls, text: str) -> Goal:
        kind, _, ident = text.partition(":")
        if kind not in ("checkpoint", "gate", "start", "target") or not ident:
            raise PlanningError(f"a goal is checkpoint:ID, gate:ID, start:N or target:ID, not {text!r}")
        return cls(kind, f"start:{ident}" if kind == "start" else ident)  # type: ignore[arg-type]


@dataclass(frozen=True)
class PathStep:
    """The pose and speed after a length (or after a field push, ``pushed_by`` = field id);
    ``speed`` is negative for lengths moved in reverse."""

    x: float
    y: float
    heading: float
    speed: int
    turn: int
    length: int
    maneuver: str
    pushed_by: str | None = None


Status = Literal["reached", "unreachable", "beyond", "undecided"]


@dataclass(frozen=True)
class TravelResult:
    """The answer for one goal.  :attr:`status` says which of four it is: ``reached`` (the
    fastest plan: ``turns``, ``lengths``, ``speed``, ``time``, ``icons``, ``damage``, ``path``),
    ``unreachable`` (proven: no plan reaches it without ramming), ``beyond`` (not within the
    search's horizon: at least ``horizon`` turns away, or unreachable) or ``undecided`` (the
    search hit a limit first; ``undecided`` says which, ``horizon`` how far it had looked)."""

    goal: Goal
    reachable: bool
    turns: int = 0
    lengths: int = 0
    speed: int = 0
    time: float = math.inf
    icons: int = 0
    damage: int = 0
    path: tuple[PathStep, ...] = ()
    #: Set when the goal was not reached within the search's horizon (``max_time``, or
    #: ``max_turns``) or before it stopped at a limit: the goal is at least this far (or unreachable).
    horizon: float | None = None
    #: Set when a limit (memory, time, states) stopped the search before it could decide.
    undecided: str | None = None

    @property
    def status(self) -> Status:
        if self.reachable:
            return "reached"
        if self.undecided is not None:
            return "undecided"
        return "unreachable" if self.horizon is None else "beyond"

    def key(self) -> tuple[float, int, int]:
        """What the planner minimises, in order."""
        return (round(self.time, 9), self.icons, self.damage)


#: Default memory cap of one search (bytes): :class:`SearchLimits`.
DEFAULT_MAX_BYTES = 1 << 30


@dataclass(frozen=True)
class SearchLimits:
    """What one search may use before it stops and answers ``undecided`` for the goals it has
    not settled: ``max_bytes`` of the states it keeps (default 1 GiB) and ``max_seconds`` of wall
    time (None = no limit); every search also stops at the caps of the analysis it runs in
    (:mod:`engine.budget`: a time and a memory cap shared by all its searches and processes).
    ``progress`` is called about twice a second during long searches with (states kept, best
    time bound in turns)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_seconds: float | None = None
    progress: Any = None
    #: Seconds between two ``progress`` calls.
    progress_every: float = 0.5

    def describe_bytes(self) -> str:
        return _size(self.max_bytes)


def _size(n: float) -> str:
    """A byte count for people.

    >>> _size(1 << 30), _size(3 * (1 << 20))
    ('1 GiB', '3 MiB')
    """
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} GiB"  # pragma: no cover


@dataclass(frozen=True)
class ReachMap:
    """Earliest time (turns) at which the centre ends a length in each ``cell``-sized square;
    ``times[i, j]`` covers x in [x0 + i*cell, x0 + (i+1)*cell), likewise y; ``inf`` = not
    reached within the horizon.  ``stopped``: the limit that ended the search before the horizon
    (the times are then what it had settled); None: complete."""

    x0: float
    y0: float
    cell: float
    times: Any  # numpy float array (nx, ny)
    stopped: str | None = None

    def at(self, x: float, y: float) -> float:
        i, j = int((x - self.x0) // self.cell), int((y - self.y0) // self.cell)
        nx, ny = self.times.shape
        return float(self.times[i, j]) if 0 <= i < nx and 0 <= j < ny else math.inf
