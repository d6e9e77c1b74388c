"""The Car Wars travel stage of the editor's live validation on persistent processes that keep
their travel searches between edits (:class:`engine.carwars.kept.TravelCache`): after dragging a
card, each start's answer is a lookup or a continuation of its kept search, not a new search.

:class:`CarWarsTravel` shares the (policy, start) searches between two workers
(:func:`engine.carwars.kept.shares`: each holds as many flat-out searches as safe ones), joins
their answers and runs the travel checks on the table, and keeps the answers (every start to
every other one too, under both policies) for the travel dock, which then runs no search of
its own (:attr:`CarWarsTravel.last_rows`); when a search answers other than
``reached`` the first worker computes the cold table instead (what the checks then read).

The stage is called from the validation thread (:mod:`editor.validation`); :meth:`KeptTravel.submit`
starts the worker on an arena as soon as the run starts (beside the quick stage), calling the
object collects the findings.  A newer request makes the worker stop between two batches of its
search (the kept searches stay usable); answers to older requests are dropped.  A worker that
dies is started again (its searches are lost); it exits with the editor (:mod:`editor.lifeline`).
"""

from __future__ import annotations

import queue
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from editor.analysis import Cancelled, Finding
from editor.lifeline import lifeline
from editor.worker_requests import Requests, take
from validators.run import analysis_budget, default_limits

if TYPE_CHECKING:
    from engine.carwars.kept import Share


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


def _compiled() -> None:  # pragma: no cover - the worker process
    """From its second request on, a worker's searches use the compiled bound
    (:mod:`engine.carwars.kernels`, about 23 % less CPU a card drag): loaded once the first
    answer is sent and no request waits (about 1.2 s of CPU; the arena's first findings are not
    held for it, an edit sent meanwhile waits for it)."""
    from engine.carwars import kernels

    kernels.enable()


def _serve(requests: Any, replies: Any, line: Any = None) -> None:  # pragma: no cover - the worker process
    watched(line)
    requests = take(requests)
    from editor.games.analysis import slow_findings
    from engine.carwars.kept import TravelCache
    from engine.carwars.travel import SearchStopped

    cache = TravelCache()
    cache.stop = lambda: not requests.empty()
    serve_loop(requests, replies, lambda msg: slow_findings(msg[2], cache.table, cache.limits), SearchStopped, _compiled)


def _serve_share(requests: Any, replies: Any, line: Any = None) -> None:  # pragma: no cover - the worker process
    watched(line)
    requests = take(requests)
    from engine.carwars.kept import TravelCache
    from engine.carwars.travel import SearchStopped

    cache = TravelCache(every_start=True)  # the travel dock's rows too (CarWarsTravel.last_rows)
    cache.stop = lambda: not requests.empty()

    def answer(msg: tuple[Any, ...]) -> Any:
        if msg[0] == "share":  # the rows, and which cards the symmetry answers (kept.card_plan)
            return cache.rows(msg[2], msg[3]), cache.plan
        return cache.cold(msg[2])

    serve_loop(requests, replies, answer, SearchStopped, _compiled)


class KeptTravel:
    """The travel findings of an arena from the persistent worker (started on first use).
    A subclass serving another stage sets :attr:`serve` (the worker's loop) and :attr:`what`."""

    serve = staticmethod(_serve)
    what = "the Car Wars travel worker"
    #: What the stage's checks are called in the status line (editor.validation.stage_name).
    stage = "travel checks"

    def __init__(self) -> None:
        self._proc: Any = None
        self._requests: Any = None
        self._replies: Any = None
        self._gen = 0
        self._submitted: tuple[Any, int] | None = None

    def _start(self) -> None:
        from editor.travel_workers import mp_context

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
        """Work only for a Car Wars arena with starts: the runner skips the stage otherwise."""
        from editor.games.analysis import travel_applies

        return travel_applies(arena)

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


class _Share(KeptTravel):
    """One worker of :class:`CarWarsTravel`: its share of the searches, or the cold table."""

    serve = staticmethod(_serve_share)

    def __init__(self, index: int, of: int) -> None:
        super().__init__()
        self.index, self.of = index, of
        self.cold = False
        self.what = f"Car Wars travel worker {index + 1}"

    def request(self, gen: int, arena: Any) -> tuple[Any, ...]:
        from engine.carwars.kept import shares

        if self.cold:
            return ("cold", gen, arena, None)
        return ("share", gen, arena, shares(arena, self.of)[self.index])


class CarWarsTravel:
    """The Car Wars travel findings from ``workers`` persistent worker processes, each keeping
    its share of the searches (see the module docstring); started on first use."""

    what = "the Car Wars travel workers"
    stage = KeptTravel.stage
    applies = staticmethod(KeptTravel.applies)

    def __init__(self, workers: int = 2) -> None:
        self.parts = [_Share(i, workers) for i in range(max(1, workers))]
        #: (arena, (policy, start id) -> goal ref -> TravelResult) of the last run the kept
        #: searches answered: every start's travel to every card, the centre and every other
        #: start under both policies - what the travel dock shows, read instead of searching
        #: again (:class:`editor.games.travel_dock.CarWarsTravelDock`).  None after a cold table.
        self.last_rows: tuple[Any, Share] | None = None

    def submit(self, arena: Any) -> None:
        """Start every worker on its share of ``arena`` now (they stop what they were doing)."""
        for part in self.parts:
            part.cold = False
            part.submit(arena)

    def __call__(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        from editor.games.analysis import slow_findings
        from engine.carwars.kept import full_rows, merged
        from engine.carwars.rules import POLICIES

        if any(p._submitted is None or p._submitted[0] is not arena or p.cold for p in self.parts):
            self.submit(arena)
        got = [part.answer(arena, should_stop) for part in self.parts]
        if any(share is None for share, _ in got):  # a search not all reached: the cold table decides
            first = self.parts[0]
            first.cold = True
            first.submit(arena)
            table = first.answer(arena, should_stop)
            self.last_rows = None
        else:
            plan = got[0][1]  # every worker plans the cards alike
            rows = full_rows(arena, {k: v for share, _ in got for k, v in share.items()}, plan)
            table = merged(arena, POLICIES, [rows])
            self.last_rows = (arena, rows)
        return slow_findings(arena, lambda _arena: table)

    def close(self) -> None:
        for part in self.parts:
            part.close()
