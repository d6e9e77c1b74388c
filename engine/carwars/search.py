"""The Car Wars travel search itself (:class:`Search`): the A* of
:class:`~engine.carwars.planner.Planner` over (pose, speed, points moved this turn), by (time
bound, dice) buckets, with deferred collision tests, goal settling and the state a kept search
(:mod:`engine.carwars.kept`) resumes from.  See :mod:`engine.carwars.planner` for the model."""

from __future__ import annotations

import heapq
import time as _time
from typing import TYPE_CHECKING, Callable

import numpy as np
import numpy.typing as npt

from engine import budget as caps
from engine.carwars import kernels
from engine.carwars.batch import DICE_BITS, HARD_FLAG, SPEED_MOVE, BIG, Batch, state_points
from engine.carwars.heuristic import PHI_STEP, ForwardRows, GoalShape, Int32Array, IntArray, MinRows
from engine.carwars.motion import Pose
from engine.carwars.paths import travel_result
from engine.carwars.reserve import NEVER, Prep, Reserve
from engine.carwars.rules import (
    MAX_SPEED,
    REVERSE,
)
from engine.carwars.travel import (
    UNITS,
    Goal,
    SearchStopped,
    TravelResult,
)
from engine.keytable import KeyTable

if TYPE_CHECKING:  # pragma: no cover
    from engine.carwars.planner import Planner

#: A search iteration takes buckets of the same time bound together while it holds fewer states
#: than this, up to this many dice above the first (:meth:`Search._widen`): measured on the
#: shipped four-player arena, a card drag's resumed searches take about 30 % less CPU.
WIDEN_STATES = 64
WIDEN_DICE = 16
#: A resumed search (:meth:`Search.resume`) widens further: up to this many states,
#: over buckets up to this many time units (1/60 turn) above the first.  Measured on the shipped
#: four-player arena (12 card drags): about 15 % less CPU for a drag's searches (fewer, larger
#: batches; 497 -> 316 iterations); a cold search is slower so (more states taken past its goal),
#: so it keeps :data:`WIDEN_STATES` within one time bound.
RESUME_WIDEN = (512, 3)
#: Inches taken off the distance to a goal before the dice floor reads it: a car "touches" a
#: goal within the separating-axis test's tolerance, which is within sqrt(2) of it.
FLOOR_MARGIN = 1e-3
#: The dice floor of a state from which no forward plan touches an open goal by its time bound
#: (any floor is a lower bound there: the plans through it touch a goal later, a larger key).
FLOOR_NONE = 1 << 16
#: States the dice floor takes at once (its temporary arrays are about 2 KB a state).
FLOOR_CHUNK = 4096
#: Entries of the dice floor's table a batch gathers at once (8 bytes each).
FLOOR_GATHER = 1 << 20


