"""Requests to the editor's persistent worker processes (the live validation's travel workers
of every game): a pipe the editor writes each request into at once, and in the worker a thread
that reads them as they come into a queue its loop takes them from.

A ``multiprocessing.Queue`` writes through a feeder thread of the editor's process, which must
win the interpreter lock from the UI thread, busy redrawing after the very edit it reports: the
request reached the worker 10-15 ms after the edit (measured after a Car Wars card drag).
Written here by the caller, it is there at once; and as the worker's reader thread empties the
pipe whatever the worker is doing, the editor's writes never wait on a busy worker.

>>> import multiprocessing
>>> requests = Requests(multiprocessing.get_context("fork"))
>>> inbox = take(requests.reader)
>>> requests.put(("run", 1, "arena"))
>>> inbox.get(timeout=5)
('run', 1, 'arena')
>>> requests.close()
>>> inbox.get(timeout=5)
('quit',)
"""

from __future__ import annotations

import queue
import threading
from typing import Any


class Requests:
    """The editor's end: ``put`` a request (pickled and written now), ``close`` when done;
    :attr:`reader` is the end to give the worker process (close it here once it is started).
    ``cancel_join_thread`` is a no-op, as the queue this replaces needed it."""

    def __init__(self, ctx: Any) -> None:
        self.reader, self._writer = ctx.Pipe(duplex=False)

    def put(self, msg: Any) -> None:
        """Write ``msg`` now (nothing when the worker has died: its replies' pipe tells the
        editor, which starts another, as it did with the queue)."""
        try:
            self._writer.send(msg)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def close(self) -> None:
        self._writer.close()

    def cancel_join_thread(self) -> None:
        pass


def take(conn: Any) -> queue.Queue[Any]:
    """The worker's end: a queue filled by a thread reading ``conn`` (a request as it comes;
    ``("quit",)`` when the editor closes its end or goes away)."""
    inbox: queue.Queue[Any] = queue.Queue()

    def read() -> None:
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                msg = ("quit",)
            inbox.put(msg)
            if msg[0] == "quit":
                return

    threading.Thread(target=read, name="requests", daemon=True).start()
    return inbox


__all__ = ["Requests", "take"]
