"""The vectorised key table (``engine.keytable.KeyTable``) that the Gravstrike and Car Wars
searches use to drop states no better than one already expanded with the same key: it must
answer exactly as a Python dict of the least time per key would, through growth and batches
with repeated keys."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.gravstrike import kernels
from engine.keytable import KeyTable

batches = st.lists(st.lists(st.tuples(st.integers(0, 2**57), st.integers(0, 2**40)), max_size=60), max_size=12)


_compiled: list[dict] = []


def _kernels() -> dict | None:
    """The compiled admission (:func:`engine.gravstrike.kernels_hash.table_winners`, ``table_insert``), loaded once."""
    if not _compiled:
        got = kernels._load()
        if got is None:
            return None
        _compiled.append(got)
    return _compiled[0]


@settings(max_examples=60, deadline=None)
@given(batches, st.integers(0, 3), st.booleans())
def test_admit_and_get_answer_as_a_dict_of_the_least_time_per_key(seq: list[list[tuple[int, int]]], fold: int,
                                                                  compiled: bool) -> None:
    """Keys folded onto a few values (``fold``) force repeats within and across batches, and
    the table starts small so that it grows several times; with numpy or with the compiled
    admission the search uses once a process has loaded its kernels."""
    table, ref = KeyTable(capacity=16), {}
    kern = _kernels() if compiled else None
    for batch in seq:
        keys = np.array([k >> (8 * fold * 7) for k, _ in batch], dtype=np.int64)
        times = np.array([t for _, t in batch], dtype=np.int64)
        keep = table.admit(keys, times, kern)
        want = np.zeros(len(keys), dtype=bool)
        first: dict[int, int] = {}  # per key, the first entry of its least time in the batch
        for i, (k, t) in enumerate(zip(keys.tolist(), times.tolist())):
            if k not in first or t < times[first[k]]:
                first[k] = i
        for k, i in first.items():
            if times[i] < ref.get(k, 1 << 62):
                want[i] = True
                ref[k] = int(times[i])
        assert keep.tolist() == want.tolist()
        probe = np.array(list(ref) + [7, 2**50 + 3], dtype=np.int64)
        assert table.get(probe).tolist() == [ref.get(int(k), -1) for k in probe]
    assert len(table) == len(ref)


def test_a_negative_key_is_never_held() -> None:
    """The Car Wars reach map keys a state on the edge between two merge squares with a
    negative number so that nothing recorded can drop it: ``get`` answers -1 for it even
    where -1 is the table's own mark of an empty slot."""
    table = KeyTable(capacity=16)
    table.admit(np.array([5, 9], dtype=np.int64), np.array([3, 4], dtype=np.int64))
    assert table.get(np.array([-1, 5, -7, 9, 11], dtype=np.int64)).tolist() == [-1, 3, -1, 4, -1]
