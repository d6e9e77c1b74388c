"""Car Wars geometry of one car and one movement point: the base's rectangle and collision
outline, the turning key, where a movement point takes the car and the area it sweeps.

Car frame: the car's centre at the origin, x forward, y to the car's left.  Poses are world
(x, y, heading in degrees).  The procedures are the book's (Low-Risk Moves, Maneuvers):

* straight: "move the car straight forward exactly 1 car-length";
* slight turn / turn: with the key against the side of the turn and its pivot point at the
  car's front, "Move the car straight forward 1 car-length until the back is aligned with the
  pivot point, and then pivot the front of the car over the tip of the turning key": one car
  length forward, then a rotation about the car's inner rear corner;
* slide: "move the car diagonally" along the SLIDE zone: a translation keeping the heading
  (``slide_forward`` ahead, ``slide_lateral`` to the side, in car lengths).

Reverse (speed 0 "in reverse") uses "the same methods in reverse, but treat the back of the car
as though it is the front": the forward procedure applied to the car turned round.

>>> v = Vehicle(length=3.0, width=1.5, bumper=0.25)
>>> p = apply(Pose(0.0, 0.0, 90.0), Maneuver("straight"), v, TurningKey())
>>> round(p.x, 9) + 0.0, p.y, p.heading
(0.0, 3.0, 90.0)
>>> q = apply(Pose(0.0, 0.0, 0.0), Maneuver("turn", 1, 90.0, 4), v, TurningKey())
>>> round(q.x, 6), round(q.y, 6), q.heading     # pivot about the rear-left corner (1.5, 0.75)
(2.25, 2.25, 90.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

from engine.carwars.rules import Maneuver
from schema.games.carwars import TurningKey, Vehicle

FloatArray = npt.NDArray[np.float64]

#: Segments of each rounded end (nose, rear) of the collision outline.
CAP_SEGMENTS = 8
#: Tolerance (inches) of the simplified outline of a swept area (grown back by as much).
SIMPLIFY = 0.01
#: Largest pivot step (degrees) between the positions whose hulls make a turn's swept area;
#: the hulls are grown by the resulting sagitta so the swept area is covered.
SWEEP_STEP = 2.0


@dataclass(frozen=True, slots=True)
class Pose:
    """A car's centre (inches) and heading (degrees counter-clockwise from +x)."""

    x: float
    y: float
    heading: float


def normalize(heading: float) -> float:
    h = math.fmod(heading, 360.0)
    return h + 360.0 if h < 0 else h


def rectangle(v: Vehicle) -> FloatArray:
    """The base's rectangle in the car frame, counter-clockwise from the rear right corner."""
    hl, hw = v.length / 2.0, v.width / 2.0
    return np.array([(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)], dtype=np.float64)


@lru_cache(maxsize=64)
def _outline(length: float, width: float, bumper: float) -> tuple[tuple[float, float], ...]:
    hl, hw = length / 2.0, width / 2.0
    if bumper <= 0:
        return ((-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw))
    pts: list[tuple[float, float]] = []
    for i in range(CAP_SEGMENTS + 1):  # nose: half-ellipse from the front right to the front left corner
        a = -math.pi / 2 + math.pi * i / CAP_SEGMENTS
        pts.append((hl + bumper * math.cos(a), hw * math.sin(a)))
    for i in range(CAP_SEGMENTS + 1):  # rear
        a = math.pi / 2 + math.pi * i / CAP_SEGMENTS
        pts.append((-hl + bumper * math.cos(a), hw * math.sin(a)))
    return tuple(pts)


def outline(v: Vehicle) -> FloatArray:
    """The whole base in the car frame (rectangle plus the rounded nose and rear, each a
    half-ellipse ``bumper`` deep): "The rounded nose and rear of the base are only used to
    resolve collisions".  The polygon lies inside the true rounded base."""
    return np.array(_outline(v.length, v.width, v.bumper), dtype=np.float64)


def to_world(local: FloatArray, pose: Pose) -> FloatArray:
    a = math.radians(pose.heading)
    c, s = math.cos(a), math.sin(a)
    out: FloatArray = np.empty_like(local)
    out[..., 0] = pose.x + local[..., 0] * c - local[..., 1] * s
    out[..., 1] = pose.y + local[..., 0] * s + local[..., 1] * c
    return out


def car_rectangle(pose: Pose, v: Vehicle) -> BaseGeometry:
    """The rectangle of a car at ``pose`` (what "the car" is for terrain, hazards, cards and sight)."""
    return ShapelyPolygon(to_world(rectangle(v), pose))


def car_outline(pose: Pose, v: Vehicle) -> BaseGeometry:
    """The whole base at ``pose`` (what collides)."""
    return ShapelyPolygon(to_world(outline(v), pose))


def turning_key(origin: tuple[float, float], direction: float, inward: float, v: Vehicle) -> BaseGeometry:
    """The turning key as a rectangle: one long side from ``origin`` along ``direction``
    (degrees), the key extending towards ``inward`` (degrees) by its width."""
    a, b = math.radians(direction), math.radians(inward)
    ux, uy = math.cos(a), math.sin(a)
    nx, ny = math.cos(b), math.sin(b)
    L, w = v.key_length, v.key_width
    x0, y0 = origin
    return ShapelyPolygon([(x0, y0), (x0 + L * ux, y0 + L * uy), (x0 + L * ux + w * nx, y0 + L * uy + w * ny),
                           (x0 + w * nx, y0 + w * ny)])


# ------------------------------------------------------------------ one movement point


