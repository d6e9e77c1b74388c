"""Arena geometry prepared for the end-of-length checks.

:class:`ArenaGeometry` answers the rules' questions about one footprint exactly, with prepared
shapely geometries.  Contact is decided with a tolerance of :data:`TOLERANCE` lengths so that
a footprint lying flush against a wall does not ram it and one lying flush against a checkpoint
touches it:

* *overlapping* (walls, exclusion fields) = the footprint shrunk by TOLERANCE intersects the shape;
* *leaving the bounds* = the shrunk footprint is not inside the bounds;
* *touching* (acceleration fields, checkpoints, starts, targets) = the footprint grown by
  TOLERANCE intersects the shape.

Circles (walls, checkpoints, fields, exclusion fields) are tested against the true circle, not
the polygon shapely draws for it: a footprint reaching 1e-4 into a circular wall rams it.

>>> from schema.games.gravstrike.model import Arena, Circle, Rect, Wall
>>> g = ArenaGeometry(Arena(name="t", bounds=Rect((0.0, 0.0), (10.0, 10.0)),
...                         walls=(Wall("W", Rect((3.0, 0.0), (1.0, 4.0))),)))
>>> g.ram_feature(Pose(0.0, 0.0, 0.0)), g.ram_feature(Pose(2.2, 0.0, 0.0)), g.ram_feature(Pose(4.6, 0.0, 0.0))
(None, 'W', 'bounds')
>>> round_wall = ArenaGeometry(Arena(name="t", bounds=Rect((0.0, 0.0), (10.0, 10.0)),
...                                  walls=(Wall("C", Circle((0.0, 0.0), 1.0)),)))
>>> round_wall.ram_feature(Pose(1.4999, 0.0, 0.0)), round_wall.ram_feature(Pose(1.5001, 0.0, 0.0))
('C', None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Container, Sequence

import math

import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.motion import Footprint, Pose
from schema.games.gravstrike.model import AreaShape, Arena, Circle, Rect, Turbine

#: Contact tolerance in lengths (see the module docstring).
TOLERANCE = 1e-7
#: How far (lengths) beyond a footprint's reach a shape must be for the checks to answer without
#: the exact test (far more than rounding, far less than the arena: most footprints are clear).
NEAR_MARGIN = 0.05


def shape_centre(shape: AreaShape) -> tuple[float, float]:
    """The centre of a checkpoint-like shape (circle/rect centre, polygon centroid)."""
    if isinstance(shape, (Circle, Rect)):
        return (float(shape.center[0]), float(shape.center[1]))
    c = shape.to_shapely().centroid
    return (float(c.x), float(c.y))


#: A circle as (centre x, centre y, radius): tested exactly, not as shapely's polygon.
CircleSpec = tuple[float, float, float]


def circle_of(shape: object) -> CircleSpec | None:
    """The exact circle of a :class:`schema.games.gravstrike.model.Circle` shape, else None."""
    if isinstance(shape, Circle):
        return (float(shape.center[0]), float(shape.center[1]), float(shape.radius))
    return None


def rect_distance(pose: Pose, half_length: float, half_width: float, x: float, y: float) -> float:
    """Distance from the point (x, y) to the rectangle 2*half_length x 2*half_width centred on
    ``pose`` (0 inside it).

    >>> rect_distance(Pose(0.0, 0.0, 90.0), 0.5, 0.25, 0.0, 1.5)
    1.0
    """
    h = math.radians(pose.heading)
    dx, dy = x - pose.x, y - pose.y
    lx = abs(dx * math.cos(h) + dy * math.sin(h)) - half_length
    ly = abs(-dx * math.sin(h) + dy * math.cos(h)) - half_width
    return math.hypot(max(lx, 0.0), max(ly, 0.0))


@dataclass(frozen=True)
class Zone:
    """A named area and what touching it means to the rules; ``circle`` is set for circles
    (tested exactly)."""

    kind: str  # "field" | "exclusion" | "checkpoint" | "start" | "target"
    id: str
    geometry: BaseGeometry
    direction: float = 0.0
    active_from_tier: int = 1
    circle: CircleSpec | None = None


def _prepared(g: BaseGeometry) -> BaseGeometry:
    shapely.prepare(g)
    return g


class ArenaGeometry:
    """Prepared geometry of one arena for the reference turbine (exact footprint tests)."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.turbine: Turbine = arena.turbine
        self._footprints: dict[tuple[Pose, float], Any] = {}
        self.bounds: BaseGeometry = _prepared(arena.bounds_geometry())
        self.walls: tuple[tuple[str, BaseGeometry], ...] = tuple(
            (w.id, _prepared(w.shape.to_shapely())) for w in arena.walls
        )
        #: The exact circle of each wall that is one (by wall id).
        self.wall_circles: dict[str, CircleSpec] = {
            w.id: c for w in arena.walls if (c := circle_of(w.shape)) is not None}
        self.fields: tuple[Zone, ...] = tuple(
            Zone("field", f.id, _prepared(f.shape.to_shapely()), direction=float(f.direction), circle=circle_of(f.shape))
            for f in arena.acceleration_fields
        )
        self.exclusions: tuple[Zone, ...] = tuple(
            Zone("exclusion", e.id, _prepared(e.shape.to_shapely()), active_from_tier=e.active_from_tier,
                 circle=circle_of(e.shape))
            for e in arena.exclusion_fields
        )
        self.checkpoints: tuple[Zone, ...] = tuple(
            Zone("checkpoint", c.id, _prepared(c.shape.to_shapely()), circle=circle_of(c.shape)) for c in arena.checkpoints
        )
        self.starts: tuple[Zone, ...] = tuple(
            Zone("start", s.id, _prepared(Footprint.of(Pose(s.position[0], s.position[1], s.facing), self.turbine).to_shapely()))
            for s in arena.start_positions
        )
        self.targets: tuple[Zone, ...] = tuple(
            Zone("target", t.id, _prepared(ShapelyPoint(t.position))) for t in arena.static_targets
        )
        self.gates: tuple[tuple[str, tuple[float, float], tuple[float, float], bool], ...] = tuple(
            (g.id, (float(g.start[0]), float(g.start[1])), (float(g.end[0]), float(g.end[1])), g.one_way) for g in arena.gates
        )
        # Quick answers for footprints far from a shape (the exact tests run only near one): no
        # point of a footprint grown by ``grow`` lies further than hypot(hl + grow, hw + grow)
        # from its centre, so a centre further than that (and a margin far larger than rounding)
        # from a shape's box can't meet it, and one that far inside the bounds stays inside.
        t = self.turbine
        self._reach = math.hypot(t.length / 2.0, t.width / 2.0) + TOLERANCE + NEAR_MARGIN
        self._boxes: dict[int, tuple[float, float, float, float]] = {}
        for g in [g for _, g in self.walls] + [z.geometry for z in (*self.fields, *self.exclusions, *self.checkpoints,
                                                                   *self.starts, *self.targets)]:
            if not g.is_empty:
                x0, y0, x1, y1 = (float(v) for v in g.bounds)
                self._boxes[id(g)] = (x0, y0, x1, y1)
        # the bounds less a band a little wider than the reach (the band's rounded corners are
        # drawn as chords inside the true arcs, well within the margin)
        inner = self.bounds.buffer(-(self._reach + NEAR_MARGIN))
        self._inner: BaseGeometry | None = None if inner.is_empty else _prepared(inner)

    # -- footprints --------------------------------------------------------------------------
    def footprint(self, pose: Pose, grow: float = 0.0) -> BaseGeometry:
        """The footprint polygon (each side pushed out by ``grow``); recent ones are cached."""
        key = (pose, grow)
        fp = self._footprints.get(key)
        if fp is None:
            if len(self._footprints) > 4096:
                self._footprints.clear()
            fp = Footprint.of(pose, self.turbine).to_shapely(grow)
            self._footprints[key] = fp
        return fp

    # -- the checks ----------------------------------------------------------------------------
    def _far(self, pose: Pose, shape: BaseGeometry) -> bool:
        """Is the footprint's centre too far from ``shape``'s box for any footprint (grown by up
        to TOLERANCE) to meet it?  (Then the exact test would say no.)"""
        box = self._boxes.get(id(shape))
        if box is None:
            return False
        r = self._reach
        return pose.x + r < box[0] or pose.x - r > box[2] or pose.y + r < box[1] or pose.y - r > box[3]

    def _meets_circle(self, pose: Pose, grow: float, circle: CircleSpec) -> bool:
        """Does the footprint (each side pushed out by ``grow``) meet the closed disc?"""
        cx, cy, r = circle
        if math.hypot(cx - pose.x, cy - pose.y) > r + self._reach:  # far off: rect_distance > r
            return False
        t = self.turbine
        return rect_distance(pose, t.length / 2.0 + grow, t.width / 2.0 + grow, cx, cy) <= r

    def ram_feature(self, pose: Pose) -> str | None:
        """The wall id the footprint overlaps, ``"bounds"`` if it leaves the arena, else None."""
        if self._inner is None or not shapely.contains_xy(self._inner, pose.x, pose.y):
            fp = self.footprint(pose, -TOLERANCE)
            if not self.bounds.contains(fp):
                return "bounds"
        return self.ram_wall(pose)

    def ram_wall(self, pose: Pose, walls: Container[str] | None = None) -> str | None:
        """The wall id (of ``walls``, by default any) the footprint overlaps, else None: what
        :meth:`ram_feature` tests, less the bounds."""
        fp: BaseGeometry | None = None
        for wid, g in self.walls:
            if walls is not None and wid not in walls:
                continue
            circle = self.wall_circles.get(wid)
            if circle is not None:
                if self._meets_circle(pose, -TOLERANCE, circle):
                    return wid
                continue
            if self._far(pose, g):
                continue
            if fp is None:
                fp = self.footprint(pose, -TOLERANCE)
            if g.intersects(fp):
                return wid
        return None

    def _meets(self, zone: Zone, pose: Pose, grow: float) -> bool:
        if zone.circle is not None:
            return self._meets_circle(pose, grow, zone.circle)
        if self._far(pose, zone.geometry):
            return False
        return bool(zone.geometry.intersects(self.footprint(pose, grow)))

    def touching(self, zones: Sequence[Zone], pose: Pose) -> list[Zone]:
        """The zones the footprint touches."""
        return [z for z in zones if self._meets(z, pose, TOLERANCE)]

    def overlapping(self, zones: Sequence[Zone], pose: Pose) -> list[Zone]:
        """The zones the footprint overlaps (more than touching)."""
        return [z for z in zones if self._meets(z, pose, -TOLERANCE)]

    def corners_inside(self, zone: Zone, pose: Pose) -> int:
        """How many footprint corners lie strictly inside ``zone``."""
        corners = Footprint.of(pose, self.turbine).corners
        if zone.circle is not None:
            cx, cy, r = zone.circle
            return sum(1 for x, y in corners if math.hypot(x - cx, y - cy) < r)
        xs = [c[0] for c in corners]
        ys = [c[1] for c in corners]
        return int(shapely.contains_xy(zone.geometry, xs, ys).sum())

    def active_exclusions(self, tier: int) -> list[Zone]:
        return [z for z in self.exclusions if tier >= z.active_from_tier]

    def crossed_gates(self, path: Sequence[tuple[float, float]]) -> list[str]:
        """Gates the centre's ``path`` crosses (one-way gates only right-to-left)."""
        out: list[str] = []
        for gid, a, b, one_way in self.gates:
            if path_crosses(path, a, b, one_way):
                out.append(gid)
        return out


