"""What the vectorised search keeps (:class:`StateStore`), and how a kept state becomes a :class:`~engine.gravstrike.travel_types.TravelResult`:
follow its parents back to the source and replay each length as the rules move it (field
pushes included), adding up the exclusion-field damage the plan takes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from engine.gravstrike.geometry import path_crosses
from engine.gravstrike.motion import Pose
from engine.gravstrike.travel_types import Goal, PathStep, TravelResult

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.frontier import FrontierSearch

#: ``move`` codes of kept states: -1 no length (a source or a turn at speed 0), 0.. a maneuver
#: (index into the planner's maneuvers), PIVOT_BASE + j pivot j of
#: :attr:`engine.gravstrike.lattice.HeadingLattice.pivots`.
PIVOT_BASE = 1 << 16

def pushed_landings(search: FrontierSearch, ids: np.ndarray) -> np.ndarray:
    """Zone bits met by the kept length ends ``ids`` before (and between) field pushes: 0 for
    states no field pushed in their last length, else the bits met where the length ended and
    after each push but the last (the kept position itself)."""
    cols = search.store.cols
    lat = search.lat
    out = np.zeros(len(ids), dtype=np.uint64)
    par = cols["parent"][ids]
    ok = par >= 0
    if not ok.any():
        return out
    mv = np.clip(cols["move"][ids], 0, lat.count - 1)
    hkp = (cols["hk"][ids] - lat.turn[mv]) % 12  # the heading of travel the length began at
    mx = cols["x"][np.maximum(par, 0)] + lat.dx[hkp, mv]
    my = cols["y"][np.maximum(par, 0)] + lat.dy[hkp, mv]
    moved = np.flatnonzero(ok & (np.abs(mx - cols["x"][ids]) + np.abs(my - cols["y"][ids]) > 1e-9))
    if not len(moved):
        return out
    # replay the pushes of the moved ones together, as the search made them (engine.gravstrike.frontier_expand)
    par = par[moved]
    x, y = mx[moved], my[moved]
    nh = cols["hk"][ids[moved]].astype(np.int64)
    same_turn = cols["l"][par] < cols["s"][par]
    used = np.where(same_turn, cols["used"][par], np.uint64(0)).astype(np.uint64)
    _, zones = lat.probe(x, y, nh)
    seen = np.zeros(len(moved), dtype=np.uint64)
    pend = np.arange(len(moved))
    while len(pend):
        v = zones[pend] & search.field_bits & ~used[pend]
        go = v != 0
        pend, v = pend[go], v[go]
        if not len(pend):
            break
        seen[pend] |= zones[pend]  # met before this push: not the kept (last) position
        low = v & (~v + np.uint64(1))
        z = np.log2(low.astype(np.float64)).astype(np.int64)
        x[pend] += search.push_x[z]
        y[pend] += search.push_y[z]
        used[pend] |= low
        free, zz = lat.probe(x[pend], y[pend], nh[pend])
        zones[pend] = zz
        pend = pend[free]
    out[moved] = seen
    return out


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
        rev = int(cols["rev"][b])
        h = search.lat.headings[(hk + 6 * rev) % 12]  # the turbine's facing
        t, s, l = int(cols["t"][b]), int(cols["s"][b]), int(cols["l"][b])
        if mv < 0 or mv >= PIVOT_BASE:  # a turn at speed 0: stayed or pivoted
            if mv >= PIVOT_BASE:
                corner, n = divmod(mv - PIVOT_BASE, 11)
                path.append(PathStep(x, y, h, 0, t, 0, f"pivot {30 * (n + 1)} about corner {(corner + 2 * rev) % 4}"))
            damage += _end_damage(search, x, y, hk)
            continue
        speed = -s if rev else s
        pu = int(cols["used"][a]) if int(cols["l"][a]) < int(cols["s"][a]) else 0
        began = (hk - int(search.lat.turn[mv])) % 12  # the parent's, or its opposite after a reversal
        mx, my, pushes = replay(search, float(cols["x"][a]), float(cols["y"][a]), began, mv, pu)
        label = p.maneuvers[mv].label
        path.append(PathStep(mx, my, h, speed, t, l, label))
        for fid, px, py in pushes:
            path.append(PathStep(px, py, h, speed, t, l, label, fid))
        if p.n_excl:
            was = set(_excl_at(search, float(cols["x"][a]), float(cols["y"][a]), int(cols["hk"][a])))
            now: set[int] = set(_excl_at(search, mx, my, hk))
            for _, px, py in pushes:
                now.update(_excl_at(search, px, py, hk))
            damage += sum(1 for z in now if z not in was)
            if l == s:
                damage += _end_damage(search, x, y, hk)
    e = chain[-1]
    speed = int(cols["s"][e]) * (-1 if int(cols["rev"][e]) else 1)
    return TravelResult(goal, True, int(cols["t"][e]), int(cols["l"][e]), speed,
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
    """Every state the search keeps (columns of growable arrays, in compact types), for buckets
    and paths.  :meth:`get` hands out working copies in 64-bit types (:data:`WORK`)."""

    COLUMNS = {"x": np.float64, "y": np.float64, "hk": np.int8, "t": np.int16, "s": np.int8, "l": np.int8,
               "spent": np.int8, "used": np.uint64, "time": np.int32, "icons": np.int32, "parent": np.int32,
               "move": np.int32, "key": np.int64, "rev": np.int8}
    WORK = {k: (np.float64 if k in ("x", "y") else np.uint64 if k == "used" else np.int64) for k in COLUMNS}
    #: Bytes one state takes.
    BYTES = sum(np.dtype(d).itemsize for d in COLUMNS.values())

    def __init__(self) -> None:
        self.n = 0
        self.cap = 4096
        self.cols = {k: np.zeros(self.cap, dtype=d) for k, d in self.COLUMNS.items()}

    def peak_bytes(self, extra: int) -> int:
        """Bytes the store would hold at its peak while taking ``extra`` more states."""
        cap = self.cap
        if self.n + extra <= cap:
            return cap * self.BYTES
        while self.n + extra > cap:
            cap = cap * 3 // 2
        return (self.cap + cap) * self.BYTES

    def add(self, **cols: np.ndarray) -> np.ndarray:
        m = len(cols["x"])
        if self.n + m > self.cap:
            while self.n + m > self.cap:
                self.cap = self.cap * 3 // 2
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
        return {k: a[ids].astype(self.WORK[k]) for k, a in self.cols.items()}

    def get_live(self, ids: np.ndarray, pool: np.ndarray | None,
                 load: Callable[..., tuple[np.ndarray, ...]]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """(the states of ``ids`` still live, :meth:`get` of them) by the compiled ``load``
        (:func:`engine.gravstrike.kernels.load_states`): a state is live unless the key table
        ``pool`` holds an earlier time for its key (``pool`` None: all are)."""
        none = pool is None
        out = load(ids, np.zeros(1, dtype=np.int16) if none else pool, none, *self.cols.values())
        return out[0], dict(zip(self.COLUMNS, out[1:]))


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
    # engine.gravstrike.geometry.path_crosses on every segment at once (a point on the line is on its left)
    left_p = (bx - ax) * (P[..., 1] - ay) - (by - ay) * (P[..., 0] - ax) >= 0
    left_q = (bx - ax) * (Q[..., 1] - ay) - (by - ay) * (Q[..., 0] - ax) >= 0
    ex, ey = Q[..., 0] - P[..., 0], Q[..., 1] - P[..., 1]
    d3 = ex * (ay - P[..., 1]) - ey * (ax - P[..., 0])
    d4 = ex * (by - P[..., 1]) - ey * (bx - P[..., 0])
    cross = (left_p != left_q) & ~(((d3 > 0) & (d4 > 0)) | ((d3 < 0) & (d4 < 0)))
    if one_way:
        cross &= ~left_p
    hit = cross.any(axis=1)
    for i in np.flatnonzero(pushed[near] & ~hit).tolist():  # pushes extend the path: replay them
        j = near[i]
        path = [(px[j] + a, py[j] + b) for a, b in search.lat.path[n["hk"][r[j]], c["move"][j]]]
        _, _, pushes = replay(search, float(px[j]), float(py[j]), int(n["hk"][r[j]]), int(c["move"][j]), int(n["used"][r[j]]))
        hit[i] = path_crosses(path + [(a, b) for _, a, b in pushes], (ax, ay), (bx, by), one_way)
    found: np.ndarray = near[hit]
    return found

# -- results --------------------------------------------------------------------------------
