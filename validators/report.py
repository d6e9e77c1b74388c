"""The validation report of any game (schema/report.schema.json) and the plain runner that
evaluates validators in order: game-neutral, so every game's validators may use it.

Nothing undecided reads as a pass (issue 36, point 6): a validator the analysis's caps stopped
(:mod:`engine.budget`) or never let start, and a travel question a search left open (a search
limit, the analysis's caps, a horizon), become ``analysis-limit`` warnings - one code for every
game (:func:`limit_findings`) - and the report's summary says the verdict is incomplete."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import budget as caps
from validators.findings import RANK, SEVERITIES, Finding, Result, at_least
from validators.registry import Validator

REPORT_FORMAT = "arena-studio-report/1"
Progress = Callable[[str, int, int], None]
#: The code of every finding about what the analysis could not decide, in every game.
LIMIT_CODE = "analysis-limit"


@dataclass(frozen=True)
class Undecided:
    """A travel question an analysis left open: from ``source`` to ``goal`` (``policy``, when the
    game has several), and why - the limit that stopped the search (``states``, the analysis's
    time limit, the horizon of N turns...)."""

    source: str
    goal: str
    reason: str
    policy: str | None = None

    def words(self) -> str:
        return f"{self.source} to {self.goal}" + (f" ({self.policy})" if self.policy else "")

    def to_json(self) -> dict[str, Any]:
        out = {"from": self.source, "to": self.goal, "reason": self.reason}
        if self.policy:
            out["policy"] = self.policy
        return out


def limit_findings(questions: list[Undecided], stopped: dict[str, str] | None = None) -> list[Finding]:
    """The ``analysis-limit`` warnings for ``questions`` left open (one per limit that left
    them: it names every pair) and for validators ``stopped`` (code -> the cap that stopped it
    or was reached before it began; one per cap)."""
    out: list[Finding] = []
    by_reason: dict[str, list[Undecided]] = {}
    for q in questions:
        by_reason.setdefault(q.reason, []).append(q)
    for reason, qs in by_reason.items():
        names = ", ".join(q.words() for q in qs[:6]) + (" ..." if len(qs) > 6 else "")
        out.append(Finding(LIMIT_CODE, "warning", f"{len(qs)} travel question(s) stayed undecided ({names}): the "
                           f"search stopped at its {reason}; verdicts that depend on them are incomplete - raise "
                           "the analysis limits or simplify the arena", tuple(dict.fromkeys(q.source for q in qs)),
                           {"undecided": [q.to_json() for q in qs]}))
    by_cap: dict[str, list[str]] = {}
    for code, reason in (stopped or {}).items():
        by_cap.setdefault(reason, []).append(code)
    for reason, codes in by_cap.items():
        out.append(Finding(LIMIT_CODE, "warning", f"the analysis stopped at its {reason}: {len(codes)} validator(s) "
                           f"not decided ({', '.join(codes)}); their verdicts are missing - raise the cap "
                           "(arena validate --time-limit/--memory-limit) or simplify the arena", (),
                           {"not_decided": list(codes), "limit": reason}))
    return out


def evaluate(v: Validator, arena: Any, context: Any) -> tuple[Result | None, str | None, float]:
    """``v.evaluate(arena, context)`` under the analysis's caps: (its result, None, seconds), or
    (None, the cap, seconds) when a cap stopped it, or was reached before it began (then it is
    not started)."""
    reached = caps.reached()
    if reached is not None:
        return None, reached, 0.0
    t0 = time.perf_counter()
    try:
        result = v.evaluate(arena, context)
    except caps.AnalysisStopped as exc:
        return None, exc.reason, time.perf_counter() - t0
    return result, None, time.perf_counter() - t0


def is_undecided(f: Finding) -> bool:
    """A finding that says something was not decided: an ``analysis-limit`` one, or a
    validator's (at least a warning) carrying ``undecided`` numbers."""
    return f.code == LIMIT_CODE or (at_least(f.severity, "warning") and "undecided" in f.metrics)


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
    system: str = ""
    players: int | None = None
    #: The tabletop-robustness section (:func:`validators.robustness.robustness`), when one was run.
    robustness: dict[str, Any] | None = None
    #: The simulated-play section (:func:`validators.simulate.attach`: ``simulate()``'s document),
    #: when one was run.
    simulation: dict[str, Any] | None = None
    #: Peak resident memory of the analysis in MiB, per process ("main"; "helper": the forked
    #: helper of a two-core run, else None) - like ``timings``, not part of the document unless
    #: asked for (:meth:`to_json` ``resources``).
    memory: dict[str, float | None] = field(default_factory=dict)
    #: The analysis cap reached, if one was (``summary.stopped``).
    stopped: str | None = None
    #: Each player count judged (:mod:`validators.players`), when the arena declares start sets
    #: or one count was asked for: ``player_counts`` of the document.
    player_counts: list[dict[str, Any]] | None = None
    #: The VP tiers judged, in classes judged alike (Gravstrike: tiers with the same active
    #: exclusion fields, :mod:`validators.games.gravstrike.tiers`); empty for games without tiers.
    tiers: list[tuple[int, ...]] = field(default_factory=list)
    #: Per class of ``tiers`` when there are several: the metrics of the validators that read the
    #: tier (the report's ``tiers``; the top-level ``metrics`` hold the headline ``tier``'s).
    tier_metrics: list[tuple[tuple[int, ...], dict[str, Any]]] = field(default_factory=list)
    #: What the analysis did in work units (travel searches, travel reused...): not in the document.
    work: dict[str, int] = field(default_factory=dict)

    @property
    def incomplete(self) -> bool:
        """Whether some verdict could not be decided (``summary.incomplete``)."""
        return self.stopped is not None or any(is_undecided(f) for f in self.findings)

    def summary(self) -> dict[str, Any]:
        """The report's ``summary``: findings per severity; ``incomplete`` (and the cap that
        ``stopped`` the analysis) only when something was not decided."""
        out: dict[str, Any] = dict(self.counts())
        if self.incomplete:
            out["incomplete"] = True
        if self.stopped is not None:
            out["stopped"] = self.stopped
        return out

    @property
    def scenario(self) -> dict[str, Any] | None:
        """The settings of the game's book the arena was judged under, as the game states them
        (:meth:`validators.game.GameAnalysis.report_scenario`: the report's ``scenario``; None
        when the game states none)."""
        return _scenario_of(self.system, self.arena)

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
        reports are as they always were; other games' name their ``system``
        (:attr:`validators.game.GameAnalysis.report_names_system`).  ``resources``
        (``arena validate --json``): add what the analysis cost that was measured -
        ``metrics.memory`` (peak resident memory per process) - which differs run to run."""
        doc: dict[str, Any] = {"format": REPORT_FORMAT}
        if self.system and _names_system(self.system):
            doc["system"] = self.system
        doc.update({
            "arena": {"name": self.arena.name, "file": self.source, "players": self.player_count()},
            "tier": self.tier,
            "budget": self.budget,
        })
        if self.tolerance is not None:
            doc["tolerance"] = self.tolerance
        scenario = self.scenario
        if scenario is not None:
            doc["scenario"] = scenario
        doc.update({
            "validators": [{"code": v.id, "title": v.title, "severity": v.severity} for v in self.validators],
            "summary": self.summary(),
            "findings": [f.to_json() for f in self.findings],
            "metrics": {**self.metrics, "memory": {"peak_rss_mb": dict(self.memory)}}
            if resources and self.memory else self.metrics,
        })
        if self.player_counts is not None:
            doc["player_counts"] = self.player_counts
        if len(self.tier_metrics) > 1:
            doc["tiers"] = [{"tiers": list(tiers), "summary": self.tier_counts(tiers), "metrics": metrics}
                            for tiers, metrics in self.tier_metrics]
        if self.robustness is not None:
            doc["robustness"] = self.robustness
        if self.simulation is not None:
            doc["simulation"] = self.simulation
        return doc

    def tier_counts(self, tiers: tuple[int, ...]) -> dict[str, int]:
        """Findings per severity that hold in the class ``tiers``: those naming no tier or one of them."""
        held = [f for f in self.findings if f.tier is None or f.tier in tiers]
        return {s: sum(1 for f in held if f.severity == s) for s in SEVERITIES}


def _names_system(system: str) -> bool:
    from validators.game import analysis

    return analysis(system).report_names_system


def _scenario_of(system: str, arena: Any) -> dict[str, Any] | None:
    """The game's ``scenario`` part of the report (:meth:`validators.game.GameAnalysis.report_scenario`)."""
    if not system:
        return None
    from validators.game import analysis

    return analysis(system).report_scenario(arena)


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
    stopped: dict[str, str] = {}
    for n, i in enumerate(order):
        v = chosen[i]
        if progress:
            progress(v.id, n, len(chosen))
        results[i], reason, seconds[i] = evaluate(v, arena, context)
        if reason is not None:
            stopped[v.id] = reason
    findings: list[Finding] = []
    metrics: dict[str, Any] = {}
    timings: dict[str, float] = {}
    for i, v in enumerate(chosen):
        timings[v.id] = seconds[i]
        if results[i] is not None:
            findings.extend(results[i].findings)
            metrics.update(results[i].metrics)
    if progress:
        progress("done", len(chosen), len(chosen))
    open_questions = getattr(context, "open_questions", None)
    findings.extend(limit_findings(open_questions() if open_questions is not None else [],
                                   {v.id: stopped[v.id] for v in chosen if v.id in stopped}))
    findings.sort(key=lambda f: (-RANK[f.severity], f.code, f.elements, f.message))
    report = Report(arena, source, None, None, chosen, findings, metrics, timings, None, system, players)
    report.stopped = stopped_by()
    return report


def stopped_by() -> str | None:
    """The cap the current analysis reached, if it did (as last checked: not a new check)."""
    b = caps.current()
    return None if b is None else b.reason or b.search_reason
