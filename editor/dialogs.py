"""Message boxes that show their text as plain text.

``QMessageBox``'s default text format is ``Qt.AutoText``: a text that *looks* like HTML is
rendered as rich text, so an id such as ``<img src="file:///...">`` in a problem read from a file
would be rendered, images and links included.  Everything the editor shows in a dialog may come
from a file, so every dialog goes through :func:`message_box`, which sets ``Qt.PlainText``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

Button = QMessageBox.StandardButton


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                buttons: Button = Button.Ok) -> QMessageBox:
    """A message box showing ``text`` as plain text (not yet shown)."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box


def _run(box: QMessageBox) -> Button:
    return Button(box.exec())


def critical(parent: QWidget | None, title: str, text: str) -> Button:
    return _run(message_box(parent, QMessageBox.Icon.Critical, title, text))


def information(parent: QWidget | None, title: str, text: str) -> Button:
    return _run(message_box(parent, QMessageBox.Icon.Information, title, text))


def question(parent: QWidget | None, title: str, text: str, buttons: Button) -> Button:
    return _run(message_box(parent, QMessageBox.Icon.Question, title, text, buttons))
