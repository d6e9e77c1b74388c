"""Processes as ``/proc`` shows them (Linux), for the tests that check helpers end with their
parent (the editor's workers, ``arena validate``'s helpers)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(d.name))
            except (OSError, IndexError, ValueError):
                pass
    return out


def survivors_of_kill(proc: subprocess.Popen[bytes], helpers: list[int], looks: int) -> list[int]:
    """Kill ``proc`` with SIGKILL (no chance to clean up), then look up to ``looks`` times, a
    tenth of a second apart, for its ``helpers`` to end: the ones still running."""
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    for _ in range(looks):
        if not any(alive(p) for p in helpers):
            break
        time.sleep(0.1)
    return [p for p in helpers if alive(p)]


def kill_leftovers(proc: subprocess.Popen[bytes], helpers: list[int]) -> None:
    """A test's clean-up whatever happened: ``proc`` and any of its ``helpers`` still alive are
    killed."""
    if proc.poll() is None:
        proc.kill()
    for p in helpers:
        if alive(p):
            os.kill(p, signal.SIGKILL)
