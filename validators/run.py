"""Run validators on an arena and assemble the report document (schema/report.schema.json)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from schema.model import Arena
from schema.ruleset import import_path, ruleset
from validators import memory
from validators.findings import RANK, Finding
from validators.registry import Registry, Validator, default_registry
from validators.report import REPORT_FORMAT, Progress, Report, run_chosen

if TYPE_CHECKING:  # Gravstrike's analysis context imports its planner (scipy): only for Gravstrike arenas
    from validators.context import AnalysisContext

__all__ = ["REPORT_FORMAT", "Progress", "Report", "run_chosen", "validate", "validate_game"]


def validate(
    arena: Any,
    *,
    source: str | None = None,
    enable: Iterable[str] = (),
    disable: Iterable[str] = (),
    tier: int | None = None,
    budget: int | None | str = "arena",
    registry: Registry | None = None,
    progress: Progress | None = None,
    context: AnalysisContext | None = None,
    tolerance: float | None = None,
    parallel: bool = False,
) -> Report:
    """Run the selected validators. ``budget="arena"`` uses the arena turbine's icons_per_turn;
    an ``int`` or ``None`` (unlimited) overrides it. ``tier`` defaults to the arena's analysis tier.
    Codes listed in the arena's ``scenario.analysis.disabled`` are skipped unless enabled explicitly.
    ``parallel``: use a second core (a forked helper, :mod:`validators.parallel`) for the
    checkpoints' travel and the validators that need none - only from a process that may fork
    (the CLI on one arena; not from threads or worker pools); the report is the same."""
    system = str(getattr(arena, "system", "gravstrike"))
    memory.start()
    if system != "gravstrike":  # another game: its ruleset's runner, with the validators for it
        runner = import_path(ruleset(system).checks) if ruleset(system).checks else validate_game
        report: Report = runner(arena, source=source, enable=enable, disable=disable, registry=registry,
                                progress=progress, parallel=parallel)
        report.memory = report.memory or {"main": memory.peak_mb(), "helper": None}
        return report
    reg = registry or default_registry()
    enable = list(enable)
    disabled = set(disable) | (set(arena.scenario.analysis.disabled) - set(enable))
    chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game="gravstrike")
    from validators.context import ANALYSIS_TOLERANCE, AnalysisContext

    ctx = context or AnalysisContext(arena, tier=tier, budget=budget,
                                     tolerance=ANALYSIS_TOLERANCE if tolerance is None else tolerance)
    findings: list[Finding] = []
    metrics: dict[str, Any] = {}
    timings: dict[str, float] = {}
    peaks: dict[str, float | None] = {"main": None, "helper": None}
    done = _in_parallel(arena, ctx, chosen, timings, peaks) if parallel else {}
    for i, v in enumerate(chosen):
        if progress:
            progress(v.id, i, len(chosen))
        if v.id in done:
            result, timings[v.id] = done[v.id]
        else:
            t0 = time.perf_counter()
            result = v.evaluate(arena, ctx)
            timings[v.id] = time.perf_counter() - t0
        findings.extend(result.findings)
        metrics.update(result.metrics)
    if progress:
        progress("done", len(chosen), len(chosen))
    findings.extend(_limit_findings(ctx, chosen, findings))
    findings.sort(key=lambda f: (-RANK[f.severity], f.code, f.elements, f.message))
    peaks["main"] = memory.peak_mb()
    report = Report(arena, source, ctx.tier, ctx.budget, chosen, findings, metrics, timings, ctx.tolerance)
    report.memory = peaks
    return report


def validate_game(arena: Any, *, source: str | None = None, enable: Iterable[str] = (), disable: Iterable[str] = (),
                  registry: Registry | None = None, progress: Progress | None = None, context: Any = None,
                  parallel: bool = False) -> Report:
    """The runner of a game whose ruleset names none: every registered validator for the game,
    in code order, with ``context`` (None unless given) passed to each."""
    reg = registry or default_registry()
    system = str(arena.system)
    enable = list(enable)
    scenario = getattr(arena, "scenario", None)
    analysis = getattr(scenario, "analysis", None)
    disabled = set(disable) | (set(getattr(analysis, "disabled", ())) - set(enable))
    chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game=system)
    return run_chosen(arena, chosen, context, source=source, progress=progress, system=system)


def _limit_findings(ctx: AnalysisContext, chosen: list[Validator], findings: list[Finding]) -> list[Finding]:
    """One ``analysis-limit`` finding for travel queries a search limit left undecided that no
    validator reported (a verdict built on them is not a pass)."""
    told = {f.elements for f in findings if "undecided" in f.metrics}
    left = [(src, ref, r) for src, ref, r in ctx.undecided() if (src, ref.split(":", 1)[1]) not in told]
    if not left:
        return []
    names = ", ".join(f"{src} to {ref}" for src, ref, _ in left[:6]) + (" ..." if len(left) > 6 else "")
    return [Finding("analysis-limit", "warning", f"{len(left)} travel question(s) stayed undecided ({names}): the "
                    f"search stopped at its {left[0][2].undecided}; verdicts that depend on them are incomplete - "
                    "raise the analysis limits or simplify the arena", tuple(dict.fromkeys(s for s, _, _ in left)),
                    {"undecided": [{"from": s, "to": ref, "reason": r.undecided} for s, ref, r in left]})]


def _in_parallel(arena: Arena, ctx: AnalysisContext, chosen: list[Validator], timings: dict[str, float],
                 peaks: dict[str, float | None]) -> dict[str, tuple[Any, float]]:
    """Share the analysis with a forked helper (:mod:`validators.parallel`): the starts that need
    a search of their own, the validators that need no travel and the checkpoints' travel are
    tasks both processes take from one queue, the dearest first (the starts' searches, then the
    validators, then the checkpoints' short searches together, so that a checkpoint's symmetric
    image comes from the same search as in one process); the travel lands in ``ctx`` here.
    Returns the validator results both computed (``timings`` gets each process's travel time,
    ``peaks["helper"]`` the helper's peak resident memory).  When the helper can't run or fails,
    what is left runs in the caller's sequential loop."""
    from validators.context import travel_sources
    from validators.parallel import TaskQueue, fork_helper

    side = [v for v in chosen if not getattr(v, "needs_travel", True)]
    travel = len(side) < len(chosen)
    searched = ctx.searched_starts() if travel else []
    sources = [s for s in travel_sources(arena) if s.startswith("checkpoint:")] if travel else []
    if travel:
        ctx.symmetries  # noqa: B018 - computed once, before the fork, for both
    tasks: list[tuple[str, Any]] = [("start", s) for s in searched] + [("validator", v) for v in side]
    if sources:
        tasks.append(("checkpoints", sources))
    queue = TaskQueue(len(tasks))

    def work() -> tuple[dict[str, tuple[Any, float]], dict[str, Any], float]:
        """Take tasks until none is left: (validator results, travel found, seconds of travel)."""
        ctx.expect(searched[: (len(searched) + 1) // 2])  # about half the starts' searches
        results: dict[str, tuple[Any, float]] = {}
        found: dict[str, Any] = {}
        seconds = 0.0
        while (i := queue.take()) is not None:
            kind, what = tasks[i]
            t0 = time.perf_counter()
            if kind == "validator":
                results[what.id] = (what.evaluate(arena, ctx), time.perf_counter() - t0)
                continue
            for s in ([what] if kind == "start" else what):
                found[s] = ctx.search(s) if kind == "start" else ctx.travel_from(s)
            seconds += time.perf_counter() - t0
        return results, found, seconds

    def helper_work() -> tuple[dict[str, tuple[Any, float]], dict[str, Any], int, float, float | None]:
        memory.start()  # the helper's peak since the fork (the pages it shares with this process count)
        results, found, seconds = work()
        return results, found, ctx.searches, seconds, memory.peak_mb()

    helper = fork_helper(helper_work)
    if helper is None:
        queue.close()
        return {}
    mine, here, timings["(travel, this process)"] = work()
    queue.close()
    try:
        theirs, found, searches, seconds, peaks["helper"] = helper.result()
    except RuntimeError:
        return mine  # the sequential loop does what the helper took
    # the searched starts in player order, as one process would have kept them, then the
    # checkpoints' travel, then the starts' images (an image comes from the first source of its
    # orbit either way: the same report)
    found.update(here)
    ctx._from = {s: found[s] for s in searched}
    ctx.provide({s: r for s, r in found.items() if s not in searched})
    for s in ctx.starts():
        ctx.travel_from(s)
    ctx.searches += searches
    timings["(travel, helper)"] = seconds
    return {**mine, **theirs}
