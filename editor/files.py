"""Recent files (QSettings) and crash recovery files.

Recovery: while a document has unsaved changes, its canonical YAML is written every minute
to ``<data folder>/recovery/session-<pid>.yaml`` (:func:`data_dir`) with a ``.json`` sidecar naming the
original file. A clean exit removes them; files left behind by a crashed session are offered
for recovery on the next start.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

from schema import remove_stale_temp_files, write_atomic

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


def recent_files(settings: QSettings) -> list[str]:
    value = settings.value(RECENT_KEY, [])
    if isinstance(value, str):
        value = [value]
    return [str(v) for v in (value or [])]


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
