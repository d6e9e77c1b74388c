"""The editor at 1366 x 768 (issue 42, point 10): the element tree lists a shipped arena
without scrolling, the tool hints are never cut off by the status bar's other texts, the New
arena dialog shows every column, labels on the canvas do not overprint each other, overlay keys
leave the board alone, and Glider-Pit row numbers are readable at the default zoom."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox, QTreeWidgetItemIterator

from editor import files as F
from editor.validation import format_analyse

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = {"gravstrike": ROOT / "arenas" / "default.yaml",
           "car-wars-6e": ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml",
           "glider-pit-gladiators": ROOT / "arenas" / "glider-pit-gladiators" / "hexagonal-pit.yaml",
           "mothership-grid": ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml",
           "arena-rex": ROOT / "arenas" / "arena-rex" / "colosseum-30.yaml"}
#: The smallest label, in screen pixels (font pixel size), read at a glance on a laptop screen.
READABLE_PX = 10


def settle(n: int = 4) -> None:
    for _ in range(n):
        QApplication.processEvents()


@pytest.fixture
def win(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(settings=settings, recovery=F.RecoveryStore(tmp_path / "recovery", pid=1), analyse=format_analyse)
    w.ask_save = lambda: QMessageBox.StandardButton.Discard  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    settle()
    yield w
    w.doc.undo_stack.setClean()
    w.runner.shutdown()
    w.overlays.shutdown()


def open_fitted(w, game: str) -> None:  # type: ignore[no-untyped-def]
    assert w.open_path(str(SHIPPED[game]), ask=False)
    settle()
    w.view.fit_arena()
    settle()


def test_the_element_tree_lists_the_default_arena_without_scrolling(win) -> None:  # type: ignore[no-untyped-def]
    open_fitted(win, "gravstrike")
    tree = win.tree
    tree.expandAll()
    settle()
    rows, it = 0, QTreeWidgetItemIterator(tree)
    while it.value():
        rows += 1
        it += 1
    assert rows >= 30  # six walls, four checkpoints, six fields, ... with their group rows
    last = tree.visualItemRect(tree.topLevelItem(tree.topLevelItemCount() - 1))
    assert tree.viewport().height() >= rows * last.height()  # every row in view (about 15 were)
    assert not tree.verticalScrollBar().isVisible()
    assert win.docks["elements"].isVisible()
    assert win.docks["layers"] in win.tabifiedDockWidgets(win.docks["elements"])  # a tab away


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_tool_hints_are_not_cut_off_by_the_status_bar(win, game: str) -> None:  # type: ignore[no-untyped-def]
    open_fitted(win, game)
    win.statusBar().clearMessage()
    win.pos_label.setText("x -9999.99  y -9999.99 hex")  # the cursor readout at its widest
    hint = win.hint_label
    for name in list(win.tools):
        win.set_tool(name)
        settle(3)
        assert hint.isVisible()
        # all of the text within the label's rectangle, wrapped in its width
        needed = hint.fontMetrics().boundingRect(hint.contentsRect(), int(hint.alignment()) | 0x1000, hint.text())
        assert needed.height() <= hint.contentsRect().height() + 1, (name, hint.text())
        assert needed.width() <= hint.contentsRect().width() + 1, (name, hint.text())
        right = hint.mapTo(win, hint.rect().topRight()).x()
        for other in (win.symmetry_label, win.pos_label, win.zoom_label):
            if other.isVisible() and other.text():
                assert right < other.mapTo(win, other.rect().topLeft()).x(), (name, other.text())


def test_the_new_arena_dialog_shows_every_column(qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.games.new_dialog import NewArenaDialog

    dlg = NewArenaDialog()
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    settle()
    tree, head = dlg.list, dlg.list.header()
    last = tree.columnCount() - 1
    assert head.sectionViewportPosition(last) + head.sectionSize(last) <= tree.viewport().width()
    for c in range(tree.columnCount()):
        for i in range(tree.topLevelItemCount()):
            text = tree.topLevelItem(i).text(c)
            assert tree.fontMetrics().horizontalAdvance(text) <= head.sectionSize(c), text
    assert not tree.horizontalScrollBar().isVisible()
    assert dlg.width() <= 1366
