"""The reach heat map: the earliest time the car's centre ends a movement point in each square
of a grid over the arena, from one source (a start, a pose, or a card with the car on it at
every heading), under one policy (flat-out by default).

This is the planner's search without a goal (Dijkstra by time, dice, hard speed changes), with
states merged per cell instead of per ``quantum``: a state's key is the ``cell``-inch square of
a merge grid *centred on the arena's bounds* (squares centred on its axes), its heading, its
speed and whether it is at the start of a turn (so that holding a speed is never merged away).
Which state represents a key does not depend on the order states arrive in: every state of the
least label (time, dice, hard changes) is gathered first, then the one nearest the square's
centre is kept - all of them when several are equally near (mirror images are).  A square's
value is the least time over every kept state whose centre lies in the closed square (a
centre on an edge counts on both sides).  So an arena with a mirror or rotation symmetry that
maps the source onto itself (or onto another source) gets the mapped map, square by square.

The times are those of real plans, but merging can make a square look a little later than it
is - a map, not a proof.  Bounded by ``limit`` turns and the planner's state cap.

>>> from schema.games.carwars import default_arena
>>> m = reach(default_arena(), StartSource(1), limit=1, cell=3.0)
>>> m.at(0.0, -14.75 + 3.0), m.at(0.0, -14.75 + 12.0), m.at(0.0, 14.0)
(0.25, 1.0, inf)
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from engine import budget as caps

from engine.carwars.batch import Batch
from engine.carwars.heuristic import IntArray
from engine.carwars.motion import Pose, car_outline, normalize
from engine.carwars.planner import Planner
from engine.carwars.search import Search
from engine.carwars.rules import REVERSE, START_SPEED, Policy
from engine.carwars.travel import UNITS, PlanningError, ReachMap, SearchLimits, Source, StartSource
from schema.games.carwars import CarWarsArena

__all__ = ["ReachMap", "StartSource", "card_poses", "reach", "reach_from_card", "reach_from_poses", "reach_with"]

#: Offset of the merge grid's indices (they are packed unsigned into a key).
_OFFSET = 1 << 19
#: Positions within this (inches) count as equally near a square's centre, or on its edge.
_EPS = 1e-7


class _ReachSearch(Search):
    """The planner's expansion (moves, collisions, dice) with the reach map's merging."""

    def __init__(self, p: Planner, poses: list[Pose], speed: int, cell: float) -> None:
        super().__init__(p, poses[0], speed, {}, quantum=cell)
        minx, miny, maxx, maxy = p.geometry.bounds.bounds
        self.cx, self.cy = (minx + maxx) / 2.0, (miny + maxy) / 2.0
        if len(poses) > 1:  # every source at time 0 (the first one is queued already)
            n = len(poses) - 1
            x = np.array([q.x for q in poses[1:]])
            y = np.array([q.y for q in poses[1:]])
            h = np.array([q.heading for q in poses[1:]])
            zero, one = np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)
            pts = 1 if speed == REVERSE else speed
            self._push(Batch(x=x, y=y, h=h, s=one * speed, k=one * pts, t=zero, time=zero, dice=zero, hard=zero,
                              parent=-one, move=-one, pdice=zero, px=x, py=y, ph=h, checked=one))

    def _f(self, b: Batch, prep: tuple[IntArray, IntArray] | None = None) -> IntArray:
        out: IntArray = np.asarray(b.time, dtype=np.int64)
        return out

    def _grid(self, b: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Each state's position in merge-grid units (square ``n`` spans [n, n + 1))."""
        q = self.quantum
        return (b.x - self.cx) / q + 0.5, (b.y - self.cy) / q + 0.5

    def _keys(self, b: Batch) -> np.ndarray:
        """The merge key of each state (for the planner's early test of new states against
        the recorded ones): a state on a square's edge belongs to both squares, so it gets a
        key nothing is recorded under (it is never dropped early; :meth:`_select` decides)."""
        u, v = self._grid(b)
        i, j = np.floor(u).astype(np.int64), np.floor(v).astype(np.int64)
        out = self._pack(b, i, j)
        edge = _on_edge(u) | _on_edge(v)
        out[edge] = -1 - np.flatnonzero(edge)
        return out

    def _pack(self, b: Batch, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Merge square, heading, speed and start-of-turn (not the points moved this turn)."""
        p = self.p
        hi = np.rint((b.h - self.base) / p.step).astype(np.int64) % p.headings
        out: np.ndarray = (((((i + _OFFSET) << 21) | (j + _OFFSET)) << 10 | hi) << 3 | (b.s + 1)) << 1 | (b.k == 0)
        return out

    def _squares(self, b: Batch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(row, i, j): each state with its merge square, twice (or four times) for a state on
        an edge (or a corner) between squares."""
        u, v = self._grid(b)
        lo_i, hi_i = np.floor(u - 2 * _EPS).astype(np.int64), np.floor(u + 2 * _EPS).astype(np.int64)
        lo_j, hi_j = np.floor(v - 2 * _EPS).astype(np.int64), np.floor(v + 2 * _EPS).astype(np.int64)
        two_i, two_j = hi_i != lo_i, hi_j != lo_j
        parts = [(np.ones(len(b), dtype=bool), lo_i, lo_j), (two_i, hi_i, lo_j), (two_j, lo_i, hi_j),
                 (two_i & two_j, hi_i, hi_j)]
        rows = [np.flatnonzero(m) for m, _, _ in parts]
        ii = [i[r] for r, (_, i, _) in zip(rows, parts)]
        jj = [j[r] for r, (_, _, j) in zip(rows, parts)]
        return np.concatenate(rows), np.concatenate(ii), np.concatenate(jj)

    def _open(self, b: Batch) -> Batch | None:
        """The states of ``b`` with a square whose key is not recorded yet (the others can
        only lose: the recorded labels are no larger), before their collision test."""
        rows, i, j = self._squares(b)
        free = self.closed.get(self._pack(b.take(rows), i, j)) < 0
        alive = np.zeros(len(b), dtype=bool)
        alive[rows[free]] = True
        return b.take(np.flatnonzero(alive)) if alive.any() else None

    def _select(self, b: Batch) -> Batch | None:
        """The states of ``b`` that represent their key (see the module docstring); records
        their labels.  ``b`` holds every state of its label that will ever be queued."""
        rows, i, j = self._squares(b)
        c = b.take(rows)
        keys, label = self._pack(c, i, j), self._label(c)
        held = self.closed.get(keys)
        new = (held < 0) | (label < held)
        if not new.any():
            return None
        idx = np.flatnonzero(new)
        keys, label, rows, i, j = keys[idx], label[idx], rows[idx], i[idx], j[idx]
        q = self.quantum
        x, y = b.x[rows], b.y[rows]
        d = np.hypot(x - (self.cx + i * q), y - (self.cy + j * q))
        order = np.lexsort((d, label, keys))
        keys, label, d, rows, x, y = keys[order], label[order], d[order], rows[order], x[order], y[order]
        first = np.concatenate([[True], keys[1:] != keys[:-1]])
        group = np.cumsum(first) - 1
        keep = (label == label[first][group]) & (d <= d[first][group] + _EPS)
        self.closed.admit(keys[first], label[first])
        # one copy of a state kept under two keys (an edge) or twice (the same pose)
        rows = rows[keep]
        pos = np.stack([np.rint(x[keep] / _EPS), np.rint(y[keep] / _EPS), np.rint(b.h[rows] * 1e6), b.s[rows], b.k[rows]])
        _, once = np.unique(pos, axis=1, return_index=True)
        return b.take(np.sort(rows[once]))

    def sweep(self, x0: float, y0: float, cell: float, nx: int, ny: int) -> tuple[np.ndarray, bool]:
        times = np.full((nx, ny), np.inf)
        lim = self.p.limits
        while self.heap:
            key = heapq.heappop(self.heap)
            b = self._open(Batch.concat([part for _, part in self.buckets.pop(key)]))
            if b is None:
                continue
            ready, requeue = self._check(b)
            if requeue is not None:
                self._push(requeue)
            if ready is None:
                continue
            fresh = self._select(ready)
            if fresh is None:
                continue
            b = fresh
            ids = np.arange(self.stored, self.stored + len(b))
            self.store.append(b)
            self.stored += len(b)
            self.expanded += len(b)
            moved = (b.k > 0) | (b.parent < 0)
            t = b.time[moved] / UNITS
            fx, fy = (b.x[moved] - x0) / cell, (b.y[moved] - y0) / cell
            for ei in (-_EPS, _EPS):  # a centre on a square's edge counts on both sides
                for ej in (-_EPS, _EPS):
                    i, j = np.floor(fx + ei).astype(np.int64), np.floor(fy + ej).astype(np.int64)
                    ok = (i >= 0) & (i < nx) & (j >= 0) & (j < ny)
                    np.minimum.at(times, (i[ok], j[ok]), t[ok])
            if self.expanded > lim.max_states or caps.exceeded() is not None:  # the analysis's caps too
                return times, False
            self._expand(b, ids)
        return times, True


def reach_from_poses(planner: Planner, poses: list[Pose], speed: int = START_SPEED, limit: float = 3.0,
                     cell: float = 1.0) -> ReachMap:
    """The heat map from several source poses at once (each at ``speed``, having completed a
    turn): per square the least time from any of them."""
    if not poses:
        raise PlanningError("no source pose")
    old = planner.max_turns
    planner.max_turns = max(0, int(math.floor(limit)))
    try:
        search = _ReachSearch(planner, poses, speed, cell)
        minx, miny, maxx, maxy = planner.geometry.bounds.bounds
        nx = max(1, int(math.ceil((maxx - minx) / cell - 1e-9)))
        ny = max(1, int(math.ceil((maxy - miny) / cell - 1e-9)))
        times, complete = search.sweep(minx, miny, cell, nx, ny)
    finally:
        planner.max_turns = old
    times[times > limit + 1e-9] = np.inf
    return ReachMap(minx, miny, cell, times, complete)


def reach_with(planner: Planner, source: Source, limit: float = 3.0, cell: float = 1.0) -> ReachMap:
    """The heat map with an existing planner (its policy, car and state cap)."""
    pose, speed = planner.source_state(source)
    return reach_from_poses(planner, [pose], speed, limit, cell)


def reach(arena: CarWarsArena, source: Source, limit: float = 3.0, policy: Policy = "flat-out", cell: float = 1.0,
          limits: SearchLimits = SearchLimits()) -> ReachMap:
    """Earliest time (turns, up to ``limit``) the car's centre ends a movement point in each
    ``cell``-inch square, from ``source``."""
    return reach_with(Planner(arena, policy, limits=limits), source, limit, cell)


def card_poses(planner: Planner, card_id: str) -> list[Pose]:
    """The car on card ``card_id``: its centre on the card's centre, at every heading of the
    search's lattice (the card's rotation plus multiples of the turning step) where it
    overlaps no wall or heavy obstacle."""
    try:
        card = planner.arena.card(card_id)
    except KeyError:
        raise PlanningError(f"the arena has no card {card_id!r}") from None
    base = normalize(card.rotation)
    poses = [Pose(card.position[0], card.position[1], normalize(base + k * planner.step))
             for k in range(planner.headings)]
    free = [q for q in poses if not planner.geometry.overlaps_blockers(car_outline(q, planner.arena.vehicle))]
    if not free:
        raise PlanningError(f"no car fits on card {card_id} at any heading without touching a wall or obstacle")
    return free


def reach_from_card(arena: CarWarsArena, card_id: str, limit: float = 3.0, policy: Policy = "flat-out",
                    cell: float = 1.0, speed: int = START_SPEED, limits: SearchLimits = SearchLimits()) -> ReachMap:
    """Earliest time (turns) a car on card ``card_id`` - centre on the card, any heading it
    fits at, at ``speed`` (the starting speed 2 by default) - ends a movement point in each
    square: how far every part of the arena is from the card."""
    planner = Planner(arena, policy, limits=limits)
    return reach_from_poses(planner, card_poses(planner, card_id), speed, limit, cell)


def _on_edge(u: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.abs(u - np.rint(u)) < 2 * _EPS
    return out
