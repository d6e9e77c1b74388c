"""Validate a Car Wars arena: the registry's validators for ``car-wars-6e`` (setup checks and
fairness), sharing one travel table (:class:`validators.games.carwars.context.CarWarsContext`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from engine.carwars.travel import SearchLimits
from schema.games.carwars import SYSTEM, CarWarsArena
from validators.games.carwars.context import CarWarsContext
from validators.registry import Registry, default_registry
from validators.report import Progress, Report, run_chosen


def validate(arena: CarWarsArena, *, source: str | None = None, enable: Iterable[str] = (),
             disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
             parallel: bool = False, limits: SearchLimits = SearchLimits(), context: Any = None,
             **_ignored: Any) -> Report:
    """Run the Car Wars validators. Codes in the arena's ``scenario.analysis.disabled`` are
    skipped unless enabled explicitly; ``parallel`` runs the travel searches on two cores
    (forked processes; only from a process that may fork, such as the CLI)."""
    reg = registry or default_registry()
    enable = list(enable)
    disabled = set(disable) | (set(arena.scenario.analysis.disabled) - set(enable))
    chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game=SYSTEM)
    workers = min(2, os.cpu_count() or 1) if parallel else 1
    travel = any(getattr(v, "needs_travel", False) for v in chosen)
    ctx = context if isinstance(context, CarWarsContext) else CarWarsContext(
        arena, limits=limits, workers=workers if travel else 1)
    try:
        # the checks that need no travel run here while the forked workers search
        report = run_chosen(arena, chosen, ctx, source=source, progress=progress, system=SYSTEM,
                            first=lambda v: not getattr(v, "needs_travel", False))
        return report
    finally:
        if ctx is not context:
            ctx.close()
