"""A circle board edited as a circle on the canvas (Qt-free): what the edit-vertices tool (E)
does with a circle board when nothing is selected (:mod:`editor.vertex_tool`).

* the square handle on the rim, east of the centre, sets the **radius** (pressing anywhere on
  the rim does the same): the radius is the cursor's distance from the centre, in whole snap
  steps while grid snapping is on, exactly the distance to another element's vertex or edge when
  the cursor snaps to one, free with Ctrl held; it never goes below one snap step (snapping
  off: :data:`MIN_RADIUS`);
* the round handle at the centre **moves** the board (the centre snaps like any point).

The arena changes live while the mouse moves (the board, the findings, an Arena Rex arena's
deployment zones, which keep their arcs' degrees), and the status bar reads the radius; the
whole drag is one undo step (:class:`editor.edit_commands.SetBounds` steps with one drag
number merge).

>>> c = Circle((0.0, 0.0), 15.0)
>>> dragged(c, "radius", (9.8, 0.1), 0.5, False)
Circle(center=(0.0, 0.0), radius=10.0, type='circle')
>>> dragged(c, "radius", (0.1, 0.0), 0.5, False).radius
0.5
>>> dragged(c, "centre", (1.0, -2.0), 0.5, False)
Circle(center=(1.0, -2.0), radius=15.0, type='circle')
>>> readout(Circle((0.0, 0.0), 10.0), "radius", "in")
'Board radius 10.00 in (diameter 20.00 in)'
"""

from __future__ import annotations

import dataclasses
import math

from schema.shapes import Circle, Point

#: The smallest radius a drag gives with snapping off (the arena's unit).
MIN_RADIUS = 0.1
#: The handles' kinds: the radius (a square on the rim) and the centre (a round one).
RADIUS, CENTRE = "radius", "centre"


def _clean(v: float) -> float:
    r = round(v, 9)
    return 0.0 if r == 0 else r


def radius_handle(c: Circle) -> Point:
    """Where the radius handle sits: on the rim, east of the centre."""
    return (c.center[0] + c.radius, c.center[1])


def on_rim(c: Circle, p: Point, tol: float) -> bool:
    """Whether ``p`` is within ``tol`` of the rim."""
    return abs(math.dist(c.center, p) - c.radius) <= tol


def dragged(c: Circle, kind: str, p: Point, step: float | None, onto: bool) -> Circle:
    """``c`` with its radius (``kind`` :data:`RADIUS`) or centre (:data:`CENTRE`) dragged to
    ``p``.  ``step``: the grid snapping step (None: no snapping); ``onto``: ``p`` is another
    element's vertex or edge the cursor snapped to (the radius reaches it exactly)."""
    if kind == CENTRE:
        return dataclasses.replace(c, center=(_clean(p[0]), _clean(p[1])))
    r = math.dist(c.center, p)
    grid = bool(step) and not onto
    if grid:
        assert step is not None
        r = round(r / step) * step
    floor = step if grid and step is not None else MIN_RADIUS
    return dataclasses.replace(c, radius=_clean(max(r, floor)))


def readout(c: Circle, kind: str, unit: str) -> str:
    """The status bar's reading while a handle is dragged."""
    if kind == CENTRE:
        return f"Board centre ({c.center[0]:.2f}, {c.center[1]:.2f}) {unit}, radius {c.radius:.2f} {unit}"
    return f"Board radius {c.radius:.2f} {unit} (diameter {2 * c.radius:.2f} {unit})"
