"""Peak resident memory of an analysis (issue 20: memory reported in ``arena validate --json``).

:func:`in_use_mb` is what the analysis's memory cap (:mod:`engine.budget`) reads: the memory in
use now by the process that runs the analysis and the processes it started (a forked helper, a
pool's workers), each counted once.

Linux keeps a process's resident high-water mark (``VmHWM`` in ``/proc/self/status``) and lets
the process reset it (writing 5 to ``/proc/self/clear_refs``): :func:`start` resets it where it
can, :func:`peak_mb` reads it - so the figure is the peak since the analysis began (the memory
the process already held included), not since the process started.  Elsewhere
``getrusage``'s lifetime peak stands in; where neither exists, None.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def start() -> bool:
    """Reset this process's resident high-water mark; False where that isn't possible."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
        return True
    except OSError:
        return False


def peak_mb() -> float | None:
    """This process's peak resident memory in MiB (since :func:`start`, where it could reset)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024.0, 1)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return round(peak / (1024.0 * 1024.0 if sys.platform == "darwin" else 1024.0), 1)


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux: ``/proc/PID/task/TID/children``)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                out.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return out


def _proportional_kib(pid: int) -> int | None:
    """``pid``'s proportional set size in KiB (its private pages, plus each page it shares
    divided by the processes sharing it: a forked helper's copy-on-write pages count once
    between it and its parent), else its resident set; None when it can't be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except (OSError, ValueError, IndexError):
        return None


def in_use_mb(root: int | None = None) -> float | None:
    """MiB in use now by process ``root`` (default: this one) and every process it started,
    and they started (Linux: proportional set sizes from ``/proc``; elsewhere psutil's resident
    sets); None where it can't be read."""
    root = os.getpid() if root is None else root
    if os.path.isdir(f"/proc/{root}/task"):
        total, seen, todo = 0, set(), [root]
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            kib = _proportional_kib(pid)
            if kib is None and pid == root:
                return None
            total += kib or 0
            todo.extend(_children(pid))
        return round(total / 1024.0, 1)
    try:
        import psutil

        proc = psutil.Process(root)
        rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
        return round(float(rss) / (1024.0 * 1024.0), 1)
    except Exception:  # noqa: BLE001 - no psutil, no permission: no memory cap
        return None


def reading(root: int | None = None) -> Callable[[], float | None]:
    """The memory reading of an analysis run by process ``root`` (default: this one), for
    :class:`engine.budget.Budget`: the same total whichever of its processes reads it."""
    root = os.getpid() if root is None else root
    return lambda: in_use_mb(root)
