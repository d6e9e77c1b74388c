"""Peak resident memory of an analysis (issue 20: memory reported in ``arena validate --json``).

Linux keeps a process's resident high-water mark (``VmHWM`` in ``/proc/self/status``) and lets
the process reset it (writing 5 to ``/proc/self/clear_refs``): :func:`start` resets it where it
can, :func:`peak_mb` reads it - so the figure is the peak since the analysis began (the memory
the process already held included), not since the process started.  Elsewhere
``getrusage``'s lifetime peak stands in; where neither exists, None.
"""

from __future__ import annotations

import sys


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
