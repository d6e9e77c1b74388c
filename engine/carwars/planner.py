"""The Car Wars travel planner: the least time from a source to goals, with the driving-roll
dice rolled on the way, under a policy:

* ``flat-out``: every maneuver (slides, turns through D1-D4) and hard acceleration / braking;
* ``safe``: only low-risk moves (straight, slight turns) and speed changes of 1, so the only
  dice are those of the terrain and hazards the car drives over.

Plans minimise, in order, the time (turns; a goal reached at point ``k`` of turn ``t`` at speed
``s`` takes ``t - 1 + k/s``, so the fewest turns first), the dice rolled on the way, and the hard
speed changes.  Plans never collide (collisions are checked continuously along every point).
The search is an exact A* over (pose, speed, points moved this turn) with a consistent lower
bound (:mod:`engine.carwars.heuristic`); states are merged only when their positions agree
within ``quantum`` inches (headings are exact: a source heading plus multiples of the zone
angle).  Every search is bounded (:class:`SearchLimits`, ``max_turns``) and answers
``undecided`` or ``beyond`` rather than running away.

>>> from schema.games.carwars import default_arena
>>> r = Planner(default_arena()).plan(StartSource(1), Goal("centre"))
>>> r.status, r.turns, r.points, r.speed, r.time, r.dice, r.hard   # hard acceleration to 4, then 5
('reached', 2, 1, 5, 1.2, 0, 1)
"""

from __future__ import annotations

import heapq
import time as _time
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np
import numpy.typing as npt

from engine.carwars.batch import DICE_BITS, HARD_FLAG, SPEED_MOVE, _BIG, _Batch, _points
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.heuristic import Distances, ForwardRows, GoalShape, Int32Array, IntArray, TimeBound
from engine.carwars.motion import Pose, local_end, normalize
from engine.carwars.paths import travel_result
from engine.carwars.rules import (
    MAX_SPEED,
    REVERSE,
    START_SPEED,
    Policy,
    generate_maneuvers,
    generate_speed_changes,
    heading_step,
    zone_dice,
)
from engine.carwars.travel import (
    UNITS,
    Goal,
    PlanningError,
    PoseSource,
    SearchLimits,
    SearchStopped,
    Source,
    StartSource,
    TravelResult,
)
from engine.keytable import KeyTable
from schema.games.carwars import CarWarsArena

if TYPE_CHECKING:  # pragma: no cover
    from engine.carwars.reserve import Reserve

#: A search iteration takes buckets of the same time bound together while it holds fewer states
#: than this, up to this many dice above the first (:meth:`_Search._widen`): measured on the
#: shipped four-player arena, a card drag's resumed searches take about 30 % less CPU.
WIDEN_STATES = 64
WIDEN_DICE = 16


