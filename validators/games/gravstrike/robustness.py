"""Gravstrike's tabletop-robustness hook (its ruleset's ``robustness``): the scenario's placement
tolerance, the misplacement of every piece (:mod:`engine.gravstrike.placement_error`) and the
report's headline metrics - each compared with the scenario threshold its validator uses:

- each start's access gap: its time to its nearest checkpoint minus the best start's
  (``start_access_tolerance``), and the same for its mean time to the checkpoints;
- each start's spacing gap: its distance to its nearest other start minus the closest pair's
  (``start_spacing_tolerance``), and in turns (``start_spacing_time_tolerance``);
- each start's target gap: its time to its nearest static target minus the best start's
  (``target_access_tolerance``), and its best target-number from the start minus the best
  start's (``target_tn_tolerance``);
- each pair of outlying checkpoints: the flat-out turns between them, which should not fall below
  ``checkpoint_min_turns`` (a pair farther than the analysis looked counts as that far);
- the least visible share of the arena from any point (``safe_area_min_visible``, from below).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from engine.gravstrike import kernels, placement_error
from engine.placement import Tolerance
from schema.games.gravstrike.model import Arena
from validators.report import Report
from validators.headlines import Headline, gaps


def _n(ref: str) -> str:
    return ref.split(":", 1)[1]


def _by_player(refs: Any) -> list[str]:
    return sorted(refs, key=lambda r: int(_n(r)) if _n(r).isdigit() else 0)


class GravstrikeRobustness:
    """The hook (see the module docstring)."""

    skip: tuple[str, ...] = ("symmetry",)
    unit = "length"

    def tolerance(self, arena: Arena) -> Tolerance:
        return placement_error.tolerance(arena)

    def warm(self) -> None:
        """A worker with several placements to validate: the compiled search kernels from the
        first (numba's start-up is paid once and the first placement runs at full speed)."""
        kernels.enable()

    def perturb(self, arena: Arena, rng: np.random.Generator, tol: Tolerance) -> tuple[Arena, int]:
        return placement_error.perturb(arena, rng, tol)

    def headlines(self, report: Report) -> list[Headline]:
        th = report.arena.scenario.analysis
        m = report.metrics
        out: list[Headline] = []
        access = m.get("start_checkpoint_access") or {}
        for field, what in (("nearest_time", "access gap"), ("mean_time", "mean access gap")):
            key = "access_gap" if field == "nearest_time" else "mean_access_gap"
            behind = gaps({s: row.get(field) for s, row in access.items()})
            out += [Headline(f"{key}:{s}", f"start {_n(s)}'s {what}", "turns", behind[s], th.start_access_tolerance)
                    for s in _by_player(behind)]
        spacing = m.get("start_spacing") or {}
        for field, key, unit, tol in (("nearest_distance", "spacing_gap", "lengths", th.start_spacing_tolerance),
                                      ("nearest_time", "spacing_time_gap", "turns", th.start_spacing_time_tolerance)):
            behind = gaps(dict(spacing.get(field) or {}))
            what = "spacing gap" if unit == "lengths" else "spacing gap in turns"
            out += [Headline(f"{key}:{s}", f"start {_n(s)}'s {what}", unit, behind[s], tol) for s in _by_player(behind)]
        targets = m.get("target_access") or {}
        for field, key, what, unit, tol in (
                ("time", "target_gap", "target gap", "turns", th.target_access_tolerance),
                ("tn_from_start", "target_tn_gap", "best target TN gap", "TN", float(th.target_tn_tolerance))):
            behind = gaps(_best(targets, field))
            out += [Headline(f"{key}:{s}", f"start {_n(s)}'s {what}", unit, behind[s], tol) for s in _by_player(behind)]
        matrix = m.get("checkpoint_travel") or {}
        outlying = sorted(_n(c) for c in matrix)
        for a, b in combinations(outlying, 2):
            times = [_turns(matrix.get(f"checkpoint:{x}", {}).get(f"checkpoint:{y}")) for x, y in ((a, b), (b, a))]
            known = [t for t in times if t is not None]
            out.append(Headline(f"checkpoint_spacing:{a}-{b}", f"checkpoints {a}–{b} apart", "turns",
                                min(known) if known else None, th.checkpoint_min_turns, "below"))
        safe = m.get("safe_areas") or {}
        if safe.get("min_visible") is not None:
            out.append(Headline("safe_area_min_visible", "least visible share", "share", safe["min_visible"],
                                th.safe_area_min_visible, "below"))
        return out

    def travel(self, report: Report) -> dict[str, dict[str, float | None]]:
        return travel(report)


def travel(report: Report) -> dict[str, dict[str, float | None]]:
    """The travel table the editor shows (start -> checkpoint ref -> turns, flat out; None
    where the search did not reach it)."""
    rows: dict[str, dict[str, Any]] = report.metrics.get("travel") or {}
    return {s: {g: (float(cell["time"]) if cell.get("reachable") else None)
                for g, cell in sorted(row.items()) if g.startswith("checkpoint:")}
            for s, row in ((s, rows[s]) for s in _by_player(rows))}


def _best(targets: dict[str, dict[str, dict[str, Any]]], field: str) -> dict[str, float | None]:
    """Per start, the smallest ``field`` over the static targets (None if none has it)."""
    best: dict[str, float | None] = {}
    for rows in targets.values():
        for s, cell in rows.items():
            values = [v for v in (best.get(s), cell.get(field)) if v is not None]
            best[s] = float(min(values)) if values else None
    return best


def _turns(cell: dict[str, Any] | None) -> float | None:
    """A travel cell's time; a goal farther than the search looked counts as that far."""
    if not cell:
        return None
    if cell.get("reachable"):
        return float(cell["time"])
    if cell.get("at_least") is not None:
        return float(cell["at_least"])
    return None


HOOK = GravstrikeRobustness()
