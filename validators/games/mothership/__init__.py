"""Mothership battlefield (``system: mothership-grid``) validators: the rules engine's setup
checks and approach fairness (:mod:`engine.mothership`) registered in the validator registry,
tagged with the game, the runner that assembles their report, and the game's analysis
(:data:`ANALYSIS`: proposed fixes, generated battlefields; no placement error on a grid)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from validators.game import GameAnalysis, TravelAnswer, TravelQuery

if TYPE_CHECKING:  # each hook imports its module when it runs: this package stays light
    from validators.balance_hooks import Hook as BalanceHook
    from validators.generate_hooks import Hook as GeneratorHook
    from validators.heatmaps import HeatLimits, HeatMap
    from validators.registry import Registry
    from validators.report import Progress, Report


class MothershipAnalysis(GameAnalysis):
    """The Mothership battlefield's analysis: proposed fixes and generated battlefields."""

    system = "mothership-grid"
    robustness_absent = "every card sits in a square of the 3 x 5 grid, so a hand cannot misplace it between squares"

    def validate(self, arena: Any, *, source: str | None = None, enable: Iterable[str] = (),
                 disable: Iterable[str] = (), registry: Registry | None = None, progress: Progress | None = None,
                 parallel: bool = False, tier: int | None = None, budget: int | None | str = "arena",
                 context: Any = None, tolerance: float | None = None) -> Report:
        from validators.games.mothership.run import validate

        return validate(arena, source=source, enable=enable, disable=disable, registry=registry, progress=progress,
                        parallel=parallel)

    def travel(self, arena: Any, query: TravelQuery) -> TravelAnswer:
        """Fewest AP for a Unit between squares, build squares or a Mothership's approach
        (:mod:`validators.games.mothership.travel`)."""
        from validators.games.mothership.travel import answer

        return answer(arena, query)

    def balance_hook(self) -> BalanceHook:
        from validators.games.mothership.balance import HOOK

        return HOOK

    def generator_hook(self) -> GeneratorHook:
        from validators.games.mothership.generate import HOOK

        return HOOK

    def report_heat_maps(self, arena: Any, *, limits: HeatLimits) -> list[HeatMap]:
        from validators.games.mothership.heatmaps import heat_maps

        return heat_maps(arena, limits)

    def warm(self) -> None:
        import validators.games.mothership.run  # noqa: F401


ANALYSIS = MothershipAnalysis()
