"""The time and memory one analysis may use (issue 36, point 9), for every game.

A :class:`Budget` holds the caps of one analysis (:class:`Caps`: wall seconds from its start,
MiB of memory in use by its processes) and answers, when asked, whether one is reached; the
answer is sticky (once over, always over).  The work checks it cooperatively, at bounded
intervals of its own work:

* a search checks :func:`exceeded` where it checks its own limits (states, its time) and,
  when a cap is reached, answers ``undecided`` with the cap as the reason - the verdicts built
  on it say so;
* any other long loop calls :func:`tick`, which raises :class:`AnalysisStopped` once a cap is
  reached; the runner (:mod:`validators.report`) turns that into an undecided finding for the
  validator it stopped and skips the validators after it.

The budget is *ambient*: :func:`active` makes it the current one for the code it runs (a
context variable, so other threads - an editor's - see none, and a process forked inside sees
the same one; the deadline is a moment of the system's monotonic clock, so a forked helper stops
at the same moment).  With no budget active, :func:`tick` and :func:`exceeded` cost one lookup.

The clock and the memory reading are injected (tests use fakes; :mod:`validators.memory` reads
the memory of the analysis's processes), so the cap paths are tested without waiting.

>>> clock = iter([0.0, 1.0, 5.0, 11.0, 12.0]).__next__
>>> b = Budget(Caps(seconds=10.0, memory_mib=None), clock=clock)
>>> b.check(), b.check(), b.check()
(None, None, 'time limit (10 s)')
>>> b.check(), b.left()   # sticky: the clock is not read again
('time limit (10 s)', 0.0)
"""

from __future__ import annotations

import contextvars
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

#: Default caps of one ``arena validate`` (and one service validation: see docs/service.md).
DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY_MIB = 1024.0
#: Seconds of the budget's clock between two memory readings (:mod:`validators.memory` reads
#: the resident sets in microseconds).
MEMORY_EVERY = 0.1
#: Share of the time cap the travel searches may use (:func:`exceeded`): they answer undecided
#: then, and the rest of the time goes to the validators that judge them and the checks that
#: need no travel - so a runaway search leaves the cheap verdicts decided.
SEARCH_SHARE = 0.75


