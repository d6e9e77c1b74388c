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
    """Run the validators that need no travel and the checkpoints' travel in a forked helper
    while this process searches from the starts; returns the helper's validator results (and
    puts its travel into ``ctx``; ``timings`` gets the two travel phases, ``peaks["helper"]``
    the helper's peak resident memory).  Empty when the helper can't run (then all runs here)."""
    from validators.parallel import fork_helper

    side = [v for v in chosen if not getattr(v, "needs_travel", True)]
    travel = len(side) < len(chosen)
    from validators.context import travel_sources

    sources = [s for s in travel_sources(arena) if s.startswith("checkpoint:")] if travel else []
    if travel:
        ctx.symmetries  # noqa: B018 - computed once, before the fork, for both halves
    mine, theirs = split_starts(ctx) if travel else ([], [])

    def helper_work() -> tuple[dict[str, tuple[Any, float]], dict[str, Any], int, float, float | None]:
        memory.start()  # the helper's peak since the fork (the pages it shares with this process count)
        out = {}
        for v in side:
            t0 = time.perf_counter()
            out[v.id] = (v.evaluate(arena, ctx), time.perf_counter() - t0)
        t0 = time.perf_counter()
        found = {s: ctx.search(s) for s in theirs}
        found.update({s: ctx.travel_from(s) for s in sources})
        return out, found, ctx.searches, time.perf_counter() - t0, memory.peak_mb()

    helper = fork_helper(helper_work)
    if helper is None:
        return {}
    t0 = time.perf_counter()
    for s in mine:
        ctx.search(s)
    timings["(travel from starts)"] = time.perf_counter() - t0
    try:
        results, found, searches, seconds, peaks["helper"] = helper.result()
    except RuntimeError:
        return {}  # the sequential loop does the helper's share
    # the searched starts in player order, as one process would have kept them, then their images
    # (an image comes from the first source of its orbit either way: the same report)
    ctx._from = {s: ctx._from[s] if s in ctx._from else found[s] for s in ctx.starts() if s in mine or s in theirs}
    ctx.provide({s: r for s, r in found.items() if s not in theirs})
    for s in ctx.starts():
        ctx.travel_from(s)
    ctx.searches += searches
    timings["(travel from checkpoints and shared starts, helper)"] = seconds
    return results  # type: ignore[no-any-return]


#: What the helper's other work (the validators that need no travel, the checkpoints' short
#: searches) costs, in start searches: about one on the generated tables of bench/scale.py.
HELPER_WORK = 1.0


def split_starts(ctx: AnalysisContext) -> tuple[list[str], list[str]]:
    """The starts that need a search of their own (not symmetric images of an earlier one), shared
    by cost between this process and the helper: each to the less loaded, ties here, counting
    every search alike and the helper's other work as :data:`HELPER_WORK` searches."""
    searched: list[str] = []
    starts = ctx.starts()
    for i, s in enumerate(starts):  # as AnalysisContext.travel_from: an image of any earlier one
        if not any(inv.ids.get(d) == s for d in starts[:i] for inv in ctx.symmetries):
            searched.append(s)
    mine: list[str] = []
    theirs: list[str] = []
    for s in searched:
        (mine if len(mine) <= len(theirs) + HELPER_WORK else theirs).append(s)
    return mine, theirs
