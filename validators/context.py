"""The shared analysis context: everything several validators need, computed once per run.

Travel comes from the rules engine's travel planner, with the arena's reference turbine, its
per-turn Maneuver-icon budget and the analysed tier; one planner search per source serves
every goal, and results are cached here so validators share them.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

from engine.planner import CheckpointSource, Goal, Planner, StartSource, TravelResult
from schema.model import Arena


def travel_cell(r: TravelResult) -> dict[str, Any]:
    """The report's compact form of a travel result."""
    if not r.reachable:
        return {"reachable": False, "turns": None, "time": None}
    return {"reachable": True, "turns": r.turns, "time": round(r.time, 3)}


def path_json(r: TravelResult) -> tuple[dict[str, Any], ...]:
    return tuple({"x": round(p.x, 3), "y": round(p.y, 3), "heading": round(p.heading, 3), "speed": p.speed,
                  "turn": p.turn, "length": p.length, "pushed_by": p.pushed_by} for p in r.path)


class AnalysisContext:
    def __init__(self, arena: Arena, *, tier: int | None = None, budget: int | None | str = "arena") -> None:
        self.arena = arena
        self.tier = tier if tier is not None else arena.scenario.analysis.tier
        self.budget: int | None = arena.turbine.icons_per_turn if budget == "arena" else budget  # type: ignore[assignment]
        self._from: dict[str, dict[str, TravelResult]] = {}

    @cached_property
    def planner(self) -> Planner:
        return Planner(self.arena, tier=self.tier, budget=self.budget)

    def goals(self, kinds: tuple[str, ...] = ("checkpoint", "gate", "target", "start")) -> list[Goal]:
        return [g for g in self.planner.goals() if g.kind in kinds]

    def travel_from(self, source: str) -> dict[str, TravelResult]:
        """Every goal's travel result from ``start:N`` or ``checkpoint:ID`` (one search, cached)."""
        if source not in self._from:
            kind, _, ident = source.partition(":")
            src = StartSource(int(ident)) if kind == "start" else CheckpointSource(ident)
            results = self.planner.plan_from(src, self.goals())
            self._from[source] = {g.ref: r for g, r in results.items()}
        return self._from[source]

    def travel(self, source: str, goal: str) -> TravelResult:
        return self.travel_from(source)[goal]

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
