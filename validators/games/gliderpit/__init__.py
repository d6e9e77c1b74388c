"""Glider-Pit Gladiators (``system: glider-pit-gladiators``) validators: the rules engine's setup
checks and launch-zone fairness (:mod:`engine.gliderpit`) registered in the validator registry,
tagged with the game, the runner that assembles their report, and the game's analysis
(:data:`ANALYSIS`: proposed fixes, generated pits, simulated play; no placement error on a printed
hex map)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from validators.game import GameAnalysis, TravelAnswer, TravelQuery

if TYPE_CHECKING:  # each hook imports its module when it runs: this package stays light
    from engine.play import PlayEngine
    from validators.balance_hooks import Hook as BalanceHook
    from validators.generate_hooks import Hook as GeneratorHook
    from validators.heatmaps import HeatLimits, HeatMap
    from validators.registry import Registry
    from validators.report import Progress, Report


class GliderPitAnalysis(GameAnalysis):
    """Glider-Pit's analysis: proposed fixes and generated pits."""

    system = "glider-pit-gladiators"
    robustness_absent = "every piece stands in a hex of the printed map, so a hand cannot misplace it between hexes"

    def validate(self, arena: Any, *, source: str | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
                 parallel: bool = False, tier: int | None = None, budget: int | None | str = "arena",
                 context: Any = None, tolerance: float | None = None) -> Report:
        from validators.games.gliderpit.run import validate

        return validate(arena, source=source, enable=enable, disable=disable, registry=registry, progress=progress,
                        parallel=parallel)

    def report_scenario(self, arena: Any) -> dict[str, Any] | None:
        """The book's settings of the battle (:func:`validators.games.gliderpit.scenario.summary`)."""
        from validators.games.gliderpit.scenario import summary

        return summary(arena)

    def headline(self, report: Report) -> str:
        """Gliders, then the teams, short game and optional rules the scenario sets, then the
        validators."""
        from validators.games.gliderpit.scenario import words

        said = words(report.scenario) if report.scenario else ""
        return (f"{report.system} · {report.player_count()} gliders · {said + ' · ' if said else ''}"
                f"{self.validators_run(report)}")

    def travel(self, arena: Any, query: TravelQuery) -> TravelAnswer:
        """Fewest turns for a glider from a launch zone (or a glider) to the centre, a zone or a
        hex (:mod:`validators.games.gliderpit.travel`)."""
        from validators.games.gliderpit.travel import answer

        return answer(arena, query)

    def balance_hook(self) -> BalanceHook:
        from validators.games.gliderpit.balance import HOOK

        return HOOK

    def generator_hook(self) -> GeneratorHook:
        from validators.games.gliderpit.generate import HOOK

        return HOOK

    def play_hook(self) -> PlayEngine:
        from engine.gliderpit.play import ENGINE

        return ENGINE

    def report_heat_maps(self, arena: Any, *, limits: HeatLimits) -> list[HeatMap]:
        from validators.games.gliderpit.heatmaps import heat_maps

        return heat_maps(arena, limits)

    def warm(self) -> None:
        import validators.games.gliderpit.run  # noqa: F401
        import validators.games.gliderpit.scenario  # noqa: F401  (the report's scenario and headline)


ANALYSIS = GliderPitAnalysis()
