"""The Car Wars scenario a report states (the report's ``scenario``) and the words its headline
gives it: players and set, the game size (Game Size: armor, build and crew points; small for
24 BP or less, large for 25 or more) and the damage deck in play.

>>> from schema.games.carwars import default_arena, GameSize, Scenario
>>> from dataclasses import replace
>>> a = replace(default_arena(), scenario=Scenario(game_size=GameSize(9, 36, 9)))
>>> summary(a)["damage_deck"], summary(a)["damage_deck_from"]
('B', 'build points')
>>> words(summary(a))
'large game: 9 AP, 36 BP, 9 CP · damage deck B'
"""

from __future__ import annotations

from typing import Any

from schema.games.carwars import CarWarsArena

_SHORT = (("armor_points", "AP"), ("build_points", "BP"), ("crew_points", "CP"))


def summary(arena: CarWarsArena) -> dict[str, Any]:
    """The report's ``scenario``: ``players``, ``box``, ``game_size`` (the budgets set and the
    ``size``; null when the scenario sets none), ``damage_deck`` (null: not decided) and
    ``damage_deck_from`` (``scenario``, ``build points`` or null)."""
    sc = arena.scenario
    gs = sc.game_size
    game_size = None if gs is None else {
        "armor_points": gs.armor_points, "build_points": gs.build_points, "crew_points": gs.crew_points,
        "size": gs.size}
    deck = arena.damage_deck
    return {"players": arena.players, "box": arena.box, "game_size": game_size, "damage_deck": deck,
            "damage_deck_from": None if deck is None else "scenario" if sc.damage_deck is not None
            else "build points"}


def words(scenario: dict[str, Any]) -> str:
    """The game size and deck for the report's headline ("" when the scenario sets neither)."""
    parts = []
    gs = scenario.get("game_size")
    if gs:
        budgets = ", ".join(f"{gs[k]} {short}" for k, short in _SHORT if gs.get(k) is not None)
        parts.append(f"{gs['size'] + ' game' if gs.get('size') else 'game size'}: {budgets}")
    if scenario.get("damage_deck"):
        parts.append(f"damage deck {scenario['damage_deck']}")
    return " · ".join(parts)
