"""Small things a new designer trips over (issue 18, point 11): Export sits with the file
commands above Quit, the Open dialog starts in the last folder used, a long arena name shows
its start, and the recovery folder is not ".../Arena Studio/Arena Studio/recovery"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication

from editor import files as F
from editor import window_files
from editor.document import DEFAULT_ARENA


def test_export_is_above_quit(window) -> None:  # type: ignore[no-untyped-def]
    entries = [a.text().replace("&", "") for a in window.menus["file"].actions() if not a.isSeparator()]
    assert entries.index("Export") < entries.index("Quit") == len(entries) - 1
    actions = window.menus["file"].actions()
    assert actions[-2].isSeparator()  # Quit on its own below a separator


def test_open_dialog_starts_in_the_last_folder(window, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    asked: list[str] = []

    def fake_open(_parent, _title, start, _filter):  # type: ignore[no-untyped-def]
        asked.append(start)
        return "", ""

    monkeypatch.setattr(window_files.QFileDialog, "getOpenFileName", fake_open)
    monkeypatch.chdir(tmp_path)
    window.open_dialog()
    assert asked[-1] == str(tmp_path)  # nothing opened yet: the working directory
    folder = tmp_path / "designs"
    folder.mkdir()
    (folder / "a.yaml").write_bytes(DEFAULT_ARENA.read_bytes())
    assert window.open_path(str(folder / "a.yaml"))
    window.open_dialog()
    assert asked[-1] == str(folder.resolve())
    saved = tmp_path / "elsewhere"
    saved.mkdir()
    assert window.save_to(str(saved / "b.yaml"))
    window.open_dialog()
    assert asked[-1] == str(saved.resolve())
    # remembered across sessions (the settings)
    assert window.settings.value(window_files.LAST_DIR_KEY) == str(saved.resolve())


def test_a_long_name_shows_its_start(window) -> None:  # type: ignore[no-untyped-def]
    window.open_path(str(DEFAULT_ARENA), ask=False)
    name = window.doc.arena.name
    assert len(name) > 25
    inspector_name = window.inspector.editors["name"]
    panel_name = window.arena_panel.editors["name"]
    for edit in (inspector_name, panel_name):
        assert edit.text() == name and edit.cursorPosition() == 0


@pytest.fixture
def app_names():  # type: ignore[no-untyped-def]
    old = QCoreApplication.organizationName(), QCoreApplication.applicationName()
    QCoreApplication.setOrganizationName("Arena Studio")  # as editor.app sets them
    QCoreApplication.setApplicationName("Arena Studio")
    yield
    QCoreApplication.setOrganizationName(old[0])
    QCoreApplication.setApplicationName(old[1])


def test_recovery_folder_names_the_app_once(app_names, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("ARENA_STUDIO_RECOVERY_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    folder = F.recovery_dir()
    assert "Arena Studio/Arena Studio" not in folder.as_posix()
    assert folder == tmp_path / "share" / "Arena Studio" / "recovery"
    # a file an older version left in the doubled folder is still offered
    old = tmp_path / "share" / "Arena Studio" / "Arena Studio" / "recovery"
    F.RecoveryStore(old, pid=7).write("name: x\n", None)
    store = F.RecoveryStore(pid=8)
    assert [r.pid for r in store.pending()] == [7]
