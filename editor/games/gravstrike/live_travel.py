"""Gravstrike's live validation on the persistent travel workers
(:mod:`editor.games.gravstrike.travel_workers`): :class:`LiveTravel` (the travel findings from
the workers' kept searches), :class:`ExactTravel` (then, where those answers were provisional,
from new searches of the edited version, which replace them) and :func:`editor_analysis`, the
staged analysis the window runs for Gravstrike's arenas."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from editor import validation as V
from editor.analysis import Analyse, Cancelled, Finding, format_analyse, validators_available, validators_run
from editor.validation import StagedAnalysis
from schema.io import TypedArena


class LiveTravel:
    """Live validation on persistent worker processes (:mod:`editor.games.gravstrike.travel_workers`): they keep
    their travel searches between edits and also run the quick stage, so the editor's process
    keeps only its UI.  :meth:`quick` returns the quick stage's findings, calling the object the
    travel validators' (run here, on the workers' travel).  ``close()`` ends the workers."""

    stage = "travel checks"

    def __init__(self, workers: int | None = None) -> None:
        self._count = workers
        self._workers: Any = None
        self._submitted: TypedArena | None = None
        self._with_quick = False
        #: Whether :meth:`submit` asks the workers for the quick stage too (StagedAnalysis turns
        #: it off when it runs a quick stage of its own).
        self.serves_quick = True
        #: (arena, source -> goal ref -> TravelResult) of the last run whose exact answers were
        #: collected (the travel table and other views read it instead of searching again).
        self.last_travel: tuple[TypedArena, dict[str, Any]] | None = None
        #: The stage that follows this one: the findings on the exact answers (:class:`ExactTravel`).
        self.exact_stage = ExactTravel(self)
        self._found: tuple[TypedArena, list[Finding], bool] | None = None

    def submit(self, arena: TypedArena, quick: bool | None = None) -> None:
        """Start the workers on ``arena`` now (with the quick stage: ``quick``, by default
        :attr:`serves_quick`); the next :meth:`quick` and call with the same arena collect."""
        from editor.games.gravstrike.travel_workers import WORKERS, TravelWorkers

        quick = self.serves_quick if quick is None else quick
        if self._workers is None:
            self._workers = TravelWorkers(self._count or WORKERS)
        self._workers.submit(arena, quick=quick)
        self._submitted, self._with_quick = arena, quick

    def quick(self, arena: TypedArena, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        """The format checks and the validators that need no travel, from a worker."""
        from editor.games.gravstrike.travel_workers import Stopped

        if self._submitted is not arena or not self._with_quick:
            self.submit(arena, quick=True)
        try:
            return list(self._workers.collect_quick(should_stop or (lambda: False)))
        except Stopped:
            raise Cancelled() from None

    def __call__(self, arena: TypedArena, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        """The travel validators' findings on the workers' first answers: provisional where a
        kept search was resumed (:meth:`exact` gives the final ones)."""
        from editor.games.gravstrike.travel_workers import Stopped

        stop = should_stop or (lambda: False)
        if self._submitted is not arena:
            self.submit(arena, quick=False)
        self._submitted = None
        self._found = None
        try:
            travel = self._workers.collect(stop)
        except Stopped:
            raise Cancelled() from None
        exact = self._workers.exact
        if exact:
            self.last_travel = (arena, travel)
        found = self._findings(arena, travel, stop)
        self._found = (arena, found, exact)
        return found

    @property
    def provisional(self) -> bool:
        """Whether the last findings :meth:`__call__` gave rest on provisional answers."""
        return self._found is not None and not self._found[2]

    def exact(self, arena: TypedArena, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        """The travel validators' findings on the exact answers (those ``arena validate`` finds):
        the first answers' when they were exact, else once the workers have renewed their
        sessions (:meth:`editor.games.gravstrike.travel_workers.TravelWorkers.collect_exact`)."""
        from editor.games.gravstrike.travel_workers import Stopped

        stop = should_stop or (lambda: False)
        if self._found is None or self._found[0] is not arena:
            self(arena, stop)
        assert self._found is not None
        if self._found[2]:
            return list(self._found[1])
        try:
            travel = self._workers.collect_exact(stop)
        except Stopped:
            raise Cancelled() from None
        self.last_travel = (arena, travel)
        found = self._findings(arena, travel, stop)
        self._found = (arena, found, True)
        return found

    @staticmethod
    def _findings(arena: TypedArena, travel: dict[str, Any], stop: Callable[[], bool]) -> list[Finding]:
        from schema.games.gravstrike.model import Arena
        from validators.games.gravstrike.context import AnalysisContext

        if not isinstance(arena, Arena):  # the window runs this analysis for Gravstrike's arenas only
            raise TypeError(f"Gravstrike's live travel got a {type(arena).__name__}")
        ctx = AnalysisContext(arena)
        ctx.provide(travel)
        return validators_run(arena, True, stop, context=ctx)

    def close(self) -> None:
        if self._workers is not None:
            self._workers.close()
            self._workers = None


class ExactTravel:
    """The stage after :class:`LiveTravel`: the travel findings on the exact answers, which
    *replace* the provisional ones of the stage before (``replaces_previous``)."""

    stage = LiveTravel.stage
    replaces_previous = True

    def __init__(self, live: LiveTravel) -> None:
        self.live = live

    @property
    def hold_s(self) -> float:
        """How long the stage before it holds its findings for this one's: provisional answers
        are shown at once (the exact ones take a new search), exact ones are held as usual
        (:data:`PARTIAL_HOLD_S`: this stage then answers at once, the panel updates once)."""
        return 0.0 if self.live.provisional else V.PARTIAL_HOLD_S

    def __call__(self, arena: TypedArena, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        return self.live.exact(arena, should_stop)



def editor_analysis() -> Analyse:
    """What the editor window runs: :func:`default_analyse` split into stages
    (:class:`StagedAnalysis`) when the validators import cleanly, else the format checks."""
    return StagedAnalysis(live=LiveTravel()) if validators_available() else format_analyse
