"""The games' editors: one package per game (``gravstrike``, ``carwars``, ``arenarex``,
``gliderpit``, ``mothership``), each an :class:`editor.game.EditorGame` registered in the
``arena_studio.editors`` entry points, and beside them the game-free, schema-driven path that
serves any ruleset (a sixth game needs no package here unless it draws something its ruleset
cannot say).

Gravstrike keeps its own tools, inspector and painting (``editor/games/gravstrike/draw_tools.py``,
``editor/games/gravstrike/properties.py``, ``editor/games/gravstrike/paint.py``); every other
installed ruleset is served by the generic path here:

* :mod:`editor.games.rulesets` — which ruleset an arena belongs to, the installed games;
* :mod:`editor.games.model` — Qt-free element operations on any ruleset's arena (find, add,
  move, set a field), made on the arena's document and checked against the game's JSON Schema;
* :mod:`editor.games.paint` — drawing elements with the kind's :class:`~schema.ruleset.Style`;
* :mod:`editor.games.tools` — one palette tool per placeable kind;
* :mod:`editor.games.inspector` — inspector fields built from the kind's JSON Schema;
* :mod:`editor.games.analysis` — live validation: the game's schema and registered validators;
* :mod:`editor.games.grid_model`, :mod:`editor.games.grid_tools`, :mod:`editor.games.grid_window`
  — editing hex and square grids;
* :mod:`editor.games.overlay_jobs`, :mod:`editor.games.overlay_layers`,
  :mod:`editor.games.overlay_work` — the machinery and layers of a game's analysis overlays;
* :mod:`editor.games.new_dialog` — File → New asks for the game.
"""

from __future__ import annotations

from typing import Any


def is_generic(arena: Any) -> bool:
    """Is ``arena`` served by the generic path (its game's editor is
    :attr:`~editor.game.EditorGame.schema_driven`: every game but the window's first)?"""
    from editor.game import game_of

    return game_of(arena).schema_driven
