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
travel dock end on the cold answers (:mod:`editor.games.gravstrike.travel_workers`).

A wall edit still starts afresh, but the last exact answers can be carried over first
(:func:`carry_travel`: the plans the edited walls do not block; :meth:`TravelSession.carried`
mends the blocked ones from a turn or two before the block, :meth:`TravelSession.mend`): answers
given at once, provisional in the same sense - a legal plan's time, which a new search may beat by
the room the wall freed.

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

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from shapely.geometry import Point as ShapelyPoint

from engine.budget import AnalysisStopped
from engine.gravstrike.frontier import FrontierSearch
from engine.gravstrike.geometry import ArenaGeometry, shape_centre
from engine.gravstrike.motion import PIVOT_COST, Maneuver, Pose, max_displacement_by_cost
from engine.gravstrike.planner import (
    CheckpointSource,
    Goal,
    PathStep,
    Planner,
    PlanningError,
    PoseSource,
    StartSource,
    TravelResult,
)
from engine.gravstrike.travel_types import SearchLimits
from schema.games.gravstrike.model import Arena
from validators.games.gravstrike.context import AnalysisContext, travel_sources
from validators.options import ANALYSIS_MAX_TURNS, ANALYSIS_TOLERANCE


#: How many turns before the one where a carried plan now rams :meth:`TravelSession.mend` tries
#: to search on from, in order: two leave room to go round as a new search would (on the default
#: arena's drags the mended times were the new searches'; from one turn before, some were a
#: length's time slower), one is cheaper and is what a block in the second turn leaves.
MEND_TURNS = (2, 1)


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

    def carried(self, ctx: AnalysisContext, source: str, carried: Carried) -> dict[str, TravelResult]:
        """``source``'s answers for ``ctx``'s arena from answers carried over a wall edit
        (:func:`carry_travel`): the kept ones as they are, a broken plan mended (:meth:`mend`),
        the goals still lacking searched now - one search for just those, on this session's
        planner, not kept.  The answers are given to ``ctx`` too.  Provisional unless nothing was
        carried (then it is :meth:`AnalysisContext.travel_from`'s search)."""
        src, goals, horizon = ctx.query(source)
        if not any(g.ref in carried.kept or g.ref in carried.broken for g in goals):
            return ctx.travel_from(source)
        got: dict[str, TravelResult] = {}
        missing = []
        for g in goals:
            r = carried.kept.get(g.ref)
            if r is None and g.ref in carried.broken:
                r = self.mend(*carried.broken[g.ref], horizon)
            if r is None:
                missing.append(g)
            else:
                got[g.ref] = r
        found = self.travel_some(src, missing, horizon) if missing else {}
        got = {g.ref: got[g.ref] if g.ref in got else found[g] for g in goals}
        ctx.provide({source: got})
        return got

    def mend(self, old: TravelResult, bad: int, horizon: float | None) -> TravelResult | None:
        """A legal plan to ``old``'s goal that keeps ``old``'s plan up to the end of a turn
        before the one of its step ``bad`` (which now rams a wall: :data:`MEND_TURNS` before, in
        order) and searches on from there - at that pose and speed, for that goal alone, at most a
        turn longer than ``old`` took from there (and within ``horizon``).  None when there is no
        such turn (the block is in the first turn), no such plan, or the arena has exclusion
        fields (whose damage the kept part does not carry)."""
        assert self.planner is not None
        p = self.planner
        if p.n_excl:
            return None
        steps = old.path
        for back in MEND_TURNS:
            last = steps[bad].turn - back
            ends = [i for i in range(bad) if steps[i].turn <= last and _ends_turn(steps, i)]
            if not ends:
                continue
            i = ends[-1]
            k = steps[i].turn
            step = steps[i]
            limit = old.time - k + 1.0 if horizon is None else min(old.time - k + 1.0, horizon - k)
            if limit <= 0:
                continue
            src = PoseSource(Pose(step.x, step.y, step.heading), step.speed)
            try:
                rest = self.travel_some(src, [old.goal], limit, confirm=False).get(old.goal)
            except PlanningError:
                return None
            if rest is None or not rest.reachable:
                continue
            kept = steps[: i + 1]
            icons = sum(PIVOT_COST if s.maneuver.startswith("pivot") else Maneuver.parse(s.maneuver).cost
                        for s in kept if s.pushed_by is None)
            return dataclasses.replace(
                rest, turns=rest.turns + k, time=(round(rest.time * p.scale) + k * p.scale) / p.scale,
                icons=rest.icons + icons, path=kept + tuple(dataclasses.replace(s, turn=s.turn + k) for s in rest.path))
        return None

    def travel_some(self, src: StartSource | CheckpointSource | PoseSource, goals: list[Goal],
                    horizon: float | None, confirm: bool = True) -> dict[Goal, TravelResult]:
        """A search from ``src`` for ``goals`` alone, stopped by :attr:`stop`, not kept.  Without
        ``confirm``: the vectorised search only (no answer, {}, where it does not apply), its
        "unreachable" answers not searched again at a finer tolerance (:meth:`Planner.confirm`)."""
        assert self.planner is not None
        search = None
        try:
            search = self.planner.frontier_search(src, goals, max_time=horizon)
            if search is None:
                return self.planner.plan_from(src, goals, max_time=horizon) if confirm else {}
            search.stop = self.stop
            results = dict(search.run())
            proven = search.proven
        except AnalysisStopped as exc:
            return {g: _stopped(g, exc) for g in goals}
        finally:
            if search is not None:
                search.release()
        return self.planner.confirm(src, results, proven, horizon) if confirm else results

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


