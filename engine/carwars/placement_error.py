"""Car Wars placement error: the arena's pieces put down by hand within the scenario's tolerance.

The pieces are the walls, obstacles, terrain, hazard cards, numbered cards and tokens (barrels
and barriers), each shifted and turned by its own offset (:mod:`engine.placement`), in that
order, element by element in file order.  The arena's outside edges are the table and do not
move.  Nor do the cars on their starting spots: a car is set up with the turning key as a jig,
"2 car-lengths long", against the edge and touching the car, so its place and facing come from
the rules, not from a hand's aim (``docs/rules-decisions.md``).

>>> import numpy as np
>>> from schema import load
>>> arena = load("arenas/car-wars/crossroads-4p.yaml")
>>> moved, _ = perturb(arena, np.random.default_rng(0), tolerance(arena))
>>> a, b = arena.cards[0], moved.cards[0]
>>> abs(a.position[0] - b.position[0]) <= 0.25 and abs((a.rotation - b.rotation + 180) % 360 - 180) <= 5
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.placement import Offset, Tolerance, move_shape, place_kinds
from engine.placement import scenario_tolerance
from schema.games.carwars import Card, CarWarsArena, Token

tolerance = scenario_tolerance  # the game's name for it (hooks, tests)

KINDS = ("walls", "obstacles", "terrain", "hazards", "cards", "tokens")



def move(piece: Any, off: Offset) -> Any:
    """One piece moved by ``off`` (a card or token turns about its centre)."""
    if isinstance(piece, (Card, Token)):
        return replace(piece, position=(piece.position[0] + off.dx, piece.position[1] + off.dy),
                       rotation=off.angle(piece.rotation))
    return replace(piece, shape=move_shape(piece.shape, off))


def geometry(piece: Any) -> BaseGeometry:
    """What must stay on the table: a shape, or a card's or token's centre."""
    if isinstance(piece, (Card, Token)):
        return ShapelyPoint(piece.position)
    shape: BaseGeometry = piece.shape.to_shapely()
    return shape


def perturb(arena: CarWarsArena, rng: np.random.Generator, tol: Tolerance) -> tuple[CarWarsArena, int]:
    """``arena`` with every piece misplaced within ``tol``; and how many draws were redone because
    a piece left the table."""
    return place_kinds(arena, KINDS, rng, tol, move, geometry, arena.bounds_geometry())
