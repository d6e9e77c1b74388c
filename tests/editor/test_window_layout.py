"""Docks at 1366 x 768 (issue 18, point 3): every Scenario input visible without scrolling
sideways, several findings visible with their messages wrapped, the layers panel; the
designer's own layout comes back in the next session."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox

from editor import files as F
from editor.validation import format_analyse


def make_window(qtbot, tmp_path: Path, size: tuple[int, int] | None = (1366, 768)):  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, recovery=F.RecoveryStore(tmp_path / "recovery", pid=1), analyse=format_analyse)
    win.ask_save = lambda: QMessageBox.StandardButton.Discard  # type: ignore[method-assign]
    qtbot.addWidget(win)
    if size is not None:
        win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    for _ in range(3):
        QApplication.processEvents()
    return win


LONG = ("start 4 needs 3.4 turns to reach checkpoint A but start 1 only 2.1: the starts are not equally near their "
        "checkpoints (tolerance 0.5 turns); move A or the starts so that every start has a checkpoint as near")


def test_docks_work_at_1366_by_768(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path)
    try:
        win.docks["scenario"].raise_()
        QApplication.processEvents()
        panel = win.scenario_panel
        scroll = panel.findChild(type(panel.layout().itemAt(0).widget()))
        port = scroll.viewport()
        for path, w in panel.editors.items():
            if isinstance(w, QLineEdit):
                left = w.mapTo(port, w.rect().topLeft()).x()
                assert left >= 0 and left + w.width() <= port.width() + 1, path  # not scrolled off
                assert w.width() >= 60, path
        assert not scroll.horizontalScrollBar().isVisible()
        findings = [{"code": "start-checkpoint-access", "severity": "warning", "message": LONG,
                     "elements": ["start:1", "start:4", "A"]} for _ in range(8)]
        win.validation.show_findings(findings)
        QApplication.processEvents()
        tree = win.validation.tree
        line = tree.fontMetrics().height()
        assert tree.viewport().height() >= 6 * line * 1.2  # several rows, not about three
        first = tree.visualItemRect(tree.topLevelItem(0))
        assert first.height() >= 2 * line  # the long message wraps...
        assert not tree.horizontalScrollBar().isVisible()  # ...instead of scrolling sideways
        assert tree.header().sectionViewportPosition(2) + tree.header().sectionSize(2) <= tree.viewport().width() + 1
        canvas = win.view.viewport()
        assert canvas.width() >= 600 and canvas.height() >= 300
        assert win.docks["layers"].isVisible() and win.docks["elements"].isVisible()
    finally:
        win.runner.shutdown()
        win.overlays.shutdown()


def test_first_window_fits_the_screen(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, size=None)
    try:
        free = QApplication.primaryScreen().availableGeometry()
        assert win.width() <= free.width() and win.height() <= free.height()
    finally:
        win.runner.shutdown()
        win.overlays.shutdown()


def test_the_designers_layout_is_remembered(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, size=(780, 700))  # within the offscreen screen (800 x 800)
    win.docks["history"].hide()
    win.resizeDocks([win.docks["elements"]], [260], Qt.Orientation.Horizontal)
    QApplication.processEvents()
    width = win.docks["elements"].width()
    assert width >= 215  # wider than the default column (180 px at this size)
    win.close()  # saves the layout
    again = make_window(qtbot, tmp_path, size=None)
    try:
        assert (again.width(), again.height()) == (780, 700)
        assert not again.docks["history"].isVisible() and again.docks["inspector"].isVisible()
        assert abs(again.docks["elements"].width() - width) <= 2
    finally:
        again.runner.shutdown()
        again.overlays.shutdown()
