"""The editor's travel stage: persistent worker processes that keep travel searches between edits.

Each worker owns a :class:`validators.travel_session.TravelSession` for a share of the arena's
travel sources (start positions and outlying checkpoints, dealt out in turn), so that after an
edit that only moves goals - dragging a checkpoint, a static target, a start - each kept search
is resumed for the moved goals instead of searching again, and the workers do that on both
cores at once.  Between requests a worker warms up: it runs the searches its sources don't have
yet (a first run on a symmetric arena answers most sources from one search's image), so that
the first edit after opening an arena is already incremental.

A newer request stops a worker's current one between two batches of the search (the worker
watches its request queue); the parent drops answers to older requests.  A worker that dies is
started again (its searches are lost, nothing else).  No Qt here: the validation runner calls
:meth:`TravelWorkers.run` from its worker thread.
"""

from __future__ import annotations

import multiprocessing
import queue
import traceback
from collections.abc import Callable
from typing import Any

from schema.model import Arena
from validators.context import travel_sources

#: Worker processes (the machines Arena Studio targets have two cores or more).
WORKERS = 2

_MP_CONTEXT: Any = None


def mp_context() -> Any:
    """forkserver (a clean, pre-imported process to fork workers from) where available."""
    global _MP_CONTEXT
    if _MP_CONTEXT is None:
        methods = multiprocessing.get_all_start_methods()
        _MP_CONTEXT = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:
            _MP_CONTEXT.set_forkserver_preload(["validators.run", "validators.travel_session", "schema"])
    return _MP_CONTEXT


class Stopped(Exception):
    """The request was superseded (``should_stop()`` returned True while waiting)."""


def _serve(requests: Any, replies: Any) -> None:  # pragma: no cover - runs in the worker process
    from engine.frontier import SearchStopped
    from validators.travel_session import TravelSession

    session = TravelSession()
    mine: list[str] = []
    warm = False
    gen = 0

    def newer() -> bool:
        return not requests.empty()

    while True:
        if warm and requests.empty():
            try:
                session.warm(newer, sources=mine)
                if requests.empty():
                    replies.put(("warm", gen, len(session.searches)))
            except Exception:  # noqa: BLE001 - warming is best effort; the next request reports
                pass
            warm = False
            continue
        msg = requests.get()
        if msg[0] == "quit":
            return
        _, gen, arena, mine = msg
        session.stop = newer
        try:
            ctx = session.context(arena)
            replies.put(("ok", gen, {s: ctx.travel_from(s) for s in mine}))
            warm = True
        except SearchStopped:
            replies.put(("stopped", gen, None))
            warm = False
        except BaseException:  # noqa: BLE001 - reported to the editor's validation panel
            replies.put(("error", gen, traceback.format_exc(limit=4)))
        finally:
            session.stop = None


class _Worker:
    def __init__(self) -> None:
        ctx = mp_context()
        self.requests = ctx.Queue()
        self.replies = ctx.Queue()
        self.proc = ctx.Process(target=_serve, args=(self.requests, self.replies), daemon=True)
        self.proc.start()

    def stop(self) -> None:
        try:
            self.requests.put(("quit",))
            self.proc.join(1.0)
        finally:
            if self.proc.is_alive():
                self.proc.terminate()
                self.proc.join(1.0)
            for q in (self.requests, self.replies):
                q.close()
                q.cancel_join_thread()


class TravelWorkers:
    """``run(arena, should_stop)`` -> source -> goal ref -> TravelResult, from ``count``
    persistent workers (see the module docstring).  ``close()`` ends them."""

    def __init__(self, count: int = WORKERS) -> None:
        self.count = max(1, count)
        self.workers: list[_Worker | None] = [None] * self.count
        self.generation = 0
        self._request: tuple[int, Arena, list[list[str]]] | None = None

    def _worker(self, i: int) -> _Worker:
        w = self.workers[i]
        if w is None or not w.proc.is_alive():
            if w is not None:
                w.stop()
            w = self.workers[i] = _Worker()
        return w

    def submit(self, arena: Arena) -> int:
        """Send ``arena`` to the workers (they stop what they were doing); returns the request's
        generation for :meth:`collect`."""
        self.generation += 1
        gen = self.generation
        sources = travel_sources(arena)
        self._request = (gen, arena, [sources[i::self.count] for i in range(self.count)])
        for i in range(self.count):
            self._worker(i).requests.put(("run", gen, arena, self._request[2][i]))
        return gen

    def run(self, arena: Arena, should_stop: Callable[[], bool] = lambda: False,
            poll_s: float = 0.005) -> dict[str, dict[str, Any]]:
        """:meth:`submit` then :meth:`collect`."""
        self.submit(arena)
        return self.collect(should_stop, poll_s)

    def collect(self, should_stop: Callable[[], bool] = lambda: False,
                poll_s: float = 0.005) -> dict[str, dict[str, Any]]:
        """The answers to the last request (raises :class:`Stopped` when ``should_stop()``)."""
        assert self._request is not None, "submit() first"
        gen, arena, shares = self._request
        results: dict[str, dict[str, Any]] = {}
        waiting = set(range(self.count))
        restarts = 0
        while waiting:
            if should_stop():
                raise Stopped()
            for i in sorted(waiting):
                w = self._worker(i)
                try:
                    status, g, payload = w.replies.get(timeout=poll_s)
                except queue.Empty:
                    if not w.proc.is_alive():  # died mid-request: start it again, once per run
                        restarts += 1
                        if restarts > self.count:
                            raise RuntimeError("travel worker died (exit code %s)" % w.proc.exitcode) from None
                        self._worker(i).requests.put(("run", gen, arena, shares[i]))
                    continue
                if g != gen:
                    continue  # an answer to an older request
                if status == "ok":
                    results.update(payload)
                    waiting.discard(i)
                elif status == "error":
                    raise RuntimeError(payload)
        return results

    def wait_warm(self, timeout: float = 60.0) -> list[int]:
        """Wait until every worker has finished warming up after the last request; returns how
        many searches each holds (benchmarks measure the steady state after this)."""
        held = []
        for i in range(self.count):
            w = self._worker(i)
            while True:
                status, g, payload = w.replies.get(timeout=timeout)
                if status == "warm" and g == self.generation:
                    held.append(int(payload))
                    break
        return held

    def close(self) -> None:
        for i, w in enumerate(self.workers):
            if w is not None:
                w.stop()
                self.workers[i] = None
