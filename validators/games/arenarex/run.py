"""Validate an Arena Rex arena: the registry's validators for ``arena-rex`` (setup checks and
zone fairness), sharing one analysis of the zones
(:class:`validators.games.arenarex.context.ArenaRexContext`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from schema.games.arenarex import SYSTEM, ArenaRexArena
from validators.games.arenarex.context import ArenaRexContext
from validators.registry import Registry, default_registry
from validators.report import Progress, Report, run_chosen


def validate(arena: ArenaRexArena, *, source: str | None = None, enable: Iterable[str] = (),
             disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
             context: Any = None, **_ignored: Any) -> Report:
    """Run the Arena Rex validators. Codes in the arena's ``scenario.analysis.disabled`` are
    skipped unless enabled explicitly. The report's ``players`` is the arena's."""
    reg = registry or default_registry()
    enable = list(enable)
    disabled = set(disable) | (set(arena.scenario.analysis.disabled) - set(enable))
    chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game=SYSTEM)
    ctx = context if isinstance(context, ArenaRexContext) and context.arena is arena else ArenaRexContext(arena)
    return run_chosen(arena, chosen, ctx, source=source, progress=progress, system=SYSTEM, players=arena.players)
