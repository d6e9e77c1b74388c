"""The time-only travel search, vectorised: A* that expands a whole f-bucket of states at once.

Same model, same states and same answers as the planner's one-node-at-a-time search in
``minimise="time"`` mode (:mod:`engine.gravstrike.planner`), but every step - moving, the end-of-length
checks against the per-heading configuration space, field pushes, goal tests, deduplication,
the distance/speed-ramp bound - runs on numpy arrays of thousands of states.  Times are integers
(1/``scale`` turn), so A*'s open list is a row of buckets, one per f value; all states of the
lowest bucket are expanded together.  A goal reached at time T is final once the search reaches
bucket T: every state that could still reach it sooner has a smaller f (the bound is admissible).

A state's heading is its *direction of travel* (``hk``) and its speed the absolute speed
(``s``), with a flag (``rev``) for travelling in reverse: a turbine going backwards at heading h
moves exactly like one going forwards at h + 180 (its footprint is centrally symmetric, rule
"About Traveling in Reverse"), so the two share every successor but the speed changes through 0
("Going From Forward to Reverse": |new - old| within the Speed Delta), which turn the direction
of travel round.  At speed 0 the two directions are one state.

Deduplication merges states whose positions round to the same ``quantum`` cell (as the scalar
planner does).  The best time of every key lives in one dense array (and a state is also
dropped when a state with fewer icons spent this turn got there as soon); on big arenas that
array is allocated a page at a time where the search goes (:class:`engine.keytable.PagedTable`:
the same states kept, so the same answers, at any size up to ``PAGED_LIMIT`` keys).  States a
field pushed this turn, and every state at fine tolerances (0.01: few keys per page), are keyed
in a hash table (:class:`engine.keytable.KeyTable`).

:class:`FrontierSearch` is used through :class:`engine.gravstrike.planner.Planner` (``minimise="time"``,
``plan_from`` and ``reach_times``); :func:`supported` says when it applies.

>>> from schema.games.gravstrike.model import Arena, Circle, Checkpoint, Rect, StartPosition
>>> from engine.gravstrike.planner import Goal, Planner, StartSource
>>> arena = Arena(name="t", bounds=Rect((0.0, 0.0), (20.0, 8.0)),
...               checkpoints=(Checkpoint("A", "outlying", Circle((6.0, 0.0), 0.5)),),
...               start_positions=(StartPosition(1, (-8.0, 0.0), 0.0),))
>>> r = Planner(arena, minimise="time").plan(StartSource(1), Goal("checkpoint", "A"))
>>> r.turns, r.lengths, round(r.time, 3)     # speeds 2, 4, 6 then one length at 6
(4, 1, 3.167)
"""

from __future__ import annotations

__all__ = ["BoundTable", "FrontierSearch", "HeadingLattice", "SearchLimited", "SearchStopped", "supported"]

import math
import time as _time
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from engine import budget as caps
from engine.keytable import KeyTable, PagedTable
from engine.gravstrike import kernels
from engine.gravstrike.frontier_expand import canonical, expand
from engine.gravstrike.frontier_paths import StateStore, travel_result
from engine.gravstrike.frontier_resume import compact, release, resume
from engine.gravstrike.lattice import BOUND_STEP, BoundTable, HeadingLattice, supported
from engine.gravstrike.motion import Pose
from engine.gravstrike.reach import proven_unreachable
from engine.gravstrike.travel_types import UNBOUNDED, Goal, SearchLimits, TravelResult

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.planner import Planner

#: Largest key table (entries) allocated whole; larger ones (big arenas, fine tolerances) are
#: allocated a page at a time where the search goes (:class:`engine.keytable.PagedTable`).
DENSE_LIMIT = 16_000_000
#: Entries a page of a paged key table holds (as a power of two): 2**12, a run of 4096 positions
#: of one (heading, slot) plane - about 20 rows of a 48-length table (see ``plane``).  With the
#: planes laid out this way, a 48-length table's searches claim 34-43 MB of pages (41-49 MB with
#: 2**14 entries of position-major keys) and run 9 % faster: a parent's children read nearby entries.
PAGE_BITS = 12
#: Largest key space kept in a (paged) dense table: a 96-length table at the analysis tolerance
#: has about 1.2e8 keys.  Past it (fine tolerances: few keys per page) a hash table keys the
#: states (:class:`engine.keytable.KeyTable`, about 24 bytes a key).
PAGED_LIMIT = 1_000_000_000
#: Most states one expansion step takes, and most children it may make (their temporary arrays
#: grow with it): with many maneuvers (fine sideslips) a step takes fewer states.
STEP_STATES = 8192
STEP_CHILDREN = STEP_STATES * 35
#: Bytes a key of the dict that deduplicates fine-tolerance states holds (key tuple, ints, slot).
DICT_ENTRY_BYTES = 260


