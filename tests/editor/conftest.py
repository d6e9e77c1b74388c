"""Fixtures for the editor tests: a small arena built in code and a headless main window."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from schema.shapes import Circle, Polygon, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, StartPosition, StaticTarget, Wall


def make_arena() -> Arena:
    h = 10.0
    return Arena(
        name="Test arena",
        bounds=Polygon(((-h, -h), (h, -h), (h, h), (-h, h))),
        walls=(Wall("W1", Rect((-4.0, 0.0), (1.0, 3.0))),),
        checkpoints=(Checkpoint("A", "outlying", Circle((6.0, 6.0), 1.0)),
                     Checkpoint("M", "central", Circle((0.0, 0.0), 1.0))),
        acceleration_fields=(AccelerationField("F1", Circle((4.0, -4.0), 1.0), 90.0),),
        static_targets=(StaticTarget("T1", (-6.0, 6.0)),),
        start_positions=(StartPosition(1, (-7.0, -7.0), 45.0),),
    )


@pytest.fixture
def arena() -> Arena:
    return make_arena()


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    from editor import files as F
    from editor.mainwindow import MainWindow
    from editor.validation import format_analyse

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    # the format checks only: the fairness validators (slow travel analysis) have their own tests
    win = MainWindow(settings=settings, recovery=F.RecoveryStore(tmp_path / "recovery", pid=1),
                     analyse=format_analyse)
    win.ask_save = lambda: QMessageBox.StandardButton.Discard  # type: ignore[method-assign]
    win.show_problems = lambda title, text: setattr(win, "last_error", text)  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1000, 800)
    win.show()
    qtbot.waitExposed(win)
    win.doc.reset(make_arena(), None)
    win.view.set_scale(20.0)
    win.view.centerOn(QPointF(0, 0))
    yield win
    win.doc.undo_stack.setClean()
    win.runner.shutdown()
    win.overlays.shutdown()


def open_shipped(win, path: Path, scale: float):  # type: ignore[no-untyped-def]
    """Open the arena file ``path`` in ``win`` with symmetry mode off, ``scale`` pixels an
    inch, centred on the origin."""
    assert win.open_path(str(path), ask=False)
    win.doc.symmetry_enabled = False
    win.view.set_scale(scale)
    win.view.centerOn(0, 0)
    return win


def vp(win, x: float, y: float) -> QPoint:  # type: ignore[no-untyped-def]
    """Viewport pixel of arena point (x, y)."""
    return win.view.mapFromScene(QPointF(x, y))


def click(win, x: float, y: float, mods=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    QTest.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, mods, vp(win, x, y))


def drag(win, points: Sequence[tuple[float, float]], mods=Qt.KeyboardModifier.NoModifier,  # type: ignore[no-untyped-def]
         button=Qt.MouseButton.LeftButton) -> None:
    port = win.view.viewport()
    QTest.mousePress(port, button, mods, vp(win, *points[0]))
    for p in points[1:]:
        QTest.mouseMove(port, vp(win, *p))
    QTest.mouseRelease(port, button, mods, vp(win, *points[-1]))
