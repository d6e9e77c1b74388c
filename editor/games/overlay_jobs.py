"""The background machinery of a game's analysis overlays (Car Wars: :mod:`editor.games.carwars.overlays`,
Arena Rex: :mod:`editor.games.arenarex.overlays`).

Each overlay kind (``heat``, ``path``, ``sight``) is computed in a child process
(:func:`editor.validation.call_in_child`) on a thread pool: the window never waits, a newer edit
or choice kills the running child, results of older generations are dropped, and the layers
keep the previous picture until the new one arrives.  Edits are coalesced
(:data:`EDIT_DELAY_MS`).  A subclass says which game it serves (:meth:`OverlayJobs.active`),
what each layer should show (:meth:`~OverlayJobs.params`), the work function of each kind
(:meth:`~OverlayJobs.work`), and how a result is drawn and cleared.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup

from editor.validation import Cancelled, call_in_child

#: After an edit, wait this long for the next one before recomputing (a drag is one job).
EDIT_DELAY_MS = 200
KINDS = ("heat", "path", "sight")


class OverlaySignals(QObject):
    done = Signal(str, int, object)


class OverlayJob(QRunnable):
    def __init__(self, kind: str, generation: int, fn: Callable[..., Any], args: tuple[Any, ...],
                 signals: OverlaySignals) -> None:
        super().__init__()
        self.kind, self.generation, self.fn, self.args, self.signals = kind, generation, fn, args, signals
        self.cancelled = threading.Event()

    def run(self) -> None:
        try:
            result = call_in_child(self.fn, self.args, self.cancelled.is_set)
        except Cancelled:
            return
        except Exception as exc:  # noqa: BLE001 - shown in the key and the status bar
            text = str(exc).strip()
            result = RuntimeError(text.splitlines()[-1] if text else repr(exc))
        self.signals.done.emit(self.kind, self.generation, result)


class JobSlots:
    """One background job per kind: starting one cancels the kind's running job, and each start
    or cancel moves the kind's generation on (answers of older generations are dropped).  Uses
    the owner's ``generation``, ``jobs``, ``pool`` and ``signals``."""

    generation: dict[str, int]
    jobs: dict[str, OverlayJob]
    pool: QThreadPool
    signals: OverlaySignals

    def _start(self, kind: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self._cancel(kind)
        job = OverlayJob(kind, self.generation[kind], fn, args, self.signals)
        self.jobs[kind] = job
        self.pool.start(job)

    def _cancel(self, kind: str) -> None:
        self.generation[kind] += 1
        job = self.jobs.pop(kind, None)
        if job is not None:
            job.cancelled.set()


class OverlayJobs(JobSlots, QObject):
    """The jobs of one game's overlays; ``win`` is the main window and ``legend`` the key
    (``set_state(kind, title, state)``)."""

    message = Signal(str)
    legend: Any

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self.signals = OverlaySignals(self)
        self.signals.done.connect(self._done)
        self.generation = dict.fromkeys(KINDS, 0)
        self.jobs: dict[str, OverlayJob] = {}
        #: What each layer shows or is computing: kind -> (arena, parameters).
        self.wanted: dict[str, tuple[Any, tuple[Any, ...]] | None] = dict.fromkeys(KINDS)
        self.shown: dict[str, tuple[Any, tuple[Any, ...]] | None] = dict.fromkeys(KINDS)
        self.edit_timer = QTimer(self)
        self.edit_timer.setSingleShot(True)
        self.edit_timer.setInterval(EDIT_DELAY_MS)
        self.edit_timer.timeout.connect(self.refresh)

    # -- what a game says
    def active(self) -> bool:
        raise NotImplementedError

    def params(self) -> dict[str, tuple[Any, ...] | None]:
        """What each overlay should show for the current arena and choices (None: nothing)."""
        raise NotImplementedError

    def work(self, kind: str) -> Callable[..., Any]:
        """The Qt-free function computing ``kind`` from ``(arena, *params)``."""
        raise NotImplementedError

    def title(self, kind: str, p: tuple[Any, ...]) -> str:
        raise NotImplementedError

    def draw(self, kind: str, arena: Any, p: tuple[Any, ...], result: Any) -> None:
        """Show ``result`` on the layer of ``kind`` and in the key."""
        raise NotImplementedError

    def clear(self, kind: str) -> None:
        """Hide the layer of ``kind`` and its key entry."""
        raise NotImplementedError

    def kept(self, kind: str, arena: Any) -> bool:
        """Whether the layer of ``kind``, off in :meth:`params`, shows something else to keep."""
        return False

    def notes(self, params: dict[str, tuple[Any, ...] | None]) -> None:
        """Key notes for choices that show nothing (such as "select a start")."""

    # -- jobs
    def refresh(self) -> None:
        """Bring every layer in line with the arena and the choices: start the jobs whose
        answer is not shown yet, hide the layers that are off."""
        self.edit_timer.stop()
        arena = self.win.doc.arena
        params = self.params()
        for kind in KINDS:
            p = params[kind]
            if p is None and self.kept(kind, arena):
                continue
            if p is None:
                self._cancel(kind)
                self.wanted[kind] = self.shown[kind] = None
                self.clear(kind)
                continue
            want = (arena, p)
            shown, wanted = self.shown[kind], self.wanted[kind]
            if shown is not None and shown[0] is arena and shown[1] == p:
                self._cancel(kind)
                self.wanted[kind] = want
                continue
            if wanted is not None and wanted[0] is arena and wanted[1] == p \
                    and kind in self.jobs:
                continue  # already computing it
            self.wanted[kind] = want
            self._start(kind, self.work(kind), (arena, *p))
            self.legend.set_state(kind, self.title(kind, p), "computing")
        self.notes(params)

    def recompute_later(self) -> None:
        """An edit: cancel the jobs of the old arena and recompute once the edits pause (or
        switch everything off at once for another game)."""
        if not self.active():
            self.refresh()
            return
        if any(v is not None for v in self.params().values()):
            for kind in KINDS:  # the running jobs are for the old arena
                if self.wanted[kind] is not None and self.wanted[kind] != self.shown[kind]:
                    self._cancel(kind)
            self.edit_timer.start()

    def _done(self, kind: str, generation: int, result: object) -> None:
        if generation != self.generation[kind]:
            return  # an older choice or arena
        self.jobs.pop(kind, None)
        want = self.wanted[kind]
        if want is None:
            return
        arena, p = want
        title = self.title(kind, p)
        if isinstance(result, Exception):
            self.legend.set_state(kind, title, "failed")
            self.message.emit(f"{title}: failed: {result}")
            return
        self.shown[kind] = want
        self.draw(kind, arena, p, result)

    def busy(self) -> bool:
        return bool(self.jobs) or self.edit_timer.isActive()

    def shutdown(self) -> None:
        self.edit_timer.stop()
        for kind in list(self.jobs):
            self._cancel(kind)
        self.pool.waitForDone(3000)


def fill_choices(owner: QObject, menu: Any, group: QActionGroup, choices: list[tuple[str, object]], current: object,
                 choose: Callable[[Any], None]) -> None:
    """Fill ``menu`` with one checkable entry per (text, value) of ``choices``, exclusive in
    ``group``, ``current``'s checked; choosing one calls ``choose(value)``."""
    menu.clear()
    for act in group.actions():
        group.removeAction(act)
    for text, value in choices:
        act = QAction(text, owner, checkable=True)
        act.setData(value)
        act.setChecked(value == current)
        act.triggered.connect(lambda _c=False, v=value: choose(v))
        group.addAction(act)
        menu.addAction(act)


__all__ = ["EDIT_DELAY_MS", "KINDS", "JobSlots", "OverlayJobs", "fill_choices"]
