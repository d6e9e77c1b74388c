"""States a resumed travel search keeps waiting outside its queue (:mod:`engine.carwars.kept`).

After a card drag, the kept search's frontier (tens to hundreds of thousands of states) is
ordered under the new goal's bound.  Almost all of it waits behind the answer and is never taken
(measured on the shipped four-player arena: about 1 900 of 600 000 waiting states a drag).  So
the reserve is kept from one resumption to the next, in segments (the states a resumption left
waiting are added as a new one), each state with the goal-independent parts of its bound (grid
node, heading index: :meth:`~engine.carwars.search.Search.prep`) computed once; a resumption
keys every waiting state in one vectorised pass, and only those whose key can come before the
answer go into the queue (checked there against the states expanded since they were queued),
the others staying here, released as soon as the queue's least key reaches theirs.  The search
stays exact: a state's key here is a lower bound on its key in the queue (a goal settled since
only raises it), and nothing is taken from the queue while a waiting state could come before it.

>>> import numpy as np
>>> from engine.carwars.batch import Batch
>>> b = Batch(**{c: np.arange(3) for c in ("x", "y", "h", "px", "py", "ph", "s", "k", "t", "time", "dice", "hard",
...                                        "parent", "move", "pdice", "checked")})
>>> r = Reserve()
>>> r.add(b, (np.zeros(3, dtype=np.int64), np.array([35, 12, 25])))  # (node, heading index): here the keys
>>> r.keys(lambda states, prep: np.array([30, 10, 20]), lambda states, prep: prep[1])  # floors, exact keys
>>> len(r), r.least
(3, 10)
>>> got, = r.take(20)  # floors 10 and 20 are keyed exactly: 12 goes, 25 stays
>>> got.x.tolist(), len(r), r.least
([1.0], 2, 25)
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import numpy.typing as npt

from engine.carwars.batch import BIG, DICE_BITS, Batch
from engine.carwars.heuristic import IntArray

#: Waiting states released at least at once when no open goal has a candidate yet.
CHUNK = 4096
#: The key of a state that is never released (released already, or no open goal within reach).
NEVER = BIG << DICE_BITS
#: Past this many segments, the two neighbours smallest together are merged (the big ones, the
#: cold search's frontier and a long resumption's, are not copied again and again).
MAX_SEGMENTS = 8

Prep = tuple[IntArray, IntArray]
Keyer = Callable[[Batch, Prep], IntArray]


class _Segment:
    __slots__ = ("states", "prep", "live", "key", "exact")

    def __init__(self, states: Batch, prep: Prep) -> None:
        self.states, self.prep = states, prep
        self.live: npt.NDArray[np.bool_] = np.ones(len(states), dtype=bool)
        self.key: IntArray = np.full(len(states), NEVER, dtype=np.int64)
        #: Whether ``key`` is the state's bucket key itself (else a floor under it).
        self.exact: npt.NDArray[np.bool_] = np.zeros(len(states), dtype=bool)

    def dead(self) -> int:
        return len(self.live) - int(np.count_nonzero(self.live))

    def compact(self) -> _Segment:
        """The segment without its released states."""
        if self.live.all():
            return self
        idx = np.flatnonzero(self.live)
        return _Segment(self.states.take(idx), (self.prep[0][idx], self.prep[1][idx]))


class Reserve:
    """Waiting states with a lower bound on each one's bucket key (time bound, dice), kept
    across resumptions (see the module docstring).  :meth:`keys` keys them for the open goals;
    states keyed :data:`NEVER` (no open goal within reach or the horizon) are not released and
    stay for the next resumption."""

    def __init__(self) -> None:
        self.segments: list[_Segment] = []
        self.least = NEVER
        self._count = 0
        self._exact: Keyer | None = None

    def __len__(self) -> int:
        """Waiting states that can still be released under the current keys."""
        return self._count

    def add(self, states: Batch, prep: Prep) -> None:
        """More waiting states (with their :meth:`~engine.carwars.search.Search.prep`), not
        keyed until the next :meth:`keys`."""
        if len(states):
            self.segments.append(_Segment(states, prep))

    def keys(self, floor: Keyer, exact: Keyer) -> None:
        """Key every waiting state again under the open goals: ``floor(states, prep)``, a lower
        bound on each one's bucket key that is cheap to compute (:data:`NEVER` for one cut off);
        ``exact`` gives the key itself, asked by :meth:`take` only for the states whose floor
        is low enough to be released.  A segment a quarter released is compacted first."""
        self._exact = exact
        segs = [s.compact() if s.dead() > len(s.live) // 4 else s for s in self.segments]
        while len(segs) > MAX_SEGMENTS:  # merge the two neighbours smallest together (order kept)
            i = min(range(len(segs) - 1), key=lambda j: len(segs[j].live) + len(segs[j + 1].live))
            a, b = segs[i].compact(), segs[i + 1].compact()  # a new segment's states are all live
            segs[i: i + 2] = [_Segment(Batch.concat([a.states, b.states]),
                                       (np.concatenate([a.prep[0], b.prep[0]]), np.concatenate([a.prep[1], b.prep[1]])))]
        self.segments = segs
        for s in segs:
            s.key = floor(s.states, s.prep)
            s.key[~s.live] = NEVER
            s.exact = np.zeros(len(s.key), dtype=bool)
        self._recount()

    def _recount(self) -> None:
        self._count = sum(int(np.count_nonzero(s.key < NEVER)) for s in self.segments)
        self.least = min((int(s.key.min()) for s in self.segments if len(s.key)), default=NEVER)

    def take(self, upto: int) -> list[Batch]:
        """The states keyed at most ``upto`` (in the order they came), no longer waiting here;
        a state whose floor is at most ``upto`` is keyed exactly first (and stays if its key is
        above)."""
        out: list[Batch] = []
        if upto < self.least:
            return out
        for s in self.segments:
            idx = np.flatnonzero(s.key <= upto)
            floor = idx[~s.exact[idx]]
            if len(floor) and self._exact is not None:  # tighten the floors first: most stay
                s.key[floor] = self._exact(s.states.take(floor), (s.prep[0][floor], s.prep[1][floor]))
                s.exact[floor] = True
                idx = idx[s.key[idx] <= upto]
            if len(idx):
                out.append(s.states.take(idx))
                s.live[idx] = False
                s.key[idx] = NEVER
        self._recount()
        return out

    def chunk(self) -> int:
        """The key under which about :data:`CHUNK` waiting states lie (all of them if fewer)."""
        keys = np.concatenate([s.key for s in self.segments])
        keys = keys[keys < NEVER]
        if len(keys) <= CHUNK:
            return int(keys.max()) if len(keys) else self.least
        return int(np.partition(keys, CHUNK - 1)[CHUNK - 1])
