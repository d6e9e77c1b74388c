"""Recent files (QSettings) and crash recovery files.

Recovery: while a document has unsaved changes, its canonical YAML is written every minute
to ``<AppDataLocation>/recovery/session-<pid>.yaml`` with a ``.json`` sidecar naming the
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


def recovery_dir() -> Path:
    override = os.environ.get("ARENA_STUDIO_RECOVERY_DIR")
    if override:
        return Path(override)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".arena-studio") / "recovery"


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
        if not self.directory.is_dir():
            return []
        out = []
        for y in self.directory.glob("session-*.yaml"):
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
