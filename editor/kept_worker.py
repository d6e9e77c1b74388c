"""A stage of the editor's live validation on a persistent worker process that keeps its work
between edits (a game's travel searches, its fairness numbers): :class:`KeptTravel` starts the
worker on first use, sends it the newest arena as soon as a run starts (:meth:`KeptTravel.submit`,
beside the quick stage) and collects its answer when called; a newer request makes the worker
stop between two batches, answers to older requests are dropped, and a worker that dies is
started again.  :func:`serve_loop` is the worker's side.  A game's stage subclasses
:class:`KeptTravel` and names the worker's loop (:attr:`KeptTravel.serve`); Car Wars' travel
(:mod:`editor.games.carwars.kept_travel`) and Arena Rex's zone checks are two.
"""

from __future__ import annotations

import queue
import traceback
from collections.abc import Callable
from typing import Any

from editor.analysis import Cancelled, Finding
from editor.lifeline import lifeline
from editor.worker_requests import Requests
from validators.run import analysis_budget, default_limits


def serve_loop(requests: Any, replies: Any, answer: Callable[[tuple[Any, ...]], Any],
               stopped: type[BaseException] | None = None,
               idle: Callable[[], None] | None = None) -> None:  # pragma: no cover - the worker process
    """A persistent worker's loop: take the newest request (older ones queued behind it are
    dropped), reply ``("ok", gen, answer(request))`` - the answer worked out under the caps the
    request ends with (:func:`validators.run.default_limits`, read in the editor's process); ``("stopped", gen, None)`` when the answer
    raised ``stopped`` (a newer request came), ``("error", gen, traceback)`` on any other error;
    return on ``("quit",)``.  ``idle()`` runs once, after the first reply, when no request waits."""
    replied = False
    while True:
        if replied and idle is not None and requests.empty():
            idle()
            idle = None
        msg = requests.get()
        while True:  # only the newest request counts
            try:
                msg = requests.get_nowait()
            except queue.Empty:
                break
        if msg[0] == "quit":
            return
        gen, limits = msg[1], msg[-1]
        replied = True
        try:
            with analysis_budget(limits):  # arena validate's caps, sent with the request
                replies.send(("ok", gen, answer(msg[:-1])))
        except BaseException as exc:  # noqa: BLE001 - shown in the validation panel
            if stopped is not None and isinstance(exc, stopped):
                replies.send(("stopped", gen, None))
            else:
                replies.send(("error", gen, traceback.format_exc(limit=4)))


def watched(line: Any) -> None:  # pragma: no cover - the worker process
    """First thing in a worker: exit when the editor does (:func:`editor.lifeline.watch`)."""
    if line is not None:
        from editor.lifeline import watch

        watch(line)


class KeptTravel:
    """The travel findings of an arena from the persistent worker (started on first use).
    A subclass serving another stage sets :attr:`serve` (the worker's loop) and :attr:`what`."""

    #: The worker process's loop ``serve(requests, replies, lifeline)``: a subclass's.
    serve: Callable[..., None]
    what = "the travel worker"
    #: What the stage's checks are called in the status line (editor.validation.stage_name).
    stage = "travel checks"

    def __init__(self) -> None:
        self._proc: Any = None
        self._requests: Any = None
        self._replies: Any = None
        self._gen = 0
        self._submitted: tuple[Any, int] | None = None

    def _start(self) -> None:
        from editor.processes import mp_context

        ctx = mp_context()
        self._requests = Requests(ctx)
        self._replies, there = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=type(self).serve, args=(self._requests.reader, there, lifeline(ctx)),
                                 daemon=True)
        self._proc.start()
        there.close()
        self._requests.reader.close()

    @staticmethod
    def applies(arena: Any) -> bool:
        """Whether the stage has work for ``arena`` (the runner skips it otherwise): always."""
        return True

    def submit(self, arena: Any) -> None:
        """Start the worker on ``arena`` now (it stops what it was doing)."""
        if self._proc is None or not self._proc.is_alive():
            self.close()
            self._start()
        self._gen += 1
        self._requests.put(self.request(self._gen, arena) + (default_limits(),))
        self._submitted = (arena, self._gen)

    def request(self, gen: int, arena: Any) -> tuple[Any, ...]:
        """The message asking the worker for ``arena``'s answer."""
        return ("run", gen, arena)

    def __call__(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        return list(self.answer(arena, should_stop))

    def answer(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> Any:
        """The worker's answer for ``arena`` (asked now unless it was the last submitted)."""
        stop = should_stop or (lambda: False)
        if self._submitted is None or self._submitted[0] is not arena:
            self.submit(arena)
        assert self._submitted is not None
        gen, restarts = self._submitted[1], 0
        while True:
            if stop():
                raise Cancelled()
            try:
                ready = self._replies.poll(0.005)
                msg = self._replies.recv() if ready else None
            except (EOFError, OSError):
                msg, ready = None, True
            if ready and msg is None:  # the worker died: once more on a new one
                restarts += 1
                if restarts > 1:
                    raise RuntimeError(f"{self.what} died")
                self.submit(arena)
                gen = self._gen
                continue
            if msg is None or msg[1] != gen:
                continue
            status, _, payload = msg
            if status == "ok":
                self._submitted = None  # answered: asking again asks the worker again
                return payload
            if status == "error":
                raise RuntimeError(payload)

    def close(self) -> None:
        if self._proc is None:
            return
        try:
            self._requests.put(("quit",))
            self._proc.join(1.0)
        finally:
            if self._proc.is_alive():
                self._proc.terminate()
                self._proc.join(1.0)
            self._requests.close()
            self._requests.cancel_join_thread()
            self._replies.close()
            self._proc = None


__all__ = ["KeptTravel", "serve_loop", "watched"]
