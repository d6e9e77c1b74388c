"""Nothing lost (issue 42, points 5 and 6).

Point 5: the recovery copy is written shortly after every change - a short quiet time
(debounced: a burst of edits is one write), atomically (``write_atomic``), in a worker thread -
for the documents of every game, and the next start offers it. The quiet time is injected
(``autosave_ms``, a few ms here) and the waits are safety nets; the longest-wait rule is checked
with an injected clock.

Point 6: new, generated, imported and fixed documents are unsaved until saved: ``*`` in the
title, and quitting or opening another file asks Save, Discard or Cancel, for all five games.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

import editor.files as F
from editor import commands as C
from editor import elements as E
from editor.balance import ApplyFix
from editor.games.rulesets import default_arena, games
from editor.validation import format_analyse
from schema import load, save
from schema.formats import get

from tests.editor.conftest import make_arena

SYSTEMS = [g[0] for g in games()]
#: Longest wait for a write (a safety net: a write takes milliseconds).
WAIT_MS = 30_000


def test_every_game_is_offered_by_file_new() -> None:
    assert sorted(SYSTEMS) == ["arena-rex", "car-wars-6e", "glider-pit-gladiators", "gravstrike", "mothership-grid"]


@pytest.fixture
def quick(window):  # type: ignore[no-untyped-def]
    """The window with a 5 ms autosave quiet time, listing the files written."""
    window.autosaver.wait()
    window.autosaver.delay_ms = 5
    writes: list[str] = []
    window.autosaver.written.connect(writes.append)
    window.writes = writes
    return window


def _record_threads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Path, int]]:
    """The files written through ``write_atomic`` by the recovery store, with the thread."""
    calls: list[tuple[Path, int]] = []
    real = F.write_atomic

    def spy(path: Any, data: bytes) -> None:
        calls.append((Path(path), threading.get_ident()))
        real(path, data)

    monkeypatch.setattr(F, "write_atomic", spy)
    return calls


def test_an_edit_is_in_the_recovery_copy_after_the_quiet_time(quick, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """kill -9 twenty seconds after an edit lost it (the copy was written once a minute): now
    the copy follows the edit after the quiet time, written atomically in another thread."""
    calls = _record_threads(monkeypatch)
    store = quick.recovery
    quick.doc.push(C.DeleteElements(quick.doc, ["W1"]))
    edited = quick.doc.arena
    qtbot.waitUntil(lambda: store.yaml_path.exists() and load(store.yaml_path) == edited, timeout=WAIT_MS)
    quick.autosaver.wait()
    ui = threading.get_ident()
    assert [p for p, _ in calls] == [store.yaml_path, store.meta_path]  # both replaced whole
    assert all(t != ui for _, t in calls), "the copy is written off the UI thread"
    qtbot.waitUntil(lambda: bool(quick.writes), timeout=WAIT_MS)  # (queued to the UI thread)
    assert quick.writes == [str(store.yaml_path)]


def test_a_burst_of_edits_is_one_write_of_the_last(quick, qtbot) -> None:  # type: ignore[no-untyped-def]
    for dx in (1.0, 1.0, 1.0):  # no event loop between them: one quiet time
        quick.doc.push(C.MoveElements(quick.doc, ["W1"], dx, 0.0))
    last = quick.doc.arena
    qtbot.waitUntil(lambda: bool(quick.writes), timeout=WAIT_MS)
    quick.autosaver.wait()
    qtbot.wait(20)  # four quiet times: nothing more is written
    assert len(quick.writes) == 1 and load(quick.recovery.yaml_path) == last


def test_edits_that_never_pause_are_saved_after_the_longest_wait(window) -> None:  # type: ignore[no-untyped-def]
    """A change restarts the quiet time, but not past AUTOSAVE_MAX_WAIT quiet times after the
    first change not yet written (an injected clock: no waiting)."""
    saver = window.autosaver
    saver.wait()
    now = [100.0]
    saver.clock = lambda: now[0]
    saver.delay_ms = 2000
    saver._since = None
    saver.changed()
    assert saver.timer.interval() == 2000
    longest = F.AUTOSAVE_MAX_WAIT * 2.0  # seconds after the first change
    for _ in range(int(longest / 1.5) - 1):  # a change every 1.5 s: the quiet time never comes
        now[0] += 1.5
        saver.changed()
        assert saver.timer.interval() == 2000
    now[0] = 100.0 + longest - 0.5
    saver.changed()
    assert saver.timer.interval() == 500  # the rest of the longest wait
    now[0] = 100.0 + longest + 3.0
    saver.changed()
    assert saver.timer.interval() == 0  # overdue: at once
    saver.flush()
    saver.changed()
    assert saver.timer.interval() == 2000  # a new first change
    saver.timer.stop()


def test_saving_removes_the_copy_after_a_queued_write(quick, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    quick.doc.push(C.DeleteElements(quick.doc, ["W1"]))
    quick.autosave()  # queued, maybe not yet written
    assert quick.save_to(str(tmp_path / "saved.yaml"))
    quick.autosaver.wait()
    assert not quick.recovery.yaml_path.exists() and not quick.recovery.meta_path.exists()
    quick.doc.push(C.DeleteElements(quick.doc, ["A"]))
    qtbot.waitUntil(quick.recovery.yaml_path.exists, timeout=WAIT_MS)
    quick.autosaver.wait()
    assert load(quick.recovery.yaml_path) == quick.doc.arena
    assert quick.close()  # ask_save: Discard; a clean exit leaves nothing to recover
    assert not quick.recovery.yaml_path.exists()
    quick.doc.push(C.DeleteElements(quick.doc, ["M"]))  # after closing: nothing more is written
    qtbot.wait(20)
    assert not quick.recovery.yaml_path.exists()


def test_a_failed_write_is_shown(quick, qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    quick.recovery.directory = blocker / "recovery"
    quick.doc.push(C.DeleteElements(quick.doc, ["W1"]))
    qtbot.waitUntil(lambda: "Autosave failed" in quick.statusBar().currentMessage(), timeout=WAIT_MS)
    assert "not-a-folder" in quick.statusBar().currentMessage()


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_games_document_is_autosaved_and_recovered(quick, qtbot, system: str) -> None:  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    assert quick.new_arena(system)
    arena = quick.doc.arena
    assert getattr(arena, "system", "gravstrike") == system
    store = quick.recovery
    qtbot.waitUntil(lambda: store.yaml_path.exists(), timeout=WAIT_MS)
    quick.autosaver.wait()
    assert load(store.yaml_path) == arena
    nxt = MainWindow(settings=quick.settings, recovery=F.RecoveryStore(store.directory, pid=2), analyse=format_analyse,
                     autosave_ms=5)
    qtbot.addWidget(nxt)
    nxt.ask_recover = lambda rec: QMessageBox.StandardButton.Yes
    nxt.ask_save = lambda: QMessageBox.StandardButton.Discard
    assert nxt.offer_recovery()
    assert nxt.doc.arena == arena and nxt.doc.dirty and nxt.isWindowModified()
    nxt.autosaver.shutdown()
    nxt.runner.shutdown()


# ---------------------------------------------------------------- point 6: unsaved until saved


def _asked(win) -> list[int]:  # type: ignore[no-untyped-def]
    """Make the window answer Cancel to "Save changes?", counting the questions."""
    asked: list[int] = []

    def ask() -> QMessageBox.StandardButton:
        asked.append(1)
        return QMessageBox.StandardButton.Cancel
    win.ask_save = ask
    return asked


def _is_unsaved(win, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """``*`` in the title; quitting and opening another file ask first (Cancel keeps it)."""
    assert win.doc.dirty and win.isWindowModified() and win.windowTitle().startswith("Untitled[*]")
    arena = win.doc.arena
    asked = _asked(win)
    assert not win.close() and win.isVisible()
    other = tmp_path / "other.yaml"
    save(make_arena(), other)
    assert not win.open_path(str(other))
    assert not win.new_arena("gravstrike")
    assert len(asked) == 3 and win.doc.arena is arena
    win.ask_save = lambda: QMessageBox.StandardButton.Discard


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_new_arena_is_unsaved_until_saved(window, tmp_path: Path, system: str) -> None:  # type: ignore[no-untyped-def]
    assert window.new_arena(system)
    _is_unsaved(window, tmp_path)
    first = window.doc.arena
    # edited and undone back to its start: still in no file
    window.doc.push(C.SetArenaName(window.doc, "Renamed"))
    window.doc.undo()
    assert window.doc.arena == first and window.doc.dirty and window.isWindowModified()
    assert window.save_to(str(tmp_path / "saved.yaml"))
    assert not window.doc.dirty and not window.isWindowModified()
    asked = _asked(window)
    assert window.close() and not asked  # saved: no question


def test_new_empty_and_template_arenas_are_unsaved(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from editor.document import DEFAULT_ARENA

    window.new_document(from_default=False)
    _is_unsaved(window, tmp_path)
    window.new_from_template(DEFAULT_ARENA)
    assert window.doc.arena == load(DEFAULT_ARENA)
    _is_unsaved(window, tmp_path)


def test_the_start_up_document_is_clean_until_edited(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from editor.mainwindow import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, recovery=F.RecoveryStore(tmp_path / "recovery", pid=1), analyse=format_analyse)
    qtbot.addWidget(win)
    asked = _asked(win)
    assert not win.doc.dirty and not win.isWindowModified()
    assert win.close() and not asked


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_imported_arena_is_unsaved(window, tmp_path: Path, system: str) -> None:  # type: ignore[no-untyped-def]
    """File → Import… (a GeoJSON collection, as ``arena export --to geojson`` writes it):
    a new untitled document, unsaved."""
    arena = default_arena(system)
    source = tmp_path / "map.geojson"
    source.write_bytes(get("geojson").write(arena).data)
    assert window.import_path(str(source))
    assert window.doc.arena == arena and window.doc.path is None
    assert "Imported" in window.statusBar().currentMessage()
    _is_unsaved(window, tmp_path)


def test_what_an_import_skipped_is_listed(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from editor.document import DEFAULT_ARENA

    arena = load(DEFAULT_ARENA)
    collection = json.loads(get("geojson").write(arena).data)
    start = next(f for f in collection["features"] if f["properties"]["kind"] == "start_position")
    start["properties"]["id"] = "S1"  # a start position has none: ignored, with a warning
    source = tmp_path / "edited-in-qgis.geojson"
    source.write_text(json.dumps(collection), encoding="utf-8")
    shown: list[tuple[str, str]] = []
    window.show_warnings = lambda title, text: shown.append((title, text))
    assert window.import_path(str(source))
    assert window.doc.arena == arena and window.doc.dirty
    assert shown == [("Imported edited-in-qgis.geojson with warnings",
                      f"{source}: /features/{collection['features'].index(start)} ('S1'): properties.id 'S1' ignored: "
                      "a start position has no id")]
    assert "(1 warning(s))" in window.statusBar().currentMessage()


def test_a_file_that_cannot_be_imported_is_named_and_nothing_changes(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "notes.json"
    bad.write_text('{"type": "Notes"}')
    before = window.doc.arena
    assert not window.import_path(str(bad))
    assert str(bad) in window.last_error and "nothing to import" in window.last_error
    assert window.doc.arena is before and not window.doc.dirty
    assert window.act["import"].text() == "&Import…"
    assert window.act["import"] in window.menus["file"].actions()


def test_a_fixed_new_arena_stays_unsaved_when_the_fix_is_undone(window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A fix applied to a new arena (Propose fix → Apply: one ApplyFix undo step), then undone:
    the arena is back at its start, which is in no file."""
    assert window.new_arena("car-wars-6e")
    start = window.doc.arena
    el = start.elements()[0]
    fixed = E.replace_element(start, E.ref_of(el), E.translate(el, 1.0, 0.0))
    told: list[bool] = []
    window.doc.dirtyChanged.connect(told.append)
    window.doc.push(ApplyFix(window.doc, fixed, [E.ref_of(el)], "move a start"))
    assert window.doc.arena == fixed and window.isWindowModified()
    window.doc.undo()
    assert window.doc.arena == start and told[-1] is True
    _is_unsaved(window, tmp_path)
