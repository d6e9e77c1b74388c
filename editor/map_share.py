"""Distance maps shared between the editor's travel workers.

After an edit that moves a wall, every worker builds the new arena's planner, and each one's
first search needs the distance map of every goal (9 on a four-start table with five
checkpoints: 0.1 s of Dijkstra on a 48-length table, the same in both workers).  With a
:class:`MapShare` in a directory both can read, each worker makes the maps in its own order - the
first worker from one end of the list, the second from the other - publishes each one, and takes
those the other has published instead of making them: the maps are made once, by whichever
worker gets there first, and both go on with the same arrays, bit for bit.

A map's file name is :meth:`engine.gravstrike.planner.Planner.map_key` (a digest of the arena's
bounds, walls, fields and turbine and of the goal's region), so maps of other arena versions are
never taken; a file is written whole and then renamed into place, so a reader sees a whole map or
none.  The directory keeps the newest :data:`KEEP` maps; :func:`make_dir` puts it in shared
memory where there is some, and removes those whose editor is gone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

#: Maps a share keeps (the newest): four versions of an arena with nine goals and some room.
KEEP = 48
PREFIX = "arena-studio-maps-"


class MapShare:
    """The maps in ``folder``, seen by worker ``index`` (its order: even workers first to last,
    odd ones last to first)."""

    def __init__(self, folder: str | os.PathLike[str], index: int) -> None:
        self.folder = Path(folder)
        self.index = index
        self.taken = 0  # maps read from the other workers (tests and benchmarks look)
        self.made = 0

    def order(self, keys: list[str]) -> list[str]:
        ordered = sorted(keys)
        return ordered if self.index % 2 == 0 else ordered[::-1]

    def get(self, key: str) -> np.ndarray | None:
        try:
            with open(self.folder / f"{key}.npy", "rb") as fh:
                got: np.ndarray = np.load(fh, allow_pickle=False)
        except (OSError, ValueError):  # not there (yet), or the folder is gone: make it
            return None
        self.taken += 1
        return got

    def put(self, key: str, array: np.ndarray) -> None:
        self.made += 1
        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".part-", suffix=".npy")
            with os.fdopen(fd, "wb") as fh:
                np.save(fh, array, allow_pickle=False)
            os.replace(tmp, self.folder / f"{key}.npy")
            self._prune()
        except OSError:  # sharing is a speed-up: a full or vanished folder only costs the speed
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)

    def _prune(self) -> None:
        files = [e for e in os.scandir(self.folder) if e.name.endswith(".npy") and not e.name.startswith(".")]
        if len(files) <= KEEP:
            return
        files.sort(key=lambda e: e.stat().st_mtime_ns)
        for e in files[: len(files) - KEEP]:
            with contextlib.suppress(OSError):
                os.unlink(e.path)


def make_dir() -> str:
    """A new folder for one editor's workers (in ``/dev/shm`` where there is one), after removing
    the folders of editors that are gone (their process id is in the name)."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
    for entry in Path(base).glob(f"{PREFIX}*"):
        pid = entry.name[len(PREFIX):].partition("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=base)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's: leave it
        return True
    return True
