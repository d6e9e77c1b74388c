"""What the vectorised search keeps (:class:`StateStore`), and how a kept state becomes a :class:`~engine.travel_types.TravelResult`:
follow its parents back to the source and replay each length as the rules move it (field
pushes included), adding up the exclusion-field damage the plan takes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.geometry import path_crosses
from engine.motion import MANEUVERS, Pose
from engine.travel_types import Goal, PathStep, TravelResult

if TYPE_CHECKING:  # pragma: no cover
    from engine.frontier import FrontierSearch

#: ``move`` codes of kept states: -1 no length (a source or a turn at speed 0), 0..20 a
#: maneuver, PIVOT_BASE + j pivot j of :attr:`engine.lattice.HeadingLattice.pivots`.
PIVOT_BASE = 100

def replay(search: FrontierSearch, x: float, y: float, hk: int, move: int, used: int) -> tuple[float, float, list[tuple[str, float, float]]]:
    """One length from (x, y) at heading index ``hk``: its end before pushes and the pushes
    (field id, position after), as the scalar planner moves."""
    p = search.p
    lat = search.lat
    mx, my = x + float(lat.dx[hk, move]), y + float(lat.dy[hk, move])
    nh = int(lat.nh[hk, move])
    hs = lat.spaces[nh]
    zones = hs.probe(mx, my) or []
    cx, cy = mx, my
    pushes: list[tuple[str, float, float]] = []
    while True:
        z = next((z for z in zones if z < p.n_fields and not used >> z & 1), -1)
        if z < 0:
            break
        cx += float(search.push_x[z])
        cy += float(search.push_y[z])
        used |= 1 << z
        pushes.append((p.geometry.fields[z].id, cx, cy))
        zones = hs.probe(cx, cy) or []
    return mx, my, pushes

def travel_result(search: FrontierSearch, goal: Goal, sid: int) -> TravelResult:
    p = search.p
    cols = search.store.cols
    chain: list[int] = []
    i = sid
    while i >= 0:
        chain.append(i)
        i = int(cols["parent"][i])
    chain.reverse()
    path: list[PathStep] = []
    damage = 0
    for a, b in zip(chain, chain[1:]):
        mv = int(cols["move"][b])
        x, y, hk = float(cols["x"][b]), float(cols["y"][b]), int(cols["hk"][b])
        h = search.lat.headings[hk]
        t, s, l = int(cols["t"][b]), int(cols["s"][b]), int(cols["l"][b])
        if mv < 0 or mv >= PIVOT_BASE:  # a turn at speed 0: stayed or pivoted
            if mv >= PIVOT_BASE:
                label = search.lat.pivots[mv - PIVOT_BASE][3]
                path.append(PathStep(x, y, h, 0, t, 0, label))
            damage += _end_damage(search, x, y, hk)
            continue
        pu = int(cols["used"][a]) if int(cols["l"][a]) < int(cols["s"][a]) else 0
        mx, my, pushes = replay(search, float(cols["x"][a]), float(cols["y"][a]), int(cols["hk"][a]), mv, pu)
        path.append(PathStep(mx, my, h, s, t, l, MANEUVERS[mv].label))
        for fid, px, py in pushes:
            path.append(PathStep(px, py, h, s, t, l, MANEUVERS[mv].label, fid))
        if p.n_excl:
            was = set(_excl_at(search, float(cols["x"][a]), float(cols["y"][a]), int(cols["hk"][a])))
            now = _excl_at(search, x, y, hk)
            damage += sum(1 for z in now if z not in was)
            if l == s:
                damage += _end_damage(search, x, y, hk)
    e = chain[-1]
    return TravelResult(goal, True, int(cols["t"][e]), int(cols["l"][e]), int(cols["s"][e]),
                        int(cols["time"][e]) / p.scale, int(cols["icons"][e]), damage, tuple(path))

def _excl_at(search: FrontierSearch, x: float, y: float, hk: int) -> list[int]:
    p = search.p
    lo, hi = p.n_fields, p.n_fields + p.n_excl
    return [z for z in search.lat.spaces[hk].zones_at(x, y) if lo <= z < hi]

def _end_damage(search: FrontierSearch, x: float, y: float, hk: int) -> int:
    p = search.p
    pose = Pose(x, y, search.lat.headings[hk])
    return sum(2 for z in _excl_at(search, x, y, hk)
               if p.geometry.corners_inside(p.excl_zones[z - p.n_fields], pose) >= 2)


class StateStore:
    """Every state the search keeps (columns of growable arrays), for buckets and paths."""

    COLUMNS = {"x": np.float64, "y": np.float64, "hk": np.int64, "t": np.int64, "s": np.int64, "l": np.int64,
               "spent": np.int64, "used": np.uint64, "time": np.int64, "icons": np.int64, "parent": np.int64,
               "move": np.int64, "key": np.int64}

    def __init__(self) -> None:
        self.n = 0
        self.cap = 4096
        self.cols = {k: np.zeros(self.cap, dtype=d) for k, d in self.COLUMNS.items()}

    def add(self, **cols: np.ndarray) -> np.ndarray:
        m = len(cols["x"])
        if self.n + m > self.cap:
            while self.n + m > self.cap:
                self.cap *= 2
            for k, a in self.cols.items():
                b = np.zeros(self.cap, dtype=a.dtype)
                b[: self.n] = a[: self.n]
                self.cols[k] = b
        for k, a in self.cols.items():
            a[self.n:self.n + m] = cols[k]
        ids = np.arange(self.n, self.n + m, dtype=np.int64)
        self.n += m
        return ids

    def get(self, ids: np.ndarray) -> dict[str, np.ndarray]:
        return {k: a[ids] for k, a in self.cols.items()}


def gate_hits(search: FrontierSearch, g: Goal, c: dict[str, np.ndarray], n: dict[str, np.ndarray], r: np.ndarray,
               pushed: np.ndarray) -> np.ndarray:
    (ax, ay), (bx, by), one_way = search.p.gates[g]
    px, py = n["x"][r], n["y"][r]
    vx, vy = bx - ax, by - ay
    L2 = vx * vx + vy * vy
    u = np.clip(((px - ax) * vx + (py - ay) * vy) / L2, 0.0, 1.0) if L2 else np.zeros(len(px))
    reach = search.p.reach + search.p.n_fields + 0.01
    near = np.flatnonzero(np.hypot(px - ax - u * vx, py - ay - u * vy) <= reach)
    if not len(near):
        return near
    pts = search.lat.path[n["hk"][r[near]], c["move"][near]] + np.stack([px[near], py[near]], axis=1)[:, None, :]
    P, Q = pts[:, :-1], pts[:, 1:]
    d1 = (bx - ax) * (P[..., 1] - ay) - (by - ay) * (P[..., 0] - ax)
    d2 = (bx - ax) * (Q[..., 1] - ay) - (by - ay) * (Q[..., 0] - ax)
    ex, ey = Q[..., 0] - P[..., 0], Q[..., 1] - P[..., 1]
    d3 = ex * (ay - P[..., 1]) - ey * (ax - P[..., 0])
    d4 = ex * (by - P[..., 1]) - ey * (bx - P[..., 0])
    cross = ~(((d1 > 0) & (d2 > 0)) | ((d1 < 0) & (d2 < 0)) | ((d1 == 0) & (d2 == 0)))
    cross &= ~(((d3 > 0) & (d4 > 0)) | ((d3 < 0) & (d4 < 0)))
    if one_way:
        cross &= ((d1 < 0) & (0 <= d2)) | ((d1 <= 0) & (0 < d2))
    hit = cross.any(axis=1)
    for i in np.flatnonzero(pushed[near] & ~hit).tolist():  # pushes extend the path: replay them
        j = near[i]
        path = [(px[j] + a, py[j] + b) for a, b in search.lat.path[n["hk"][r[j]], c["move"][j]]]
        _, _, pushes = replay(search, float(px[j]), float(py[j]), int(n["hk"][r[j]]), int(c["move"][j]), int(n["used"][r[j]]))
        hit[i] = path_crosses(path + [(a, b) for _, a, b in pushes], (ax, ay), (bx, by), one_way)
    found: np.ndarray = near[hit]
    return found

# -- results --------------------------------------------------------------------------------
