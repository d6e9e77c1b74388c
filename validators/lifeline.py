"""Helper processes that end with the process that started them (issue 18, point 7, for the
editor; issue 36, point 14, for the CLI and the service).

Two ways, for the two ways helpers are started:

* **Spawned or forkserver children** (the editor's travel and overlay workers, a batch's
  pool): a :class:`Lifeline` is a pipe whose writing end only the starting
  process holds (such a child receives just the reading end, with its arguments).
  :func:`watch` - called first thing in the child - starts a thread that blocks reading it;
  when the parent dies, however it dies (``kill -9`` too), the kernel closes the writing end,
  the read returns end-of-file and the child exits at once.
* **Forked children** (``arena validate``'s helper, :mod:`validators.parallel`; Car Wars's
  search workers; the service's workers, forked by its preloader, which itself follows the
  service by its id alone: :mod:`app.service.prefork`): a fork copies every descriptor, the pipe's writing end too, so a pipe cannot
  tell; :func:`follow_parent` - called first thing in the child - has the kernel kill it when
  its parent dies (Linux ``PR_SET_PDEATHSIG``, when the parent forked from its main thread) and
  watches the parent's id besides (everywhere): a child whose parent is gone is handed to
  another process, so ``os.getppid()`` changes and the child exits.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

_LINE: Lifeline | None = None
#: Seconds between two looks at the parent's id (:func:`follow_parent`).
POLL = 0.2
_PR_SET_PDEATHSIG = 1


class Lifeline:
    """The parent's end of the pipe (kept open for the life of the process) and the end
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


def watch(conn: Any, on_death: Callable[[], None] | None = None) -> threading.Thread:
    """In a child: exit (``os._exit``) as soon as the process that holds ``conn``'s other end
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


def _deathsig() -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux); False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def follow_parent(parent: int, deathsig: bool = True, *, poll: float = POLL,
                  on_death: Callable[[], None] | None = None) -> threading.Thread:
    """In a child started by process ``parent``: exit as soon as ``parent`` is gone.
    ``deathsig``: also have the kernel kill this process then (Linux; only right when the parent
    forked it from its main thread - the signal comes when the forking *thread* ends); the watch
    of the parent's id covers the rest. ``on_death`` (tests) replaces the exit."""
    def gone() -> None:
        if on_death is not None:
            on_death()
        else:
            os._exit(0)

    if deathsig:
        _deathsig()

    def wait() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        gone()

    thread = threading.Thread(target=wait, name="arena-studio-follow-parent", daemon=True)
    thread.start()
    return thread


def forked_from_main_thread() -> bool:
    """Whether this thread is the process's main one (a child it forks may use ``deathsig``)."""
    return threading.current_thread() is threading.main_thread()


__all__ = ["Lifeline", "follow_parent", "forked_from_main_thread", "lifeline", "watch"]
