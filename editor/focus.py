"""Keyboard focus between the panels and the canvas (a room of the main window).

Typing in a panel's field (the inspector, the Arena and Scenario tabs, the bounds, a points
table) keeps the keys: the tools' one-key shortcuts (V, E, W...) type letters there. Enter
applies the value and Escape puts the field back as it was; both hand the focus back to the
canvas, so that the next key is a shortcut again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QCheckBox, QComboBox, QLineEdit, QWidget

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
FIELDS = (QLineEdit, QAbstractSpinBox, QComboBox, QCheckBox)


class FocusReturn(QObject):
    """Application event filter: Enter / Escape in a field of one of ``win``'s panels."""

    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win

    def panels(self) -> list[QWidget]:
        w = self.win
        return [w.inspector, w.arena_panel, w.scenario_panel]

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.KeyPress or not isinstance(obj, FIELDS):
            return False
        assert isinstance(event, QKeyEvent)
        key = event.key()
        if key not in ENTER and key != Qt.Key.Key_Escape:
            return False
        if isinstance(obj, QComboBox) and obj.view().isVisible():
            return False  # the open list takes Enter / Escape
        panel = next((p for p in self.panels() if p.isAncestorOf(obj)), None)
        if panel is None:
            return False
        if key == Qt.Key.Key_Escape and isinstance(obj, QLineEdit):
            refresh = getattr(panel, "refresh", None)
            if callable(refresh):
                refresh()  # the field shows the arena's value again: nothing is applied
            bounds = getattr(panel, "bounds", None)
            if bounds is not None and bounds.isAncestorOf(obj):
                bounds.refresh()
        # after the field has handled the key (Enter applies the value)
        QTimer.singleShot(0, self.to_canvas)
        return False

    def to_canvas(self) -> None:
        if self.win.isVisible():
            self.win.view.setFocus(Qt.FocusReason.ShortcutFocusReason)


def install(win: MainWindow) -> FocusReturn:
    f = FocusReturn(win)
    app = QApplication.instance()
    if app is not None:
        app.installEventFilter(f)
    return f
