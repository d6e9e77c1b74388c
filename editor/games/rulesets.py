"""Which ruleset an arena belongs to, and the installed games (Qt-free).

Rulesets come from the ``arena_studio.rulesets`` entry points (:func:`schema.ruleset.rulesets`).
File → New offers every installed game: those placed freely on a table (``Ruleset.grid`` None)
and the grid games (Glider-Pit Gladiators' hex pit, the Mothership battlefield).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schema import ruleset as R

GRAVSTRIKE = "gravstrike"


def installed() -> Mapping[str, R.Ruleset]:
    """Installed rulesets by id (the ``arena_studio.rulesets`` entry points)."""
    return R.rulesets()


def ruleset_of(arena: Any) -> R.Ruleset | None:
    """The ruleset of a generic arena (None for Gravstrike, served by the hand-written path)."""
    from editor.games import is_generic

    if not is_generic(arena):
        return None
    return installed()[arena.system]


def games() -> list[tuple[str, str, str, str]]:
    """(id, game, edition, units) of every game File → New offers, Gravstrike first."""
    rows = [(GRAVSTRIKE, "Gravstrike", "core rules", "lengths (L)")]
    for key, rs in installed().items():
        if key != GRAVSTRIKE:
            rows.append((key, rs.game, rs.edition, f"{rs.units.plural_name} ({rs.units.symbol})"))
    return rows


def default_arena(system: str) -> Any:
    """The new arena of ``system`` (Gravstrike: the empty 24 × 24 square)."""
    if system == GRAVSTRIKE:
        from editor.document import empty_arena

        return empty_arena()
    return installed()[system].default_arena()


def units_symbol(arena: Any) -> str:
    rs = ruleset_of(arena)
    return "L" if rs is None else rs.units.symbol


def printed_mm(arena: Any) -> float:
    """Millimetres per unit printed 1:1 (Actual size zoom)."""
    rs = ruleset_of(arena)
    if rs is None:
        return float(arena.units.length_mm)
    units = getattr(arena, "units", None)
    return float(getattr(units, "printed_mm", rs.units.printed_mm))


def game_label(arena: Any) -> str:
    rs = ruleset_of(arena)
    return "Gravstrike" if rs is None else f"{rs.game} ({rs.edition})"
