"""Moving Units on the battlefield: fewest action points (AP) between squares and AP heat maps.

"For every square in which the Units move, they spend 1 AP." (L56); moves are orthogonal (see
:func:`engine.mothership.rules.move_neighbours`).  Enemy Units on the same plane cannot be passed
("They cannot move through enemy Units on the same plane", L62): give their squares as
``blocked``.  Ally Units on the same plane can be passed when they sidestep, "paying 1 AP" (L62):
give their squares as ``allies``.  A plan's rounds assume one Unit spends at most 5 AP a round
("a maximum of 5 are utilizable by 1 single Unit", L53).

>>> from schema.games.mothership import default_arena
>>> r = plan(default_arena(), (0, 0), "approach:2")
>>> r.status, r.ap, r.rounds, r.path[-1]
('reached', 4, 1, (0, 4))
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from engine import budget as caps
from engine.grids import Square
from engine.mothership.battlefield import Battlefield, battlefield_of
from engine.mothership.rules import AP_PER_SQUARE, AP_PER_UNIT, SIDESTEP_AP, move_neighbours
from schema.games.mothership import MothershipArena

Status = Literal["reached", "unreachable", "undecided"]


class TravelError(ValueError):
    """A source or goal the battlefield does not have."""


@dataclass(frozen=True)
class SearchLimits:
    max_states: int = 100_000


@dataclass(frozen=True)
class TravelResult:
    """``reached``: the fewest ``ap`` and the ``rounds`` at ``ap_per_round``, with the squares
    of the ``path``; ``unreachable``: proven; ``undecided``: the state cap stopped it."""

    status: Status
    ap: int | None = None
    rounds: int | None = None
    path: tuple[Square, ...] = ()
    undecided: str | None = None


def _squares(bf: Battlefield, ref: Square | Collection[Square] | str, what: str) -> frozenset[Square]:
    """``build:P`` (player P's build squares), ``approach:P`` (the battlefield squares next to
    player P's Mothership), a square or squares."""
    if isinstance(ref, str):
        kind, _, player = ref.partition(":")
        try:
            m = bf.arena.mothership(int(player))
        except (KeyError, ValueError):
            raise TravelError(f"a {what} is build:P, approach:P or squares; no player in {ref!r}") from None
        if kind == "build":
            return frozenset(s for s in m.build_squares if s in bf.squares)
        if kind == "approach":
            return frozenset(bf.adjacent_row(m))
        raise TravelError(f"a {what} is build:P, approach:P or squares, not {ref!r}")
    items: list[Any] = list(ref)
    if len(items) == 2 and all(isinstance(v, int) for v in items):
        cells = frozenset([(int(items[0]), int(items[1]))])
    else:
        cells = frozenset((int(x), int(y)) for x, y in items)
    missing = sorted(cells - bf.squares)
    if missing:
        raise TravelError(f"{what} square {list(missing[0])} is not on the battlefield")
    if not cells:
        raise TravelError(f"no {what} square given")
    return cells


def _search(bf: Battlefield, sources: Iterable[Square], blocked: Collection[Square], allies: Collection[Square],
            limits: SearchLimits, goals: Collection[Square] | None = None,
            limit: int | None = None) -> tuple[dict[Square, int], dict[Square, Square], Square | None, str | None]:
    dist: dict[Square, int] = {}
    prev: dict[Square, Square] = {}
    heap = [(0, s) for s in sorted(sources)]
    for _, s in heap:
        dist[s] = 0
    heapq.heapify(heap)
    popped = 0
    while heap:
        d, s = heapq.heappop(heap)
        if d > dist[s]:
            continue
        if goals is not None and s in goals:
            return dist, prev, s, None
        popped += 1
        if popped > limits.max_states:
            return dist, prev, None, f"more than {limits.max_states} states"
        if popped == 1 or not popped & 1023:
            cap = caps.exceeded()  # the analysis's caps (engine.budget)
            if cap is not None:
                return dist, prev, None, cap
        for n in move_neighbours(s):
            if n not in bf.squares or n in blocked:
                continue
            nd = d + AP_PER_SQUARE + (SIDESTEP_AP if n in allies else 0)
            if limit is not None and nd > limit:
                continue
            if nd < dist.get(n, math.inf):
                dist[n] = nd
                prev[n] = s
                heapq.heappush(heap, (nd, n))
    return dist, prev, None, None


def plan(arena: MothershipArena, source: Square | Collection[Square] | str, goal: Square | Collection[Square] | str,
         *, blocked: Collection[Square] = (), allies: Collection[Square] = (), ap_per_round: int = AP_PER_UNIT,
         limits: SearchLimits = SearchLimits()) -> TravelResult:
    """Fewest AP from ``source`` to any ``goal`` square (each a square, squares, ``build:P``
    or ``approach:P``)."""
    bf = battlefield_of(arena)
    sources = _squares(bf, source, "source")
    goals = _squares(bf, goal, "goal")
    dist, prev, hit, reason = _search(bf, sources, frozenset(blocked), frozenset(allies), limits, goals)
    if reason is not None:
        return TravelResult("undecided", undecided=reason)
    if hit is None:
        return TravelResult("unreachable")
    path = [hit]
    while path[-1] in prev:
        path.append(prev[path[-1]])
    ap = dist[hit]
    return TravelResult("reached", ap, math.ceil(ap / ap_per_round) if ap else 0, tuple(reversed(path)))


def reach(arena: MothershipArena, source: Square | Collection[Square] | str, limit: int | None = None, *,
          blocked: Collection[Square] = (), allies: Collection[Square] = (),
          limits: SearchLimits = SearchLimits()) -> dict[Square, int]:
    """Fewest AP from ``source`` to every battlefield square (within ``limit`` AP); squares a
    search limit kept it from settling are missing (:func:`reach_within` says so)."""
    return reach_within(arena, source, limit, blocked=blocked, allies=allies, limits=limits)[0]


def reach_within(arena: MothershipArena, source: Square | Collection[Square] | str, limit: int | None = None, *,
                 blocked: Collection[Square] = (), allies: Collection[Square] = (),
                 limits: SearchLimits = SearchLimits()) -> tuple[dict[Square, int], str | None]:
    """:func:`reach` and the limit that stopped the search before it settled every square
    (None: the map is complete, a square missing is out of reach)."""
    bf = battlefield_of(arena)
    dist, _, _, reason = _search(bf, _squares(bf, source, "source"), frozenset(blocked), frozenset(allies), limits,
                                 None, limit)
    return dist, reason
