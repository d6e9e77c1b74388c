"""Gravstrike's placement error: every piece put down by hand within the scenario's tolerance.

The pieces are the walls, checkpoints, gates, acceleration fields (their push turns with them),
exclusion fields, static targets and start positions (their facing turns with them); the table
(bounds) and the turbine are not moved.  Each is shifted and turned by its own offset
(:mod:`engine.placement`), in that order, element by element in file order.

>>> import numpy as np
>>> from schema import load
>>> arena = load("arenas/default.yaml")
>>> moved, _ = perturb(arena, np.random.default_rng(0), tolerance(arena))
>>> a, b = arena.start_positions[0], moved.start_positions[0]
>>> abs(a.position[0] - b.position[0]) <= 0.25 and abs((a.facing - b.facing + 180) % 360 - 180) <= 5
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import numpy as np
from shapely.geometry import LineString, Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.placement import Offset, Tolerance, move_shape, place_kinds
from engine.placement import scenario_tolerance
from schema.games.gravstrike.model import (AccelerationField, Arena, AreaShape, Checkpoint, ExclusionField, Gate, StartPosition, StaticTarget,
                          Wall)

tolerance = scenario_tolerance  # the game's name for it (hooks, tests)

Piece = Wall | Checkpoint | Gate | AccelerationField | ExclusionField | StaticTarget | StartPosition



def move(piece: Any, off: Offset) -> Any:
    """One piece moved by ``off``."""
    if isinstance(piece, (StaticTarget, StartPosition)):
        pos = (piece.position[0] + off.dx, piece.position[1] + off.dy)
        if isinstance(piece, StartPosition):
            return replace(piece, position=pos, facing=off.angle(piece.facing))
        return replace(piece, position=pos)
    if isinstance(piece, Gate):
        pivot = ((piece.start[0] + piece.end[0]) / 2, (piece.start[1] + piece.end[1]) / 2)
        return replace(piece, start=off.point(piece.start, pivot), end=off.point(piece.end, pivot))
    if isinstance(piece, AccelerationField):
        return replace(piece, shape=cast(AreaShape, move_shape(piece.shape, off)), direction=off.angle(piece.direction))
    return replace(piece, shape=move_shape(piece.shape, off))


def geometry(piece: Any) -> BaseGeometry:
    """What must stay on the table: a shape, a gate's line, a target's or start's point."""
    if isinstance(piece, (StaticTarget, StartPosition)):
        return ShapelyPoint(piece.position)
    if isinstance(piece, Gate):
        return LineString([piece.start, piece.end])
    shape: BaseGeometry = piece.shape.to_shapely()
    return shape


def perturb(arena: Arena, rng: np.random.Generator, tol: Tolerance) -> tuple[Arena, int]:
    """``arena`` with every piece misplaced within ``tol``; and how many draws were redone
    because a piece left the table."""
    kinds = ("walls", "checkpoints", "gates", "acceleration_fields", "exclusion_fields", "static_targets",
             "start_positions")
    return place_kinds(arena, kinds, rng, tol, move, geometry, arena.bounds_geometry())
