"""Analysis → Tabletop robustness…: the validation verdict under hand placement, in the editor.

The placements (:mod:`validators.robustness`) run in the background: two lanes, each validating
its samples one at a time in a child process (:func:`editor.validation.call_in_child`, forked
from the pre-imported server), with a progress dialog whose Cancel kills the children at once.
Sample ``k`` of a seed is the same placement as in ``arena validate --robustness N --seed S``,
so the figures are the CLI's.  When the run is done the Validation panel shows, for each finding,
the share of placements that have it (and adds the findings the drawn arena does not have but
some placements do); an edit of the arena clears them (they were for the arena as it was).
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QProgressDialog

from editor.background_run import LatestRun
from editor.validation import Cancelled, call_in_child

#: Placements a run draws unless the designer asks for another number.
DEFAULT_SAMPLES = 20
LANES = 2


class _Signals(QObject):
    sample = Signal(int, object)  # run id, Sample
    done = Signal(int, object)  # run id, section dict or error text
    failed = Signal(int, str)


class RobustnessRun(LatestRun, QObject):
    """One run: ``start(arena, n, seed)``; ``progress(done, total)``, then ``finished(section)``
    or ``failed(text)``; :meth:`cancel` stops it (its children are killed)."""

    progress = Signal(int, int)
    finished = Signal(dict)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(LANES + 1)
        self._signals = _Signals(self)
        self._signals.sample.connect(self._sample)
        self._signals.done.connect(self._done)
        self._signals.failed.connect(self._failed)
        self._begin_runs()
        self._samples: list[Any] = []
        self._total = 0
        self._arena: Any = None
        self._settings: Any = None

    def start(self, arena: Any, samples: int, seed: int = 0) -> None:
        from validators.robustness import Settings, hook_of

        self.cancel()
        hook_of(arena)  # LookupError for a game without a hook, before anything starts
        self._id += 1
        self._stop = threading.Event()
        self._samples, self._total, self._arena = [], samples, arena
        self._settings = Settings(samples, seed)
        tol = hook_of(arena).tolerance(arena)
        self.running = True
        run, stop = self._id, self._stop
        for lane in range(min(LANES, samples)):
            indexes = list(range(lane, samples, LANES))
            self.pool.start(lambda ix=indexes: self._lane(run, stop, arena, seed, ix, tol, self._settings.options))

    def _lane(self, run: int, stop: threading.Event, arena: Any, seed: int, indexes: list[int], tol: Any,
              options: Any) -> None:
        from validators.robustness import run_sample

        for k in indexes:
            try:
                sample = call_in_child(run_sample, (arena, seed, k, tol, options), stop.is_set)
            except Cancelled:
                return
            except Exception as exc:  # noqa: BLE001 - shown to the designer
                self._signals.failed.emit(run, str(exc).strip().splitlines()[-1] if str(exc).strip() else repr(exc))
                stop.set()
                return
            self._signals.sample.emit(run, sample)

    def _sample(self, run: int, sample: Any) -> None:
        if run != self._id or not self.running:
            return
        self._samples.append(sample)
        self.progress.emit(len(self._samples), self._total)
        if len(self._samples) == self._total:
            samples = sorted(self._samples, key=lambda s: s.index)
            arena, settings, stop = self._arena, self._settings, self._stop
            self.pool.start(lambda: self._summarise(run, stop, arena, samples, settings))

    def _summarise(self, run: int, stop: threading.Event, arena: Any, samples: list[Any], settings: Any) -> None:
        from validators.robustness import summarise

        try:
            section = call_in_child(summarise, (arena, samples, settings), stop.is_set)
        except Cancelled:
            return
        except Exception as exc:  # noqa: BLE001
            self._signals.failed.emit(run, str(exc).strip().splitlines()[-1] if str(exc).strip() else repr(exc))
            return
        self._signals.done.emit(run, section)



class Robustness(QObject):
    """The menu action, the progress dialog and the link to the Validation panel."""

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.run = RobustnessRun(self)
        self.dialog: QProgressDialog | None = None
        self.arena: Any = None
        self.run.progress.connect(self._progress)
        self.run.finished.connect(self._finished)
        self.run.failed.connect(self._failed)
        win.doc.arenaChanged.connect(self._edited)

    def ask(self) -> None:
        """Ask for the number of placements, then :meth:`start`."""
        n, ok = QInputDialog.getInt(self.win, "Tabletop robustness",
                                    "Placements by hand to validate (within the scenario's placement tolerance):",
                                    DEFAULT_SAMPLES, 1, 1000)
        if ok:
            self.start(n)

    def start(self, samples: int, seed: int = 0) -> bool:
        arena = self.win.doc.arena
        try:
            self.run.start(arena, samples, seed)
        except LookupError as exc:
            self.win.statusBar().showMessage(str(exc), 8000)
            return False
        self.arena = arena
        self.dialog = QProgressDialog("Validating placements by hand…", "Cancel", 0, samples, self.win)
        self.dialog.setWindowTitle("Tabletop robustness")
        self.dialog.setWindowModality(Qt.WindowModality.NonModal)
        self.dialog.setMinimumDuration(0)
        self.dialog.canceled.connect(self.cancel)
        self.dialog.setValue(0)
        return True

    def cancel(self) -> None:
        self.run.cancel()
        self._close()
        self.win.statusBar().showMessage("Tabletop robustness cancelled", 4000)

    def _close(self) -> None:
        if self.dialog is not None:
            dialog, self.dialog = self.dialog, None
            dialog.canceled.disconnect(self.cancel)
            dialog.close()

    def _progress(self, done: int, total: int) -> None:
        if self.dialog is not None:
            self.dialog.setValue(done)
            self.dialog.setLabelText(f"Validating placements by hand… {done} of {total}")

    def _finished(self, section: dict[str, Any]) -> None:
        self._close()
        if self.win.doc.arena is not self.arena:
            return
        self.win.validation.set_robustness(section)
        self.win.overlays.table.set_bands(section)
        self.win.docks["validation"].raise_()
        tol = section["tolerance"]
        self.win.statusBar().showMessage(
            f"Tabletop robustness: {section['validated']} placements within ±{tol['length']:g} {tol['unit']} "
            f"and ±{tol['angle']:g}°", 8000)

    def _failed(self, text: str) -> None:
        self._close()
        self.win.statusBar().showMessage("Tabletop robustness failed: " + text, 8000)

    def _edited(self, *_args: Any) -> None:
        if self.win.doc.arena is not self.arena:
            self.win.validation.set_robustness(None)
            self.win.overlays.table.set_bands(None)

    def shutdown(self) -> None:
        self.run.shutdown()


def install(win: Any) -> Robustness:
    """The Analysis menu's "Tabletop robustness…" action."""
    r = Robustness(win)
    menu = win.menus.get("analysis") or win.menuBar().addMenu("A&nalysis")
    win.menus["analysis"] = menu
    act = QAction("Tabletop &robustness…", win)
    act.setToolTip("Validate the arena with its pieces placed by hand within the scenario's placement tolerance")
    act.triggered.connect(r.ask)
    menu.addAction(act)
    win.act["robustness"] = act
    return r
