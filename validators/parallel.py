"""One arena's validation on two cores (``arena validate`` on a single arena).

The analysis's independent pieces - each start's search, each validator that needs no travel,
the checkpoints' travel - are tasks that this process and a forked copy of it take one at a
time from a :class:`TaskQueue` until none is left (the dearest first), so the work is shared by
what it costs, not by kind; the travel validators then run here on the travel of both.  The
report is the same as a sequential run's (same searches, same order of findings); only the wall
time halves.  Where ``os.fork`` doesn't exist, or the helper fails, everything runs here.

The child only computes: it never prints or takes a lock the parent's threads might hold, and it
leaves with ``os._exit`` after writing its pickled answer to a pipe - or as soon as the parent
is gone, however it ended (``kill -9`` too: :func:`validators.lifeline.follow_parent`).  It runs
under the analysis's budget (:mod:`engine.budget`), whose deadline and memory reading it shares
with the parent.
"""

from __future__ import annotations

import os
import pickle
import signal
import traceback
from collections.abc import Callable
from typing import Any


class TaskQueue:
    """Task numbers ``0 .. n-1`` for this process and a helper forked after it was made to take one
    at a time, in order, each number by one process only: one byte each in a pipe whose writing
    end is closed (a read takes the next byte; an empty read means none is left)."""

    def __init__(self, n: int) -> None:
        if not 0 <= n <= 255:
            raise ValueError(f"a task queue holds 0 to 255 tasks, not {n}")
        self._r, w = os.pipe()
        try:
            os.write(w, bytes(range(n)))  # at most 255 bytes: written at once, before any read
        finally:
            os.close(w)

    def take(self) -> int | None:
        """The next task's number, or None when all are taken."""
        got = os.read(self._r, 1)
        return got[0] if got else None

    def close(self) -> None:
        os.close(self._r)


class Helper:
    """A forked child computing ``fn()``; :meth:`result` waits for its answer."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd
        self.done = False

    def result(self) -> Any:
        if self.done:
            raise RuntimeError("the validation helper's answer was read or dropped already")
        self.done = True
        chunks = []
        try:
            while True:
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(self.fd)
            os.waitpid(self.pid, 0)
        if not chunks:
            raise RuntimeError("the validation helper process died")
        status, value = pickle.loads(b"".join(chunks))
        if status != "ok":
            raise RuntimeError(value)
        return value

    def cancel(self) -> None:
        """Drop the answer: stop the child if it is still computing, and reap it (nothing once
        :meth:`result` has read the answer)."""
        if self.done:
            return
        self.done = True
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:  # pragma: no cover - already gone (and reaped below)
            pass
        os.close(self.fd)
        os.waitpid(self.pid, 0)


def fork_helper(fn: Callable[[], Any]) -> Helper | None:
    """Start ``fn()`` in a forked child, or return None where processes can't be forked."""
    if not hasattr(os, "fork"):
        return None
    from validators.lifeline import follow_parent, forked_from_main_thread

    parent, deathsig = os.getpid(), forked_from_main_thread()
    r, w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return None
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        try:
            follow_parent(parent, deathsig=deathsig)
            try:
                payload = pickle.dumps(("ok", fn()), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:  # noqa: BLE001 - reported to the parent, which runs it itself
                payload = pickle.dumps(("error", traceback.format_exc(limit=4)))
            view = memoryview(payload)
            while view:
                view = view[os.write(w, view):]
        finally:
            os._exit(0)
    os.close(w)
    return Helper(pid, r)
