"""Analysis → Simulate play…: whole games of the edited arena played out by its game's play engine
(:mod:`validators.simulate`, issue 40 point 5), in the editor.

The dialog asks for the games, the seed, the players (the scenario's count or one of its declared
start sets) and the policy (the engine's, or all of them rotated over the seats).  The run is
:func:`validators.simulate.simulate` itself, on a background thread: it fans the games out to
:data:`WORKERS` local worker processes (at a lower priority, so the window keeps the cores) in
chunks of a few games, with a progress dialog.  Cancel is the runner's own stop (asked between
chunks, as its time budget is): the run ends with the games done so far, and the result says so
(``"complete": false``, ``"stopped": "cancelled"``) - the same figures as ``arena simulate`` of that
many games.  The result goes to the *Simulated play* dock (:mod:`editor.simulate_dock`), with the
games' records for stepping through one on the canvas when the run is at most
:data:`RECORD_LIMIT` games.

Nothing here names a game: the engine, its policies and its seats come through the game's
analysis (:meth:`validators.game.GameAnalysis.play_hook`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QProgressDialog, QSpinBox,
                               QWidget)

from editor.background_run import LatestRun
from editor.warm_pool import BACKGROUND_NICE

#: Games a run plays unless the designer asks for another number.
DEFAULT_GAMES = 100
#: Local worker processes a run fans its games out to (0 or 1: on the run's own thread).
WORKERS = 2
#: Runs of at most this many games keep every game's record (for stepping through one).
RECORD_LIMIT = 200
#: The dock's height when a result arrives (at most 42 % of the window's).
DOCK_HEIGHT = 330
#: About this many chunks a run is cut into (a finer progress bar and a quicker Cancel).
CHUNKS = 100


def has_play(arena: Any) -> bool:
    """Whether the arena's game plays games out (its analysis has a play engine)."""
    from validators.game import analysis_of

    try:
        return analysis_of(arena).has_play()
    except Exception:  # noqa: BLE001 - no installed game: nothing to play
        return False


def chunk_size(games: int) -> int:
    """Games a task plays: about :data:`CHUNKS` tasks a run, one game a task for small runs.

    >>> chunk_size(100), chunk_size(1000), chunk_size(7)
    (1, 10, 1)
    """
    return max(1, games // CHUNKS)


@dataclass(frozen=True)
class Request:
    """One run's settings (the dialog's answers)."""

    games: int = DEFAULT_GAMES
    seed: int = 0
    players: int | None = None
    policy: str | None = None


class _Signals(QObject):
    progress = Signal(int, int, int)  # run id, games done, games
    done = Signal(int, object)  # run id, Simulation
    failed = Signal(int, str)


class SimulationRun(LatestRun, QObject):
    """One run at a time: ``start(arena, request)``; ``progress(done, games)``, then
    ``finished(Simulation)`` or ``failed(text)``.  :meth:`stop` ends it with the games done so
    far (a result still comes, incomplete); :meth:`cancel` drops it (no result)."""

    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None, workers: int = WORKERS) -> None:
        super().__init__(parent)
        self.workers = workers
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.progress.connect(self._progress)
        self._signals.done.connect(self._done)
        self._signals.failed.connect(self._failed)
        self._begin_runs()

    def start(self, arena: Any, request: Request) -> None:
        """Start a run (any running one is dropped).  ``LookupError`` for a game without a play
        engine and ``ValueError`` for a count or policy the engine refuses, before anything runs."""
        from validators.simulate import engine_of

        self.cancel()
        engine = engine_of(arena)
        engine.seats(arena, request.players)  # refused here, in the window's words
        self._id += 1
        self._stop = threading.Event()
        self.running = True
        run, stop = self._id, self._stop
        self.pool.start(lambda: self._play(run, stop, arena, request))

    def stop(self) -> None:
        """End the run after the games being played: the result (incomplete) still comes."""
        self._stop.set()

    def _play(self, run: int, stop: threading.Event, arena: Any, request: Request) -> None:
        from validators.simulate import simulate

        try:
            result = simulate(arena, request.games, request.seed, players=request.players, policy=request.policy,
                              workers=self.workers, chunk=chunk_size(request.games),
                              records=request.games <= RECORD_LIMIT, should_stop=stop.is_set,
                              progress=lambda done, total: self._signals.progress.emit(run, done, total),
                              nice=BACKGROUND_NICE)
        except Exception as exc:  # noqa: BLE001 - shown to the designer
            text = str(exc).strip()
            self._signals.failed.emit(run, text.splitlines()[-1] if text else repr(exc))
            return
        self._signals.done.emit(run, result)

    def _progress(self, run: int, done: int, total: int) -> None:
        if run == self._id and self.running:
            self.progress.emit(done, total)


