"""A Car Wars arena prepared for movement: what a car collides with, what adds dice to its
driving rolls, and fast batch versions of those questions for the travel search.

Collision ("The moment a car touches a heavy obstacle or wall, a collision has occurred"): the
base's outline (rounded nose and rear included) sweeping over the open interior of a wall, a
heavy obstacle or token, a hazard that cannot be driven over, or the outside of the bounds
("The outside edges of the arena are walls").  Lying flush against one is not a collision: the
blockers are shrunk by :data:`TOLERANCE`.  Drive-thru and light obstacles never collide ("it is
*not a collision* - the car pushes through").

Driving-roll dice at the end of a point: the highest terrain level and every hazard the car's
rectangle overlaps (with positive area).

>>> from schema.games.carwars import CarWarsArena, Wall
>>> from schema.games.gravstrike.model import Rect
>>> from engine.carwars.rules import Maneuver
>>> a = CarWarsArena(name="t", bounds=Rect((0.0, 0.0), (36.0, 36.0)), walls=(Wall("W", Rect((0.0, 6.0), (10.0, 1.0))),))
>>> g = CarWarsGeometry(a)
>>> r = g.drive_point(Pose(0.0, 1.0, 90.0), Maneuver("straight"))
>>> r.collided, round(r.pose.y, 4)          # the nose (1.75 ahead) touches the wall at y = 5.5
(('W',), 3.75)
>>> g.drive_point(Pose(0.0, -10.0, 90.0), Maneuver("straight")).collided
()
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from engine import budget as caps
from engine.carwars import kernels
from engine.carwars.motion import FloatArray, Pose, compose, local_pose, rectangle, sweep
from engine.carwars.rules import Maneuver
from schema.games.carwars import CarWarsArena

#: Contact tolerance in inches: overlaps shallower than this are touching, not colliding.
TOLERANCE = 1e-6
#: Spacing (inches) of the discs that cover a swept area for the fast clearance test.
COVER_STEP = 0.6
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]


def blocking_elements(arena: CarWarsArena) -> list[tuple[str, BaseGeometry]]:
    """(id, geometry) of everything a car collides with, the outside of the bounds as ``bounds``."""
    out: list[tuple[str, BaseGeometry]] = [(w.id, w.shape.to_shapely()) for w in arena.walls]
    out += [(o.id, o.shape.to_shapely()) for o in arena.obstacles if o.weight in ("heavy", "wall")]
    out += [(t.id, t.shape.to_shapely()) for t in arena.tokens if t.weight in ("heavy", "wall")]
    out += [(h.id, h.shape.to_shapely()) for h in arena.hazards if not h.drive_over]
    b = arena.bounds_geometry()
    minx, miny, maxx, maxy = b.bounds
    frame = box(minx - 1000.0, miny - 1000.0, maxx + 1000.0, maxy + 1000.0)
    out.append(("bounds", shapely.difference(frame, b)))
    return out


@dataclass(frozen=True)
class PointResult:
    """One movement point driven: where the car ends, what it collided with (empty when
    nothing) and the fraction of the point it completed ("Any remaining distance ... is lost")."""

    pose: Pose
    collided: tuple[str, ...]
    fraction: float


@dataclass(frozen=True)
class _Cover:
    """Discs covering a swept area (car frame): centres, radii, and which centres lie inside it."""

    cx: FloatArray
    cy: FloatArray
    r: float
    inside: BoolArray


#: Grid nodes whose distance to the blockers is measured at once (:func:`distance_to_lines`).
DISTANCE_BLOCK = 32_768
#: Segments of the blockers' outline past which :func:`distance_to_lines` looks through a tree
#: (below it, measuring against the whole outline is quicker).
TREE_SEGMENTS = 4096


def distance_to_lines(points: npt.NDArray[np.object_], lines: BaseGeometry) -> FloatArray:
    """``shapely.distance(points, lines)`` (the same numbers: each the least point-to-segment
    distance) in blocks, the analysis's caps checked between them (:mod:`engine.budget`); past
    :data:`TREE_SEGMENTS` segments the nearest is found through a tree of them (thousands of
    walls made the plain form minutes long)."""
    coords, owner = shapely.get_coordinates(shapely.get_parts(lines), return_index=True)
    same = owner[1:] == owner[:-1]
    out = np.full(len(points), np.inf)
    tree = None
    if int(same.sum()) > TREE_SEGMENTS:
        tree = shapely.STRtree(shapely.linestrings(np.stack([coords[:-1][same], coords[1:][same]], axis=1)))
    for start in range(0, len(points), DISTANCE_BLOCK):
        caps.tick(search=True)  # travel work (the planner's geometry)
        block = points[start:start + DISTANCE_BLOCK]
        if tree is None:
            out[start:start + len(block)] = shapely.distance(block, lines)
        else:
            (which, _), dist = tree.query_nearest(block, return_distance=True)
            np.minimum.at(out, which + start, dist)
    return out


class CarWarsGeometry:
    """Prepared geometry of one arena (see the module docstring)."""

    def __init__(self, arena: CarWarsArena, grid: float = 0.25) -> None:
        self.arena = arena
        self.vehicle = arena.vehicle
        self.key = arena.turning_key
        self.bounds = arena.bounds_geometry()
        self.blockers = blocking_elements(arena)
        self.blocking = shapely.union_all([g for _, g in self.blockers])
        core = self.blocking.buffer(-TOLERANCE, join_style="mitre")
        self.core = core
        shapely.prepare(self.core)
        for _, g in self.blockers:
            shapely.prepare(g)
        self.terrain = [(t.id, t.shape.to_shapely(), t.level) for t in arena.terrain if t.level > 0]
        self.hazards = [(h.id, h.shape.to_shapely(), h.dice) for h in arena.hazards if h.drive_over and h.dice > 0]
        self.hazards += [(c.id, c.shape.to_shapely(), c.dice) for c in arena.cards if c.role == "hidden-hazard" and c.dice > 0]
        for _, g, _ in (*self.terrain, *self.hazards):
            shapely.prepare(g)
        self._clearance(grid)
        reach = math.hypot(self.vehicle.length / 2.0, self.vehicle.width / 2.0)
        self._terrain_class = [self._classify(g, reach) for _, g, _ in self.terrain]
        self._hazard_class = [self._classify(g, reach) for _, g, _ in self.hazards]
        self._covers: dict[tuple[Maneuver, bool, float], _Cover] = {}
        self._templates: dict[tuple[Maneuver, bool, float], FloatArray | None] = {}
        self._padded: dict[object, tuple[FloatArray, FloatArray, BoolArray, FloatArray]] = {}
        #: :meth:`untouchable`'s answers by goal corners (every search of an edit asks the same).
        self._untouchable: dict[bytes, bool] = {}

    # -- clearance field ---------------------------------------------------------------------
    def _clearance(self, grid: float) -> None:
        minx, miny, maxx, maxy = self.bounds.bounds
        self.grid = grid
        self.gx0, self.gy0 = minx - 1.0, miny - 1.0
        nx = int(math.ceil((maxx + 1.0 - self.gx0) / grid)) + 1
        ny = int(math.ceil((maxy + 1.0 - self.gy0) / grid)) + 1
        xs = self.gx0 + grid * np.arange(nx)
        ys = self.gy0 + grid * np.arange(ny)
        X, Y = np.meshgrid(xs, ys, indexing="ij")
        self.node_x, self.node_y = X.ravel(), Y.ravel()
        self._node_points = shapely.points(self.node_x, self.node_y)
        d = distance_to_lines(self._node_points, self.blocking.boundary)
        inside = shapely.contains_xy(self.blocking, self.node_x, self.node_y)
        self.field = np.where(inside, -d, d).reshape(nx, ny)
        self.field_err = grid / math.sqrt(2.0) + 1e-9
        self._low = np.pad(self.field - self.field_err, 1, constant_values=-np.inf).ravel()
        self._high = np.pad(self.field + self.field_err, 1, constant_values=np.inf).ravel()

    def _index(self, x: FloatArray, y: FloatArray) -> IntArray:
        """Index into the padded field (the border cell stands for everything off the grid)."""
        nx, ny = self.field.shape
        i = np.clip(np.rint((x - self.gx0) / self.grid), -1, nx).astype(np.int64) + 1
        j = np.clip(np.rint((y - self.gy0) / self.grid), -1, ny).astype(np.int64) + 1
        out: IntArray = i * (ny + 2) + j
        return out

    def clearance(self, x: FloatArray, y: FloatArray) -> FloatArray:
        """A lower bound on the signed distance from each point to the blockers (negative
        inside); ``-inf`` off the grid."""
        out: FloatArray = self._low.take(self._index(x, y))
        return out

    def _upper(self, x: FloatArray, y: FloatArray) -> FloatArray:
        out: FloatArray = self._high.take(self._index(x, y))
        return out

    # -- exact, one at a time -----------------------------------------------------------------
    def swept(self, pose: Pose, m: Maneuver, reverse: bool = False, u0: float = 0.0, u1: float = 1.0) -> BaseGeometry:
        """The world area the base covers during ``u0..u1`` of the point."""
        g = sweep(m, self.vehicle, self.key, u0, u1, reverse)
        a = math.radians(pose.heading)
        c, s = math.cos(a), math.sin(a)
        return shapely.transform(g, lambda xy: np.column_stack(
            [pose.x + xy[:, 0] * c - xy[:, 1] * s, pose.y + xy[:, 0] * s + xy[:, 1] * c]))

    def collides(self, pose: Pose, m: Maneuver, reverse: bool = False, u1: float = 1.0) -> bool:
        return bool(self.core.intersects(self.swept(pose, m, reverse, 0.0, u1)))

    def untouchable(self, corners: npt.NDArray[np.float64]) -> bool:
        """Proven: no car can touch the goal with these corners (a point: four equal rows) without a
        collision.  A car's rectangle never reaches further into a blocker than the collision
        tolerance (touching one is a collision), so it stays inside the bounds minus the
        blockers' ``core``; a goal with no area there (a point not inside it) is out of reach -
        a card beyond the arena's edge or under a wall."""
        free = getattr(self, "_free", None)
        if free is None:
            free = self._free = shapely.difference(self.bounds.buffer(TOLERANCE, join_style="mitre"), self.core)
            shapely.prepare(free)
        key = np.ascontiguousarray(corners, dtype=np.float64).tobytes()
        got = self._untouchable.get(key)
        if got is None:
            if len(self._untouchable) >= 1024:
                self._untouchable.clear()
            if shapely.Polygon(corners).area <= 1e-12:  # a point goal (the centre)
                got = not free.contains(shapely.Point(*corners[0]))
            else:
                got = bool(free.intersection(shapely.Polygon(corners)).area <= 1e-9)
            self._untouchable[key] = got
        return got

    def overlaps_blockers(self, geom: BaseGeometry) -> list[str]:
        """Ids of the blockers ``geom`` overlaps (touching excluded)."""
        inner = geom.buffer(-TOLERANCE, join_style="mitre") if geom.area > 0 else geom
        return [i for i, g in self.blockers if g.intersects(inner)]

    def drive_point(self, pose: Pose, m: Maneuver, reverse: bool = False) -> PointResult:
        """Drive one movement point with collisions checked continuously along the way: the car
        stops the moment it touches a blocker ("the car must stop moving. Any remaining distance
        ... for that particular movement point is lost")."""
        if not self.collides(pose, m, reverse):
            return PointResult(compose(pose, local_pose(m, 1.0, self.vehicle, self.key), reverse), (), 1.0)
        lo, hi = 0.0, 1.0
        if self.collides(pose, m, reverse, 1e-12):
            hi = 0.0
        else:
            for _ in range(50):
                mid = (lo + hi) / 2.0
                if self.collides(pose, m, reverse, mid):
                    hi = mid
                else:
                    lo = mid
        stop = compose(pose, local_pose(m, lo, self.vehicle, self.key), reverse)
        contact = self.swept(pose, m, reverse, 0.0, min(1.0, hi + 1e-9)) if hi > 0 else self.swept(pose, m, reverse, 0.0, 1e-9)
        hit = tuple(i for i, g in self.blockers if g.intersects(contact.buffer(-TOLERANCE / 2)))
        return PointResult(stop, hit or ("bounds",), lo)

    def terrain_level_at(self, pose: Pose) -> int:
        return int(self.terrain_levels(np.array([pose.x]), np.array([pose.y]), np.array([pose.heading]))[0])

    def hazard_dice_at(self, pose: Pose) -> int:
        return int(self.hazard_dice(np.array([pose.x]), np.array([pose.y]), np.array([pose.heading]))[0])

    # -- batches -------------------------------------------------------------------------------
    def rectangles(self, x: FloatArray, y: FloatArray, h: FloatArray, shrink: float = 0.0) -> FloatArray:
        """Corners (n, 4, 2) of the cars' rectangles, each side pulled in by ``shrink``."""
        r = rectangle(self.vehicle)
        r = r - np.sign(r) * shrink
        a = np.radians(h)
        c, s = np.cos(a)[:, None], np.sin(a)[:, None]
        out: FloatArray = np.empty((len(x), 4, 2))
        out[:, :, 0] = x[:, None] + r[None, :, 0] * c - r[None, :, 1] * s
        out[:, :, 1] = y[:, None] + r[None, :, 0] * s + r[None, :, 1] * c
        return out

    def _classify(self, g: BaseGeometry, reach: float) -> npt.NDArray[np.int8]:
        """Per field node, whether a car centred within ``field_err`` of it overlaps ``g``
        whatever its heading: 1 surely (the centre is inside), 0 surely not (farther than the
        rectangle reaches), -1 maybe."""
        nx, ny = self.field.shape
        out = np.zeros(nx * ny, dtype=np.int8)
        fx0, fy0, fx1, fy1 = g.bounds
        m = reach + self.field_err + TOLERANCE
        near = np.flatnonzero((self.node_x > fx0 - m) & (self.node_x < fx1 + m) & (self.node_y > fy0 - m)
                              & (self.node_y < fy1 + m))
        if len(near):
            d = shapely.distance(self._node_points[near], g.boundary)
            inside = shapely.contains_xy(g, self.node_x[near], self.node_y[near])
            cls = np.full(len(near), -1, dtype=np.int8)
            cls[inside & (d > self.field_err)] = 1
            cls[~inside & (d > m)] = 0
            out[near] = cls
        return np.pad(out.reshape(nx, ny), 1, constant_values=-1).ravel()

    def _overlapping(self, features: list[tuple[str, BaseGeometry, int]], classes: list[npt.NDArray[np.int8]],
                     x: FloatArray, y: FloatArray, h: FloatArray) -> list[tuple[int, IntArray]]:
        """Per feature: (value, indices of the cars whose rectangle overlaps it)."""
        if not features or len(x) == 0:
            return []
        idx = self._index(x, y)
        near = np.flatnonzero(np.any([cls.take(idx) != 0 for cls in classes], axis=0))
        if len(near) == 0:
            return []
        if len(near) < len(x):
            return [(v, near[i]) for v, i in self._overlapping(features, classes, x[near], y[near], h[near])]
        out = []
        corners: FloatArray | None = None
        for (_, g, value), cls in zip(features, classes):
            c = cls.take(idx)
            sure = np.flatnonzero(c == 1)
            maybe = np.flatnonzero(c == -1)
            if len(maybe):
                if corners is None:
                    corners = self.rectangles(x, y, h, TOLERANCE)
                polys = shapely.polygons(corners[maybe])
                maybe = maybe[shapely.intersects(polys, g)]
            hit = np.concatenate([sure, maybe]) if len(maybe) else sure
            if len(hit):
                out.append((value, hit))
        return out

    def terrain_levels(self, x: FloatArray, y: FloatArray, h: FloatArray) -> IntArray:
        """The highest terrain level each car's rectangle overlaps."""
        out: IntArray = np.zeros(len(x), dtype=np.int64)
        for value, idx in self._overlapping(self.terrain, self._terrain_class, x, y, h):
            out[idx] = np.maximum(out[idx], value)
        return out

    def hazard_dice(self, x: FloatArray, y: FloatArray, h: FloatArray) -> IntArray:
        """The dice of every hazard each car's rectangle overlaps."""
        out: IntArray = np.zeros(len(x), dtype=np.int64)
        for value, idx in self._overlapping(self.hazards, self._hazard_class, x, y, h):
            out[idx] += value
        return out

    def _cover(self, m: Maneuver, reverse: bool, step: float = COVER_STEP) -> _Cover:
        key = (m, reverse, step)
        c = self._covers.get(key)
        if c is None:
            t = sweep(m, self.vehicle, self.key, 0.0, 1.0, reverse)
            minx, miny, maxx, maxy = t.bounds
            if step <= 0:  # one disc around the whole swept area
                X = np.array([(minx + maxx) / 2.0])
                Y = np.array([(miny + maxy) / 2.0])
                pts = np.asarray(t.exterior.coords) if t.geom_type == "Polygon" else shapely.get_coordinates(t)
                r = float(np.max(np.hypot(pts[:, 0] - X[0], pts[:, 1] - Y[0]))) + 1e-9
                c = _Cover(X, Y, r, np.zeros(1, dtype=bool))
                self._covers[key] = c
                return c
            xs = np.arange(minx + step / 2, maxx + step / 2 + 1e-9, step)
            ys = np.arange(miny + step / 2, maxy + step / 2 + 1e-9, step)
            X, Y = np.meshgrid(xs, ys, indexing="ij")
            X, Y = X.ravel(), Y.ravel()
            half = step / 2
            cells = shapely.box(X - half, Y - half, X + half, Y + half)
            keep = shapely.intersects(cells, t)
            X, Y = X[keep], Y[keep]
            c = _Cover(X, Y, half * math.sqrt(2.0) + 1e-9, shapely.contains_xy(t, X, Y))
            self._covers[key] = c
        return c

    def _template(self, m: Maneuver, reverse: bool, heading: float) -> FloatArray | None:
        key = (m, reverse, round(heading, 9))
        if key not in self._templates:
            g = self.swept(Pose(0.0, 0.0, heading), m, reverse)
            if g.geom_type == "Polygon" and not g.interiors:
                self._templates[key] = np.asarray(g.exterior.coords, dtype=np.float64)
            else:
                self._templates[key] = None
        return self._templates[key]

    def _covers_for(self, maneuvers: tuple[Maneuver, ...], step: float) -> tuple[FloatArray, FloatArray, BoolArray, FloatArray]:
        """The discs of every maneuver padded to one size: centres (m, K) x and y, which lie
        inside the swept area, and each maneuver's radius."""
        key = (maneuvers, step)
        got = self._padded.get(key)
        if got is None:
            covs = [self._cover(m, False, step) for m in maneuvers]
            k = max(len(c.cx) for c in covs)
            cx = np.array([np.pad(c.cx, (0, k - len(c.cx)), mode="edge") for c in covs])
            cy = np.array([np.pad(c.cy, (0, k - len(c.cy)), mode="edge") for c in covs])
            inside = np.array([np.pad(c.inside, (0, k - len(c.inside)), constant_values=False) for c in covs])
            got = (cx, cy, inside, np.array([c.r for c in covs]))
            self._padded[key] = got
        return got

    def _disc_test(self, x: FloatArray, y: FloatArray, c: FloatArray, s: FloatArray, mi: IntArray,
                   maneuvers: tuple[Maneuver, ...], step: float) -> tuple[BoolArray, BoolArray]:
        """(certainly free, certainly blocked) with the discs of ``step``."""
        cx, cy, inside, radius = self._covers_for(maneuvers, step)
        kern = kernels.current()
        if kern is not None:  # the same tests in one compiled pass (engine.carwars.kernels)
            nx, ny = self.field.shape
            got: tuple[BoolArray, BoolArray] = kern["disc_test"](x, y, c, s, mi, cx, cy, inside, radius, self._low,
                                                                 self._high, self.gx0, self.gy0, self.grid, nx, ny,
                                                                 TOLERANCE)
            return got
        px, py = cx[mi], cy[mi]
        wx = x[:, None] + px * c[:, None] - py * s[:, None]
        wy = y[:, None] + px * s[:, None] + py * c[:, None]
        idx = self._index(wx, wy)
        free: BoolArray = np.asarray((self._low.take(idx) > radius[mi][:, None]).all(axis=1))
        ins = inside[mi]
        blocked: BoolArray = np.zeros(len(x), dtype=bool)
        if ins.any():
            blocked = np.asarray(((self._high.take(idx) < -TOLERANCE) & ins).any(axis=1))
        return free, blocked

    def free_moves(self, x: FloatArray, y: FloatArray, h: FloatArray, m: Maneuver, reverse: bool = False) -> BoolArray:
        """Whether each car (centre x, y, heading h) drives the point ``m`` without colliding."""
        n = len(x)
        return self.free_batch(x, y, h, np.zeros(n, dtype=np.int64), np.full(n, reverse), (m,))

    def free_batch(self, x: FloatArray, y: FloatArray, h: FloatArray, mi: IntArray, rev: BoolArray,
                   maneuvers: tuple[Maneuver, ...]) -> BoolArray:
        """Whether each car (centre x, y, heading h, in reverse or not) drives the point
        ``maneuvers[mi]`` without colliding.  Decided by the clearance field where that is
        certain (every disc covering the swept area clear, or a point of it deep inside a
        blocker), by the exact swept area elsewhere."""
        n = len(x)
        if n == 0:
            return np.zeros(0, dtype=bool)
        a = np.radians(h)
        sign = np.where(rev, -1.0, 1.0)
        c, s = np.cos(a) * sign, np.sin(a) * sign
        out = np.zeros(n, dtype=bool)
        todo = np.arange(n)
        for step in (0.0, 1.5, COVER_STEP):
            free, blocked = self._disc_test(x[todo], y[todo], c[todo], s[todo], mi[todo], maneuvers, step)
            out[todo[free]] = True
            todo = todo[~free & ~blocked]
            if len(todo) == 0:
                return out
        if len(todo):
            out[todo] = self._exact(x[todo], y[todo], h[todo], mi[todo], rev[todo], maneuvers)
        return out
    def _exact(self, x: FloatArray, y: FloatArray, h: FloatArray, mi: IntArray, rev: BoolArray,
               maneuvers: tuple[Maneuver, ...]) -> BoolArray:
        """The exact test: each swept area (a template per maneuver, direction and heading,
        translated) against the blockers."""
        out = np.zeros(len(x), dtype=bool)
        hk = np.rint(h * 1e6).astype(np.int64)
        group = (hk * len(maneuvers) + mi) * 2 + rev.astype(np.int64)
        order = np.argsort(group, kind="stable")
        g_sorted = group[order]
        cuts = np.flatnonzero(np.diff(g_sorted)) + 1
        coords: list[FloatArray] = []
        ring: list[IntArray] = []
        rows: list[IntArray] = []
        n_rings = 0
        for a, z in zip(np.concatenate([[0], cuts]).tolist(), np.concatenate([cuts, [len(order)]]).tolist()):
            idx = order[a:z]
            i0 = int(idx[0])
            m, r = maneuvers[int(mi[i0])], bool(rev[i0])
            tpl = self._template(m, r, float(h[i0]))
            if tpl is None:
                for k in idx.tolist():
                    out[k] = not self.collides(Pose(float(x[k]), float(y[k]), float(h[k])), m, r)
                continue
            pts = tpl[None, :, :] + np.stack([x[idx], y[idx]], axis=1)[:, None, :]
            coords.append(pts.reshape(-1, 2))
            ring.append(np.repeat(np.arange(n_rings, n_rings + len(idx)), len(tpl)))
            rows.append(idx)
            n_rings += len(idx)
        if rows:
            rings = shapely.linearrings(np.concatenate(coords), indices=np.concatenate(ring))
            hit = shapely.intersects(shapely.polygons(rings), self.core)
            out[np.concatenate(rows)] = ~hit
        return out