def _rot(px: float, py: float, deg: float) -> tuple[float, float]:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return (px * c - py * s, px * s + py * c)


def pivot(m: Maneuver, v: Vehicle) -> tuple[float, float]:
    """The pivot of a turn in the car frame before it moves: the inner rear corner after the
    one-car-length advance, i.e. (length/2, +-width/2)."""
    return (v.length / 2.0, m.side * v.width / 2.0)


def local_pose(m: Maneuver, u: float, v: Vehicle, key: TurningKey) -> tuple[float, float, float]:
    """Where the car is (car frame: x, y, heading change) after the fraction ``u`` in [0, 1] of
    the movement point: straight and slides move linearly; turns advance during the first half
    and pivot during the second."""
    L = v.length
    if m.kind == "straight":
        return (u * L, 0.0, 0.0)
    if m.kind == "slide":
        return (u * key.slide_forward * L, u * m.side * key.slide_lateral * L, 0.0)
    if u <= 0.5:
        return (2.0 * u * L, 0.0, 0.0)
    theta = m.side * m.angle * (2.0 * u - 1.0)
    cx, cy = pivot(m, v)
    rx, ry = _rot(L - cx, -cy, theta)
    return (cx + rx, cy + ry, theta)


def local_end(m: Maneuver, v: Vehicle, key: TurningKey) -> tuple[float, float, float]:
    return local_pose(m, 1.0, v, key)


def compose(pose: Pose, local: tuple[float, float, float], reverse: bool = False) -> Pose:
    """The world pose reached by a car-frame displacement (turned round when in ``reverse``)."""
    dx, dy, dh = local
    if reverse:
        dx, dy = -dx, -dy
    rx, ry = _rot(dx, dy, pose.heading)
    return Pose(pose.x + rx, pose.y + ry, normalize(pose.heading + dh))


def apply(pose: Pose, m: Maneuver, v: Vehicle, key: TurningKey, reverse: bool = False) -> Pose:
    """The pose after the movement point ``m`` (no collision check: see
    :meth:`engine.carwars.geometry.CarWarsGeometry.drive_point`)."""
    return compose(pose, local_end(m, v, key), reverse)


def _place(pts: FloatArray, local: tuple[float, float, float]) -> FloatArray:
    dx, dy, dh = local
    a = math.radians(dh)
    c, s = math.cos(a), math.sin(a)
    out: FloatArray = np.column_stack([dx + pts[:, 0] * c - pts[:, 1] * s, dy + pts[:, 0] * s + pts[:, 1] * c])
    return out


def sweep(m: Maneuver, v: Vehicle, key: TurningKey, u0: float = 0.0, u1: float = 1.0, reverse: bool = False) -> BaseGeometry:
    """The area the base's outline covers while moving from fraction ``u0`` to ``u1`` of the
    point, in the car frame (turned round in ``reverse``).  Translations are exact (the hull of
    the two end positions); a pivot is the union of the hulls of positions at most
    :data:`SWEEP_STEP` degrees apart, each grown by the largest sagitta, so the area covers the
    true swept area; simplified to :data:`SIMPLIFY` and grown back by as much, it exceeds
    the true area by at most 0.025 in for a 3-in car."""
    return _sweep(m, v.length, v.width, v.bumper, key, round(u0, 12), round(u1, 12), reverse)


@lru_cache(maxsize=4096)
def _sweep(m: Maneuver, length: float, width: float, bumper: float, key: TurningKey, u0: float, u1: float,
           reverse: bool) -> BaseGeometry:
    if reverse:  # the forward sweep turned round (computed once for both directions)
        return _rot180(_sweep(m, length, width, bumper, key, u0, u1, False))
    v = Vehicle(length, width, bumper)
    base = outline(v)
    pieces: list[BaseGeometry] = []
    if m.kind in ("straight", "slide") or u1 <= 0.5:
        a, b = local_pose(m, u0, v, key), local_pose(m, u1, v, key)
        pieces.append(shapely.MultiPoint(np.vstack([_place(base, a), _place(base, b)])).convex_hull)
    else:
        if u0 < 0.5:
            a, b = local_pose(m, u0, v, key), local_pose(m, 0.5, v, key)
            pieces.append(shapely.MultiPoint(np.vstack([_place(base, a), _place(base, b)])).convex_hull)
        lo = max(u0, 0.5)
        span = m.angle * 2.0 * (u1 - lo)
        n = max(1, math.ceil(span / SWEEP_STEP - 1e-9))
        cx, cy = pivot(m, v)
        at_half = _place(base, local_pose(m, 0.5, v, key))
        r = float(np.max(np.hypot(at_half[:, 0] - cx, at_half[:, 1] - cy)))
        grow = r * (1.0 - math.cos(math.radians(span / n) / 2.0)) + 1e-9
        poses = [_place(base, local_pose(m, lo + (u1 - lo) * i / n, v, key)) for i in range(n + 1)]
        hulls = [shapely.MultiPoint(np.vstack([poses[i], poses[i + 1]])).convex_hull.buffer(grow, quad_segs=2)
                 for i in range(n)]
        pieces.extend(hulls)
    geom = shapely.union_all(pieces)
    if len(shapely.get_coordinates(geom)) > 24:
        # fewer vertices for the collision tests, still covering the swept area
        geom = shapely.simplify(geom, SIMPLIFY).buffer(SIMPLIFY, join_style="mitre")
    return geom


def _rot180(geom: BaseGeometry) -> BaseGeometry:
    return shapely.transform(geom, lambda xy: -xy)
