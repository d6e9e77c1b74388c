"""Travel analysis kept between edits: the editor's live validation.

A :class:`TravelSession` holds one planner and, per source (``start:N``, ``checkpoint:ID``), the
vectorised search that answered it (:class:`engine.gravstrike.frontier.FrontierSearch`).  When the next
version of the arena differs only in where goals are - a checkpoint, static target, gate or start
position was moved - the planner is retargeted and each kept search is *resumed* for just the
moved goals; a search whose own source moved is dropped.  Any other change (walls, fields,
exclusion fields, bounds, turbine, elements added or removed, analysis settings) starts afresh.

Resumed answers are *provisional*: every one is a legal plan's time, but not always the time a
new search of this version finds.  At the analysis tolerance a search merges states closer than
0.25 lengths, keeping whichever got there first, and which gets there first depends on the order
its bound (the distance to the nearest goal not yet reached) explores them in - so where every
goal lies, and where each one lay when the kept search ran, can change an answer by a length's
time (1/6 turn), even for a goal that did not move.  :attr:`TravelSession.exact` says whether
the session's answers are a cold search's: true from a new planner (:meth:`update` with
``renew``, or any change that is not a goal move) until a goal moves.  The editor's workers
answer from the kept searches at once and then renew the session, so that the findings and the
travel dock end on the cold answers (:mod:`editor.travel_workers`).

:meth:`TravelSession.warm` fills in searches the last run did not need (symmetric sources are
answered from one search's image), so that the first edit after opening an arena is already
incremental; it stops as soon as ``should_stop`` says so.

>>> from schema import load
>>> session = TravelSession()
>>> ctx = session.context(load("arenas/default.yaml"))
>>> round(ctx.travel("start:1", "checkpoint:A").time, 3)
1.5
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.budget import AnalysisStopped
from engine.gravstrike.frontier import FrontierSearch
from engine.gravstrike.planner import CheckpointSource, Goal, Planner, StartSource, TravelResult
from engine.gravstrike.travel_types import SearchLimits
from schema.model import Arena
from validators.context import AnalysisContext, travel_sources
from validators.options import ANALYSIS_MAX_TURNS, ANALYSIS_TOLERANCE


class TravelSession:
    """Planner and searches reused across versions of one arena (see the module docstring)."""

    def __init__(self, *, tolerance: float = ANALYSIS_TOLERANCE, max_turns: int = ANALYSIS_MAX_TURNS,
                 limits: SearchLimits | None = None) -> None:
        self.tolerance = tolerance
        self.max_turns = max_turns
        self.limits = limits or SearchLimits()
        self.planner: Planner | None = None
        self.arena: Arena | None = None
        self.searches: dict[str, FrontierSearch] = {}
        self.pending: dict[str, set[Goal]] = {}
        self._settings: Any = None
        #: What the last :meth:`update` did: "new", "retarget" (with the moved goals) or "same".
        self.last_update: tuple[str, frozenset[Goal]] = ("new", frozenset())
        #: Whether every answer is a cold search's of :attr:`arena`: the planner was made for this
        #: version (or one that differs from it in no goal) and no search has been resumed.
        self.exact = False
        self.stop: Callable[[], bool] | None = None
        #: Distance maps shared with other processes on the same arena (see
        #: :attr:`engine.gravstrike.planner.Planner.map_share`), handed to every planner made here.
        self.map_share: Any = None

    # -- arena versions -------------------------------------------------------------------------
    def _settings_of(self, arena: Arena) -> Any:
        a = arena.scenario.analysis
        return (a.tier, a.checkpoint_min_turns, arena.turbine.icons_per_turn, self.tolerance, self.max_turns)

    def update(self, arena: Arena, renew: bool = False) -> None:
        """Make ``arena`` the session's arena, keeping what is still valid; with ``renew`` a new
        planner and new searches (the old ones hand on their stores and key tables), so that
        the answers are exact (:attr:`exact`)."""
        settings = self._settings_of(arena)
        if not renew and self.planner is not None and settings == self._settings and self.arena is not None:
            moved = self.planner.retarget(arena)
            if moved is not None:
                old = self.arena
                gates = {g for g in moved if g.kind == "gate"}
                for source in list(self.searches):
                    # a resumed search finds a goal among the states it kept only for a zone: the
                    # states it expanded never cross a gate's new line again (a search answering
                    # a moved gate starts again, as one whose source moved)
                    if source_moved(old, arena, source) or gates & set(self.searches[source].goals):
                        self.searches.pop(source).release()
                        self.pending.pop(source, None)
                    elif moved:
                        self.pending.setdefault(source, set()).update(moved)
                self.arena = arena
                self.last_update = ("retarget" if moved else "same", frozenset(moved))
                self.exact = self.exact and not moved
                return
        planner = Planner(arena, quantum=self.tolerance, minimise="time", max_turns=self.max_turns,
                          limits=self.limits)
        planner.map_share = self.map_share
        for search in self.searches.values():  # their tables and stores serve the new version's searches
            search.release(into=planner)
        self.planner = planner
        self.arena, self._settings = arena, settings
        self.searches, self.pending = {}, {}
        self.last_update = ("new", frozenset())
        self.exact = True

    def context(self, arena: Arena, renew: bool = False) -> AnalysisContext:
        """An analysis context for ``arena`` whose travel comes from this session (``renew``:
        see :meth:`update`)."""
        self.update(arena, renew)
        return AnalysisContext(arena, tolerance=self.tolerance, max_turns=self.max_turns, session=self,
                               limits=self.limits)

    def retain(self, sources: list[str]) -> None:
        """Keep only the searches of ``sources`` (the others' memory goes back)."""
        keep = set(sources)
        for source in [s for s in self.searches if s not in keep]:
            self.searches.pop(source).release()
            self.pending.pop(source, None)

    # -- travel -----------------------------------------------------------------------------------
    def has(self, source: str) -> bool:
        return source in self.searches

    def travel_from(self, source: str, goals: list[Goal], horizon: float | None) -> dict[Goal, TravelResult]:
        """The search for ``source``: kept and resumed for moved goals, or run now (and kept)."""
        assert self.planner is not None
        src = _source(source)
        search = self.searches.get(source)
        if search is not None and (set(search.goals) != set(goals) or search.horizon != horizon):
            self.searches.pop(source).release()  # kept for another question: not an answer to this one
            self.pending.pop(source, None)
            search = None
        if search is not None:
            todo = self.pending.pop(source, set())
            if todo:
                search.stop = self.stop
                try:
                    search.resume(sorted(todo, key=lambda g: (g.kind, g.id)))
                except AnalysisStopped as exc:  # the analysis's caps: the moved goals stay open
                    self.pending[source] = todo
                    return {g: search.results[g] if g in search.results and g not in todo else _stopped(g, exc)
                            for g in goals}
                except BaseException:
                    self.pending[source] = todo  # stopped half way: the state is consistent, redo later
                    raise
            results = dict(search.results)
        else:
            try:
                search = self.planner.frontier_search(src, goals, max_time=horizon)
                if search is None:  # too many zones for the vectorised search: no reuse
                    return self.planner.plan_from(src, goals, max_time=horizon)
                search.stop = self.stop
                results = dict(search.run())
            except AnalysisStopped as exc:  # the analysis's caps, met outside the search loop's own checks
                if search is not None:
                    search.release()
                return {g: _stopped(g, exc) for g in goals}
            self.searches[source] = search
        if search.limited is not None:  # stopped at a limit: nothing worth keeping to resume
            self.searches.pop(source).release()
        wanted = set(goals)  # a kept search may answer goals no longer asked for (gates out of play)
        results = {g: r for g, r in results.items() if g in wanted}
        return self.planner.confirm(src, results, search.proven, horizon)

    def warm(self, should_stop: Callable[[], bool] | None = None, sources: list[str] | None = None) -> int:
        """Run the searches the arena's sources (or ``sources``) don't have yet and finish
        pending resumes; returns how many ran.  Stops (keeping what is done) when
        ``should_stop()``."""
        if self.arena is None or self.planner is None:
            return 0
        ctx = AnalysisContext(self.arena, tolerance=self.tolerance, max_turns=self.max_turns, session=self)
        if sources is None:
            sources = travel_sources(self.arena)
        done = 0
        self.stop = should_stop
        try:
            for source in sources:
                if should_stop is not None and should_stop():
                    break
                if source in self.searches and not self.pending.get(source):
                    continue
                ctx.search(source)
                done += 1
            for search in self.searches.values():  # ready for quick resumes
                if should_stop is not None and should_stop():
                    break
                search.compact()
            if self.searches and not (should_stop is not None and should_stop()):
                self.planner.bound_floor()  # what a resume's first step needs
        except Exception as exc:  # noqa: BLE001 - a stopped warm-up just ends early
            if type(exc).__name__ != "SearchStopped":
                raise
        finally:
            self.stop = None
        return done


def _source(ref: str) -> StartSource | CheckpointSource:
    kind, _, ident = ref.partition(":")
    return StartSource(int(ident)) if kind == "start" else CheckpointSource(ident)


def source_moved(old: Arena, new: Arena, source: str) -> bool:
    """Whether ``source`` itself differs between the two versions (its search must start again)."""
    kind, _, ident = source.partition(":")
    if kind == "start":
        try:
            a, b = old.start(int(ident)), new.start(int(ident))
        except KeyError:
            return True
        return (a.position, a.facing) != (b.position, b.facing)
    before = {c.id: c.shape for c in old.checkpoints}
    after = {c.id: c.shape for c in new.checkpoints}
    return before.get(ident) != after.get(ident)


def _stopped(goal: Goal, exc: AnalysisStopped) -> TravelResult:
    """``goal`` left undecided by the analysis's caps (``exc``), as :meth:`Planner.travel` answers."""
    return TravelResult(goal, False, horizon=0.0, undecided=exc.reason)
