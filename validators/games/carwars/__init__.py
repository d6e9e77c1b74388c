"""Car Wars sixth edition (``system: car-wars-6e``) validators: the rules engine's setup checks
and fairness metrics (:mod:`engine.carwars`) registered in the validator registry, tagged with
the game, the runner that assembles their report, and the game's analysis (:data:`ANALYSIS`:
travel, robustness, proposed fixes, generated arenas)."""

from __future__ import annotations

from collections.abc import Iterable
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


class CarWarsAnalysis(GameAnalysis):
    """Car Wars' analysis: the car's travel under a driving policy, every hook."""

    system = "car-wars-6e"

    def validate(self, arena: Any, *, source: str | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
                 parallel: bool = False, tier: int | None = None, budget: int | None | str = "arena",
                 context: Any = None, tolerance: float | None = None) -> Report:
        from validators.games.carwars.run import validate

        return validate(arena, source=source, enable=enable, disable=disable, registry=registry, progress=progress,
                        parallel=parallel)

    def travel(self, arena: Any, query: TravelQuery) -> TravelAnswer:
        from validators.games.carwars.travel import answer

        return answer(arena, query)

    def robustness_hook(self) -> RobustnessHook:
        from validators.games.carwars.robustness import HOOK

        return HOOK

    def balance_hook(self) -> BalanceHook:
        from validators.games.carwars.balance import HOOK

        return HOOK

    def generator_hook(self) -> GeneratorHook:
        from validators.games.carwars.generate import HOOK

        return HOOK

    def report_scenario(self, arena: Any) -> dict[str, Any] | None:
        """The book's settings of the battle (:func:`validators.games.carwars.scenario.summary`)."""
        from validators.games.carwars.scenario import summary

        return summary(arena)

    def play_hook(self) -> PlayEngine:
        from engine.carwars.play import ENGINE

        return ENGINE

    def headline(self, report: Report) -> str:
        """Players, then the game size and damage deck the scenario sets (Game Size), then the
        validators."""
        from validators.games.carwars.scenario import words

        said = words(report.scenario) if report.scenario else ""
        return (f"{report.system} · {report.player_count()} players · {said + ' · ' if said else ''}"
                f"{self.validators_run(report)}")

    def travel_table(self, report: Report) -> TextTable | None:
        """Turns (and driving-roll dice) from each start to each card and the centre, flat out."""
        travel: dict[str, dict[str, dict[str, Any]]] | None = report.metrics.get("travel")
        if not travel:
            return None
        goals = sorted(g for g in {g for row in travel.values() for g in row} if g.startswith("card:")) + ["centre"]
        rows = []
        for src in sorted(travel, key=lambda s: int(s.split(":")[1]) if s.split(":")[1].isdigit() else 0):
            row = travel[src]
            rows.append((src, *(f"{row[g]['time']:.2f} ({row[g].get('dice', 0)})" if row.get(g, {}).get("reachable")
                                else "—" for g in goals)))
        columns = (Column("start"), *(Column(g.split(":", 1)[-1], right=True) for g in goals))
        return TextTable(columns, tuple(rows), "Turns (dice) to each card and the centre (flat out)")

    def report_heat_maps(self, arena: Any, *, limits: HeatLimits) -> list[HeatMap]:
        from validators.games.carwars.heatmaps import heat_maps

        return heat_maps(arena, limits)

    def warm(self) -> None:
        import validators.games.carwars.run  # noqa: F401
        import validators.games.carwars.scenario  # noqa: F401  (the report's scenario and headline)
        import validators.games.carwars.travel  # noqa: F401


ANALYSIS = CarWarsAnalysis()
