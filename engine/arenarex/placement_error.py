"""Arena Rex's placement error: the terrain put down by hand within the scenario's tolerance.

The pieces are the pits, spikes and terrain hazards ("column, wall, rubble, etc."), each shifted
and turned by its own offset (:mod:`engine.placement`), in that order, element by element in file
order.  The board and its deployment edges are the table itself and do not move; whether a piece
stays on it is measured on the board as drawn (a circle board as a circle).

>>> import numpy as np
>>> from schema import load
>>> arena = load("arenas/arena-rex/colosseum-30.yaml")
>>> moved, _ = perturb(arena, np.random.default_rng(0), tolerance(arena))
>>> a, b = arena.pits[0].shape.to_shapely().centroid, moved.pits[0].shape.to_shapely().centroid
>>> abs(a.x - b.x) <= 0.25 + 1e-9 and abs(a.y - b.y) <= 0.25 + 1e-9
True
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
from shapely.geometry.base import BaseGeometry

from engine.arenarex import board
from engine.placement import EDGE_SLACK, Offset, Tolerance, move_shape, place_kinds
from engine.placement import scenario_tolerance
from schema.games.arenarex import ArenaRexArena, BoardShape

tolerance = scenario_tolerance  # the game's name for it (hooks, tests)

KINDS = ("pits", "spikes", "hazards")



def move(piece: Any, off: Offset) -> Any:
    """One piece moved by ``off`` (turned about its own centre)."""
    return replace(piece, shape=move_shape(piece.shape, off))


def _geometry(piece: Any) -> BaseGeometry:
    shape: BaseGeometry = piece.shape.to_shapely()
    return shape


def perturb(arena: ArenaRexArena, rng: np.random.Generator, tol: Tolerance) -> tuple[ArenaRexArena, int]:
    """``arena`` with every pit, spike and hazard misplaced within ``tol``; and how many draws were
    redone because a piece left the board."""
    return place_kinds(arena, KINDS, rng, tol, move, _geometry, arena.bounds_geometry(),
                       partial(_on_board, arena.bounds))


def _on_board(bounds: BoardShape, piece: Any) -> bool:
    """Whether a piece lies on the board as drawn (a circle board as a circle)."""
    return board.covers(bounds, piece.shape, EDGE_SLACK)
