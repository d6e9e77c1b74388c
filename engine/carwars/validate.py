"""Everything Car Wars checks on one arena, in one call: the setup checks, the fairness
metrics, with per-check timings.  With ``workers`` > 1 the travel searches are shared among
this process (after the checks that need no travel) and ``workers - 1`` forked processes
(POSIX), grouped by policy so that each process sets a policy's planner up once
(:func:`engine.carwars.fairness.lanes`).

>>> from schema.games.carwars import default_arena
>>> validate(default_arena()).issues
[]
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.carwars import fairness as fair
from engine.carwars.checks import SETUP_CHECKS
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.issues import Issue
from engine.carwars.rules import POLICIES
from engine.carwars.travel import SearchLimits
from schema.games.carwars import CarWarsArena


@dataclass
class Validation:
    issues: list[Issue]
    table: fair.TravelTable | None
    timings: dict[str, float] = field(default_factory=dict)


def validate(arena: CarWarsArena, *, workers: int = 1, use_symmetry: bool = True,
             limits: SearchLimits = SearchLimits()) -> Validation:
    """Run every check not disabled in the scenario's analysis."""
    disabled = set(arena.scenario.analysis.disabled)
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    need_travel = bool(arena.start_positions) and any(c not in disabled for c in fair.TRAVEL_CHECKS)
    pool: ProcessPoolExecutor | None = None
    futures = []
    lanes: list[list[fair.Job]] = [[]]
    images: fair.Images = {}
    if need_travel:
        geometry = CarWarsGeometry(arena)
        timings["geometry"] = time.perf_counter() - t0
        jobs, images = fair.travel_jobs(arena, POLICIES, use_symmetry)
        fair.set_job_context(arena, geometry, limits)
        lanes = fair.lanes(jobs, workers)
        if len(lanes) > 1:
            pool = ProcessPoolExecutor(max_workers=len(lanes) - 1, mp_context=multiprocessing.get_context("fork"))
            futures = [pool.submit(fair.run_jobs, lane) for lane in lanes[1:]]
    issues: list[Issue] = []
    try:
        for code, check in SETUP_CHECKS.items():
            if code not in disabled:
                t = time.perf_counter()
                issues += check(arena)
                timings[code] = time.perf_counter() - t
        for code, other in fair.OTHER_CHECKS.items():
            if code not in disabled:
                t = time.perf_counter()
                issues += other(arena)
                timings[code] = time.perf_counter() - t
        table = None
        if need_travel:
            t = time.perf_counter()
            done = dict(zip(lanes[0], fair.run_jobs(lanes[0])))
            for lane, future in zip(lanes[1:], futures):
                done.update(zip(lane, future.result()))
            table = fair.assemble(arena, POLICIES, images, done)
            timings["travel"] = time.perf_counter() - t
            for code, tcheck in fair.TRAVEL_CHECKS.items():
                if code not in disabled:
                    t = time.perf_counter()
                    issues += tcheck(arena, table)
                    timings[code] = time.perf_counter() - t
    finally:
        if pool is not None:
            pool.shutdown()
        fair.set_job_context(None)
    timings["total"] = time.perf_counter() - t0
    return Validation(issues, table, timings)
