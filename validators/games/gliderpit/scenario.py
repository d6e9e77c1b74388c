"""The Glider-Pit scenario a report states (the report's ``scenario``) and the words its headline
gives it: gliders, the FLOOR the match is played with and its short game, the teams and their
mode ("3 v 3", "2 v 2 v 2"), the optional rules in play.

>>> from dataclasses import replace
>>> from schema.games.gliderpit import OptionalRules, Scenario, default_arena
>>> a = replace(default_arena(), scenario=Scenario(teams=((1, "A"), (2, "B"), (3, "A"), (4, "B"), (5, "A"),
...             (6, "B")), short_game="half-game", optional_rules=OptionalRules(advanced_maneuvers=True)))
>>> words(summary(a))
'teams 3 v 3 (A: 1 3 5 | B: 2 4 6) · half-game: FLOOR 10 · advanced maneuvers'
"""

from __future__ import annotations

from typing import Any

from engine.gliderpit.teams import mode
from schema.games.gliderpit import SHORT_GAMES, STANDARD_FLOOR, GliderPitArena, OptionalRules


def game_name(arena: GliderPitArena) -> str:
    """``standard``, the short game's name, or ``house rule`` (an arena FLOOR no short game sets)."""
    if arena.scenario.short_game is not None:
        return arena.scenario.short_game
    if arena.floor == STANDARD_FLOOR:
        return "standard"
    return next((name for name, f in SHORT_GAMES.items() if f == arena.floor), "house rule")


def summary(arena: GliderPitArena) -> dict[str, Any]:
    """The report's ``scenario``: ``gliders``, ``floor`` (the level played with; 0 standard) and
    ``game``, ``teams`` (team -> Airspeed Tracks; {} without teams) and ``team_mode`` (null
    without), ``optional_rules`` (rule -> on/off)."""
    sc = arena.scenario
    return {"gliders": sc.gliders, "floor": arena.floor_level, "game": game_name(arena),
            "teams": {t: list(ts) for t, ts in sc.team_tracks().items()}, "team_mode": mode(arena),
            "optional_rules": {k: getattr(sc.optional_rules, k) for k in OptionalRules.__dataclass_fields__}}


def words(scenario: dict[str, Any]) -> str:
    """Teams, short game and optional rules for the headline ("" for a standard match of lone
    gladiators under the basic rules)."""
    parts = []
    if scenario.get("teams"):
        listing = " | ".join(f"{t}: {' '.join(map(str, ts))}" for t, ts in scenario["teams"].items())
        parts.append(f"teams {scenario['team_mode']} ({listing})")
    if scenario.get("game", "standard") != "standard":
        parts.append(f"{scenario['game']}: FLOOR {scenario['floor']}")
    parts += [k.replace("_", " ") for k, on in scenario.get("optional_rules", {}).items() if on]
    return " · ".join(parts)
