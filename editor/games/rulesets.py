"""Which ruleset an arena belongs to, and the installed games (Qt-free).

Rulesets come from the ``arena_studio.rulesets`` entry points (:func:`schema.ruleset.rulesets`).
File → New offers every installed game: those placed freely on a table (``Ruleset.grid`` None)
and the grid games (Glider-Pit Gladiators' hex pit, the Mothership battlefield).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schema import ruleset as R


def installed() -> Mapping[str, R.Ruleset]:
    """Installed rulesets by id (the ``arena_studio.rulesets`` entry points)."""
    return R.rulesets()


def ruleset_of(arena: Any) -> R.Ruleset | None:
    """The ruleset of an arena served by the generic path (None for one whose game's editor is
    written for its own model, :attr:`editor.game.EditorGame.schema_driven`)."""
    from editor.games import is_generic

    if not is_generic(arena):
        return None
    return installed()[arena.system]


def games() -> list[tuple[str, str, str, str]]:
    """(id, game, edition, units) of every game File → New offers, in the editors' menu order
    (:func:`editor.game.editors`: the window's first game first, then by id)."""
    from editor.game import editors

    return [(key, game.ruleset.game, game.edition(), unit_words(game.ruleset.units)) for key, game in editors().items()]


def unit_words(units: R.Units) -> str:
    """``lengths (L)``, ``inches (in)``: how File → New names a game's unit."""
    return f"{units.plural_name} ({units.symbol})"


def default_arena(system: str) -> Any:
    """The new arena of ``system`` (:meth:`editor.game.EditorGame.new_arena`)."""
    from editor.game import editor_game

    return editor_game(system).new_arena()


def system_of(arena: Any) -> str:
    """The id of the game ``arena`` belongs to."""
    return str(arena.system)


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
    from editor.game import game_of

    return game_of(arena).label()
