"""Parent-death detection for the editor's helper processes (no Qt).

The travel workers and the overlays' child processes are started through multiprocessing's
forkserver, so their parent is the forkserver, not the editor, and they block on their request
queues (which they also hold the writing end of): killed with ``kill -9``, the editor would
leave them, the forkserver (kept alive by the workers' copy of its "alive" pipe) and the
resource tracker running.

A :class:`Lifeline` is a pipe whose writing end only the editor's process holds (a forkserver
child receives just the reading end, with its arguments). :func:`watch` - called first thing
in a child - starts a thread that blocks reading it; when the editor dies, however it dies,
the kernel closes the writing end, the read returns end-of-file and the child exits at once.
With the workers gone, the forkserver sees its alive pipe close and exits, and so does the
resource tracker: nothing is left, and a restarted editor starts one fresh set.
"""

from __future__ import annotations

import os
import threading
from typing import Any

_LINE: Lifeline | None = None


class Lifeline:
    """The editor's end of the pipe (kept open for the life of the process) and the end
    handed to children."""

    def __init__(self, context: Any) -> None:
        self.child_end, self._parent_end = context.Pipe(duplex=False)
        self.pid = os.getpid()


def lifeline(context: Any) -> Any:
    """The reading end to pass to a child started with ``context`` (one pipe per process,
    made on first use)."""
    global _LINE
    if _LINE is None or _LINE.pid != os.getpid():
        _LINE = Lifeline(context)
    return _LINE.child_end


def watch(conn: Any, on_death: Any = None) -> threading.Thread:
    """In a child: exit (``os._exit``) as soon as the editor that holds ``conn``'s other end
    is gone. ``on_death`` (tests) replaces the exit."""
    def wait() -> None:
        try:
            while True:
                conn.recv_bytes()  # nothing is ever sent: this returns only at end-of-file
        except (EOFError, OSError):
            pass
        if on_death is not None:
            on_death()
        else:
            os._exit(0)

    thread = threading.Thread(target=wait, name="arena-studio-lifeline", daemon=True)
    thread.start()
    return thread


__all__ = ["Lifeline", "lifeline", "watch"]
