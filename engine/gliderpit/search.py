"""The travel search's inner loop, vectorised with numpy.

A state is (hex, facing, speed at the start of the Movement Phase) with the altitudes it is
reached at as a bit set (bit a = altitude a, 0..20); state ids are
``(hex_index * 6 + facing) * 6 + speed``.

Per start speed, the macros are merged into *outcomes* (same end hex offset, end facing, end
speed, altitude change and whether the glider climbed, in the frame of facing 0).  Per pit,
:attr:`Table.window` holds for every hex, facing and outcome the start altitudes from which at
least one of the outcome's macros, turned to that facing, keeps clear of the wall, LEDGE and
FLOOR.  A turn from a whole layer of states is then a few array operations per speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from engine import budget as caps
from engine.gliderpit.movement import phase_macros, placed_macros
from engine.gliderpit.rules import DIVE_MAX, MAX_SPEED, TOP_ALTITUDE, Deceleration
from engine.grids import Axial, hex_rotate

IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]
#: Padding around the pit in the lookup grid (a phase moves at most 5 hexes).
_PAD = MAX_SPEED + 1


@dataclass(frozen=True)
class Groups:
    """The outcomes of one start speed in the frame of facing 0 (G outcomes)."""

    end: IntArray  # (6, G, 2) end offset turned to each start facing
    facing: IntArray  # (G,) end facing relative to the start facing
    speed: IntArray  # (G,) speed at the end of the phase
    dalt: IntArray  # (G,)
    climbed: BoolArray  # (G,)
    macros: tuple[tuple[int, ...], ...]  # macro indices (into phase_macros) of each outcome
    offsets: IntArray  # (6, E, 2) hex offsets any macro enters, turned to each facing; [.., 0] = (0, 0)
    entered: IntArray  # (M, 5) per macro, indices into offsets (0-padded)
    low: IntArray  # (M,)
    high: IntArray  # (M,)
    order: IntArray  # macro indices sorted by outcome
    starts: IntArray  # where each outcome's macros start in ``order``
    sets: IntArray  # (S, 5) the distinct rows of ``entered`` (sets of entered offsets)
    set_of: IntArray  # (M,) per macro, its row of ``sets``
    ranks: tuple[tuple[IntArray, IntArray], ...]  # rank k: (outcomes with a k-th macro, those macros)


@lru_cache(maxsize=None)
def groups(speed: int) -> Groups:
    ms = phase_macros(speed)
    keys: dict[tuple[Axial, int, int, int, bool], list[int]] = {}
    for i, m in enumerate(ms):
        keys.setdefault((m.end, m.facing, m.speed, m.dalt, m.climbed), []).append(i)
    items = list(keys.items())
    offs = [(0, 0)] + sorted({h for m in ms for h in m.entered} - {(0, 0)})
    at = {h: i for i, h in enumerate(offs)}
    entered = np.zeros((len(ms), MAX_SPEED), dtype=np.int64)
    for j, m in enumerate(ms):
        for k, h in enumerate(m.entered):
            entered[j, k] = at[h]
    g = len(items)
    sets, set_of = np.unique(entered, axis=0, return_inverse=True)
    members = [m for _, m in items]
    ranks = tuple((np.array([j for j, m in enumerate(members) if len(m) > k], dtype=np.int64),
                   np.array([m[k] for m in members if len(m) > k], dtype=np.int64))
                  for k in range(max(map(len, members), default=0)))
    return Groups(
        end=np.array([[hex_rotate(k[0], f) for k, _ in items] for f in range(6)], dtype=np.int64).reshape(6, g, 2),
        facing=np.array([k[1] for k, _ in items], dtype=np.int64),
        speed=np.array([k[2] for k, _ in items], dtype=np.int64),
        dalt=np.array([k[3] for k, _ in items], dtype=np.int64),
        climbed=np.array([k[4] for k, _ in items], dtype=bool),
        macros=tuple(tuple(m) for _, m in items),
        offsets=np.array([[hex_rotate(h, f) for h in offs] for f in range(6)], dtype=np.int64).reshape(6, len(offs), 2),
        entered=entered,
        low=np.array([m.low for m in ms], dtype=np.int64),
        high=np.array([m.high for m in ms], dtype=np.int64),
        order=np.array([i for _, members in items for i in members], dtype=np.int64),
        starts=np.cumsum([0] + [len(members) for _, members in items[:-1]]).astype(np.int64),
        sets=sets.astype(np.int64),
        set_of=set_of.reshape(-1).astype(np.int64),
        ranks=ranks,
    )


@dataclass(frozen=True)
class Table:
    """One start speed's outcomes on one pit (H hexes)."""

    groups: Groups
    window: npt.NDArray[np.int32]  # (H, 6, G) start altitudes allowed
    end_index: Int32Array  # (H, 6, G) hex index of the end (-1: off the pit)
    next_speed: IntArray  # (D, G) speed after each Glide Phase choice
    allowed: BoolArray  # (D, G) whether the choice is open


