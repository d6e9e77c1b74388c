"""Requests to the editor's persistent workers (:mod:`editor.worker_requests`): written at once by
the caller, read in the worker by a thread as they come, so a busy worker never holds up the
editor, and the newest is what the worker takes; a dead worker does not break the editor."""

from __future__ import annotations

import time
from typing import Any

from editor.travel_workers import mp_context
from editor.worker_requests import Requests, take


def _busy_then_newest(requests: Any, replies: Any) -> None:  # pragma: no cover - the worker process
    inbox = take(requests)
    first = inbox.get()
    time.sleep(1.5)  # busy with the first (a search, loading the compiled loops)
    msg = first
    while not inbox.empty():
        msg = inbox.get_nowait()
    replies.send((first[1], msg[1], len(msg[2])))


def test_a_busy_worker_never_holds_up_the_editors_writes() -> None:
    ctx = mp_context()
    requests = Requests(ctx)
    got, there = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_busy_then_newest, args=(requests.reader, there), daemon=True)
    proc.start()
    there.close()
    requests.reader.close()
    try:
        requests.put(("run", 0, b""))
        time.sleep(0.3)
        t0 = time.perf_counter()
        for gen in range(1, 61):  # 60 edits of 20 kB while the worker is busy: 1.2 MB, far over a pipe's buffer
            requests.put(("run", gen, b"x" * 20_000))
        assert time.perf_counter() - t0 < 0.5
        assert got.poll(30)
        assert got.recv() == (0, 60, 20_000)  # the first, then the newest of all those sent meanwhile
    finally:
        proc.join(10)
        requests.close()
        got.close()


def test_a_request_to_a_dead_worker_is_dropped_quietly() -> None:
    ctx = mp_context()
    requests = Requests(ctx)
    proc = ctx.Process(target=time.sleep, args=(30,), daemon=True)
    proc.start()
    requests.reader.close()
    proc.kill()
    proc.join(5)
    requests.put(("run", 1, b"x" * 100_000))  # no error: the worker's replies pipe reports its death
    requests.close()