def ending_by(pts: IntArray, k: IntArray, within: IntArray) -> IntArray:
    """How many of a turn's ``pts`` points after the ``k`` already moved end within ``within``
    time units of the turn's start, point ``j`` ending at ``j * UNITS // pts``: the ``j`` in
    ``k < j <= pts`` with ``j * UNITS // pts <= within``, that is ``j * UNITS < (within + 1) *
    pts``, counted at once (the ends grow with ``j``).

    >>> ending_by(np.array([3, 3, 3, 0]), np.array([0, 1, 0, 0]), np.array([40, 40, 19, 60])).tolist()
    [2, 1, 0, 0]
    """
    p = np.maximum(pts, 1)
    last = np.minimum(pts, ((within + 1) * p - 1) // UNITS)
    out: IntArray = np.maximum(last - np.maximum(k, 0), 0)
    return out


def _tiers(parts: list[Batch]) -> list[Batch]:
    """``parts`` in order, each merged into the one before it while that one is at most twice
    its size (as a binary counter carries): a few parts, and a state is copied a few times over
    the whole edit session, not once every resumption."""
    out: list[Batch] = []
    for part in parts:
        out.append(part)
        while len(out) > 1 and len(out[-2]) <= 2 * len(out[-1]):
            last = out.pop()
            out[-1] = Batch.concat([out[-1], last])
    return out


class Search:
    def __init__(self, p: Planner, pose: Pose, speed: int, shapes: dict[Goal, GoalShape],
                 quantum: float | None = None, keep: bool = False) -> None:
        self.p = p
        #: Whether the states the bound cuts off are kept (:mod:`engine.carwars.kept` resumes the
        #: search for other goals, under whose bound they may be live again).
        self.keep = keep
        self.pruned: list[Batch] = []
        #: States waiting outside the queue (a resumed search's frontier), released into it
        #: before a pop that one of them could come before (:mod:`engine.carwars.reserve`).
        self.reserve: Reserve | None = None
        #: Asked between two batches; True stops the search (:class:`SearchStopped`).
        self.stop: Callable[[], bool] | None = None
        #: Whether expanded states are offered to the goals (not while a kept search warms up).
        self.collect = True
        self.quantum = p.quantum if quantum is None else quantum
        self.base = pose.heading
        self.shapes = shapes
        self.open = list(shapes)
        self.results: dict[Goal, TravelResult] = {}
        self.pending: dict[Goal, tuple[int, int]] = {}
        #: The least label (time, dice, hard) expanded per state key (:meth:`_keys`).
        self.closed = KeyTable()
        self.store: list[Batch] = []
        self.stored = 0
        self.buckets: dict[int, list[tuple[int, Batch]]] = {}
        self.heap: list[int] = []
        self.beyond = False
        self.expanded = 0
        self.started = _time.monotonic()
        self.version = 0  # bumped when the open goals change: parts queued before may need a new bound
        #: :meth:`_widen`'s limits: (states, time units above the first bucket's time bound).
        self.widen = (WIDEN_STATES, 0)
        self.need_fwd: ForwardRows | MinRows | None = None
        self.need_any: Int32Array | None = None
        self.cols: IntArray = np.arange(p.headings)  # need_fwd's column of each heading index
        self.prove_untouchable()
        if self.open:
            self._heuristic_tables()
        pts = 1 if speed == REVERSE else speed
        src = Batch(x=np.array([pose.x]), y=np.array([pose.y]), h=np.array([pose.heading]),
                     s=np.array([speed]), k=np.array([pts]), t=np.array([0]), time=np.array([0]),
                     dice=np.array([0]), hard=np.array([0]), parent=np.array([-1]), move=np.array([-1]),
                     pdice=np.array([0]), px=np.array([pose.x]), py=np.array([pose.y]), ph=np.array([pose.heading]),
                     checked=np.array([True]))
        self._push(src)

    def prove_untouchable(self) -> None:
        """Open goals no car can touch (:meth:`CarWarsGeometry.untouchable`) are answered
        ``unreachable`` at once, not by exhausting the search's state limit."""
        for g in [g for g in self.open if self.p.geometry.untouchable(self.shapes[g].corners())]:
            self.open.remove(g)
            self.results[g] = TravelResult(g, "unreachable")

    # keys ---------------------------------------------------------------------------------------
    def _keys(self, b: Batch) -> IntArray:
        p = self.p
        xi = np.rint((b.x - p.x0) / self.quantum).astype(np.int64)
        yi = np.rint((b.y - p.y0) / self.quantum).astype(np.int64)
        hi = np.rint((b.h - self.base) / p.step).astype(np.int64) % p.headings
        out: IntArray = ((((xi << 21) | yi) << 10 | hi) << 3 | (b.s + 1)) << 3 | b.k
        return out

    def _heuristic_tables(self) -> None:
        """The least points to any open goal per grid node (and heading index): the any-way
        table whole, the forward one row by row as the search reads it (one goal's
        :class:`ForwardRows`, or the least of several goals', :class:`MinRows`)."""
        p = self.p
        headings = np.mod(self.base + p.step * np.arange(p.headings), 360.0)
        parts: list[ForwardRows] = []
        any_: Int32Array | None = None
        for g in self.open:  # the columns are the same for every goal: the same headings
            tf, ta, self.cols = p.distances.tables(self.shapes[g], headings)
            parts.append(tf)
            any_ = ta if any_ is None else np.minimum(any_, ta)
        self.need_fwd = None if not parts else parts[0] if len(parts) == 1 else MinRows(parts)
        self.need_any = any_

    def prep(self, b: Batch) -> tuple[IntArray, IntArray]:
        """The goal-independent parts of each state's bound: its grid node and heading index
        (a resumed search's waiting states keep them, :mod:`engine.carwars.reserve`)."""
        p = self.p
        hi: IntArray = np.rint((b.h - self.base) / p.step).astype(np.int64) % p.headings
        return p.distances.node(b.x, b.y), hi

    def _f(self, b: Batch, prep: tuple[IntArray, IntArray] | None = None) -> IntArray:
        """A* priority: a lower bound on the time (1/60 turns) at which an open goal is touched.
        The least of: driving forward only (the heading-aware bound), or reversing at some
        point (not before the slider can reach 0: "Speed 0 means either stopped or in
        reverse").  The time bound grows with the points, so the least over the goals is the
        bound of the least points, tabulated per grid node (:meth:`Distances.tables`)."""
        p = self.p
        if not self.open or self.need_any is None or self.need_fwd is None:
            return np.full(len(b), BIG, dtype=np.int64)
        node, hi = self.prep(b) if prep is None else prep
        kern = kernels.current()
        if kern is not None:  # the same bound in compiled passes (engine.carwars.kernels)
            fwd = self.need_fwd
            if isinstance(fwd, ForwardRows) and not fwd.complete:
                rows = kern["forward_rows"](node, self.cols[hi], fwd.rows, fwd.done, fwd.any, fwd.live, fwd.bearing,
                                            fwd.slack, fwd.ai, fwd.headings, fwd.table, PHI_STEP)
            else:
                rows = fwd[node, self.cols[hi]]
            bound = p.bound
            got: IntArray = kern["time_bound"](b.s, b.k, b.t, b.time, rows, self.need_any[node], bound.table,
                                               bound.most, bound.max_speed, bool(p.reverse), bound.step)
            return got
        pts = state_points(b.s)
        rem = pts - b.k
        sl = np.maximum(b.s, 0)
        need_any = self.need_any[node].astype(np.int64)
        f = self._bound(b, self.need_fwd[node, self.cols[hi]].astype(np.int64), pts, rem, sl)
        if p.reverse:
            wait = np.maximum(1, -(-sl // p.bound.step))
            rev_start = np.where((b.s == REVERSE) & (b.k == 0), b.time, (b.t + wait - 1) * UNITS)
            f = np.minimum(f, np.maximum(rev_start, self._bound(b, need_any, pts, rem, sl)))
        out: IntArray = np.where(need_any >= (1 << 30), BIG, f)
        return out

    def _bound(self, b: Batch, need: IntArray, pts: IntArray, rem: IntArray, sl: IntArray) -> IntArray:
        within = (need <= rem) & (pts > 0)
        now = np.where(within, (b.t - 1) * UNITS + (b.k + need) * UNITS // np.maximum(pts, 1), 0)
        later = b.t * UNITS + self.p.bound.units(sl, np.maximum(need - rem, 0))
        out: IntArray = np.where(need == 0, b.time, np.where(within, now, later))
        return out

    def bounded(self, b: Batch) -> tuple[Batch, IntArray]:
        """The states of ``b`` the bound keeps (a goal is still within reach and the horizon),
        with their bucket keys; the others are kept apart (with ``keep``) or dropped."""
        f = self._f(b)
        live = f < BIG
        horizon = self.p.max_turns * UNITS
        if (live & (f > horizon)).any():
            self.beyond = True
        keep = live & (f <= horizon)
        if not keep.all():
            if self.keep:
                self.pruned.append(b.take(np.flatnonzero(~keep)))
            b, f = b.take(np.flatnonzero(keep)), f[keep]
        return b, self.packed(b, f)

    def packed(self, b: Batch, f: IntArray) -> IntArray:
        """The bucket keys of ``b`` under the time bounds ``f``: (time bound, dice so far plus
        :meth:`dice_floor`)."""
        dice = b.dice + self.dice_floor(b, f) if len(b) else b.dice
        out: IntArray = (f << DICE_BITS) | np.minimum(dice, (1 << DICE_BITS) - 1)
        return out

    def dice_floor(self, b: Batch, f: IntArray) -> IntArray:
        """A lower bound on the driving-roll dice still to roll by a plan that touches an open
        goal by the time bound ``f`` (a plan touching it later has a larger key whatever its
        dice).  Only for a car driving forward until ``f`` (0 where a reverse point could come
        first).  By ``f`` the car moves the rest of this turn's points at its speed, then, in
        the next two turns, the points of some legal speeds (:meth:`Planner.floor_options`):
        per choice, the turning and distance a goal needs within those points take at least
        ``r`` maneuvers (:class:`~engine.carwars.heuristic.DiceFloor`), each rolling its
        turn's speed in dice, so at least the ``r`` cheapest points' speeds; the floor is the
        least over the choices.  Past two turns, a later point rolls at least 1 die.
        docs/carwars-performance.md, "The dice floor", has the proof."""
        p = self.p
        out = np.zeros(len(b), dtype=np.int64)
        floor = p.dice_floor
        if floor is None or not self.open:
            return out
        sl = np.maximum(b.s, 0)
        ok = (b.s >= 1) & (f < BIG)
        if p.reverse:  # the first point a reverse turn can move ends at (t + wait) turns
            wait = np.maximum(1, -(-sl // p.bound.step))
            ok &= f < (b.t + wait) * UNITS
        sel = np.flatnonzero(ok)
        for lo in range(0, len(sel), FLOOR_CHUNK):
            part = sel[lo: lo + FLOOR_CHUNK]
            out[part] = self._floor(b.take(part), f[part])
        return out

    def _floor(self, b: Batch, f: IntArray) -> IntArray:
        p = self.p
        floor = p.dice_floor
        assert floor is not None
        pts = state_points(b.s)
        budget = f - b.t * UNITS
        start = (b.t - 1) * UNITS
        now = ending_by(pts, b.k, f - start)  # points of this turn ending by f
        rem = pts - b.k
        # the choices: (points, dice of the r cheapest points for each r) per state
        n_opt, cost = p.floor_options(b.s, np.where(budget < 0, now, rem), budget)
        x, y, h = b.x, b.y, b.h
        margin = p.distances.reach + FLOOR_MARGIN
        nn = np.minimum(n_opt, floor.n_max)
        rolls: IntArray | None = None
        # the goals a few at a time (each (goals, states, choices, r) gather at most FLOOR_GATHER)
        shapes = [self.shapes[g] for g in self.open]
        step = max(1, FLOOR_GATHER // max(1, nn.size * (floor.n_max + 1)))
        for lo in range(0, len(shapes), step):
            a, delta = GoalShape.ahead_of(shapes[lo: lo + step], x, y, h)  # (goals, states)
            cell = floor.cell(delta)
            rows = floor.by_cell[cell[:, :, None], nn[None, :, :]]  # (goals, states, choices, r)
            r = (rows < (a - margin)[:, :, None, None]).sum(axis=3).min(axis=0)
            rolls = r if rolls is None else np.minimum(rolls, r)
        assert rolls is not None
        rolls = np.where(n_opt > floor.n_max, 0, rolls)
        dice = np.take_along_axis(cost, np.minimum(rolls, n_opt)[:, :, None], axis=2)[:, :, 0]
        dice[rolls > n_opt] = FLOOR_NONE  # no plan moving only these points touches a goal
        got: IntArray = dice.min(axis=1)
        return got

    def _push(self, b: Batch) -> None:
        if len(b) == 0:
            return
        b, packed = self.bounded(b)
        if len(b) == 0:
            return
        order = np.argsort(packed, kind="stable")
        packed = packed[order]
        b = b.take(order)
        cuts = np.flatnonzero(np.diff(packed)) + 1
        starts = np.concatenate([[0], cuts])
        ends = np.concatenate([cuts, [len(packed)]])
        for a, z in zip(starts.tolist(), ends.tolist()):
            key = int(packed[a])
            part = b.slice(a, z)
            if key not in self.buckets:
                self.buckets[key] = []
                heapq.heappush(self.heap, key)
            self.buckets[key].append((self.version, part))

    # main loop ----------------------------------------------------------------------------------
    def run(self) -> dict[Goal, TravelResult]:
        """A* by (time bound, dice so far), one batch per bucket.  States reached with the same
        key (pose, speed, points moved) keep the least (time, dice, hard changes), re-opened
        when improved.  A goal is settled once every state with a smaller (bound, dice) has been
        expanded, so among the fastest plans the one with the fewest dice (then hard changes)
        wins."""
        lim = self.p.limits
        while self.open and (self.heap or self.reserve):
            if self.stop is not None and self.stop():
                raise SearchStopped()
            if self.reserve:
                self._release()
                if not self.heap:  # nothing left waiting either
                    break
            f = heapq.heappop(self.heap)
            parts = self.buckets.pop(f)
            self._settle(f)
            if not self.open:
                self.buckets[f] = parts  # not expanded: the frontier stays whole (for a resumption)
                heapq.heappush(self.heap, f)
                break
            f = self._widen(f, parts)
            got = self._take(f, parts)
            if got is None:
                continue
            b, ids = got
            if self.expanded > lim.max_states:
                return self._stop("states", f >> DICE_BITS)
            if lim.max_seconds is not None and _time.monotonic() - self.started > lim.max_seconds:
                return self._stop("time", f >> DICE_BITS)
            cap = caps.exceeded()  # the analysis's caps (engine.budget)
            if cap is not None:
                return self._stop(cap, f >> DICE_BITS)
            self._expand(b, ids)
        self._settle(BIG)
        for g in self.open:
            if self.beyond:
                self.results[g] = TravelResult(g, "beyond", horizon=float(self.p.max_turns))
            else:
                self.results[g] = TravelResult(g, "unreachable")
        return self.results

    def _widen(self, f: int, parts: list[tuple[int, Batch]]) -> int:
        """Take the next buckets with ``parts`` while the batch is small (fewer than
        ``widen[0]`` states; time bound at most ``widen[1]`` units above ``f``'s, and within
        ``f``'s own time bound at most :data:`WIDEN_DICE` dice above it): one iteration's fixed
        cost (tens of numpy calls) then serves several small buckets.  Still exact: a state taken
        before one with a smaller key that reaches its key with a better label is re-opened when
        that one arrives (:meth:`_fresh`), and a goal is settled only by a popped key above its
        label, when every smaller key has been taken.  Only the choice among equally good plans
        may differ.  The key of the last bucket taken."""
        n = sum(len(p) for _, p in parts)
        heap, tb = self.heap, f >> DICE_BITS
        most, span = self.widen
        while (n < most and heap and (heap[0] >> DICE_BITS) - tb <= span
               and ((heap[0] >> DICE_BITS) != tb or heap[0] - f <= WIDEN_DICE)
               and (not self.reserve or self.reserve.least > heap[0])):
            f = heapq.heappop(heap)
            more = self.buckets.pop(f)
            parts.extend(more)
            n += sum(len(p) for _, p in more)
        return f

    def _take(self, f: int, parts: list[tuple[int, Batch]]) -> tuple[Batch, IntArray] | None:
        """The states of bucket ``f`` to expand now (collision-free, at their true dice, better
        than any seen with their key), stored and offered to the goals; with their ids."""
        current = [part for v, part in parts if v == self.version]
        old = [part for v, part in parts if v != self.version]
        if old:
            # goals closed since these were queued: their bound may have risen (lazy re-keying)
            stale = Batch.concat(old)
            nf = self.packed(stale, self._f(stale))
            later = nf > f
            if later.any():
                self._push(stale.take(np.flatnonzero(later)))
            current.append(stale.take(np.flatnonzero(~later)))
        batch = Batch.concat(current)
        if len(batch) == 0:
            return None
        ready, requeue = self._check(batch)
        if requeue is not None:
            self._push(requeue)
        if ready is None:
            return None
        b = self._fresh(ready)
        if b is None:
            return None
        ids = np.arange(self.stored, self.stored + len(b))
        self.store.append(b)
        self.stored += len(b)
        self.expanded += len(b)
        self._goals(b, ids)
        return b, ids

    def _settle(self, f: int) -> bool:
        """Settle the goals touched with a (time, dice) below the bucket key ``f`` (every
        state with a smaller key is done); whether any was."""
        done = [g for g, (label, _) in self.pending.items() if (label >> DICE_BITS) < f]
        if not done:
            return False
        for g in done:
            self.results[g] = travel_result(self.store, self.p.maneuvers, g, self.pending.pop(g)[1])
        self.open = [g for g in self.open if g not in done]
        if self.open:
            self._heuristic_tables()
            self.version += 1
        return True

    def _improves(self, keys: IntArray, label: IntArray) -> npt.NDArray[np.bool_]:
        """Whether each (key, label) beats every state expanded with that key so far."""
        kern = kernels.current()
        if kern is not None:
            t = self.closed
            held = kern["table_get"](t.keys, t.times, keys, 65 - len(t.keys).bit_length())
        else:
            held = self.closed.get(keys)
        out: npt.NDArray[np.bool_] = (held < 0) | (label < held)
        return out

    def undominated(self, b: Batch) -> Batch:
        """The states of ``b`` that no state expanded since they were queued beats (the search
        would drop the others when it takes them, after testing them for collisions)."""
        keep = self._improves(self._keys(b), self._label(b))
        return b if keep.all() else b.take(np.flatnonzero(keep))

    @staticmethod
    def _label(b: Batch) -> IntArray:
        cap = (1 << DICE_BITS) - 1
        out: IntArray = (b.time << (2 * DICE_BITS)) | (np.minimum(b.dice, cap) << DICE_BITS) | np.minimum(b.hard, cap)
        return out

    def _fresh(self, b: Batch) -> Batch | None:
        """The states of ``b`` that improve on every state with the same key seen so far (one
        per key, the least (time, dice, hard)); records them.  With a consistent bound a key is
        settled the first time; re-opening keeps the search exact otherwise."""
        keys = self._keys(b)
        label = self._label(b)
        order = np.lexsort((label, keys))
        keys, label = keys[order], label[order]
        first = np.concatenate([[True], keys[1:] != keys[:-1]])
        order, keys, label = order[first], keys[first], label[first]
        better = self._improves(keys, label)
        if not better.any():
            return None
        self.closed.admit(keys[better], label[better])
        return b.take(order[better])

    def _stop(self, why: str, f: int) -> dict[Goal, TravelResult]:
        self._settle(f << DICE_BITS)
        for g in self.open:
            self.results[g] = TravelResult(g, "undecided", horizon=f / UNITS, undecided=why)
        self.open = []
        return self.results

    def _goals(self, b: Batch, ids: IntArray) -> None:
        """Record the best touching state per open goal (settled later by :meth:`_settle`)."""
        if not self.collect:
            return
        eligible = (b.k > 0) | (b.parent < 0)
        if self.need_any is not None:
            eligible &= self.need_any[self.p.distances.node(b.x, b.y)] == 0  # no goal within reach otherwise
        if not eligible.any():
            return
        sel = np.flatnonzero(eligible)
        b, ids = b.take(sel), ids[sel]
        eligible = eligible[sel]
        corners = self.p.geometry.rectangles(b.x, b.y, b.h)
        label = self._label(b)
        for g in self.open:
            hit = np.flatnonzero(eligible & self.shapes[g].touched_by(corners))
            if len(hit):
                k = int(hit[np.argmin(label[hit])])
                cand = (int(label[k]), int(ids[k]))
                if g not in self.pending or cand[0] < self.pending[g][0]:
                    self.pending[g] = cand

    # resuming a kept search (engine.carwars.kept) -------------------------------------------------
    def resume(self, shapes: dict[Goal, GoalShape]) -> dict[Goal, TravelResult]:
        """Answer ``shapes`` with this finished (or stopped) search (same planner and source):
        its expanded states are looked up, its frontier searched on under the new goals' bound
        (:mod:`engine.carwars.kept`)."""
        self.started = _time.monotonic()
        self.widen = RESUME_WIDEN
        self._rekey(shapes)
        self.store = _tiers(self.store)
        at = 0
        for part in self.store:  # the expanded states touching a new goal are its first candidates
            self._goals(part, np.arange(at, at + len(part)))
            at += len(part)
        return self.run()

    def _rekey(self, shapes: dict[Goal, GoalShape]) -> None:
        """Every waiting state keyed again under the bound of ``shapes`` (the open goals now), in
        one pass; the queue gets them as the search comes to their keys (:class:`Reserve`: the
        states the last run left queued or cut off join the ones still waiting there)."""
        self.shapes = dict(shapes)
        self.open = list(shapes)
        self.results, self.pending = {}, {}
        self.beyond = False
        self.prove_untouchable()
        self._heuristic_tables()
        self.version += 1
        left = [p for parts in self.buckets.values() for _, p in parts] + self.pruned
        self.buckets.clear()
        self.heap.clear()
        self.pruned = []
        if self.reserve is None:
            self.reserve = Reserve()
        if left:
            b = Batch.concat(left)
            self.reserve.add(b, self.prep(b))
        self.reserve.keys(self.floor_keys, self.exact_keys)

    def _release(self) -> None:
        """Queue the reserve's states that may come next: until the queue's least key is below
        every key there.  When every open goal has a candidate, all states that could beat the
        worst candidate go at once (the search takes each of them before it settles that goal);
        otherwise about the next :data:`engine.carwars.reserve.CHUNK` states."""
        reserve = self.reserve
        assert reserve is not None
        while len(reserve) and (not self.heap or self.heap[0] >= reserve.least):
            if self.open and all(g in self.pending for g in self.open):
                upto = max(self.pending[g][0] >> DICE_BITS for g in self.open)
            else:
                upto = reserve.chunk()
            for part in reserve.take(max(upto, reserve.least)):
                self._push(self.undominated(part))

    def exact_keys(self, b: Batch, prep: Prep) -> IntArray:
        """Each state's bucket key under the open goals (its bound and dice, as the queue keys
        it), or :data:`~engine.carwars.reserve.NEVER` for one the bound cuts off (beyond the
        horizon: the search is marked ``beyond``)."""
        f = self._f(b, prep)
        live = f < BIG
        horizon = self.p.max_turns * UNITS
        if (live & (f > horizon)).any():
            self.beyond = True
        packed = self.packed(b, f)
        packed[~(live & (f <= horizon))] = NEVER
        return packed

    def floor_keys(self, b: Batch, prep: Prep) -> IntArray:
        """A lower bound on each state's :meth:`exact_keys` that costs a few array operations.
        Each movement point still needed takes at least 1/``MAX_SPEED`` of a turn, so the time
        bound is at least the state's time plus ``UNITS // MAX_SPEED`` per point of the least
        points to any open goal: the bound of :meth:`_f` is never below it (forward needs no
        fewer points than any way, and ``n`` points from any speed, in this turn or later ones,
        take at least ``n`` such steps - ``UNITS`` is a multiple of every speed).
        :data:`~engine.carwars.reserve.NEVER` for a state no open goal is within reach of or
        whose floor passes the horizon.  (The any-way time bound itself, tighter, sends about
        40 % fewer states to :meth:`exact_keys` but costs more over the whole reserve than it
        saves: measured, 11 % more CPU a drag.)"""
        if not self.open or self.need_any is None:
            return np.full(len(b), NEVER, dtype=np.int64)
        need = self.need_any[prep[0]].astype(np.int64)
        f = b.time + need * (UNITS // MAX_SPEED)
        cut = need >= (1 << 30)
        over = ~cut & (f > self.p.max_turns * UNITS)
        if over.any():
            self.beyond = True
        out: IntArray = (f << DICE_BITS) | np.minimum(b.dice, (1 << DICE_BITS) - 1)
        out[cut | over] = NEVER
        return out

    # expansion ---------------------------------------------------------------------------------
    def _expand(self, b: Batch, ids: IntArray) -> None:
        p = self.p
        pts = state_points(b.s)
        complete = b.k >= pts
        children: list[Batch] = []
        c = np.flatnonzero(complete)
        if len(c):
            # every speed choice of every state that finished its turn (4A. Adjust Speed)
            first, count, new_speed, hard = p.speed_options
            sidx = b.s[c] + 1
            n_opt = count[sidx]
            rows = np.repeat(c, n_opt)
            opt = np.repeat(first[sidx] - np.cumsum(n_opt) + n_opt, n_opt) + np.arange(int(n_opt.sum()))
            sp, hd = new_speed[opt], hard[opt]
            nt = b.t[rows] + 1
            children.append(Batch(
                x=b.x[rows], y=b.y[rows], h=b.h[rows], s=sp, k=np.zeros(len(rows), dtype=np.int64), t=nt,
                time=(nt - np.where(sp == 0, 0, 1)) * UNITS, dice=b.dice[rows], hard=b.hard[rows] + hd,
                parent=ids[rows], move=SPEED_MOVE + sp + 1 + HARD_FLAG * hd, pdice=np.zeros(len(rows), dtype=np.int64),
                px=b.x[rows], py=b.y[rows], ph=b.h[rows], checked=np.ones(len(rows), dtype=np.int64)))
        mv = np.flatnonzero(~complete)
        if len(mv):
            children.extend(self._moves(b.take(mv), ids[mv]))
        if children:
            self._push(Batch.concat(children))

    def _moves(self, b: Batch, ids: IntArray) -> list[Batch]:
        """Every maneuver from every moving state at once: new poses, the maneuver's dice, and
        merging with closed states.  The collision test and the terrain and hazard dice wait
        until a state is taken from the queue (:meth:`_check`): most are never taken."""
        p = self.p
        n, mm = len(b), len(p.maneuvers)
        a = np.radians(b.h)
        c, s = np.cos(a)[:, None], np.sin(a)[:, None]
        rev = b.s == REVERSE
        sign = np.where(rev, -1.0, 1.0)[:, None]
        nx = (b.x[:, None] + sign * (p.dx[None, :] * c - p.dy[None, :] * s)).ravel()
        ny = (b.y[:, None] + sign * (p.dx[None, :] * s + p.dy[None, :] * c)).ravel()
        nh = np.mod(b.h[:, None] + p.dh[None, :], 360.0).ravel()
        nh = np.where(nh >= 360.0 - 1e-9, 0.0, nh)
        row = np.repeat(np.arange(n), mm)
        mi = np.tile(np.arange(mm), n)
        pts = state_points(b.s)[row]
        roll = np.where(b.s == REVERSE, 1, b.s)[row]
        pd = np.where(p.is_man[mi], roll + p.zdice[mi], 0)
        child = Batch(x=nx, y=ny, h=nh, s=b.s[row], k=b.k[row] + 1, t=b.t[row],
                       time=(b.t[row] - 1) * UNITS + (b.k[row] + 1) * UNITS // pts, dice=b.dice[row] + pd,
                       hard=b.hard[row], parent=ids[row], move=mi, pdice=pd, px=b.x[row], py=b.y[row], ph=b.h[row],
                       checked=np.zeros(n * mm, dtype=bool))
        keep = self._improves(self._keys(child), self._label(child))
        sel = np.flatnonzero(keep)
        if len(sel) == 0:
            return []
        return [child.take(sel)]

    def _check(self, b: Batch) -> tuple[Batch | None, Batch | None]:
        """Settle the deferred work of the unchecked states of ``b``: drop those whose point
        collides, add the terrain and hazard dice.  Returns (ready, requeue): states whose dice
        grew go back to the queue under their true key."""
        todo = b.checked == 0
        if not todo.any():
            return b, None
        p = self.p
        g = p.geometry
        idx = np.flatnonzero(todo)
        u = b.take(idx)
        ok = g.free_batch(u.px, u.py, u.ph, u.move, u.s == REVERSE, p.maneuvers)
        u = u.take(np.flatnonzero(ok))
        extra = g.terrain_levels(u.x, u.y, u.h) + g.hazard_dice(u.x, u.y, u.h)
        u.set("pdice", u.pdice + extra)
        u.set("dice", u.dice + extra)
        u.set("checked", 1)
        done = b.take(np.flatnonzero(b.checked != 0))
        now = u.take(np.flatnonzero(extra == 0))
        later = u.take(np.flatnonzero(extra > 0))
        ready = Batch.concat([done, now]) if len(done) else now
        return (ready if len(ready) else None), (later if len(later) else None)
