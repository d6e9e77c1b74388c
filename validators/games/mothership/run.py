"""Validate a Mothership battlefield: the registry's validators for ``mothership-grid``
(setup checks and the approach), in code order."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.mothership.rules import PLAYERS
from schema.games.mothership import SYSTEM, MothershipArena
from validators.registry import Registry, default_registry
from validators.report import Progress, Report, run_chosen


def validate(arena: MothershipArena, *, source: str | None = None, enable: Iterable[str] = (),
             disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
             context: Any = None, **_ignored: Any) -> Report:
    """Run the Mothership validators. Codes in the arena's ``scenario.analysis.disabled`` are
    skipped unless enabled explicitly. The game is for two players ("your Mothership" and "the
    enemy's"), which the report's ``players`` gives."""
    reg = registry or default_registry()
    enable = list(enable)
    disabled = set(disable) | (set(arena.scenario.analysis.disabled) - set(enable))
    chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game=SYSTEM)
    return run_chosen(arena, chosen, context, source=source, progress=progress, system=SYSTEM, players=len(PLAYERS))
