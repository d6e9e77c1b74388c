"""Validate a Glider-Pit Gladiators pit: the registry's validators for
``glider-pit-gladiators`` (setup checks and launch-zone fairness), sharing one analysis of the
launch zones (:class:`validators.games.gliderpit.context.GliderPitContext`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from schema.games.gliderpit import SYSTEM, GliderPitArena
from validators.games.gliderpit.context import GliderPitContext
from validators.registry import Registry, default_registry
from validators.report import Progress, Report, run_chosen


def validate(arena: GliderPitArena, *, source: str | None = None, enable: Iterable[str] = (),
             disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
             context: Any = None, **_ignored: Any) -> Report:
    """Run the Glider-Pit validators. Codes in the arena's ``scenario.analysis.disabled`` are
    skipped unless enabled explicitly. The report's ``players`` is the scenario's gliders."""
    reg = registry or default_registry()
    enable = list(enable)
    disabled = set(disable) | (set(arena.scenario.analysis.disabled) - set(enable))
    chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game=SYSTEM)
    ctx = context if isinstance(context, GliderPitContext) and context.arena is arena else GliderPitContext(arena)
    report = run_chosen(arena, chosen, ctx, source=source, progress=progress, system=SYSTEM,
                        players=arena.scenario.gliders)
    if "zones" in report.metrics:  # the fullest numbers, whatever order the validators ran in
        report.metrics["zones"] = ctx.zones_json()
    return report
