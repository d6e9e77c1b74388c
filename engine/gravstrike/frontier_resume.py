"""Resuming a finished vectorised search (:mod:`engine.gravstrike.frontier`) for goals that moved: the kept
states stay valid (goals don't change how a turbine moves), so moved goals are tested against the
kept length ends and the open states go back into the queue under the new bound."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from engine.keytable import PagedTable
from engine.gravstrike.frontier_paths import PIVOT_BASE, StateStore, pushed_landings
from engine.gravstrike.travel_types import Goal, TravelResult

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.frontier import FrontierSearch
    from engine.gravstrike.planner import Planner


def resume(search: FrontierSearch, changed: Sequence[Goal]) -> dict[Goal, TravelResult]:
    """Answer goals whose regions changed (the planner was :meth:`~engine.gravstrike.planner.Planner.retarget`
    ed: same walls, fields and turbine) by continuing this finished search: every state it kept
    is still valid, so the changed goals are first tested against the kept length ends, then
    the open states are re-queued under the new bound and the search goes on until they are
    settled.  The answers are those of a new search, up to which of two states closer than
    the tolerance is kept."""
    p = search.p
    search.goal_bit = {g: p.goal_zone[g] for g in search.goals if g in p.goal_zone}
    todo = [g for g in changed if g in search.goals]
    if any(g not in search.goal_bit for g in todo):
        raise ValueError("a resumed search cannot answer a moved gate: search again")
    for g in todo:
        search.results.pop(g, None)
        search.cand.pop(g, None)
    search.proven -= set(todo)  # proven for the goal's old region: proved again (or not) below
    search.open = set(todo)
    search._prove(todo)
    todo = [g for g in todo if g in search.open]
    if not search.open:
        return search.results
    seed(search, todo)
    search.compact()
    search._refresh()
    # the latest seeded arrival bounds every answer: only earlier states can improve one
    bound = max(search.cand[g][0] for g in todo) if all(g in search.cand for g in todo) else search.limit + 1
    k = int(np.searchsorted(search.reservoir_time, bound, side="left"))
    if k and search.dist is None:  # no bound to rank by: every earlier state goes back
        ids, time = search.reservoir[:k], search.reservoir_time[:k]
        search.reservoir, search.reservoir_time, search.reservoir_cell = (
            search.reservoir[k:], search.reservoir_time[k:], search.reservoir_cell[k:])
        search._bucket(ids, time)
    elif k:
        # cheap lower bound first: time + the smallest time bound for the state's distance
        cols = search.store.cols
        ids, time = search.reservoir[:k], search.reservoir_time[:k]
        assert search.dist is not None
        d = search.dist[search.reservoir_cell[:k]]
        soon = np.flatnonzero(time + search.bound.floor(d) < bound)
        if len(soon):
            keep = np.ones(len(search.reservoir), dtype=bool)
            keep[soon] = False
            ids, time = ids[soon], time[soon]
            search.reservoir, search.reservoir_time = search.reservoir[keep], search.reservoir_time[keep]
            search.reservoir_cell = search.reservoir_cell[keep]
            search._bucket(ids, time + search._h(cols["x"][ids], cols["y"][ids], cols["s"][ids], cols["l"][ids], cols["spent"][ids]))
    search._run_loop()
    return search.results


def release(search: FrontierSearch, into: Planner | None = None) -> None:
    """The search is no longer needed: hand its key table (reset where it was written) and its
    state store (emptied, its room kept) back to its planner, or to ``into`` (the planner of
    the arena's next version: a table of another size is never taken), so that the next search
    skips allocating and growing them."""
    scratch = (into or search.p)._scratch
    if search.dense and search.best.size:
        keys = search.store.cols["key"][: search.store.n]
        search.best.reset(keys[keys >= 0])
        spare = scratch.setdefault("tables", [])
        if len(spare) < 2:
            spare.append(search.best)
        search.best = PagedTable(0, search.best.dtype, None)
    stores = scratch.setdefault("stores", [])
    if len(stores) < 2:
        search.store.n = 0
        stores.append(search.store)
    search.store = StateStore()


def compact(search: FrontierSearch) -> None:
    """Fold the queued and parked states into the reservoir :meth:`resume` draws from (sorted
    by time); worth doing ahead of time, so that the first resume is quick."""
    extra = [e for b in search.buckets for e, _ in b] + search.parked
    if not extra:
        return
    search.buckets = [[] for _ in range(search.limit + 1)]
    search.parked = []
    search.queued = 0
    ids = np.concatenate(extra)
    time = search.store.cols["time"][ids]
    order = np.argsort(time.astype(np.int16) if search.limit < 32767 else time, kind="stable")
    ids, time = ids[order], time[order]
    m = search.p._distance_grid()
    cols = search.store.cols
    fi = np.clip(((cols["x"][ids] - m.x0) / m.cell).astype(np.int64), 0, m.nx - 1)
    fj = np.clip(((cols["y"][ids] - m.y0) / m.cell).astype(np.int64), 0, m.ny - 1)
    cell = fi * m.ny + fj
    if len(search.reservoir):
        at = np.searchsorted(search.reservoir_time, time, side="right")
        search.reservoir = np.insert(search.reservoir, at, ids)
        search.reservoir_time = np.insert(search.reservoir_time, at, time)
        search.reservoir_cell = np.insert(search.reservoir_cell, at, cell)
    else:
        search.reservoir, search.reservoir_time, search.reservoir_cell = ids, time, cell


def seed(search: FrontierSearch, goals: Sequence[Goal]) -> None:
    """Earliest kept length end touching each of ``goals`` (zone goals; gates are re-found
    only by the continued search's new states, so a changed gate needs a new search)."""
    cols = search.store.cols
    n = search.store.n
    x, y, hk, time, move = cols["x"][:n], cols["y"][:n], cols["hk"][:n], cols["time"][:n], cols["move"][:n]
    par = cols["parent"][:n]
    length_end = (move >= 0) & (move < PIVOT_BASE)  # length ends only (not sources, stays, pivots)
    for g in goals:
        z = search.goal_bit.get(g)
        if z is None:
            continue
        # the goal's region of centres (its shape grown by the footprint), over every heading
        boxes = np.array([sp.zones[z].bounds for sp in search.lat.spaces])
        minx, miny = boxes[:, 0].min(), boxes[:, 1].min()
        maxx, maxy = boxes[:, 2].max(), boxes[:, 3].max()
        e = 1e-6  # a kept position touches the goal when it lies in the goal's region
        here = np.flatnonzero(length_end & (x >= minx - e) & (x <= maxx + e) & (y >= miny - e) & (y <= maxy + e))
        hit = here[search.lat.zone_hits(x[here], y[here], hk[here], z)]
        if search.p.n_fields:  # or where a length ended before field pushes carried it on
            # each push moves one length, so a length pushed k times began its pushes within
            # k lengths of where it was kept
            pushed, k = _pushed_ends(search, length_end, par)
            r = k * search.p.turbine.length + e
            px, py = x[pushed], y[pushed]
            pushed = pushed[(px >= minx - r) & (px <= maxx + r) & (py >= miny - r) & (py <= maxy + r)]
            if len(pushed):
                hit = np.concatenate([hit, pushed[(pushed_landings(search, pushed) & np.uint64(1 << z)) != 0]])
        if len(hit):
            i = hit[np.argmin(time[hit])]
            search.cand[g] = (int(time[i]), int(i))


def _pushed_ends(search: FrontierSearch, length_end: np.ndarray, par: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the kept length ends that a field pushed in their length, and how many pushes
    each had: a field bit the parent's turn had not used yet.  Found once per kept state (the
    store only grows; the lists are extended for the states added since)."""
    empty = np.zeros(0, dtype=np.int64)
    done, ids, pushes = getattr(search, "_pushed_ends", (0, empty, empty))
    n = len(length_end)
    if n > done:
        cols = search.store.cols
        new = done + np.flatnonzero(length_end[done:n])
        p = par[new]
        same_turn = cols["l"][p] < cols["s"][p]
        before = np.where(same_turn, cols["used"][p], np.uint64(0)).astype(np.uint64)
        k = np.bitwise_count(cols["used"][new] & ~before).astype(np.int64)
        ids, pushes = np.concatenate([ids, new[k > 0]]), np.concatenate([pushes, k[k > 0]])
        search._pushed_ends = (n, ids, pushes)  # type: ignore[attr-defined]
    return ids, pushes
