"""The shared analysis context: everything several validators need, computed once per run.

Travel comes from the rules engine's travel planner, with the arena's reference turbine, its
per-turn Maneuver-icon budget and the analysed tier; one planner search per source serves
every goal, and results are cached here so validators share them.

At a tier with exclusion fields active the travel keeps out of them where it can: a goal's
travel is the fastest way that enters no active exclusion field, and only a goal that no such
way reaches takes the fastest way through them, paying their damage (docs/rules-decisions.md,
"All tiers in one report").  A context judging higher tiers than another (``below``) reuses
that one's travel from a source whenever no field active here could change it
(:meth:`AnalysisContext.reusable`): the report of every tier searches again only where the
exclusion fields make a difference.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.motion import Pose
from engine.gravstrike.invariance import Invariance, invariances
from engine.gravstrike.planner import CheckpointSource, Goal, Planner, StartSource, TravelResult
from engine.gravstrike.travel_types import SearchLimits
from engine.gravstrike.variants import gates_in_play
from schema.games.gravstrike.model import Arena
from validators.options import ANALYSIS_MAX_TURNS, ANALYSIS_TOLERANCE

if TYPE_CHECKING:  # pragma: no cover
    from validators.games.gravstrike.share import QueryKey, TravelShare
    from validators.games.gravstrike.travel_session import TravelSession


def travel_cell(r: TravelResult) -> dict[str, Any]:
    """The report's compact form of a travel result: reachable True (with the time), False
    (proven unreachable) or None - farther than ``at_least`` turns, or ``undecided`` (a search
    limit stopped the analysis; the reason)."""
    if r.status == "undecided":
        return {"reachable": None, "turns": None, "time": None, "at_least": round(r.horizon or 0.0, 3),
                "undecided": r.undecided}
    if r.status == "beyond":
        return {"reachable": None, "turns": None, "time": None, "at_least": r.horizon}
    if not r.reachable:
        return {"reachable": False, "turns": None, "time": None}
    return {"reachable": True, "turns": r.turns, "time": round(r.time, 3)}


def path_json(r: TravelResult) -> tuple[dict[str, Any], ...]:
    return tuple({"x": round(p.x, 3), "y": round(p.y, 3), "heading": round(p.heading, 3), "speed": p.speed,
                  "turn": p.turn, "length": p.length, "pushed_by": p.pushed_by} for p in r.path)




def travel_sources(arena: Arena) -> list[str]:
    """The sources the travel validators search from: the starts (by player), then the
    outlying checkpoints (checkpoint-spacing)."""
    starts = [s.id for s in sorted(arena.start_positions, key=lambda s: s.player)]
    return starts + [f"checkpoint:{c.id}" for c in arena.checkpoints if c.kind == "outlying"]


class AnalysisContext:
    """Travel shared by the validators of one run.  Searches are cached per source, and on an
    arena with a declared (and real) symmetry a source's travel is the image of a symmetric
    source's, so a six-fold symmetric arena needs one start search instead of six."""

    def __init__(self, arena: Arena, *, tier: int | None = None, budget: int | None | str = "arena",
                 tolerance: float = ANALYSIS_TOLERANCE, max_turns: int = ANALYSIS_MAX_TURNS,
                 session: TravelSession | None = None, limits: SearchLimits | None = None,
                 below: AnalysisContext | None = None, share: TravelShare | None = None) -> None:
        self.arena = arena
        self.tier = tier if tier is not None else arena.scenario.analysis.tier
        #: The exclusion fields active at the tier (ids): the travel keeps out of them where it can.
        self.active = frozenset(x.id for x in arena.exclusion_fields if x.active_from_tier <= self.tier)
        #: The context of lower tiers on the same arena, whose travel this one reuses where it can.
        self.below = below
        #: Sources whose travel came from ``below`` without a search.
        self.reused = 0
        self.budget: int | None = arena.turbine.icons_per_turn if budget == "arena" else budget  # type: ignore[assignment]
        self.tolerance = tolerance
        self.max_turns = max_turns
        #: Memory and time caps of each travel search (:class:`~engine.gravstrike.travel_types.SearchLimits`).
        self.limits = limits or SearchLimits()
        self._from: dict[str, dict[str, TravelResult]] = {}
        self.searches = 0
        self._expected = False  # expect() told (or the first start search did)
        #: Searches kept between runs (the editor's live validation), or None.
        self.session = session
        #: The planners and searches this arena shares with the other start sets judged with it
        #: (:mod:`validators.games.gravstrike.share`), or None.
        self.share = share if share is not None and session is None and share.serves(arena) else None
        #: Queries answered by a search another start set ran (:attr:`share`).
        self.shared = 0

    @cached_property
    def planner(self) -> Planner:
        if self.session is not None and self.session.planner is not None and not self.active:
            return self.session.planner
        return self._planner("avoid" if self.active else "pay")

    @cached_property
    def paying_planner(self) -> Planner:
        """The planner of the goals no way clear of the active exclusion fields reaches."""
        return self._planner("pay")

    def _planner(self, exclusions: str) -> Planner:
        if self.share is not None:  # the whole arena's, which answers this arena's queries alike
            got = self.share.planner(self._planner_key(exclusions), lambda arena: self._make(arena, exclusions))
            if got is not None:
                return got
        return self._make(self.arena, exclusions)

    def _planner_key(self, exclusions: str) -> tuple[int, int | None, float, int, Any, str]:
        return (self.tier, self.budget, self.tolerance, self.max_turns, self.limits, exclusions)

    def _make(self, arena: Arena, exclusions: str) -> Planner:
        planner = Planner(arena, tier=self.tier, budget=self.budget, quantum=self.tolerance,
                          minimise="time", max_turns=self.max_turns, limits=self.limits,
                          exclusions="avoid" if exclusions == "avoid" else "pay")
        planner.keep_graph = False  # one arena's goals: every map made, the graph is not needed
        return planner

    @cached_property
    def geometry(self) -> ArenaGeometry:
        if "planner" in self.__dict__ and self.planner.arena is self.arena:
            return self.planner.geometry
        return ArenaGeometry(self.arena)

    @cached_property
    def symmetries(self) -> list[Invariance]:
        """The arena's symmetries that map the exclusion fields active here onto active ones
        (the symmetry check compares shapes, not tiers)."""
        tiers = {x.id: x.active_from_tier for x in self.arena.exclusion_fields}

        def keeps(inv: Invariance) -> bool:
            return all((t <= self.tier) == (tiers.get(inv.ids.get(x, x), t) <= self.tier) for x, t in tiers.items())

        return [inv for inv in invariances(self.arena) if keeps(inv)]

    def goals(self, kinds: tuple[str, ...] = ("checkpoint", "gate", "target", "start")) -> list[Goal]:
        """The planner's goals of ``kinds``; gates only when they score (the scenario's ``gates``
        variant: :func:`engine.gravstrike.variants.gates_in_play`)."""
        if not gates_in_play(self.arena):
            kinds = tuple(k for k in kinds if k != "gate")
        own = {s.id for s in self.arena.start_positions}  # (a shared planner's arena has more starts)
        return [g for g in self.planner.goals() if g.kind in kinds and (g.kind != "start" or g.ref in own)]

    def travel_from(self, source: str) -> dict[str, TravelResult]:
        """Goal ref -> travel result from ``start:N`` (every goal) or ``checkpoint:ID`` (the
        checkpoints, searched only up to ``scenario.analysis.checkpoint_min_turns``: farther ones
        come back with ``horizon`` set), one search or a symmetric image of one, cached."""
        got = self.known(source)
        return got if got is not None else self.search(source)

    def known(self, source: str) -> dict[str, TravelResult] | None:
        """The travel from ``source`` held here or the image of a symmetric source's; None
        without a search."""
        got = self._from.get(source)
        if got is not None:
            return got
        for done, results in list(self._from.items()):  # a symmetric source's answer: its image
            for inv in self.symmetries:
                if inv.ids.get(done) == source:
                    got = {inv.ids[ref]: inv.result(r) for ref, r in results.items()}
                    self._from[source] = got
                    return got
        return None

    def query(self, source: str) -> tuple[StartSource | CheckpointSource, list[Goal], float | None]:
        """What a search from ``source`` answers: (source, goals, horizon in turns or None).
        A start: every goal, no horizon; an outlying checkpoint: the checkpoints, up to
        ``scenario.analysis.checkpoint_min_turns`` (checkpoint-spacing only asks whether
        checkpoints are closer than the minimum)."""
        kind, _, ident = source.partition(":")
        if kind == "start":
            return StartSource(int(ident)), self.goals(), None
        return CheckpointSource(ident), self.goals(("checkpoint",)), self.arena.scenario.analysis.checkpoint_min_turns

    def search(self, source: str) -> dict[str, TravelResult]:
        """Search from ``source`` now (no symmetric image), through the session if there is one."""
        if source.startswith("start:") and not self._expected:  # the first start search of a process that said nothing
            self.expect([s for s in self.searched_starts() if s not in self._from])
        kept = self.reusable(source)
        if kept is not None:
            self.reused += 1
            self._from[source] = kept
            return kept
        src, goals, horizon = self.query(source)
        if self.session is not None and not self.active:  # the editor's kept searches pay their way
            self.searches += 1
            results = self.session.travel_from(source, goals, horizon)
        else:
            results = self._plan("avoid" if self.active else "pay", source, src, goals, horizon)
        got = {g.ref: r for g, r in results.items()}
        blocked = [ref for ref, r in got.items() if not r.reachable and r.undecided is None]
        if self.active and blocked:  # no way clear of the active fields: the fastest one through them
            paid = self._paying(source)
            got.update({ref: paid[ref] for ref in blocked})
        self._from[source] = got
        return got

    def _paying(self, source: str) -> dict[str, TravelResult]:
        """The travel from ``source`` through the exclusion fields, paying their damage: a lower
        tier's with none active (its times are the same), else one search."""
        low = self.below
        while low is not None:
            if not low.active:
                got = low.known(source)
                if got is not None:
                    return got
            low = low.below
        src, goals, horizon = self.query(source)
        return {g.ref: r for g, r in self._plan("pay", source, src, goals, horizon, paying=True).items()}

    def share_key(self, source: str, paying: bool = False) -> QueryKey | None:
        """The key of the search from ``source`` in :attr:`share` (None without one)."""
        if self.share is None or not self.share.holds(self.paying_planner if paying else self.planner):
            return None
        _, goals, horizon = self.query(source)
        mode = "pay" if paying or not self.active else "avoid"
        return (self._planner_key(mode), source, tuple(goals), horizon)

    def _plan(self, mode: str, source: str, src: StartSource | CheckpointSource, goals: list[Goal],
              horizon: float | None, paying: bool = False) -> dict[Goal, TravelResult]:
        """One search (``paying``: on :attr:`paying_planner`), or the answer another start set's
        search of the same query on the same planner gave (:attr:`share`)."""
        planner = self.paying_planner if paying else self.planner
        key = None
        if self.share is not None and self.share.holds(planner):  # a shared planner: a shared query
            key = (self._planner_key(mode), source, tuple(goals), horizon)
            got = self.share.get(key)
            if got is not None:
                self.shared += 1
                return got
        self.searches += 1
        results = planner.plan_from(src, goals, max_time=horizon)
        if key is not None and self.share is not None:
            self.share.put(key, results)
        return results

    def reusable(self, source: str) -> dict[str, TravelResult] | None:
        """``below``'s travel from ``source`` when it is this tier's too: decided everywhere, and
        neither the source nor any pose of a way it found (each length's end, each push) touches
        a field active here.  Then each goal's way stays the fastest (this tier only takes ways
        away), what was unreachable or beyond the horizon stays so, and no goal needs to pay."""
        if self.below is None:
            return None
        got = self.below.known(source)
        if got is None or any(r.undecided is not None for r in got.values()):
            return None
        if not self.active:
            return got
        g = self.geometry
        zones = [z for z in g.exclusions if z.id in self.active]
        kind, _, ident = source.partition(":")
        if kind == "start":
            s = self.arena.start(int(ident))
            if g.touching(zones, Pose(s.position[0], s.position[1], s.facing)):
                return None
        else:
            reach = math.hypot(self.arena.turbine.length, self.arena.turbine.width) / 2.0
            area = next(c for c in self.arena.checkpoints if c.id == ident).shape.to_shapely().buffer(reach)
            if any(area.intersects(z.geometry) for z in zones):
                return None
        for r in got.values():
            if r.reachable and any(g.touching(zones, Pose(p.x, p.y, p.heading)) for p in r.path):
                return None
        return got

    def expect(self, sources: list[str]) -> None:
        """This process is about to search from these ``sources``: load the compiled search
        kernels first if the start searches among them will earn their start-up
        (:func:`engine.gravstrike.kernels.expect`; a checkpoint's short search hardly counts)."""
        from engine.gravstrike import kernels

        self._expected = True
        starts = sum(1 for s in sources if s.startswith("start:"))
        if starts:
            kernels.expect(self.planner.expected_children(starts))

    def searched_starts(self) -> list[str]:
        """The starts that need a search of their own: not symmetric images of an earlier one
        (as :meth:`travel_from` finds them)."""
        return self.searched_sources(self.starts())

    def searched_sources(self, sources: list[str]) -> list[str]:
        """The ``sources`` that need a search of their own when asked for in this order: not
        symmetric images of an earlier one."""
        return [s for i, s in enumerate(sources)
                if not any(inv.ids.get(d) == s for d in sources[:i] for inv in self.symmetries)]

    def provide(self, travel: dict[str, dict[str, TravelResult]]) -> None:
        """Take travel computed elsewhere (source -> goal ref -> result; the editor's workers)."""
        self._from.update(travel)

    def adopt(self, travel: dict[str, dict[str, TravelResult]], first: list[str]) -> None:
        """Hold exactly ``travel`` (source -> goal ref -> result), found by several processes, in
        the order one process would have found it: the sources of ``first`` (in that order), then
        the others (a source's symmetric image is taken from the first source of its orbit held)."""
        self._from = {s: travel[s] for s in first if s in travel}
        self.provide({s: r for s, r in travel.items() if s not in first})

    def travel(self, source: str, goal: str) -> TravelResult:
        return self.travel_from(source)[goal]

    def undecided(self) -> list[tuple[str, str, TravelResult]]:
        """(source, goal ref, result) of every query so far that a search limit left undecided."""
        return [(src, ref, r) for src, row in self._from.items() for ref, r in sorted(row.items())
                if r.status == "undecided"]

    def starts(self) -> list[str]:
        return [s.id for s in sorted(self.arena.start_positions, key=lambda s: s.player)]

    def start_matrix(self) -> dict[str, dict[str, dict[str, Any]]]:
        """``travel`` metric: start -> checkpoint/gate/target -> {reachable, turns, time}."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for s in self.starts():
            row = self.travel_from(s)
            out[s] = {ref: travel_cell(r) for ref, r in sorted(row.items()) if not ref.startswith("start:")}
        return out

    @staticmethod
    def time(r: TravelResult) -> float:
        return r.time if r.reachable else math.inf