class SimulateDialog(QDialog):
    """Games, seed, players and policy of a run."""

    def __init__(self, arena: Any, engine: Any, active: int | None, last: Request, parent: QWidget | None = None) -> None:
        from editor.start_sets import count_word, declared

        super().__init__(parent)
        self.setWindowTitle("Simulate play")
        form = QFormLayout(self)
        form.addRow(QLabel("Play the arena's game out with bots, many times, and count each start's wins."))
        self.games = QSpinBox()
        self.games.setRange(1, 1_000_000)
        self.games.setValue(last.games)
        self.games.setToolTip(f"Games to play; runs of up to {RECORD_LIMIT} games keep every game's record for "
                              "stepping through one on the canvas")
        form.addRow("&Games:", self.games)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setValue(last.seed)
        self.seed.setToolTip("The run's seed: game i plays with a seed drawn from (seed, i), as arena simulate --seed")
        form.addRow("&Seed:", self.seed)
        self.players = QComboBox()
        try:
            own = len(engine.seats(arena, None))
            self.players.addItem(f"The scenario's ({own})", None)
        except ValueError as exc:
            self.players.addItem(f"The scenario's ({exc})", None)
        for count, starts in declared(arena).items():
            self.players.addItem(f"{count} ({', '.join(map(str, starts))})", count)
        wanted = last.players if last.players is not None else active
        index = self.players.findData(wanted)
        self.players.setCurrentIndex(max(0, index))
        self.players.setToolTip(f"Who plays: the scenario's {count_word(arena)} or one of its start sets")
        form.addRow("&Players:", self.players)
        self.policy = QComboBox()
        for name in engine.policies:
            self.policy.addItem(name, name)
        if len(engine.policies) > 1:
            both = ",".join(engine.policies)
            self.policy.addItem(f"all, rotated over the seats ({both})", both)
        self.policy.setCurrentIndex(max(0, self.policy.findData(last.policy)))
        self.policy.setToolTip("The bots' policy (the first is the game's default)")
        form.addRow("P&olicy:", self.policy)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("&Play")
        form.addRow(buttons)

    def request(self) -> Request:
        return Request(self.games.value(), self.seed.value(), self.players.currentData(), self.policy.currentData())


