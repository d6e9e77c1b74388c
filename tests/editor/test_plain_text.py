"""Issue 16 in the editor: dialogs show file content as plain text (item 14), and temporaries of
interrupted saves are removed when the editor starts (item 11)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from editor import dialogs
from editor import files as F

HOSTILE = '<img src="file:///etc/passwd"> <b>bold</b> <a href="https://example.com">link</a>'


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[QMessageBox]:
    """Message boxes that would have been shown (exec replaced: nothing blocks)."""
    boxes: list[QMessageBox] = []

    def fake_exec(box: QMessageBox) -> int:
        boxes.append(box)
        return int(QMessageBox.StandardButton.Ok)

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    return boxes


def test_message_box_is_plain_text(qtbot: Any) -> None:
    box = dialogs.message_box(None, QMessageBox.Icon.Critical, "t", HOSTILE)
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert box.text() == HOSTILE


def test_open_error_dialog_shows_the_file_text_as_written(window: Any, tmp_path: Path, shown: list[QMessageBox]) -> None:
    from editor.mainwindow import MainWindow

    bad = tmp_path / "bad.yaml"
    bad.write_text("format: arena-studio/1\nsystem: gravstrike\nname: T\nwalls:\n"
                   "  - id: '<img src=\"file:///etc/passwd\">'\n    shape: {type: circle, center: [0, 0], radius: 1}\n")
    window.show_problems = MainWindow.show_problems.__get__(window)  # the real dialog, not the fixture's stub
    assert not window.open_path(str(bad), ask=False)
    (box,) = shown
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert '<img src="file:///etc/passwd">' in box.text()


def test_questions_and_export_messages_are_plain_text(window: Any, shown: list[QMessageBox]) -> None:
    from editor.mainwindow import MainWindow

    MainWindow.ask_save(window)
    MainWindow.ask_recover(window, F.Recovery(Path("/tmp/r.yaml"), f"/tmp/{HOSTILE}.yaml", time.time(), 7))
    window.exports.inform = type(window.exports)(window).inform  # the real one
    window.exports.inform("Exported", HOSTILE)
    assert len(shown) == 3 and all(b.textFormat() == Qt.TextFormat.PlainText for b in shown)
    assert HOSTILE in shown[1].text() and shown[2].text() == HOSTILE


def test_refusal_labels_are_plain_text(window: Any) -> None:
    from editor.panels import Inspector
    from editor.settings_panels import ArenaPanel

    panels = [p for t in (Inspector, ArenaPanel) for p in window.findChildren(t)]
    assert panels
    assert all(p.error.textFormat() == Qt.TextFormat.PlainText for p in panels)


def test_interrupted_saves_are_cleaned_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: Any) -> None:
    import editor.app as app_module

    old = time.time() - 3600
    recovery = tmp_path / "recovery"
    work = tmp_path / "work"
    recent = tmp_path / "recent"
    for d in (recovery, work, recent):
        d.mkdir()
    stale = [recovery / ".session-7.yaml.abcdefgh.tmp", work / ".arena.yaml.abcdefgh.tmp",
             recent / ".old.json.abcdefgh.tmp"]
    kept = [work / ".notes.txt.abcdefgh.tmp", work / ".arena.yaml.newnewne.tmp"]
    for p in stale + kept:
        p.write_text("partial")
    for p in stale + kept[:1]:
        os.utime(p, (old, old))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    F.add_recent(settings, str(recent / "old.json"))

    class FakeWindow:
        """Stands for MainWindow: what main() touches, nothing more."""

        def __init__(self) -> None:
            self.settings = settings
            self.recovery = F.RecoveryStore(recovery, pid=1)
            self.view = type("V", (), {"fit_arena": lambda self: None})()

        def show(self) -> None: ...

        def offer_recovery(self) -> bool:
            return False

        def open_path(self, path: str, ask: bool = True) -> bool:
            return True

    monkeypatch.setattr(app_module, "MainWindow", FakeWindow)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert app_module.main([str(work / "arena.yaml")]) == 0
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in kept)  # not an arena file's / too fresh
