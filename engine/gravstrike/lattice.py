"""Vectorised lookups for the travel search (:mod:`engine.gravstrike.frontier`): the twelve headings of one
search stacked into arrays (free / blocked / maybe per raster cell, and bit masks of the zones
each cell certainly or maybe meets), every maneuver's and pivot's displacement per heading, and
the planner's time bound tabulated so that a batch of states is bounded with one gather.

>>> from schema.games.gravstrike.model import Arena, Rect, Wall
>>> from engine.gravstrike.planner import Planner
>>> import numpy as np
>>> arena = Arena(name="t", bounds=Rect((0.0, 0.0), (10.0, 10.0)), walls=(Wall("W", Rect((3.0, 0.0), (1.0, 4.0))),))
>>> lat = Planner(arena, minimise="time").lattice(0.0)
>>> free, zones = lat.probe(np.array([0.0, 2.2, 4.6]), np.array([0.0, 0.0, 0.0]), np.array([0, 0, 0]))
>>> free.tolist()
[True, False, False]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from shapely.geometry.base import BaseGeometry

from engine.gravstrike import kernels
from engine.gravstrike.cspace import BLOCKED, FREE, MAX_BIT_ZONES, MIXED, HeadingSpace
from engine.gravstrike.motion import (
    Pose,
    local_displacement,
    local_path,
    normalize_heading,
)
from engine.gravstrike.strips import StripIndex
from engine.gravstrike.travel_types import UNBOUNDED

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.planner import Planner

#: Distance step (lengths) of the tabulated time bound.
BOUND_STEP = 0.01
#: Height (lengths) of the strips the compiled exact tests sort the regions' edges into.
STRIP = 0.25


def supported(planner: Planner, starts: Sequence[tuple[Pose, int]]) -> bool:
    """Can the vectorised search run this query?  (At most 64 zones, every source heading on
    one 30-degree lattice.)"""
    if len(planner.cspace.zones) > MAX_BIT_ZONES or not starts:
        return False
    base = starts[0][0].heading % 30.0
    return all(abs((p.heading - base) % 30.0) < 1e-6 or abs((p.heading - base) % 30.0 - 30.0) < 1e-6 for p, _ in starts)


def _pivots(cs: np.ndarray, hl: float, hw: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a pivot (``k*30`` degrees, k = 1..11, about each corner in turn) moves the centre from
    the origin at the headings with (cos, sin) ``cs``: :func:`engine.gravstrike.motion.pivot`'s
    float operations, per (heading, corner * 11 + k - 1)."""
    c, s = cs[:, 0, None], cs[:, 1, None]
    local = np.array([(hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw)])
    cx = 0.0 + local[None, :, 0] * c - local[None, :, 1] * s  # the corners (Footprint.corners)
    cy = 0.0 + local[None, :, 0] * s + local[None, :, 1] * c
    turn = np.array([(math.cos(math.radians(30.0 * n)), math.sin(math.radians(30.0 * n))) for n in range(1, 12)])
    c2, s2 = turn[None, None, :, 0], turn[None, None, :, 1]
    cx, cy = cx[:, :, None], cy[:, :, None]
    dx, dy = 0.0 - cx, 0.0 - cy
    return (cx + dx * c2 - dy * s2).reshape(len(cs), 44), (cy + dx * s2 + dy * c2).reshape(len(cs), 44)


