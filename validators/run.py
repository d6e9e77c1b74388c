"""Run validators on an arena and assemble the report document (schema/report.schema.json): the
arena's game's runner (:meth:`validators.game.GameAnalysis.validate`) under the analysis's caps.

Every analysis runs under the caps of :mod:`engine.budget` when it is given some (``caps``:
``arena validate`` and the service do) or runs inside a budget already active; a cap reached
stops it cooperatively and the report is still written, with ``analysis-limit`` findings for
what was not decided (:func:`validators.report.limit_findings`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from engine import budget as caps
from engine.budget import Budget, Caps
from validators import memory
from validators.game import analysis_of
from validators.registry import Registry
from validators.report import REPORT_FORMAT, Progress, Report, run_chosen

__all__ = ["REPORT_FORMAT", "Progress", "Report", "analysis_budget", "default_limits", "run_chosen", "validate"]


def default_limits(environ: dict[str, str] | None = None) -> Caps:
    """The caps of an analysis nobody chose caps for (the editor's): ``arena validate``'s
    defaults, or ``ARENA_TIME_LIMIT`` / ``ARENA_MEMORY_LIMIT_MIB`` from the environment as the
    CLI reads them (0: no cap; a value that is not a number is ignored).

    >>> default_limits({}).describe(), default_limits({"ARENA_TIME_LIMIT": "0"}).describe()
    ('60 s, 1024 MiB', '1024 MiB')
    """
    env = os.environ if environ is None else environ

    def number(name: str, default: float) -> float | None:
        try:
            value = float(env.get(name, default))
        except ValueError:
            value = default
        return value if value > 0 else None

    return Caps(number("ARENA_TIME_LIMIT", caps.DEFAULT_SECONDS), number("ARENA_MEMORY_LIMIT_MIB", caps.DEFAULT_MEMORY_MIB))


@contextmanager
def analysis_budget(limits: Caps | None) -> Iterator[Budget | None]:
    """The budget the analysis runs in: the one already active (a service job's, a batch
    worker's), else one of ``limits`` counted from now, its memory the memory of this process
    and the processes it starts (:func:`validators.memory.in_use_mb`), else none."""
    here = caps.current()
    if here is not None or limits is None:
        yield here
        return
    with caps.active(Budget(limits, memory=memory.reading(os.getpid(), limits.memory_mib))) as b:
        yield b


def validate(
    arena: Any,
    *,
    source: str | None = None,
    enable: Iterable[str] = (),
    disable: Iterable[str] = (),
    tier: int | None = None,
    budget: int | None | str = "arena",
    registry: Registry | None = None,
    progress: Progress | None = None,
    context: Any = None,
    tolerance: float | None = None,
    parallel: bool = False,
    limits: Caps | None = None,
    players: int | None = None,
) -> Report:
    """Run the selected validators with the arena's game's runner.  Codes listed in the arena's
    ``scenario.analysis.disabled`` are skipped unless enabled explicitly.  ``tier``, ``budget``
    (``"arena"``: the arena's own), ``tolerance`` and ``context`` are for the games whose
    analysis reads them (Gravstrike's tier, icons per turn and travel context).
    ``parallel``: the game may use a second core (a forked helper, :mod:`validators.parallel`)
    - only from a process that may fork (the CLI on one arena; not from threads or worker
    pools); the report is the same.
    ``limits``: the analysis's caps (time, memory; :class:`engine.budget.Caps`), unless a budget
    is already active; None: none.
    ``players``: judge the start set the scenario declares for that many players (``arena
    validate --players``); None: the arena as it stands and each declared count
    (:mod:`validators.players`).  ``context`` serves the arena as it stands only."""
    from validators.players import judge

    def run(judged: Any) -> Report:
        return _validate(judged, source=source, enable=enable, disable=disable, tier=tier, budget=budget,
                         registry=registry, progress=progress, context=context if judged is arena else None,
                         tolerance=tolerance, parallel=parallel)

    with analysis_budget(limits):
        return judge(arena, players, run, source=source, sharing=analysis_of(arena).judging)


def _validate(arena: Any, *, source: str | None, enable: Iterable[str], disable: Iterable[str], tier: int | None,
              budget: int | None | str, registry: Registry | None, progress: Progress | None,
              context: Any, tolerance: float | None, parallel: bool) -> Report:
    memory.start()
    report = analysis_of(arena).validate(arena, source=source, enable=enable, disable=disable, registry=registry,
                                         progress=progress, parallel=parallel, tier=tier, budget=budget,
                                         context=context, tolerance=tolerance)
    report.memory = report.memory or {"main": memory.peak_mb(), "helper": None}
    return report
