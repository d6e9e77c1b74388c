"""The open document: current arena, file path, dirty flag, selection and undo stack.

All edits go through :mod:`editor.commands` pushed with :meth:`ArenaDocument.push`; the
dirty flag is the undo stack's clean state, so undoing back to the saved state is clean.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from editor import elements as E
from editor.games.io import dumps, load, save
from schema.ruleset import ArenaModel as Arena
from schema.shapes import Symmetry

DEFAULT_ARENA = Path(__file__).resolve().parents[1] / "arenas" / "default.yaml"


def empty_arena() -> Arena:
    """The default game's new arena (:meth:`editor.game.EditorGame.new_arena`; Gravstrike's is a
    blank 24 x 24 square, a rectangle: it has resize handles and typed sizes)."""
    from editor.game import editor_game
    from schema.ruleset import default_system

    return editor_game(default_system()).new_arena()


class ArenaDocument(QObject):
    #: The arena value changed (any edit, undo, redo, load).
    arenaChanged = Signal(object)
    #: The selected refs changed (list[str]).
    selectionChanged = Signal(list)
    pathChanged = Signal(str)
    dirtyChanged = Signal(bool)
    #: Something an edit wants the designer to know (symmetry mode: an element that is its own
    #: image but whose direction is not symmetric); the window shows it in the status bar.
    notice = Signal(str)
    #: Symmetry mode was switched on or off (:attr:`symmetry_enabled`).
    symmetryModeChanged = Signal(bool)
    #: The active player count was chosen (:attr:`active_count`: an int, or None for every start).
    activeCountChanged = Signal(object)

    def __init__(self, arena: Arena | None = None, path: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._arena = arena if arena is not None else empty_arena()
        self._path = path
        self._selection: list[str] = []
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._forced_dirty = False
        self._symmetry_enabled = True
        self._active_count: int | None = None
        #: Which refs may be selected (the window's layers: hidden or locked kinds may not).
        self.selectable: Callable[[str], bool] = lambda _ref: True

    @property
    def symmetry_enabled(self) -> bool:
        """Symmetry mode: when the arena declares a symmetry, edits apply to whole orbits (and
        the canvas draws its axes and centre)."""
        return self._symmetry_enabled

    @symmetry_enabled.setter
    def symmetry_enabled(self, on: bool) -> None:
        if bool(on) != self._symmetry_enabled:
            self._symmetry_enabled = bool(on)
            self.symmetryModeChanged.emit(self._symmetry_enabled)

    def active_symmetry(self) -> Symmetry | None:
        """The symmetry edits keep (None when off or the arena declares none)."""
        if not hasattr(self._arena, "bounds"):  # a grid arena: its tools paint the cells' images
            return None
        declared: Symmetry | None = getattr(self._arena, "symmetry", None)  # the game's own Symmetry
        return declared if self.symmetry_enabled else None

    @property
    def active_count(self) -> int | None:
        """The player count whose start set the window shows and judges (the Scenario tab's
        *Active count*, :mod:`editor.start_sets`): view state, neither saved nor undone; None:
        every start.  A count the arena stops declaring (its set removed, undone, another file)
        goes back to None."""
        return self._active_count

    @active_count.setter
    def active_count(self, count: int | None) -> None:
        from editor.start_sets import choices

        count = count if count is not None and count in choices(self._arena) else None
        if count != self._active_count:
            self._active_count = count
            self.activeCountChanged.emit(count)

    def _clean_changed(self, _clean: bool) -> None:
        self.dirtyChanged.emit(self.dirty)  # a new document stays unsaved when undone to its start

    # ---------------------------------------------------------------- state

    @property
    def arena(self) -> Arena:
        return self._arena

    @property
    def path(self) -> str | None:
        return self._path

    @property
    def dirty(self) -> bool:
        return self._forced_dirty or not self.undo_stack.isClean()

    @property
    def selection(self) -> list[str]:
        return list(self._selection)

    def display_name(self) -> str:
        return Path(self._path).name if self._path else "Untitled"

    def set_selection(self, refs: Iterable[str]) -> None:
        refs = [r for r in dict.fromkeys(refs) if E.find(self._arena, r) is not None and self.selectable(r)]
        if refs != self._selection:
            self._selection = refs
            self.selectionChanged.emit(list(refs))

    def _set_arena(self, arena: Arena, selection: Iterable[str] | None = None) -> None:
        """Only commands (and loading) call this."""
        changed = arena is not self._arena
        self._arena = arena
        if changed:
            if self._active_count is not None:
                from editor.start_sets import choices

                if self._active_count not in choices(arena):  # its set is gone: every start again
                    self._active_count = None
                    self.activeCountChanged.emit(None)
            self.arenaChanged.emit(arena)
        self.set_selection(self._selection if selection is None else selection)

    # ---------------------------------------------------------------- editing

    def push(self, command: QUndoCommand) -> None:
        self.undo_stack.push(command)

    def undo(self) -> None:
        self.undo_stack.undo()

    def redo(self) -> None:
        self.undo_stack.redo()

    # ---------------------------------------------------------------- files

    def reset(self, arena: Arena, path: str | None, dirty: bool = False) -> None:
        """Replace the whole document (new/open/recover): clears undo history. ``dirty``: the
        document is unsaved until saved (a new, generated, imported or recovered arena), even
        once its edits are undone."""
        self.undo_stack.clear()
        self._path = path
        self._selection = []
        self._forced_dirty = dirty
        if self._active_count is not None:  # another file: every start until a count is chosen
            self._active_count = None
            self.activeCountChanged.emit(None)
        self._set_arena(arena, [])
        self.pathChanged.emit(path or "")
        self.dirtyChanged.emit(self.dirty)

    def open(self, path: str | os.PathLike[str]) -> None:
        """Load ``path``; raises ``schema.ArenaError`` (document unchanged) on failure."""
        arena = load(path)
        self.reset(arena, str(path))

    def save(self, path: str | os.PathLike[str] | None = None) -> None:
        target = str(path) if path is not None else self._path
        if target is None:
            raise ValueError("no file name to save to")
        save(self._arena, target)
        self._path = target
        self._forced_dirty = False
        self.undo_stack.setClean()
        self.pathChanged.emit(target)
        self.dirtyChanged.emit(False)

    def text(self) -> str:
        """Canonical YAML of the current arena (autosave, clipboard of the whole arena)."""
        return dumps(self._arena)
