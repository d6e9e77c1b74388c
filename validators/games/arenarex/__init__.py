"""Arena Rex (``system: arena-rex``) validators: the rules engine's setup checks and zone fairness
(:mod:`engine.arenarex`) registered in the validator registry, tagged with the game, the runner
that assembles their report, and the game's analysis (:data:`ANALYSIS`: a base's walk,
robustness, proposed fixes, generated arenas)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from validators.game import GameAnalysis, TravelAnswer, TravelQuery

if TYPE_CHECKING:  # each hook imports its module when it runs: this package stays light
    from validators.balance_hooks import Hook as BalanceHook
    from validators.generate_hooks import Hook as GeneratorHook
    from validators.headlines import Hook as RobustnessHook
    from validators.heatmaps import HeatLimits, HeatMap
    from validators.registry import Registry
    from validators.report import Progress, Report


class ArenaRexAnalysis(GameAnalysis):
    """Arena Rex's analysis: a round base's shortest walk, every hook."""

    system = "arena-rex"

    def validate(self, arena: Any, *, source: str | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
                 parallel: bool = False, tier: int | None = None, budget: int | None | str = "arena",
                 context: Any = None, tolerance: float | None = None) -> Report:
        from validators.games.arenarex.run import validate

        return validate(arena, source=source, enable=enable, disable=disable, registry=registry, progress=progress,
                        parallel=parallel)

    def travel(self, arena: Any, query: TravelQuery) -> TravelAnswer:
        from validators.games.arenarex.travel import answer

        return answer(arena, query)

    def robustness_hook(self) -> RobustnessHook:
        from validators.games.arenarex.robustness import HOOK

        return HOOK

    def balance_hook(self) -> BalanceHook:
        from validators.games.arenarex.balance import HOOK

        return HOOK

    def generator_hook(self) -> GeneratorHook:
        from validators.games.arenarex.generate import HOOK

        return HOOK

    def headline(self, report: Report) -> str:
        """Players, the scenario's cohort, starting Favor and who goes first, validators."""
        from validators.games.arenarex.scenario import favor_words, first_words

        arena = report.arena
        return (f"{report.system} · {report.player_count()} players · cohort {arena.scenario.cohort} · "
                f"{favor_words(arena)} · {first_words(arena)} · {self.validators_run(report)}")

    def report_scenario(self, arena: Any) -> dict[str, Any] | None:
        from validators.games.arenarex.scenario import scenario_json

        return scenario_json(arena)

    def report_heat_maps(self, arena: Any, *, limits: HeatLimits) -> list[HeatMap]:
        from validators.games.arenarex.heatmaps import heat_maps

        return heat_maps(arena, limits)

    def warm(self) -> None:
        import validators.games.arenarex.run  # noqa: F401
        import validators.games.arenarex.scenario  # noqa: F401  (the report's scenario and headline)
        import validators.games.arenarex.travel  # noqa: F401


ANALYSIS = ArenaRexAnalysis()