class Planner:
    """Plans travel on one arena for one policy; reusable for many sources and goals.

    ``max_speed``: the car's top speed (5 undamaged); ``steps_per_zone``: pivot angles tried per
    turning-key zone; ``reverse``: allow driving in reverse at speed 0; ``max_turns``: the
    horizon (default the scenario's); ``quantum``: position tolerance for merging states."""

    def __init__(self, arena: CarWarsArena, policy: Policy = "flat-out", *, geometry: CarWarsGeometry | None = None,
                 max_speed: int = MAX_SPEED, steps_per_zone: int = 1, reverse: bool = True,
                 max_turns: int | None = None, limits: SearchLimits = SearchLimits(), quantum: float = 1e-3) -> None:
        if policy not in ("safe", "flat-out"):
            raise PlanningError(f"policy is 'safe' or 'flat-out', not {policy!r}")
        self.arena = arena
        self.policy: Policy = policy
        self.geometry = geometry if geometry is not None else CarWarsGeometry(arena)
        self.max_speed = max(1, min(MAX_SPEED, max_speed))
        self.reverse = reverse
        self.max_turns = max_turns if max_turns is not None else arena.scenario.analysis.max_turns
        self.limits = limits
        self.quantum = quantum
        self.maneuvers = generate_maneuvers(arena.turning_key, policy, steps_per_zone)
        self.step = heading_step(self.maneuvers)
        self.headings = max(1, round(360.0 / self.step))
        v, key = arena.vehicle, arena.turning_key
        ends = [local_end(m, v, key) for m in self.maneuvers]
        self.dx = np.array([e[0] for e in ends])
        self.dy = np.array([e[1] for e in ends])
        self.dh = np.array([e[2] for e in ends])
        self.is_man = np.array([m.is_maneuver for m in self.maneuvers])
        self.zdice = np.array([zone_dice(m.zone, key) if m.kind == "turn" else 0 for m in self.maneuvers], dtype=np.int64)
        self.bound = TimeBound(self.max_speed, 2 if policy == "flat-out" else 1)
        opts = [generate_speed_changes(sp, policy, self.max_speed, reverse) for sp in range(REVERSE, MAX_SPEED + 1)]
        count = np.array([len(o) for o in opts], dtype=np.int64)
        self.speed_options = (np.concatenate([[0], np.cumsum(count)[:-1]]), count,
                              np.array([c.speed for o in opts for c in o], dtype=np.int64),
                              np.array([int(c.hard) for o in opts for c in o], dtype=np.int64))
        self.distances = Distances(self.geometry, self.maneuvers)
        minx, miny, maxx, maxy = self.geometry.bounds.bounds
        if max(maxx - minx, maxy - miny) / quantum >= (1 << 20):
            raise PlanningError("the arena is too large for the planner's position grid")
        self.x0, self.y0 = minx - 10.0, miny - 10.0

    # -- goals and sources ----------------------------------------------------------------------
    def goals(self) -> list[Goal]:
        """Every goal of the arena: the numbered cards, the centre, the starts."""
        return ([Goal("card", c.id) for c in self.arena.cards] + [Goal("centre")]
                + [Goal("start", s.id) for s in self.arena.start_positions])

    def goal_shape(self, goal: Goal) -> GoalShape:
        a = self.arena
        if goal.kind == "card":
            try:
                c = a.card(goal.id)
            except KeyError:
                raise PlanningError(f"the arena has no card {goal.id!r}") from None
            return GoalShape(c.position[0], c.position[1], c.size[0] / 2.0, c.size[1] / 2.0, c.rotation)
        if goal.kind == "centre":
            cx, cy = a.centre()
            return GoalShape(cx, cy, 0.0, 0.0)
        for s in a.start_positions:
            if s.id == goal.id:
                return GoalShape(s.position[0], s.position[1], a.vehicle.length / 2.0, a.vehicle.width / 2.0, s.facing)
        raise PlanningError(f"the arena has no start {goal.id!r}")

    def source_state(self, source: Source) -> tuple[Pose, int]:
        if isinstance(source, StartSource):
            try:
                st = self.arena.start(source.player)
            except KeyError:
                raise PlanningError(f"the arena has no start:{source.player}") from None
            pose, speed = Pose(st.position[0], st.position[1], normalize(st.facing)), START_SPEED
        else:
            pose, speed = Pose(source.pose.x, source.pose.y, normalize(source.pose.heading)), source.speed
        if not -1 <= speed <= self.max_speed:
            raise PlanningError(f"speed {speed} is outside -1..{self.max_speed}")
        from engine.carwars.motion import car_outline

        hit = self.geometry.overlaps_blockers(car_outline(pose, self.arena.vehicle))
        if hit:
            raise PlanningError(f"the car at the source overlaps {', '.join(hit)}")
        return pose, speed

    # -- the search ------------------------------------------------------------------------------
    def plan(self, source: Source, goal: Goal) -> TravelResult:
        return self.plan_many(source, [goal])[goal]

    def plan_many(self, source: Source, goals: Sequence[Goal]) -> dict[Goal, TravelResult]:
        """One search answering every goal in ``goals``."""
        pose, speed = self.source_state(source)
        shapes = {g: self.goal_shape(g) for g in goals}
        return _Search(self, pose, speed, shapes).run()


