"""File → Generate arena…: the generator (:mod:`validators.generate`) in the editor.

A dialog asks for the game (every ruleset with a generator; the open arena's by default), the
players, the symmetry, the board, the seed, the time budget and a catalogue file; opening it
starts the search's worker processes (:mod:`editor.warm_pool`).  The search runs on a background
thread (its candidates scored on those workers, as ``arena generate --workers 2``) with a
progress dialog that shows at once what is happening (the workers starting, the round being
scored, then the share of the budget) and whose Cancel stops it; the best arena, put on the
window's snap grid where that keeps it legal (:func:`editor.snapping.snap_checked`), opens as a
new untitled document (with the snap grid off: the same arena as ``arena generate`` with the
same settings, when the search finishes before the budget).
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QLineEdit, QProgressDialog, QPushButton, QSpinBox, QWidget)

from editor.background_run import LatestRun
from editor.snapping import snap_checked
from editor.warm_pool import WarmPool
from schema.ruleset import rulesets
from validators.game import analysis

SYMMETRIES = ("(default for the players)", "rotational:2", "rotational:3", "rotational:4", "rotational:5",
              "rotational:6", "mirror", "dihedral:2", "dihedral:3", "dihedral:4")
TABLES = ("(default for the game)", "square", "polygon", "circle")
#: Steps of the progress bar (it shows the share of the budget used).
STEPS = 1000
#: The progress report after the search: the best arena is being put on the snap grid.
SNAPPING = "snapping"


class GenerateDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Generate arena")
        form = QFormLayout(self)
        self.game = QComboBox()
        from editor.game import editor_game

        for rs in sorted(rulesets().values(), key=lambda r: editor_game(r.id).menu_order):  # File → New's order
            if analysis(rs.id).has_generator():
                self.game.addItem(rs.game, rs.id)
        self.table = QComboBox()
        self.table.setEditable(True)
        self.table.addItems(TABLES)
        self.table.setToolTip("Gravstrike: square, polygon or WIDTHxHEIGHT; Arena Rex: circle, square or WIDTHxHEIGHT; "
                                 "Mothership: 3x5 or 5x7")
        self.players = QSpinBox()
        self.players.setRange(2, 6)
        self.players.setValue(4)
        self.symmetry = QComboBox()
        self.symmetry.addItems(SYMMETRIES)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.budget = QDoubleSpinBox()
        self.budget.setRange(1.0, 3600.0)
        self.budget.setValue(120.0)
        self.budget.setSuffix(" s")
        self.catalogue = QLineEdit()
        self.catalogue.setPlaceholderText("the default pieces")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.catalogue)
        row.addWidget(browse)
        self.game.currentIndexChanged.connect(self._game_changed)
        form.addRow("Game", self.game)
        form.addRow("Players", self.players)
        form.addRow("Symmetry", self.symmetry)
        form.addRow("Board", self.table)
        form.addRow("Seed", self.seed)
        form.addRow("Time budget", self.budget)
        form.addRow("Catalogue", row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def choose_game(self, system: str) -> None:
        """Select ``system`` when it has a generator (else keep the choice)."""
        i = self.game.findData(system)
        if i >= 0:
            self.game.setCurrentIndex(i)
            self._game_changed()

    def _game_changed(self) -> None:
        from validators.generate import hook_of

        system = self.game.currentData()
        if system:
            self.players.setValue(int(getattr(hook_of(system), "default_players", 4)))

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Catalogue of pieces", "", "Catalogues (*.yaml *.yml *.json)")
        if path:
            self.catalogue.setText(path)

    def values(self) -> dict[str, Any]:
        sym = self.symmetry.currentText()
        table = self.table.currentText().strip()
        return {"system": self.game.currentData(), "players": self.players.value(),
                "symmetry": None if sym.startswith("(") else sym, "table": None if table.startswith("(") or not table
                else table,
                "seed": self.seed.value(), "budget": self.budget.value(),
                "catalogue": self.catalogue.text().strip() or None}


class _Signals(QObject):
    progress = Signal(int, object)
    done = Signal(int, object)
    failed = Signal(int, str)


class GenerateRun(LatestRun, QObject):
    """One search in the background: ``progress(step)``, then ``finished(outcome)`` or
    ``failed(text)``; :meth:`cancel` stops it."""

    progress = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    shutdown_wait = 30_000

    def __init__(self, parent: QObject | None = None, workers: int = 2) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.workers = workers
        self._signals = _Signals(self)
        def progress(run: int, step: object) -> None:
            if run == self._id and self.running:
                self.progress.emit(step)

        self._signals.progress.connect(progress)
        self._signals.done.connect(self._snapped)
        self._signals.failed.connect(self._failed)
        self.snap_note = ""
        self._begin_runs()

    def start(self, plan: Any, seed: int, budget: float, system: str, session: Any = None,
              step: float = 0.0) -> None:
        """Search (on ``session``'s workers, when given: :class:`editor.warm_pool.WarmPool`);
        then, with a snap ``step``, put the best arena's elements on that grid where that keeps
        it legal (:func:`editor.snapping.snap_checked`; :attr:`snap_note` says what happened)."""
        from validators.generate import generate

        self.cancel()
        self._id += 1
        self._stop = threading.Event()
        run, stop, signals, workers = self._id, self._stop, self._signals, self.workers
        self.running = True
        self.snap_note = ""

        def work() -> None:
            try:
                outcome = generate(system, plan, seed, budget=budget, workers=workers, should_stop=stop.is_set,
                                   progress=lambda step: signals.progress.emit(run, step), session=session)
                note = ""
                if step > 0 and not stop.is_set():
                    signals.progress.emit(run, SNAPPING)
                    got = snap_checked(outcome.arena, [el.id for el in outcome.arena.elements()], step)
                    outcome, note = dataclasses.replace(outcome, arena=got.arena), got.note
            except Exception as exc:  # noqa: BLE001 - shown to the designer (Cancelled included)
                signals.failed.emit(run, str(exc) or type(exc).__name__)
                return
            signals.done.emit(run, (outcome, note))

        self.pool.start(QRunnable.create(work))

    def _snapped(self, run: int, result: tuple[Any, str]) -> None:
        if run == self._id and self.running:
            self.snap_note = result[1]
        self._done(run, result[0])



class Generator(QObject):
    """The menu action, the dialog, the progress dialog and opening the result.  Opening the
    dialog starts the search's workers (:class:`~editor.warm_pool.WarmPool`); the progress dialog
    shows from the first moment what is happening: the workers starting, the round being scored
    (busy), then the share of the budget used."""

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.run = GenerateRun(self)
        self.warm = WarmPool(self, workers=self.run.workers)
        self.progress_dialog: QProgressDialog | None = None
        self.budget = 0.0
        self.last: Any = None
        self.run.progress.connect(self._progress)
        self.run.finished.connect(self._finished)
        self.run.failed.connect(self._failed)
        self.warm.ready.connect(lambda *_: self._show_stage())

    def prewarm(self, system: str) -> None:
        """Start the workers of a search of ``system`` (the dialog is open: a search may follow)."""
        self.warm.workers = self.run.workers
        self.warm.warm(system)

    def ask(self) -> bool:
        dialog = GenerateDialog(self.win)
        dialog.choose_game(self.win.doc.arena.system)
        self.dialog = dialog
        self.prewarm(str(dialog.game.currentData()))
        dialog.game.currentIndexChanged.connect(lambda _i: self.prewarm(str(dialog.game.currentData())))
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.start(**dialog.values())

    def start(self, players: int, symmetry: str | None, seed: int, budget: float, catalogue: str | None,
              system: str | None = None, table: str | None = None) -> bool:
        """Check the settings (a bad catalogue, symmetry or board is shown, nothing starts), then
        search (``system`` None: the window's first game, :func:`editor.game.first_game`)."""
        from schema import ArenaError
        from validators.generate import hook_of

        from editor.balance import snap_step
        from editor.game import first_game

        if system is None:
            system = first_game().system
        try:
            plan = hook_of(system).plan(catalogue, players, symmetry, None, table)
        except ArenaError as exc:
            self.win.show_problems("Cannot read the catalogue", str(exc))
            return False
        except ValueError as exc:
            self.win.show_problems("Cannot generate this arena", str(exc))
            return False
        self.budget = budget
        self.last = None
        if self.run.running:  # a search still running (its dialog closed): ends first, with its workers
            self.run.cancel()
            self.warm.close()
        self.prewarm(system)
        session = self.warm.take()
        step = snap_step(self.win, system)
        self.run.start(plan, seed, budget, system, session=session, step=step)
        dlg = QProgressDialog("Generating: starting…", "Cancel", 0, 0, self.win)  # busy until a candidate is scored
        dlg.setWindowTitle("Generate arena")
        dlg.setWindowModality(Qt.WindowModality.NonModal)
        dlg.setMinimumDuration(0)
        dlg.canceled.connect(self.cancel)
        self.progress_dialog = dlg
        self._show_stage()
        dlg.show()
        return True

    def _show_stage(self) -> None:
        """The dialog's words before a candidate is scored: the workers starting, the round."""
        dlg = self.progress_dialog
        if dlg is None or dlg.maximum() != 0:
            return
        step, workers = self.last, self.warm.status()
        if step is None:
            text = "Generating: " + (workers or "starting the search") + "…"
        else:
            from validators.generate import BATCH

            text = f"Generating: round {step.round + 1}, scoring {BATCH} candidates"
            text += f" ({workers})…" if workers else "…"
        dlg.setLabelText(text)

    def cancel(self) -> None:
        self.run.cancel()
        self.warm.give_back(keep=False)  # its workers may be scoring candidates: not waited for
        self._close()
        self.win.statusBar().showMessage("Generation cancelled", 4000)

    def _close(self) -> None:
        if self.progress_dialog is not None:
            dialog, self.progress_dialog = self.progress_dialog, None
            dialog.canceled.disconnect(self.cancel)
            dialog.close()

    def _progress(self, step: Any) -> None:
        from validators.generate import best_text

        dlg = self.progress_dialog
        if dlg is None:
            return
        if step == SNAPPING:
            dlg.setRange(0, 0)
            dlg.setLabelText("Generating: putting the best arena on the snap grid (validating it again)…")
            return
        self.last = step
        if step.evaluated == 0:
            self._show_stage()
            return
        if dlg.maximum() == 0:
            dlg.setRange(0, STEPS)
        dlg.setValue(min(STEPS - 1, int(STEPS * step.elapsed / max(self.budget, 1e-9))))
        dlg.setLabelText(f"Generating: round {step.round + 1}, {step.evaluated} candidates; {best_text(step)}")

    def _finished(self, outcome: Any) -> None:
        self.warm.give_back()
        self._close()
        if not self.win.maybe_save():
            return
        self.win.doc.reset(outcome.arena, None, dirty=True)  # unsaved until saved
        self.win.view.fit_arena()
        how = f"{outcome.evaluated} candidates, {outcome.seconds:.0f} s"
        if outcome.passed:
            text = f"Generated arena passes every validator ({how})"
        else:
            text = (f"The budget ran out ({how}): the best arena so far still has {len(outcome.best.failing)} "
                    "finding(s) - see the Validation panel")
        if self.run.snap_note:
            text += f"; {self.run.snap_note}"
        self.win.statusBar().showMessage(text, 10000)

    def _failed(self, text: str) -> None:
        self.warm.give_back(keep=False)
        self._close()
        self.win.statusBar().showMessage("Generation failed: " + text, 8000)

    def shutdown(self) -> None:
        self.warm.close()  # first: a search on its workers ends at once
        self.run.shutdown()


def install(win: Any) -> Generator:
    """File → Generate arena…, after the other ways to start a new arena."""
    g = Generator(win)
    act = QAction("&Generate arena…", win)
    act.setToolTip("A new arena for the chosen players and symmetry that passes every validator")
    act.triggered.connect(lambda _checked=False: g.ask())
    menu = win.menus["file"]
    menu.insertAction(win.act["open"], act)
    win.act["generate"] = act
    return g
