"""Travel searches kept while an arena is edited: after a drag that moves no car (a checkpoint,
the centre's card), each start's answer is a lookup or a short continuation, not a new search.

A card does not change how a car moves (unless it is a hidden hazard: its dice).  The best
labels a search found (per state: time, dice, hard changes) do not depend on the goals; only the
order of the search does.  So each (policy, start) search is kept - its expanded states, its
frontier and the states its bound cut off - and a goal it has not answered is answered by
:meth:`~engine.carwars.search.Search.resume`: the expanded states that touch the goal are its
candidates, and the frontier (with the cut-off states) is ordered again under the new goal's
bound and searched on until the goal is settled.  The answer (time, dice, hard changes) is the cold search's, exactly: every
state on an optimal plan is either expanded with its best label or waits in the frontier with
it, and A* with an admissible bound settles a goal only when nothing waiting can beat it.  (A
tie among equally good plans may pick another path.)

What is never taken from a kept search: an answer that is not ``reached`` (``beyond`` and
``unreachable`` depend on what a search cut off, ``undecided`` on its limits) - then
:class:`TravelCache` answers the whole table with a cold :func:`~engine.carwars.fairness.travel_table`
and keeps nothing of it.  The searches are dropped when anything that moves a car changes
(:func:`motion_key`) or a start moves.

Under the arena's exact symmetries (:mod:`engine.carwars.symmetry`) a card's images are answered
through the symmetry (:func:`card_plan`, :func:`full_rows`): a kept search settles only one card
of each orbit, so a drag in the editor's symmetry mode, which moves a card and its images, costs
each search one moved goal, not one per image.  A search started afresh still answers every
card (they are lookups when a later edit breaks the symmetry).

>>> from schema.games.carwars import default_arena
>>> cache = TravelCache()
>>> cold = cache.table(default_arena())
>>> again = cache.table(default_arena())
>>> cache.stats["lookup"] > 0 and again.results["flat-out"]["start:1"]["centre"].key() == cold.results[
...     "flat-out"]["start:1"]["centre"].key()
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import AbstractSet, Any, Callable

from engine.carwars import fairness as fair
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.heuristic import GoalShape
from engine.carwars.planner import Planner
from engine.carwars.search import Search
from engine.carwars.symmetry import Symmetry, card_symmetries, layout_symmetries
from engine.carwars.rules import POLICIES, Policy
from engine.carwars.travel import Goal, PlanningError, SearchLimits, StartSource, TravelResult
from schema.games.carwars import CarWarsArena


#: Answers a kept search remembers (per goal and goal shape: dragging back is a lookup).
MAX_ANSWERS = 512


def motion_key(arena: CarWarsArena, limits: SearchLimits = SearchLimits()) -> tuple[Any, ...]:
    """Everything that moves a car: the arena's bounds, walls, obstacles, tokens, hazards,
    terrain, hidden-hazard cards, the car, the turning key, the horizon - and the limits."""
    hidden = tuple(c for c in arena.cards if c.role == "hidden-hazard")
    return (arena.bounds, arena.walls, arena.obstacles, arena.tokens, arena.hazards, arena.terrain, hidden,
            arena.vehicle, arena.turning_key, arena.scenario.analysis.max_turns, limits)


#: One worker's part of a travel table: (policy, start id) -> goal ref -> answer.
Share = dict[tuple[Policy, str], dict[str, TravelResult]]

#: Per card id, the card whose answers it takes and the symmetry carrying that card onto it
#: (None: the card is searched itself).
CardPlan = dict[str, tuple[str, Symmetry | None]]


def card_plan(arena: CarWarsArena, symmetries: list[Symmetry]) -> CardPlan:
    """Which cards are searched and which are answered through ``symmetries`` (the arena's,
    with the identity left out): the first card of each orbit, in the arena's order, is
    searched; answering card ``c = t(r)`` from start ``s`` is answering ``r`` from the start
    ``t`` carries onto ``s``, mapped by ``t``.

    >>> from pathlib import Path
    >>> from schema.io import load
    >>> from engine.carwars.symmetry import symmetries
    >>> a = load(str(Path(__file__).parents[2] / "arenas" / "car-wars" / "crossroads-4p.yaml"))
    >>> {card: (rep, t and t.angle) for card, (rep, t) in card_plan(a, symmetries(a)).items()}
    {'checkpoint-1': ('checkpoint-1', None), 'checkpoint-4': ('checkpoint-1', 90.0), 'checkpoint-3': ('checkpoint-1', 180.0), 'checkpoint-2': ('checkpoint-1', 270.0)}
    """
    plan: CardPlan = {}
    for c in arena.cards:
        if c.id in plan:
            continue
        plan[c.id] = (c.id, None)
        for t in symmetries:
            plan.setdefault(t.cards[c.id], (c.id, t))
    return plan


def full_rows(arena: CarWarsArena, rows: Share, plan: CardPlan | None) -> Share:
    """``rows`` with every card a search left to the symmetry (``plan``) answered through it."""
    if not plan or all(t is None for _, t in plan.values()):
        return rows
    back = {s.player: s.id for s in arena.start_positions}
    out: Share = {}
    for (policy, sid), row in rows.items():
        row = dict(row)
        player = int(sid.partition(":")[2])
        for card, (rep, t) in plan.items():
            if t is None:
                continue
            source = next(a for a, b in t.starts.items() if b == player)
            got = rows.get((policy, back[source]), {}).get(f"card:{rep}")
            if got is not None:
                row[f"card:{card}"] = fair.map_result(got, t)
        out[(policy, sid)] = row
    return out


def merged(arena: CarWarsArena, policies: tuple[Policy, ...], shares: list[Share],
           plan: CardPlan | None = None) -> fair.TravelTable:
    """The travel table of the parts ``shares`` (every start under every policy, in order; the
    cards ``plan`` answers through a symmetry mapped in: :func:`full_rows`): each row the goals
    of :func:`~engine.carwars.fairness.travel_goals` (a share searched with ``every_start`` has
    more: they are left out)."""
    rows = full_rows(arena, {k: v for share in shares for k, v in share.items()}, plan)
    out = fair.TravelTable()
    for policy in policies:
        table: dict[str, dict[str, TravelResult]] = {}
        for s in sorted(arena.start_positions, key=lambda s: s.player):
            row = rows[(policy, s.id)]
            table[s.id] = {g.ref: row[g.ref] for g in fair.travel_goals(arena, policy, s.player)}
        out.results[policy] = table
    return out


def goals_of(arena: CarWarsArena, policy: Policy, player: int, every_start: bool = False) -> list[Goal]:
    """What a kept search from start ``player`` answers: the metrics' goals
    (:func:`~engine.carwars.fairness.travel_goals`); with ``every_start``, every other start
    under both policies too (what the editor's travel dock shows: a start never moves without
    dropping the searches, so after the first these are lookups)."""
    goals = fair.travel_goals(arena, policy, player)
    if every_start:
        goals += [g for g in (Goal("start", o.id) for o in arena.start_positions if o.player != player) if g not in goals]
    return goals


def shares(arena: CarWarsArena, n: int, policies: tuple[Policy, ...] = POLICIES) -> list[list[tuple[Policy, int]]]:
    """The (policy, player) searches shared among ``n`` workers: each policy's starts dealt in
    turn, each policy starting at the next worker, so that a worker holds as many flat-out
    searches (the costlier) as safe ones, and each start's two searches are apart.

    >>> from schema.games.carwars import default_arena
    >>> shares(default_arena(), 2)[0]
    [('safe', 1), ('safe', 3), ('flat-out', 2), ('flat-out', 4)]
    """
    out: list[list[tuple[Policy, int]]] = [[] for _ in range(max(1, n))]
    starts = sorted(s.player for s in arena.start_positions)
    for k, policy in enumerate(policies):
        for i, player in enumerate(starts):
            out[(i + k) % len(out)].append((policy, player))
    return out


@dataclass
class _Kept:
    search: Search
    source: tuple[Any, ...]
    answers: dict[tuple[Goal, GoalShape], TravelResult] = field(default_factory=dict)


class TravelCache:
    """The travel table (:func:`engine.carwars.fairness.travel_table`'s, one core) of successive
    versions of an arena, keeping each (policy, start) search between them (see the module
    docstring).  ``stop``: asked between two batches of a search (True raises
    :class:`~engine.carwars.travel.SearchStopped`; the kept searches stay usable).  ``stats``
    counts, per call, the answers looked up, the searches resumed, searched anew, and the tables
    computed cold.  With ``use_symmetry`` the cards a symmetry carries are left to it
    (:attr:`plan`: pass it to :func:`merged`)."""

    def __init__(self, limits: SearchLimits = SearchLimits(), every_start: bool = False,
                 use_symmetry: bool = True) -> None:
        self.limits = limits
        #: Whether each search answers every other start under both policies (:func:`goals_of`).
        self.every_start = every_start
        self.use_symmetry = use_symmetry
        #: The cards the last :meth:`rows` answered through a symmetry (:func:`card_plan`).
        self.plan: CardPlan = {}
        self._layout: tuple[Any, list[Symmetry]] | None = None
        self.stop: Callable[[], bool] | None = None
        self.stats: Counter[str] = Counter()
        self._key: tuple[Any, ...] | None = None
        self._geometry: CarWarsGeometry | None = None
        self._planners: dict[Policy, Planner] = {}
        self._kept: dict[tuple[Policy, int], _Kept] = {}

    def clear(self) -> None:
        self._key, self._geometry = None, None
        self._planners.clear()
        self._kept.clear()

    def table(self, arena: CarWarsArena, policies: tuple[Policy, ...] = POLICIES) -> fair.TravelTable:
        starts = sorted(arena.start_positions, key=lambda s: s.player)
        rows = self.rows(arena, [(policy, s.player) for policy in policies for s in starts])
        if rows is None:  # not all reached: the cold table decides (and nothing is kept)
            return self.cold(arena, policies)
        return merged(arena, policies, [rows], self.plan)

    def cold(self, arena: CarWarsArena, policies: tuple[Policy, ...] = POLICIES) -> fair.TravelTable:
        """The cold :func:`~engine.carwars.fairness.travel_table` (what :meth:`rows` cannot answer)."""
        self.stats["cold"] += 1
        self._kept.clear()
        self._use(arena)
        return fair.travel_table(arena, policies, self.limits, geometry=self._geometry)

    def rows(self, arena: CarWarsArena, share: list[tuple[Policy, int]]) -> Share | None:
        """The answers of the (policy, player) searches in ``share`` (one worker's part of the
        table: :func:`merged` joins the parts); None when one of them is not all ``reached``
        (then :meth:`cold` answers the table).  The cards :attr:`plan` answers through a
        symmetry may be left out."""
        self.stats = Counter()
        self._use(arena)
        self.plan = card_plan(arena, card_symmetries(arena, self._symmetries(arena))) if self.use_symmetry else {}
        mapped = {f"card:{c}" for c, (_, t) in self.plan.items() if t is not None}
        out: Share = {}
        for policy, player in share:
            s = arena.start(player)
            got = self._answer(arena, policy, player, (s.position, s.facing), mapped)
            if got is None:
                self._kept.clear()
                return None
            out[(policy, s.id)] = {g.ref: r for g, r in got.items()}
        return out

    def _symmetries(self, arena: CarWarsArena) -> list[Symmetry]:
        """The arena's :func:`~engine.carwars.symmetry.layout_symmetries`, computed again only
        when the layout, the starts or the declared symmetry change."""
        key = (self._key, arena.start_positions, arena.symmetry)
        if self._layout is None or self._layout[0] != key:
            self._layout = (key, layout_symmetries(arena))
        return self._layout[1]

    def _use(self, arena: CarWarsArena) -> None:
        key = motion_key(arena, self.limits)
        if key != self._key:
            self.clear()
            self._key, self._geometry = key, CarWarsGeometry(arena)

    def _planner(self, arena: CarWarsArena, policy: Policy) -> Planner:
        p = self._planners.get(policy)
        if p is None:
            p = self._planners[policy] = Planner(arena, policy, geometry=self._geometry, limits=self.limits)
        p.arena = arena  # only goals (cards, starts) may differ from the arena it was made for
        return p

    def _answer(self, arena: CarWarsArena, policy: Policy, player: int, source: tuple[Any, ...],
                mapped: AbstractSet[str] = frozenset()) -> dict[Goal, TravelResult] | None:
        """The search's answers: every goal when it starts afresh; the goals not ``mapped``
        (refs the symmetry answers) when it is resumed."""
        planner = self._planner(arena, policy)
        goals = goals_of(arena, policy, player, self.every_start)
        shapes = {g: planner.goal_shape(g) for g in goals}
        kept = self._kept.get((policy, player))
        if kept is not None and kept.source != source:
            kept = None
        if kept is None:
            try:
                pose, speed = planner.source_state(StartSource(player))
            except PlanningError:
                return None
            search = Search(planner, pose, speed, shapes, keep=True)
            search.stop = self.stop
            self._kept.pop((policy, player), None)
            res = search.run()
            self.stats["searched"] += 1
            if not all(r.status == "reached" for r in res.values()):
                return None
            kept = self._kept[(policy, player)] = _Kept(search, source, {(g, shapes[g]): r for g, r in res.items()})
            return res
        out: dict[Goal, TravelResult] = {}
        missing: dict[Goal, GoalShape] = {}
        for g, shape in shapes.items():
            r = kept.answers.get((g, shape))
            if r is None:
                if g.ref not in mapped:
                    missing[g] = shape
            else:
                out[g] = r
                self.stats["lookup"] += 1
        if missing:
            kept.search.stop = self.stop
            res = kept.search.resume(missing)
            self.stats["resumed"] += 1
            if not all(r.status == "reached" for r in res.values()):
                del self._kept[(policy, player)]
                return None
            if len(kept.answers) + len(res) > MAX_ANSWERS:
                kept.answers = {(g, s): r for (g, s), r in kept.answers.items() if shapes.get(g) == s}
            kept.answers.update({(g, missing[g]): r for g, r in res.items()})
            out.update(res)
        return {g: out[g] for g in goals if g in out}
