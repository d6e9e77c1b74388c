"""Recent files (QSettings) and crash recovery files.

Recovery: while a document has unsaved changes, its canonical YAML is written to
``<data folder>/recovery/session-<pid>.yaml`` (:func:`data_dir`) with a ``.json`` sidecar naming the
original file, by an :class:`Autosaver` shortly after every change (:data:`AUTOSAVE_MS` of quiet),
atomically, in a worker thread. A clean exit removes them; files left behind by a crashed session
are offered for recovery on the next start.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QThreadPool, QTimer, Signal

from schema import ArenaError, remove_stale_temp_files, write_atomic

MAX_RECENT = 8
RECENT_KEY = "recentFiles"


APP_FOLDER = "Arena Studio"


def data_dir() -> Path:
    """The editor's data folder: ``<GenericDataLocation>/Arena Studio`` (``~/.local/share/Arena
    Studio`` on Linux). Qt's AppDataLocation appends the organisation and the application name,
    both "Arena Studio": ``.../Arena Studio/Arena Studio``."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base or Path.home() / ".local" / "share") / APP_FOLDER


def recovery_dir() -> Path:
    override = os.environ.get("ARENA_STUDIO_RECOVERY_DIR")
    if override:
        return Path(override)
    return data_dir() / "recovery"


def legacy_recovery_dirs() -> list[Path]:
    """Where earlier versions wrote recovery files (still offered after an upgrade)."""
    if os.environ.get("ARENA_STUDIO_RECOVERY_DIR"):
        return []
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    old = Path(base) / "recovery" if base else None
    return [old] if old is not None and old != recovery_dir() else []


@dataclass(frozen=True)
class Recovery:
    yaml_path: Path
    original: str | None
    saved_at: float
    pid: int

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))
        return f"{self.original or 'an untitled arena'} (autosaved {when})"