#: Bytes a search's tables may grow by at once before the analysis's memory cap is asked
#: (:func:`engine.budget.room`); smaller growths wait for the next check.
GROWTH_ASKED = 16 << 20

class SearchStopped(Exception):
    """A search's ``stop`` callback asked it to stop (a newer request superseded it)."""


class SearchLimited(Exception):
    """A search reached one of its :class:`~engine.gravstrike.travel_types.SearchLimits` (the reason)."""


def source_state(pose: Pose, speed: int) -> tuple[float, int, int]:
    """(heading of travel, absolute speed, reversing 0/1) of a source pose at a signed speed."""
    if speed < 0:
        return pose.heading + 180.0, -speed, 1
    return pose.heading, speed, 0


class FrontierSearch:
    """One vectorised A* run from ``starts`` to ``goals`` (see the module docstring)."""

    def __init__(self, planner: Planner, starts: Sequence[tuple[Pose, int]], goals: Sequence[Goal],
                 limit: int, record: tuple[float, float, float, np.ndarray] | None = None) -> None:
        p = self.p = planner
        self.starts = starts
        self.goals = list(goals)
        self.limit = limit
        self.record = record
        self.lat = p._lattice(starts[0][0].heading % 30.0)
        self.limits: SearchLimits = p.limits
        #: Why the search stopped before deciding every goal (a limit), or None.
        self.limited: str | None = None
        #: Goals answered unreachable by the proof (:mod:`engine.gravstrike.reach`), not by searching.
        self.proven: set[Goal] = set()
        self.cut = False  # states dropped at the turn limit (goals past it are "beyond", not unreachable)
        self.queued = 0  # states waiting in buckets or parked (for the memory estimate)
        self.f_now = 0  # the bucket being expanded (the bound on every open goal, in 1/scale turns)
        self.budget = p.budget
        self.scale = p.scale
        nf, ne = p.n_fields, p.n_excl
        self.field_bits = np.uint64((1 << nf) - 1)
        self.excl_bits = np.uint64(((1 << ne) - 1) << nf)
        self.push_x = np.array([p.turbine.length * math.cos(math.radians(z.direction)) for z in p.geometry.fields] + [0.0])
        self.push_y = np.array([p.turbine.length * math.sin(math.radians(z.direction)) for z in p.geometry.fields] + [0.0])
        self.goal_bit = {g: p.goal_zone[g] for g in self.goals if g in p.goal_zone}
        self.open = set(self.goals)
        self.cand: dict[Goal, tuple[int, int]] = {}  # goal -> (time, stored id of the state reaching it)
        self.results: dict[Goal, TravelResult] = {}
        #: Checked between batches: when it returns True the search raises :class:`SearchStopped`,
        #: leaving a consistent state (it can be run or resumed again later).
        self.stop: Callable[[], bool] | None = None
        spare_stores = planner._scratch.setdefault("stores", [])
        self.store = spare_stores.pop() if spare_stores else StateStore()  # (a released search's: no growing)
        self.parked: list[np.ndarray] = []
        self.low = 0  # lowest bucket pushed to since the last batch
        #: Open states set aside by :meth:`compact`, sorted by time (``reservoir_time``).
        self.reservoir = np.zeros(0, dtype=np.int64)
        self.reservoir_time = np.zeros(0, dtype=np.int64)
        self.reservoir_cell = np.zeros(0, dtype=np.int64)  # distance-map cell of each
        self.version = 0
        self.horizon: float | None = None
        self.dist: np.ndarray | None = None
        self.bound = planner._bound_table()
        self.buckets: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(self.limit + 1)]
        self._keys_setup()

    # -- keys ---------------------------------------------------------------------------------
    def _keys_setup(self) -> None:
        p = self.p
        q = p.quantum
        minx, miny, maxx, maxy = p.geometry.bounds.bounds
        self.qi0, self.qj0 = math.floor(minx / q) - 2, math.floor(miny / q) - 2
        self.nqj = math.ceil(maxy / q) - self.qj0 + 3
        nqi = math.ceil(maxx / q) - self.qi0 + 3
        #: Keys run position fastest: (heading, slot) planes of nqi x nqj positions, so a
        #: parent's children and its neighbours' read nearby entries.
        self.plane = nqi * self.nqj
        vmax = p.vmax
        self.sb = vmax + 1  # boundary slots, one per speed
        self.sd = 1 if self.budget is None else self.budget + 1  # spent this turn (irrelevant if unlimited)
        slot = np.full((vmax + 1, vmax + 1), -1, dtype=np.int64)
        n = 0
        for s in range(1, vmax + 1):
            for l in range(1, s):
                slot[s, l] = n
                n += 1
        self.slot = slot
        self.blk = self.sb + n * self.sd
        size = nqi * self.nqj * 12 * self.blk
        fits = size < (1 << (62 - self.p.n_fields))  # a key and the fields-used bits in one int64
        #: The best time of every key (states no field pushed this turn), paged on big arenas.
        self.dense = size <= PAGED_LIMIT
        dtype = np.int16 if self.limit < np.iinfo(np.int16).max else np.int32
        bits = None if size <= DENSE_LIMIT else PAGE_BITS
        spare = self.p._scratch.setdefault("tables", [])
        reuse = next((t for t in spare if t.dtype == dtype and t.size == size and t.bits == bits), None)
        if reuse is not None:
            spare.remove(reuse)
            self.best = reuse
        else:
            self.best = PagedTable(size, dtype, bits) if self.dense else PagedTable(0, dtype, None)
        #: Keys the dense table doesn't hold (states pushed by a field this turn; every state past
        #: ``PAGED_LIMIT``) with their best times.
        self.table: KeyTable | None = KeyTable() if fits else None
        self.best_dict: dict[tuple[int, int, int], int] = {}  # the last resort: keys past 62 bits

    def _admit(self, c: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Indices of the children worth keeping: better than any state with the same key (and,
        within a turn, than any with fewer icons spent there as soon); sets their keys."""
        kern = kernels.current() if self.table is not None else None
        if kern is not None:
            return kernels.admit(self, c, kern)
        q = self.p.quantum
        qi = np.round(c["x"] / q).astype(np.int64) - self.qi0
        qj = np.round(c["y"] / q).astype(np.int64) - self.qj0
        bnd = c["l"] >= c["s"]
        spent = np.zeros_like(c["spent"]) if self.budget is None else c["spent"]
        slot = np.where(bnd, c["s"], self.sb + self.slot[c["s"], np.minimum(c["l"], c["s"])] * self.sd + spent)
        time = c["time"]
        n = len(time)
        keep = np.zeros(n, dtype=bool)
        key = np.full(n, -1, dtype=np.int64)
        base = (c["hk"] * self.blk + slot) * self.plane + qi * self.nqj + qj
        used = np.where(bnd, np.uint64(0), c["used"]).astype(np.int64)  # a new turn forgets the fields
        if self.dense:
            sparse = used != 0
            dn = np.flatnonzero(~sparse)
            k = base[dn]
            tm = time[dn]
            table = self.best
            ok = table.pool[table.slots(k)] > tm
            within = np.flatnonzero(~bnd[dn] & (spent[dn] > 0))
            if len(within):
                kw, sw, tw = k[within], spent[dn][within], tm[within]
                for sp in range(1, self.sd):
                    m = sw >= sp
                    ok[within[m]] &= table.pool[table.slots(kw[m] - sp * self.plane)] > tw[m]
            cand = np.flatnonzero(ok)
            if len(cand):  # one winner per key: the earliest, the first of equals
                at, tc = table.claim(k[cand]), tm[cand].astype(table.dtype)
                np.minimum.at(table.pool, at, tc)
                best = table.pool[at] == tc
                cand, at = cand[best], at[best]
                _, first = np.unique(at, return_index=True)
                win = cand[first]
                keep[dn[win]] = True
                key[dn[win]] = at[first]  # where the key's time is kept (what _loop reads)
            todo = np.flatnonzero(sparse)
        else:
            todo = np.arange(n)
        if not len(todo):
            pass
        elif self.table is not None:
            self._reserve(0, len(todo))
            packed = (base[todo] << self.p.n_fields) | used[todo]
            keep[todo[self.table.admit(packed, time[todo])]] = True
        else:
            code = ((c["hk"][todo] * self.blk + slot[todo]) << 32) | used[todo]
            d = self.best_dict
            for i, a, b, cd, t in zip(todo.tolist(), qi[todo].tolist(), qj[todo].tolist(), code.tolist(), time[todo].tolist()):
                kk = (a, b, cd)
                old = d.get(kk)
                if old is None or old > t:
                    d[kk] = t
                    keep[i] = True
        return np.flatnonzero(keep), key

    # -- heuristic ------------------------------------------------------------------------------
    def _refresh(self) -> None:
        self.version += 1
        p = self.p
        if p.use_heuristic and self.open:
            maps = p.distance_maps(list(self.open))
            d = maps[0].array.copy()
            for m in maps[1:]:
                np.minimum(d, m.array, out=d)
            self.dist, self.dmap = d, maps[0]
        else:
            self.dist = None

    def _h(self, x: np.ndarray, y: np.ndarray, s: np.ndarray, l: np.ndarray, spent: np.ndarray) -> np.ndarray:
        if self.dist is None:
            return np.zeros(len(x), dtype=np.int64)
        m = self.dmap
        kern = kernels.current()
        if kern is not None and len(x):
            b = self.bound
            h, missing = kern["bound"](x, y, s, l, spent, self.dist, m.x0, m.y0, m.cell, m.nx, m.ny, b.rows, b.table,
                                       BOUND_STEP, -1 if b.budget is None else b.budget, UNBOUNDED)
            if not missing:
                out: np.ndarray = h
                return out
        fi = (x - m.x0) / m.cell
        fj = (y - m.y0) / m.cell
        on = (fi >= 0) & (fj >= 0) & (fi < m.nx) & (fj < m.ny)
        d = np.where(on, self.dist[np.where(on, fi.astype(np.int64) * m.ny + fj.astype(np.int64), 0)], np.inf)
        return self.bound.lookup(d, s.astype(np.int64), l.astype(np.int64), spent.astype(np.int64))

    # -- the loop -------------------------------------------------------------------------------
    def _prove(self, goals: Sequence[Goal]) -> None:
        """Answer the goals no plan can reach (:mod:`engine.gravstrike.reach`) before searching for them."""
        if not self.p.prove or self.record is not None:
            return
        proven = proven_unreachable(self.p, self.starts, [g for g in goals if g in self.open])
        self.proven |= proven
        for g in proven:
            self.results[g] = TravelResult(g, False)
            self.open.discard(g)

    def run(self) -> dict[Goal, TravelResult]:
        self._prove(self.goals)
        self._refresh()
        self._run_loop(self._sources)
        return self.results

    def _sources(self) -> None:
        """Queue the source states."""
        src: dict[str, list[float]] = {k: [] for k in StateStore.COLUMNS}
        for pose, speed in self.starts:
            heading, a, rev = source_state(pose, speed)
            k = int(round(((heading - self.lat.headings[0]) % 360.0) / 30.0)) % 12
            if not self.lat.spaces[k].is_free(pose.x, pose.y):
                continue
            for name, v in (("x", pose.x), ("y", pose.y), ("hk", k), ("t", 0), ("s", a), ("l", a), ("spent", 0),
                            ("used", 0), ("time", 0), ("icons", 0), ("parent", -1), ("move", -1), ("key", -1),
                            ("rev", rev)):
                src[name].append(v)
            if self.record is not None:
                self._note(np.array([pose.x]), np.array([pose.y]), np.array([0]))
        if src["x"]:
            c = {k: np.asarray(v, dtype=StateStore.WORK[k]) for k, v in src.items()}
            if self.p.reverse:
                canonical(c["hk"], c["rev"], c["s"])
            win, key = self._admit(c)
            c["key"] = key
            self._push({k: v[win] for k, v in c.items()})

    def _run_loop(self, first: Callable[[], None] | None = None) -> None:
        """``first()`` then :meth:`_loop`, answering ``undecided`` for the open goals if a limit
        stops them."""
        self.started = _time.monotonic()
        self.next_report = self.started + self.limits.progress_every
        try:
            if first is not None:
                first()
            self._loop()
        except SearchLimited as exc:
            self.limited = str(exc)
            bound = self.f_now / self.scale
            for g in self.goals:
                if g not in self.results:
                    self.results[g] = TravelResult(g, False, horizon=bound, undecided=self.limited)

    def memory(self) -> int:
        """Bytes held by the states, queues and key tables of this search (an estimate)."""
        total = self.store.cap * StateStore.BYTES + self.queued * 8 + len(self.reservoir) * 24
        total += self.best.nbytes + (0 if self.table is None else self.table.nbytes)
        return int(total + len(self.best_dict) * DICT_ENTRY_BYTES)

    def _reserve(self, states: int, keys: int = 0) -> None:
        """Stop (:class:`SearchLimited`) rather than grow past the memory limit to keep
        ``states`` more states and ``keys`` more table keys."""
        peak = self.memory() - self.store.cap * StateStore.BYTES + self.store.peak_bytes(states)
        if keys and self.table is not None:
            peak += self.table.peak_bytes(keys) - self.table.nbytes
        if peak > self.limits.max_bytes:
            raise SearchLimited(f"memory limit ({self.limits.describe_bytes()}) reached after {self.store.n:,} states")
        more = peak - self.memory()
        if more > GROWTH_ASKED:  # a growth the analysis's memory cap should see before it happens
            cap = caps.room(more / (1 << 20))
            if cap is not None:
                raise SearchLimited(f"{cap} reached after {self.store.n:,} states")

    def _check_limits(self, f: int) -> None:
        self.f_now = f
        lim = self.limits
        now = _time.monotonic()
        if self.memory() > lim.max_bytes:
            raise SearchLimited(f"memory limit ({lim.describe_bytes()}) reached after {self.store.n:,} states")
        if lim.max_seconds is not None and now - self.started > lim.max_seconds:
            raise SearchLimited(f"time limit ({lim.max_seconds:g} s) reached after {self.store.n:,} states")
        cap = caps.exceeded()  # the analysis's caps (engine.budget): time, memory of its processes
        if cap is not None:
            raise SearchLimited(f"{cap} reached after {self.store.n:,} states")
        if lim.progress is not None and now >= self.next_report:
            self.next_report = now + lim.progress_every
            lim.progress(self.store.n, f / self.scale)

    def _loop(self) -> None:
        """Expand buckets in f order until every open goal is settled (or the limit)."""
        f = next((i for i, b in enumerate(self.buckets) if b), self.limit + 1)
        self.f_now = f
        while f <= self.limit and (self.open or self.record is not None):
            if self.stop is not None and self.stop():
                raise SearchStopped()
            self._check_limits(f)
            self._settle(f)
            if not self.open and self.record is None:
                break
            if not self.buckets[f]:
                f += 1
                continue
            entries, self.buckets[f] = self.buckets[f], []
            self.low = self.limit + 1
            parts = [e for e, v in entries if v == self.version]
            ids = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
            self.queued -= len(ids)
            if len(parts) < len(entries):  # queued before a goal was settled: the bound may have grown
                sids = np.concatenate([e for e, v in entries if v != self.version])
                self.queued -= len(sids)
                x, y, s, l, spent, time = (self.store.cols[k][sids] for k in ("x", "y", "s", "l", "spent", "time"))
                nf = time.astype(np.int64) + self._h(x, y, s, l, spent)
                later = nf > f
                self._bucket(sids[later], nf[later])
                ids = np.concatenate([ids, sids[~later]])
            if not len(ids):
                continue
            chunk = max(64, min(STEP_STATES, STEP_CHILDREN // self.lat.count))
            if len(ids) > chunk:  # expand a big bucket in parts (bounded temporaries); the rest waits
                self.buckets[f].append((ids[chunk:], self.version))
                self.queued += len(ids) - chunk
                ids = ids[:chunk]
            kern = kernels.current()
            if kern is not None:  # the live states' working columns in one pass
                ids, n = self.store.get_live(ids, self.best.pool if self.dense else None, kern["load_states"])
            else:
                n = self.store.get(ids)
                if self.dense:
                    live = (n["key"] < 0) | (self.best.pool[np.maximum(n["key"], 0)] >= n["time"])
                    ids = ids[live]
                    n = {k: v[live] for k, v in n.items()}
            self._expand(ids, n)
            f = min(f, self.low)  # the bound is admissible, not monotone: a child may sort lower
        self._settle(self.limit)
        if any(g not in self.results for g in self.goals):
            horizon = self._horizon()
            for g in self.goals:
                if g not in self.results:
                    self.results[g] = TravelResult(g, False, horizon=horizon)

    def _horizon(self) -> float | None:
        """For goals the search did not reach: the horizon they lie beyond, or None when no state
        it set aside (past the time limit, or at the turn limit) could still reach one - then
        they are unreachable."""
        beyond = self.cut
        waiting = self.parked + ([self.reservoir] if len(self.reservoir) else [])  # a resumed search's too
        if not beyond and waiting:
            if self.dist is None:
                beyond = True
            else:
                ids = np.concatenate(waiting)
                cols = self.store.cols
                h = self._h(cols["x"][ids], cols["y"][ids], cols["s"][ids], cols["l"][ids], cols["spent"][ids])
                beyond = bool((h < UNBOUNDED).any())
        if not beyond:
            return None
        return self.horizon if self.horizon is not None else min(self.limit, self.p.max_turns * self.scale) / self.scale

    def _settle(self, f: int) -> None:
        """Resolve the goals whose best arrival can no longer be beaten (time <= f)."""
        done = [g for g in self.open if g in self.cand and self.cand[g][0] <= f]
        for g in done:
            self.results[g] = travel_result(self, g, self.cand[g][1])
            self.open.discard(g)
        if done:
            self._refresh()

    def _bucket(self, ids: np.ndarray, f: np.ndarray) -> None:
        """Queue states by f; those past the limit are parked (another goal may want them)."""
        if not len(ids):
            return
        self.queued += len(ids)
        ok = f <= self.limit
        if not ok.all():
            self.parked.append(ids[~ok])
            ids, f = ids[ok], f[ok]
        order = np.argsort(f.astype(np.int16) if self.limit < 32767 else f, kind="stable")  # radix sort for int16
        ids, f = ids[order], f[order]
        cuts = np.flatnonzero(np.diff(f)) + 1
        for part, fv in zip(np.split(ids, cuts), f[np.r_[0, cuts]].tolist() if len(f) else []):
            self.buckets[fv].append((part, self.version))
        if len(f):
            self.low = min(self.low, int(f[0]))

    def _push(self, c: dict[str, np.ndarray]) -> None:
        self._reserve(len(c["x"]))
        h = self._h(c["x"], c["y"], c["s"], c["l"], c["spent"])
        if self.record is not None:  # reach maps are never resumed: keep only what can matter
            ok = h < UNBOUNDED
            c, h = {k: v[ok] for k, v in c.items()}, h[ok]
        ids = self.store.add(**c)
        self._bucket(ids, c["time"] + h)

    def _note(self, x: np.ndarray, y: np.ndarray, time: np.ndarray) -> None:
        assert self.record is not None
        x0, y0, cell, times = self.record
        i = np.floor((x - x0) / cell).astype(np.int64)
        j = np.floor((y - y0) / cell).astype(np.int64)
        ok = (i >= 0) & (j >= 0) & (i < times.shape[0]) & (j < times.shape[1]) & (time <= self.limit)
        np.minimum.at(times, (i[ok], j[ok]), time[ok] / self.scale)

    # -- expanding and resuming (engine.gravstrike.frontier_expand, engine.gravstrike.frontier_resume) ------------------
    def _expand(self, ids: np.ndarray, n: dict[str, np.ndarray]) -> None:
        expand(self, ids, n)

    def resume(self, changed: Sequence[Goal]) -> dict[Goal, TravelResult]:
        """Answer goals whose regions changed (the planner was :meth:`~engine.gravstrike.planner.Planner.retarget`
        ed: same walls, fields and turbine) by continuing this finished search
        (:func:`engine.gravstrike.frontier_resume.resume`); the answers are those of a new search, up to which of
        two states closer than the tolerance is kept."""
        return resume(self, changed)

    def release(self, into: Planner | None = None) -> None:
        """The search is no longer needed: hand its key table and its state store back to its
        planner (or to ``into``, the planner of the arena's next version)."""
        release(self, into)

    def compact(self) -> None:
        """Fold the queued and parked states into the reservoir :meth:`resume` draws from."""
        compact(self)
