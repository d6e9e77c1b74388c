"""What Arena Rex validators share while one arena is validated: the zones' numbers for every
listed base (:func:`engine.arenarex.fairness.zone_metrics`), computed once, on first use, and
compared once."""

from __future__ import annotations

from typing import Any

from engine.arenarex import fairness as fair
from engine.arenarex.issues import Issue
from schema.games.arenarex import ArenaRexArena


class ArenaRexContext:
    """Shared, lazily computed zone analysis of one arena."""

    def __init__(self, arena: ArenaRexArena) -> None:
        self.arena = arena
        self._metrics: dict[float, list[fair.ZoneMetrics]] | None = None
        self._issues: list[Issue] | None = None

    def preset(self, metrics: dict[float, list[fair.ZoneMetrics]]) -> None:
        """Use ``metrics`` (the zones' numbers computed elsewhere, e.g. by the editor's workers,
        one base size each) instead of computing them."""
        self._metrics, self._issues = metrics, None

    @property
    def metrics(self) -> dict[float, list[fair.ZoneMetrics]]:
        if self._metrics is None:
            self._metrics = fair.zone_metrics(self.arena)
        return self._metrics

    def issues(self) -> list[Issue]:
        if self._issues is None:
            self._issues = fair.compare(self.arena, self.metrics)
        return self._issues

    def zones_json(self) -> dict[str, Any]:
        """The report's ``zones``: zone id -> base diameter (mm, as text) -> its numbers."""
        out: dict[str, Any] = {}
        for base, ms in self.metrics.items():
            for m in ms:
                out.setdefault(m.zone, {})[f"{base:g}"] = m.to_json()
        return out
