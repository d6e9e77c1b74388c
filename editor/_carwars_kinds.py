"""TEMPORARY: the Car Wars element kinds as the ruleset layer (branch ``layer``) defines them,
used by :mod:`editor.style_render` only until that branch registers the Car Wars ruleset."""

from __future__ import annotations

from types import SimpleNamespace

from schema.ruleset import ElementKind, Style

_WALL, _GREY, _GREEN, _VERMILLION = "#3B3B3B", "#8C8C8C", "#009E73", "#D55E00"
_YELLOW, _ORANGE, _SKY, _INK = "#F0E442", "#E69F00", "#56B4E9", "#1A1A1A"

KINDS = (
    ElementKind("walls", "Wall", "", "shape", Style(_WALL, _WALL, 1.0, 0.5, None, 10), solid=True),
    ElementKind("obstacles", "Obstacle", "", "shape", Style(_GREY, _INK, 0.9, 0.4, "id", 15), solid=True),
    ElementKind("terrain", "Terrain", "", "shape", Style(_GREEN, _GREEN, 0.25, 0.4, "level", 5, "dots")),
    ElementKind("hazards", "Hazard card", "", "shape", Style(_VERMILLION, _VERMILLION, 0.2, 0.5, "id", 8, "diagonal")),
    ElementKind("cards", "Numbered card", "", "point", Style(_YELLOW, _INK, 1.0, 0.4, "number", 30)),
    ElementKind("tokens", "Barrel or barrier", "", "point", Style(_ORANGE, _INK, 1.0, 0.4, "id", 25)),
    ElementKind("start_positions", "Start position", "", "pose", Style(_SKY, _INK, 0.86, 0.4, "player", 40)),
)
RULESET = SimpleNamespace(game="Car Wars", edition="sixth edition", kinds=KINDS)
