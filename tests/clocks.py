"""Clocks for tests that must not depend on the machine's speed (issue 36, point 15): a search or a
job whose budget is in seconds is given a clock that moves by a fixed step at each reading, so its
budget becomes a number of readings - a fixed amount of work - on any machine, loaded or not."""

from __future__ import annotations

import time
import types


class CountingClock:
    """A monotonic clock that reads ``step`` seconds more each time it is read (``step`` 0: a
    frozen clock, a budget never runs out)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        now = self.readings * self.step
        self.readings += 1
        return now


def counting_time(step: float) -> types.SimpleNamespace:
    """A stand-in for the ``time`` module of a module that reads ``time.monotonic()`` for its
    budget: :class:`CountingClock` ``step`` for ``monotonic``, the real ``perf_counter``, ``time``
    and ``sleep``."""
    return types.SimpleNamespace(monotonic=CountingClock(step), perf_counter=time.perf_counter, time=time.time,
                                 sleep=time.sleep)
