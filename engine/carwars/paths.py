"""A travel search's answer for one goal: the plan read back from the search's stored states
(each state keeps its parent's id), point by point."""

from __future__ import annotations

import bisect
from typing import Sequence

from engine.carwars.batch import HARD_FLAG, SPEED_MOVE, Batch
from engine.carwars.rules import REVERSE, Maneuver
from engine.carwars.travel import UNITS, Goal, PathStep, TravelResult


class _Rows:
    """Row ``i`` of the states stored in ``parts`` (ids count on from one part to the next)."""

    def __init__(self, parts: Sequence[Batch]) -> None:
        self.parts = parts
        self.starts: list[int] = []
        n = 0
        for part in parts:
            self.starts.append(n)
            n += len(part)
        self.total = n

    def __call__(self, i: int) -> tuple[Batch, int]:
        if not 0 <= i < self.total:
            raise IndexError(i)
        at = bisect.bisect_right(self.starts, i) - 1  # the last part starting at or before i: not empty
        return self.parts[at], i - self.starts[at]


def travel_result(store: Sequence[Batch], maneuvers: Sequence[Maneuver], goal: Goal, i: int) -> TravelResult:
    """The plan ending at stored state ``i``: its time, dice and hard speed changes, and every
    point from the source (the speed choices included)."""
    row = _Rows(store)
    part, j = row(i)
    t, k, s = int(part.t[j]), int(part.k[j]), int(part.s[j])
    steps: list[PathStep] = []
    cur = i
    while True:
        b, r = row(cur)
        parent = int(b.parent[r])
        if parent < 0:
            break
        mv = int(b.move[r])
        bs = int(b.s[r])
        if mv >= SPEED_MOVE:
            label, hard = "speed", mv - SPEED_MOVE >= HARD_FLAG
        else:
            label, hard = ("reverse-" if bs == REVERSE else "") + maneuvers[mv].label, False
        steps.append(PathStep(float(b.x[r]), float(b.y[r]), float(b.h[r]), bs, int(b.t[r]), int(b.k[r]), label,
                              int(b.pdice[r]), hard))
        cur = parent
    steps.reverse()
    time = int(part.time[j])
    return TravelResult(goal, "reached", turns=t, points=k if t > 0 else 0, speed=s, time=time / UNITS,
                        dice=int(part.dice[j]), hard=int(part.hard[j]), path=tuple(steps))