def walls_only(old: Arena, new: Arena) -> bool:
    """Whether ``new`` differs from ``old`` in its walls and nothing else that travel depends on
    (bounds, turbine, fields, goals and where they are, the scenario)."""
    return old.walls != new.walls and all(getattr(old, f) == getattr(new, f) for f in _TRAVEL_FIELDS)


_TRAVEL_FIELDS = ("bounds", "turbine", "checkpoints", "gates", "acceleration_fields", "exclusion_fields",
                  "static_targets", "start_positions", "scenario")


@dataclass
class Carried:
    """A source's answers carried over a wall edit (:func:`carry_travel`): those that still hold
    (goal ref -> result) and the reached ones whose plan now rams a wall (goal ref -> (result,
    index of the first path step that rams)), for :meth:`TravelSession.carried` to mend."""

    kept: dict[str, TravelResult] = field(default_factory=dict)
    broken: dict[str, tuple[TravelResult, int]] = field(default_factory=dict)


def carry_travel(basis: Arena, travel: dict[str, dict[str, TravelResult]], arena: Arena) -> dict[str, Carried]:
    """What of ``travel`` (source -> goal ref -> result: the exact answers for ``basis``) still
    holds in ``arena``, a version that differs from ``basis`` in its walls alone
    (:func:`walls_only`; else nothing is carried): source -> :class:`Carried`.

    * A reached answer is kept when its plan is still legal: every pose it ends a length in (a
      field's push included) is clear of the walls, as the search checks them - so only the poses
      near a wall that is new or changed are tested - and nothing else about it depends on the
      walls (the goals, fields and bounds are those of ``basis``).  Its time is a legal plan's, which
      a new search may beat by the room a moved wall freed: kept answers are *provisional*.
    * An answer "beyond" a horizon stays when the goal lies farther from the source than any plan
      moves in that time, whatever the walls (:func:`_out_of_reach`): exact.
    * Reached answers whose plan now rams are handed on as ``broken``.
    * Nothing is carried from a source with another unreached answer (a wall moved away may open
      the way, and deciding it again searches as far as the source's whole search does: that
      search, exact, is the better buy), nor from one whose own pose now rams a changed wall."""
    if not walls_only(basis, arena):
        return {}
    before = set(basis.walls)
    changed = [w for w in arena.walls if w not in before]
    geometry = ArenaGeometry(arena)
    t = arena.turbine
    reach = math.hypot(t.length / 2.0, t.width / 2.0) + 1e-6  # a footprint lies within this of its centre
    boxes = [(x0 - reach, y0 - reach, x1 + reach, y1 + reach)
             for x0, y0, x1, y1 in (w.shape.to_shapely().bounds for w in changed)]
    ids = {w.id for w in changed}

    def first_ram(poses: list[Pose]) -> int | None:
        """The index of the first pose that rams a changed wall, or None."""
        if not boxes or not poses:
            return None
        xy = np.array([(p.x, p.y) for p in poses])
        near = np.zeros(len(poses), dtype=bool)
        for x0, y0, x1, y1 in boxes:
            near |= (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
        return next((int(i) for i in np.flatnonzero(near) if geometry.ram_wall(poses[i], ids) is not None), None)

    shapes = {c.id: c.shape.to_shapely() for c in arena.checkpoints}
    out: dict[str, Carried] = {}
    for source, row in travel.items():
        kind, _, ident = source.partition(":")
        if kind == "start":
            try:
                st = arena.start(int(ident))
            except KeyError:
                continue
            origin = [Pose(float(st.position[0]), float(st.position[1]), st.facing)]
        else:
            if ident not in shapes:
                continue
            x, y = shape_centre(next(c.shape for c in arena.checkpoints if c.id == ident))
            origin = [Pose(x, y, 30.0 * k) for k in range(12)]
        if first_ram(origin) is not None:
            continue
        c = Carried()
        for ref, r in row.items():
            if r.status == "reached":
                bad = first_ram([Pose(p.x, p.y, p.heading) for p in r.path])
                if bad is None:
                    c.kept[ref] = r
                else:
                    c.broken[ref] = (r, bad)
            elif (r.status == "beyond" and r.horizon is not None and ref.startswith("checkpoint:")
                  and ref[len("checkpoint:"):] in shapes
                  and _out_of_reach(arena, origin[0], shapes[ref[len("checkpoint:"):]], r.horizon)):
                c.kept[ref] = r
            else:  # deciding it takes what the source's whole search takes: that search, exact
                break
        else:
            out[source] = c
    return out


def _out_of_reach(arena: Arena, origin: Pose, goal: Any, horizon: float) -> bool:
    """Whether no plan from ``origin`` touches ``goal`` (a shapely geometry) within ``horizon``
    turns, walls or not: in a turn the centre moves at most the top speed's lengths, each at most
    the farthest a length moves it (:func:`~engine.gravstrike.motion.max_displacement_by_cost`),
    or a pivot's reach, plus one length per field's push; the footprint reaches a centre's
    half-diagonal further."""
    t = arena.turbine
    half_diag = math.hypot(t.length / 2.0, t.width / 2.0)
    per_turn = max(min(6, t.max_speed) * max(max_displacement_by_cost(t).values()), 2.0 * half_diag)
    per_turn += len(arena.acceleration_fields) * t.length
    far = math.ceil(horizon - 1e-9) * per_turn + half_diag + 0.01
    return bool(goal.distance(ShapelyPoint(origin.x, origin.y)) > far)


def _ends_turn(steps: tuple[PathStep, ...], i: int) -> bool:
    """Whether path step ``i`` ends its turn: its length is the turn's last (a pivot is a whole
    turn) and no field's push of that length follows it."""
    s = steps[i]
    if s.length != abs(s.speed):
        return False
    return i + 1 == len(steps) or steps[i + 1].pushed_by is None or (steps[i + 1].turn, steps[i + 1].length) != (s.turn, s.length)


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
