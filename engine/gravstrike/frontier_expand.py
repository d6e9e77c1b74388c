"""Expanding states of the vectorised search (:mod:`engine.gravstrike.frontier`): a new turn (speed changes,
through 0 into reverse), a turn at speed 0 (stay or pivot), one more length by every maneuver
with the end-of-length checks (field pushes, goals met before and after them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.gravstrike import kernels
from engine.gravstrike.frontier_paths import PIVOT_BASE, gate_hits
from engine.gravstrike.motion import PIVOT_COST

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.frontier import FrontierSearch

_U1 = np.uint64(1)
_NO_POOL, _NO_DIR = np.zeros(1, dtype=np.int16), np.zeros(0, dtype=np.int64)  # the key table when not pruning


def canonical(hk: np.ndarray, rev: np.ndarray, s: np.ndarray) -> None:
    """At speed 0 both directions of travel are one state (when reverse speeds are planned):
    keep the one below 6 (in place), flipping ``rev`` so that the turbine's facing is unchanged."""
    flip = (s == 0) & (hk >= 6)
    hk[flip] -= 6
    rev[flip] ^= 1


def expand(search: FrontierSearch, ids: np.ndarray, n: dict[str, np.ndarray]) -> None:
    p = search.p
    bnd = n["l"] >= n["s"]
    parts: list[dict[str, np.ndarray]] = []
    w = np.flatnonzero(~bnd)
    if len(w):
        parts.append({"x": n["x"][w], "y": n["y"][w], "hk": n["hk"][w], "t": n["t"][w], "s": n["s"][w],
                      "l": n["l"][w], "spent": n["spent"][w], "used": n["used"][w], "time": n["time"][w],
                      "icons": n["icons"][w], "parent": ids[w], "rev": n["rev"][w]})
    if bnd.any() and not (n["t"][bnd] < p.max_turns).all():
        search.cut = True
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
                idle_turn(search, ids[sel[idle]], {k: v[sel[idle]] for k, v in n.items()})
            go = sel[~idle]
            if len(go):
                parts.append(next_turn(n, ids, go, s[~idle], n["hk"][go], n["rev"][go]))
        # through 0 into the other direction ("Going From Forward to Reverse"): a + a' <= delta
        if p.reverse:
            for a2 in range(1, delta + 1):
                sel = b[n["s"][b] + a2 <= delta]
                if len(sel):
                    parts.append(next_turn(n, ids, sel, np.full(len(sel), min(a2, p.vmax), dtype=np.int64),
                                            (n["hk"][sel] + 6) % 12, n["rev"][sel] ^ 1))
    if parts:
        move_lengths(search, {k: np.concatenate([pt[k] for pt in parts]) for k in parts[0]})


def next_turn(n: dict[str, np.ndarray], ids: np.ndarray, sel: np.ndarray, s: np.ndarray, hk: np.ndarray,
          rev: np.ndarray) -> dict[str, np.ndarray]:
    """States of ``sel`` starting their next turn at (absolute) speed ``s``, heading of travel ``hk``."""
    m = len(sel)
    return {"x": n["x"][sel], "y": n["y"][sel], "hk": hk, "t": n["t"][sel] + 1, "s": s,
            "l": np.zeros(m, dtype=np.int64), "spent": np.zeros(m, dtype=np.int64),
            "used": np.zeros(m, dtype=np.uint64), "time": n["time"][sel], "icons": n["icons"][sel],
            "parent": ids[sel], "rev": rev}


def idle_turn(search: FrontierSearch, ids: np.ndarray, n: dict[str, np.ndarray]) -> None:
    """A turn at speed 0: stay, or pivot k*30 degrees about a corner (1 icon)."""
    p = search.p
    m = len(ids)
    lat = search.lat
    if p.exclusions == "avoid" and p.n_excl:
        _, zones = lat.probe(n["x"], n["y"], n["hk"])
        ok = (zones & search.excl_bits) == 0
        ids, n, m = ids[ok], {k: v[ok] for k, v in n.items()}, int(ok.sum())
    if not m:
        return
    t = n["t"] + 1
    zero = np.zeros(m, dtype=np.int64)
    stay = {"x": n["x"], "y": n["y"], "hk": n["hk"].copy(), "t": t, "s": zero, "l": zero, "spent": zero,
            "used": np.zeros(m, dtype=np.uint64), "time": t * search.scale, "icons": n["icons"], "parent": ids,
            "move": np.full(m, -1, dtype=np.int64), "rev": n["rev"].copy()}
    kids = [stay]
    if p.pivots and (search.budget is None or search.budget >= PIVOT_COST):
        j = np.tile(np.arange(44), m)
        r = np.repeat(np.arange(m), 44)
        hk = n["hk"][r]
        x = n["x"][r] + lat.pdx[hk, j]
        y = n["y"][r] + lat.pdy[hk, j]
        nh = lat.pnh[hk, j]
        free, zones = lat.probe(x, y, nh)
        if p.exclusions == "avoid":
            free &= (zones & search.excl_bits) == 0
        r, j = r[free], j[free]
        k = len(r)
        kids.append({"x": x[free], "y": y[free], "hk": nh[free], "t": t[r], "s": np.zeros(k, dtype=np.int64),
                     "l": np.zeros(k, dtype=np.int64), "spent": np.zeros(k, dtype=np.int64),
                     "used": np.zeros(k, dtype=np.uint64), "time": t[r] * search.scale,
                     "icons": n["icons"][r] + PIVOT_COST, "parent": ids[r], "move": PIVOT_BASE + j,
                     "rev": n["rev"][r]})
    c = {k: np.concatenate([kd[k] for kd in kids]) for k in kids[0]}
    if p.reverse:
        canonical(c["hk"], c["rev"], c["s"])
    win, key = search._admit(c)
    c["key"] = key
    search._push({k: v[win] for k, v in c.items()})


