"""A game's analysis: everything the validators and the apps (``arena`` CLI, the HTTP service,
the editor) ask of a game, as one typed object per game.

A game subclasses :class:`GameAnalysis` and overrides the hooks it has (python-chess style: the
base class is a game with no analysis beyond its registered validators), then registers one
instance under the entry-point group ``arena_studio.analyses`` (:data:`GROUP`), named by its
ruleset id::

    [project.entry-points."arena_studio.analyses"]
    car-wars-6e = "validators.games.carwars:ANALYSIS"

:func:`analysis` finds it, importing only that game's package (a game's package keeps its
heavy imports inside the hooks).  The hooks:

- :meth:`GameAnalysis.validate` - the checks runner (``arena validate``, the service, the
  editor's live validation): by default every registered validator of the game, in code order;
- :meth:`GameAnalysis.judging` - what the validations of one arena's start sets share;
- :meth:`GameAnalysis.travel` - one least-time query (``arena travel``, the service's
  ``/v1/travel``): parse it, run it, answer as JSON and as text;
- :meth:`GameAnalysis.robustness_hook`, :meth:`GameAnalysis.balance_hook`,
  :meth:`GameAnalysis.generator_hook` - tabletop robustness, proposed fixes, generated arenas;
- :meth:`GameAnalysis.report_heat_maps` - the game's heat maps for the HTML report
  (:mod:`validators.heatmaps`);
- :meth:`GameAnalysis.headline`, :meth:`GameAnalysis.travel_table`,
  :meth:`GameAnalysis.report_scenario` and :attr:`GameAnalysis.report_names_system` - how a
  report reads;
- :meth:`GameAnalysis.season_scoring` - how a season's events are scored and its players ranked
  (``arena season``, :mod:`validators.season`);
- :meth:`GameAnalysis.play_hook` - the game's play engine (:class:`engine.play.PlayEngine`: whole
  games played out, seeded, for ``arena simulate``);
- :meth:`GameAnalysis.warm` - what a long-lived process (the service's preloader) imports once.

The validators of a game (group ``arena_studio.validators``) are its own: the registry takes a
validator whose entry point lies in the module (or below the package) an analysis entry point
names as that game's, and does not import it for another game's arena.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from schema.ruleset import entry_points, ruleset

if TYPE_CHECKING:  # the runner, the registry and the hooks' protocols load when a hook runs
    from engine.play import PlayEngine
    from validators.balance_hooks import Hook as BalanceHook
    from validators.generate_hooks import Hook as GeneratorHook
    from validators.headlines import Hook as RobustnessHook
    from validators.heatmaps import HeatLimits, HeatMap
    from validators.registry import Registry
    from validators.report import Progress, Report
    from validators.season import SeasonScoring

__all__ = ["GROUP", "Column", "GameAnalysis", "NoTravel", "TextTable", "TravelAnswer", "TravelQuery",
           "TravelQueryError", "UnknownAnalysis", "analyses", "analysis", "analysis_of", "default_system",
           "owner_modules"]

GROUP = "arena_studio.analyses"


class UnknownAnalysis(LookupError):
    """No installed analysis for a game, or an entry point that does not load one."""


class NoTravel(LookupError):
    """The game has no travel model (``str``: "no travel model for GAME arenas yet")."""


class TravelQueryError(ValueError):
    """A travel query the game cannot answer as asked (an unknown place, a bad pose...).
    ``param`` names the query's part at fault when it is one (``from`` or ``to``: the service
    answers with an invalid-parameter problem located there), else None."""

    def __init__(self, message: str, param: Literal["from", "to"] | None = None) -> None:
        super().__init__(message)
        self.param = param


@dataclass(frozen=True)
class TravelQuery:
    """One least-time query, as ``arena travel`` and the service take it: from ``source`` to
    ``goal`` (in the game's own words: ``start:2``, ``checkpoint:A``, ``x,y,heading``...), and
    the options a game's model may read (others ignore them).

    ``budget``: manoeuvre budget per turn (None: unlimited, ``"default"``: the arena's);
    ``exclusions``: ``pay`` or ``avoid`` fields that cost to enter; ``tolerance``: the search's
    position tolerance; ``fewest_icons``: among the fastest plans the cheapest; ``policy``: a
    driving policy (``flat-out``, ``safe``); ``max_bytes``/``max_seconds``: the search's own
    limits (None: the model's defaults); ``progress``: called with a line of text during a long
    search."""

    source: str
    goal: str
    tier: int | None = None
    budget: int | None | Literal["default"] = "default"
    exclusions: Literal["pay", "avoid"] = "pay"
    tolerance: float = 0.25
    fewest_icons: bool = False
    policy: str = "flat-out"
    max_bytes: int | None = None
    max_seconds: float | None = None
    progress: Callable[[str], None] | None = None


@dataclass(frozen=True)
class Column:
    """A column of a :class:`TextTable`: its title and whether its cells align right."""

    title: str
    right: bool = False


@dataclass(frozen=True)
class TextTable:
    """A table for people (the CLI draws it with rich): plain-text cells, row by row."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str | None = None


TravelStatus = Literal["reached", "unreachable", "beyond", "undecided"]


@dataclass(frozen=True)
class TravelAnswer:
    """A travel query's answer: ``status`` (``reached``; ``unreachable`` proven; ``beyond`` the
    model's turn limit; ``undecided``: a search limit stopped it), ``document`` (the JSON answer,
    ``arena travel --json`` and the service), ``summary`` (one line of text) and, for a plan,
    its ``table`` (one row per step)."""

    status: TravelStatus
    document: dict[str, Any]
    summary: str
    table: TextTable | None = None

    @property
    def exit_code(self) -> int:
        """``arena travel``'s exit status: 0 reached, 3 undecided, 1 otherwise."""
        return {"reached": 0, "undecided": 3}.get(self.status, 1)


class GameAnalysis:
    """The analysis of one game (:attr:`system`, its ruleset id).  Every hook has a default that
    means "this game has none", so a game that registers only a ruleset and validators works."""

    #: The ruleset id this analysis serves (the entry point's name).
    system: str = ""
    #: Why tabletop robustness does not apply to the game at all (said instead of "not available
    #: yet"), e.g. pieces that snap to a grid's cells; empty: it may come.
    robustness_absent: str = ""
    #: Whether the report document names its ``system`` (a game whose reports predate the field
    #: keeps them as they were).
    report_names_system: bool = True

    def __init__(self, system: str | None = None) -> None:
        if system is not None:
            self.system = system
        if not self.system:
            raise ValueError(f"{type(self).__name__} names no system")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.system}>"

    @property
    def title(self) -> str:
        """"Car Wars (car-wars-6e)": the game's name and id, for messages."""
        rs = ruleset(self.system)
        return f"{rs.game} ({rs.id})"

    # ------------------------------------------------------------------ checks

    def validate(self, arena: Any, *, source: str | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
                 parallel: bool = False, tier: int | None = None, budget: int | None | str = "arena",
                 context: Any = None, tolerance: float | None = None) -> Report:
        """Run the game's validators on ``arena`` and assemble the report.  The default: every
        registered validator for the game in code order (without those the arena's
        ``scenario.analysis.disabled`` lists, unless enabled), ``context`` (None unless given)
        passed to each; ``tier``, ``budget``, ``tolerance`` and ``parallel`` are for games that
        use them."""
        from validators.registry import default_registry
        from validators.report import run_chosen

        reg = registry or default_registry()
        enable = list(enable)
        scenario = getattr(arena, "scenario", None)
        analysed = getattr(scenario, "analysis", None)
        disabled = set(disable) | (set(getattr(analysed, "disabled", ())) - set(enable))
        chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game=self.system)
        return run_chosen(arena, chosen, context, source=source, progress=progress, system=self.system)

    def judging(self, arenas: Sequence[Any]) -> AbstractContextManager[object]:
        """Wraps the validations of ``arenas`` - the arena as it stands and its start sets'
        arenas, in the order :func:`validators.players.judge` validates them - so that the game may
        share work among them (Gravstrike: its travel planners and searches,
        :mod:`validators.games.gravstrike.share`).  The default: nothing shared."""
        return nullcontext()

    # ------------------------------------------------------------------ travel

    def travel(self, arena: Any, query: TravelQuery) -> TravelAnswer:
        """Answer one least-time query on ``arena``; :class:`TravelQueryError` for a query the
        game cannot answer as asked, :class:`NoTravel` when the game has no travel model."""
        raise NoTravel(f"no travel model for {self.system} arenas yet")

    # ------------------------------------------------------------------ robustness, fixes, generation

    def robustness_hook(self) -> RobustnessHook:
        """The game's placement-error hook (:mod:`validators.robustness`); ``LookupError``
        naming the game when it has none."""
        if self.robustness_absent:
            raise LookupError(f"tabletop robustness does not apply to {self.title}: {self.robustness_absent}")
        raise LookupError(f"tabletop robustness is not available for {self.title} yet")

    def balance_hook(self) -> BalanceHook:
        """The game's proposed-fix hook (:mod:`validators.balance`); ``LookupError`` naming the
        game when it has none."""
        raise LookupError(f"proposed fixes are not available for {self.title} yet")

    def generator_hook(self) -> GeneratorHook:
        """The game's arena-generator hook (:mod:`validators.generate`); ``LookupError`` naming
        the game when it has none."""
        raise LookupError(f"arena generation is not available for {self.title} yet")

    def has_generator(self) -> bool:
        """Whether :meth:`generator_hook` gives a hook (without importing it)."""
        return type(self).generator_hook is not GameAnalysis.generator_hook

    # ------------------------------------------------------------------ seasons

    def season_scoring(self) -> SeasonScoring:
        """The game's season scoring (:class:`validators.season.SeasonScoring`: one event's
        results to placement points, the ranking); ``LookupError`` naming the game when its
        book has no season play."""
        raise LookupError(f"{self.title} has no season play (its analysis gives no season scoring)")

    # ------------------------------------------------------------------ simulated play

    def play_hook(self) -> PlayEngine:
        """The game's play engine (:class:`engine.play.PlayEngine`, in the game's own engine
        package, imported when asked for); ``LookupError`` naming the game when it has none."""
        raise LookupError(f"simulated play is not available for {self.title} yet")

    def has_play(self) -> bool:
        """Whether :meth:`play_hook` gives an engine (without importing it)."""
        return type(self).play_hook is not GameAnalysis.play_hook

    # ------------------------------------------------------------------ how a report reads

    def headline(self, report: Report) -> str:
        """The line under a report's title in ``arena validate``'s text output."""
        return f"{report.system} · {report.player_count()} players · {self.validators_run(report)}"

    @staticmethod
    def validators_run(report: Report) -> str:
        """How many validators ran, in words: "1 validator", "15 validators" (the headlines' last part)."""
        n = len(report.validators)
        return f"{n} validator{'' if n == 1 else 's'}"

    def travel_table(self, report: Report) -> TextTable | None:
        """The table of the report's travel metrics that ``arena validate`` prints, if any."""
        return None

    def report_scenario(self, arena: Any) -> dict[str, Any] | None:
        """The report's ``scenario``: the settings of the game's book the arena was judged under
        (Arena Rex's cohort, Favor and first player; Gravstrike's veteran limit and scoring
        variants), or None (the default: the report has no ``scenario``)."""
        return None

    def report_heat_maps(self, arena: Any, *, limits: HeatLimits) -> list[HeatMap]:
        """The heat maps the HTML report draws over the arena (:class:`validators.heatmaps.HeatMap`:
        per start, zone or Mothership, a value per place: the travel time or moves to get
        there), computed with the game's engine within ``limits`` and the analysis's caps; a
        map a limit stopped says so.  The default: none."""
        return []

    # ------------------------------------------------------------------ long-lived processes

    def warm(self) -> None:
        """Import what analysing this game's arenas takes (its runner, engine, travel model), so
        that a process forked afterwards (the service's workers) pays for none of it."""


def _entry_points() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for ep in entry_points(group=GROUP):
        found[ep.name] = ep  # two installations claiming an id: the last one, as the rulesets
    return found


def _load(name: str, ep: Any) -> GameAnalysis:
    try:
        obj = ep.load()
    except Exception as exc:  # noqa: BLE001 - a broken plug-in is named, not a traceback
        raise UnknownAnalysis(f"the analysis plug-in {name!r} ({ep.value}) cannot be loaded: "
                              f"{type(exc).__name__}: {exc}") from exc
    if isinstance(obj, type) and issubclass(obj, GameAnalysis):
        obj = obj()
    if not isinstance(obj, GameAnalysis):
        raise UnknownAnalysis(f"entry point {name!r} in {GROUP} is not a GameAnalysis: {obj!r}")
    if obj.system != name:
        raise UnknownAnalysis(f"entry point {name!r} in {GROUP} loads the analysis of {obj.system!r}")
    return obj


#: The analyses loaded so far, by id, with the entry point each came from.
_LOADED: dict[str, tuple[Any, GameAnalysis]] = {}


def _analysis(system: str) -> GameAnalysis | None:
    ep = _entry_points().get(system)
    if ep is None:
        return None
    got = _LOADED.get(system)
    if got is None or got[0] != ep:
        got = _LOADED[system] = (ep, _load(system, ep))
    return got[1]


def analysis(system: str) -> GameAnalysis:
    """The installed analysis of ``system``.  A game with a ruleset but no registered analysis
    gets the base class (its registered validators, no other hook); :class:`UnknownAnalysis`
    for a game with neither, or a plug-in that does not load a :class:`GameAnalysis` of its
    name.  Only that game's package is imported."""
    found = _analysis(system)
    if found is not None:
        return found
    from schema.ruleset import UnknownSystem

    try:
        ruleset(system)
    except UnknownSystem as exc:
        raise UnknownAnalysis(str(exc.args[0])) from None
    return GameAnalysis(system)


def analysis_of(arena: Any) -> GameAnalysis:
    """The analysis of a typed arena's game (its ``system``)."""
    return analysis(str(arena.system))


def analyses() -> Mapping[str, GameAnalysis]:
    """Every installed analysis by id, sorted (imports every game's analysis package)."""
    return {name: analysis(name) for name in sorted(_entry_points())}


def owner_modules() -> dict[str, str]:
    """Module (or package) -> the game whose analysis entry point names it, without importing
    any: where each game's own validators live (:meth:`validators.registry.Registry.select`)."""
    return {str(ep.value).partition(":")[0].strip(): name for name, ep in _entry_points().items()}


def default_system() -> str:
    """The game a command makes when none is named: the studio's first game, the installed
    ruleset that says :attr:`schema.ruleset.Ruleset.default` (:func:`schema.ruleset.default_system`)."""
    from schema.ruleset import default_system as first_game

    return first_game()
