"""Geometry helpers shared by the built-in validators."""

from __future__ import annotations

from shapely.geometry.base import BaseGeometry

from engine.gravstrike.motion import Footprint, Pose
from schema.games.gravstrike.model import Arena, Element, Gate, StartPosition, StaticTarget


def start_footprint(arena: Arena, start: StartPosition) -> BaseGeometry:
    geom: BaseGeometry = Footprint.of(Pose(start.position[0], start.position[1], start.facing), arena.turbine).to_shapely()
    return geom


def element_geometry(arena: Arena, el: Element) -> BaseGeometry:
    if isinstance(el, StartPosition):
        return start_footprint(arena, el)
    if isinstance(el, (Gate, StaticTarget)):
        return el.to_shapely()
    return el.shape.to_shapely()


def arena_centre(arena: Arena) -> tuple[float, float]:
    """The symmetry centre if declared, else the centroid of the bounds."""
    if arena.symmetry is not None:
        return arena.symmetry.center
    c = arena.bounds_geometry().centroid
    return (float(c.x), float(c.y))


def fmt(v: float) -> str:
    """Numbers in messages: one decimal, no trailing .0 noise.

    >>> fmt(2.0), fmt(2.25), fmt(3.333)
    ('2', '2.2', '3.3')
    """
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s
