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

:class:`FrontierSearch` is the whole search, one class: its keys, its bound, its loop, expanding
states, replaying a kept state's path into a :class:`~engine.gravstrike.travel_types.TravelResult`
and resuming for goals that moved; what it keeps of every state is a
:class:`~engine.gravstrike.state_store.StateStore`, and the compiled inner loops are
:mod:`engine.gravstrike.kernels`.  It is used through :class:`engine.gravstrike.planner.Planner`
(``minimise="time"``, ``plan_from`` and ``reach_times``); :func:`supported` says when it applies.

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
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from engine import budget as caps
from engine.keytable import KeyTable, PagedTable
from engine.gravstrike import kernels
from engine.gravstrike.geometry import path_crosses
from engine.gravstrike.lattice import BOUND_STEP, BoundTable, HeadingLattice, supported
from engine.gravstrike.motion import PIVOT_COST, Pose
from engine.gravstrike.reach import proven_unreachable
from engine.gravstrike.state_store import PIVOT_BASE, StateStore
from engine.gravstrike.travel_types import UNBOUNDED, Goal, PathStep, SearchLimits, TravelResult

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

_U1 = np.uint64(1)
_NO_POOL, _NO_DIR = np.zeros(1, dtype=np.int16), np.zeros(0, dtype=np.int64)  # the key table when not pruning


class SearchStopped(Exception):
    """A search's ``stop`` callback asked it to stop (a newer request superseded it)."""


class SearchLimited(Exception):
    """A search reached one of its :class:`~engine.gravstrike.travel_types.SearchLimits` (the reason)."""


def source_state(pose: Pose, speed: int) -> tuple[float, int, int]:
    """(heading of travel, absolute speed, reversing 0/1) of a source pose at a signed speed."""
    if speed < 0:
        return pose.heading + 180.0, -speed, 1
    return pose.heading, speed, 0


def canonical(hk: np.ndarray, rev: np.ndarray, s: np.ndarray) -> None:
    """At speed 0 both directions of travel are one state (when reverse speeds are planned):
    keep the one below 6 (in place), flipping ``rev`` so that the turbine's facing is unchanged."""
    flip = (s == 0) & (hk >= 6)
    hk[flip] -= 6
    rev[flip] ^= 1


def _next_turn(n: dict[str, np.ndarray], ids: np.ndarray, sel: np.ndarray, s: np.ndarray, hk: np.ndarray,
               rev: np.ndarray) -> dict[str, np.ndarray]:
    """States of ``sel`` starting their next turn at (absolute) speed ``s``, heading of travel ``hk``."""
    m = len(sel)
    return {"x": n["x"][sel], "y": n["y"][sel], "hk": hk, "t": n["t"][sel] + 1, "s": s,
            "l": np.zeros(m, dtype=np.int64), "spent": np.zeros(m, dtype=np.int64),
            "used": np.zeros(m, dtype=np.uint64), "time": n["time"][sel], "icons": n["icons"][sel],
            "parent": ids[sel], "rev": rev}


