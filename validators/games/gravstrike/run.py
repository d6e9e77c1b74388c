"""Gravstrike's runner: the registered Gravstrike validators sharing one travel context
(:class:`validators.games.gravstrike.context.AnalysisContext`), on one core or two (a forked
helper, :mod:`validators.parallel`)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from engine.budget import AnalysisStopped
from schema.games.gravstrike.model import Arena
from validators import memory
from validators.findings import RANK, Finding, Result, at_least
from validators.games.gravstrike.context import AnalysisContext
from validators.registry import Registry, Validator, default_registry
from validators.report import Progress, Report, Undecided, evaluate, limit_findings, stopped_by

SYSTEM = "gravstrike"


def validate(arena: Arena, *, source: str | None = None, enable: Iterable[str] = (), disable: Iterable[str] = (),
             tier: int | None = None, budget: int | None | str = "arena", registry: Registry | None = None,
             progress: Progress | None = None, context: AnalysisContext | None = None,
             tolerance: float | None = None, parallel: bool = False) -> Report:
    """Run the selected Gravstrike validators. ``budget="arena"`` uses the arena turbine's
    icons_per_turn; an ``int`` or ``None`` (unlimited) overrides it.  Without ``tier`` (and
    ``context``) every tier is judged (:mod:`validators.games.gravstrike.tiers`): the tiers with
    the same active exclusion fields as one analysis, the travel validators once per such class,
    the others once; the report's ``tier`` (its headline metrics) is the arena's analysis tier.
    ``tier`` (or a ``context``, which has one) judges that tier alone.  Codes listed in the
    arena's ``scenario.analysis.disabled`` are skipped unless enabled explicitly.  ``parallel``:
    use a second core (a forked helper) for the checkpoints' travel and the validators that need
    none; the report is the same.  Inside a judgement of several start sets
    (:mod:`validators.games.gravstrike.share`) the contexts share its planners and searches (and
    the helper runs the later sets' searches ahead); the report is the same."""
    from validators.games.gravstrike.share import current as current_share
    from validators.games.gravstrike.tiers import TIERS, class_of, merge, tier_classes
    from validators.options import ANALYSIS_TOLERANCE

    reg = registry or default_registry()
    enable = list(enable)
    disabled = set(disable) | (set(arena.scenario.analysis.disabled) - set(enable))
    chosen = reg.select(enable, [d for d in disabled if d in reg.codes()], game=SYSTEM)
    tol = ANALYSIS_TOLERANCE if tolerance is None else tolerance
    share = current_share() if context is None else None
    classes: list[tuple[int, ...]]
    if context is not None:
        classes = [(context.tier,)]
    elif tier is not None:
        classes = [(tier,)]
    elif not any(getattr(v, "needs_travel", True) for v in chosen):
        classes = [TIERS]  # no validator reads the tier: one analysis for all
    else:
        classes = tier_classes(arena)
    headline = class_of(arena.scenario.analysis.tier, classes) if tier is None and context is None else classes[0]
    peaks: dict[str, float | None] = {"main": None, "helper": None}
    timings: dict[str, float] = {}
    stopped: dict[str, str] = {}
    if len(classes) == 1:
        ctx = context or AnalysisContext(arena, tier=tier, budget=budget, tolerance=tol, share=share)
        results = _judge(arena, ctx, chosen, progress, (0, len(chosen)), timings, stopped, peaks, parallel, "")
        findings = [f for _, r in results for f in r.findings]
        metrics = {k: m for _, r in results for k, m in r.metrics.items()}
        findings.extend(_limit_findings(ctx, chosen, findings, stopped))
        tier_metrics: list[tuple[tuple[int, ...], dict[str, Any]]] = []
        contexts = [ctx]
    else:
        travel = [v for v in chosen if getattr(v, "needs_travel", True)]
        codes = {v.id for v in travel}
        total = len(chosen) + len(travel) * (len(classes) - 1)
        low: AnalysisContext | None = None
        judged: list[tuple[tuple[int, ...], list[Finding]]] = []
        tier_metrics = []
        contexts = []
        by_class: list[dict[str, Any]] = []
        once: list[Finding] = []
        done = 0
        for i, tiers in enumerate(classes):
            low = AnalysisContext(arena, tier=tiers[0], budget=budget, tolerance=tol, below=low, share=share)
            contexts.append(low)
            part = chosen if i == 0 else travel  # the validators that need no travel read no tier
            label = "" if i == 0 else f" [tier {tiers[0]}]"
            mine: dict[str, str] = {}
            results = _judge(arena, low, part, progress, (done, total), timings, mine, peaks, parallel and i == 0, label)
            done += len(part)
            found = [f for v, r in results if v in travel for f in r.findings]
            once += [f for v, r in results if v not in travel for f in r.findings]
            found.extend(_limit_findings(low, travel, found, {v: w for v, w in mine.items() if v in codes}))
            stopped.update({v: why for v, why in mine.items() if v not in codes})
            judged.append((tiers, found))
            by_class.append({v.id: r.metrics for v, r in results})
            tier_metrics.append((tiers, {k: m for v, r in results if v in travel for k, m in r.metrics.items()}))
        findings = merge(judged)
        findings.extend(once + limit_findings([], stopped))  # the validators that need no travel a cap stopped
        head = classes.index(headline)
        metrics = {k: m for v in chosen for k, m in by_class[head if v in travel else 0].get(v.id, {}).items()}
        ctx = contexts[head]
    if progress:
        progress("done", len(chosen), len(chosen))
    findings.sort(key=lambda f: (-RANK[f.severity], f.code, f.elements, f.message, f.tier or 0))
    peaks["main"] = memory.peak_mb()
    report = Report(arena, source, ctx.tier if len(classes) == 1 else headline[0], ctx.budget, chosen, findings,
                    metrics, timings, ctx.tolerance, SYSTEM)
    report.tiers = classes if tier is None and context is None else [classes[0]]
    report.tier_metrics = tier_metrics
    report.work = {"travel searches": sum(c.searches for c in contexts),
                   "travel reused": sum(c.reused for c in contexts)}
    if any(c.shared for c in contexts):  # answered by another start set's search (share)
        report.work["travel shared"] = sum(c.shared for c in contexts)
    report.memory = peaks
    report.stopped = stopped_by()
    return report


def _judge(arena: Arena, ctx: AnalysisContext, chosen: list[Validator], progress: Progress | None,
           count: tuple[int, int], timings: dict[str, float], stopped: dict[str, str],
           peaks: dict[str, float | None], parallel: bool, label: str
           ) -> list[tuple[Validator, Result]]:
    """Evaluate ``chosen`` on ``ctx``'s tier: each one's result, in order (``stopped`` gets the
    codes a cap stopped).  ``count``: validators done before, in all; ``label`` marks the
    timings of a tier after the first."""
    out: list[tuple[Validator, Result]] = []
    done = _in_parallel(arena, ctx, chosen, timings, peaks) if parallel else {}
    for i, v in enumerate(chosen):
        if progress:
            progress(v.id, count[0] + i, count[1])
        if v.id in done:
            result, reason, timings[v.id + label] = done[v.id]
        else:
            result, reason, timings[v.id + label] = evaluate(v, arena, ctx)
        if result is None:
            stopped[v.id] = reason or "time limit"
            continue
        out.append((v, result))
    return out


def _limit_findings(ctx: AnalysisContext, chosen: list[Validator], findings: list[Finding],
                    stopped: dict[str, str] | None = None) -> list[Finding]:
    """The ``analysis-limit`` findings (:func:`validators.report.limit_findings`): one for the
    travel questions a search limit left undecided that no validator reported as a warning (a
    verdict built on them is not a pass), one for the validators a cap stopped."""
    told = {f.elements for f in findings if "undecided" in f.metrics and at_least(f.severity, "warning")}
    left = [Undecided(src, ref, r.undecided or "search limit") for src, ref, r in ctx.undecided()
            if (src, ref.split(":", 1)[1]) not in told]
    stopped = stopped or {}
    return limit_findings(left, {v.id: stopped[v.id] for v in chosen if v.id in stopped})


def _lattice_base(arena: Arena, source: str) -> float:
    """The heading lattice a search from start ``source`` reads: its facing modulo 30 degrees
    (:meth:`engine.gravstrike.planner.Planner._lattice`)."""
    return round(arena.start(int(source.partition(":")[2])).facing % 30.0, 6) % 30.0


def _queue_plan(arena: Arena, searched: list[str], side: list[Validator], sources: list[str],
                ahead: Ahead | None = None) -> tuple[list[list[tuple[str, Any]]], list[int], list[int]]:
    """The tasks of :func:`_in_parallel` in queues, and the queues this process and the helper
    take from in turn (indices): each start's search in the queue of its heading lattice (the
    configuration-space stack of its facing modulo 30 degrees, built once in each process that
    searches on it: 20-25 MB and 0.08 s on a 48-length table) - this process takes them from the
    first lattice's queue on, the helper from the last's, so that each builds one lattice unless
    one's searches outlast the other's -, then the validators; the checkpoints' searches (every
    k x 30 degrees: the lattice of 0) come before the validators for a process that began on
    that lattice, after them for the other.  ``ahead``: the later start sets' searches
    (:func:`_ahead`), after this set's in the same queues - a start's in its lattice's, the
    checkpoints' with this set's checkpoints."""
    lanes: dict[float, list[tuple[str, Any]]] = {}
    for s in searched:
        lanes.setdefault(_lattice_base(arena, s), []).append(("start", s))
    starts, checkpoints = ahead or ([], [])
    for u, s in starts:
        lanes.setdefault(_lattice_base(u.arena, s), []).append(("ahead", (u, [s])))
    rest: list[tuple[str, Any]] = [("validator", v) for v in side]
    tail: list[tuple[str, Any]] = []
    late: list[tuple[str, Any]] = [("checkpoints", sources)] if sources else []
    late += [("ahead", (u, cps)) for u, cps in checkpoints]
    (tail if 0.0 in lanes else rest).extend(late)
    bases = list(lanes)
    common, last = len(bases), len(bases) + 1

    def turns(prefer: list[int]) -> list[int]:
        first = [last] if prefer and bases[prefer[0]] == 0.0 else []
        return prefer + first + [common] + ([] if first else [last])

    return [*lanes.values(), rest, tail], turns(list(range(len(bases)))), turns(list(range(len(bases)))[::-1])


#: The later start sets' searches a helper may run ahead (:func:`_ahead`): (context, start) per
#: start search, (context, checkpoints) per set with checkpoint searches of its own.
Ahead = tuple[list[tuple[AnalysisContext, str]], list[tuple[AnalysisContext, list[str]]]]


def _ahead(arena: Arena, ctx: AnalysisContext, searched: list[str], sources: list[str]) -> Ahead:
    """The searches the start sets judged after this one will make on the planners they share
    with it (:mod:`validators.games.gravstrike.share`) - each once, none this set searches
    (``searched``, the checkpoint ``sources``) or the share holds: the starts each set searches
    (not images), then the checkpoints each searches (in the order :func:`_in_parallel` asks for
    them).  Each in a context of its own at this one's tier, budget and tolerance, as its set's
    first tier class will ask."""
    share = ctx.share
    if share is None:
        return [], []
    planned = {ctx.share_key(s) for s in [*searched, *ctx.searched_sources(sources)]}
    starts: list[tuple[AnalysisContext, str]] = []
    checkpoints: list[tuple[AnalysisContext, list[str]]] = []
    for other in share.after(arena):
        u = AnalysisContext(other, tier=ctx.tier, budget=ctx.budget, tolerance=ctx.tolerance,
                            max_turns=ctx.max_turns, limits=ctx.limits, share=share)
        cps = [s for s in sources if s in {f"checkpoint:{c.id}" for c in other.checkpoints}]
        for kind, wanted in (("start", u.searched_starts()), ("checkpoint", u.searched_sources(cps))):
            new = []
            for s in wanted:
                key = u.share_key(s)
                if key is not None and key not in planned and not share.has(key):
                    planned.add(key)
                    new.append(s)
            if kind == "start":
                starts += [(u, s) for s in new]
            elif new:
                checkpoints.append((u, new))
    return starts, checkpoints


def _in_parallel(arena: Arena, ctx: AnalysisContext, chosen: list[Validator], timings: dict[str, float],
                 peaks: dict[str, float | None]) -> dict[str, tuple[Any, str | None, float]]:
    """Share the analysis with a forked helper (:mod:`validators.parallel`): the starts that need
    a search of their own, the validators that need no travel and the checkpoints' travel are
    tasks both processes take from queues (:func:`_queue_plan`), each task once, the dearest
    first (the starts' searches, the validators, the checkpoints' short searches together, so that
    a checkpoint's symmetric image comes from the same search as in one process); the travel
    lands in ``ctx`` here.  Inside a judgement of several start sets, the later sets' searches
    are tasks too (:func:`_ahead`): what either process finds lands in the share, where those
    sets' validations find it; a set whose searches are all there forks no helper.
    Returns the validator results both computed, as :func:`validators.report.evaluate` gives
    them (``timings`` gets each process's travel time, ``peaks["helper"]`` the helper's peak
    resident memory).  When the helper can't run or fails, what is left runs in the caller's
    sequential loop; so does what the analysis's caps stopped (it stops there at once)."""
    from validators.games.gravstrike.context import travel_sources
    from validators.parallel import TaskQueue, fork_helper

    side = [v for v in chosen if not getattr(v, "needs_travel", True)]
    travel = len(side) < len(chosen)
    share = ctx.share
    sources = [s for s in travel_sources(arena) if s.startswith("checkpoint:")] if travel else []
    try:
        searched = ctx.searched_starts() if travel else []
        if travel:
            ctx.symmetries  # noqa: B018 - computed once, before the fork, for both
        ahead = _ahead(arena, ctx, searched, sources) if travel else ([], [])
        if share is not None and travel and not any(ahead) and all(share.has(ctx.share_key(s)) for s in searched):
            return {}  # every search this set makes is shared already: nothing worth a helper
    except AnalysisStopped:
        return {}
    plan, my_turns, helper_turns = _queue_plan(arena, searched, side, sources, ahead)
    queues = [(TaskQueue(len(tasks)), tasks) for tasks in plan]
    starting = [*searched, *(s for _, s in ahead[0])]

    def work(turns: list[tuple[TaskQueue, list[tuple[str, Any]]]]
             ) -> tuple[dict[str, tuple[Any, str | None, float]], dict[str, Any], float]:
        """Take tasks until none is left, from the queues ``turns`` in turn: (validator results,
        travel found, seconds of travel)."""
        results: dict[str, tuple[Any, str | None, float]] = {}
        found: dict[str, Any] = {}
        seconds = 0.0
        try:
            ctx.expect(starting[: (len(starting) + 1) // 2])  # about half the starts' searches
        except AnalysisStopped:
            pass  # the tasks below stop at once too
        for queue, tasks in turns:
            while (i := queue.take()) is not None:
                kind, what = tasks[i]
                if kind == "validator":
                    results[what.id] = evaluate(what, arena, ctx)
                    continue
                t0 = time.perf_counter()
                try:
                    if kind == "ahead":  # a later start set's: its answers land in the share
                        other, names = what
                        for s in names:
                            other.search(s)
                    else:
                        for s in ([what] if kind == "start" else what):
                            found[s] = ctx.search(s) if kind == "start" else ctx.travel_from(s)
                except AnalysisStopped:
                    pass  # left to the travel validators, which the cap stops
                seconds += time.perf_counter() - t0
        return results, found, seconds

    mark = share.mark() if share is not None else 0
    searched_before = share.searched if share is not None else 0

    def helper_work() -> tuple[dict[str, tuple[Any, str | None, float]], dict[str, Any], tuple[int, int], float,
                               float | None, Any, int]:
        memory.start()  # the helper's peak since the fork (the pages it shares with this process count)
        results, found, seconds = work([queues[i] for i in helper_turns])
        kept, counted = (share.since(mark), share.searched - searched_before) if share is not None else ([], 0)
        return results, found, (ctx.searches, ctx.shared), seconds, memory.peak_mb(), kept, counted

    helper = fork_helper(helper_work)
    if helper is None:
        for queue, _ in queues:
            queue.close()
        return {}
    mine, here, timings["(travel, this process)"] = work([queues[i] for i in my_turns])
    for queue, _ in queues:
        queue.close()
    try:
        theirs, found, searches, seconds, peaks["helper"], kept, counted = helper.result()
    except RuntimeError:
        return mine  # the sequential loop does what the helper took
    if share is not None:
        share.merge(kept, counted)
    # the searched starts in player order, as one process would have kept them, then the
    # checkpoints' travel, then the starts' images (an image comes from the first source of its
    # orbit either way: the same report)
    found.update(here)
    ctx.adopt(found, searched)
    try:
        for s in ctx.starts():
            ctx.travel_from(s)
    except AnalysisStopped:
        pass  # the travel validators stop at the cap
    ctx.searches += searches[0]
    ctx.shared += searches[1]
    timings["(travel, helper)"] = seconds
    return {**mine, **theirs}
