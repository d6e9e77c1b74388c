"""Arena Rex's generator hook (its analysis's ``generator_hook``) for :mod:`validators.generate`: the plan,
genomes and arenas of :mod:`engine.arenarex.generate`, and the design quality that ranks boards
which pass - the book's arena advice as numbers from the validators' zone metrics."""

from __future__ import annotations

import math
from typing import Any

from engine.arenarex.generate import Plan
from validators.generate_hooks import GenomeHook

#: Square inches of one-push kill band (per zone, largest base) counted as a board whose pits
#: are fully in play.
KILL_BAND_FULL = 60.0


class ArenaRexGenerator(GenomeHook):
    #: The book's player count: "both players roll a D6" (L40).
    default_players = 2

    def __init__(self) -> None:
        super().__init__("engine.arenarex.generate")

    def quality(self, metrics: dict[str, Any]) -> float:
        """Higher is better, from the zones' numbers for the widest base (the worse zone counts):
        pits in play - "Pushing models into Hazards is also an important part of Arena Rex"
        (L24) - as the one-push kill band reached within an activation, full at
        :data:`KILL_BAND_FULL` square inches; and spikes and terrain hazards within a move's reach
        of the zone (the walk until in melee range, at most MOV twice: the free move and one
        more), so the "good mix of spikes and hazards" (L40) is met early in the fight."""
        zones = metrics.get("zones") or {}
        band, near = math.inf, math.inf
        for per_base in zones.values():
            if not per_base:
                continue
            widest = per_base[max(per_base, key=float)]
            band = min(band, float((widest.get("kill_band") or {}).get("1") or 0.0))
            dists = [v for k, v in (widest.get("nearest") or {}).items() if k in ("spikes", "hazard") and v is not None]
            near = min(near, sum(1.0 for v in dists if v <= 10.0) / 2.0)
        if not math.isfinite(band):
            return 0.0
        return round(min(1.0, band / KILL_BAND_FULL) + 0.5 * (near if math.isfinite(near) else 0.0), 4)

    def describe(self, plan: Plan) -> str:
        counts = plan.counts()
        names = {"pit": "pits", "spikes": "spikes", "column": "columns", "wall": "walls", "rubble": "rubble"}
        parts = ", ".join(f"{counts[k]} {v}" for k, v in names.items() if counts.get(k))
        board = (f"{plan.size:g} in circle" if plan.table == "circle" else f"{plan.size:g} in square"
                 if plan.table == "square" else f"{plan.bounds.size[0]:g} x {plan.bounds.size[1]:g} in rectangle")  # type: ignore[union-attr]
        return f"2 players, {plan.symmetry} symmetry, a {board}: {parts}"


HOOK = ArenaRexGenerator()
