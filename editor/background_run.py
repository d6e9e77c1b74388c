"""What the editor's one-at-a-time background runs share (Analysis → Tabletop robustness…,
File → Generate arena…): each start takes a new id and a new stop event; answers of an older run
are dropped; ``cancel`` stops the running one at once, ``shutdown`` also waits for its threads."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QThreadPool


class LatestRun:
    """Mixin for a QObject with ``finished(object)`` and ``failed(str)`` signals and a ``pool``."""

    #: How long ``shutdown`` waits for the run's threads (ms).
    shutdown_wait = 3000
    pool: QThreadPool
    finished: Any
    failed: Any

    def _begin_runs(self) -> None:
        self._id = 0
        self._stop = threading.Event()
        self.running = False

    def _done(self, run: int, result: Any) -> None:
        if run == self._id and self.running:
            self.running = False
            self.finished.emit(result)

    def _failed(self, run: int, text: str) -> None:
        if run == self._id and self.running:
            self.running = False
            self.failed.emit(text)

    def cancel(self) -> None:
        self._stop.set()
        self.running = False

    def shutdown(self) -> None:
        self.cancel()
        self.pool.waitForDone(self.shutdown_wait)
