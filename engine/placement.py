"""Placement error: pieces put on a real table by hand land near, not on, their drawn place.

Game-neutral maths the games' perturbation hooks share (``engine.gravstrike.placement_error``,
``engine.arenarex.placement_error``): each piece is moved rigidly by an :class:`Offset` drawn
uniformly within a :class:`Tolerance` - ``dx`` and ``dy`` each in ``[-length, +length]``, the turn
``dtheta`` in ``[-angle, +angle]`` degrees about the piece's own centre.  Three numbers are drawn
per piece, in a fixed order, whatever the piece (a circle's turn changes nothing but its
direction, if it has one), so sample ``k`` of a seed is the same arena on any machine.

A piece drawn inside the table (``bounds``) stays on it: when its moved shape sticks out, its
offset is drawn again (at most :data:`REDRAWS` times, then it keeps its drawn place); the count of
redraws is reported.

>>> import numpy as np
>>> from schema.games.gravstrike.model import Rect
>>> off = Offset(0.1, -0.2, 90.0)
>>> move_shape(Rect(center=(1.0, 1.0), size=(2.0, 1.0)), off)
Rect(center=(1.1, 0.8), size=(2.0, 1.0), rotation=90.0, type='rect')
>>> o = draw(np.random.default_rng(1), Tolerance(0.25, 5.0))
>>> abs(o.dx) <= 0.25 and abs(o.dy) <= 0.25 and abs(o.dtheta) <= 5.0
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import numpy as np
from shapely.geometry.base import BaseGeometry

from schema.shapes import Circle, Point, Polygon, Polyline, Rect, Shape

#: How many times a piece that left the table is drawn again before it keeps its drawn place.
REDRAWS = 10
#: Slack (in the arena's unit) when asking whether a piece lies on the table.
EDGE_SLACK = 1e-6

T = TypeVar("T")


@dataclass(frozen=True)
class Tolerance:
    """How far a hand may misplace a piece: ``length`` along each axis (the arena's unit) and
    ``angle`` degrees of turn."""

    length: float
    angle: float


@dataclass(frozen=True)
class Offset:
    """One piece's misplacement: a shift and a turn (degrees, counter-clockwise)."""

    dx: float
    dy: float
    dtheta: float

    def point(self, p: Point, pivot: Point) -> Point:
        """``p`` turned by ``dtheta`` about ``pivot``, then shifted."""
        a = math.radians(self.dtheta)
        ca, sa = math.cos(a), math.sin(a)
        x, y = p[0] - pivot[0], p[1] - pivot[1]
        return (pivot[0] + x * ca - y * sa + self.dx, pivot[1] + x * sa + y * ca + self.dy)

    def angle(self, degrees: float) -> float:
        """A direction or facing turned with the piece, in [0, 360)."""
        return (degrees + self.dtheta) % 360.0


def scenario_tolerance(arena: Any) -> Tolerance:
    """An arena's placement tolerance: its scenario's ``analysis.placement_tolerance`` (in the
    arena's unit) and ``placement_angle_tolerance`` (degrees) - every game's setting."""
    an = arena.scenario.analysis
    return Tolerance(an.placement_tolerance, an.placement_angle_tolerance)


def draw(rng: np.random.Generator, tol: Tolerance) -> Offset:
    """One offset, uniform within ``tol`` (three draws, always)."""
    dx, dy, dt = rng.uniform(-1.0, 1.0, size=3)
    return Offset(float(dx) * tol.length, float(dy) * tol.length, float(dt) * tol.angle)


def centre(points: Sequence[Point]) -> Point:
    """The mean of a piece's points: the pivot of its turn."""
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def move_shape(shape: Shape, off: Offset) -> Shape:
    """``shape`` moved rigidly by ``off`` (turned about its own centre)."""
    if isinstance(shape, Circle):
        return Circle(center=(shape.center[0] + off.dx, shape.center[1] + off.dy), radius=shape.radius)
    if isinstance(shape, Rect):
        return Rect(center=(shape.center[0] + off.dx, shape.center[1] + off.dy), size=shape.size,
                    rotation=off.angle(shape.rotation))
    pivot = centre(shape.points)
    points = tuple(off.point(p, pivot) for p in shape.points)
    if isinstance(shape, Polyline):
        return Polyline(points=points, thickness=shape.thickness)
    return Polygon(points=points)


def place(pieces: Sequence[T], rng: np.random.Generator, tol: Tolerance, move: Callable[[T, Offset], T],
          geometry: Callable[[T], BaseGeometry], bounds: BaseGeometry,
          on_table: Callable[[T], bool] | None = None) -> tuple[list[T], int]:
    """Every piece moved by its own offset, in order; a piece whose drawn place is on the table
    (``bounds``) is drawn again while its moved ``geometry`` is not.  ``on_table`` (a piece ->
    whether it lies on the table, within :data:`EDGE_SLACK`) replaces the test on ``bounds``
    where the game measures its table itself (an Arena Rex circle board as a circle).  Returns
    the moved pieces and the number of redraws."""
    table = bounds.buffer(EDGE_SLACK)

    def fits(p: T) -> bool:
        return on_table(p) if on_table is not None else bool(table.covers(geometry(p)))

    out: list[T] = []
    redraws = 0
    for piece in pieces:
        moved = move(piece, draw(rng, tol))
        if fits(piece):
            tries = 0
            while not fits(moved):
                if tries == REDRAWS:
                    moved = piece
                    break
                tries += 1
                moved = move(piece, draw(rng, tol))
            redraws += tries
        out.append(moved)
    return out, redraws


A = TypeVar("A")


def place_kinds(arena: A, kinds: Sequence[str], rng: np.random.Generator, tol: Tolerance,
                move: Callable[[Any, Offset], Any], geometry: Callable[[Any], BaseGeometry],
                bounds: BaseGeometry, on_table: Callable[[Any], bool] | None = None) -> tuple[A, int]:
    """``arena`` (a frozen dataclass) with every piece of the element lists ``kinds`` moved by
    :func:`place`, in that order; and the number of redraws."""
    pieces: list[Any] = [p for k in kinds for p in getattr(arena, k)]
    moved, redraws = place(pieces, rng, tol, move, geometry, bounds, on_table)
    out: dict[str, Any] = {}
    i = 0
    for k in kinds:
        n = len(getattr(arena, k))
        out[k] = tuple(moved[i:i + n])
        i += n
    return replace(arena, **out), redraws  # type: ignore[type-var]


def replace_pieces(arena: A, kinds: Sequence[str], new: dict[str, Any]) -> A:
    """``arena`` (a frozen dataclass) with the pieces of the element lists ``kinds`` whose ``id``
    is a key of ``new`` replaced by its value, in place (order and ids kept): how a proposed fix
    (:mod:`validators.balance`) moves an element and its symmetric images."""
    out: dict[str, Any] = {}
    for k in kinds:
        pieces = getattr(arena, k)
        if any(p.id in new for p in pieces):
            out[k] = tuple(new.get(p.id, p) for p in pieces)
    return replace(arena, **out) if out else arena  # type: ignore[type-var]