def _orient(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def path_crosses(path: Sequence[tuple[float, float]], a: tuple[float, float], b: tuple[float, float], one_way: bool) -> bool:
    """Does the polyline ``path`` cross the segment a-b (from its right to its left if ``one_way``)?

    Points exactly on the gate's line count as on its left, so a path that ends a length on the
    line has crossed it once, and the next length, starting on the line, crosses it again only
    by going back to the right side.  The crossing point must lie on the gate (its ends
    included); a path running along the line does not cross it.

    >>> path_crosses([(0, -1), (0, 1)], (-1, 0), (1, 0), one_way=True)
    True
    >>> path_crosses([(0, 1), (0, -1)], (-1, 0), (1, 0), one_way=True)
    False
    >>> path_crosses([(0, -1), (0, 0)], (-1, 0), (1, 0), False), path_crosses([(0, 0), (0, 1)], (-1, 0), (1, 0), False)
    (True, False)
    """
    ax, ay = a
    bx, by = b
    for (px, py), (qx, qy) in zip(path, path[1:]):
        left_p = _orient(ax, ay, bx, by, px, py) >= 0
        left_q = _orient(ax, ay, bx, by, qx, qy) >= 0
        if left_p == left_q or (one_way and left_p):
            continue
        d3 = _orient(px, py, qx, qy, ax, ay)
        d4 = _orient(px, py, qx, qy, bx, by)
        if (d3 > 0 and d4 > 0) or (d3 < 0 and d4 < 0):
            continue
        return True
    return False
