"""The Mothership battlefield's generator hook (its analysis's ``generator_hook``) for
:mod:`validators.generate`: the plan, genomes and battlefields of
:mod:`engine.mothership.generate`.

The book places nothing on the battlefield but units, so every battlefield the genome builds is
legal by construction and passes; the validators confirm it.  Quality prefers the book's own
picture - the long side vertical, player 1's Mothership on the near (south) side, as the default
arena and the board diagram's "MOTHERSHIP" rows (L2-L5) - so a seed's pick is stable and
familiar; a catalogue allowing only ``horizontal`` still gets one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.mothership.generate import Genome, Plan, build, fresh, load_catalogue, make_plan, vary
from schema.games.mothership import MothershipArena


class MothershipGenerator:
    default_players = 2  # "your Mothership" against "the enemy Mothership" (L6): a two-player game

    def plan(self, catalogue: str | None, players: int, symmetry: str | None, size: float | None,
             table: str | None) -> Plan:
        return make_plan(load_catalogue(catalogue), players=players, symmetry=symmetry, size=size, table=table)

    def fresh(self, plan: Plan, rng: np.random.Generator) -> Genome:
        return fresh(plan, rng)

    def vary(self, plan: Plan, genome: Genome, rng: np.random.Generator) -> Genome:
        return vary(plan, genome, rng)

    def build(self, plan: Plan, genome: Genome, seed: int) -> MothershipArena:
        return build(plan, genome, seed=seed)

    def precheck(self, arena: MothershipArena) -> list[str]:
        return []  # nothing to collide: the validators judge the board at once (5 cheap checks)

    def quality(self, metrics: dict[str, Any]) -> float:
        """1 for the book's picture (player 1 south, building in row 0), else 0.5."""
        p1 = ((metrics.get("approach") or {}).get("1") or {}).get("squares") or []
        return 1.0 if p1 and all(s[1] == 0 for s in p1) else 0.5

    def describe(self, plan: Plan) -> str:
        short, long = plan.board
        return f"2 players, {plan.kind} symmetry: a {short} x {long} battlefield, a Mothership on each short side"


HOOK = MothershipGenerator()
