"""Compiled inner loops of the vectorised travel search (:mod:`engine.gravstrike.frontier`), with numba.

Each kernel does in one pass over a batch what the numpy path does in tens of whole-array
operations, and gives bit-identical results (the same floating-point operations in the same
order; tests/engine/test_kernels.py runs whole searches both ways and compares every answer,
paths included):

* :func:`move_children` - every maneuver from every state of a batch (within the icon budget),
  the raster lookup of where each length ends: status, certain and possible zone bits
  (:meth:`engine.gravstrike.lattice.HeadingLattice.probe` before its exact geometry tests),
  without the children on blocked cells and those the key table already beats;
* :func:`child_columns` - the children's turn, speed, lengths, icons, time, parent and direction
  from their parents' (the numpy lines after the exact tests and field pushes);
* :func:`load_states` - a batch's live states read from the state store in working types;
* :func:`state_keys` - the deduplication key of each child and its fields-used bits
  (:meth:`engine.gravstrike.frontier.FrontierSearch._admit`);
* :func:`dense_admit` - the dense (paged) key table's test and update: better than the key's
  time (and than a state with fewer icons spent this turn as soon), one winner per key;
* :func:`resolve_exact` - the exact tests where the raster can't tell (a centre on a mixed cell,
  a zone a cell only maybe meets), on the regions' edges sorted into strips
  (:mod:`engine.gravstrike.strips`) instead of GEOS: the same answers except on a region's
  boundary, which a reached position meets with probability 0 (tests/engine/test_exact_kernel.py
  compares them with shapely's on every kind of cell and region);
* :func:`table_winners`, :func:`table_insert` - the hash table's admission
  (:meth:`engine.keytable.KeyTable.admit`) for states a field pushed this turn;
* :func:`bound` - the time bound of a batch (the distance map's gather and the bound table's);
* :func:`multi_dijkstra` - a goal's distance map on the heuristic's grid
  (:meth:`engine.gravstrike.heuristic.DistanceGrid.distance_map`): scipy's multi-source
  Dijkstra's distances, bit for bit (tests/engine/test_dijkstra_kernel.py).

When they run (:func:`active`): numba costs about 0.75 s of CPU and 130 MB to start in a
process (importing it, loading the cached machine code), and the kernels save about 0.1 us
per child (the rest of a batch's work - field pushes, the heuristic, storing the winners - stays
in numpy), so a process switches to them once its searches have
made :data:`WARM_CHILDREN` children with numpy: the default arena's validation (about 3 M
children) and a perturbed one's (17 M over two processes) never pay the start-up; a robustness
worker with several placements to validate loads them before its first (:func:`enable`), and so
does a process told that the searches it is about to make will pass :data:`WARM_CHILDREN` on
their own (:func:`expect`: a 48-length table's validation, 54 M children, would otherwise make
its first 12 M per process with numpy, then pay the same start-up).  ``ARENA_STUDIO_JIT=0``
keeps numpy, ``=1`` uses the kernels from the first batch.  Without numba the numpy path runs.
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from engine.gravstrike import kernels_hash
from engine.gravstrike.kernels_graph import multi_dijkstra
from engine.gravstrike.kernels_hash import table_insert, table_winners
from engine.gravstrike.strips import inside

#: Children (states times maneuvers) a process makes with numpy before it loads the kernels:
#: about 2 s of searching, past which the rest of a big search earns the start-up back.
WARM_CHILDREN = 12_000_000

_BLOCKED, _FREE, _MIXED = 0, 1, 2  # engine.gravstrike.cspace's status codes
#: :func:`move_children` reads statuses flagged by :func:`zone_flagged`: the code in the low bits,
#: :data:`_ZONED` when the cell has zone bits (certain or possible).
_STATUS, _ZONED = 3, 4
_NONE = np.uint64(0)

_state: dict[str, Any] = {"made": 0, "kernels": None, "failed": False}


def mode() -> str:
    """``ARENA_STUDIO_JIT``: "0" (numpy only), "1" (kernels always) or "auto" (the default)."""
    return os.environ.get("ARENA_STUDIO_JIT", "auto")


def active(children: int) -> dict[str, Callable[..., Any]] | None:
    """The compiled kernels if this batch of ``children`` should use them, else None (numpy)."""
    m = mode()
    if m == "0" or _state["failed"]:
        return None
    if _state["kernels"] is None:
        _state["made"] += children
        if m != "1" and _state["made"] < WARM_CHILDREN:
            return None
        _state["kernels"] = _load()
    kernels: dict[str, Callable[..., Any]] | None = _state["kernels"]
    return kernels


def enable() -> bool:
    """Load the kernels now, whatever this process has searched so far (a process that will make
    many searches: a robustness worker); whether they are loaded.  ``ARENA_STUDIO_JIT=0`` wins."""
    if mode() == "0" or _state["failed"]:
        return False
    if _state["kernels"] is None:
        _state["kernels"] = _load()
    return _state["kernels"] is not None


def expect(children: int) -> bool:
    """A process about to make about ``children`` more children: load the kernels now if, with
    what it has made so far, that reaches :data:`WARM_CHILDREN` (they would be loaded on the way
    anyway, after the first 12 M children were made the slow way); whether they are loaded."""
    if mode() == "0" or _state["failed"]:
        return False
    if _state["kernels"] is None and _state["made"] + children >= WARM_CHILDREN:
        return enable()
    return _state["kernels"] is not None


def current() -> dict[str, Callable[..., Any]] | None:
    """The kernels if this process has loaded them (and they are not turned off), else None."""
    if mode() == "0":
        return None
    kernels: dict[str, Callable[..., Any]] | None = _state["kernels"]
    return kernels


def _load() -> dict[str, Callable[..., Any]] | None:
    """Compile (or load from numba's cache) the kernels; a second call returns the first's."""
    done: dict[str, Callable[..., Any]] | None = _state.get("compiled")
    if done is not None:
        return done
    try:
        import numba  # noqa: PLC0415 - loaded only when a process has earned it (see above)

        jit = numba.njit(cache=True, nogil=True)  # cached next to this module, or in the user's cache
        # the kernels call these: compiled before they are (once: a compiled one keeps its py_func);
        # ``earlier`` inlined where it is called (a call per child cost a fifth of move_children)
        globals()["earlier"] = numba.njit(cache=True, nogil=True, inline="always")(getattr(earlier, "py_func", earlier))
        globals()["inside"] = jit(getattr(inside, "py_func", inside))
        kernels_hash.probe = numba.njit(cache=True, nogil=True, inline="always")(
            getattr(kernels_hash.probe, "py_func", kernels_hash.probe))
        done = _state["compiled"] = {
            "move_children": jit(move_children), "child_columns": jit(child_columns), "load_states": jit(load_states),
            "state_keys": jit(state_keys),
            "dense_admit": jit(dense_admit),
            "resolve_exact": jit(resolve_exact), "table_winners": jit(table_winners),
            "table_insert": jit(table_insert), "bound": jit(bound), "multi_dijkstra": jit(multi_dijkstra)}
        return done
    except Exception:  # noqa: BLE001 - pragma: no cover - no numba, or nowhere to cache: the numpy path
        _state["failed"] = True
        return None


def zone_flagged(status: np.ndarray, sure: np.ndarray, maybe: np.ndarray) -> np.ndarray:
    """``status`` with :data:`_ZONED` added where ``sure`` or ``maybe`` has a bit: the status
    :func:`move_children` reads (one byte a child, the 8-byte masks only on the cells that
    meet a zone - about an eighth of the default arena's).

    >>> zone_flagged(np.array([[1, 2, 0]], dtype=np.uint8), np.array([[0, 1, 0]], dtype=np.uint64),
    ...              np.array([[4, 0, 0]], dtype=np.uint64)).tolist()
    [[5, 6, 0]]
    """
    flagged: np.ndarray = status | np.where((sure | maybe) != 0, np.uint8(_ZONED), np.uint8(0))
    return flagged


def earlier(key: int, t: int, within: int, pool: np.ndarray, dirs: np.ndarray, bits: int, mask: int,
            stride: int) -> bool:
    """Is ``t`` earlier than the table's time for ``key`` and, within a turn, than those of the
    ``within`` keys below it (the same state with 1 .. ``within`` fewer icons spent)?  ``bits``
    -1: keys are locations; else pages of ``1 << bits`` entries through ``dirs`` (``mask`` the
    offset's bits)."""
    at = key if bits < 0 else (dirs[key >> bits] << bits) | (key & mask)
    good: bool = pool[at] > t
    for d in range(1, within + 1):
        if not good:
            break
        kk = key - d * stride
        at = kk if bits < 0 else (dirs[kk >> bits] << bits) | (kk & mask)
        good = pool[at] > t
    return good


def move_children(x: np.ndarray, y: np.ndarray, hk: np.ndarray, spent: np.ndarray, budget: int,
                  dx: np.ndarray, dy: np.ndarray, nh: np.ndarray, cost: np.ndarray,
                  x0: float, y0: float, cell: float, nx: int, ny: int,
                  status: np.ndarray, sure: np.ndarray, maybe: np.ndarray, prune: bool,
                  s: np.ndarray, l: np.ndarray, t: np.ndarray, used: np.ndarray, scale: int, keep: np.uint64,
                  fields: np.uint64, q: float, qi0: int, qj0: int, nqj: int, sb: int, sd: int, blk: int,
                  plane: int, slot: np.ndarray, pool: np.ndarray, dirs: np.ndarray, bits: int) -> tuple[np.ndarray, ...]:
    """Every maneuver ``k`` from every state ``r`` (those within ``budget`` icons; -1: no
    budget) that ends on a cell of the raster not blocked: (r, k, x, y, new heading, status of
    the cell, the cell, its certain zone bits, its possible zone bits).  ``status`` is flagged
    (:func:`zone_flagged`): a cell's bit masks are read only when it has some.

    With ``prune``, also without the children the key table already beats: those whose key's
    time (or, within a turn, that of a key with fewer icons spent) is already no later than their
    own, as :func:`dense_admit` would find it - unless the cell may meet a zone in ``keep`` (open
    goals: an arrival is recorded before admission) or a field the state has not used this turn
    (a push moves it to another key), or the child is not on the dense table (fields used this
    turn).  The table only improves, so every child dropped would be refused later and none of
    them changes the others' fate: the search is unchanged (``s`` .. ``bits``: the parents' speed,
    lengths, turn and fields used, and the key layout and table of
    :meth:`engine.gravstrike.frontier.FrontierSearch._admit`)."""
    m, count = len(x), dx.shape[1]
    total = m * count
    r_out = np.empty(total, dtype=np.int64)
    k_out = np.empty(total, dtype=np.int64)
    x_out = np.empty(total, dtype=np.float64)
    y_out = np.empty(total, dtype=np.float64)
    h_out = np.empty(total, dtype=np.int64)
    st_out = np.empty(total, dtype=np.uint8)
    c_out = np.empty(total, dtype=np.int64)
    sure_out = np.empty(total, dtype=np.uint64)
    maybe_out = np.empty(total, dtype=np.uint64)
    rows = status.shape[0]
    mask = (1 << bits) - 1 if bits >= 0 else 0
    n = 0
    for i in range(m):
        h = hk[i]
        si = s[i]
        li = l[i] + 1
        tm = (t[i] - 1) * scale + scale * li // si
        b = li >= si
        wanted = keep | (fields & ~used[i])
        dense = prune and (b or used[i] == 0)
        for k in range(count):
            if budget >= 0 and cost[k] > budget - spent[i]:
                continue
            px = x[i] + dx[h, k]
            py = y[i] + dy[h, k]
            g = nh[h, k]
            fi = (px - x0) / cell
            fj = (py - y0) / cell
            if not (fi >= 0.0 and fj >= 0.0 and fi < nx and fj < ny):
                continue
            c = int(fi) * ny + int(fj)
            sz = status[g % rows, c]
            st = sz & _STATUS
            if st == _BLOCKED:
                continue
            if sz & _ZONED:  # most cells meet no zone: their bit masks are not read
                zs = sure[g % rows, c]
                zm = maybe[g % rows, c]
            else:
                zs = _NONE
                zm = _NONE
            if dense and ((zs | zm) & wanted) == 0:
                sp = 0 if budget < 0 else spent[i] + cost[k]
                sl = si if b else sb + slot[si, min(li, si)] * sd + sp
                key = (g * blk + sl) * plane + (np.int64(np.rint(px / q)) - qi0) * nqj + np.int64(np.rint(py / q)) - qj0
                if not earlier(key, tm, 0 if b else sp, pool, dirs, bits, mask, plane):
                    continue
            r_out[n], k_out[n], x_out[n], y_out[n], h_out[n] = i, k, px, py, g
            st_out[n], c_out[n] = st, c
            sure_out[n] = zs
            maybe_out[n] = zm
            n += 1
    return (r_out[:n], k_out[:n], x_out[:n], y_out[:n], h_out[:n], st_out[:n], c_out[:n], sure_out[:n],
            maybe_out[:n])


def child_columns(r: np.ndarray, k: np.ndarray, t: np.ndarray, s: np.ndarray, l: np.ndarray, spent: np.ndarray,
                  icons: np.ndarray, parent: np.ndarray, rev: np.ndarray, cost: np.ndarray,
                  scale: int) -> tuple[np.ndarray, ...]:
    """The columns of children ``(r, k)`` (parent row, maneuver) taken from their parents' one
    more length on: (turn, speed, lengths, icons spent this turn, time, icons, parent, reverse),
    the numpy lines of :meth:`engine.gravstrike.frontier.FrontierSearch._move_lengths` in one pass (the
    parents' columns are 64-bit integers, as are these)."""
    n = len(r)
    t_o = np.empty(n, dtype=np.int64)
    s_o = np.empty(n, dtype=np.int64)
    l_o = np.empty(n, dtype=np.int64)
    spent_o = np.empty(n, dtype=np.int64)
    time_o = np.empty(n, dtype=np.int64)
    icons_o = np.empty(n, dtype=np.int64)
    parent_o = np.empty(n, dtype=np.int64)
    rev_o = np.empty(n, dtype=np.int64)
    for i in range(n):
        j = r[i]
        c = cost[k[i]]
        ti, si, li = t[j], s[j], l[j] + 1
        t_o[i], s_o[i], l_o[i] = ti, si, li
        time_o[i] = (ti - 1) * scale + scale * li // si
        spent_o[i] = spent[j] + c
        icons_o[i] = icons[j] + c
        parent_o[i] = parent[j]
        rev_o[i] = rev[j]
    return t_o, s_o, l_o, spent_o, time_o, icons_o, parent_o, rev_o


def load_states(ids: np.ndarray, pool: np.ndarray, every: bool, x: np.ndarray, y: np.ndarray, hk: np.ndarray,
                t: np.ndarray, s: np.ndarray, l: np.ndarray, spent: np.ndarray, used: np.ndarray, time: np.ndarray,
                icons: np.ndarray, parent: np.ndarray, move: np.ndarray, key: np.ndarray,
                rev: np.ndarray) -> tuple[np.ndarray, ...]:
    """The states ``ids`` of the store's columns still live - unless ``every``, those whose key
    (-1: none) the table ``pool`` does not hold earlier than their time - and their columns in
    working types: (ids, x, y, hk, t, s, l, spent, used, time, icons, parent, move, key, rev), as
    :meth:`engine.gravstrike.state_store.StateStore.get` and the live test of
    :meth:`engine.gravstrike.frontier.FrontierSearch._loop` give them."""
    n = len(ids)
    live = np.empty(n, dtype=np.int64)
    w = 0
    for j in range(n):
        i = ids[j]
        if every or key[i] < 0 or pool[key[i]] >= time[i]:
            live[w] = i
            w += 1
    o_ids = np.empty(w, dtype=np.int64)
    o_x = np.empty(w, dtype=np.float64)
    o_y = np.empty(w, dtype=np.float64)
    o_hk = np.empty(w, dtype=np.int64)
    o_t = np.empty(w, dtype=np.int64)
    o_s = np.empty(w, dtype=np.int64)
    o_l = np.empty(w, dtype=np.int64)
    o_spent = np.empty(w, dtype=np.int64)
    o_used = np.empty(w, dtype=np.uint64)
    o_time = np.empty(w, dtype=np.int64)
    o_icons = np.empty(w, dtype=np.int64)
    o_parent = np.empty(w, dtype=np.int64)
    o_move = np.empty(w, dtype=np.int64)
    o_key = np.empty(w, dtype=np.int64)
    o_rev = np.empty(w, dtype=np.int64)
    for j in range(w):
        i = live[j]
        o_ids[j] = i
        o_x[j], o_y[j], o_hk[j], o_t[j], o_s[j], o_l[j] = x[i], y[i], hk[i], t[i], s[i], l[i]
        o_spent[j], o_used[j], o_time[j], o_icons[j] = spent[i], used[i], time[i], icons[i]
        o_parent[j], o_move[j], o_key[j], o_rev[j] = parent[i], move[i], key[i], rev[i]
    return (o_ids, o_x, o_y, o_hk, o_t, o_s, o_l, o_spent, o_used, o_time, o_icons, o_parent, o_move, o_key,
            o_rev)


def state_keys(x: np.ndarray, y: np.ndarray, hk: np.ndarray, s: np.ndarray, l: np.ndarray, spent: np.ndarray,
               used: np.ndarray, no_budget: bool, q: float, qi0: int, qj0: int, nqj: int, sb: int, sd: int,
               blk: int, plane: int, slot: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(key, fields-used bits, at a turn's boundary, icons spent) of each child: the numpy
    lines at the head of :meth:`engine.gravstrike.frontier.FrontierSearch._admit`."""
    n = len(x)
    key = np.empty(n, dtype=np.int64)
    used_out = np.empty(n, dtype=np.int64)
    bnd = np.empty(n, dtype=np.bool_)
    sp_out = np.empty(n, dtype=np.int64)
    for i in range(n):
        qi = np.int64(np.rint(x[i] / q)) - qi0
        qj = np.int64(np.rint(y[i] / q)) - qj0
        si = s[i]
        b = l[i] >= si
        sp = 0 if no_budget else spent[i]
        sl = si if b else sb + slot[si, min(l[i], si)] * sd + sp
        key[i] = (hk[i] * blk + sl) * plane + qi * nqj + qj
        used_out[i] = 0 if b else np.int64(used[i])
        bnd[i] = b
        sp_out[i] = sp
    return key, used_out, bnd, sp_out


def dense_admit(key: np.ndarray, tm: np.ndarray, bnd: np.ndarray, spent: np.ndarray, used: np.ndarray,
                pool: np.ndarray, dirs: np.ndarray, bits: int, pages: int, stride: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The dense table's test for the children no field pushed this turn (``used`` 0), with keys
    ``key`` at times ``tm``: a child is kept when it is earlier than its key's time and, within a
    turn (not ``bnd``), than the times of the keys with 1 .. ``spent`` fewer icons spent, as the
    table held them before this batch; one winner per key, the earliest, the first of equals;
    the table takes the winners' times.  ``bits`` -1: one page (keys are locations); else pages
    of ``1 << bits`` entries through ``dirs``, new ones numbered from ``pages`` and filled with
    page 0's value (the pool past the pages in use is not written until then).

    Returns (the winners' indices in order, where their times are kept, pages now in use,
    pages missing): when the pool is too small for the new pages nothing is written and
    "pages missing" says how many new pages the batch needs (grow the pool, call again)."""
    n = len(key)
    ok = np.zeros(n, dtype=np.bool_)
    mask = (1 << bits) - 1 if bits >= 0 else 0
    for i in range(n):
        if used[i] != 0:
            continue
        k = key[i]
        ok[i] = earlier(k, tm[i], 0 if bnd[i] else spent[i], pool, dirs, bits, mask, stride)
    if bits >= 0:  # new pages: count them (marked -1), check the pool, then number them
        new = 0
        for i in range(n):
            if ok[i] and dirs[key[i] >> bits] == 0:
                dirs[key[i] >> bits] = -1
                new += 1
        if (pages + new) << bits > len(pool):
            for i in range(n):
                if ok[i] and dirs[key[i] >> bits] == -1:
                    dirs[key[i] >> bits] = 0
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), pages, new
        first = pages
        for i in range(n):
            if ok[i] and dirs[key[i] >> bits] == -1:
                dirs[key[i] >> bits] = pages
                pages += 1
        pool[first << bits:pages << bits] = pool[0]  # new pages read "never": page 0's value
    loc = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if ok[i]:
            k = key[i]
            at = k if bits < 0 else (dirs[k >> bits] << bits) | (k & mask)
            loc[i] = at
            if tm[i] < pool[at]:
                pool[at] = tm[i]
    win = np.empty(n, dtype=np.int64)
    w = 0
    for i in range(n):  # the first child at its key's new time wins; -1 marks the key taken
        if ok[i] and pool[loc[i]] == tm[i]:
            pool[loc[i]] = -1
            win[w] = i
            w += 1
    for j in range(w):
        pool[loc[win[j]]] = tm[win[j]]
    return win[:w], loc[win[:w]], pages, 0


def resolve_exact(x: np.ndarray, y: np.ndarray, hk: np.ndarray, st: np.ndarray, sure: np.ndarray, maybe: np.ndarray,
                  rows: int, per_row: int, edges: np.ndarray, offsets: np.ndarray, order: np.ndarray, y0: float,
                  height: float, poly: np.ndarray, wall: np.ndarray, row_cs: np.ndarray, halves: np.ndarray,
                  circ: np.ndarray, circ_par: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`engine.gravstrike.lattice.HeadingLattice.resolve` in one pass, GEOS's point tests replaced by
    :func:`engine.gravstrike.strips.inside` on the lattice's :class:`~engine.gravstrike.strips.StripIndex`
    (region ``row * per_row`` is a row's free region without its circular walls, ``row * per_row + 1 + z``
    zone ``z``'s where ``poly[z]``): a centre on a mixed cell is free when it is inside that region and
    clear of every circular wall (``wall``: x, y, radius rows; ``row_cs``: the row's heading's cos and
    sin; ``halves``: the shrunk footprint's half extents); a possible zone bit is decided by the
    circle's exact distance (``circ``, ``circ_par``, at the heading of travel's ``cos``/``sin``) or
    the region test."""
    n = len(x)
    free = np.empty(n, dtype=np.bool_)
    zones = np.zeros(n, dtype=np.uint64)
    hl, hw = halves[0], halves[1]
    nw = wall.shape[1]
    for i in range(n):
        row = hk[i] % rows
        px, py = x[i], y[i]
        s = st[i]
        if s == _MIXED:
            ok = inside(edges, offsets, order, row * per_row, y0, height, px, py)
            if ok and nw:
                c, sn = row_cs[row, 0], row_cs[row, 1]
                for w in range(nw):
                    dx = wall[0, w] - px
                    dy = wall[1, w] - py
                    lx = max(abs(dx * c + dy * sn) - hl, 0.0)
                    ly = max(abs(-dx * sn + dy * c) - hw, 0.0)
                    if not lx * lx + ly * ly > wall[2, w] * wall[2, w]:
                        ok = False
                        break
            free[i] = ok
        else:
            free[i] = s == _FREE
        if not free[i]:
            continue
        z_out = sure[i]
        bits = maybe[i]
        z = 0
        while bits:
            if bits & np.uint64(1):
                bit = np.uint64(1) << np.uint64(z)
                if circ[z]:
                    c, sn = cos[hk[i]], sin[hk[i]]
                    dx = circ_par[0, z] - px
                    dy = circ_par[1, z] - py
                    lx = max(abs(dx * c + dy * sn) - circ_par[3, z], 0.0)
                    ly = max(abs(-dx * sn + dy * c) - circ_par[4, z], 0.0)
                    if lx * lx + ly * ly <= circ_par[2, z] * circ_par[2, z]:
                        z_out |= bit
                elif poly[z] and inside(edges, offsets, order, row * per_row + 1 + z, y0, height, px, py):
                    z_out |= bit
            bits >>= np.uint64(1)
            z += 1
        zones[i] = z_out
    return free, zones


def bound(x: np.ndarray, y: np.ndarray, s: np.ndarray, l: np.ndarray, spent: np.ndarray, dist: np.ndarray,
          x0: float, y0: float, cell: float, nx: int, ny: int, rows: np.ndarray, table: np.ndarray, step: float,
          budget: int, unbounded: int) -> tuple[np.ndarray, int]:
    """:meth:`engine.gravstrike.frontier.FrontierSearch._h` in one pass: the distance map's value
    at each state's cell (infinite off the map) through the bound table's row for its speed,
    lengths done and icons left (``budget`` -1: no budget).  Returns (bounds, rows missing): when
    a row is not tabulated yet nothing is valid (the numpy path adds it)."""
    n = len(x)
    out = np.empty(n, dtype=np.int64)
    width = table.shape[1]
    for i in range(n):
        left = 0 if budget < 0 else budget - spent[i] + 1
        row = rows[s[i], l[i], left]
        if row < 0:
            return out, 1
        fi = (x[i] - x0) / cell
        fj = (y[i] - y0) / cell
        if fi >= 0 and fj >= 0 and fi < nx and fj < ny:
            d = dist[int(fi) * ny + int(fj)]
        else:
            d = np.inf
        if np.isfinite(d):
            out[i] = table[row, min(np.int64(d / step), width - 1)]
        else:
            out[i] = unbounded
    return out, 0
