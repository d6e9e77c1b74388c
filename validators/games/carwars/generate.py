"""Car Wars's generator hook (its analysis's ``generator_hook``) for :mod:`validators.generate`: the plan,
genomes and arenas of :mod:`engine.carwars.generate`, and the design quality that ranks arenas
which pass.

The book gives the arena's rules, not design advice: "terrain features and obstacles can be added
during setup to customize the arena" (001_720c8b844658e4d7.txt L198).  The quality is therefore
our reading (docs/rules-decisions.md, "Car Wars"): walls and full cover that break the
sightlines between the starting cars (no one is shot at from the first turn: "If a sightline
*cannot* be drawn without crossing a full-cover obstacle, the attacker cannot attack that
target", L889), and checkpoint cards a couple of turns away rather than at the start.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.carwars.generate import build, load_catalogue, make_plan, mutate, place, precheck
from engine.carwars.generate_plan import GenerateError, Genome, Plan
from schema.games.carwars import CarWarsArena

#: Flat-out turns to the checkpoints the quality likes (more counts no further).
WANTED_TURNS = 2.0


class CarWarsGenerator:
    default_players = 4

    def plan(self, catalogue: str | None, players: int, symmetry: str | None, size: float | None,
             table: str | None) -> Plan:
        """Raises :class:`schema.ArenaError` (a bad catalogue, located) or
        :class:`engine.carwars.generate_plan.GenerateError` (parameters it cannot honour)."""
        if table not in (None, "square"):
            raise GenerateError(f"table {table!r}: the Car Wars arena is a square (\"roughly 3 feet per side\")")
        return make_plan(load_catalogue(catalogue), players=players, symmetry=symmetry, size=size)

    def fresh(self, plan: Plan, rng: np.random.Generator) -> Genome:
        return place(plan, rng)

    def vary(self, plan: Plan, genome: Genome, rng: np.random.Generator) -> Genome:
        varied, changed = mutate(plan, genome, rng)
        return place(plan, rng, varied, changed)

    def build(self, plan: Plan, genome: Genome, seed: int) -> CarWarsArena:
        return build(plan, genome, seed=seed)

    def precheck(self, arena: CarWarsArena) -> list[str]:
        return precheck(arena)

    def quality(self, metrics: dict[str, Any]) -> float:
        """Higher is better: the share of rival starts each start does not see (0 to 1), plus
        half the flat-out mean time to the checkpoints up to :data:`WANTED_TURNS`, as a share."""
        sight: dict[str, Any] = metrics.get("sightlines") or {}
        n = len(sight)
        hidden = 1.0 - (sum(len(v.get("sees") or ()) for v in sight.values()) / (n * (n - 1)) if n > 1 else 0.0)
        times = [float(m["flat-out"]["mean_time"]) for m in (metrics.get("starts") or {}).values()
                 if "mean_time" in (m.get("flat-out") or {})]
        mean = sum(times) / len(times) if times else 0.0
        reach = min(1.0, mean / WANTED_TURNS) if math.isfinite(mean) else 0.0
        return round(hidden + 0.5 * reach, 4)

    def describe(self, plan: Plan) -> str:
        counts = plan.counts()
        names = {"start": "starts", "wall": "walls", "terrain": "terrain pieces", "hazard": "hazard cards",
                 "barrel": "barrels", "barrier": "barriers", "card": "numbered cards"}
        parts = ", ".join(f"{counts[k]} {v}" for k, v in names.items() if counts.get(k))
        return f"{plan.players} players, {plan.symmetry} symmetry, a {plan.size:g} in square: {parts}"


HOOK = CarWarsGenerator()
