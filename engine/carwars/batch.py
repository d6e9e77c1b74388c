"""The travel search's working data: states as two column-major matrices."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from engine.carwars.heuristic import IntArray
from engine.carwars.rules import REVERSE

#: The columns of a batch of states: floats (pose, and the pose it left) and integers.
FIELDS_F = ("x", "y", "h", "px", "py", "ph")
FIELDS_I = ("s", "k", "t", "time", "dice", "hard", "parent", "move", "pdice", "checked")
#: ``move`` codes >= SPEED_MOVE are speed choices: SPEED_MOVE + new speed + 1 (+ HARD_FLAG).
SPEED_MOVE = 1000
HARD_FLAG = 100
BIG = 1 << 40
#: Bits of the dice in a bucket key: buckets are (time bound, dice so far).
DICE_BITS = 21


def state_points(s: IntArray) -> IntArray:
    out: IntArray = np.where(s == REVERSE, 1, s)
    return out


class Batch:
    """States as two column-major matrices (see FIELDS_F / FIELDS_I); columns read as
    attributes (``b.x``, ``b.dice``)."""

    __slots__ = ("F", "I")

    def __init__(self, F: Any = None, I: Any = None, **cols: Any) -> None:  # noqa: E741
        if F is not None:
            self.F, self.I = F, I
            return
        n = len(cols["x"])
        self.F = np.empty((len(FIELDS_F), n))
        self.I = np.empty((len(FIELDS_I), n), dtype=np.int64)
        for j, c in enumerate(FIELDS_F):
            self.F[j] = cols[c]
        for j, c in enumerate(FIELDS_I):
            self.I[j] = cols[c]

    def __len__(self) -> int:
        return int(self.F.shape[1])

    def set(self, name: str, values: Any) -> None:
        self.I[FIELDS_I.index(name)] = values

    def take(self, idx: Any) -> Batch:
        return Batch(self.F[:, idx], self.I[:, idx])

    def slice(self, a: int, z: int) -> Batch:
        return Batch(self.F[:, a:z], self.I[:, a:z])

    @staticmethod
    def concat(parts: Sequence[Batch]) -> Batch:
        if len(parts) == 1:
            return parts[0]
        return Batch(np.concatenate([p.F for p in parts], axis=1), np.concatenate([p.I for p in parts], axis=1))

    # typed column views
    x = property(lambda self: self.F[0])
    y = property(lambda self: self.F[1])
    h = property(lambda self: self.F[2])
    px = property(lambda self: self.F[3])
    py = property(lambda self: self.F[4])
    ph = property(lambda self: self.F[5])
    s = property(lambda self: self.I[0])
    k = property(lambda self: self.I[1])
    t = property(lambda self: self.I[2])
    time = property(lambda self: self.I[3])
    dice = property(lambda self: self.I[4])
    hard = property(lambda self: self.I[5])
    parent = property(lambda self: self.I[6])
    move = property(lambda self: self.I[7])
    pdice = property(lambda self: self.I[8])
    checked = property(lambda self: self.I[9])
