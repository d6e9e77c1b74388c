"""Gravstrike's generator hook (``Ruleset.generator``) for :mod:`validators.generate`: the plan,
genomes and arenas of :mod:`engine.gravstrike.generate`, and the design quality that ranks
arenas which pass - the book's "Custom Arenas" advice as numbers from the validators' metrics."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.gravstrike.generate import Genome, Plan, build, load_catalogue, make_plan, mutate, place, precheck
from schema.model import Arena


class GravstrikeGenerator:
    def plan(self, catalogue: str | None, players: int, symmetry: str | None, size: float | None,
             table: str | None) -> Plan:
        """Raises :class:`schema.ArenaError` (a bad catalogue, located) or
        :class:`engine.gravstrike.generate.GenerateError` (parameters it cannot honour)."""
        return make_plan(load_catalogue(catalogue), players=players, symmetry=symmetry, size=size, table=table)

    def fresh(self, plan: Plan, rng: np.random.Generator) -> Genome:
        return place(plan, rng)

    def vary(self, plan: Plan, genome: Genome, rng: np.random.Generator) -> Genome:
        varied, changed = mutate(plan, genome, rng)
        return place(plan, rng, varied, changed)

    def build(self, plan: Plan, genome: Genome, seed: int) -> Arena:
        return build(plan, genome, seed=seed)

    def precheck(self, arena: Arena) -> list[str]:
        return precheck(arena)

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
