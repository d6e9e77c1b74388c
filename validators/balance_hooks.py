"""The parts of proposed fixes a game's balance hook needs (:mod:`validators.balance` runs the
search): the :class:`Hook` protocol, a :class:`Seed` (one way to move one element) and
:func:`carry` (a move made symmetric).  Game-neutral and light: the games' validator packages
import it without the validation runner."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.placement import Offset
from validators.findings import Finding
from validators.report import Report

__all__ = ["Hook", "Operation", "Seed", "carry"]


@dataclass(frozen=True)
class Seed:
    """One way to move one element: along the unit vector ``direction`` (a move) or by the sign
    ``turn`` (a turn about its own centre; counter-clockwise when positive); ``why`` says where
    to ("toward checkpoint A")."""

    ref: str
    direction: tuple[float, float] = (0.0, 0.0)
    turn: float = 0.0
    why: str = ""


class Hook(Protocol):
    """A game's balance hook (:meth:`validators.game.GameAnalysis.balance_hook`)."""

    #: The unit of the steps, as printed ("lengths", "in").
    unit: str
    #: What may move: free name -> the element lists (the model's attribute names) it covers.
    free: dict[str, tuple[str, ...]]
    #: Move sizes in the arena's unit and turn sizes in degrees, smallest first (as many turns as
    #: steps, or none for a game whose pieces do not turn).  A hook may also set ``whole_steps =
    #: True`` (a grid game: moves are whole cells, so the search refines only to whole sizes).
    steps: tuple[float, ...]
    turns: tuple[float, ...]

    def seeds(self, arena: Any, finding: Finding, report: Report) -> list[Seed]: ...

    def kind_of(self, arena: Any, ref: str) -> str | None: ...

    def name(self, arena: Any, ref: str) -> str: ...

    def moved(self, arena: Any, ref: str, off: Offset) -> Any: ...

    def images(self, arena: Any, ref: str, off: Offset) -> dict[str, Offset]: ...

    def fits(self, before: Any, after: Any, refs: list[str]) -> bool: ...

    def symmetries(self, arena: Any) -> int:
        """How much of its declared symmetry the arena keeps (more is more): a candidate may not
        keep less than the arena it was made from."""


#: One symmetry operation as :func:`carry` needs it: its linear part (a, b, c, d) - the image of
#: a vector (x, y) is (a x + b y, c x + d y) -, whether it reflects, and the id of the element's
#: image under it (None: the element has none).
Operation = tuple[tuple[float, float, float, float], bool, "str | None"]


def carry(ref: str, off: Offset, operations: Sequence[Operation]) -> dict[str, Offset]:
    """``ref``'s move ``off`` made symmetric: averaged over the operations that map ``ref`` onto
    itself (on a mirror axis only the part along the axis survives, a turn cancels), then carried
    to each image by its operation (a turn reverses under a reflection).  Empty when nothing is
    left of the move.

    >>> quarter = ((0.0, -1.0, 1.0, 0.0), False, "start:2")
    >>> carry("start:1", Offset(1.0, 0.0, 10.0), [quarter])
    {'start:1': Offset(dx=1.0, dy=0.0, dtheta=10.0), 'start:2': Offset(dx=0.0, dy=1.0, dtheta=10.0)}
    >>> carry("start:1", Offset(1.0, 0.5, 10.0), [((-1.0, 0.0, 0.0, 1.0), True, "start:1")])
    {'start:1': Offset(dx=0.0, dy=0.5, dtheta=0.0)}
    """
    def linear(fn: tuple[float, float, float, float], x: float, y: float) -> tuple[float, float]:
        return fn[0] * x + fn[1] * y, fn[2] * x + fn[3] * y

    fixing = [(fn, mirror) for fn, mirror, image in operations if image == ref]
    n = 1 + len(fixing)
    dx = (off.dx + sum(linear(fn, off.dx, off.dy)[0] for fn, _ in fixing)) / n
    dy = (off.dy + sum(linear(fn, off.dx, off.dy)[1] for fn, _ in fixing)) / n
    turn = (off.dtheta + sum(-off.dtheta if mirror else off.dtheta for _, mirror in fixing)) / n
    dx, dy, turn = (0.0 if abs(v) < 1e-12 else v for v in (dx, dy, turn))
    if math.hypot(dx, dy) < 1e-9 and abs(turn) < 1e-9:
        return {}
    out = {ref: Offset(dx, dy, turn)}
    for fn, mirror, image in operations:
        if image is not None and image not in out:
            mx, my = linear(fn, dx, dy)
            out[image] = Offset(0.0 if abs(mx) < 1e-12 else mx, 0.0 if abs(my) < 1e-12 else my,
                                -turn if mirror else turn)
    return out
