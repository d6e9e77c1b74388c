"""Car Wars's tabletop-robustness hook (its ruleset's ``robustness``): the scenario's placement
tolerance in inches, the misplacement of the walls, obstacles, terrain, hazards, cards and tokens
(:mod:`engine.carwars.placement_error`) and the headline metrics, each held to the tolerance its
check (:mod:`engine.carwars.fairness`) uses:

- per policy (flat-out, safe) and start: its time to its nearest checkpoint, its mean time to the
  checkpoints, its time to its own-colour checkpoint and to the centre, each minus the best
  start's (``travel_time_tolerance``), and the dice rolled on the way to its nearest and own
  checkpoint and to the centre, minus the fewest (``travel_dice_tolerance``);
- its flat-out time to its nearest rival's start minus the best start's (``travel_time_tolerance``);
- the hazard dice and the mean terrain level near it, minus the least (``exposure_dice_tolerance``,
  ``exposure_terrain_tolerance``);
- how many other starts it sees and how much partial cover lies between them, minus the least
  (``sight_tolerance``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine.carwars import placement_error
from engine.placement import Tolerance
from schema.games.carwars import CarWarsArena
from validators.headlines import Headline, gaps
from validators.report import Report

POLICIES = ("flat-out", "safe")


def _n(ref: str) -> str:
    return ref.split(":", 1)[1]


def _ordered(refs: Any) -> list[str]:
    return sorted(refs, key=lambda r: int(_n(r)) if _n(r).isdigit() else 0)


def _num(value: Any) -> float | None:
    """A metric as a number; an unreachable goal (infinite time) or a missing one as None."""
    if value is None:
        return None
    v = float(value)
    return v if np.isfinite(v) else None


class CarWarsRobustness:
    """The hook (see the module docstring)."""

    skip: tuple[str, ...] = ()
    unit = "in"

    def tolerance(self, arena: CarWarsArena) -> Tolerance:
        return placement_error.tolerance(arena)

    def perturb(self, arena: CarWarsArena, rng: np.random.Generator, tol: Tolerance) -> tuple[CarWarsArena, int]:
        return placement_error.perturb(arena, rng, tol)

    def headlines(self, report: Report) -> list[Headline]:
        an = report.arena.scenario.analysis
        m = report.metrics
        out: list[Headline] = []
        starts: dict[str, dict[str, dict[str, Any]]] = m.get("starts") or {}
        time_tol, dice_tol = an.travel_time_tolerance, float(an.travel_dice_tolerance)
        measures = [("access_gap", "nearest_time", "time to its nearest checkpoint", "turns", time_tol),
                    ("mean_access_gap", "mean_time", "mean time to the checkpoints", "turns", time_tol),
                    ("own_gap", "own_time", "time to its own-colour checkpoint", "turns", time_tol),
                    ("centre_gap", "centre_time", "time to the centre", "turns", time_tol),
                    ("access_dice_gap", "nearest_dice", "dice to its nearest checkpoint", "dice", dice_tol),
                    ("own_dice_gap", "own_dice", "dice to its own-colour checkpoint", "dice", dice_tol),
                    ("centre_dice_gap", "centre_dice", "dice to the centre", "dice", dice_tol)]
        for policy in POLICIES:
            for key, field, what, unit, tol in measures:
                behind = gaps({s: _num((rows.get(policy) or {}).get(field)) for s, rows in starts.items()})
                out += [Headline(f"{key}:{policy}:{s}", f"start {_n(s)}'s {what} ({policy}), behind the best", unit,
                                 behind[s], tol) for s in _ordered(behind) if behind[s] is not None]
        behind = gaps({s: _num((rows.get("flat-out") or {}).get("nearest_start_time")) for s, rows in starts.items()})
        out += [Headline(f"spacing_gap:{s}", f"start {_n(s)}'s time to its nearest rival (flat-out), behind the best",
                         "turns", behind[s], time_tol) for s in _ordered(behind) if behind[s] is not None]
        exposure: dict[str, dict[str, float]] = m.get("exposure") or {}
        for key, field, what, unit, tol in (
                ("hazard_gap", "hazard_dice", "hazard dice nearby", "dice", float(an.exposure_dice_tolerance)),
                ("terrain_gap", "terrain", "mean terrain level nearby", "levels", an.exposure_terrain_tolerance)):
            behind = gaps({s: _num(row.get(field)) for s, row in exposure.items()})
            out += [Headline(f"{key}:{s}", f"start {_n(s)}'s {what}, above the least", unit, behind[s], tol)
                    for s in _ordered(behind) if behind[s] is not None]
        sight: dict[str, dict[str, Any]] = m.get("sightlines") or {}
        sight_measures: tuple[tuple[str, Callable[[dict[str, Any]], int], str, str], ...] = (
            ("sight_gap", lambda v: len(v.get("sees") or ()), "starts in sight", "starts"),
            ("cover_gap", lambda v: sum(len(c) for c in (v.get("cover") or {}).values()),
             "partial cover to the starts it sees", "obstacles"))
        for key, count, what, unit in sight_measures:
            behind = gaps({s: float(count(v)) for s, v in sight.items()})
            out += [Headline(f"{key}:{s}", f"start {_n(s)}'s {what}, above the least", unit, behind[s],
                             float(an.sight_tolerance)) for s in _ordered(behind) if behind[s] is not None]
        return out


HOOK = CarWarsRobustness()
