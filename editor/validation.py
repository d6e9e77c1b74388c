"""Background validation: run an ``analyse(arena) -> list[finding dict]`` callable off the
UI thread and publish the newest result.

A finding is a dict ``{code, severity, message, elements: [refs]}`` (severity ``error``,
``warning`` or ``info``). :func:`default_analyse` is **the seam where the fairness
validators plug in**: today it reports the format layer's checks; when the ``validators``
package gains an analysis entry point, add its findings there (or pass another callable to
:class:`ValidationRunner`).

Runs never block the event loop: each request gets a generation number, work happens on a
``QThreadPool`` and results of stale generations are dropped.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from schema import ArenaError, from_document, to_document
from schema.model import Arena

Finding = dict[str, Any]
Analyse = Callable[[Arena], list[Finding]]

_ELEMENT_PTR = re.compile(r"^/(walls|checkpoints|gates|acceleration_fields|exclusion_fields|static_targets|start_positions)/(\d+)")


def refs_for_pointer(arena: Arena, ptr: str) -> list[str]:
    """The element a JSON pointer into the arena document points into (if any)."""
    m = _ELEMENT_PTR.match(ptr)
    if not m:
        return []
    items = getattr(arena, m.group(1))
    i = int(m.group(2))
    return [items[i].id] if i < len(items) else []


def format_findings(arena: Arena) -> list[Finding]:
    """The format layer's checks as findings (errors), located on the elements they are about."""
    try:
        from_document(to_document(arena), source="<arena>")
    except ArenaError as exc:
        return [{"code": "format", "severity": "error", "message": f"{p.pointer or '/'}: {p.message}",
                 "elements": refs_for_pointer(arena, p.pointer)} for p in exc.problems]
    return []


def default_analyse(arena: Arena) -> list[Finding]:
    """SEAM: everything the validation panel shows. Plug the fairness validators in here."""
    return format_findings(arena)


class _Signals(QObject):
    done = Signal(int, object)  # generation, list[Finding] | str (error text)


class _Job(QRunnable):
    def __init__(self, generation: int, arena: Arena, analyse: Analyse, signals: _Signals) -> None:
        super().__init__()
        self.generation, self.arena, self.analyse, self.signals = generation, arena, analyse, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result: object = [normalise(f) for f in self.analyse(self.arena)]
        except Exception:  # noqa: BLE001 - reported in the panel, never crashes the editor
            result = traceback.format_exc(limit=3)
        self.signals.done.emit(self.generation, result)


def normalise(f: Any) -> Finding:
    """Accept dicts or objects with code/severity/message/elements attributes."""
    get = f.get if isinstance(f, dict) else (lambda k, d=None: getattr(f, k, d))
    return {"code": str(get("code", "")), "severity": str(get("severity", "warning")),
            "message": str(get("message", "")), "elements": [str(e) for e in (get("elements", []) or [])]}


class ValidationRunner(QObject):
    """``request(arena)`` debounces, then runs ``analyse`` in the pool; ``finished`` carries
    the newest generation's findings; ``failed`` an error text; ``started`` a generation."""

    started = Signal(int)
    finished = Signal(list)
    failed = Signal(str)

    def __init__(self, analyse: Analyse = default_analyse, parent: QObject | None = None,
                 debounce_ms: int = 250) -> None:
        super().__init__(parent)
        self.analyse = analyse
        self.generation = 0
        self.completed_generation = 0
        self.findings: list[Finding] = []
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.done.connect(self._done)
        self._pending: Arena | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._launch)

    @property
    def busy(self) -> bool:
        return self.completed_generation < self.generation or self._timer.isActive()

    def request(self, arena: Arena) -> None:
        """Validate ``arena`` soon (coalescing quick successive edits)."""
        self._pending = arena
        self._timer.start()

    def run_now(self, arena: Arena) -> int:
        """Start a run immediately; returns its generation."""
        self._timer.stop()
        self._pending = arena
        return self._launch()

    def _launch(self) -> int:
        arena, self._pending = self._pending, None
        if arena is None:
            return self.generation
        self.generation += 1
        self.pool.clear()  # queued-but-unstarted older runs are dropped
        self.pool.start(_Job(self.generation, arena, self.analyse, self._signals))
        self.started.emit(self.generation)
        return self.generation

    def _done(self, generation: int, result: object) -> None:
        if generation != self.generation:
            return  # stale: a newer run was requested meanwhile
        self.completed_generation = generation
        if isinstance(result, str):
            self.failed.emit(result)
            return
        assert isinstance(result, list)
        self.findings = result
        self.finished.emit(result)

    def shutdown(self) -> None:
        self._timer.stop()
        self.pool.clear()
        self.pool.waitForDone(5000)