class AnalysisStopped(Exception):
    """A cap of the analysis was reached (:func:`tick`); ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Caps:
    """What one analysis may use: ``seconds`` of wall time and ``memory_mib`` MiB in use by its
    processes (None: no cap)."""

    seconds: float | None = DEFAULT_SECONDS
    memory_mib: float | None = DEFAULT_MEMORY_MIB

    @classmethod
    def none(cls) -> Caps:
        return cls(None, None)

    def describe(self) -> str:
        """The caps in words.

        >>> Caps().describe(), Caps.none().describe()
        ('60 s, 1024 MiB', 'no caps')
        """
        parts = ([] if self.seconds is None else [f"{self.seconds:g} s"]) + \
            ([] if self.memory_mib is None else [f"{self.memory_mib:g} MiB"])
        return ", ".join(parts) or "no caps"


MemoryReading = Callable[[], "float | None"]


class Budget:
    """The caps of one analysis, counted from ``start`` (default: now on ``clock``).

    ``memory()`` gives the MiB in use by the analysis (None: unknown, never over); it is read
    at most once every ``memory_every`` seconds of ``clock``.  ``checks`` counts the checks
    made (tests use it to see that the work looked)."""

    def __init__(self, caps: Caps, *, clock: Callable[[], float] = time.monotonic,
                 memory: MemoryReading | None = None, memory_every: float = MEMORY_EVERY,
                 start: float | None = None) -> None:
        self.caps = caps
        self.clock = clock
        self.memory = memory
        self.memory_every = memory_every
        self.started = clock() if start is None else start
        self.deadline = None if caps.seconds is None else self.started + caps.seconds
        self.search_deadline = None if caps.seconds is None else self.started + SEARCH_SHARE * caps.seconds
        self.reason: str | None = None
        #: The searches' share of the time spent (:meth:`searching`), when it was.
        self.search_reason: str | None = None
        self.checks = 0
        self.memory_peak: float | None = None
        self._next_memory = -math.inf

    def check(self) -> str | None:
        """None while within the caps, else (from then on) which cap was reached."""
        if self.reason is not None:
            return self.reason
        self.checks += 1
        now = self.clock()
        if self.deadline is not None and now >= self.deadline:
            self.reason = f"time limit ({self.caps.seconds:g} s)"
        elif self.memory is not None and self.caps.memory_mib is not None and now >= self._next_memory:
            self._next_memory = now + self.memory_every
            self._over_memory(0.0)
        return self.reason

    def searching(self) -> str | None:
        """For a search: :meth:`check`, or once the searches' share of the time cap
        (:data:`SEARCH_SHARE`) is spent, that (the analysis goes on)."""
        reason = self.check()
        if reason is None and self.search_reason is None and self.search_deadline is not None \
                and self.clock() >= self.search_deadline:
            self.search_reason = f"time limit for searches ({SEARCH_SHARE * (self.caps.seconds or 0):g} s of {self.caps.seconds:g})"
        return reason or self.search_reason

    def _over_memory(self, more_mib: float) -> bool:
        assert self.memory is not None and self.caps.memory_mib is not None
        used = self.memory()
        if used is None:
            return False
        self.memory_peak = used if self.memory_peak is None else max(self.memory_peak, used)
        if used + more_mib > self.caps.memory_mib:
            self.reason = f"memory limit ({self.caps.memory_mib:g} MiB)"
            return True
        return False

    def reserve(self, mib: float) -> str | None:
        """Before allocating about ``mib`` MiB at once: the cap it would pass (which stops the
        analysis, as :meth:`check` does), else None.  Reads the memory now."""
        if self.check() is None and self.memory is not None and self.caps.memory_mib is not None:
            self._over_memory(mib)
        return self.reason

    def left(self) -> float | None:
        """Seconds left before the time cap (None: no time cap)."""
        if self.deadline is None:
            return None
        if self.reason is not None and self.reason.startswith("time"):
            return 0.0
        return max(0.0, self.deadline - self.clock())

    def __repr__(self) -> str:
        return f"Budget({self.caps.describe()}, reason={self.reason!r})"


_CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("arena_budget", default=None)


def current() -> Budget | None:
    """The budget of the analysis this code runs in, if any."""
    return _CURRENT.get()


@contextmanager
def active(budget: Budget | None) -> Iterator[Budget | None]:
    """Make ``budget`` the current one while the block runs (None: no budget)."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def tick(search: bool = False) -> None:
    """Raise :class:`AnalysisStopped` when the current analysis's budget is spent (``search``:
    travel work - a search's set-up - which stops at the searches' share of the time, as
    :func:`exceeded` does)."""
    b = _CURRENT.get()
    if b is not None:
        reason = b.searching() if search else b.check()
        if reason is not None:
            raise AnalysisStopped(reason)


def reached() -> str | None:
    """Which cap of the current analysis is reached (None: none, or no budget); the searches'
    share of the time does not count (the runner asks this before each validator)."""
    b = _CURRENT.get()
    return None if b is None else b.check()


def exceeded() -> str | None:
    """For a search, which answers ``undecided`` with it rather than raising: the cap of the
    current analysis reached, or the searches' share of its time spent (:meth:`Budget.searching`;
    None: neither, or no budget)."""
    b = _CURRENT.get()
    return None if b is None else b.searching()


def room(mib: float) -> str | None:
    """For a search about to allocate about ``mib`` MiB at once: the cap that would pass (it
    answers undecided then), else None."""
    b = _CURRENT.get()
    return None if b is None else b.reserve(mib)


def reserve(mib: float) -> None:
    """Raise :class:`AnalysisStopped` if allocating about ``mib`` MiB would pass the current
    analysis's memory cap."""
    b = _CURRENT.get()
    if b is not None:
        reason = b.reserve(mib)
        if reason is not None:
            raise AnalysisStopped(reason)
