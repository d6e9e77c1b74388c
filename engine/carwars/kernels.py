"""Compiled inner loops of the Car Wars travel search (:mod:`engine.carwars.search`), with numba.

:func:`time_bound` is the A* priority of a batch of states (:meth:`Search._f
<engine.carwars.search.Search._f>`: the forward and, reversing, the any-way time bound from
the two tables' lookups) in one pass, where the numpy path makes about thirty whole-array
operations - on the small batches of a resumed search, whose cost is mostly numpy's per-call
overhead; :func:`forward_rows` reads (and fills as needed) a goal's lazy forward table,
:func:`table_get` the closed states' key table, :func:`disc_test` the clearance field's quick
collision test.  Integer arithmetic, and the float operations in the numpy path's order: the
results are equal, bit for bit (tests/carwars/test_kernels.py compares them on real and random
batches and on whole searches).

When it runs (:func:`current`): numba costs about 1.2 s of CPU to start in a process, so a
one-shot ``arena validate`` keeps numpy, and a long-lived process turns the kernel on with
:func:`enable` - the editor's Car Wars travel workers do, after their first answer: measured on
the shipped four-player arena, a card drag's searches then take about 23 % less CPU.
``ARENA_STUDIO_JIT=0`` keeps numpy everywhere, ``=1`` uses the kernels in every process.  Without
numba, numpy runs.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from engine.carwars.travel import UNITS

#: The bound of a state no open goal is within reach of (the planner's ``BIG``).
BIG = 1 << 40
#: Points at or past this are "no way" in the tables.
_CUT = 1 << 30

_state: dict[str, Any] = {"kernels": None, "failed": False, "on": False}


def mode() -> str:
    """``ARENA_STUDIO_JIT``: "0" (numpy only), "1" (the kernel everywhere) or "auto" (the
    default: where :func:`enable` was called)."""
    return os.environ.get("ARENA_STUDIO_JIT", "auto")


def enable() -> bool:
    """Turn the kernel on in this process (loading numba now); whether it is on."""
    if mode() == "0":
        return False
    _state["on"] = True
    return current() is not None


def disable() -> None:
    """Back to numpy in this process (the kernel stays loaded)."""
    _state["on"] = False


def current() -> dict[str, Callable[..., Any]] | None:
    """The kernels if this process uses them, else None (the numpy path)."""
    m = mode()
    if m == "0" or _state["failed"] or not (_state["on"] or m == "1"):
        return None
    if _state["kernels"] is None:
        _state["kernels"] = _load()
    kernels: dict[str, Callable[..., Any]] | None = _state["kernels"]
    return kernels


def _load() -> dict[str, Callable[..., Any]] | None:
    try:
        import numba  # noqa: PLC0415 - loaded only by a process that asks for it (see above)

        jit = numba.njit(cache=True, nogil=True)  # machine code cached next to this module
        return {"time_bound": jit(time_bound), "forward_rows": jit(forward_rows), "table_get": jit(table_get),
                "disc_test": jit(disc_test)}
    except Exception:  # noqa: BLE001 - pragma: no cover - no numba, or nowhere to cache: the numpy path
        _state["failed"] = True
        return None


def time_bound(s: np.ndarray, k: np.ndarray, t: np.ndarray, tm: np.ndarray, fwd: np.ndarray, any_: np.ndarray,
               table: np.ndarray, most: int, max_speed: int, reverse: bool, step: int) -> np.ndarray:
    """Each state's A* priority (1/60 turns): speed ``s`` (-1 reverse), points moved ``k`` this
    turn ``t``, time ``tm``; ``fwd`` and ``any_`` the least points to an open goal from its node
    (forward at its heading; any way); ``table`` the policy's :class:`~engine.carwars.heuristic.TimeBound`
    (``most`` points tabulated, ``max_speed``); ``reverse`` whether reversing is allowed, from a
    speed slider brought down ``step`` a turn.  :data:`BIG` where no goal is within reach.
    The bound of ``need`` points is :meth:`Search._bound <engine.carwars.search.Search._bound>`'s."""
    n = len(s)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        a = int(any_[i])
        if a >= _CUT:
            out[i] = BIG
            continue
        si, ki, ti, tmi = int(s[i]), int(k[i]), int(t[i]), int(tm[i])
        pts = 1 if si == -1 else si
        rem = pts - ki
        sl = max(si, 0)
        f = 0
        for way in range(2 if reverse else 1):  # forward, then (reversing allowed) any way
            need = int(fwd[i]) if way == 0 else a
            if need == 0:
                g = tmi
            elif need <= rem and pts > 0:
                g = (ti - 1) * UNITS + (ki + need) * UNITS // max(pts, 1)
            else:
                p = max(need - rem, 0)
                v = int(table[sl, min(p, most)])
                if p > most:
                    v += (p - most) * UNITS // max(1, max_speed)
                g = ti * UNITS + v
            if way == 0:
                f = g
            else:
                wait = max(1, -(-sl // step))
                rev_start = tmi if (si == -1 and ki == 0) else (ti + wait - 1) * UNITS
                f = min(f, max(rev_start, g))
        out[i] = f
    return out


def forward_rows(node: np.ndarray, col: np.ndarray, rows: np.ndarray, done: np.ndarray, any_: np.ndarray,
                 live: np.ndarray, bearing: np.ndarray, slack: np.ndarray, ai: np.ndarray, headings: np.ndarray,
                 table: np.ndarray, phi_step: float) -> np.ndarray:
    """``rows[node, col]`` of a :class:`~engine.carwars.heuristic.ForwardRows` (its arrays),
    filling the rows not done yet first, as its ``_fill`` does (the same float operations)."""
    n = len(node)
    out = np.empty(n, dtype=rows.dtype)
    for i in range(n):
        v = node[i]
        if not done[v]:
            base = any_[v]
            for j in range(len(headings)):
                if live[v]:
                    t = (bearing[v] - headings[j]) + 180.0  # heuristic._off, then less the slack
                    if t < 0.0:
                        t += 360.0
                    if t >= 360.0:
                        t = 0.0
                    phi = abs(t - 180.0) - slack[v]
                    pi = int(np.floor(max(phi, 0.0) / phi_step + 1e-9))
                    rows[v, j] = max(base, table[pi, ai[v]])
                else:
                    rows[v, j] = base
            done[v] = True
        out[i] = rows[v, col[i]]
    return out


def table_get(keys: np.ndarray, times: np.ndarray, query: np.ndarray, shift: int) -> np.ndarray:
    """:meth:`engine.keytable.KeyTable.get` on the table's arrays (``shift``: 64 less the
    table's size bits): the time held for each key, -1 where there is none or the key is negative."""
    mask = len(keys) - 1
    out = np.empty(len(query), dtype=np.int64)
    mix = np.uint64(0x9E3779B97F4A7C15)
    for i in range(len(query)):
        key = query[i]
        if key < 0:
            out[i] = -1
            continue
        slot = np.int64((np.uint64(key) * mix) >> np.uint64(shift))
        while True:
            held = keys[slot]
            if held == key:
                out[i] = times[slot]
                break
            if held == -1:
                out[i] = -1
                break
            slot = (slot + 1) & mask
    return out


def disc_test(x: np.ndarray, y: np.ndarray, c: np.ndarray, s: np.ndarray, mi: np.ndarray, cx: np.ndarray,
              cy: np.ndarray, inside: np.ndarray, radius: np.ndarray, low: np.ndarray, high: np.ndarray, gx0: float,
              gy0: float, grid: float, nx: int, ny: int, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`CarWarsGeometry._disc_test <engine.carwars.geometry.CarWarsGeometry._disc_test>`:
    per car (centre ``x, y``, heading cosine and sine ``c, s``, maneuver ``mi``), whether every
    disc of the maneuver's cover (centres ``cx, cy``, radius) is clear in the clearance field's
    lower bounds ``low`` (certainly free), and whether a disc centre inside the swept area lies
    deeper than ``tol`` in a blocker by the upper bounds ``high`` (certainly blocked)."""
    n = len(x)
    free = np.empty(n, dtype=np.bool_)
    blocked = np.zeros(n, dtype=np.bool_)
    for a in range(n):
        m = mi[a]
        r = radius[m]
        ok = True
        for q in range(cx.shape[1]):
            px, py = cx[m, q], cy[m, q]
            wx = x[a] + px * c[a] - py * s[a]
            wy = y[a] + px * s[a] + py * c[a]
            i = int(min(max(np.rint((wx - gx0) / grid), -1.0), float(nx))) + 1
            j = int(min(max(np.rint((wy - gy0) / grid), -1.0), float(ny))) + 1
            at = i * (ny + 2) + j
            if not low[at] > r:
                ok = False
            if inside[m, q] and high[at] < -tol:
                blocked[a] = True
        free[a] = ok
    return free, blocked