def move_lengths(search: FrontierSearch, n: dict[str, np.ndarray]) -> None:
    """One more length for every state of ``n`` (each at its speed), every maneuver."""
    lat = search.lat
    m = len(n["x"])
    kern = kernels.active(m * lat.count)
    if kern is not None:
        ras = lat.raster
        args = (n["x"], n["y"], n["hk"], n["spent"], -1 if search.budget is None else search.budget, lat.dx, lat.dy,
                lat.nh, lat.cost, ras.x0, ras.y0, ras.cell, ras.nx, ras.ny, lat.flagged_status(), lat.sure, lat.maybe)
        r, k, x, y, nh, st, _, sure, maybe = kern["move_children"](*args, *_prune_args(search, n))
        free, zones = lat.resolve(x, y, nh, st, sure, maybe)
    else:
        r = np.repeat(np.arange(m), lat.count)
        k = np.tile(np.arange(lat.count), m)
        if search.budget is not None:
            ok = lat.cost[k] <= search.budget - n["spent"][r]
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
    pend = np.flatnonzero(zones & search.field_bits & ~used) if search.field_bits else np.zeros(0, dtype=np.int64)
    keep = None
    if len(pend):
        seen = zones.copy()
        dead = np.zeros(len(r), dtype=bool)
    while len(pend):
        v = zones[pend] & search.field_bits & ~used[pend]
        low = v & (~v + _U1)
        z = np.log2(low.astype(np.float64)).astype(np.int64)
        x[pend] += search.push_x[z]
        y[pend] += search.push_y[z]
        used[pend] |= low
        pushed[pend] = True
        ok, zz = lat.probe(x[pend], y[pend], nh[pend])
        zones[pend] = zz
        seen[pend] |= zz
        dead[pend[~ok]] = True
        pend = pend[ok]
        pend = pend[(zones[pend] & search.field_bits & ~used[pend]) != 0]
        keep = ~dead
    if search.p.exclusions == "avoid" and search.p.n_excl:
        clear = (seen & search.excl_bits) == 0
        keep = clear if keep is None else keep & clear
    if keep is not None and not keep.all():
        sel = np.flatnonzero(keep)
        r, k, x, y, nh, seen, used, pushed = r[sel], k[sel], x[sel], y[sel], nh[sel], seen[sel], used[sel], pushed[sel]
    if kern is not None:
        t, s, l, spent, time, icons, parent, rev = kern["child_columns"](
            r, k, n["t"], n["s"], n["l"], n["spent"], n["icons"], n["parent"], n["rev"], lat.cost, search.scale)
    else:
        s = n["s"][r]
        l = n["l"][r] + 1
        t = n["t"][r]
        time = (t - 1) * search.scale + search.scale * l // s
        spent, icons, parent, rev = n["spent"][r] + lat.cost[k], n["icons"][r] + lat.cost[k], n["parent"][r], n["rev"][r]
    c = {"x": x, "y": y, "hk": nh, "t": t, "s": s, "l": l, "spent": spent, "used": used, "time": time, "icons": icons,
         "parent": parent, "move": k, "rev": rev}
    if search.record is not None:
        search._note(x, y, time)
    record_goals(search, c, seen, n, r, pushed)
    win, key = search._admit(c)
    c["key"] = key
    search._push({kk: v[win] for kk, v in c.items()})


def _prune_args(search: FrontierSearch, n: dict[str, np.ndarray]) -> tuple[object, ...]:
    """The arguments of :func:`engine.gravstrike.kernels.move_children` from ``prune`` on: whether
    it may leave out the children the key table already beats - not for a reach map (every
    arrival is noted), with a gate among the open goals (crossings are tested on the children)
    or without a dense key table - and what it needs to tell."""
    table = search.best
    prune = (search.record is None and search.dense and search.table is not None
             and all(g in search.goal_bit for g in search.open))
    goals = np.uint64(sum(1 << search.goal_bit[g] for g in search.open if g in search.goal_bit))
    return (prune, n["s"], n["l"], n["t"], n["used"], search.scale, goals, search.field_bits, search.p.quantum,
            search.qi0, search.qj0, search.nqj, search.sb, search.sd, search.blk, search.plane, search.slot,
            table.pool if prune else _NO_POOL, table.dir if prune else _NO_DIR,
            -1 if not prune or table.bits is None else table.bits)


def record_goals(search: FrontierSearch, c: dict[str, np.ndarray], zones: np.ndarray, n: dict[str, np.ndarray], r: np.ndarray,
           pushed: np.ndarray) -> None:
    """Record the earliest arrival at each open goal among these children."""
    time = c["time"]
    gates = [g for g in search.open if g not in search.goal_bit]
    bits = np.uint64(sum(1 << search.goal_bit[g] for g in search.open if g in search.goal_bit))
    some = np.flatnonzero(zones & bits) if bits else np.zeros(0, dtype=np.int64)
    for g in list(search.open):
        z = search.goal_bit.get(g)
        if z is not None:
            hit = some[(zones[some] & np.uint64(1 << z)) != 0]
        elif gates:
            hit = gate_hits(search, g, c, n, r, pushed)
        else:
            continue
        if not len(hit):
            continue
        i = hit[np.argmin(time[hit])]
        t = int(time[i])
        if g not in search.cand or t < search.cand[g][0]:
            search._reserve(1)
            sid = search.store.add(**{kk: v[i:i + 1] for kk, v in c.items()}, key=np.array([-1]))
            search.cand[g] = (t, int(sid[0]))
