"""Arena Rex's tabletop-robustness hook (its ruleset's ``robustness``): the scenario's placement
tolerance in inches, the misplacement of the pits, spikes and hazards
(:mod:`engine.arenarex.placement_error`) and the headline metrics - per base size and zone, each
held to the tolerance its check (:func:`engine.arenarex.fairness.compare`) uses:

- the zone's walk to the centre minus the shortest zone's (``path_tolerance``), and its moves to
  the centre minus the fewest (``moves_tolerance``);
- its walk to the nearest pit, spikes and terrain hazard minus the shortest zone's
  (``path_tolerance``);
- its kill band for each number of pushes minus the smallest (``kill_band_tolerance``);
- the share of the other zones it sees minus the least (``sight_tolerance``; one base size: sight
  does not depend on it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.arenarex import placement_error
from engine.placement import Tolerance
from schema.games.arenarex import ArenaRexArena
from validators.report import Report
from validators.headlines import Headline, gaps


def _row(zones: dict[str, Any], base: str, pick: Any) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for zone, by_base in zones.items():
        value = pick(by_base.get(base) or {})
        out[zone] = None if value is None else float(value)
    return out


class ArenaRexRobustness:
    """The hook (see the module docstring)."""

    skip: tuple[str, ...] = ("ar-symmetry",)
    unit = "in"

    def tolerance(self, arena: ArenaRexArena) -> Tolerance:
        return placement_error.tolerance(arena)

    def perturb(self, arena: ArenaRexArena, rng: np.random.Generator, tol: Tolerance) -> tuple[ArenaRexArena, int]:
        return placement_error.perturb(arena, rng, tol)

    def headlines(self, report: Report) -> list[Headline]:
        an = report.arena.scenario.analysis
        zones: dict[str, Any] = report.metrics.get("zones") or {}
        bases = sorted({b for by_base in zones.values() for b in by_base}, key=float)
        measures: list[tuple[str, str, str, float, Any]] = [
            ("centre_gap", "walk to the centre", "in", an.path_tolerance, lambda m: m.get("centre")),
            ("centre_moves_gap", "moves to the centre", "moves", float(an.moves_tolerance),
             lambda m: m.get("centre_moves")),
        ]
        measures += [(f"{kind}_gap", f"walk to the nearest {kind}", "in", an.path_tolerance,
                      lambda m, k=kind: (m.get("nearest") or {}).get(k)) for kind in ("pit", "spikes", "hazard")]
        measures += [(f"kill_band_{k}_gap", f"kill band, {k} push(es)", "sq in", an.kill_band_tolerance,
                      lambda m, k=k: (m.get("kill_band") or {}).get(str(k))) for k in range(1, an.pushes + 1)]
        out: list[Headline] = []
        for base in bases:
            for key, what, unit, tol, pick in measures:
                behind = gaps(_row(zones, base, pick))
                if all(v is None for v in behind.values()):
                    continue
                out += [Headline(f"{key}:{zone}:{base}", f"{zone}'s {what} behind the best ({base} mm bases)", unit,
                                 behind[zone], tol) for zone in sorted(behind)]
        if bases:
            behind = gaps(_row(zones, bases[0], lambda m: m.get("sight")))
            out += [Headline(f"sight_gap:{zone}", f"{zone}'s share of the other zones in sight, behind the best",
                             "share", behind[zone], an.sight_tolerance) for zone in sorted(behind)
                    if behind[zone] is not None]
        return out


HOOK = ArenaRexRobustness()
