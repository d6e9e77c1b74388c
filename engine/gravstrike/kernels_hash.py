"""The hash table's admission kernels (:mod:`engine.gravstrike.kernels` compiles them with the
others, :func:`probe` inlined where it is called): :func:`table_winners` and :func:`table_insert`,
:meth:`engine.keytable.KeyTable.admit` for the states a field pushed this turn."""

from __future__ import annotations

import numpy as np

_MIX = np.uint64(0x9E3779B97F4A7C15)  # engine.keytable's hash multiplier


def probe(tkeys: np.ndarray, k: int, shift: np.uint64, mask: int) -> tuple[np.int64, bool]:
    """The slot of key ``k`` in the open-addressing table ``tkeys`` (-1: empty; linear probing
    from the hash the numpy table uses), taken if it was not there: (slot, whether it is new)."""
    s = np.int64((np.uint64(k) * _MIX) >> shift)
    while tkeys[s] != k and tkeys[s] != -1:
        s = (s + 1) & mask
    if tkeys[s] == -1:
        tkeys[s] = k
        return s, True
    return s, False


def table_winners(keys: np.ndarray, times: np.ndarray) -> np.ndarray:
    """Per distinct key, the index of the first of its smallest times (the candidates of
    :meth:`engine.keytable.KeyTable.admit`), in the order the keys first occur: one pass
    through a scratch open-addressing table twice the batch's size (the keys are non-negative)."""
    n = len(keys)
    bits = 1
    while (1 << bits) < 2 * n:
        bits += 1
    size = 1 << bits
    mask = size - 1
    shift = np.uint64(64 - bits)
    skeys = np.full(size, -1, dtype=np.int64)
    best = np.empty(size, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)  # the slot of each distinct key, in first-occurrence order
    w = 0
    for i in range(n):
        s, new = probe(skeys, keys[i], shift, mask)
        if new:
            best[s] = i
            first[w] = s
            w += 1
        elif times[i] < times[best[s]]:
            best[s] = i
    out = np.empty(w, dtype=np.int64)
    for j in range(w):
        out[j] = best[first[j]]
    return out


def table_insert(tkeys: np.ndarray, ttimes: np.ndarray, bits: int, keys: np.ndarray,
                 times: np.ndarray) -> tuple[np.ndarray, int]:
    """:meth:`engine.keytable.KeyTable.admit`'s update for distinct ``keys`` (the table has room):
    each takes its slot (linear probing from the same hash), and is better when its time is
    smaller than the slot's.  Returns (better, keys added)."""
    n = len(keys)
    better = np.zeros(n, dtype=np.bool_)
    mask = (1 << bits) - 1
    shift = np.uint64(64 - bits)
    added = 0
    for i in range(n):
        s, new = probe(tkeys, keys[i], shift, mask)
        if new:
            added += 1
        if ttimes[s] > times[i]:
            ttimes[s] = times[i]
            better[i] = True
    return better, added