class RecoveryStore:
    def __init__(self, directory: Path | None = None, pid: int | None = None) -> None:
        self.directory = directory or recovery_dir()
        #: Folders of earlier versions also searched by :meth:`pending`.
        self.legacy = legacy_recovery_dirs() if directory is None else []
        self.pid = os.getpid() if pid is None else pid

    @property
    def yaml_path(self) -> Path:
        return self.directory / f"session-{self.pid}.yaml"

    @property
    def meta_path(self) -> Path:
        return self.yaml_path.with_suffix(".json")

    def write(self, text: str, original: str | None) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        write_atomic(self.yaml_path, text.encode("utf-8"))
        meta = {"original": original, "saved_at": time.time(), "pid": self.pid}
        write_atomic(self.meta_path, json.dumps(meta).encode("utf-8"))
        return self.yaml_path

    def clear(self) -> None:
        for p in (self.yaml_path, self.meta_path):
            p.unlink(missing_ok=True)

    def pending(self) -> list[Recovery]:
        """Recovery files left by other (crashed) sessions, newest first."""
        out = []
        found = [y for d in (self.directory, *self.legacy) if d.is_dir() for y in d.glob("session-*.yaml")]
        for y in found:
            if y == self.yaml_path:
                continue
            try:
                meta = json.loads(y.with_suffix(".json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                meta = {}
            out.append(Recovery(y, meta.get("original"), float(meta.get("saved_at", y.stat().st_mtime)),
                                int(meta.get("pid", 0))))
        return sorted(out, key=lambda r: r.saved_at, reverse=True)

    @staticmethod
    def discard(rec: Recovery) -> None:
        rec.yaml_path.unlink(missing_ok=True)
        rec.yaml_path.with_suffix(".json").unlink(missing_ok=True)


#: Quiet time (ms) after a change before the recovery copy is written.
AUTOSAVE_MS = 2000
#: Changes that never pause are saved at least this many quiet times apart.
AUTOSAVE_MAX_WAIT = 5
#: Environment variable that overrides :data:`AUTOSAVE_MS` (the real-window tests shorten it).
AUTOSAVE_ENV = "ARENA_STUDIO_AUTOSAVE_MS"


def autosave_delay() -> int:
    """The autosave quiet time in ms: ``ARENA_STUDIO_AUTOSAVE_MS`` when it is a whole number of
    0 or more (a warning names any other value, which is ignored), else :data:`AUTOSAVE_MS`."""
    raw = os.environ.get(AUTOSAVE_ENV, "").strip()
    if not raw:
        return AUTOSAVE_MS
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        print(f"arena-studio: warning: {AUTOSAVE_ENV}={raw!r} is not a whole number of milliseconds (0 or more); "
              f"autosaving {AUTOSAVE_MS} ms after a change", file=sys.stderr)
        return AUTOSAVE_MS
    return value


#: What the autosaver keeps of the document: (unsaved?, the arena, its file or None).
Snapshot = tuple[bool, Any, str | None]


class Autosaver(QObject):
    """Writes the recovery copy (:class:`RecoveryStore`) shortly after every change.

    :meth:`changed` (connected to the document's signals) restarts a single-shot timer of
    ``delay_ms``; when it fires - or ``AUTOSAVE_MAX_WAIT`` delays after the first change still
    unsaved, for edits that never pause - :meth:`flush` takes the document's snapshot on the UI
    thread: the arena value itself (arenas are frozen dataclasses and every edit makes a new one,
    so holding it costs nothing). One worker thread (a private ``QThreadPool`` of one thread: the
    writes land in the order they were asked) turns it into YAML and writes it with
    ``write_atomic``, or removes the copy once the document is saved or clean again. A snapshot
    that a newer one has overtaken in the queue is skipped. ``failed`` carries a failed write's
    message to the UI thread; ``written`` the path written ("" when the copy was removed)."""

    failed = Signal(str)
    written = Signal(str)

    def __init__(self, store: RecoveryStore, snapshot: Callable[[], Snapshot], dumps: Callable[[Any], str],
                 delay_ms: int | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store, self.snapshot, self.dumps = store, snapshot, dumps
        self.delay_ms = autosave_delay() if delay_ms is None else delay_ms
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.flush)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._queued = 0  # the newest snapshot's number (the worker skips older ones)
        self._since: float | None = None  # when the first change not yet written came
        self._closed = False
        #: The clock of the longest wait (tests inject one).
        self.clock: Callable[[], float] = time.monotonic

    def changed(self, *_args: Any) -> None:
        """A change: write the copy after ``delay_ms`` without another one."""
        if self._closed:
            return
        now = self.clock()
        if self._since is None:
            self._since = now
        left = self._since + AUTOSAVE_MAX_WAIT * self.delay_ms / 1000 - now
        self.timer.start(max(0, min(self.delay_ms, int(left * 1000))))

    def flush(self) -> None:
        """Queue the document's state now: its copy written (unsaved) or removed (saved)."""
        self.timer.stop()
        self._since = None
        if self._closed:
            return
        dirty, arena, original = self.snapshot()
        self._queued += 1
        number = self._queued
        self.pool.start(lambda: self._write(number, arena if dirty else None, original))

    def _write(self, number: int, arena: Any, original: str | None) -> None:
        """In the worker thread."""
        if number != self._queued:
            return  # a newer state is queued behind this one
        try:
            if arena is None:
                self.store.clear()
                self.written.emit("")
            else:
                path = self.store.write(self.dumps(arena), original)
                self.written.emit(str(path))
        except (ArenaError, OSError) as exc:
            self.failed.emit(str(exc))

    def wait(self, msecs: int = -1) -> bool:
        """Until the queued writes are done (tests; closing)."""
        return bool(self.pool.waitForDone(msecs))

    def shutdown(self) -> None:
        """No more writes: the timer stopped, the queued ones finished."""
        self._closed = True
        self.timer.stop()
        self.wait()


def recent_files(settings: QSettings) -> list[str]:
    value = settings.value(RECENT_KEY, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):  # nothing stored yet (None)
        return []
    return [str(v) for v in value]


def add_recent(settings: QSettings, path: str) -> list[str]:
    path = str(Path(path).resolve())
    items = [path, *[p for p in recent_files(settings) if p != path]][:MAX_RECENT]
    settings.setValue(RECENT_KEY, items)
    return items


def clean_interrupted_saves(settings: QSettings, recovery: Path, opened: str | None = None) -> list[Path]:
    """At editor start: remove the temporary files that saves killed part-way (``kill -9``, a
    crash, a power cut) left beside arena files — in the recovery directory, beside each recent
    file and beside the file being opened. Only arena files' temporaries that no live save
    holds are removed (:func:`schema.io.remove_stale_temp_files`)."""
    directories = {recovery}
    for path in [*recent_files(settings), *([opened] if opened else [])]:
        directories.add(Path(path).parent)
    removed: list[Path] = []
    for directory in sorted(directories):
        removed += remove_stale_temp_files(directory=directory)
    return removed
