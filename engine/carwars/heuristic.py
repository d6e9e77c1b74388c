"""Lower bounds for the travel search: how far a goal is (straight and around the walls), how
many movement points that needs at least, and the least time those points take from a given
speed (the fastest speed ramp the policy allows).

>>> tb = TimeBound(max_speed=5, step=2)
>>> tb.turns(slider=2, points=4), tb.turns(slider=2, points=9), tb.turns(slider=0, points=3)
(1.0, 2.0, 1.25)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse
from scipy.sparse.csgraph import dijkstra

from engine.carwars.geometry import TOLERANCE, CarWarsGeometry
from engine.carwars.motion import FloatArray, Pose, local_pose, rectangle
from engine.carwars.rules import Maneuver
from engine.carwars.travel import UNITS

IntArray = npt.NDArray[np.int64]
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


class Distances:
    """Per goal, lower bounds on the number of movement points needed from a car centre."""

    def __init__(self, geometry: CarWarsGeometry, maneuvers: tuple[Maneuver, ...]) -> None:
        g = geometry
        v = g.vehicle
        self.geometry = g
        self.reach = math.hypot(v.length / 2.0, v.width / 2.0)  # centre to a rectangle corner
        ends = [local_pose(m, 1.0, v, g.key) for m in maneuvers]
        self.chord = max(math.hypot(e[0], e[1]) for e in ends)
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
        self._fields: dict[GoalShape, FloatArray] = {}

    def field(self, goal: GoalShape) -> FloatArray:
        """Grid distance from every node to the nodes from which a car could touch ``goal``."""
        f = self._fields.get(goal)
        if f is None:
            near = np.flatnonzero(self.free & (goal.distance(self.nodes_x, self.nodes_y)
                                               <= self.reach + self.geometry.field_err))
            if len(near) == 0:
                f = np.full(len(self.free), np.inf)
            else:
                f = np.asarray(dijkstra(self.graph, directed=False, indices=near, min_only=True), dtype=np.float64)
            self._fields[goal] = f
        return f

    def points(self, goal: GoalShape, x: FloatArray, y: FloatArray) -> IntArray:
        """A lower bound on the movement points before the car's rectangle can touch ``goal``
        (a huge number when the grid proves it unreachable)."""
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
        return out


def goal_rectangle_of_pose(pose: Pose, length: float, width: float) -> GoalShape:
    return GoalShape(pose.x, pose.y, length / 2.0, width / 2.0, pose.heading)


__all__ = ["Distances", "GoalShape", "TimeBound", "goal_rectangle_of_pose", "rectangle"]
