"""Gravstrike's generator hook (its analysis's ``generator_hook``) for :mod:`validators.generate`: the plan,
genomes and arenas of :mod:`engine.gravstrike.generate`, and the design quality that ranks
arenas which pass - the book's "Custom Arenas" advice as numbers from the validators' metrics."""

from __future__ import annotations

from typing import Any

from engine.gravstrike.generate import Plan
from validators.generate_hooks import GenomeHook


class GravstrikeGenerator(GenomeHook):
    def __init__(self) -> None:
        super().__init__("engine.gravstrike.generate")

    def quality(self, metrics: dict[str, Any]) -> float:
        """Higher is better: walls that hide no one ("without giving those turbines
        unsurmountable protection": the least share of the arena seen from the worst place,
        ``safe-areas``) and fields that make turbines clump, not orbit (one minus the
        ``field-orbit`` balance: 1 when the pushes cancel around the centre)."""
        seen = float((metrics.get("safe_areas") or {}).get("min_visible", 0.0) or 0.0)
        balance = float(metrics.get("orbit_balance", 0.0) or 0.0)
        return round(seen + 0.5 * (1.0 - balance), 4)

    def describe(self, plan: Plan) -> str:
        counts = plan.counts()
        names = {"start": "starts", "wall": "walls", "pillar": "pillars", "outlying": "outlying checkpoints",
                 "central": "central checkpoints", "field": "acceleration fields", "exclusion": "exclusion fields",
                 "target": "static targets"}
        parts = ", ".join(f"{counts[k]} {v}" for k, v in names.items() if counts.get(k))
        return f"{plan.players} players, {plan.symmetry} symmetry, {plan.size:g} lengths across: {parts}"


HOOK = GravstrikeGenerator()
