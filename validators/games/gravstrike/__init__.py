"""Gravstrike (``system: gravstrike``) validators: placement, layout, travel, targets, sightlines
and tunnelling checks registered in the validator registry, tagged with the game; the runner
that shares one travel context among them (:mod:`validators.games.gravstrike.run`); and the
game's analysis (:data:`ANALYSIS`: the reference turbine's travel, robustness, proposed fixes,
generated arenas).  Gravstrike is the studio's default game (``arena generate`` without
``--system``; validators that name no game)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from validators.game import Column, GameAnalysis, TextTable, TravelAnswer, TravelQuery

if TYPE_CHECKING:  # each hook imports its module when it runs: this package stays light
    from engine.play import PlayEngine
    from validators.balance_hooks import Hook as BalanceHook
    from validators.generate_hooks import Hook as GeneratorHook
    from validators.headlines import Hook as RobustnessHook
    from validators.heatmaps import HeatLimits, HeatMap
    from validators.registry import Registry
    from validators.report import Progress, Report
    from validators.season import SeasonScoring


def veteran_words(limit: int) -> str:
    """The veteran-card limit as the headline says it: "If no limit is specified, players should
    assume that no veteran cards are allowed." (0: none).

    >>> veteran_words(0), veteran_words(1), veteran_words(3)
    ('no veteran cards', '1 veteran card', '3 veteran cards')
    """
    if limit == 0:
        return "no veteran cards"
    return f"{limit} veteran card{'s' if limit != 1 else ''}"


class GravstrikeAnalysis(GameAnalysis):
    """Gravstrike's analysis: tier, icon budget and travel context; every hook."""

    system = "gravstrike"
    report_names_system = False  # its reports predate the field

    def validate(self, arena: Any, *, source: str | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
                 parallel: bool = False, tier: int | None = None, budget: int | None | str = "arena",
                 context: Any = None, tolerance: float | None = None) -> Report:
        from validators.games.gravstrike.run import validate

        return validate(arena, source=source, enable=enable, disable=disable, tier=tier, budget=budget,
                        registry=registry, progress=progress, context=context, tolerance=tolerance,
                        parallel=parallel)

    def judging(self, arenas: Sequence[Any]) -> AbstractContextManager[object]:
        """The start sets share the whole arena's travel planners and the searches that answer
        alike in every set (:mod:`validators.games.gravstrike.share`)."""
        from validators.games.gravstrike.share import active

        return active(arenas)

    def travel(self, arena: Any, query: TravelQuery) -> TravelAnswer:
        from validators.games.gravstrike.travel_query import answer

        return answer(arena, query)

    def robustness_hook(self) -> RobustnessHook:
        from validators.games.gravstrike.robustness import HOOK

        return HOOK

    def balance_hook(self) -> BalanceHook:
        from validators.games.gravstrike.balance import HOOK

        return HOOK

    def generator_hook(self) -> GeneratorHook:
        from validators.games.gravstrike.generate import HOOK

        return HOOK

    def play_hook(self) -> PlayEngine:
        from engine.gravstrike.play import ENGINE

        return ENGINE

    def season_scoring(self) -> SeasonScoring:
        from validators.games.gravstrike.season import SCORING

        return SCORING

    def headline(self, report: Report) -> str:
        from validators.games.gravstrike.tiers import words

        budget = "unlimited" if report.budget is None else f"{report.budget} icons/turn"
        if len(report.tiers) > 1:  # every tier judged, in classes: say which, and whose metrics follow
            tiers = f"{', '.join(words(t) for t in report.tiers)} judged (travel shown: tier {report.tier})"
        elif report.tiers and len(report.tiers[0]) > 1:
            tiers = f"{words(report.tiers[0])} judged alike"
        else:
            tiers = f"tier {report.tier}"
        veterans = veteran_words(report.arena.scenario.veteran_limit)
        return (f"{report.player_count()} players · {tiers} · {budget} · {veterans} · "
                f"{self.validators_run(report)}")

    def report_scenario(self, arena: Any) -> dict[str, Any] | None:
        """The veteran-card limit of the battle and the scoring variants it plays."""
        sc = arena.scenario
        return {"veteran_limit": sc.veteran_limit,
                "variants": {f.name: bool(getattr(sc.variants, f.name)) for f in fields(sc.variants)}}

    def travel_table(self, report: Report) -> TextTable | None:
        """Turns from each start to each checkpoint (flat out), the nearest and the mean."""
        travel: dict[str, dict[str, dict[str, Any]]] | None = report.metrics.get("travel")
        if not travel:
            return None
        goals = sorted({g for row in travel.values() for g in row if g.startswith("checkpoint:")})
        rows = []
        for src in sorted(travel, key=lambda s: int(s.split(":")[1]) if s.split(":")[1].isdigit() else 0):
            row = travel[src]
            times = [row[g]["time"] for g in goals if row.get(g, {}).get("reachable")]
            cells = [f"{row[g]['time']:.2f}" if row.get(g, {}).get("reachable") else "—" for g in goals]
            nearest = f"{min(times):.2f}" if times else "—"
            mean = f"{sum(times) / len(times):.2f}" if times else "—"
            rows.append((src, *cells, nearest, mean))
        columns = (Column("start"), *(Column(g.split(":", 1)[1], right=True) for g in goals),
                   Column("nearest", right=True), Column("mean", right=True))
        return TextTable(columns, tuple(rows), "Turns to reach each checkpoint (flat out)")

    def report_heat_maps(self, arena: Any, *, limits: HeatLimits) -> list[HeatMap]:
        from validators.games.gravstrike.heatmaps import heat_maps

        return heat_maps(arena, limits)

    def warm(self) -> None:
        import validators.games.gravstrike.context  # noqa: F401  (the planner: scipy)
        import validators.games.gravstrike.run  # noqa: F401
        import validators.games.gravstrike.share  # noqa: F401  (the start sets' shared travel)
        import validators.games.gravstrike.tiers  # noqa: F401  (every tier in one report)
        import validators.games.gravstrike.travel_query  # noqa: F401


ANALYSIS = GravstrikeAnalysis()
