"""The editor for any ruleset (issue 13): what the palette, the inspector, the canvas and live
validation need from a game that is not drawn by the hand-written Gravstrike code.

Gravstrike keeps its own tools, inspector and painting (``editor/draw_tools.py``,
``editor/properties.py``, ``editor/render.py``); every other installed ruleset is served by the
generic, schema-driven path here:

* :mod:`editor.games.rulesets` — which ruleset an arena belongs to, the installed games;
* :mod:`editor.games.model` — Qt-free element operations on any ruleset's arena (find, add,
  move, set a field), made on the arena's document and checked against the game's JSON Schema;
* :mod:`editor.games.paint` — drawing elements with the kind's :class:`~schema.ruleset.Style`
  (and Car Wars' car, turning key and card numbers);
* :mod:`editor.games.tools` — one palette tool per placeable kind;
* :mod:`editor.games.inspector` — inspector fields built from the kind's JSON Schema;
* :mod:`editor.games.analysis` — live validation for the arena's ruleset;
* :mod:`editor.games.new_dialog` — File → New asks for the game.
"""

from __future__ import annotations

from typing import Any

from schema.games.gravstrike.model import Arena


def is_generic(arena: Any) -> bool:
    """Is ``arena`` served by the generic path (any game but Gravstrike)?"""
    return not isinstance(arena, Arena)
