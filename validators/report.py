"""The validation report of any game (schema/report.schema.json) and the plain runner that
evaluates validators in order: game-neutral, so every game's validators may use it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from validators.findings import RANK, SEVERITIES, Finding, at_least
from validators.registry import Validator

REPORT_FORMAT = "arena-studio-report/1"
Progress = Callable[[str, int, int], None]


@dataclass
class Report:
    """One arena's validation. ``tier``, ``budget`` and ``tolerance`` are Gravstrike's analysis
    settings (None for games without them); ``system`` is the arena's game; ``players``, when
    given, is the number of players for games whose arenas do not carry ``players`` (the grid
    games)."""

    arena: Any
    source: str | None
    tier: int | None
    budget: int | None
    validators: list[Validator]
    findings: list[Finding]
    metrics: dict[str, Any]
    timings: dict[str, float] = field(default_factory=dict)
    tolerance: float | None = None
    system: str = "gravstrike"
    players: int | None = None
    #: The tabletop-robustness section (:func:`validators.robustness.robustness`), when one was run.
    robustness: dict[str, Any] | None = None
    #: Peak resident memory of the analysis in MiB, per process ("main"; "helper": the forked
    #: helper of a two-core run, else None) - like ``timings``, not part of the document unless
    #: asked for (:meth:`to_json` ``resources``).
    memory: dict[str, float | None] = field(default_factory=dict)

    def player_count(self) -> int:
        """Players the scenario is for: ``players`` if the runner gave it, else the arena's."""
        return self.players if self.players is not None else int(self.arena.players)

    def worst(self) -> str | None:
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=lambda s: RANK[s])

    def fails(self, fail_on: str) -> bool:
        return any(at_least(f.severity, fail_on) for f in self.findings)

    def counts(self) -> dict[str, int]:
        return {s: sum(1 for f in self.findings if f.severity == s) for s in SEVERITIES}

    def to_json(self, resources: bool = False) -> dict[str, Any]:
        """The report document; deterministic (no timings) so packs can embed it. Gravstrike's
        reports are as they always were; other games' name their ``system``.  ``resources``
        (``arena validate --json``): add what the analysis cost that was measured -
        ``metrics.memory`` (peak resident memory per process) - which differs run to run."""
        doc: dict[str, Any] = {"format": REPORT_FORMAT}
        if self.system != "gravstrike":
            doc["system"] = self.system
        doc.update({
            "arena": {"name": self.arena.name, "file": self.source, "players": self.player_count()},
            "tier": self.tier,
            "budget": self.budget,
        })
        if self.tolerance is not None:
            doc["tolerance"] = self.tolerance
        doc.update({
            "validators": [{"code": v.id, "title": v.title, "severity": v.severity} for v in self.validators],
            "summary": self.counts(),
            "findings": [f.to_json() for f in self.findings],
            "metrics": {**self.metrics, "memory": {"peak_rss_mb": dict(self.memory)}}
            if resources and self.memory else self.metrics,
        })
        if self.robustness is not None:
            doc["robustness"] = self.robustness
        return doc


def run_chosen(arena: Any, chosen: list[Validator], context: Any, *, source: str | None, system: str,
               progress: Progress | None = None, players: int | None = None,
               first: Callable[[Validator], bool] | None = None) -> Report:
    """Evaluate ``chosen`` and assemble the report (no tier, budget or tolerance); ``players``
    for arenas without a ``players`` attribute.  The validators ``first`` picks are evaluated
    before the others (a game whose travel searches run in forked workers evaluates the checks
    that need no travel while they run); the report is assembled in ``chosen``'s order either way."""
    order = list(range(len(chosen)))
    if first is not None:
        order.sort(key=lambda i: not first(chosen[i]))
    results: dict[int, Any] = {}
    seconds: dict[int, float] = {}
    for n, i in enumerate(order):
        v = chosen[i]
        if progress:
            progress(v.id, n, len(chosen))
        t0 = time.perf_counter()
        results[i] = v.evaluate(arena, context)
        seconds[i] = time.perf_counter() - t0
    findings: list[Finding] = []
    metrics: dict[str, Any] = {}
    timings: dict[str, float] = {}
    for i, v in enumerate(chosen):
        timings[v.id] = seconds[i]
        findings.extend(results[i].findings)
        metrics.update(results[i].metrics)
    if progress:
        progress("done", len(chosen), len(chosen))
    findings.sort(key=lambda f: (-RANK[f.severity], f.code, f.elements, f.message))
    return Report(arena, source, None, None, chosen, findings, metrics, timings, None, system, players)
