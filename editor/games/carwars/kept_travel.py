"""The Car Wars travel stage of the editor's live validation on persistent processes that keep
their travel searches between edits (:class:`engine.carwars.kept.TravelCache`): after dragging a
card, each start's answer is a lookup or a continuation of its kept search, not a new search.

:class:`CarWarsTravel` shares the (policy, start) searches between two workers
(:func:`engine.carwars.kept.shares`: each holds as many flat-out searches as safe ones), joins
their answers and runs the travel checks on the table, and keeps the answers (every start to
every other one too, under both policies) for the travel dock, which then runs no search of
its own (:attr:`CarWarsTravel.last_rows`); when a search answers other than
``reached`` the first worker computes the cold table instead (what the checks then read).

The stage is called from the validation thread (:mod:`editor.validation`); :meth:`editor.kept_worker.KeptTravel.submit`
starts the worker on an arena as soon as the run starts (beside the quick stage), calling the
object collects the findings.  A newer request makes the worker stop between two batches of its
search (the kept searches stay usable); answers to older requests are dropped.  A worker that
dies is started again (its searches are lost); it exits with the editor (:mod:`editor.lifeline`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from editor.analysis import Finding
from editor.kept_worker import KeptTravel, serve_loop, watched
from editor.worker_requests import take

if TYPE_CHECKING:
    from engine.carwars.kept import Share


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
    from editor.games.carwars.analysis import slow_findings
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


class CarWarsKept(KeptTravel):
    """The Car Wars travel findings from one persistent worker keeping its searches."""

    serve = staticmethod(_serve)
    what = "the Car Wars travel worker"

    @staticmethod
    def applies(arena: Any) -> bool:
        """Work only for a Car Wars arena with starts: the runner skips the stage otherwise."""
        from editor.games.carwars.analysis import travel_applies

        return travel_applies(arena)


class _Share(CarWarsKept):
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
    applies = staticmethod(CarWarsKept.applies)

    def __init__(self, workers: int = 2) -> None:
        self.parts = [_Share(i, workers) for i in range(max(1, workers))]
        #: (arena, (policy, start id) -> goal ref -> TravelResult) of the last run the kept
        #: searches answered: every start's travel to every card, the centre and every other
        #: start under both policies - what the travel dock shows, read instead of searching
        #: again (:class:`editor.games.carwars.travel_dock.CarWarsTravelDock`).  None after a cold table.
        self.last_rows: tuple[Any, Share] | None = None

    def submit(self, arena: Any) -> None:
        """Start every worker on its share of ``arena`` now (they stop what they were doing)."""
        for part in self.parts:
            part.cold = False
            part.submit(arena)

    def __call__(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        from editor.games.carwars.analysis import slow_findings
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
