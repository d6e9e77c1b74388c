"""Arena Rex deployment zones in symmetry mode (Qt-free; :func:`editor.symmetry.propagate`).

A zone has no place of its own: it is a player's board edge, an arc of a circle or a side of a
rectangle or polygon, and its centre (:mod:`schema.games.arenarex.edges`).  Its image under one
of the symmetry's operations is the edge the operation carries it onto:

* on a circle, the arc's angles about the board's centre turned by the rotation, or reflected
  across the mirror's axis (``φ -> 2·axis − φ``, so the arc's ends swap), its span kept;
* on a rectangle or polygon, the side whose ends are the images of the side's ends;

and a given centre is carried along.  So turning one zone round the circle (a canvas drag, or
its arc typed in the inspector) turns its image zones the same way, in the same undo step, as a
pit's images follow the pit.

>>> from schema.games.arenarex import Deployment
>>> from schema.games.gravstrike.model import Circle
>>> from editor.arrange import reflection, rotation
>>> board = Circle((0.0, 0.0), 15.0)
>>> zone_image(board, Deployment(1, arc=(235.0, 325.0)), rotation(180.0, (0.0, 0.0))).arc
(55.0, 145.0)
>>> zone_image(board, Deployment(1, arc=(235.0, 325.0)), reflection(0.0, (0.0, 0.0))).arc
(35.0, 125.0)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from editor.arrange import Affine
from editor.games.symmetry_rules import Rules
from schema.shapes import Circle, Rect

#: Points (in) and angles (degrees) closer than these are the same.
TOL = 0.05
ANGLE_TOL = 0.5


def _corners(bounds: Any) -> list[tuple[float, float]]:
    return list(bounds.corners()) if isinstance(bounds, Rect) else list(bounds.points)


def zone_image(bounds: Any, d: Any, op: Affine) -> Any:
    """The deployment ``d`` (same player) on the edge ``op`` carries its edge onto, or None
    when ``op`` carries it off the board's edges."""
    centre = op.point(d.center) if d.center is not None else None
    if isinstance(bounds, Circle):
        if d.arc is None:
            return None
        span = d.arc[1] - d.arc[0]
        start = round(op.direction(d.arc[1] if op.mirror else d.arc[0]) % 360.0, 4)
        return dataclasses.replace(d, side=None, arc=(start, round(start + span, 4)), center=centre)
    if d.side is None:
        return None
    pts = _corners(bounds)
    if not 0 <= d.side < len(pts):
        return None
    ends = [op.point(pts[d.side]), op.point(pts[(d.side + 1) % len(pts)])]
    for j in range(len(pts)):
        side = [pts[j], pts[(j + 1) % len(pts)]]
        if all(min(math.dist(e, s) for s in side) <= TOL for e in ends):
            return dataclasses.replace(d, side=j, arc=None, center=centre)
    return None


def same_zone(a: Any, b: Any) -> bool:
    """The same edge (an arc's ends equal up to whole turns) and the same given centre."""
    if a.side != b.side or (a.arc is None) != (b.arc is None):
        return False
    if a.arc is not None:
        da = abs((a.arc[0] - b.arc[0] + 180.0) % 360.0 - 180.0)
        if da > ANGLE_TOL or abs((a.arc[1] - a.arc[0]) - (b.arc[1] - b.arc[0])) > ANGLE_TOL:
            return False
    if (a.center is None) != (b.center is None):
        return False
    return a.center is None or math.dist(a.center, b.center) <= TOL


class RexRules(Rules):
    """Arena Rex's rule: a deployment zone has no place of its own; its image is the edge its
    edge is carried onto (:func:`zone_image`), the same player's until named (a new zone's
    image gets the next free player, :meth:`Rules.name_image`)."""

    def unplaced_image(self, arena: Any, el: Any, op: Affine) -> Any:
        return zone_image(arena.bounds, el, op)

    def same_unplaced(self, a: Any, b: Any) -> bool:
        return type(a) is type(b) and same_zone(a, b)


#: Declared by the Arena Rex ruleset (:attr:`schema.ruleset.Ruleset.symmetry`).
RULES = RexRules()
