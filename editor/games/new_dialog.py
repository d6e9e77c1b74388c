"""File → New: which game?  A dialog listing the installed rulesets (game, edition, units);
the chosen game's default arena opens as a new untitled document."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.games.rulesets import games

ID_ROLE = Qt.ItemDataRole.UserRole


class NewArenaDialog(QDialog):
    def __init__(self, current: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New arena")
        self.setObjectName("new-arena")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Which game is the arena for?"))
        self.list = QTreeWidget()
        self.list.setObjectName("games")
        self.list.setHeaderLabels(["Game", "Edition", "Units"])
        self.list.setRootIsDecorated(False)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for ident, game, edition, units in games():
            item = QTreeWidgetItem(self.list, [game, edition, units])
            item.setData(0, ID_ROLE, ident)
            item.setToolTip(0, f"system: {ident}")
            if ident == current:
                self.list.setCurrentItem(item)
        first = self.list.topLevelItem(0)
        if self.list.currentItem() is None and first is not None:
            self.list.setCurrentItem(first)
        self.list.itemDoubleClicked.connect(lambda *_: self.accept())
        layout.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        # wide enough for every column (the Units column was cut off at 460 px: issue 42, point 10)
        head = self.list.header()
        columns = sum(max(self.list.sizeHintForColumn(c), head.sectionSizeHint(c)) for c in range(self.list.columnCount()))
        margins = layout.contentsMargins()
        chrome = 2 * self.list.frameWidth() + self.list.verticalScrollBar().sizeHint().width() + 8
        self.resize(max(460, columns + chrome + margins.left() + margins.right()), 260)

    def systems(self) -> list[str]:
        items = (self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount()))
        return [str(item.data(0, ID_ROLE)) for item in items if item is not None]

    def select(self, system: str) -> None:
        for i in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(i)
            if item is not None and item.data(0, ID_ROLE) == system:
                self.list.setCurrentItem(item)
                return
        raise KeyError(system)

    def system(self) -> str:
        """The chosen game (the first listed when none is)."""
        item = self.list.currentItem() or self.list.topLevelItem(0)
        if item is None:  # the list holds every installed game: never empty
            raise LookupError("no game is installed")
        return str(item.data(0, ID_ROLE))
