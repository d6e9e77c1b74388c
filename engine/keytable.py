"""A vectorised hash table from int64 keys to the best (smallest) time seen: how the travel search
deduplicates states where a dense array of every possible key would be too big (fine
tolerances, states pushed by fields).  Open addressing with linear probing, whole batches at a
time with numpy; about 24 bytes a key (a Python dict takes ten times that).

>>> t = KeyTable()
>>> t.admit(np.array([7, 9, 7, 7]), np.array([5, 3, 4, 4])).tolist()   # one winner per key: the earliest
[False, True, True, False]
>>> t.admit(np.array([7, 9]), np.array([4, 1])).tolist()                # not better than 4; better than 3
[False, True]
>>> len(t), t.get(np.array([7, 9, 8])).tolist()
(2, [4, 1, -1])
"""

from __future__ import annotations

from typing import Any

import numpy as np

EMPTY = np.int64(-1)
#: The time of a slot no key has taken yet (larger than any real time).
UNSET = np.int64(np.iinfo(np.int64).max)
_MIX = np.uint64(0x9E3779B97F4A7C15)


class KeyTable:
    """Non-negative int64 keys -> smallest int64 time admitted (see :meth:`admit`)."""

    def __init__(self, capacity: int = 1 << 12) -> None:
        size = 1 << max(4, (capacity - 1).bit_length())
        self.keys = np.full(size, EMPTY, dtype=np.int64)
        self.times = np.full(size, UNSET, dtype=np.int64)
        self.n = 0

    def __len__(self) -> int:
        return self.n

    @property
    def nbytes(self) -> int:
        return int(self.keys.nbytes + self.times.nbytes)

    def _slots(self, keys: np.ndarray) -> np.ndarray:
        bits = len(self.keys).bit_length() - 1
        return ((keys.astype(np.uint64) * _MIX) >> np.uint64(64 - bits)).astype(np.int64)

    def _find(self, keys: np.ndarray, insert: bool) -> np.ndarray:
        """Slot of each (distinct) key; with ``insert``, absent keys get a free slot (time
        unset); without, -1 for absent keys."""
        mask = len(self.keys) - 1
        slot = self._slots(keys)
        out = np.full(len(keys), -1, dtype=np.int64)
        todo = np.arange(len(keys))
        while len(todo):
            s = slot[todo]
            k = self.keys[s]
            hit = k == keys[todo]
            out[todo[hit]] = s[hit]
            empty = k == EMPTY
            if insert and empty.any():
                e = todo[empty]
                self.keys[slot[e]] = keys[e]
                won = self.keys[slot[e]] == keys[e]  # two new keys may race for one slot: one wins
                out[e[won]] = slot[e[won]]
                self.n += int(won.sum())
                lost = e[~won]
                rest = todo[~hit & ~empty]
                slot[lost] = (slot[lost] + 1) & mask
                slot[rest] = (slot[rest] + 1) & mask
                todo = np.concatenate([lost, rest])
            else:
                rest = todo[~hit & ~empty]
                slot[rest] = (slot[rest] + 1) & mask
                todo = rest
        return out

    def peak_bytes(self, extra: int) -> int:
        """Bytes the table would hold at its peak while taking ``extra`` more keys."""
        size = len(self.keys)
        if 2 * (self.n + extra) <= size:
            return self.nbytes
        new = size
        while 2 * (self.n + extra) > new:
            new *= 2
        return self.nbytes + new * 16

    def _grow(self, extra: int) -> None:
        if 2 * (self.n + extra) <= len(self.keys):
            return
        old_keys, old_times = self.keys, self.times
        live = old_keys != EMPTY
        size = len(self.keys)
        while 2 * (self.n + extra) > size:
            size *= 2
        self.keys = np.full(size, EMPTY, dtype=np.int64)
        self.times = np.full(size, UNSET, dtype=np.int64)
        self.n = 0
        keys = old_keys[live]
        self.times[self._find(keys, insert=True)] = old_times[live]

    def admit(self, keys: np.ndarray, times: np.ndarray, kernels: dict[str, Any] | None = None) -> np.ndarray:
        """Which entries to keep: per distinct key the first of the smallest times, when it is
        smaller than the time the table holds (or the key is new); the table takes it.
        ``kernels``: compiled ``table_winners`` and ``table_insert`` doing the same in two passes
        (:mod:`engine.gravstrike.kernels`)."""
        keep = np.zeros(len(keys), dtype=bool)
        if not len(keys):
            return keep
        if kernels is not None:
            idx = kernels["table_winners"](keys, times)
            self._grow(len(idx))
            better, added = kernels["table_insert"](self.keys, self.times, len(self.keys).bit_length() - 1,
                                                    keys[idx], times[idx])
            self.n += int(added)
            keep[idx[better]] = True
            return keep
        order = np.lexsort((np.arange(len(keys)), times, keys))
        sk = keys[order]
        first = np.ones(len(sk), dtype=bool)
        first[1:] = sk[1:] != sk[:-1]
        idx = order[first]
        uk, ut = keys[idx], times[idx]
        self._grow(len(uk))
        slots = self._find(uk, insert=True)
        better = self.times[slots] > ut  # a new key's slot holds UNSET
        self.times[slots[better]] = ut[better]
        keep[idx[better]] = True
        return keep

    def get(self, keys: np.ndarray) -> np.ndarray:
        """The time held for each key, -1 where there is none (a negative key is never held:
        callers use them for states that must not match any other)."""
        neg = keys < 0
        if neg.any():
            out = np.full(len(keys), -1, dtype=np.int64)
            ok = np.flatnonzero(~neg)
            out[ok] = self.get(keys[ok])
            return out
        slots = self._find(keys, insert=False)
        return np.where(slots >= 0, self.times[np.maximum(slots, 0)], -1)



