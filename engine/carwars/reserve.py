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
>>> got.x.tolist(), len(r), r.least, r.waiting().x.tolist()
([1.0, 2.0], 1, 30, [0.0])
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
    """Waiting states with a lower bound on each one's bucket key (time bound, dice).  Sorted
    by key once; a release takes a prefix (the states in their original order), so it costs
    what it releases, not what waits.  States keyed :data:`~engine.carwars.batch._BIG` or more
    (no open goal within reach or the horizon) are never released; they stay for the next
    resumption (:meth:`waiting`)."""

    def __init__(self, states: _Batch, keys: IntArray) -> None:
        self.states = states
        self.order = np.argsort(keys, kind="stable")
        self.sorted = keys[self.order]
        self.pos = 0
        self.live = int(np.searchsorted(self.sorted, _BIG << DICE_BITS, side="left"))
        self.least = int(self.sorted[0]) if self.live else _BIG

    def __len__(self) -> int:
        return self.live - self.pos

    def take(self, upto: int) -> list[_Batch]:
        """The states keyed at most ``upto``, no longer waiting here."""
        end = min(self.live, int(np.searchsorted(self.sorted, upto, side="right")))
        if end <= self.pos:
            return []
        out = self.states.take(np.sort(self.order[self.pos:end]))
        self.pos = end
        self.least = int(self.sorted[end]) if end < self.live else _BIG
        return [out]

    def waiting(self) -> _Batch:
        """Every state still here (released ones excluded), in the original order."""
        if self.pos == 0:
            return self.states
        return self.states.take(np.sort(self.order[self.pos:]))

    def release(self, search: _Search) -> None:
        """Queue the states that may come next: until the queue's least key is below every key
        here.  When every open goal has a candidate, all states that could beat the worst
        candidate go at once (the search takes each of them before it settles that goal);
        otherwise the next :data:`CHUNK` states."""
        while len(self) and (not search.heap or search.heap[0] >= self.least):
            if search.open and all(g in search.pending for g in search.open):
                upto = max(search.pending[g][0] >> DICE_BITS for g in search.open)
            else:
                upto = int(self.sorted[self.pos + min(len(self), CHUNK) - 1])
            for part in self.take(max(upto, self.least)):
                search._push(search.undominated(part))
