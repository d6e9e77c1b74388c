"""Which ruleset an arena belongs to, and the installed games (Qt-free).

Rulesets come from the ``arena_studio.rulesets`` entry points (:func:`schema.ruleset.rulesets`).
Until the Car Wars ruleset is registered there, :func:`installed` describes it from
``schema.games.carwars`` with the same :class:`~schema.ruleset.Ruleset` data, so the editor
works the same either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from schema import ruleset as R

GRAVSTRIKE = "gravstrike"


@lru_cache(maxsize=1)
def _provisional() -> dict[str, R.Ruleset]:
    """The Car Wars ruleset as the layer declares it (used when no entry point provides it)."""
    from schema.games import carwars as cw

    S = R.Style
    item = "/properties/{}/items"
    kinds = (
        R.ElementKind("terrain", "Terrain", item.format("terrain"), "shape",
                      S("#E69F00", "#8A5F00", 0.35, label="level", z=0, pattern="dots")),
        R.ElementKind("hazards", "Hazards", item.format("hazards"), "shape",
                      S("#CC79A7", "#7A3F66", 0.45, z=1, pattern="diagonal")),
        R.ElementKind("cards", "Numbered cards", item.format("cards"), "pose",
                      S("#F0E442", "#1A1A1A", 0.95, label="number", z=2)),
        R.ElementKind("obstacles", "Obstacles", item.format("obstacles"), "shape",
                      S("#7F7F7F", "#1A1A1A", 0.9, z=3), solid=True),
        R.ElementKind("walls", "Walls", item.format("walls"), "shape",
                      S("#3B3B3B", "#1A1A1A", 1.0, z=4), solid=True),
        R.ElementKind("tokens", "Tokens", item.format("tokens"), "pose",
                      S("#D55E00", "#1A1A1A", 0.9, label="kind", z=5)),
        R.ElementKind("start_positions", "Start positions", item.format("start_positions"), "pose",
                      S("#56B4E9", "#0072B2", 0.9, label="player", z=6)),
    )
    rs = R.Ruleset(id=cw.SYSTEM, game="Car Wars", edition="sixth edition", book="001_720c8b844658e4d7.txt",
                   units=R.Units("inch", "in", 25.4), schema="schema:systems/car-wars-6e.schema.json",
                   kinds=kinds, build=cw.from_document, document=cw.to_document, default_arena=cw.default_arena,
                   engine="engine.carwars", editor="editor.games")
    return {rs.id: rs}


def installed() -> Mapping[str, R.Ruleset]:
    """Installed rulesets by id (the entry points, plus Car Wars while it has none)."""
    found = dict(R.rulesets())
    for key, rs in _provisional().items():
        found.setdefault(key, rs)
    return found


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
            rows.append((key, rs.game, rs.edition, f"{rs.units.name}es ({rs.units.symbol})"
                         if rs.units.name.endswith("ch") else f"{rs.units.name}s ({rs.units.symbol})"))
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
