"""Help → User guide: the manual (``docs/editor.md``) in a window of its own, rendered from its
Markdown.  The guide is package data (``editor/help/editor.md``, a link to ``docs/editor.md`` in
the source tree that the wheel stores as a file), so an installed editor shows it too; its
pictures are shown where they are (a checkout's ``docs/img``), else each is named by its
caption."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

#: The guide inside the package.
RESOURCE = ("help", "editor.md")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")


def guide_text() -> tuple[str, Path]:
    """The guide's Markdown and the folder its relative links and pictures are in."""
    res = resources.files("editor").joinpath(*RESOURCE)
    text = res.read_text(encoding="utf-8")
    with resources.as_file(res) as path:
        base = Path(path).resolve().parent
    return text, base


def for_viewer(text: str, base: Path) -> str:
    """``text`` with each picture missing under ``base`` replaced by its caption in italics."""
    def picture(m: re.Match[str]) -> str:
        return m.group(0) if (base / m.group(2)).is_file() else f"*[picture: {m.group(1)}]*"
    return IMAGE.sub(picture, text)


class UserGuide(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Arena Studio user guide")
        self.setObjectName("user-guide")
        text, base = guide_text()
        self.browser = QTextBrowser()
        self.browser.setObjectName("guide")
        self.browser.setOpenLinks(False)  # web links open in the browser, the guide's own here
        self.browser.anchorClicked.connect(self._follow)
        self.browser.setSearchPaths([str(base)])
        self.browser.document().setBaseUrl(QUrl.fromLocalFile(str(base) + "/"))
        self.browser.setMarkdown(for_viewer(text, base))
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.resize(900, 640)

    def _follow(self, url: QUrl) -> None:
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
        elif url.hasFragment() and (not url.path() or url.path().endswith("editor.md")):
            self.go_to(url.fragment())
        else:
            self.browser.setSource(url)

    def go_to(self, anchor: str) -> bool:
        """Scroll to the heading a Markdown anchor names (``#arena-rex``: "Arena Rex")."""
        block = self.browser.document().begin()
        while block.isValid():
            if block.blockFormat().headingLevel() and slug(block.text()) == anchor:
                cursor = QTextCursor(block)
                self.browser.setTextCursor(cursor)
                bar = self.browser.verticalScrollBar()
                bar.setValue(bar.maximum())  # the heading at the top, not the bottom
                self.browser.ensureCursorVisible()
                return True
            block = block.next()
        return False


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: ``slug("Arena Rex overlays (View → Overlays)")`` is
    ``"arena-rex-overlays-view--overlays"``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def show_guide(parent: QWidget) -> UserGuide:
    """Open the guide (not modal: it stays beside the editor)."""
    dlg = UserGuide(parent)
    dlg.show()
    dlg.raise_()
    return dlg


__all__ = ["UserGuide", "for_viewer", "guide_text", "show_guide"]
