"""Arena Rex deployment edges: "Players alternate deploying miniatures along their board edge, in
base to base contact with the edge. Find the center of your board edge, your cohort may be
deployed up to 6 inches away from the center in either direction."

A player's edge is a side of a rectangle (0 bottom, 1 right, 2 top, 3 left, before rotation) or
polygon (side i from point i to point i+1), or an arc ``[from, to]`` (degrees) of a circle.  Its
centre is the middle of the side or arc unless given.  The zone is the part of the edge within
``reach`` of the centre, measured along the edge (arc length on a circle); a base deploys with
its rim touching the zone, so its centre lies on :meth:`Edge.centre_line` (the zone moved inward
by the base's radius).

>>> from schema.games.gravstrike.model import Circle
>>> e = deployment_edge(Circle((0.0, 0.0), 15.0), None, (225.0, 315.0), None, 6.0)
>>> round(e.zone.length, 2), tuple(round(v, 9) + 0.0 for v in e.centre)
(12.0, (0.0, -15.0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from shapely.geometry import LineString, Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from schema.shapes import Circle, Point, Polygon, Rect

#: Arcs are drawn with a point at least every this many degrees.
ARC_STEP = 1.0
#: How far (inches) the chords of an arc drawn for measuring (:meth:`Edge.fine_centre_line`)
#: may stray from the circle.
FINE = 1e-6


@dataclass(frozen=True)
class Edge:
    """One player's edge: the whole ``edge`` line, its ``centre`` (the given one projected onto
    the edge), ``offset`` (how far the given centre was from the edge's middle, along it) and the
    ``zone`` line.  ``circle`` holds (cx, cy, R) for a circle board."""

    edge: LineString
    centre: Point
    offset: float
    off_edge: float
    zone: LineString
    circle: tuple[float, float, float] | None = None
    #: Unit normal pointing into the board (a side's).
    inward: Point = (0.0, 0.0)
    #: Where the zone runs, exactly: its two ends in degrees on a circle, in inches from the
    #: side's first point on a side.
    span: tuple[float, float] = (0.0, 0.0)

    @property
    def zone_length(self) -> float:
        """The zone's length along the edge, exactly (on a circle the arc's length, not the
        length of the polyline :attr:`zone` draws it with)."""
        if self.circle is not None:
            return math.radians(self.span[1] - self.span[0]) * self.circle[2]
        return self.span[1] - self.span[0]

    def centre_line(self, radius: float) -> BaseGeometry:
        """Where the centre of a base of ``radius`` stands when its rim touches the zone (an
        arc is drawn with a point every :data:`ARC_STEP` degrees)."""
        return _centre_line(self, radius)

    def fine_centre_line(self, radius: float) -> BaseGeometry:
        """:meth:`centre_line` for measuring: on a circle its chords stray at most
        :data:`FINE` inches from the true arc (a side's is exact anyway)."""
        return _centre_line(self, radius, fine=True)

    def centre_length(self, radius: float) -> float:
        """The length of :meth:`centre_line`, exactly (0 when a base does not fit)."""
        if self.circle is None:
            return self.zone_length
        rho = self.circle[2] - radius
        return math.radians(self.span[1] - self.span[0]) * rho if rho > 0 else 0.0

    def centre_at(self, radius: float, u: float) -> Point:
        """The point ``u`` inches along :meth:`centre_line`, exactly on it (on a circle, on the
        circle of radius R - ``radius``)."""
        if self.circle is not None:
            cx, cy, r = self.circle
            rho = r - radius
            a = math.radians(self.span[0]) + (u / rho if rho > 0 else 0.0)
            return (cx + rho * math.cos(a), cy + rho * math.sin(a))
        (x0, y0), (x1, y1) = self.zone.coords[0], self.zone.coords[-1]
        n = self.zone_length
        t = u / n if n > 0 else 0.0
        nx, ny = self.inward
        return (x0 + (x1 - x0) * t + nx * radius, y0 + (y1 - y0) * t + ny * radius)

    def positions(self, radius: float, spacing: float) -> list[Point]:
        """Centres of a base of ``radius`` touching the zone, evenly spaced at most ``spacing``
        apart along :meth:`centre_line` (both ends included), each exactly on it."""
        length = self.centre_length(radius)
        if self.circle is not None and self.circle[2] - radius <= 0:
            return []
        n = max(2, int(math.ceil(length / spacing)) + 1) if length > 0 else 1
        return [self.centre_at(radius, length * i / (n - 1) if n > 1 else 0.0) for i in range(n)]

    @property
    def closed(self) -> bool:
        """Whether the zone is a whole circle (its two ends meet)."""
        return self.circle is not None and self.span[1] - self.span[0] >= 360.0 - 1e-9

    def strip(self, depth: float) -> BaseGeometry:
        """The band ``depth`` deep inside the board along the zone (how the zone is drawn)."""
        inner = self.centre_line(depth / 2.0)
        return inner.buffer(depth / 2.0, cap_style="flat") if not inner.is_empty else inner


def _arc(cx: float, cy: float, r: float, a0: float, a1: float, step: float = ARC_STEP) -> LineString:
    n = max(2, int(math.ceil(abs(a1 - a0) / step)) + 1)
    pts = [(cx + r * math.cos(math.radians(a0 + (a1 - a0) * i / (n - 1))),
            cy + r * math.sin(math.radians(a0 + (a1 - a0) * i / (n - 1)))) for i in range(n)]
    return LineString(pts)


def _side(bounds: Rect | Polygon, side: int) -> tuple[Point, Point]:
    pts = list(bounds.corners()) if isinstance(bounds, Rect) else list(bounds.points)
    if not 0 <= side < len(pts):
        raise ValueError(f"side {side} is not a side of the board (it has {len(pts)}: 0 to {len(pts) - 1})")
    return pts[side], pts[(side + 1) % len(pts)]


@lru_cache(maxsize=256)
def deployment_edge(bounds: Circle | Rect | Polygon, side: int | None, arc: tuple[float, float] | None,
                    centre: Point | None, reach: float) -> Edge:
    """The edge and zone of one deployment (``ValueError`` when the side or arc does not fit the
    board: a side of a circle, an arc of a polygon, a side index out of range, an empty arc)."""
    if isinstance(bounds, Circle):
        if arc is None:
            raise ValueError("a circle board has no sides: give the deployment an arc [from, to] of the rim")
        a0, a1 = float(arc[0]), float(arc[1])
        if not 0 < a1 - a0 <= 360:
            raise ValueError(f"the arc [{a0:g}, {a1:g}] must run counter-clockwise: to > from, at most 360 apart")
        cx, cy = bounds.center
        r = bounds.radius
        mid = (a0 + a1) / 2.0
        if centre is None:
            ac = mid
            off_edge = 0.0
        else:
            ang = math.degrees(math.atan2(centre[1] - cy, centre[0] - cx))
            ac = a0 + (ang - a0) % 360.0
            if ac > a1:  # beyond the arc: the nearer end
                ac = a1 if (ac - a1) < (a0 + 360.0 - ac) else a0
            off_edge = abs(math.hypot(centre[0] - cx, centre[1] - cy) - r)
        half = math.degrees(reach / r)
        z0, z1 = max(a0, ac - half), min(a1, ac + half)
        cpt = (cx + r * math.cos(math.radians(ac)), cy + r * math.sin(math.radians(ac)))
        return Edge(_arc(cx, cy, r, a0, a1), cpt, math.radians(abs(ac - mid)) * r, off_edge,
                    _arc(cx, cy, r, z0, z1), (cx, cy, r), span=(z0, z1))
    if arc is not None or side is None:
        raise ValueError("a rectangle or polygon board deploys on a side: give the deployment a side index")
    p, q = _side(bounds, int(side))
    line = LineString([p, q])
    length = line.length
    if length <= 0:
        raise ValueError(f"side {side} has no length")
    if centre is None:
        t = length / 2.0
        off_edge = 0.0
    else:
        t = float(line.project(ShapelyPoint(centre)))
        c = line.interpolate(t)
        off_edge = math.hypot(centre[0] - c.x, centre[1] - c.y)
    c = line.interpolate(t)
    z0, z1 = max(0.0, t - reach), min(length, t + reach)
    zone = LineString([line.interpolate(z0).coords[0], line.interpolate(z1).coords[0]])
    pts = list(bounds.corners()) if isinstance(bounds, Rect) else list(bounds.points)
    area2 = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1]))
    sign = 1.0 if area2 > 0 else -1.0  # inside is left of a counter-clockwise outline
    inward = (-sign * (q[1] - p[1]) / length, sign * (q[0] - p[0]) / length)
    return Edge(line, (float(c.x), float(c.y)), abs(t - length / 2.0), off_edge, zone, None, inward, (z0, z1))


def _fine_step(rho: float) -> float:
    """Degrees between the points of an arc of radius ``rho`` whose chords stray at most
    :data:`FINE` from it (never coarser than :data:`ARC_STEP`)."""
    if rho <= FINE:
        return ARC_STEP
    return min(ARC_STEP, math.degrees(2.0 * math.acos(1.0 - FINE / rho)))


def _centre_line(e: Edge, radius: float, fine: bool = False) -> BaseGeometry:
    if e.circle is not None:
        cx, cy, r = e.circle
        if radius >= r:
            return LineString()
        a0, a1 = e.span
        return _arc(cx, cy, r - radius, a0, a1, _fine_step(r - radius) if fine else ARC_STEP)
    (x0, y0), (x1, y1) = e.zone.coords[0], e.zone.coords[-1]
    nx, ny = e.inward
    return LineString([(x0 + nx * radius, y0 + ny * radius), (x1 + nx * radius, y1 + ny * radius)])


__all__ = ["ARC_STEP", "FINE", "Edge", "deployment_edge"]
