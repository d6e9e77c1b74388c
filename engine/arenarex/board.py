"""The board measured as drawn: a circle board as a circle, not as the polygon shapely makes of
it (:func:`schema.games.gravstrike.model.Circle.to_shapely` is a 128-gon inscribed in the circle, up to 0.0003 R
inside it between its corners: a 24 in circle is 23.993 in across that polygon's narrowest
way).  Rectangles and polygons are exact as shapely has them.

>>> from schema.games.gravstrike.model import Circle, Rect
>>> extent(Circle((0.0, 0.0), 12.0)), [round(v, 9) for v in extent(Rect((0.0, 0.0), (20.0, 30.0), 30.0))]
((24.0, 24.0), [20.0, 30.0])
>>> rim_gap(Circle((0.0, 0.0), 15.0), Circle((10.0, 0.0), 2.0))
3.0
"""

from __future__ import annotations

import math
from typing import Union

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from schema.shapes import AreaShape, Circle, Polygon, Rect

BoardShape = Union[Circle, Rect, Polygon]


def extent(bounds: BoardShape) -> tuple[float, float]:
    """The board's width and depth: the sides of its smallest enclosing rectangle (a circle's
    diameter both ways), shorter first."""
    if isinstance(bounds, Circle):
        return (2.0 * bounds.radius, 2.0 * bounds.radius)
    rect = shapely.minimum_rotated_rectangle(bounds.to_shapely())
    c = list(rect.exterior.coords)
    a = math.hypot(c[1][0] - c[0][0], c[1][1] - c[0][1])
    b = math.hypot(c[2][0] - c[1][0], c[2][1] - c[1][1])
    return (min(a, b), max(a, b))


def _farthest(centre: tuple[float, float], piece: AreaShape | BaseGeometry) -> float:
    """How far the point of ``piece`` farthest from ``centre`` is (a circle piece's exactly; a
    polygon's is one of its corners)."""
    if isinstance(piece, Circle):
        return math.hypot(piece.center[0] - centre[0], piece.center[1] - centre[1]) + piece.radius
    g = piece.to_shapely() if isinstance(piece, (Rect, Polygon)) else piece
    xy = shapely.get_coordinates(g)
    if not len(xy):
        return 0.0
    return float(np.hypot(xy[:, 0] - centre[0], xy[:, 1] - centre[1]).max())


def rim_gap(bounds: BoardShape, piece: AreaShape | BaseGeometry) -> float:
    """The gap between ``piece`` and the board's edge when the piece lies on the board (0 when
    it touches the edge), below 0 when part of it is off the board (on a circle board: by how
    far; on a polygon board: minus the length of the piece's outline off the board, at least a
    hair)."""
    if isinstance(bounds, Circle):
        return bounds.radius - _farthest(bounds.center, piece)
    g = piece.to_shapely() if isinstance(piece, (Circle, Rect, Polygon)) else piece
    board = bounds.to_shapely()
    if board.covers(g):
        return float(shapely.distance(g, board.exterior))
    off = g.boundary.difference(board) if not g.is_empty else g
    return -max(float(off.length), 1e-12)


#: Rounding the tests forgive (inches): a piece computed to touch the rim is on the board.
ROUNDING = 1e-9


def covers(bounds: BoardShape, piece: AreaShape | BaseGeometry, slack: float = ROUNDING) -> bool:
    """Whether ``piece`` lies on the board (within ``slack`` inches of it)."""
    if isinstance(bounds, Circle):
        return rim_gap(bounds, piece) >= -slack
    g = piece.to_shapely() if isinstance(piece, (Circle, Rect, Polygon)) else piece
    board = bounds.to_shapely()
    return bool((board.buffer(slack) if slack > 0 else board).covers(g))


def on_board(bounds: BoardShape, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Which of the points (``xs``, ``ys``) lie inside the board."""
    if isinstance(bounds, Circle):
        cx, cy = bounds.center
        return np.asarray(np.hypot(xs - cx, ys - cy) < bounds.radius, dtype=bool)
    return np.asarray(shapely.contains_xy(bounds.to_shapely(), xs, ys), dtype=bool)


__all__ = ["ROUNDING", "BoardShape", "covers", "extent", "on_board", "rim_gap"]
