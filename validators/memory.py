"""Peak resident memory of an analysis (issue 20: memory reported in ``arena validate --json``).

:func:`in_use_mb` is what the analysis's memory cap (:mod:`engine.budget`) reads: the memory in
use now by the process that runs the analysis and the processes it started (a forked helper, a
pool's workers) - their resident sets added up (read in microseconds), confirmed by their
proportional set sizes (each shared page counted once) when that passes the cap - less what
they held when the analysis began (:func:`reading`).

Linux keeps a process's resident high-water mark (``VmHWM`` in ``/proc/self/status``) and lets
the process reset it (writing 5 to ``/proc/self/clear_refs``): :func:`start` resets it where it
can, :func:`peak_mb` reads it - so the figure is the peak since the analysis began (the memory
the process already held included), not since the process started.  Elsewhere
``getrusage``'s lifetime peak stands in; where neither exists, None.
"""

from __future__ import annotations

import math
import os
import sys
import time
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


#: Seconds between two precise readings of :func:`reading` (each walks every page held).
PRECISE_EVERY = 1.0


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


def _resident_kib(pid: int) -> int | None:
    """``pid``'s resident set in KiB (``/proc/PID/statm``: a read of a few microseconds)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except (OSError, ValueError, IndexError):
        return None


def _proportional_kib(pid: int) -> int | None:
    """``pid``'s proportional set size in KiB (its private pages, plus each page it shares
    divided by the processes sharing it: a forked helper's copy-on-write pages count once
    between it and its parent), else its resident set; None when it can't be read.  The kernel
    walks every page to answer: about 50-100 ms for a GiB held by two processes."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return _resident_kib(pid)


def _tree(root: int) -> list[int]:
    """``root`` and every process it started, and they started."""
    seen: list[int] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.append(pid)
            todo.extend(_children(pid))
    return seen


def in_use_mb(root: int | None = None, precise: bool = False) -> float | None:
    """MiB in use now by process ``root`` (default: this one) and every process it started,
    and they started: their resident sets added up (Linux ``/proc``; elsewhere psutil's), where
    pages a forked helper still shares with its parent count in both - an upper bound, read in
    microseconds - or with ``precise``, their proportional set sizes (each page once; a
    slower read).  None where it can't be read."""
    root = os.getpid() if root is None else root
    if os.path.isdir(f"/proc/{root}/task"):
        read = _proportional_kib if precise else _resident_kib
        total = 0
        for pid in _tree(root):
            kib = read(pid)
            if kib is None and pid == root:
                return None
            total += kib or 0
        return round(total / 1024.0, 1)
    try:
        import psutil

        proc = psutil.Process(root)
        rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
        return round(float(rss) / (1024.0 * 1024.0), 1)
    except Exception:  # noqa: BLE001 - no psutil, no permission: no memory cap
        return None


def reading(root: int | None = None, confirm_above: float | None = None) -> Callable[[], float | None]:
    """The memory reading of an analysis run by process ``root`` (default: this one), for
    :class:`engine.budget.Budget`: what the analysis added to what its processes held when the
    reading was made (so the memory a long-lived process - the editor, a service worker, a test
    runner - already held does not count against the cap), the same whichever of its processes
    reads it: the quick upper bound of :func:`in_use_mb`, and, when that is above
    ``confirm_above`` MiB (the cap), the precise figure, so pages shared after a fork do not stop
    an analysis early."""
    root = os.getpid() if root is None else root
    held = in_use_mb(root) or 0.0  # before the analysis, both ways (a precise read takes about a millisecond)
    held_precise = (in_use_mb(root, precise=True) or held) if confirm_above is not None else held
    shared = {"mib": 0.0, "at": -math.inf}  # what the last precise reading found counted twice, and when

    def read() -> float | None:
        quick = in_use_mb(root)
        if quick is None:
            return None
        quick -= held
        if confirm_above is None or quick <= confirm_above:
            return max(0.0, round(quick, 1))
        now = time.monotonic()
        if now - shared["at"] >= PRECISE_EVERY or quick - shared["mib"] > confirm_above:
            precise = in_use_mb(root, precise=True)
            if precise is None:
                return round(quick, 1)
            shared.update(mib=max(0.0, quick - (precise - held_precise)), at=now)
        return max(0.0, round(quick - shared["mib"], 1))

    return read
