"""The main window's file handling (a room of :class:`editor.mainwindow.MainWindow`): new,
open (the dialog starts in the folder of the last file opened or saved), import (Tiled maps,
GeoJSON), recent files, save, save as, autosave and crash recovery, dropping files on the window,
and closing.

A document that exists in no file as it is shown - a new arena, a generated one, an imported
one, a recovered one - is unsaved until saved (``*`` in the title; quitting, closing, opening or
starting another one asks Save, Discard or Cancel), even once its edits are undone. The empty
arena the editor starts with is the one exception: it is clean until edited."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from editor import dialogs
from editor import files as F
from editor.document import DEFAULT_ARENA, empty_arena
from schema import ArenaError, load

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMenu

    from editor.balance import ProposeFix
    from editor.canvas import ArenaView
    from editor.document import ArenaDocument
    from editor.generate import Generator
    from editor.overlays import Overlays
    from editor.robustness import Robustness
    from editor.simulate_play import SimulatePlay
    from editor.validation import ValidationRunner

FILE_FILTER = "Arena files (*.yaml *.yml *.json);;All files (*)"
IMPORT_FILTER = "Tiled maps and GeoJSON (*.tmx *.tmj *.json *.geojson);;All files (*)"
LAST_DIR_KEY = "lastFolder"

if TYPE_CHECKING:  # the room is mixed into the main window: typed as the QMainWindow it is part of
    _Window = QMainWindow
else:
    _Window = object


class FileRoom(_Window):
    """Mixed into the main window (``self`` is the :class:`~editor.mainwindow.MainWindow`)."""

    if TYPE_CHECKING:  # the window parts this room uses, made in MainWindow.__init__
        settings: QSettings
        recovery: F.RecoveryStore
        autosaver: F.Autosaver
        doc: ArenaDocument
        runner: ValidationRunner
        view: ArenaView
        overlays: Overlays
        robustness: Robustness
        simulation: SimulatePlay
        fixes: ProposeFix
        generator: Generator
        recent_menu: QMenu

        def save_layout(self) -> None: ...

    def show_problems(self, title: str, text: str) -> None:
        """Modal error dialog (tests replace this to capture the text)."""
        self.last_error = text
        dialogs.critical(self, title, text)  # plain text: problems quote the file

    def ask_save(self) -> QMessageBox.StandardButton:
        """Ask before losing changes: Save, Discard or Cancel (tests replace this)."""
        return dialogs.question(
            self, "Unsaved changes", f"Save changes to {self.doc.display_name()}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel)

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document."""
        if not self.doc.dirty:
            return True
        answer = self.ask_save()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_arena(self, system: str | None = None) -> bool:
        """File → New: ask for the game (``system`` given: no dialog) and open its default arena."""
        from editor.games.new_dialog import NewArenaDialog
        from editor.games.rulesets import default_arena

        if system is None:
            dialog = NewArenaDialog(self.doc.arena.system, self)
            self.new_dialog = dialog
            if dialog.exec() != NewArenaDialog.DialogCode.Accepted:
                return False
            system = dialog.system()
        if not self.maybe_save():
            return False
        self.doc.reset(default_arena(system), None, dirty=True)
        self.view.fit_arena()
        return True

    def new_document(self, from_default: bool) -> None:
        self.new_from_template(DEFAULT_ARENA if from_default else None)

    def new_from_template(self, path: Path | None) -> bool:
        """A new untitled document: the empty arena, or a copy of a template file."""
        if not self.maybe_save():
            return False
        arena = empty_arena()
        if path is not None:
            try:
                arena = load(path)
            except ArenaError as exc:
                self.show_problems(f"Cannot read template {Path(path).name}", str(exc))
                return False
        self.doc.reset(arena, None, dirty=True)
        self.view.fit_arena()
        return True

    def open_path(self, path: str, ask: bool = True) -> bool:
        if ask and not self.maybe_save():
            return False
        try:
            self.doc.open(path)
        except ArenaError as exc:
            problems = exc.problems
            text = "\n".join(str(p) for p in problems[:30])
            if len(problems) > 30:
                text += f"\n… and {len(problems) - 30} more"
            self.show_problems(f"Cannot open {Path(path).name}", text)
            return False
        self._remember(path)
        self.view.fit_arena()
        self.statusBar().showMessage(f"Opened {path}", 4000)
        return True

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import arena", self.last_folder(), IMPORT_FILTER)
        if path:
            self.import_path(path)

    def import_path(self, path: str) -> bool:
        """File → Import…: a Tiled map or a GeoJSON collection (as ``arena import`` reads them)
        becomes a new untitled document, unsaved until saved; what the reader skipped or
        reinterpreted is listed (:meth:`show_warnings`)."""
        from schema.formats import FormatError, for_import

        name = Path(path).name
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            self.show_problems(f"Cannot import {name}", f"{path}: cannot read: {exc.strerror or exc}")
            return False
        warnings: list[str] = []
        try:
            arena = for_import(path, data).read(data, source=path, warnings=warnings)
        except (FormatError, ArenaError) as exc:
            self.show_problems(f"Cannot import {name}", "\n".join([str(exc), *warnings]))
            return False
        if not self.maybe_save():
            return False
        self.doc.reset(arena, None, dirty=True)
        self.view.fit_arena()
        self.statusBar().showMessage(f"Imported {path} as a new arena: save it to keep it"
                                     + (f" ({len(warnings)} warning(s))" if warnings else ""), 8000)
        if warnings:
            self.show_warnings(f"Imported {name} with warnings", "\n".join(warnings))
        return True

    def show_warnings(self, title: str, text: str) -> None:
        """What an import skipped or reinterpreted (tests replace this to capture the text)."""
        self.last_warning = text
        dialogs.information(self, title, text)

    def _remember(self, path: str) -> None:
        """A file opened or saved: the recent files, and the folder the dialogs start in."""
        F.add_recent(self.settings, path)
        self.settings.setValue(LAST_DIR_KEY, str(Path(path).resolve().parent))

    def last_folder(self) -> str:
        """Where the Open and Save dialogs start: the folder of the last file opened or saved
        (kept across sessions), else the working directory."""
        saved = self.settings.value(LAST_DIR_KEY, "")
        if saved and Path(str(saved)).is_dir():
            return str(saved)
        for p in F.recent_files(self.settings):
            if Path(p).parent.is_dir():
                return str(Path(p).parent)
        return str(Path.cwd())

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open arena", self.last_folder(), FILE_FILTER)
        if path:
            self.open_path(path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in F.recent_files(self.settings):
            act = self.recent_menu.addAction(p)
            act.triggered.connect(lambda _c=False, p=p: self.open_path(p))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction("(none)").setEnabled(False)

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self.save_to(self.doc.path)

    def proposed_path(self) -> str:
        """What Save as proposes: the file's own path, or for a document never saved the arena's
        name as a file name ("Crossroads (four players)" → ``crossroads-four-players.yaml``) in
        the last folder used (issue 42, point 11: it proposed "untitled.yaml")."""
        if self.doc.path:
            return self.doc.path
        from schema.packs import slug

        return str(Path(self.last_folder()) / f"{slug(self.doc.arena.name or 'arena')}.yaml")

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save arena", self.proposed_path(), FILE_FILTER)
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        try:
            self.doc.save(path)
        except ArenaError as exc:
            self.show_problems("Cannot save", str(exc))
            return False
        self._remember(path)
        self.autosaver.flush()  # the recovery copy goes (after any write still queued)
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def autosave(self) -> None:
        """Write the recovery copy now (unsaved) or remove it (saved), in the autosave thread
        (``self.autosaver.wait()`` waits for it)."""
        self.autosaver.flush()

    def autosave_failed(self, text: str) -> None:
        self.statusBar().showMessage(f"Autosave failed: {text}", 10000)

    def offer_recovery(self) -> bool:
        """After a crash: offer the newest recovery file left by another session."""
        pending = self.recovery.pending()
        if not pending:
            return False
        rec = pending[0]
        answer = self.ask_recover(rec)
        if answer != QMessageBox.StandardButton.Yes:
            if answer == QMessageBox.StandardButton.Discard:
                for r in pending:
                    F.RecoveryStore.discard(r)
            return False
        try:
            arena = load(rec.yaml_path)
        except ArenaError as exc:
            self.show_problems("Cannot recover", str(exc))
            return False
        self.doc.reset(arena, rec.original, dirty=True)
        F.RecoveryStore.discard(rec)
        self.view.fit_arena()
        return True

    def ask_recover(self, rec: F.Recovery) -> QMessageBox.StandardButton:
        return dialogs.question(
            self, "Recover unsaved work?",
            f"Arena Studio did not close cleanly. Recover {rec.describe()}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.No)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.autosaver.shutdown()
        self.save_layout()
        self.runner.shutdown()
        self.overlays.shutdown()
        self.robustness.shutdown()
        self.simulation.shutdown()
        self.fixes.shutdown()
        self.generator.shutdown()
        try:
            self.recovery.clear()
        except OSError:
            pass  # a copy that cannot be removed is offered at the next start
        event.accept()
