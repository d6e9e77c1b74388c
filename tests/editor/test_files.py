"""New/open/save, load errors, dirty title, prompts, recent files, drops and crash recovery."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from editor import commands as C
from editor import files as F
from editor.document import DEFAULT_ARENA
from editor.validation import format_analyse
from schema import load, save

from tests.editor.conftest import make_arena


def test_open_edit_save_round_trip(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "a.yaml"
    save(make_arena(), path)
    assert window.open_path(str(path))
    assert window.doc.arena == make_arena() and window.doc.path == str(path)
    assert window.windowTitle().startswith("a.yaml[*]") and not window.isWindowModified()
    window.doc.push(C.MoveElements(window.doc, ["W1"], 1.0, 0.0))
    assert window.isWindowModified()
    assert window.save()
    assert not window.isWindowModified()
    assert load(path) == window.doc.arena
    json_path = tmp_path / "a.json"
    assert window.save_to(str(json_path))
    assert json_path.read_text().lstrip().startswith("{") and load(json_path) == window.doc.arena
    assert F.recent_files(window.settings)[:2] == [str(json_path.resolve()), str(path.resolve())]


def test_load_errors_show_file_line_col_messages(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: arena-studio/1\nsystem: gravstrike\nname: Bad\nwalls:\n- id: W1\n  shape: {type: circle, center: [0, 0], radius: -1}\n")
    before = window.doc.arena
    assert not window.open_path(str(bad))
    assert f"{bad}:6:" in window.last_error and "/walls/0/shape" in window.last_error
    assert "Traceback" not in window.last_error
    assert window.doc.arena == before
    assert not window.open_path(str(tmp_path / "missing.yaml"))
    assert "cannot read file" in window.last_error


def test_prompt_before_losing_changes(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.push(C.DeleteElements(window.doc, ["W1"]))
    edited = window.doc.arena
    window.ask_save = lambda: QMessageBox.StandardButton.Cancel
    window.new_document(from_default=True)
    assert window.doc.arena == edited  # cancelled: nothing lost
    window.ask_save = lambda: QMessageBox.StandardButton.Discard
    window.new_document(from_default=True)
    # a new document is in no file: unsaved until saved (issue 42, point 6)
    assert window.doc.arena == load(DEFAULT_ARENA) and window.doc.path is None and window.doc.dirty
    window.new_document(from_default=False)
    assert window.doc.arena.elements() == ()


def test_drop_a_file_to_open_it(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "dropped.yaml"
    save(make_arena(), path)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    assert window.doc.path == str(path)


def test_autosave_writes_recovery_and_next_start_offers_it(window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    window.doc.push(C.DeleteElements(window.doc, ["W1"]))
    edited = window.doc.arena
    window.autosave()
    window.autosaver.wait()
    store = window.recovery
    assert store.yaml_path.exists() and load(store.yaml_path) == edited
    # a "crash": the session ends without cleaning up; the next session (another pid) offers it
    nxt = MainWindow(settings=window.settings, recovery=F.RecoveryStore(store.directory, pid=2), analyse=format_analyse)
    qtbot.addWidget(nxt)
    offered: list[F.Recovery] = []

    def ask(rec):  # type: ignore[no-untyped-def]
        offered.append(rec)
        return QMessageBox.StandardButton.Yes

    nxt.ask_recover = ask
    assert nxt.offer_recovery()
    assert len(offered) == 1 and offered[0].yaml_path == store.yaml_path
    assert nxt.doc.arena == edited and nxt.doc.dirty
    assert not store.yaml_path.exists()  # recovered files are removed
    assert nxt.recovery.pending() == []
    nxt.doc.undo_stack.setClean()
    nxt.doc.reset(make_arena(), None)
    nxt.runner.shutdown()


def test_clean_documents_leave_no_recovery_file(window) -> None:  # type: ignore[no-untyped-def]
    window.autosave()
    window.autosaver.wait()
    assert not window.recovery.yaml_path.exists()
    window.doc.push(C.DeleteElements(window.doc, ["W1"]))
    window.autosave()
    window.autosaver.wait()
    assert window.recovery.yaml_path.exists()
    window.doc.undo()
    window.autosave()
    window.autosaver.wait()
    assert not window.recovery.yaml_path.exists()


def test_clipboard_holds_yaml(window) -> None:  # type: ignore[no-untyped-def]
    window.doc.set_selection(["T1"])
    window.copy()
    text = QApplication.clipboard().text()
    assert text.startswith("static_targets:") and "T1" in text
