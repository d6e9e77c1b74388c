"""Travel shared by the start sets of one arena (``arena validate`` judging every declared player
count: :func:`validators.players.judge`).

The arena as it stands and each start set's arena (the same arena with fewer starts:
:meth:`schema.starts.StartSlots.subset`) are validated one after the other, each with travel
contexts of its own (:class:`validators.games.gravstrike.context.AnalysisContext`).  What their
searches can share without any answer changing:

* **The planner.**  A subset differs from the whole arena only in its starts (and its
  scenario's player count and the symmetry those starts keep), and starts don't change how a
  turbine moves: they are goal zones, whose bits a search reads only for the goals it was asked
  for (fields push, exclusion fields are avoided or paid, goals settle; a zone that is none of
  these for a search changes nothing in it - :meth:`engine.gravstrike.planner.Planner.retarget`
  rests on the same fact).  So the whole arena's planner answers a subset's query - its own goals,
  the start goals of its own starts only - exactly as a planner of the subset would: the same
  configuration space, distance grid, goal distance maps, heading lattices, reach proofs and time
  bound, built once instead of once per start set.  (Only while both keep to the vectorised
  search, at most :data:`engine.gravstrike.cspace.MAX_BIT_ZONES` zones: past it the whole
  arena's extra starts would send its queries to the scalar search.)
* **Whole searches.**  A query on the same planner - same source, same goals, same horizon -
  gets the same answer: an outlying checkpoint's search (the checkpoints, up to the spacing
  horizon) is the same in every start set, and is run once.  A start's search is not shared:
  its goals include the other starts of its set, and which starts are goals decides the order
  the search explores in (its bound is the distance to the nearest open goal), so ties between
  states merged at the analysis tolerance may fall another way and an answer differ by a
  length's time (:mod:`validators.games.gravstrike.travel_session` says the same of a resumed
  search).  Neither is a symmetric image carried from the whole arena shared: a start set keeps
  less of the arena's symmetry and searches the sources the whole arena took as images.

A search a limit or a cap left undecided is not kept: the next set searches again (and says
why it stopped, its own way).  The runner's forked helper (:func:`validators.games.gravstrike.
run._in_parallel`) takes the later start sets' own searches as tasks too, while the first set
is validated; what it finds comes back here (:meth:`TravelShare.since`, :meth:`TravelShare.merge`).

:func:`active` makes a share the current one while :func:`validators.players.judge` runs its
sets (the game's :meth:`validators.game.GameAnalysis.judging` hook); the runner takes it from
:func:`current`.
"""

from __future__ import annotations

import contextvars
import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from schema.games.gravstrike.model import Arena

if TYPE_CHECKING:  # pragma: no cover
    from engine.gravstrike.planner import Goal, Planner, TravelResult

#: What a planner is made with: (tier, icons per turn, tolerance, max turns, search limits,
#: exclusions "avoid" or "pay").
PlannerKey = tuple[int, "int | None", float, int, Any, str]
#: One query: (planner key, source, goals in order, horizon in turns or None).
QueryKey = tuple[PlannerKey, str, tuple["Goal", ...], "float | None"]


def _frame(arena: Arena) -> Arena:
    """``arena`` without what a start set changes: its starts, its scenario's player count,
    its symmetry."""
    return dataclasses.replace(arena, start_positions=(), symmetry=None,
                               scenario=dataclasses.replace(arena.scenario, players=None))


class TravelShare:
    """The planners and whole searches the arenas of one judgement share (see the module
    docstring).  ``arenas``: the arenas :func:`validators.players.judge` validates, in order."""

    def __init__(self, arenas: Sequence[Arena]) -> None:
        self.arenas = list(arenas)
        #: The arena with every start the others have: its planners serve them all.
        self.base = max(self.arenas, key=lambda a: len(a.start_positions))
        starts = set(self.base.start_positions)
        frame = _frame(self.base)
        #: The arenas whose queries this share answers (by id: the judged arena objects).
        self._members = {id(a) for a in self.arenas if set(a.start_positions) <= starts and _frame(a) == frame}
        self._planners: list[tuple[PlannerKey, Planner | None]] = []
        self._found: dict[QueryKey, dict[Goal, TravelResult]] = {}
        #: The queries answered here, in order (what a forked helper hands back: :meth:`since`).
        self._order: list[QueryKey] = []
        #: Work: searches run for the members (here, or by a forked helper and merged), and
        #: queries answered from a search another start set ran.
        self.searched = 0
        self.hits = 0

    def serves(self, arena: Arena) -> bool:
        """Whether queries on ``arena`` are answered here (one of the judged arenas, differing
        from the others only in its starts)."""
        return id(arena) in self._members

    def planner(self, key: PlannerKey, make: Any) -> Planner | None:
        """The base arena's planner made with ``key`` (``make(arena)`` makes one, once), or None
        when it would not answer as a member's own planner does (too many zones for the
        vectorised search: see the module docstring)."""
        from engine.gravstrike.cspace import MAX_BIT_ZONES

        for k, p in self._planners:
            if k == key:
                return p
        made: Planner = make(self.base)
        p = made if len(made.cspace.zones) <= MAX_BIT_ZONES else None
        self._planners.append((key, p))
        return p

    def holds(self, planner: Planner) -> bool:
        """Whether ``planner`` is one of this share's."""
        return any(p is planner for _, p in self._planners)

    def get(self, key: QueryKey) -> dict[Goal, TravelResult] | None:
        """The answer of a query already searched (counted as a hit), or None."""
        got = self._found.get(key)
        if got is not None:
            self.hits += 1
        return got

    def has(self, key: QueryKey | None) -> bool:
        """Whether the query ``key`` was answered here."""
        return key is not None and key in self._found

    def put(self, key: QueryKey, results: dict[Goal, TravelResult]) -> None:
        """Keep a search's answer, unless a limit or a cap left some goal undecided."""
        self.searched += 1
        if key not in self._found and all(r.undecided is None for r in results.values()):
            self._found[key] = results
            self._order.append(key)

    def mark(self) -> int:
        """Where :meth:`since` counts from."""
        return len(self._order)

    def since(self, mark: int) -> list[tuple[QueryKey, dict[Goal, TravelResult]]]:
        """The answers kept since ``mark``, in order (a forked helper's, for its parent)."""
        return [(k, self._found[k]) for k in self._order[mark:]]

    def merge(self, found: list[tuple[QueryKey, dict[Goal, TravelResult]]], searched: int) -> None:
        """Take a helper's answers (:meth:`since`) and count its ``searched`` searches."""
        self.searched += searched
        for key, results in found:
            if key not in self._found:
                self._found[key] = results
                self._order.append(key)

    def after(self, arena: Arena) -> list[Arena]:
        """The members judged after ``arena`` (whose searches a helper may run ahead)."""
        for i, a in enumerate(self.arenas):
            if a is arena:
                return [b for b in self.arenas[i + 1:] if self.serves(b)]
        return []


_CURRENT: contextvars.ContextVar[TravelShare | None] = contextvars.ContextVar("gravstrike_travel_share",
                                                                            default=None)


def current() -> TravelShare | None:
    """The share of the judgement this code runs in, if any."""
    return _CURRENT.get()


@contextmanager
def active(arenas: Sequence[Any]) -> Iterator[TravelShare | None]:
    """A share of ``arenas`` (Gravstrike arenas) current while the block runs; none for fewer
    than two (nothing to share)."""
    share = TravelShare(arenas) if len(arenas) > 1 and all(isinstance(a, Arena) for a in arenas) else None
    token = _CURRENT.set(share)
    try:
        yield share
    finally:
        _CURRENT.reset(token)