class HeadingLattice:
    """The twelve headings ``base + k*30`` of one search, their configuration spaces stacked for
    vectorised lookups, and every maneuver's (of the planner's :attr:`~engine.gravstrike.planner.Planner.
    maneuvers`, ``count`` of them costing ``cost`` icons) and pivot's displacement per heading.
    Headings here are directions of travel: a turbine in reverse moves as one going forwards in
    the opposite direction (see :mod:`engine.gravstrike.frontier`)."""

    def __init__(self, planner: Planner, base: float) -> None:
        self.headings = [round(normalize_heading(base + 30.0 * k), 6) % 360.0 for k in range(12)]
        self.status, self.sure, self.maybe = planner.cspace.stacked(self.headings)  # (builds the spaces)
        self.spaces: list[HeadingSpace] = [planner.cspace.heading(h) for h in self.headings]
        self.raster = planner.cspace.raster
        #: Rows of the stacks: heading index ``k`` reads row ``k % rows`` (6: opposite headings share one).
        self.rows = int(self.status.shape[0])
        t = planner.turbine
        maneuvers = planner.maneuvers
        self.count = len(maneuvers)
        self.cost = np.array([m.cost for m in maneuvers], dtype=np.int64)
        #: Each maneuver's turn in 30-degree steps (the heading of travel it began at is the one
        #: it ended at minus this).
        self.turn = np.array([m.turn // 30 for m in maneuvers], dtype=np.int64)
        # the same float operations as ``motion``'s scalar rotations, one heading per row
        cs = np.array([(math.cos(math.radians(h)), math.sin(math.radians(h))) for h in self.headings])
        c, s = cs[:, 0, None], cs[:, 1, None]
        disp = np.array([local_displacement(m, t) for m in maneuvers], dtype=float).reshape(-1, 2)
        self.dx = disp[None, :, 0] * c - disp[None, :, 1] * s
        self.dy = disp[None, :, 0] * s + disp[None, :, 1] * c
        self.nh = (np.arange(12, dtype=np.int64)[:, None] + self.turn[None, :]) % 12
        paths = [local_path(m, t) for m in maneuvers]
        npts = max(len(p) for p in paths)
        local = np.array([p + [p[-1]] * (npts - len(p)) for p in paths], dtype=float)  # padded with its end
        px, py = local[None, :, :, 0], local[None, :, :, 1]
        c, s = c[:, :, None], s[:, :, None]
        #: Centre path of each length per heading, padded with its end.
        self.path = np.stack([px * c - py * s, px * s + py * c], axis=-1)
        self.cos = np.cos(np.radians(self.headings))
        self.sin = np.sin(np.radians(self.headings))
        self._exact: tuple[object, ...] | None = None
        self._flagged: np.ndarray | None = None
        self._circles()
        self.pivots = [(0.0, 0.0, n, f"pivot {30 * n} about corner {corner}") for corner in range(4) for n in range(1, 12)]
        self.pdx, self.pdy = _pivots(cs, t.length / 2.0, t.width / 2.0)
        self.pnh = np.tile((np.arange(12, dtype=np.int64)[:, None] + np.arange(1, 12)[None, :]) % 12, (1, 4))

    def refresh_zones(self, cells: np.ndarray | None = None) -> None:
        """Re-read the zone masks (of ``cells`` only, if given) after
        :meth:`engine.gravstrike.cspace.CSpace.replace_zone`."""
        self._circles()
        self._exact = None
        self._flagged = None
        for k, hs in enumerate(self.spaces):
            row = k % self.rows
            if cells is None:
                self.sure[row] = hs.sure_bits
                self.maybe[row] = hs.maybe_bits
            else:
                self.sure[row, cells] = hs.sure_bits[cells]
                self.maybe[row, cells] = hs.maybe_bits[cells]

    def flagged_status(self) -> np.ndarray:
        """The stacked status with each cell's "has zone bits" flag, as the compiled children
        kernel reads it (:func:`engine.gravstrike.kernels.zone_flagged`; made on first use)."""
        if self._flagged is None:
            self._flagged = kernels.zone_flagged(self.status, self.sure, self.maybe)
        return self._flagged

    def exact_args(self) -> tuple[object, ...]:
        """The geometry :func:`engine.gravstrike.kernels.resolve_exact` reads (made on first use): each
        row's free region without its circular walls and its polygonal zones' regions in a
        :class:`~engine.gravstrike.strips.StripIndex`, the circular walls, the rows' headings."""
        if self._exact is None:
            nz = min(len(self.spaces[0].zones), MAX_BIT_ZONES)
            poly = np.array([not self.circ[z] for z in range(nz)] + [False] * (MAX_BIT_ZONES - nz), dtype=np.bool_)
            regions: list[BaseGeometry | None] = []
            row_cs = np.empty((self.rows, 2))
            for row in range(self.rows):
                hs = self.spaces[row]
                regions.append(hs.free_base)
                regions.extend(hs.zones[z] if poly[z] else None for z in range(nz))
                a = math.radians(hs.heading)
                row_cs[row] = math.cos(a), math.sin(a)
            r = self.raster
            index = StripIndex(regions, r.y0, STRIP, math.ceil(r.ny * r.cell / STRIP) + 1)
            hs = self.spaces[0]
            wall = np.array(hs.wall_circles, dtype=float).T.reshape(3, len(hs.wall_circles))
            circ = np.zeros(MAX_BIT_ZONES, dtype=np.bool_)
            circ[: len(self.circ)] = self.circ[:MAX_BIT_ZONES]
            par = np.zeros((5, MAX_BIT_ZONES))
            par[:, : min(len(self.circ), MAX_BIT_ZONES)] = self.circ_par[:, :MAX_BIT_ZONES]
            self._exact = (self.rows, 1 + nz, index.edges, index.offsets, index.order, index.y0, index.height, poly,
                           wall, row_cs, np.array(hs.shrunk_half, dtype=float), circ, par, self.cos, self.sin)
        return self._exact

    def cells(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(raster cell index, on-grid mask) of points."""
        r = self.raster
        fi = (x - r.x0) / r.cell
        fj = (y - r.y0) / r.cell
        ok = (fi >= 0.0) & (fj >= 0.0) & (fi < r.nx) & (fj < r.ny)
        c = np.where(ok, fi.astype(np.int64) * r.ny + fj.astype(np.int64), 0)
        return c, ok

    def probe(self, x: np.ndarray, y: np.ndarray, hk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(free mask, zone bit mask) for centres ``(x, y)`` at heading indices ``hk``: the
        vectorised :meth:`engine.gravstrike.cspace.HeadingSpace.probe`."""
        hk = hk.astype(np.int64, copy=False)  # stored headings are int8: no overflow in index sums
        c, ok = self.cells(x, y)
        row = hk % self.rows if self.rows != len(self.headings) else hk
        st = np.where(ok, self.status[row, c], BLOCKED)
        return self.resolve(x, y, hk, st, self.sure[row, c], self.maybe[row, c])

    def resolve(self, x: np.ndarray, y: np.ndarray, hk: np.ndarray, st: np.ndarray, sure: np.ndarray,
                maybe: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`probe` from the raster's answers for the centres (status, certain and possible
        zone bits of their cells): the exact tests where the raster can't tell (compiled, when the
        process has loaded :mod:`engine.gravstrike.kernels`: :func:`~engine.gravstrike.kernels.resolve_exact`)."""
        kern = kernels.current()
        if kern is not None and len(x):
            out: tuple[np.ndarray, np.ndarray] = kern["resolve_exact"](
                x, y, hk.astype(np.int64, copy=False), st, sure, maybe, *self.exact_args())
            return out
        mixed = np.flatnonzero(st == MIXED)
        if len(mixed):
            for k in np.unique(hk[mixed]).tolist():
                sel = mixed[hk[mixed] == k]
                st[sel] = np.where(self.spaces[k].free_exact(x[sel], y[sel]), FREE, BLOCKED)
        free = st == FREE
        zones = np.where(free, sure, np.uint64(0))
        maybe = np.where(free, maybe, np.uint64(0))
        todo = np.flatnonzero(maybe)
        if len(todo):
            zones |= self._maybe_hits(x, y, hk, todo, maybe[todo])
        return free, zones

    def zone_hits(self, x: np.ndarray, y: np.ndarray, hk: np.ndarray, z: int) -> np.ndarray:
        """Do footprints at the (free) centres ``(x, y)``, heading indices ``hk``, meet zone ``z``?
        (One zone's bit of :meth:`probe`, for positions known to be free.)"""
        if not len(x):
            return np.zeros(0, dtype=bool)
        hk = hk.astype(np.int64, copy=False)
        c, ok = self.cells(x, y)
        bit = np.uint64(1 << z)
        row = hk % self.rows
        hit = ok & ((self.sure[row, c] & bit) != 0)
        todo = np.flatnonzero(ok & ~hit & ((self.maybe[row, c] & bit) != 0))
        if len(todo):
            hit[todo] = (self._maybe_hits(x, y, hk, todo, np.full(len(todo), bit, dtype=np.uint64))[todo] & bit) != 0
        out: np.ndarray = hit
        return out

    def _circles(self) -> None:
        """Per zone, its circle (centre, radius, the footprint's half extents) if it is one."""
        n = len(self.spaces[0].zones)
        self.circ = np.zeros(n, dtype=bool)
        self.circ_par = np.zeros((5, n))
        for z, (circle, overlap) in self.spaces[0].zone_circles.items():
            hs = self.spaces[0]
            self.circ[z] = True
            self.circ_par[:, z] = (*circle, *(hs.shrunk_half if overlap else hs.grown_half))

    def _maybe_hits(self, x: np.ndarray, y: np.ndarray, hk: np.ndarray, todo: np.ndarray,
                    maybe: np.ndarray) -> np.ndarray:
        """Zone bits of the points ``todo`` decided exactly where the raster said "maybe":
        circles all at once, polygons per heading and zone."""
        out = np.zeros(len(x), dtype=np.uint64)
        pi: list[np.ndarray] = []
        pz: list[np.ndarray] = []
        bits = int(np.bitwise_or.reduce(maybe))
        while bits:
            bit = (bits & -bits).bit_length() - 1
            bits &= bits - 1
            sel = todo[(maybe & np.uint64(1 << bit)) != 0]
            pi.append(sel)
            pz.append(np.full(len(sel), bit, dtype=np.int64))
        i, z = np.concatenate(pi), np.concatenate(pz)
        hit = np.zeros(len(i), dtype=bool)
        circ = self.circ[z]
        if circ.any():
            ci, cz = i[circ], z[circ]
            cx, cy, r, hl, hw = self.circ_par[:, cz]
            c, s = self.cos[hk[ci]], self.sin[hk[ci]]
            dx, dy = cx - x[ci], cy - y[ci]
            lx = np.maximum(np.abs(dx * c + dy * s) - hl, 0.0)
            ly = np.maximum(np.abs(-dx * s + dy * c) - hw, 0.0)
            hit[circ] = lx * lx + ly * ly <= r * r
        poly = np.flatnonzero(~circ)
        if len(poly):
            group = hk[i[poly]] * 64 + z[poly]
            for g in np.unique(group).tolist():
                m = poly[group == g]
                hit[m] = self.spaces[g // 64].zone_exact(g % 64, x[i[m]], y[i[m]])
        np.bitwise_or.at(out, i[hit], np.left_shift(np.uint64(1), z[hit].astype(np.uint64)))
        return out


class BoundTable:
    """The planner's time bound (:class:`engine.gravstrike.heuristic.TimeBound`) tabulated per (speed,
    lengths done, icons left) at every multiple of :data:`BOUND_STEP` lengths, so a batch of
    states is bounded with one gather (distances are rounded down: still admissible)."""

    def __init__(self, planner: Planner) -> None:
        self.tb = planner.timebound
        self.budget = planner.budget
        vmax = planner.vmax
        self.rows = np.full((vmax + 1, vmax + 1, (self.budget or 0) + 2), -1, dtype=np.int64)
        b = planner.geometry.bounds.bounds
        self.width = int((max(b[2] - b[0], b[3] - b[1]) * 3.0 + 10.0) / BOUND_STEP) + 2
        self.table = np.zeros((self.rows.size, self.width), dtype=np.int64)
        self.used = 0
        self._floor: np.ndarray | None = None

    def lookup(self, d: np.ndarray, s: np.ndarray, l: np.ndarray, spent: np.ndarray) -> np.ndarray:
        left = np.zeros(len(d), dtype=np.int64) if self.budget is None else self.budget - spent + 1
        row = self.rows[s, l, left]
        if (row < 0).any():
            for code in np.unique(((s * 64 + l) * 64 + left)[row < 0]).tolist():
                self._add(code // 4096, (code // 64) % 64, code % 64)
            row = self.rows[s, l, left]
        finite = np.isfinite(d)
        dq = np.minimum(np.where(finite, d / BOUND_STEP, 0.0).astype(np.int64), self.width - 1)
        return np.where(finite, self.table[row, dq], UNBOUNDED)

    def build_floor(self) -> np.ndarray:
        """Tabulate every row and their minimum (what :meth:`floor` reads); done once."""
        if self._floor is None:
            vmax = self.rows.shape[0] - 1
            for s in range(vmax + 1):
                for l in range(s + 1):
                    for left in range(self.rows.shape[2]):
                        if self.rows[s, l, left] < 0:
                            self._add(s, l, left)
            self._floor = self.table[: self.used].min(axis=0)
        return self._floor

    def floor(self, d: np.ndarray) -> np.ndarray:
        """A bound no larger than :meth:`lookup` for any speed, lengths done and icons left."""
        floor = self.build_floor()
        finite = np.isfinite(d)
        dq = np.minimum(np.where(finite, d / BOUND_STEP, 0.0).astype(np.int64), self.width - 1)
        return np.where(finite, floor[dq], UNBOUNDED)

    def _add(self, s: int, l: int, left: int) -> None:
        covers, times = self.tb.table(s, l, left - 1 if self.budget is not None else -1)
        c = np.asarray(covers, dtype=float)
        t = np.asarray(times, dtype=np.int64)
        grid = np.arange(self.width) * BOUND_STEP
        k = np.searchsorted(c, grid - 1e-9, side="left")
        inside = k < len(c)
        self.table[self.used] = np.where(inside, t[np.minimum(k, len(c) - 1)], self.tb.past_table(covers, times, grid))
        self.rows[s, l, left] = self.used
        self.used += 1
