"""What the vectorised search (:class:`engine.gravstrike.frontier.FrontierSearch`) keeps of every
state it makes: columns of growable arrays in compact types (:class:`StateStore`), which its
buckets, its paths and its resumptions read by state id."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["PIVOT_BASE", "StateStore"]

#: ``move`` codes of kept states: -1 no length (a source or a turn at speed 0), 0.. a maneuver
#: (index into the planner's maneuvers), PIVOT_BASE + j pivot j of
#: :attr:`engine.gravstrike.lattice.HeadingLattice.pivots`.
PIVOT_BASE = 1 << 16


class StateStore:
    """Every state the search keeps (columns of growable arrays, in compact types), for buckets
    and paths.  :meth:`get` hands out working copies in 64-bit types (:data:`WORK`)."""

    COLUMNS = {"x": np.float64, "y": np.float64, "hk": np.int8, "t": np.int16, "s": np.int8, "l": np.int8,
               "spent": np.int8, "used": np.uint64, "time": np.int32, "icons": np.int32, "parent": np.int32,
               "move": np.int32, "key": np.int64, "rev": np.int8}
    WORK = {k: (np.float64 if k in ("x", "y") else np.uint64 if k == "used" else np.int64) for k in COLUMNS}
    #: Bytes one state takes.
    BYTES = sum(np.dtype(d).itemsize for d in COLUMNS.values())

    def __init__(self) -> None:
        self.n = 0
        self.cap = 4096
        self.cols = {k: np.zeros(self.cap, dtype=d) for k, d in self.COLUMNS.items()}

    def peak_bytes(self, extra: int) -> int:
        """Bytes the store would hold at its peak while taking ``extra`` more states."""
        cap = self.cap
        if self.n + extra <= cap:
            return cap * self.BYTES
        while self.n + extra > cap:
            cap = cap * 3 // 2
        return (self.cap + cap) * self.BYTES

    def add(self, **cols: np.ndarray) -> np.ndarray:
        m = len(cols["x"])
        if self.n + m > self.cap:
            while self.n + m > self.cap:
                self.cap = self.cap * 3 // 2
            for k, a in self.cols.items():
                b = np.zeros(self.cap, dtype=a.dtype)
                b[: self.n] = a[: self.n]
                self.cols[k] = b
        for k, a in self.cols.items():
            a[self.n:self.n + m] = cols[k]
        ids = np.arange(self.n, self.n + m, dtype=np.int64)
        self.n += m
        return ids

    def get(self, ids: np.ndarray) -> dict[str, np.ndarray]:
        return {k: a[ids].astype(self.WORK[k]) for k, a in self.cols.items()}

    def get_live(self, ids: np.ndarray, pool: np.ndarray | None,
                 load: Callable[..., tuple[np.ndarray, ...]]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """(the states of ``ids`` still live, :meth:`get` of them) by the compiled ``load``
        (:func:`engine.gravstrike.kernels.load_states`): a state is live unless the key table
        ``pool`` holds an earlier time for its key (``pool`` None: all are)."""
        none = pool is None
        out = load(ids, np.zeros(1, dtype=np.int16) if none else pool, none, *self.cols.values())
        return out[0], dict(zip(self.COLUMNS, out[1:]))
