"""Small Arena Rex arenas for the tests: the shipped circle, and one-change variants of it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from schema.games.arenarex import Analysis, ArenaRexArena, Hazard, Pit, Spikes
from schema.io import load
from schema.shapes import Circle, Rect

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "arenas" / "arena-rex"


def circle() -> ArenaRexArena:
    """The shipped 30 in circle that passes every check."""
    arena = load(SHIPPED / "colosseum-30.yaml")
    assert isinstance(arena, ArenaRexArena)
    return arena


def with_analysis(arena: ArenaRexArena, **kw: Any) -> ArenaRexArena:
    return replace(arena, scenario=replace(arena.scenario, analysis=replace(arena.scenario.analysis, **kw)))


def with_cohort(arena: ArenaRexArena, cohort: int) -> ArenaRexArena:
    return replace(arena, scenario=replace(arena.scenario, cohort=cohort))


def pit(ident: str, x: float, y: float, r: float = 2.0) -> Pit:
    return Pit(ident, Circle((x, y), r))


def spikes(ident: str, x: float, y: float, w: float = 4.0, h: float = 1.0) -> Spikes:
    return Spikes(ident, Rect((x, y), (w, h)))


def column(ident: str, x: float, y: float, r: float = 1.0, **kw: Any) -> Hazard:
    return Hazard(ident, Circle((x, y), r), **kw)


__all__ = ["Analysis", "circle", "column", "pit", "spikes", "with_analysis", "with_cohort"]
