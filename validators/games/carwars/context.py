"""What Car Wars validators share while one arena is validated: the travel table (every start
to every card, the centre and the other starts, under both policies), computed once, on first
use, and the report metrics built from it (heat-map, path and line-of-sight overlays read them)."""

from __future__ import annotations

import math
import sys
from functools import partial
from typing import Any

from engine.budget import AnalysisStopped
from engine.carwars import fairness as fair
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.rules import POLICIES
from engine.carwars.travel import SearchLimits, TravelResult
from schema.games.carwars import CarWarsArena
from validators.findings import plain
from validators.parallel import Helper, fork_helper
from validators.report import Undecided


def cell(r: TravelResult) -> dict[str, Any]:
    """One travel answer as a report matrix cell (``schema/report.schema.json#/$defs/matrix``)."""
    if r.status == "reached":
        return {"reachable": True, "turns": r.turns, "time": round(r.time, 4), "dice": r.dice, "hard": r.hard}
    if r.status == "unreachable":
        return {"reachable": False, "turns": None, "time": None}
    out: dict[str, Any] = {"reachable": None, "turns": None, "time": None}
    if r.horizon is not None and math.isfinite(r.horizon):
        out["at_least"] = r.horizon
    if r.status == "undecided":
        out["undecided"] = r.undecided or "search limit"
    return out


class CarWarsContext:
    """Shared, lazily computed analysis of one Car Wars arena."""

    def __init__(self, arena: CarWarsArena, *, limits: SearchLimits = SearchLimits(), workers: int = 1,
                 use_symmetry: bool = True) -> None:
        self.arena = arena
        self.limits = limits
        # a daemonic process (a service worker, which multiprocessing made: it is imported
        # there) starts no processes of its own: it searches alone
        mp = sys.modules.get("multiprocessing")
        self.workers = 1 if mp is not None and mp.current_process().daemon else workers
        self.use_symmetry = use_symmetry
        self._table: fair.TravelTable | None = None
        self._metrics: dict[str, Any] | None = None
        self._started: tuple[list[list[fair.Job]], list[Helper | None], fair.Images] | None = None
        if self.workers > 1 and arena.start_positions:
            self._start()

    def _start(self) -> None:
        """Fork the workers now, so that their searches run while this process runs the checks
        that need no travel (as :func:`engine.carwars.validate.validate` does): the geometry is
        computed once, before the fork; each lane sets its policies' planners up once.  A worker
        is a forked child of :func:`validators.parallel.fork_helper` (it ends with this process,
        however that ends), not a process pool's: the pool's start-up, feeder and manager threads
        and its imports cost more than one lane's answer is worth on a two-core machine."""
        jobs, images = fair.travel_jobs(self.arena, POLICIES, self.use_symmetry)
        lanes = fair.lanes(jobs, self.workers)
        if len(lanes) < 2:
            return
        try:
            fair.set_job_context(self.arena, CarWarsGeometry(self.arena), self.limits)
        except AnalysisStopped:  # the analysis's caps: the travel validators stop at them too
            return
        self._started = (lanes, [fork_helper(partial(fair.run_jobs, lane)) for lane in lanes[1:]], images)

    @property
    def table(self) -> fair.TravelTable:
        if self._table is None and self._started is not None:
            lanes, helpers, images = self._started
            try:
                done = dict(zip(lanes[0], fair.run_jobs(lanes[0])))
                for lane, helper in zip(lanes[1:], helpers):
                    answers = None
                    if helper is not None:
                        try:
                            answers = helper.result()
                        except RuntimeError:  # the worker failed or died: its lane runs here
                            answers = None
                    done.update(zip(lane, answers if answers is not None else fair.run_jobs(lane)))
            finally:
                for helper in helpers:
                    if helper is not None:
                        helper.cancel()  # (a no-op once its answer was read)
                fair.set_job_context(None)
                self._started = None
            self._table = fair.assemble(self.arena, POLICIES, images, done)
        if self._table is None:
            self._table = fair.travel_table(self.arena, POLICIES, self.limits, use_symmetry=self.use_symmetry,
                                            workers=self.workers)
        return self._table

    def open_questions(self) -> list[Undecided]:
        """The travel questions the searches left open (:func:`open_questions`), once the table
        was computed; the runner reports them (:func:`validators.report.limit_findings`)."""
        return [] if self._table is None else open_questions(self._table, self.limits)

    def close(self) -> None:
        """Stop workers started for a table nobody asked for."""
        if self._started is not None:
            for helper in self._started[1]:
                if helper is not None:
                    helper.cancel()
            fair.set_job_context(None)
            self._started = None

    def travel_metrics(self) -> dict[str, Any]:
        """``travel`` (flat out) and ``travel_safe``: start -> goal -> cell; ``starts``: the per
        start fairness numbers of :func:`engine.carwars.fairness.start_metrics`."""
        if self._metrics is None:
            t = self.table
            out: dict[str, Any] = {}
            for policy, key in (("flat-out", "travel"), ("safe", "travel_safe")):
                rows = t.results.get(policy, {})
                out[key] = {sid: {goal: cell(r) for goal, r in sorted(row.items())} for sid, row in sorted(rows.items())}
            out["starts"] = plain(fair.start_metrics(self.arena, t))
            if t.errors:
                out["travel_errors"] = dict(sorted(t.errors.items()))
            self._metrics = out
        return self._metrics


def open_questions(table: fair.TravelTable, limits: SearchLimits) -> list[Undecided]:
    """The travel questions ``table``'s searches (run under ``limits``) left open - a state or
    time limit, the analysis's caps, or the ``max_turns`` horizon: the metrics built on them are
    not decided - in policy, start and goal order."""
    out = []
    for policy, rows in table.results.items():
        for sid, row in sorted(rows.items()):
            for ref, r in sorted(row.items()):
                if r.status == "undecided":
                    why = {"states": f"state limit ({limits.max_states:,} states)",
                           "time": f"time limit ({limits.max_seconds or 0:g} s)"}.get(r.undecided or "",
                                                                                     r.undecided or "limit")
                    out.append(Undecided(sid, ref, why, policy))
                elif r.status == "beyond":
                    out.append(Undecided(sid, ref, f"horizon ({r.horizon or 0:g} turns)", policy))
    return out
