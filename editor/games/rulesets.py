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
    rows = [(GRAVSTRIKE, "Gravstrike", "core rules", unit_words(installed()[GRAVSTRIKE].units))]
    for key, rs in installed().items():
        if key != GRAVSTRIKE:
            rows.append((key, rs.game, rs.edition, unit_words(rs.units)))
    return rows


def unit_words(units: R.Units) -> str:
    """``lengths (L)``, ``inches (in)``: how File → New names a game's unit."""
    return f"{units.plural_name} ({units.symbol})"


def default_arena(system: str) -> Any:
    """The new arena of ``system`` (Gravstrike: the empty 24 × 24 square)."""
    if system == GRAVSTRIKE:
        from editor.document import empty_arena

        return empty_arena()
    return installed()[system].default_arena()


def system_of(arena: Any) -> str:
    """The id of the game ``arena`` belongs to (``gravstrike`` for Gravstrike's own model)."""
    from editor.games import is_generic

    return str(arena.system) if is_generic(arena) else GRAVSTRIKE


def units_of(arena: Any) -> R.Units:
    """The unit of ``arena``'s coordinates: its game's ruleset's (every number the editor shows
    with a unit takes it from here, so it follows the document's game)."""
    return R.ruleset(system_of(arena)).units


def units_symbol(arena: Any) -> str:
    """``L`` (Gravstrike), ``in`` (Car Wars, Arena Rex), ``hex``, ``sq``."""
    return units_of(arena).symbol


def units_name(arena: Any, n: float = 2.0) -> str:
    """The unit's name after the number ``n`` (``1 length``, ``2.5 inches``)."""
    return units_of(arena).name_for(n)


def printed_mm(arena: Any) -> float:
    """Millimetres per unit printed 1:1 (Actual size zoom, the print's caption): the arena's own
    (Gravstrike ``length_mm``, Car Wars and Arena Rex ``printed_mm``, a pit's ``hex_mm``, a
    battlefield's ``square_mm``), else its game's."""
    units = getattr(arena, "units", None)
    for field in ("length_mm", "printed_mm", "hex_mm", "square_mm"):
        mm = getattr(units, field, None)
        if mm:
            return float(mm)
    return float(units_of(arena).printed_mm)


def game_label(arena: Any) -> str:
    rs = ruleset_of(arena)
    return "Gravstrike" if rs is None else f"{rs.game} ({rs.edition})"
