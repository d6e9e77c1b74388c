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

    def admit(self, keys: np.ndarray, times: np.ndarray) -> np.ndarray:
        """Which entries to keep: per distinct key the first of the smallest times, when it is
        smaller than the time the table holds (or the key is new); the table takes it."""
        keep = np.zeros(len(keys), dtype=bool)
        if not len(keys):
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
        """The time held for each key, -1 where there is none."""
        slots = self._find(keys, insert=False)
        return np.where(slots >= 0, self.times[np.maximum(slots, 0)], -1)

