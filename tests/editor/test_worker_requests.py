"""Requests to the editor's persistent workers (:mod:`editor.worker_requests`): written at once by
the caller, read in the worker by a thread as they come, so a busy worker never holds up the
editor, and the newest is what the worker takes; a dead worker does not break the editor."""

from __future__ import annotations

import threading
import time
from typing import Any

from editor.processes import mp_context
from editor.worker_requests import Requests, take


#: Requests the editor writes while the worker is busy, and their size (1.2 MB in all: far over a
#: pipe's buffer).
EDITS, SIZE = 60, 20_000
#: Longest wait for anything here (a safety net against a deadlock, not a measure of speed).
WAIT_S = 120.0


def _busy_then_newest(requests: Any, replies: Any, go: Any) -> None:  # pragma: no cover - the worker process
    inbox = take(requests)
    first = inbox.get()
    go.wait(WAIT_S)  # busy with the first (a search) until the editor has written every edit
    while inbox.qsize() < EDITS:  # the reader thread has emptied the pipe meanwhile; let it finish
        time.sleep(0.01)
    msg = first
    while not inbox.empty():
        msg = inbox.get_nowait()
    replies.send((first[1], msg[1], len(msg[2])))


def test_a_busy_worker_never_holds_up_the_editors_writes() -> None:
    """The worker's loop is busy with its first request until the editor has written all 60
    edits (it waits for them, so no timing is involved): the writes complete all the same - the
    worker's reader thread empties the pipe - and the worker then takes the newest."""
    ctx = mp_context()
    requests = Requests(ctx)
    got, there = ctx.Pipe(duplex=False)
    go = ctx.Event()
    proc = ctx.Process(target=_busy_then_newest, args=(requests.reader, there, go), daemon=True)
    proc.start()
    there.close()
    requests.reader.close()
    try:
        requests.put(("run", 0, b""))

        def edits() -> None:
            for gen in range(1, EDITS + 1):
                requests.put(("run", gen, b"x" * SIZE))

        writer = threading.Thread(target=edits, daemon=True)
        writer.start()
        writer.join(WAIT_S)
        assert not writer.is_alive(), "the editor's writes waited for the busy worker"
        go.set()
        assert got.poll(WAIT_S)
        assert got.recv() == (0, EDITS, SIZE)  # the first, then the newest of all those sent meanwhile
    finally:
        go.set()
        proc.join(WAIT_S)
        requests.close()
        got.close()


def test_a_request_to_a_dead_worker_is_dropped_quietly() -> None:
    ctx = mp_context()
    requests = Requests(ctx)
    proc = ctx.Process(target=time.sleep, args=(30,), daemon=True)
    proc.start()
    requests.reader.close()
    proc.kill()
    proc.join()  # SIGKILL: it dies; reaped however long that takes
    requests.put(("run", 1, b"x" * 100_000))  # no error: the worker's replies pipe reports its death
    requests.close()