class SimulatePlay(QObject):
    """The menu action, the dialog, the progress dialog and the dock."""

    def __init__(self, win: Any, workers: int = WORKERS) -> None:
        from editor.simulate_dock import SimulationDock

        super().__init__(win)
        self.win = win
        self.run = SimulationRun(self, workers)
        self.dialog: QProgressDialog | None = None
        self.arena: Any = None
        self.last = Request()
        self.settings_dialog: SimulateDialog | None = None
        self.panel = SimulationDock(win)
        self.run.progress.connect(self._progress)
        self.run.finished.connect(self._finished)
        self.run.failed.connect(self._failed)
        win.doc.arenaChanged.connect(self._edited)

    def ask(self) -> None:
        """The dialog, then :meth:`start`."""
        from validators.simulate import engine_of

        arena = self.win.doc.arena
        try:
            engine = engine_of(arena)
        except LookupError as exc:
            self.win.statusBar().showMessage(str(exc), 8000)
            return
        self.settings_dialog = dialog = SimulateDialog(arena, engine, self.win.doc.active_count, self.last, self.win)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start(dialog.request())
        self.settings_dialog = None

    def start(self, request: Request) -> bool:
        arena = self.win.doc.arena
        try:
            self.run.start(arena, request)
        except (LookupError, ValueError) as exc:
            self.win.statusBar().showMessage(f"Simulate play: {exc}", 8000)
            return False
        self.arena, self.last = arena, request
        self.dialog = QProgressDialog(f"Playing {request.games} games…", "Cancel", 0, request.games, self.win)
        self.dialog.setWindowTitle("Simulate play")
        self.dialog.setWindowModality(Qt.WindowModality.NonModal)
        self.dialog.setMinimumDuration(0)
        self.dialog.canceled.connect(self.cancel)
        self.dialog.setValue(0)
        return True

    def cancel(self) -> None:
        """Cancel: the run stops after the games being played, and shows the games done so far."""
        self.run.stop()
        if self.dialog is not None:
            self.dialog.setLabelText("Cancelling: finishing the games being played…")
        self.win.statusBar().showMessage("Simulate play: cancelling…", 4000)

    def _close(self) -> None:
        if self.dialog is not None:
            dialog, self.dialog = self.dialog, None
            dialog.canceled.disconnect(self.cancel)
            dialog.close()

    def _progress(self, done: int, total: int) -> None:
        if self.dialog is not None and not self.run._stop.is_set():
            self.dialog.setValue(done)
            self.dialog.setLabelText(f"Playing games… {done} of {total}")

    def _finished(self, result: Any) -> None:
        self._close()
        doc = result.document
        self.panel.show_result(self.arena, doc, result.records)
        self.panel.set_stale(self.win.doc.arena is not self.arena)
        dock = self.win.docks["simulation"]
        dock.show()
        dock.raise_()
        # room for the bars and the replay's lines: up to 42 % of the window
        want = min(DOCK_HEIGHT, int(self.win.height() * 0.42))
        if dock.height() < want:
            self.win.resizeDocks([dock], [want], Qt.Orientation.Vertical)
        done = f"{doc['games_played']} of {doc['games']} games" if not doc["complete"] else f"{doc['games']} games"
        self.win.statusBar().showMessage(
            f"Simulate play: {done}" + ("" if doc["complete"] else f" ({doc['stopped']})")
            + f"; {len(doc['findings'])} play-balance finding(s)", 8000)

    def _failed(self, text: str) -> None:
        self._close()
        self.win.statusBar().showMessage("Simulate play failed: " + text, 8000)

    def _edited(self, arena: Any) -> None:
        act = self.win.act.get("simulate")
        if act is not None:
            act.setEnabled(has_play(arena))
        self.panel.arena_changed(arena)

    def probe(self, rect_of: Any, reachable: Any) -> dict[str, Any]:
        """The run and the dock as plain data, for the automation probe (:mod:`editor.probe`):
        ``rect_of(widget)`` gives a widget's place on the screen, ``reachable(widget)`` whether
        a click there reaches it."""
        panel = self.panel
        doc = panel.doc
        return {"running": self.run.running, "progress": self.dialog is not None,
                "complete": None if doc is None else doc["complete"],
                "games_played": None if doc is None else doc["games_played"],
                "bars": [[s, r] for s, r, _lo, _hi in panel.chart.values()],
                "game": panel.game.value(), "turn": panel.turn.value(),
                "markers": {str(k): [v[0], v[1]] for k, v in panel.replay.markers().items()},
                "next": rect_of(panel.next_button), "next_reachable": reachable(panel.next_button),
                "undo": self.win.doc.undo_stack.count()}

    def shutdown(self) -> None:
        self.run.shutdown()
        self.panel.clear_canvas()


def install(win: Any, workers: int = WORKERS) -> SimulatePlay:
    """The Analysis menu's "Simulate play…" action and the "Simulated play" dock."""
    sim = SimulatePlay(win, workers)
    menu = win.menus.get("analysis") or win.menuBar().addMenu("A&nalysis")
    win.menus["analysis"] = menu
    act = QAction("&Simulate play…", win)
    act.setToolTip("Play the arena's game out with bots, many times, and count each start's wins")
    act.triggered.connect(sim.ask)
    act.setEnabled(has_play(win.doc.arena))
    menu.addAction(act)
    win.act["simulate"] = act
    dock = win._dock("Simulated play", sim.panel, Qt.DockWidgetArea.BottomDockWidgetArea)
    win.docks["simulation"] = dock
    win.tabifyDockWidget(win.docks["validation"], dock)
    win.docks["validation"].raise_()
    win.menus["view"].addAction(dock.toggleViewAction())
    return sim


__all__ = ["DEFAULT_GAMES", "RECORD_LIMIT", "WORKERS", "Request", "SimulateDialog", "SimulatePlay", "SimulationRun",
           "chunk_size", "has_play", "install"]