class _Search:
    def __init__(self, p: Planner, pose: Pose, speed: int, shapes: dict[Goal, GoalShape],
                 quantum: float | None = None, keep: bool = False) -> None:
        self.p = p
        #: Whether the states the bound cuts off are kept (:mod:`engine.carwars.kept` resumes the
        #: search for other goals, under whose bound they may be live again).
        self.keep = keep
        #: Whether a goal's forward table is filled row by row as the search reads it (a resumed
        #: search reads few rows, :class:`~engine.carwars.heuristic.ForwardRows`).
        self.lazy = keep
        self.pruned: list[_Batch] = []
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
        self.store: list[_Batch] = []
        self.stored = 0
        self.buckets: dict[int, list[tuple[int, _Batch]]] = {}
        self.heap: list[int] = []
        self.beyond = False
        self.expanded = 0
        self.started = _time.monotonic()
        self.version = 0  # bumped when the open goals change: parts queued before may need a new bound
        self.need_fwd: Int32Array | ForwardRows | None = None
        self.need_any: Int32Array | None = None
        self.cols: IntArray = np.arange(p.headings)  # need_fwd's column of each heading index
        self.prove_untouchable()
        if self.open:
            self._heuristic_tables()
        pts = 1 if speed == REVERSE else speed
        src = _Batch(x=np.array([pose.x]), y=np.array([pose.y]), h=np.array([pose.heading]),
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
    def _keys(self, b: _Batch) -> IntArray:
        p = self.p
        xi = np.rint((b.x - p.x0) / self.quantum).astype(np.int64)
        yi = np.rint((b.y - p.y0) / self.quantum).astype(np.int64)
        hi = np.rint((b.h - self.base) / p.step).astype(np.int64) % p.headings
        out: IntArray = ((((xi << 21) | yi) << 10 | hi) << 3 | (b.s + 1)) << 3 | b.k
        return out

    def _heuristic_tables(self) -> None:
        """The least points to any open goal per grid node (and heading index)."""
        p = self.p
        headings = np.mod(self.base + p.step * np.arange(p.headings), 360.0)
        fwd: Int32Array | ForwardRows | None = None
        any_: Int32Array | None = None
        for g in self.open:  # the columns are the same for every goal: the same headings
            tf, ta, self.cols = p.distances.tables(self.shapes[g], headings)
            if fwd is None:  # a resumed search's one goal: the rows it reads (a cold one reads most)
                fwd = tf if self.lazy and len(self.open) == 1 else tf.full()
            else:
                fwd = np.minimum(fwd if isinstance(fwd, np.ndarray) else fwd.full(), tf.full())
            any_ = ta if any_ is None else np.minimum(any_, ta)
        self.need_fwd, self.need_any = fwd, any_

    def prep(self, b: _Batch) -> tuple[IntArray, IntArray]:
        """The goal-independent parts of each state's bound: its grid node and heading index
        (a resumed search's waiting states keep them, :mod:`engine.carwars.reserve`)."""
        p = self.p
        hi: IntArray = np.rint((b.h - self.base) / p.step).astype(np.int64) % p.headings
        return p.distances.node(b.x, b.y), hi

    def _f(self, b: _Batch, prep: tuple[IntArray, IntArray] | None = None) -> IntArray:
        """A* priority: a lower bound on the time (1/60 turns) at which an open goal is touched.
        The least of: driving forward only (the heading-aware bound), or reversing at some
        point (not before the slider can reach 0: "Speed 0 means either stopped or in
        reverse").  The time bound grows with the points, so the least over the goals is the
        bound of the least points, tabulated per grid node (:meth:`Distances.tables`)."""
        p = self.p
        if not self.open or self.need_any is None or self.need_fwd is None:
            return np.full(len(b), _BIG, dtype=np.int64)
        pts = _points(b.s)
        rem = pts - b.k
        sl = np.maximum(b.s, 0)
        node, hi = self.prep(b) if prep is None else prep
        need_any = self.need_any[node].astype(np.int64)
        f = self._bound(b, self.need_fwd[node, self.cols[hi]].astype(np.int64), pts, rem, sl)
        if p.reverse:
            wait = np.maximum(1, -(-sl // p.bound.step))
            rev_start = np.where((b.s == REVERSE) & (b.k == 0), b.time, (b.t + wait - 1) * UNITS)
            f = np.minimum(f, np.maximum(rev_start, self._bound(b, need_any, pts, rem, sl)))
        out: IntArray = np.where(need_any >= (1 << 30), _BIG, f)
        return out

    def _bound(self, b: _Batch, need: IntArray, pts: IntArray, rem: IntArray, sl: IntArray) -> IntArray:
        within = (need <= rem) & (pts > 0)
        now = np.where(within, (b.t - 1) * UNITS + (b.k + need) * UNITS // np.maximum(pts, 1), 0)
        later = b.t * UNITS + self.p.bound.units(sl, np.maximum(need - rem, 0))
        out: IntArray = np.where(need == 0, b.time, np.where(within, now, later))
        return out

    def bounded(self, b: _Batch) -> tuple[_Batch, IntArray]:
        """The states of ``b`` the bound keeps (a goal is still within reach and the horizon),
        with their bucket keys; the others are kept apart (with ``keep``) or dropped."""
        f = self._f(b)
        live = f < _BIG
        horizon = self.p.max_turns * UNITS
        if (live & (f > horizon)).any():
            self.beyond = True
        keep = live & (f <= horizon)
        if not keep.all():
            if self.keep:
                self.pruned.append(b.take(np.flatnonzero(~keep)))
            b, f = b.take(np.flatnonzero(keep)), f[keep]
        packed: IntArray = (f << DICE_BITS) | np.minimum(b.dice, (1 << DICE_BITS) - 1)
        return b, packed

    def _push(self, b: _Batch) -> None:
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
                self.reserve.release(self)
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
            self._expand(b, ids)
        self._settle(_BIG)
        for g in self.open:
            if self.beyond:
                self.results[g] = TravelResult(g, "beyond", horizon=float(self.p.max_turns))
            else:
                self.results[g] = TravelResult(g, "unreachable")
        return self.results

    def _widen(self, f: int, parts: list[tuple[int, _Batch]]) -> int:
        """Take the next buckets of the same time bound with ``parts`` while the batch is
        small (fewer than :data:`WIDEN_STATES` states, dice at most :data:`WIDEN_DICE` above
        ``f``'s): one iteration's fixed cost (tens of numpy calls) then serves several small
        buckets.  Still exact: a state taken before one of fewer dice that reaches its key is
        re-opened when that one arrives (:meth:`_fresh`), and no goal is settled before the
        widest key taken.  Only the choice among equally good plans may differ.  The key of
        the last bucket taken."""
        n = sum(len(p) for _, p in parts)
        heap, tb = self.heap, f >> DICE_BITS
        while (n < WIDEN_STATES and heap and heap[0] >> DICE_BITS == tb and heap[0] - f <= WIDEN_DICE
               and (not self.reserve or self.reserve.least > heap[0])):
            f = heapq.heappop(heap)
            more = self.buckets.pop(f)
            parts.extend(more)
            n += sum(len(p) for _, p in more)
        return f

    def _take(self, f: int, parts: list[tuple[int, _Batch]]) -> tuple[_Batch, IntArray] | None:
        """The states of bucket ``f`` to expand now (collision-free, at their true dice, better
        than any seen with their key), stored and offered to the goals; with their ids."""
        current = [part for v, part in parts if v == self.version]
        old = [part for v, part in parts if v != self.version]
        if old:
            # goals closed since these were queued: their bound may have risen (lazy re-keying)
            stale = _Batch.concat(old)
            nf = (self._f(stale) << DICE_BITS) | np.minimum(stale.dice, (1 << DICE_BITS) - 1)
            later = nf > f
            if later.any():
                self._push(stale.take(np.flatnonzero(later)))
            current.append(stale.take(np.flatnonzero(~later)))
        batch = _Batch.concat(current)
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
        held = self.closed.get(keys)
        out: npt.NDArray[np.bool_] = (held < 0) | (label < held)
        return out

    def undominated(self, b: _Batch) -> _Batch:
        """The states of ``b`` that no state expanded since they were queued beats (the search
        would drop the others when it takes them, after testing them for collisions)."""
        keep = self._improves(self._keys(b), self._label(b))
        return b if keep.all() else b.take(np.flatnonzero(keep))

    @staticmethod
    def _label(b: _Batch) -> IntArray:
        cap = (1 << DICE_BITS) - 1
        out: IntArray = (b.time << (2 * DICE_BITS)) | (np.minimum(b.dice, cap) << DICE_BITS) | np.minimum(b.hard, cap)
        return out

    def _fresh(self, b: _Batch) -> _Batch | None:
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

    def _goals(self, b: _Batch, ids: IntArray) -> None:
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

    # expansion ---------------------------------------------------------------------------------
    def _expand(self, b: _Batch, ids: IntArray) -> None:
        p = self.p
        pts = _points(b.s)
        complete = b.k >= pts
        children: list[_Batch] = []
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
            children.append(_Batch(
                x=b.x[rows], y=b.y[rows], h=b.h[rows], s=sp, k=np.zeros(len(rows), dtype=np.int64), t=nt,
                time=(nt - np.where(sp == 0, 0, 1)) * UNITS, dice=b.dice[rows], hard=b.hard[rows] + hd,
                parent=ids[rows], move=SPEED_MOVE + sp + 1 + HARD_FLAG * hd, pdice=np.zeros(len(rows), dtype=np.int64),
                px=b.x[rows], py=b.y[rows], ph=b.h[rows], checked=np.ones(len(rows), dtype=np.int64)))
        mv = np.flatnonzero(~complete)
        if len(mv):
            children.extend(self._moves(b.take(mv), ids[mv]))
        if children:
            self._push(_Batch.concat(children))

    def _moves(self, b: _Batch, ids: IntArray) -> list[_Batch]:
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
        pts = _points(b.s)[row]
        roll = np.where(b.s == REVERSE, 1, b.s)[row]
        pd = np.where(p.is_man[mi], roll + p.zdice[mi], 0)
        child = _Batch(x=nx, y=ny, h=nh, s=b.s[row], k=b.k[row] + 1, t=b.t[row],
                       time=(b.t[row] - 1) * UNITS + (b.k[row] + 1) * UNITS // pts, dice=b.dice[row] + pd,
                       hard=b.hard[row], parent=ids[row], move=mi, pdice=pd, px=b.x[row], py=b.y[row], ph=b.h[row],
                       checked=np.zeros(n * mm, dtype=bool))
        keep = self._improves(self._keys(child), self._label(child))
        sel = np.flatnonzero(keep)
        if len(sel) == 0:
            return []
        return [child.take(sel)]

    def _check(self, b: _Batch) -> tuple[_Batch | None, _Batch | None]:
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
        ready = _Batch.concat([done, now]) if len(done) else now
        return (ready if len(ready) else None), (later if len(later) else None)


def plan(arena: CarWarsArena, source: Source, goal: Goal, policy: Policy = "flat-out", **params: object) -> TravelResult:
    """The least-time plan from ``source`` to ``goal`` (see :class:`Planner` for ``params``)."""
    return Planner(arena, policy, **params).plan(source, goal)  # type: ignore[arg-type]


def plan_many(arena: CarWarsArena, source: Source, goals: Sequence[Goal], policy: Policy = "flat-out",
              **params: object) -> dict[Goal, TravelResult]:
    return Planner(arena, policy, **params).plan_many(source, goals)  # type: ignore[arg-type]


__all__ = ["Goal", "Planner", "PoseSource", "SearchLimits", "StartSource", "TravelResult", "plan", "plan_many"]
