"""The generator's worker processes, started before they are needed (issue 42, point 9).

``arena generate`` scores its candidates on spawned worker processes; started when the search
started, each paid for a fresh interpreter and for importing the validation code before its
first candidate, and File → Generate arena… sat at 0 % for that long.  The editor now starts
them when the Generate dialog opens (:meth:`WarmPool.warm`): while the designer chooses the
settings, each worker imports what scoring needs (:func:`validators.generate.warm_worker`), and
the search that follows uses those workers (:meth:`WarmPool.take`).

Bounded and leak-free: one pool per window, of the generator's worker count; an idle pool is
ended after :data:`IDLE_MS`; a cancelled search's pool is killed at once (its candidates being
scored are not waited for) and the next dialog starts another; the window's close kills it.
The workers run at a lower priority (:data:`BACKGROUND_NICE`), so that the window keeps the
cores it needs to paint.  Each worker follows the editor's process (:func:`validators.fanout._worker_init`: it exits
when the editor dies, ``kill -9`` too).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from validators.fanout import Session
from validators.options import GENERATE_WORKERS

#: An unused warm pool ends after this long (ms): the dialog was cancelled, or no search followed.
IDLE_MS = 300_000
#: How much lower a priority the editor's background processes run at (the generator's workers,
#: a proposed fix's search): on a two-core machine they would otherwise take the cores from the
#: window, whose canvas then went unpainted behind the dialogs for seconds.
BACKGROUND_NICE = 5


class _Signals(QObject):
    warmed = Signal(int)  # the pool's generation: one of its workers is ready


class WarmPool(QObject):
    """``warm(system)`` starts the workers (once); ``ready(done, workers)`` as each is warm;
    ``take()`` gives the session to a search, ``give_back(keep)`` ends its use; ``close()``
    kills the workers."""

    ready = Signal(int, int)

    def __init__(self, parent: QObject | None = None, workers: int = GENERATE_WORKERS, idle_ms: int = IDLE_MS) -> None:
        super().__init__(parent)
        self.workers = workers
        self.session: Session | None = None
        self.ready_count = 0
        self.in_use = False
        self._generation = 0
        self._futures: list[Future[Any]] = []
        self._signals = _Signals(self)
        self._signals.warmed.connect(self._warmed)
        self.idle = QTimer(self)
        self.idle.setSingleShot(True)
        self.idle.setInterval(idle_ms)
        self.idle.timeout.connect(self._idle_out)

    @property
    def started(self) -> bool:
        return self.session is not None

    def warm(self, system: str) -> bool:
        """Start the workers for a search of ``system`` unless they run already (or the search
        runs in its own thread: one worker).  True when a pool is there."""
        from validators.generate import warm_worker

        if self.workers < 2:
            return False
        if not self.in_use:
            self.idle.start()
        if self.session is not None:
            return True
        self._generation += 1
        generation, signals = self._generation, self._signals
        session = Session(jobs=self.workers, name="arena-generate", nice=BACKGROUND_NICE).__enter__()
        self.session, self.ready_count = session, 0
        self._futures = session.warm(warm_worker, system)

        def warmed(_fut: Future[Any]) -> None:  # called on the pool's thread: the signal crosses to the UI thread
            signals.warmed.emit(generation)

        for fut in self._futures:
            fut.add_done_callback(warmed)
        return True

    def _warmed(self, generation: int) -> None:
        if generation == self._generation and self.session is not None:
            self.ready_count = min(self.workers, self.ready_count + 1)
            self.ready.emit(self.ready_count, self.workers)

    def status(self) -> str:
        """How far the workers are, in words ("" when all are ready or none is started)."""
        if self.session is None or self.ready_count >= self.workers:
            return ""
        return f"starting {self.workers} worker processes, {self.ready_count} ready"

    def take(self) -> Session | None:
        """The warm session for a search (None when there is none: the search starts its own)."""
        if self.session is None or self.in_use:
            return None
        self.in_use = True
        self.idle.stop()
        return self.session

    def give_back(self, keep: bool = True) -> None:
        """A search ended: keep the workers for the next one (for :data:`IDLE_MS`), or - after a
        cancel, when candidates may still be running on them - kill them."""
        self.in_use = False
        if keep and self.session is not None and not self.session.cancelled:
            self.idle.start()
        else:
            self.close()

    def _idle_out(self) -> None:
        if not self.in_use:
            self.close()

    def close(self) -> None:
        """Kill the workers now (a search using them fails, and is dropped if it was cancelled)."""
        self.idle.stop()
        self._generation += 1
        session, self.session, self.ready_count = self.session, None, 0
        self._futures = []
        if session is not None:
            session.kill()

    def pids(self) -> list[int]:
        return self.session.pids() if self.session is not None else []
