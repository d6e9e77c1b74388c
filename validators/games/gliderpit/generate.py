"""Glider-Pit Gladiators' generator hook (its analysis's ``generator_hook``) for :mod:`validators.generate`:
the plan, genomes and pits of :mod:`engine.gliderpit.generate`, and the quality that ranks pits
which pass.

The book gives no advice on drawing a pit, only what makes launch zones unequal, so quality is
fairness beyond the pass marks: how far inside its tolerance each launch-zone comparison the
``gp-zone-*`` validators make lies (1 when all six zones are equal on every measure), plus a
little for room to launch - "The glider counter may be launched facing in any direction except
toward a hexside that contains a pit wall" (L55): more legal facings per launch hex.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.gliderpit.generate import Genome, Plan, build, fresh, load_catalogue, make_plan, precheck, vary
from schema.games.gliderpit import Analysis, GliderPitArena

#: (metric, tolerance field of the analysis) the quality measures the zones' spread of.
SPREADS = (("centre_mean", "centre_tolerance"), ("nearest_zone", "spacing_tolerance"),
           ("clearance_mean", "clearance_tolerance"), ("facings_mean", "facings_tolerance"),
           ("exposure", "current_tolerance"), ("updraft_rows", "current_rows_tolerance"),
           ("travel_turns", "travel_tolerance"))


class GliderPitGenerator:
    default_players = 4

    def plan(self, catalogue: str | None, players: int, symmetry: str | None, size: float | None,
             table: str | None) -> Plan:
        """Raises :class:`schema.ArenaError` (a bad catalogue, located) or
        :class:`engine.gliderpit.generate.GenerateError` (parameters it cannot honour)."""
        return make_plan(load_catalogue(catalogue), gliders=players, symmetry=symmetry, size=size, table=table)

    def fresh(self, plan: Plan, rng: np.random.Generator) -> Genome:
        return fresh(plan, rng)

    def vary(self, plan: Plan, genome: Genome, rng: np.random.Generator) -> Genome:
        return vary(plan, genome, rng)

    def build(self, plan: Plan, genome: Genome, seed: int) -> GliderPitArena:
        return build(plan, genome, seed=seed)

    def precheck(self, arena: GliderPitArena) -> list[str]:
        return precheck(arena)

    def quality(self, metrics: dict[str, Any]) -> float:
        """Higher is better: the mean over the zone comparisons of one minus spread/tolerance,
        plus a tenth of the mean launch facings per hex over six."""
        zones = list((metrics.get("zones") or {}).values())
        if not zones:
            return 0.0
        an = Analysis()
        scores = []
        for key, tol in SPREADS:
            vals = [float(z[key]) for z in zones if z.get(key) is not None]
            if len(vals) > 1:
                scores.append(1.0 - min(1.0, (max(vals) - min(vals)) / max(float(getattr(an, tol)), 1e-9)))
        facings = sum(float(z["facings_mean"]) for z in zones) / len(zones)
        return round(sum(scores) / max(len(scores), 1) + 0.1 * facings / 6.0, 4)

    def describe(self, plan: Plan) -> str:
        cat = plan.catalogue
        floors = ", ".join("standard" if f == 0 else str(f) for f in cat.floors)
        return (f"{plan.gliders} gliders, mirror symmetry: a pit of 19 rows {cat.min_width} to {cat.max_width} hexes wide, "
                f"six launch zones, FLOOR {floors}")


HOOK = GliderPitGenerator()
