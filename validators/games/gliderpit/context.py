"""What Glider-Pit validators share while one pit is validated: the launch zones' numbers
(:func:`engine.gliderpit.fairness.zone_metrics`), computed once, on first use; the fewest
turns to the centre (six plans, most of the time) only when a validator asks for them."""

from __future__ import annotations

from typing import Any

from engine.gliderpit import fairness as fair
from engine.gliderpit.checks import Issue
from schema.games.gliderpit import GliderPitArena
from validators.report import Undecided


class GliderPitContext:
    """Shared, lazily computed launch-zone analysis of one pit."""

    def __init__(self, arena: GliderPitArena) -> None:
        self.arena = arena
        self._metrics: list[fair.ZoneMetrics] | None = None
        self._travel = False
        self._compared: dict[bool, list[Issue]] = {}

    def metrics(self, travel: bool = False) -> list[fair.ZoneMetrics]:
        """Every zone's numbers (with ``travel``, also its fewest turns to the pit centre)."""
        if self._metrics is None or (travel and not self._travel):
            self._metrics = fair.zone_metrics(self.arena, travel=travel)
            self._travel = travel
        return self._metrics

    def compare(self, travel: bool = False) -> list[Issue]:
        """The zones side by side: every fairness issue (one list per travel setting)."""
        if travel not in self._compared:
            self._compared[travel] = fair.compare(self.arena, self.metrics(travel), travel=travel)
        return self._compared[travel]

    def open_questions(self) -> list[Undecided]:
        """The zones whose fewest turns to the centre a search limit, the analysis's caps or the
        horizon left open (then ``gp-zone-travel`` compares the others only); the runner
        reports them (:func:`validators.report.limit_findings`)."""
        if self._metrics is None or not self._travel:
            return []
        return [Undecided(m.zone, "centre", m.travel_limit or "search limit") for m in self._metrics
                if m.travel_status in ("undecided", "beyond")]

    def zones_json(self) -> dict[str, Any]:
        """The report's ``zones``: zone id -> its numbers (``reach``: the hexes it may enter
        in its first Movement Phase, [q, r]; ``travel_turns`` null until asked for or when the
        centre is out of reach)."""
        out: dict[str, Any] = {}
        for m in self.metrics(self._travel):
            out[m.zone] = {
                "track": m.track,
                "centre_mean": round(m.centre_mean, 4), "centre_min": m.centre_min,
                "nearest_zone": m.nearest_zone, "nearest_zone_id": m.nearest_zone_id,
                "clearance_mean": round(m.clearance_mean, 4), "clearance_min": m.clearance_min,
                "facings_mean": round(m.facings_mean, 4), "facings_min": m.facings_min,
                "rows": list(m.rows), "labels": list(m.labels),
                "exposure": round(m.exposure, 6), "exposure_updraft": round(m.exposure_updraft, 6),
                "exposure_downdraft": round(m.exposure_downdraft, 6),
                "updraft_rows": m.updraft_rows, "downdraft_rows": m.downdraft_rows,
                "expected_markers": round(m.expected_markers, 6),
                "travel_turns": m.travel_turns,
                "reach": [[q, r] for q, r in m.reach],
            }
        return out
