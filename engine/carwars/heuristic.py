"""Lower bounds for the travel search: how far a goal is (straight and around the walls), how
many movement points that needs at least, and the least time those points take from a given
speed (the fastest speed ramp the policy allows).

>>> tb = TimeBound(max_speed=5, step=2)
>>> tb.turns(slider=2, points=4), tb.turns(slider=2, points=9), tb.turns(slider=0, points=3)
(1.0, 2.0, 1.25)
"""

from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse
from scipy.sparse.csgraph import dijkstra

from engine.carwars.geometry import TOLERANCE, CarWarsGeometry
from engine.carwars.motion import FloatArray, local_pose
from engine.carwars.rules import Maneuver
from engine.carwars.travel import UNITS

IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
#: Safety factors turning 8-connected grid distances into lower bounds on the length of the
#: car centre's path (the grid path is at most ~8.2% longer than a straight line, plus the
#: snapping of both ends to the grid).
GRID_STRETCH = 1.2
GRID_SLACK = 3.0


@dataclass(frozen=True)
class GoalShape:
    """A goal as a rectangle (centre, half sizes, rotation in degrees); a point has zero size."""

    cx: float
    cy: float
    hw: float
    hh: float
    rotation: float = 0.0

    def corners(self) -> FloatArray:
        a = math.radians(self.rotation)
        c, s = math.cos(a), math.sin(a)
        pts = [(-self.hw, -self.hh), (self.hw, -self.hh), (self.hw, self.hh), (-self.hw, self.hh)]
        return np.array([(self.cx + x * c - y * s, self.cy + x * s + y * c) for x, y in pts])

    def distance(self, x: FloatArray, y: FloatArray) -> FloatArray:
        """Distance from each point to the rectangle (0 inside)."""
        a = math.radians(self.rotation)
        c, s = math.cos(a), math.sin(a)
        u = (x - self.cx) * c + (y - self.cy) * s
        v = -(x - self.cx) * s + (y - self.cy) * c
        out: FloatArray = np.hypot(np.maximum(np.abs(u) - self.hw, 0.0), np.maximum(np.abs(v) - self.hh, 0.0))
        return out

    def ahead(self, x: FloatArray, y: FloatArray, h: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Per car centre: the distance to the rectangle and the heading ``h`` less the bearing
        of the rectangle's nearest point, in degrees in [-180, 180) (0 inside: any heading)."""
        a = math.radians(self.rotation)
        c, s = math.cos(a), math.sin(a)
        u = (x - self.cx) * c + (y - self.cy) * s
        v = -(x - self.cx) * s + (y - self.cy) * c
        du = np.clip(u, -self.hw, self.hw) - u  # towards the nearest point, in the goal's frame
        dv = np.clip(v, -self.hh, self.hh) - v
        dist: FloatArray = np.hypot(du, dv)
        bearing = np.degrees(np.arctan2(du * s + dv * c, du * c - dv * s))
        delta: FloatArray = np.mod(h - bearing + 180.0, 360.0) - 180.0
        return dist, delta

    @staticmethod
    def ahead_of(shapes: list[GoalShape], x: FloatArray, y: FloatArray, h: FloatArray
                 ) -> tuple[FloatArray, FloatArray]:
        """:meth:`ahead` of several goals at once: arrays (goals, points), each row the very
        numbers the goal's own :meth:`ahead` gives (the same operations on the same values)."""
        def col(values: list[float]) -> FloatArray:
            out: FloatArray = np.array(values, dtype=np.float64).reshape(len(shapes), 1)
            return out

        rad = [math.radians(g.rotation) for g in shapes]
        c, s = col([math.cos(a) for a in rad]), col([math.sin(a) for a in rad])
        cx, cy, hw, hh = col([g.cx for g in shapes]), col([g.cy for g in shapes]), col([g.hw for g in shapes]), \
            col([g.hh for g in shapes])
        u = (x - cx) * c + (y - cy) * s
        v = -(x - cx) * s + (y - cy) * c
        du = np.clip(u, -hw, hw) - u
        dv = np.clip(v, -hh, hh) - v
        dist: FloatArray = np.hypot(du, dv)
        bearing = np.degrees(np.arctan2(du * s + dv * c, du * c - dv * s))
        delta: FloatArray = np.mod(h - bearing + 180.0, 360.0) - 180.0
        return dist, delta

    def touched_by(self, corners: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each car rectangle (corners (n, 4, 2)) touches or overlaps the goal
        (separating-axis test with a :data:`TOLERANCE` gap allowed)."""
        mine = self.corners()
        a = math.radians(self.rotation)
        goal_axes = [np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])] if (
            self.hw > 0 or self.hh > 0) else []
        touching = np.ones(len(corners), dtype=bool)
        car_axes = [corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 1]]
        for ax in goal_axes:
            pc = corners @ ax
            pg = mine @ ax
            touching &= ~((pc.min(axis=1) > pg.max() + TOLERANCE) | (pc.max(axis=1) < pg.min() - TOLERANCE))
        for e in car_axes:
            n = np.stack([-e[:, 1], e[:, 0]], axis=1)
            n /= np.hypot(n[:, 0], n[:, 1])[:, None]
            pc = np.einsum("nkd,nd->nk", corners, n)
            pg = mine @ n.T  # (4, n)
            touching &= ~((pc.min(axis=1) > pg.max(axis=0) + TOLERANCE) | (pc.max(axis=1) < pg.min(axis=0) - TOLERANCE))
        return touching


class TimeBound:
    """The least time (turns) to drive ``points`` more movement points starting a new turn from
    speed slider ``slider``: speeds rise as fast as the policy allows (``step`` a turn, at most
    ``max_speed``).  Tabulated in 1/60 turns."""

    def __init__(self, max_speed: int, step: int, most: int = 512) -> None:
        self.max_speed, self.step = max_speed, step
        table = np.zeros((max_speed + 1, most + 1), dtype=np.int64)
        for sl in range(max_speed + 1):
            cum, turn, sp = 0, 0, sl
            row = [0]
            while len(row) <= most:
                turn += 1
                sp = min(max_speed, sp + step)
                if sp <= 0:
                    row.extend([1 << 40] * (most + 1 - len(row)))
                    break
                for k in range(1, sp + 1):
                    if len(row) > most:
                        break
                    row.append((turn - 1) * UNITS + k * UNITS // sp)
                cum += sp
            table[sl] = row[: most + 1]
        self.table = table
        self.most = most

    def units(self, slider: IntArray, points: IntArray) -> IntArray:
        p = np.minimum(points, self.most)
        out: IntArray = self.table[slider, p]
        return np.where(points > self.most, out + (points - self.most) * UNITS // max(1, self.max_speed), out)

    def turns(self, slider: int, points: int) -> float:
        return float(self.units(np.array([slider]), np.array([points]))[0]) / UNITS


#: Steps of the heading-aware bound's table: degrees off the heading, inches to go.
PHI_STEP = 0.5
A_STEP = 0.05
A_MAX = 150.0


@functools.lru_cache(maxsize=16)
def _heading_table(chord: float, turn: float, spread: float) -> Int32Array:
    phis = np.arange(0.0, 180.0 + PHI_STEP / 2, PHI_STEP)
    a_edges = np.arange(int(A_MAX / A_STEP) + 1) * A_STEP
    most = int(A_MAX / max(chord, 1e-9)) + int(360.0 / max(turn, 1.0)) + 4
    k = np.arange(1, most + 1)
    dev = np.clip(phis[:, None] - (k[None, :] - 1) * turn - spread, 0.0, 180.0)
    run = np.maximum.accumulate(np.concatenate([np.zeros((len(phis), 1)), np.cumsum(chord * np.cos(np.radians(dev)), axis=1)],
                                               axis=1), axis=1)
    table = np.empty((len(phis), len(a_edges)), dtype=np.int32)
    for n in range(len(phis)):
        table[n] = np.searchsorted(run[n], a_edges - 1e-12, side="left")
    table[table > most] = 1 << 20
    out: Int32Array = table.astype(np.int32)
    out.setflags(write=False)
    return out


class HeadingBound:
    """A heading-aware lower bound on the forward movement points to a goal.

    Driving forward, the car's heading changes by at most ``turn`` degrees a point and each
    point's displacement is at most ``chord`` inches long, within ``spread`` degrees of the
    heading it starts from.  So point ``i`` moves at most ``chord * cos(max(0, phi - (i-1) *
    turn - spread))`` towards any direction ``phi`` degrees off the current heading, and ``k``
    points at most S_k(phi), their sum.  A goal ``a`` inches away in a direction ``phi`` off
    the heading needs at least the first k with max(S_0..S_k) >= a.  A goal behind a car that
    turns slowly is many points away.  (The bound is admissible but not always consistent; the
    search re-opens states, so it stays exact.)
    """

    def __init__(self, chord: float, turn: float, spread: float) -> None:
        self.table = _heading_table(round(chord, 9), round(turn, 9), round(spread, 9))

    def points(self, gx: float, gy: float, rho: float, x: FloatArray, y: FloatArray, h: FloatArray) -> IntArray:
        """The bound along the direction from each car to the goal's centre (the goal lies
        within ``rho`` of it)."""
        dx, dy = gx - x, gy - y
        a = np.hypot(dx, dy) - rho
        phi = np.abs((np.degrees(np.arctan2(dy, dx)) - h + 180.0) % 360.0 - 180.0)
        pi = np.floor(phi / PHI_STEP + 1e-9).astype(np.int64)
        ai = np.clip(np.floor(a / A_STEP), 0, self.table.shape[1] - 1).astype(np.int64)
        out: IntArray = self.table[pi, ai].astype(np.int64)
        return out


#: Goals whose tables a :class:`Distances` keeps (an editor session plans for many card positions).
KEEP_TABLES = 48


def _trim(cache: dict[Any, Any]) -> None:
    while len(cache) > KEEP_TABLES:
        del cache[next(iter(cache))]


class Distances:
    """Per goal, lower bounds on the number of movement points needed from a car centre."""

    def __init__(self, geometry: CarWarsGeometry, maneuvers: tuple[Maneuver, ...]) -> None:
        g = geometry
        v = g.vehicle
        self.geometry = g
        self.reach = math.hypot(v.length / 2.0, v.width / 2.0)  # centre to a rectangle corner
        ends = [local_pose(m, 1.0, v, g.key) for m in maneuvers]
        self.chord = max(math.hypot(e[0], e[1]) for e in ends)
        spread = max(abs(math.degrees(math.atan2(e[1], e[0]))) for e in ends)
        turn = max((abs(e[2]) for e in ends), default=0.0)
        self.heading = HeadingBound(self.chord + 1e-9, turn + 1e-9, spread + 1e-9)
        r = math.hypot(v.length / 2.0, v.width / 2.0)
        self.path = max(v.length * (max(g.key.slide_forward, 1.0) + g.key.slide_lateral) + r * math.radians(max(
            (m.angle for m in maneuvers), default=0.0)), v.length)
        nx, ny = g.field.shape
        free = g.field.ravel() >= v.width / 2.0 - g.field_err - 1e-9
        self.free = free
        idx = np.arange(nx * ny).reshape(nx, ny)
        rows, cols, w = [], [], []
        for di, dj in ((1, 0), (0, 1), (1, 1), (1, -1)):
            a = idx[max(0, -di): nx - max(0, di), max(0, -dj): ny - max(0, dj)].ravel()
            b = idx[max(0, di): nx + min(0, di) or None, max(0, dj): ny + min(0, dj) or None].ravel()
            ok = free[a] & free[b]
            rows.append(a[ok])
            cols.append(b[ok])
            w.append(np.full(int(ok.sum()), g.grid * math.hypot(di, dj)))
        r_ = np.concatenate(rows)
        c_ = np.concatenate(cols)
        self.graph = scipy.sparse.csr_matrix((np.concatenate(w), (r_, c_)), shape=(nx * ny, nx * ny))
        xs = g.gx0 + g.grid * np.arange(nx)
        ys = g.gy0 + g.grid * np.arange(ny)
        X, Y = np.meshgrid(xs, ys, indexing="ij")
        self.nodes_x, self.nodes_y = X.ravel(), Y.ravel()
        self._tables: dict[object, tuple[ForwardRows, Int32Array]] = {}

    def field(self, goal: GoalShape) -> FloatArray:
        """Grid distance from every node to the nodes from which a car could touch ``goal``
        (the same for every policy: kept with the geometry, which both policies' planners share)."""
        key = (goal, self.reach, self.geometry.field_err)
        fields = _shared_fields(self.geometry)
        f = fields.get(key)
        if f is None:
            near = np.flatnonzero(self.free & (goal.distance(self.nodes_x, self.nodes_y)
                                               <= self.reach + self.geometry.field_err))
            if len(near) == 0:
                f = np.full(len(self.free), np.inf)
            else:
                f = np.asarray(dijkstra(self.graph, directed=False, indices=near, min_only=True), dtype=np.float64)
            f.setflags(write=False)
            fields[key] = f
            _trim(fields)
        return f

    def points(self, goal: GoalShape, x: FloatArray, y: FloatArray, h: FloatArray | None = None) -> IntArray:
        """A lower bound on the movement points before the car's rectangle can touch ``goal``
        (a huge number when the grid proves it unreachable); with headings ``h``, for a car
        driving forward only (see :class:`HeadingBound`)."""
        g = self.geometry
        d = np.maximum(goal.distance(x, y) - self.reach, 0.0)
        p_e = np.ceil(d / self.chord - 1e-9)
        f = self.field(goal)
        i = np.clip(np.rint((x - g.gx0) / g.grid).astype(np.int64), 0, g.field.shape[0] - 1)
        j = np.clip(np.rint((y - g.gy0) / g.grid).astype(np.int64), 0, g.field.shape[1] - 1)
        geo = f[i * g.field.shape[1] + j]
        lb = np.where(np.isfinite(geo), np.maximum(geo / GRID_STRETCH - GRID_SLACK * g.grid, 0.0), np.inf)
        p_g = np.where(np.isfinite(lb), np.ceil(lb / self.path - 1e-9), 1 << 30)
        out: IntArray = np.maximum(p_e, p_g).astype(np.int64)
        if h is not None:
            rho = self.reach + math.hypot(goal.hw, goal.hh)
            np.maximum(out, self.heading.points(goal.cx, goal.cy, rho, x, y, h), out=out)
        return out


    def node(self, x: FloatArray, y: FloatArray) -> IntArray:
        """Index of each point's nearest grid node (within ``field_err`` of it)."""
        g = self.geometry
        nx, ny = g.field.shape
        i = np.clip(np.rint((x - g.gx0) / g.grid), 0, nx - 1).astype(np.int64)
        j = np.clip(np.rint((y - g.gy0) / g.grid), 0, ny - 1).astype(np.int64)
        out: IntArray = i * ny + j
        return out

    def tables(self, goal: GoalShape, headings: FloatArray) -> tuple[ForwardRows, Int32Array, IntArray]:
        """Per grid node: the least movement points to touch ``goal`` from anywhere within
        ``field_err`` of the node - driving forward (n, len(headings): :class:`ForwardRows`,
        filled as they are read), and any way (n,) - so the search bounds a state with two
        lookups; and the column of each of ``headings`` (starts facing other ways share a
        table: the same headings in another order)."""
        order = np.argsort(headings, kind="stable")
        cols: IntArray = np.argsort(order).astype(np.int64)
        key = (goal, tuple(np.round(headings[order], 6).tolist()))
        got = self._tables.get(key)
        if got is None:
            got = self._tables[key] = self._table(goal, headings[order])
            _trim(self._tables)
        return got[0], got[1], cols

    def _table(self, goal: GoalShape, headings: FloatArray) -> tuple[ForwardRows, Int32Array]:
        err = self.geometry.field_err
        x, y = self.nodes_x, self.nodes_y
        d = np.maximum(goal.distance(x, y) - self.reach - err, 0.0)
        p_e = np.ceil(d / self.chord - 1e-9)
        f = self.field(goal)
        lb = np.where(np.isfinite(f), np.maximum(f / GRID_STRETCH - GRID_SLACK * self.geometry.grid, 0.0), np.inf)
        p_g = np.where(np.isfinite(lb), np.ceil(lb / self.path - 1e-9), 1 << 30)
        any_ = np.minimum(np.maximum(p_e, p_g), 1 << 30).astype(np.int32)
        rho = self.reach + math.hypot(goal.hw, goal.hh)
        dx, dy = goal.cx - x, goal.cy - y
        dist = np.hypot(dx, dy)
        a = dist - rho - err
        slack = np.degrees(np.arcsin(np.clip(err / np.maximum(dist, 1e-12), 0.0, 1.0)))
        bearing = np.degrees(np.arctan2(dy, dx))
        hb = self.heading
        ai = np.clip(np.floor(a / A_STEP), 0, hb.table.shape[1] - 1).astype(np.int64)
        live = self.free & (any_ < (1 << 30))  # where a car's centre can be
        return ForwardRows(any_, live, bearing, slack, ai, headings, hb.table), any_


class ForwardRows:
    """A goal's forward table (:meth:`Distances.tables`): per grid node and heading, the
    greater of the node's any-way points and the heading-aware bound (:class:`HeadingBound`).
    A row is computed the first time a search reads it - a resumed search after a card drag
    reads a few thousand of the 20 000 rows - or all at once (:meth:`full`, a search towards
    several goals takes the least of their tables).  The per-node parts (distance, bearing,
    slack) are computed for every node up front, so a row is the same whenever it is filled."""

    def __init__(self, any_: Int32Array, live: npt.NDArray[np.bool_], bearing: FloatArray, slack: FloatArray,
                 ai: IntArray, headings: FloatArray, table: Int32Array) -> None:
        self.any, self.live, self.bearing, self.slack, self.ai = any_, live, bearing, slack, ai
        self.headings, self.table = headings, table
        self.rows = np.empty((len(any_), len(headings)), dtype=np.int32)
        self.done = np.zeros(len(any_), dtype=bool)
        self.complete = False

    def __getitem__(self, at: tuple[IntArray, IntArray]) -> Int32Array:
        node, col = at
        if not self.complete:
            self._fill(node)
        out: Int32Array = self.rows[node, col]
        return out

    def full(self) -> Int32Array:
        """Every row."""
        if not self.complete:
            self._fill(np.arange(len(self.any)))
            self.complete = True
        return self.rows

    def _fill(self, node: IntArray) -> None:
        todo = node[~self.done[node]]
        if len(todo) == 0:
            return
        todo = np.unique(todo)
        self.rows[todo] = self.any[todo, None]
        live = todo[self.live[todo]]
        if len(live):
            phi = _off(self.bearing[live, None] - self.headings[None, :])
            phi -= self.slack[live, None]
            pi = np.floor(np.maximum(phi, 0.0) / PHI_STEP + 1e-9).astype(np.int64)
            self.rows[live] = np.maximum(self.any[live, None], self.table[pi, self.ai[live, None]])
        self.done[todo] = True


class MinRows:
    """The least of several goals' forward tables (:class:`ForwardRows`, the same columns), for
    a search towards several goals: a row is the least of the goals' rows, computed (with theirs)
    the first time the search reads it.  A cold search from a start reads a few thousand of the
    grid's nodes between two goal settlings (2-5 k of 23 k on the shipped four-player arena), so
    this is much less work than the least of whole tables, and bit for bit the same rows."""

    def __init__(self, parts: list[ForwardRows]) -> None:
        self.parts = parts
        self.rows = np.empty(parts[0].rows.shape, dtype=np.int32)
        self.done = np.zeros(len(parts[0].any), dtype=bool)

    def __getitem__(self, at: tuple[IntArray, IntArray]) -> Int32Array:
        node, col = at
        todo = node[~self.done[node]]
        if len(todo):
            todo = np.unique(todo)
            for part in self.parts:
                part._fill(todo)
            least = self.parts[0].rows[todo]
            for part in self.parts[1:]:
                np.minimum(least, part.rows[todo], out=least)
            self.rows[todo] = least
            self.done[todo] = True
        out: Int32Array = self.rows[node, col]
        return out


def _off(diff: FloatArray) -> FloatArray:
    """``abs((diff + 180) % 360 - 180)`` for ``diff`` in [-540, 180] (a bearing in [-180, 180]
    less a heading in [0, 360)), bit for bit, without numpy's slow float remainder: the
    remainder of a value in (-360, 360] is the value, plus 360 when negative, 0 at 360."""
    t = diff + 180.0
    np.add(t, 360.0, out=t, where=t < 0.0)
    t[t >= 360.0] = 0.0
    t -= 180.0
    out: FloatArray = np.abs(t, out=t)
    return out


_FIELDS: weakref.WeakKeyDictionary[CarWarsGeometry, dict[Any, FloatArray]] = weakref.WeakKeyDictionary()


def _shared_fields(g: CarWarsGeometry) -> dict[Any, FloatArray]:
    got = _FIELDS.get(g)
    if got is None:
        got = _FIELDS[g] = {}
    return got


#: Movement points the dice floor's table covers; a state that may still move more points by
#: its time bound gets no floor (the floor is 0, which is always a lower bound).
FLOOR_POINTS = 24
#: Cells of the dice floor's table per heading step (the heading changes of one search are
#: whole multiples of the step, so a cell moves to a cell exactly).
FLOOR_CELLS = 720


class DiceFloor:
    """A lower bound on the driving-roll dice a forward-driving car must still roll to touch a
    goal within ``n`` more movement points (docs/carwars-performance.md, "The dice floor").

    Project every point's displacement on the direction ``u`` from the car's centre to the
    nearest point of the goal: a plan touching the goal moves the centre at least ``a`` (the
    distance less the car's half diagonal) along ``u`` in all.  With the car's heading ``delta``
    degrees off ``u``, maneuver ``m`` (car-frame end ``dx, dy``, heading change ``dh``) moves it
    ``dx cos delta - dy sin delta`` along ``u`` and leaves the heading ``delta + dh`` off it.
    :attr:`reach` ``[n, r, cell]`` is the most any sequence of at most ``n`` points, at most
    ``r`` of them maneuvers (slides and turns: the points that roll), moves the car along ``u``
    from a heading in ``cell`` - an upper bound, each point's projection being maximised over
    the cell.  So a plan with fewer than the first ``r`` whose reach is ``>= a`` maneuvers
    cannot touch the goal: it rolls at least that many times, at least the roll speed each."""

    def __init__(self, ends: list[tuple[float, float, float]], rolled: list[bool], step: float) -> None:
        headings = max(1, round(360.0 / step))
        per = max(1, FLOOR_CELLS // headings)
        self.cells = headings * per
        w = 360.0 / self.cells
        self.width = w
        lo = -180.0 + w * np.arange(self.cells)
        hi = lo + w
        n_max = FLOOR_POINTS
        gain = np.empty((len(ends), self.cells))
        shift = np.empty(len(ends), dtype=np.int64)
        for i, (dx, dy, dh) in enumerate(ends):
            rad = math.hypot(dx, dy)
            alpha = math.degrees(math.atan2(dy, dx))
            # max of cos(delta + alpha) over the cell: 1 when a multiple of 360 lies within it
            a0, a1 = lo + alpha, hi + alpha
            inside = np.floor(a1 / 360.0) * 360.0 >= a0
            edge = np.maximum(np.cos(np.radians(a0)), np.cos(np.radians(a1)))
            gain[i] = rad * np.where(inside, 1.0, edge) + 1e-9
            shift[i] = round(dh / w)
            if abs(shift[i] * w - dh) > 1e-6:
                raise ValueError(f"a heading change of {dh:g} degrees is not a whole number of cells")
        reach = np.zeros((n_max + 1, n_max + 1, self.cells))
        idx = np.arange(self.cells)
        for n in range(1, n_max + 1):
            prev = reach[n - 1]
            best = np.zeros((n_max + 1, self.cells))
            for i in range(len(ends)):
                nxt = prev[:, (idx + shift[i]) % self.cells]
                if rolled[i]:
                    cand = np.full_like(best, -np.inf)
                    cand[1:] = gain[i][None, :] + nxt[:-1]
                else:
                    cand = gain[i][None, :] + nxt
                np.maximum(best, cand, out=best)
            reach[n] = best
        self.reach = reach
        self.n_max = n_max
        #: :attr:`reach` laid out ``[cell, n, r]``: the rows a search gathers, each contiguous
        self.by_cell = np.ascontiguousarray(reach.transpose(2, 0, 1))

    def cell(self, delta: FloatArray) -> IntArray:
        """The table's cell of each heading ``delta`` degrees (in [-180, 180)) off a goal's direction."""
        out: IntArray = np.clip(np.floor((delta + 180.0) / self.width).astype(np.int64), 0, self.cells - 1)
        return out