def table_mib(n_hex: int, speed: int) -> float:
    """About the MiB :meth:`Grid._table` holds at its peak for ``n_hex`` hexes: the tables
    (int32 window and end hex per hex, facing and outcome) and its largest temporaries
    (per hex, facing and outcome: one bool, two int32; per hex, facing and set of entered hexes,
    five bools)."""
    gr = groups(speed)
    return n_hex * 6 * (len(gr.macros) * 17 + len(gr.sets) * 6) / (1 << 20)


class Grid:
    """One pit's lookup tables and the layer expansion."""

    def __init__(self, cells: list[Axial], floor: int, deceleration: Deceleration) -> None:
        self.cells = cells
        self.floor = floor
        self.deceleration = deceleration
        qs = np.array([q for q, _ in cells], dtype=np.int64)
        rs = np.array([r for _, r in cells], dtype=np.int64)
        self.q0, self.r0 = int(qs.min()) - _PAD, int(rs.min()) - _PAD
        self.index = np.full((int(qs.max()) - self.q0 + _PAD + 1, int(rs.max()) - self.r0 + _PAD + 1), -1, dtype=np.int64)
        self.index[qs - self.q0, rs - self.r0] = np.arange(len(cells))
        self.gq, self.gr = qs - self.q0, rs - self.r0
        self.n_states = len(cells) * 36
        self.above_floor = ((1 << (TOP_ALTITUDE + 1)) - 1) & ~((1 << (floor + 1)) - 1)
        self.tables: dict[int, Table] = {}
        for s in range(1, MAX_SPEED + 1):
            caps.reserve(table_mib(len(cells), s))  # the analysis's memory cap (engine.budget), before the tables
            self.tables[s] = self._table(s)

    def state_id(self, hex_index: int, facing: int, speed: int) -> int:
        return (hex_index * 6 + facing) * 6 + speed

    @staticmethod
    def split_id(sid: int) -> tuple[int, int, int]:
        return sid // 36, (sid // 6) % 6, sid % 6

    def _table(self, speed: int) -> Table:
        """The table of one start speed, every facing at once.  A macro is open at a hex when
        every hex it enters is on the pit; the 483 macros of speed 5 enter only 50 distinct sets
        of hexes (:attr:`Groups.sets`), so that is asked per set, then an outcome's window is
        the OR of its open macros' altitude bits, gathered rank by rank (:attr:`Groups.ranks`:
        the k-th macro of every outcome that has k + 1 or more).  Indices into :attr:`index`
        are flat (its padding keeps every offset inside a row)."""
        gr = groups(speed)
        lo = self.floor + 1 - gr.low
        hi = TOP_ALTITUDE - gr.high
        bits = np.where(lo <= hi, ((np.int64(1) << (np.maximum(hi, 0) + 1)) - 1) & ~((np.int64(1) << np.maximum(lo, 0)) - 1),
                        0).astype(np.int32)  # per macro (phase_macros order)
        flat = self.index.ravel().astype(np.int32)  # int32 hex indices: half the memory to fill
        width = self.index.shape[1]
        base = (self.gq * width + self.gr).astype(np.int32)[:, None, None]
        outside = flat[base + (gr.offsets[..., 0] * width + gr.offsets[..., 1]).astype(np.int32)[None]] < 0  # (H, 6, E)
        open_sets = ~outside[:, :, gr.sets].any(axis=3)  # (H, 6, S): every hex of the set on the pit
        ends = flat[base + (gr.end[..., 0] * width + gr.end[..., 1]).astype(np.int32)[None]]  # (H, 6, G)
        first = gr.ranks[0][1]  # every outcome has a first macro (np.take: a C-ordered table)
        window: Int32Array = np.where(np.take(open_sets, gr.set_of[first], axis=2), bits[first], np.int32(0))
        for outcomes, macros in gr.ranks[1:]:
            window[:, :, outcomes] |= np.where(np.take(open_sets, gr.set_of[macros], axis=2), bits[macros], np.int32(0))
        window[ends < 0] = 0
        if self.deceleration == "always":
            glide = gr.speed - 1
        else:
            glide = gr.speed.copy()
        next_speed = np.stack([glide] + [gr.speed + d for d in range(1, DIVE_MAX + 1)])
        allowed = np.stack([glide >= 1] + [(gr.speed + d <= MAX_SPEED) & ~gr.climbed for d in range(1, DIVE_MAX + 1)])
        return Table(gr, window, ends, next_speed, allowed)

    def forward(self, ids: IntArray, alts: IntArray, seen: IntArray, keep: BoolArray | None = None,
                arrivals_only: bool = False) -> tuple[IntArray, IntArray, IntArray, bool]:
        """One turn from states ``ids`` at altitude sets ``alts``: the states reached that
        ``seen`` lacks (ids, altitude sets; ``seen`` is updated; states where ``keep`` is
        False are dropped), per hex the altitudes a Movement Phase may end there at, and
        whether any state was dropped.  ``arrivals_only`` skips the Glide Phase and the new
        states (for a search's last turn)."""
        acc = np.zeros(self.n_states, dtype=np.int64)
        arrive = np.zeros(len(self.cells), dtype=np.int64)
        speeds = ids % 6
        for speed, tb in self.tables.items():
            sel = np.nonzero(speeds == speed)[0]
            if not sel.size:
                continue
            hexes, facings = ids[sel] // 36, (ids[sel] // 6) % 6
            # altitude sets have 21 bits: AND them in int32, widen only the entries kept
            ok = tb.window[hexes, facings] & alts[sel, None].astype(np.int32)
            k, g = np.nonzero(ok)
            bits = ok[k, g].astype(np.int64)
            dalt = tb.groups.dalt[g]
            ends = np.where(dalt >= 0, bits << np.maximum(dalt, 0), bits >> np.maximum(-dalt, 0))
            end = tb.end_index[hexes[k], facings[k], g].astype(np.int64)
            np.bitwise_or.at(arrive, end, ends)
            if arrivals_only:
                continue
            base = end * 36 + ((tb.groups.facing[g] + facings[k]) % 6) * 6
            for dive in range(DIVE_MAX + 1):
                nbits = (ends >> dive) & self.above_floor
                go = tb.allowed[dive][g] & (nbits != 0)
                np.bitwise_or.at(acc, (base + tb.next_speed[dive][g])[go], nbits[go])
        new = acc & ~seen
        dropped = False
        if keep is not None:
            dropped = bool(new[~keep].any())
            new[~keep] = 0
        nids = np.nonzero(new)[0].astype(np.int64)
        seen[nids] |= new[nids]
        return nids, new[nids], arrive, dropped

    def explain(self, prev: dict[int, int], sid: int, alt: int, arrival: bool) -> tuple[int, int, int, int]:
        """Which state of ``prev`` (id -> altitude set) reaches state ``sid`` at ``alt`` in one
        turn — or, when ``arrival``, ends its Movement Phase in hex ``sid`` at ``alt`` — and
        how: (previous id, previous altitude, macro index into :func:`placed_macros`, dive;
        -1 for an arrival)."""
        target_hex, target_facing, target_speed = (sid, -1, -1) if arrival else self.split_id(sid)
        tq, tr = int(self.gq[target_hex]), int(self.gr[target_hex])
        for speed, tb in self.tables.items():
            gr = tb.groups
            for facing in range(6):
                for g in range(len(gr.macros)):
                    if not arrival and (int(gr.facing[g]) + facing) % 6 != target_facing:
                        continue
                    src = int(self.index[tq - int(gr.end[facing, g, 0]), tr - int(gr.end[facing, g, 1])])
                    if src < 0:
                        continue
                    psid = self.state_id(src, facing, speed)
                    have = prev.get(psid, 0)
                    if not have:
                        continue
                    options = [(-1, alt)] if arrival else [
                        (d, alt + d) for d in range(DIVE_MAX + 1)
                        if bool(tb.allowed[d, g]) and int(tb.next_speed[d, g]) == target_speed]
                    for dive, end_alt in options:
                        palt = end_alt - int(gr.dalt[g])
                        if palt < 0 or not (have >> palt) & 1 or not (int(tb.window[src, facing, g]) >> palt) & 1:
                            continue
                        return psid, palt, self._macro(gr, g, src, facing, speed, palt), dive
        raise LookupError("no predecessor")  # pragma: no cover - the forward search found one

    def _macro(self, gr: Groups, g: int, src: int, facing: int, speed: int, alt: int) -> int:
        """A macro of outcome ``g`` that a glider at hex ``src`` facing ``facing`` at
        altitude ``alt`` may fly."""
        pms = placed_macros(speed, facing)
        q, r = int(self.gq[src]), int(self.gr[src])
        for i in gr.macros[g]:
            pm = pms[i]
            if pm.macro.altitudes_ok(alt, self.floor) and all(self.index[q + dq, r + dr] >= 0 for dq, dr in pm.entered):
                return i
        raise LookupError("no macro")  # pragma: no cover