#: Address space a :class:`PagedTable` reserves for its pages at once (pages past it are added by
#: copying the pool): 1 GiB - a 96-length table's whole key space at the analysis tolerance is
#: 250 MB; only the pages written become resident.
RESERVE_BYTES = 1 << 30


class PagedTable:
    """A dense array over the keys ``0 .. size-1`` whose memory follows the keys written, not the
    key space: pages of ``1 << page_bits`` entries are allocated on first write (:meth:`claim`);
    reads of keys on untouched pages see ``fill`` (they all share one page that is never written).
    With ``page_bits`` None the whole array is one allocation (no directory).

    Locations (:meth:`slots`, :meth:`claim`) index :attr:`pool`, which a claim may reallocate:
    read ``pool`` again after claiming.

    >>> t = PagedTable(1 << 20, np.int16, page_bits=4)
    >>> at = t.claim(np.array([5, 1 << 19]))
    >>> t.pool[at] = [7, 8]
    >>> t.pool[t.slots(np.array([5, 6, 1 << 19, 3 << 18]))].tolist(), t.pages
    ([7, 32767, 8, 32767], 3)
    """

    def __init__(self, size: int, dtype: Any, page_bits: int | None = 14) -> None:
        self.size = size
        self.dtype = np.dtype(dtype)
        self.fill = int(np.iinfo(dtype).max)
        self.bits = page_bits
        if page_bits is None:
            self.pool = np.full(size, self.fill, dtype=self.dtype)
            self.dir = np.zeros(0, dtype=np.int64)
            self.pages = 1
        else:
            self.dir = np.zeros((size >> page_bits) + 1, dtype=np.int64)  # key page -> pool page (0: none)
            # room for every key page (up to RESERVE_BYTES), not written: the system gives memory
            # a page is claimed, and the pool never has to be copied to grow
            room = min(len(self.dir) + 1, max(8, RESERVE_BYTES // (self.dtype.itemsize << page_bits)))
            self.pool = np.empty(room << page_bits, dtype=self.dtype)
            self.pool[: 1 << page_bits] = self.fill
            self.pages = 1  # pool page 0: what keys on untouched pages read

    @property
    def nbytes(self) -> int:
        """The memory written: the pages in use (the rest of the pool is not resident) and the directory."""
        used = len(self.pool) if self.bits is None else self.pages << self.bits
        return int(used * self.dtype.itemsize + self.dir.nbytes)

    def slots(self, keys: np.ndarray) -> np.ndarray:
        """Where each key's entry is read (``fill`` for keys on pages never claimed)."""
        if self.bits is None:
            return keys
        where: np.ndarray = (self.dir[keys >> self.bits] << self.bits) | (keys & ((1 << self.bits) - 1))
        return where

    def claim(self, keys: np.ndarray) -> np.ndarray:
        """Where each key's entry is read and written, allocating the pages they are on."""
        if self.bits is None:
            return keys
        page = keys >> self.bits
        new = np.unique(page[self.dir[page] == 0])
        if len(new):
            self.grow(len(new))
            self.dir[new] = np.arange(self.pages, self.pages + len(new))
            self.pool[self.pages << self.bits:(self.pages + len(new)) << self.bits] = self.fill
            self.pages += len(new)
        return self.slots(keys)

    def grow(self, new: int) -> None:
        """Make room in :attr:`pool` for ``new`` more pages (by half again at least).  The room
        past the pages in use is left as the allocator gives it (not written, so not resident):
        a page is filled when it is claimed (:meth:`claim`,
        :func:`engine.gravstrike.kernels.dense_admit`)."""
        assert self.bits is not None
        need = (self.pages + new) << self.bits
        if need > len(self.pool):
            grown = np.empty(max(need, len(self.pool) * 3 // 2), dtype=self.dtype)
            used = self.pages << self.bits
            grown[:used] = self.pool[:used]
            self.pool = grown

    def reset(self, slots: np.ndarray) -> None:
        """Forget the entries at ``slots`` - every entry written - as new.  A paged table forgets
        its pages instead: they stay allocated for the next user, who claims them again from the
        first (filled anew), so its pages are those it writes, not also those of every search
        before it (the fourth search of a 48-length table with one key table held 52 MB of pages,
        its own 33 MB)."""
        if self.bits is None:
            self.pool[slots] = self.fill
        else:  # a page is filled anew when it is claimed
            self.dir[:] = 0
            self.pages = 1
