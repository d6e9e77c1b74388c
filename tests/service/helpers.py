"""Test-only plugins, installed in the service's worker processes through
``ServiceConfig.worker_init`` (workers are separate processes, so monkeypatching the test process would
not reach them)."""

from __future__ import annotations

import time
from typing import Any

from validators.findings import Result

SLEEP = 30.0


class SlowValidator:
    """Sleeps far past any test time limit: the service must kill its worker."""

    id = "slow"
    title = "Deliberately slow (tests)"
    severity = "info"
    needs_travel = False

    def evaluate(self, arena: Any, context: Any) -> Result:
        time.sleep(SLEEP)
        return Result()


class CrashValidator:
    """Kills its own process, like a segfaulting extension would."""

    id = "crash"
    title = "Crashes the worker (tests)"
    severity = "info"
    needs_travel = False

    def evaluate(self, arena: Any, context: Any) -> Result:
        import os

        os._exit(3)


def fake_render(arena: Any, fmt: str, **options: Any) -> bytes:
    if fmt == "svg":
        return f'<svg xmlns="http://www.w3.org/2000/svg"><title>{arena.name}</title></svg>'.encode()
    return b"\x89PNG\r\n\x1a\n" + arena.name.encode()


def install_test_plugins() -> None:
    from validators import plugins
    from validators.registry import default_registry

    default_registry().add(SlowValidator())
    default_registry().add(CrashValidator())
    plugins.renderer = lambda name=None: fake_render  # type: ignore[assignment]


#: Seconds the worker's clock moves at each reading once :func:`install_counting_clock` ran (small
#: enough that the analysis caps' readings during a planner's set-up leave the search most of them).
CLOCK_STEP = 1.0
#: The step of :func:`install_coarse_counting_clock`: a job of the same readings under a limit
#: five times longer, which leaves the pool's real-time safety net five times the room.
COARSE_STEP = 5.0


def install_coarse_counting_clock() -> None:
    """:func:`install_counting_clock` at :data:`COARSE_STEP` seconds a reading."""
    install_counting_clock(COARSE_STEP)


def install_counting_clock(step: float = CLOCK_STEP) -> None:
    """Replace the clock the travel job and its searches read (the job's start, the searches'
    deadline checks between batches) by one that moves ``step`` seconds at each reading
    (:class:`tests.clocks.CountingClock`): a job's time limit is then reached after a fixed
    number of readings - a fixed amount of work - however fast or loaded the machine is."""
    from engine.gravstrike import frontier, search
    from tests.clocks import counting_time
    from app.service import jobs

    clock = counting_time(step)
    jobs.time = clock  # type: ignore[assignment]
    frontier._time = clock  # type: ignore[assignment]
    search._time = clock  # type: ignore[assignment]
    from engine.budget import Budget, Caps

    def job_budget(seconds: float | None, memory_mib: float | None = None, start: float | None = None) -> Any:
        return Budget(Caps(seconds, memory_mib), clock=clock.monotonic, start=start)

    jobs.job_budget = job_budget  # the job's analysis caps read the same clock (engine.budget)


def probe_job() -> tuple[str, str, bytes]:
    """A job answering what the worker holds: its process id, the process that imported the
    validation code (``jobs.WARMED_IN``) and every module it has imported."""
    import json
    import os
    import sys

    from app.service import jobs

    doc = {"pid": os.getpid(), "warmed_in": getattr(jobs, "WARMED_IN", None), "modules": sorted(list(sys.modules))}
    return "ok", "application/json", json.dumps(doc).encode()


def install_probe() -> None:
    """Add the ``probe`` job (:func:`probe_job`) to the worker's jobs."""
    from app.service import jobs

    jobs.JOBS["probe"] = probe_job