class FrontierSearch:
    """One vectorised A* run from ``starts`` to ``goals`` (see the module docstring)."""

    def __init__(self, planner: Planner, starts: Sequence[tuple[Pose, int]], goals: Sequence[Goal],
                 limit: int, record: tuple[float, float, float, np.ndarray] | None = None) -> None:
        p = self.p = planner
        self.starts = starts
        self.goals = list(goals)
        self.limit = limit
        self.record = record
        self.lat = p.lattice(starts[0][0].heading % 30.0)
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
        spare_stores = planner.scratch.setdefault("stores", [])
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
        self.bound = planner.bound_table()
        #: The open states by f (0 .. limit), only the f values that have some (a search reaches
        #: a few dozen of the limit's hundreds: no list made for the others).
        self.buckets: dict[int, list[tuple[np.ndarray, int]]] = {}
        #: :meth:`_pushed_ends`' answer so far: (states looked at, their ids, their pushes).
        self._pushed_found: tuple[int, np.ndarray, np.ndarray] | None = None
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
        spare = self.p.scratch.setdefault("tables", [])
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
            return self._admit_compiled(c, kern)
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

    def _admit_compiled(self, c: dict[str, np.ndarray],
                        kern: dict[str, Callable[..., Any]]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_admit` with the kernels (a search whose keys fit in 62 bits): the same
        children kept, the same keys."""
        assert self.table is not None
        time = c["time"]
        n = len(time)
        base, used, bnd, spent = kern["state_keys"](
            c["x"], c["y"], c["hk"], c["s"], c["l"], c["spent"], c["used"], self.budget is None, self.p.quantum,
            self.qi0, self.qj0, self.nqj, self.sb, self.sd, self.blk, self.plane, self.slot)
        keep = np.zeros(n, dtype=bool)
        key = np.full(n, -1, dtype=np.int64)
        if self.dense:
            table = self.best
            bits = -1 if table.bits is None else table.bits
            while True:
                win, at, pages, missing = kern["dense_admit"](base, time, bnd, spent, used, table.pool, table.dir, bits,
                                                              table.pages, self.plane)
                if not missing:
                    break
                table.grow(missing)
            table.pages = pages
            keep[win] = True
            key[win] = at
            todo = np.flatnonzero(used)
        else:
            todo = np.arange(n)
        if len(todo):  # states a field pushed this turn (or past the paged table): the hash table
            self._reserve(0, len(todo))
            packed = (base[todo] << self.p.n_fields) | used[todo]
            keep[todo[self.table.admit(packed, time[todo], kern)]] = True
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
        with self.p.querying():  # (the planner lets no lattice go while a search runs)
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
        f = self._next_bucket(0)
        self.f_now = f
        while f <= self.limit and (self.open or self.record is not None):
            if self.stop is not None and self.stop():
                raise SearchStopped()
            self._check_limits(f)
            self._settle(f)
            if not self.open and self.record is None:
                break
            if not self.buckets.get(f):  # on to the next bucket with states (nothing is expanded between:
                f = self._next_bucket(f + 1)  # settling there settles what each empty one would have)
                continue
            entries = self.buckets.pop(f)
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
                self.buckets.setdefault(f, []).append((ids[chunk:], self.version))
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

    def _next_bucket(self, f: int) -> int:
        """The lowest f from ``f`` on whose bucket holds states (``limit + 1``: none)."""
        return min((g for g, b in self.buckets.items() if b and g >= f), default=self.limit + 1)

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
            self.results[g] = self._travel_result(g, self.cand[g][1])
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
            self.buckets.setdefault(fv, []).append((part, self.version))
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

    # -- expanding: a new turn, a turn at speed 0, one more length; goals met on the way ------------
    def _expand(self, ids: np.ndarray, n: dict[str, np.ndarray]) -> None:
        p = self.p
        bnd = n["l"] >= n["s"]
        parts: list[dict[str, np.ndarray]] = []
        w = np.flatnonzero(~bnd)
        if len(w):
            parts.append({"x": n["x"][w], "y": n["y"][w], "hk": n["hk"][w], "t": n["t"][w], "s": n["s"][w],
                          "l": n["l"][w], "spent": n["spent"][w], "used": n["used"][w], "time": n["time"][w],
                          "icons": n["icons"][w], "parent": ids[w], "rev": n["rev"][w]})
        if bnd.any() and not (n["t"][bnd] < p.max_turns).all():
            self.cut = True
        b = np.flatnonzero(bnd & (n["t"] < p.max_turns))
        if len(b):
            delta = p.turbine.speed_delta
            # the same direction of travel, |speed| changed by up to the Speed Delta
            for d in range(-delta, delta + 1):
                s = n["s"][b] + d
                ok = (s >= 0) & (s <= p.vmax)
                if not ok.any():
                    continue
                sel = b[ok]
                s = s[ok]
                idle = s == 0
                if idle.any():
                    self._idle_turn(ids[sel[idle]], {k: v[sel[idle]] for k, v in n.items()})
                go = sel[~idle]
                if len(go):
                    parts.append(_next_turn(n, ids, go, s[~idle], n["hk"][go], n["rev"][go]))
            # through 0 into the other direction ("Going From Forward to Reverse"): a + a' <= delta
            if p.reverse:
                for a2 in range(1, delta + 1):
                    sel = b[n["s"][b] + a2 <= delta]
                    if len(sel):
                        parts.append(_next_turn(n, ids, sel, np.full(len(sel), min(a2, p.vmax), dtype=np.int64),
                                                 (n["hk"][sel] + 6) % 12, n["rev"][sel] ^ 1))
        if parts:
            self._move_lengths({k: np.concatenate([pt[k] for pt in parts]) for k in parts[0]})

    def _idle_turn(self, ids: np.ndarray, n: dict[str, np.ndarray]) -> None:
        """A turn at speed 0: stay, or pivot k*30 degrees about a corner (1 icon)."""
        p = self.p
        m = len(ids)
        lat = self.lat
        if p.exclusions == "avoid" and p.n_excl:
            _, zones = lat.probe(n["x"], n["y"], n["hk"])
            ok = (zones & self.excl_bits) == 0
            ids, n, m = ids[ok], {k: v[ok] for k, v in n.items()}, int(ok.sum())
        if not m:
            return
        t = n["t"] + 1
        zero = np.zeros(m, dtype=np.int64)
        stay = {"x": n["x"], "y": n["y"], "hk": n["hk"].copy(), "t": t, "s": zero, "l": zero, "spent": zero,
                "used": np.zeros(m, dtype=np.uint64), "time": t * self.scale, "icons": n["icons"], "parent": ids,
                "move": np.full(m, -1, dtype=np.int64), "rev": n["rev"].copy()}
        kids = [stay]
        if p.pivots and (self.budget is None or self.budget >= PIVOT_COST):
            j = np.tile(np.arange(44), m)
            r = np.repeat(np.arange(m), 44)
            hk = n["hk"][r]
            x = n["x"][r] + lat.pdx[hk, j]
            y = n["y"][r] + lat.pdy[hk, j]
            nh = lat.pnh[hk, j]
            free, zones = lat.probe(x, y, nh)
            if p.exclusions == "avoid":
                free &= (zones & self.excl_bits) == 0
            r, j = r[free], j[free]
            k = len(r)
            kids.append({"x": x[free], "y": y[free], "hk": nh[free], "t": t[r], "s": np.zeros(k, dtype=np.int64),
                         "l": np.zeros(k, dtype=np.int64), "spent": np.zeros(k, dtype=np.int64),
                         "used": np.zeros(k, dtype=np.uint64), "time": t[r] * self.scale,
                         "icons": n["icons"][r] + PIVOT_COST, "parent": ids[r], "move": PIVOT_BASE + j,
                         "rev": n["rev"][r]})
        c = {k: np.concatenate([kd[k] for kd in kids]) for k in kids[0]}
        if p.reverse:
            canonical(c["hk"], c["rev"], c["s"])
        win, key = self._admit(c)
        c["key"] = key
        self._push({k: v[win] for k, v in c.items()})

    def _move_lengths(self, n: dict[str, np.ndarray]) -> None:
        """One more length for every state of ``n`` (each at its speed), every maneuver."""
        lat = self.lat
        m = len(n["x"])
        kern = kernels.active(m * lat.count)
        if kern is not None:
            ras = lat.raster
            args = (n["x"], n["y"], n["hk"], n["spent"], -1 if self.budget is None else self.budget, lat.dx, lat.dy,
                    lat.nh, lat.cost, ras.x0, ras.y0, ras.cell, ras.nx, ras.ny, lat.flagged_status(), lat.sure, lat.maybe)
            r, k, x, y, nh, st, _, sure, maybe = kern["move_children"](*args, *self._prune_args(n))
            free, zones = lat.resolve(x, y, nh, st, sure, maybe)
        else:
            r = np.repeat(np.arange(m), lat.count)
            k = np.tile(np.arange(lat.count), m)
            if self.budget is not None:
                ok = lat.cost[k] <= self.budget - n["spent"][r]
                r, k = r[ok], k[ok]
            hk = n["hk"][r]
            x = n["x"][r] + lat.dx[hk, k]
            y = n["y"][r] + lat.dy[hk, k]
            nh = lat.nh[hk, k]
            free, zones = lat.probe(x, y, nh)
        if not free.all():
            r, k, x, y, nh, zones = r[free], k[free], x[free], y[free], nh[free], zones[free]
        used = n["used"][r]
        seen = zones  # every zone met where the length ended, before and after pushes
        pushed = np.zeros(len(r), dtype=bool)
        pend = np.flatnonzero(zones & self.field_bits & ~used) if self.field_bits else np.zeros(0, dtype=np.int64)
        keep = None
        if len(pend):
            seen = zones.copy()
            dead = np.zeros(len(r), dtype=bool)
        while len(pend):
            v = zones[pend] & self.field_bits & ~used[pend]
            low = v & (~v + _U1)
            z = np.log2(low.astype(np.float64)).astype(np.int64)
            x[pend] += self.push_x[z]
            y[pend] += self.push_y[z]
            used[pend] |= low
            pushed[pend] = True
            ok, zz = lat.probe(x[pend], y[pend], nh[pend])
            zones[pend] = zz
            seen[pend] |= zz
            dead[pend[~ok]] = True
            pend = pend[ok]
            pend = pend[(zones[pend] & self.field_bits & ~used[pend]) != 0]
            keep = ~dead
        if self.p.exclusions == "avoid" and self.p.n_excl:
            clear = (seen & self.excl_bits) == 0
            keep = clear if keep is None else keep & clear
        if keep is not None and not keep.all():
            sel = np.flatnonzero(keep)
            r, k, x, y, nh, seen, used, pushed = r[sel], k[sel], x[sel], y[sel], nh[sel], seen[sel], used[sel], pushed[sel]
        if kern is not None:
            t, s, l, spent, time, icons, parent, rev = kern["child_columns"](
                r, k, n["t"], n["s"], n["l"], n["spent"], n["icons"], n["parent"], n["rev"], lat.cost, self.scale)
        else:
            s = n["s"][r]
            l = n["l"][r] + 1
            t = n["t"][r]
            time = (t - 1) * self.scale + self.scale * l // s
            spent, icons, parent, rev = n["spent"][r] + lat.cost[k], n["icons"][r] + lat.cost[k], n["parent"][r], n["rev"][r]
        c = {"x": x, "y": y, "hk": nh, "t": t, "s": s, "l": l, "spent": spent, "used": used, "time": time, "icons": icons,
             "parent": parent, "move": k, "rev": rev}
        if self.record is not None:
            self._note(x, y, time)
        self._record_goals(c, seen, n, r, pushed)
        win, key = self._admit(c)
        c["key"] = key
        self._push({kk: v[win] for kk, v in c.items()})

    def _prune_args(self, n: dict[str, np.ndarray]) -> tuple[object, ...]:
        """The arguments of :func:`engine.gravstrike.kernels.move_children` from ``prune`` on: whether
        it may leave out the children the key table already beats - not for a reach map (every
        arrival is noted), with a gate among the open goals (crossings are tested on the children)
        or without a dense key table - and what it needs to tell."""
        table = self.best
        prune = (self.record is None and self.dense and self.table is not None
                 and all(g in self.goal_bit for g in self.open))
        goals = np.uint64(sum(1 << self.goal_bit[g] for g in self.open if g in self.goal_bit))
        return (prune, n["s"], n["l"], n["t"], n["used"], self.scale, goals, self.field_bits, self.p.quantum,
                self.qi0, self.qj0, self.nqj, self.sb, self.sd, self.blk, self.plane, self.slot,
                table.pool if prune else _NO_POOL, table.dir if prune else _NO_DIR,
                -1 if not prune or table.bits is None else table.bits)

    def _record_goals(self, c: dict[str, np.ndarray], zones: np.ndarray, n: dict[str, np.ndarray], r: np.ndarray,
                      pushed: np.ndarray) -> None:
        """Record the earliest arrival at each open goal among these children."""
        time = c["time"]
        gates = [g for g in self.open if g not in self.goal_bit]
        bits = np.uint64(sum(1 << self.goal_bit[g] for g in self.open if g in self.goal_bit))
        some = np.flatnonzero(zones & bits) if bits else np.zeros(0, dtype=np.int64)
        for g in list(self.open):
            z = self.goal_bit.get(g)
            if z is not None:
                hit = some[(zones[some] & np.uint64(1 << z)) != 0]
            elif gates:
                hit = self._gate_hits(g, c, n, r, pushed)
            else:
                continue
            if not len(hit):
                continue
            i = hit[np.argmin(time[hit])]
            t = int(time[i])
            if g not in self.cand or t < self.cand[g][0]:
                self._reserve(1)
                sid = self.store.add(**{kk: v[i:i + 1] for kk, v in c.items()}, key=np.array([-1]))
                self.cand[g] = (t, int(sid[0]))

    def _gate_hits(self, g: Goal, c: dict[str, np.ndarray], n: dict[str, np.ndarray], r: np.ndarray,
                   pushed: np.ndarray) -> np.ndarray:
        (ax, ay), (bx, by), one_way = self.p.gates[g]
        px, py = n["x"][r], n["y"][r]
        vx, vy = bx - ax, by - ay
        L2 = vx * vx + vy * vy
        u = np.clip(((px - ax) * vx + (py - ay) * vy) / L2, 0.0, 1.0) if L2 else np.zeros(len(px))
        reach = self.p.reach + self.p.n_fields + 0.01
        near = np.flatnonzero(np.hypot(px - ax - u * vx, py - ay - u * vy) <= reach)
        if not len(near):
            return near
        pts = self.lat.path[n["hk"][r[near]], c["move"][near]] + np.stack([px[near], py[near]], axis=1)[:, None, :]
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
            path = [(px[j] + a, py[j] + b) for a, b in self.lat.path[n["hk"][r[j]], c["move"][j]]]
            _, _, pushes = self._replay(float(px[j]), float(py[j]), int(n["hk"][r[j]]), int(c["move"][j]), int(n["used"][r[j]]))
            hit[i] = path_crosses(path + [(a, b) for _, a, b in pushes], (ax, ay), (bx, by), one_way)
        found: np.ndarray = near[hit]
        return found

    # -- results: a kept state's path, replayed as the rules move it -------------------------------
    def _travel_result(self, goal: Goal, sid: int) -> TravelResult:
        p = self.p
        cols = self.store.cols
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
            h = self.lat.headings[(hk + 6 * rev) % 12]  # the turbine's facing
            t, s, l = int(cols["t"][b]), int(cols["s"][b]), int(cols["l"][b])
            if mv < 0 or mv >= PIVOT_BASE:  # a turn at speed 0: stayed or pivoted
                if mv >= PIVOT_BASE:
                    corner, n = divmod(mv - PIVOT_BASE, 11)
                    path.append(PathStep(x, y, h, 0, t, 0, f"pivot {30 * (n + 1)} about corner {(corner + 2 * rev) % 4}"))
                damage += self._end_damage(x, y, hk)
                continue
            speed = -s if rev else s
            pu = int(cols["used"][a]) if int(cols["l"][a]) < int(cols["s"][a]) else 0
            began = (hk - int(self.lat.turn[mv])) % 12  # the parent's, or its opposite after a reversal
            mx, my, pushes = self._replay(float(cols["x"][a]), float(cols["y"][a]), began, mv, pu)
            label = p.maneuvers[mv].label
            path.append(PathStep(mx, my, h, speed, t, l, label))
            for fid, px, py in pushes:
                path.append(PathStep(px, py, h, speed, t, l, label, fid))
            if p.n_excl:
                was = set(self._excl_at(float(cols["x"][a]), float(cols["y"][a]), int(cols["hk"][a])))
                now: set[int] = set(self._excl_at(mx, my, hk))
                for _, px, py in pushes:
                    now.update(self._excl_at(px, py, hk))
                damage += sum(1 for z in now if z not in was)
                if l == s:
                    damage += self._end_damage(x, y, hk)
        e = chain[-1]
        speed = int(cols["s"][e]) * (-1 if int(cols["rev"][e]) else 1)
        return TravelResult(goal, True, int(cols["t"][e]), int(cols["l"][e]), speed,
                            int(cols["time"][e]) / p.scale, int(cols["icons"][e]), damage, tuple(path))

    def _replay(self, x: float, y: float, hk: int, move: int, used: int) -> tuple[float, float, list[tuple[str, float, float]]]:
        """One length from (x, y) at heading index ``hk``: its end before pushes and the pushes
        (field id, position after), as the scalar planner moves."""
        p = self.p
        lat = self.lat
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
            cx += float(self.push_x[z])
            cy += float(self.push_y[z])
            used |= 1 << z
            pushes.append((p.geometry.fields[z].id, cx, cy))
            zones = hs.probe(cx, cy) or []
        return mx, my, pushes

    def _excl_at(self, x: float, y: float, hk: int) -> list[int]:
        p = self.p
        lo, hi = p.n_fields, p.n_fields + p.n_excl
        return [z for z in self.lat.spaces[hk].zones_at(x, y) if lo <= z < hi]

    def _end_damage(self, x: float, y: float, hk: int) -> int:
        p = self.p
        pose = Pose(x, y, self.lat.headings[hk])
        return sum(2 for z in self._excl_at(x, y, hk)
                   if p.geometry.corners_inside(p.excl_zones[z - p.n_fields], pose) >= 2)

    def _pushed_landings(self, ids: np.ndarray) -> np.ndarray:
        """Zone bits met by the kept length ends ``ids`` before (and between) field pushes: 0 for
        states no field pushed in their last length, else the bits met where the length ended and
        after each push but the last (the kept position itself)."""
        cols = self.store.cols
        lat = self.lat
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
        # replay the pushes of the moved ones together, as :meth:`_move_lengths` made them
        par = par[moved]
        x, y = mx[moved], my[moved]
        nh = cols["hk"][ids[moved]].astype(np.int64)
        same_turn = cols["l"][par] < cols["s"][par]
        used = np.where(same_turn, cols["used"][par], np.uint64(0)).astype(np.uint64)
        _, zones = lat.probe(x, y, nh)
        seen = np.zeros(len(moved), dtype=np.uint64)
        pend = np.arange(len(moved))
        while len(pend):
            v = zones[pend] & self.field_bits & ~used[pend]
            go = v != 0
            pend, v = pend[go], v[go]
            if not len(pend):
                break
            seen[pend] |= zones[pend]  # met before this push: not the kept (last) position
            low = v & (~v + np.uint64(1))
            z = np.log2(low.astype(np.float64)).astype(np.int64)
            x[pend] += self.push_x[z]
            y[pend] += self.push_y[z]
            used[pend] |= low
            free, zz = lat.probe(x[pend], y[pend], nh[pend])
            zones[pend] = zz
            pend = pend[free]
        out[moved] = seen
        return out

    # -- resuming for goals that moved (the kept states stay valid) --------------------------------
    def resume(self, changed: Sequence[Goal]) -> dict[Goal, TravelResult]:
        """Answer goals whose regions changed (the planner was :meth:`~engine.gravstrike.planner.Planner.retarget`
        ed: same walls, fields and turbine) by continuing this finished search: every state it kept
        is still valid, so the changed goals are first tested against the kept length ends, then
        the open states are re-queued under the new bound and the search goes on until they are
        settled.  The answers are those of a new search, up to which of two states closer than
        the tolerance is kept."""
        with self.p.querying():  # (the planner lets no lattice go while a search runs)
            return self._resume(changed)

    def _resume(self, changed: Sequence[Goal]) -> dict[Goal, TravelResult]:
        p = self.p
        self.goal_bit = {g: p.goal_zone[g] for g in self.goals if g in p.goal_zone}
        todo = [g for g in changed if g in self.goals]
        if any(g not in self.goal_bit for g in todo):
            raise ValueError("a resumed search cannot answer a moved gate: search again")
        for g in todo:
            self.results.pop(g, None)
            self.cand.pop(g, None)
        self.proven -= set(todo)  # proven for the goal's old region: proved again (or not) below
        self.open = set(todo)
        self._prove(todo)
        todo = [g for g in todo if g in self.open]
        if not self.open:
            return self.results
        self._seed(todo)
        self.compact()
        self._refresh()
        # the latest seeded arrival bounds every answer: only earlier states can improve one
        bound = max(self.cand[g][0] for g in todo) if all(g in self.cand for g in todo) else self.limit + 1
        k = int(np.searchsorted(self.reservoir_time, bound, side="left"))
        if k and self.dist is None:  # no bound to rank by: every earlier state goes back
            ids, time = self.reservoir[:k], self.reservoir_time[:k]
            self.reservoir, self.reservoir_time, self.reservoir_cell = (
                self.reservoir[k:], self.reservoir_time[k:], self.reservoir_cell[k:])
            self._bucket(ids, time)
        elif k:
            # cheap lower bound first: time + the smallest time bound for the state's distance
            cols = self.store.cols
            ids, time = self.reservoir[:k], self.reservoir_time[:k]
            assert self.dist is not None
            d = self.dist[self.reservoir_cell[:k]]
            soon = np.flatnonzero(time + self.bound.floor(d) < bound)
            if len(soon):
                keep = np.ones(len(self.reservoir), dtype=bool)
                keep[soon] = False
                ids, time = ids[soon], time[soon]
                self.reservoir, self.reservoir_time = self.reservoir[keep], self.reservoir_time[keep]
                self.reservoir_cell = self.reservoir_cell[keep]
                self._bucket(ids, time + self._h(cols["x"][ids], cols["y"][ids], cols["s"][ids], cols["l"][ids], cols["spent"][ids]))
        self._run_loop()
        return self.results

    def release(self, into: Planner | None = None) -> None:
        """The search is no longer needed: hand its key table (reset where it was written) and its
        state store (emptied, its room kept) back to its planner, or to ``into`` (the planner of
        the arena's next version: a table of another size is never taken), so that the next search
        skips allocating and growing them."""
        scratch = (into or self.p).scratch
        if self.dense and self.best.size:
            keys = self.store.cols["key"][: self.store.n]
            self.best.reset(keys[keys >= 0])
            spare = scratch.setdefault("tables", [])
            if len(spare) < 2:
                spare.append(self.best)
            self.best = PagedTable(0, self.best.dtype, None)
        stores = scratch.setdefault("stores", [])
        if len(stores) < 2:
            self.store.n = 0
            stores.append(self.store)
        self.store = StateStore()

    def compact(self) -> None:
        """Fold the queued and parked states into the reservoir :meth:`resume` draws from (sorted
        by time); worth doing ahead of time, so that the first resume is quick."""
        extra = [e for f in sorted(self.buckets) for e, _ in self.buckets[f]] + self.parked
        if not extra:
            return
        self.buckets = {}
        self.parked = []
        self.queued = 0
        ids = np.concatenate(extra)
        time = self.store.cols["time"][ids]
        order = np.argsort(time.astype(np.int16) if self.limit < 32767 else time, kind="stable")
        ids, time = ids[order], time[order]
        m = self.p.distance_grid()
        cols = self.store.cols
        fi = np.clip(((cols["x"][ids] - m.x0) / m.cell).astype(np.int64), 0, m.nx - 1)
        fj = np.clip(((cols["y"][ids] - m.y0) / m.cell).astype(np.int64), 0, m.ny - 1)
        cell = fi * m.ny + fj
        if len(self.reservoir):
            at = np.searchsorted(self.reservoir_time, time, side="right")
            self.reservoir = np.insert(self.reservoir, at, ids)
            self.reservoir_time = np.insert(self.reservoir_time, at, time)
            self.reservoir_cell = np.insert(self.reservoir_cell, at, cell)
        else:
            self.reservoir, self.reservoir_time, self.reservoir_cell = ids, time, cell

    def _seed(self, goals: Sequence[Goal]) -> None:
        """Earliest kept length end touching each of ``goals`` (zone goals; gates are re-found
        only by the continued search's new states, so a changed gate needs a new search)."""
        cols = self.store.cols
        n = self.store.n
        x, y, hk, time, move = cols["x"][:n], cols["y"][:n], cols["hk"][:n], cols["time"][:n], cols["move"][:n]
        par = cols["parent"][:n]
        length_end = (move >= 0) & (move < PIVOT_BASE)  # length ends only (not sources, stays, pivots)
        for g in goals:
            z = self.goal_bit.get(g)
            if z is None:
                continue
            # the goal's region of centres (its shape grown by the footprint), over every heading
            boxes = np.array([sp.zones[z].bounds for sp in self.lat.spaces])
            minx, miny = boxes[:, 0].min(), boxes[:, 1].min()
            maxx, maxy = boxes[:, 2].max(), boxes[:, 3].max()
            e = 1e-6  # a kept position touches the goal when it lies in the goal's region
            here = np.flatnonzero(length_end & (x >= minx - e) & (x <= maxx + e) & (y >= miny - e) & (y <= maxy + e))
            hit = here[self.lat.zone_hits(x[here], y[here], hk[here], z)]
            if self.p.n_fields:  # or where a length ended before field pushes carried it on
                # each push moves one length, so a length pushed k times began its pushes within
                # k lengths of where it was kept
                pushed, k = self._pushed_ends(length_end, par)
                r = k * self.p.turbine.length + e
                px, py = x[pushed], y[pushed]
                pushed = pushed[(px >= minx - r) & (px <= maxx + r) & (py >= miny - r) & (py <= maxy + r)]
                if len(pushed):
                    hit = np.concatenate([hit, pushed[(self._pushed_landings(pushed) & np.uint64(1 << z)) != 0]])
            if len(hit):
                i = hit[np.argmin(time[hit])]
                self.cand[g] = (int(time[i]), int(i))

    def _pushed_ends(self, length_end: np.ndarray, par: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Indices of the kept length ends that a field pushed in their length, and how many pushes
        each had: a field bit the parent's turn had not used yet.  Found once per kept state (the
        store only grows; the lists are extended for the states added since)."""
        empty = np.zeros(0, dtype=np.int64)
        done, ids, pushes = self._pushed_found if self._pushed_found is not None else (0, empty, empty)
        n = len(length_end)
        if n > done:
            cols = self.store.cols
            new = done + np.flatnonzero(length_end[done:n])
            p = par[new]
            same_turn = cols["l"][p] < cols["s"][p]
            before = np.where(same_turn, cols["used"][p], np.uint64(0)).astype(np.uint64)
            k = np.bitwise_count(cols["used"][new] & ~before).astype(np.int64)
            ids, pushes = np.concatenate([ids, new[k > 0]]), np.concatenate([pushes, k[k > 0]])
            self._pushed_found = (n, ids, pushes)
        return ids, pushes
