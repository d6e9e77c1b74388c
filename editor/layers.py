"""Layers: each element kind can be hidden or locked on the canvas (as Tiled's and LDtk's
layers), from the Layers dock.

A hidden kind is not drawn, cannot be picked, selected or snapped to; a locked kind is drawn
but cannot be picked or selected (so no tool moves, turns, reshapes or deletes it). The file
is not changed: layers are a view of the arena, and exports draw everything.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from editor import elements as E
from schema.io import TypedArena

VISIBLE_COL, LOCK_COL = 1, 2


def _game_kinds() -> set[str]:
    from editor.games.rulesets import installed

    return {k.key for rs in installed().values() for k in rs.kinds}


class Layers(QObject):
    """Which element kinds (:func:`editor.elements.kinds`) are hidden and which are locked."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.hidden: set[str] = set()
        self.locked: set[str] = set()

    def visible(self, kind: str) -> bool:
        return kind not in self.hidden

    def is_locked(self, kind: str) -> bool:
        return kind in self.locked

    def set_visible(self, kind: str, on: bool) -> None:
        self._set(self.hidden, kind, not on)

    def set_locked(self, kind: str, on: bool) -> None:
        self._set(self.locked, kind, on)

    def _set(self, group: set[str], kind: str, member: bool) -> None:
        if kind not in _game_kinds():
            raise KeyError(kind)
        if (kind in group) != member:
            (group.add if member else group.discard)(kind)
            self.changed.emit()

    def editable(self, arena: TypedArena, ref: str) -> bool:
        """Whether ``ref`` may be picked and selected (its kind shown and not locked)."""
        el = E.find(arena, ref)
        if el is None:
            return False
        kind = E.kind_of(el)
        return kind not in self.hidden and kind not in self.locked

    def hidden_refs(self, arena: TypedArena) -> tuple[str, ...]:
        """Elements of hidden kinds (not snapped to)."""
        return tuple(el.id for kind in self.hidden for el in getattr(arena, kind, ()))


class LayersPanel(QTreeWidget):
    """One row per element kind with *Show* and *Lock* check boxes."""

    def __init__(self, layers: Layers, arena: TypedArena, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layers = layers
        self.setObjectName("layers")
        self.setColumnCount(3)
        self.setHeaderLabels(["Layer", "Show", "Lock"])
        self.setRootIsDecorated(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (VISIBLE_COL, LOCK_COL):
            self.header().setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(False)
        self.rows: dict[str, QTreeWidgetItem] = {}
        self._syncing = False
        self.itemChanged.connect(self._changed)
        layers.changed.connect(self.sync)
        self.set_counts(arena)

    def _build_rows(self, arena: TypedArena) -> None:
        """One row per kind of the arena's game (File → New/Open may change the game)."""
        self._syncing = True
        self.clear()
        self.rows = {}
        for kind in E.kinds(arena):
            label = E.kind_label(kind, arena)
            item = QTreeWidgetItem(self, [label, "", ""])
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setToolTip(VISIBLE_COL, f"Show {label.lower()} on the canvas")
            item.setToolTip(LOCK_COL, f"Lock {label.lower()}: drawn, but not picked or edited")
            self.rows[kind] = item
        self._syncing = False
        self.sync()

    def set_counts(self, arena: TypedArena) -> None:
        if list(self.rows) != list(E.kinds(arena)):
            self._build_rows(arena)
        self._syncing = True
        for kind, item in self.rows.items():
            item.setToolTip(0, f"{E.kind_label(kind, arena)}: {len(getattr(arena, kind))} in the arena")
        self._syncing = False

    def sync(self) -> None:
        self._syncing = True
        def check(on: bool) -> Qt.CheckState:
            return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked

        for kind, item in self.rows.items():
            item.setCheckState(VISIBLE_COL, check(self.layers.visible(kind)))
            item.setCheckState(LOCK_COL, check(self.layers.is_locked(kind)))
        self._syncing = False

    def _changed(self, item: QTreeWidgetItem, col: int) -> None:
        if self._syncing:
            return
        kind = next(k for k, it in self.rows.items() if it is item)
        on = item.checkState(col) == Qt.CheckState.Checked
        if col == VISIBLE_COL:
            self.layers.set_visible(kind, on)
        elif col == LOCK_COL:
            self.layers.set_locked(kind, on)
