"""Arena Rex deployment edges in the editor: they follow the board when its shape changes.

A player's edge is an arc of a circle board or a side of a rectangle or polygon
(:mod:`schema.games.arenarex.edges`).  When the Arena tab turns a circle into a square (or back)
or gives a polygon fewer sides, each deployment that no longer fits becomes the edge facing the
same way from the board's centre: the side whose middle is nearest that direction, or the
:data:`ARC` degrees of rim centred on it; its centre goes back to the middle of the new edge.
When a circle board is resized or moved (the Arena tab, or its radius and centre handles on the
canvas), each arc keeps its degrees, so its zone stays on the rim, the same part of it.
That happens in the same undo step as the board change (:class:`SetBoard`).

Dragging a deployment on the canvas moves it along the board edge (:func:`dragged`): an arc turns
round the circle, a zone on a rectangle or polygon goes to the side it is dropped nearest (or
slides its centre along its own side).

>>> from schema.games.arenarex import Deployment
>>> from schema.games.gravstrike.model import Circle, Rect
>>> follow_board((Deployment(1, arc=(225.0, 315.0)),), Circle((0.0, 0.0), 15.0), Rect((0.0, 0.0), (24.0, 24.0)))
(Deployment(player=1, side=0, arc=None, center=None, favor=None, extensions={}),)
>>> follow_board((Deployment(2, side=2),), Rect((0.0, 0.0), (24.0, 24.0)), Circle((0.0, 0.0), 15.0))[0].arc
(45.0, 135.0)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from editor import edit_commands as EC
from editor.games.model import ElementModel
from schema.games.arenarex.edges import deployment_edge
from schema.shapes import Circle, Point, Rect
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

#: Degrees of rim a deployment gets when its board becomes a circle.
ARC = 90.0


def _centre(bounds: Any) -> Point:
    c = bounds.to_shapely().centroid
    return (float(c.x), float(c.y))


def _corners(bounds: Any) -> list[Point]:
    return list(bounds.corners()) if isinstance(bounds, Rect) else list(bounds.points)


def facing(d: Any, bounds: Any) -> float:
    """The direction (degrees from +x) from the board's centre to the middle of ``d``'s edge."""
    try:
        edge = deployment_edge(bounds, d.side, d.arc, None, 6.0)
        x, y = edge.centre
    except ValueError:
        if d.arc is not None:
            middle: float = (d.arc[0] + d.arc[1]) / 2.0
            return middle
        x, y = d.center if d.center is not None else _centre(bounds)
    cx, cy = _centre(bounds)
    return math.degrees(math.atan2(y - cy, x - cx))


def _diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def edge_facing(angle: float, bounds: Any) -> dict[str, Any]:
    """The ``side`` or ``arc`` of ``bounds`` facing ``angle`` (degrees) from its centre."""
    if isinstance(bounds, Circle):
        a0 = round((angle - ARC / 2.0) % 360.0, 4)
        return {"side": None, "arc": (a0, a0 + ARC)}
    pts = _corners(bounds)
    cx, cy = _centre(bounds)
    mids = [((p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0) for p, q in zip(pts, pts[1:] + pts[:1])]
    best = min(range(len(mids)), key=lambda i: _diff(math.degrees(math.atan2(mids[i][1] - cy, mids[i][0] - cx)),
                                                     angle))
    return {"side": best, "arc": None}


def fits(d: Any, bounds: Any) -> bool:
    try:
        deployment_edge(bounds, d.side, d.arc, None, 6.0)
    except ValueError:
        return False
    return True


def dragged(arena: Any, player: int, dx: float, dy: float) -> dict[str, Any]:
    """Player ``player``'s deployment fields after its zone is dragged by (dx, dy): on a circle
    the arc turns round the board's centre by the angle the zone's centre moved through (a given
    centre turns with it); on a rectangle or polygon the zone goes to the side nearest where its
    centre was dropped, or, on the same side, its centre slides to the nearest point of it."""
    d = next(d for d in arena.deployment if d.player == player)
    edge = arena.edge(d)
    x, y = edge.centre[0] + dx, edge.centre[1] + dy
    b = arena.bounds
    if isinstance(b, Circle):
        cx, cy = b.center
        turn = math.degrees(math.atan2(y - cy, x - cx) - math.atan2(edge.centre[1] - cy, edge.centre[0] - cx))
        turn = round((turn + 180.0) % 360.0 - 180.0, 2)
        assert d.arc is not None
        a0 = round((d.arc[0] + turn) % 360.0, 2)
        centre = None
        if d.center is not None:
            t = math.radians(turn)
            px, py = d.center[0] - cx, d.center[1] - cy
            centre = (round(cx + px * math.cos(t) - py * math.sin(t), 4), round(cy + px * math.sin(t) + py * math.cos(t), 4))
        return {"side": None, "arc": (a0, round(a0 + d.arc[1] - d.arc[0], 2)), "center": centre}
    pts = _corners(b)
    sides = [LineString([p, q]) for p, q in zip(pts, pts[1:] + pts[:1])]
    dropped = ShapelyPoint(x, y)
    side = min(range(len(sides)), key=lambda i: sides[i].distance(dropped))
    if side != d.side:
        return {"side": side, "arc": None, "center": None}
    q = sides[side].interpolate(sides[side].project(dropped))
    return {"side": side, "arc": None, "center": (round(float(q.x), 4), round(float(q.y), 4))}


def on_circle(d: Any, old: Circle, new: Circle) -> Any:
    """``d`` on the circle ``new`` instead of ``old``: its arc is in degrees about the centre,
    so it keeps it; a given centre keeps its direction from the board's centre and its place
    relative to the rim (moved with the centre, scaled with the radius)."""
    if d.center is None or old == new:
        return d
    k = new.radius / old.radius
    x, y = d.center[0] - old.center[0], d.center[1] - old.center[1]
    return dataclasses.replace(d, center=(round(new.center[0] + x * k, 4), round(new.center[1] + y * k, 4)))


def follow_board(deployment: tuple[Any, ...], old: Any, new: Any) -> tuple[Any, ...]:
    """``deployment`` on the board ``new`` instead of ``old``: on a circle resized or moved
    (:func:`on_circle`) each keeps its arc; otherwise those that no longer fit face the way they
    faced (see the module's docstring), the rest unchanged."""
    if isinstance(old, Circle) and isinstance(new, Circle):
        return tuple(on_circle(d, old, new) for d in deployment)
    return tuple(d if fits(d, new) else dataclasses.replace(d, center=None, **edge_facing(facing(d, old), new))
                 for d in deployment)


class SetBoard(EC.SetBounds):
    """Edit an Arena Rex board: its outline and, where they no longer fit, the deployment edges
    (one undo step, *Edit arena bounds*)."""

    def apply(self, arena: Any) -> Any:
        return dataclasses.replace(arena, bounds=self.bounds,
                                   deployment=follow_board(arena.deployment, arena.bounds, self.bounds))


class ArenaRexElements(ElementModel):
    """Arena Rex's elements: the generic model, and a deployment zone's centre completed from
    its edge when the inspector sets one of its coordinates (the file may leave the centre out:
    the zone then sits at the middle of its edge)."""

    def complete(self, arena: Any, ref: str, item: dict[str, Any], path: Sequence[str | int]) -> None:
        el = next((z for z in arena.deployment if z.id == ref), None)
        if el is not None and path[0] == "center" and len(path) > 1 and "center" not in item:
            try:
                item["center"] = [round(v, 4) for v in arena.edge(el).centre]
            except ValueError:  # an edge that does not fit the board: the board's centre
                item["center"] = list(arena.centre())


#: Arena Rex's element model (:meth:`editor.game.EditorGame.elements`).
ELEMENTS = ArenaRexElements()
