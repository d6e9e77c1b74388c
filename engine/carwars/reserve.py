"""States a resumed travel search keeps waiting outside its queue (:mod:`engine.carwars.kept`).

After a card drag, the kept search's frontier (tens of thousands of states) is ordered under the
new goal's bound.  Most of it waits behind the answer and is never taken.  So the states are
keyed once, in one vectorised pass, and only those whose key can come before the answer go into
the queue (its buckets, checked there against the states expanded since they were queued); the
rest wait here, released as soon as the queue's least key reaches theirs.  The search stays
exact: a state's key here is a lower bound on its key in the queue (a goal settled since raises
it), and nothing is taken from the queue while a waiting state could come before it.

>>> import numpy as np
>>> from engine.carwars.batch import _Batch
>>> b = _Batch(**{c: np.arange(3) for c in ("x", "y", "h", "px", "py", "ph", "s", "k", "t", "time", "dice", "hard",
...                                        "parent", "move", "pdice", "checked")})
>>> r = Reserve(b, np.array([30, 10, 20]))
>>> len(r), r.least
(3, 10)
>>> got, = r.take(20)
>>> sorted(got.x.tolist()), len(r), r.least
([1.0, 2.0], 1, 30)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from engine.carwars.batch import _BIG, DICE_BITS, _Batch
from engine.carwars.heuristic import IntArray

if TYPE_CHECKING:  # pragma: no cover
    from engine.carwars.planner import _Search

#: Waiting states released at least at once when no open goal has a candidate yet.
CHUNK = 4096


class Reserve:
    """Waiting states with a lower bound on each one's bucket key (time bound, dice)."""

    def __init__(self, states: _Batch, keys: IntArray) -> None:
        self.states, self.keys = states, keys
        self.least = int(keys.min()) if len(keys) else _BIG

    def __len__(self) -> int:
        return len(self.keys)

    def take(self, upto: int) -> list[_Batch]:
        """The states keyed at most ``upto``, no longer waiting here."""
        sel = self.keys <= upto
        if not sel.any():
            return []
        out = self.states.take(np.flatnonzero(sel))
        rest = np.flatnonzero(~sel)
        self.states, self.keys = self.states.take(rest), self.keys[rest]
        self.least = int(self.keys.min()) if len(rest) else _BIG
        return [out]

    def release(self, search: _Search) -> None:
        """Queue the states that may come next: until the queue's least key is below every key
        here.  When every open goal has a candidate, all states that could beat the worst
        candidate go at once (the search takes each of them before it settles that goal);
        otherwise the next :data:`CHUNK` states."""
        while len(self) and (not search.heap or search.heap[0] >= self.least):
            if search.open and all(g in search.pending for g in search.open):
                upto = max(search.pending[g][0] >> DICE_BITS for g in search.open)
            else:
                k = min(len(self), CHUNK) - 1
                upto = int(np.partition(self.keys, k)[k])
            for part in self.take(max(upto, self.least)):
                search._push(search.undominated(part))
