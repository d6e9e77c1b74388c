"""Generated arenas (issue 19 part 3): search for an arena that passes every validator, for any
game whose analysis has a generator hook (:meth:`validators.game.GameAnalysis.generator_hook`:
Gravstrike's is :data:`validators.games.gravstrike.generate.HOOK`).

The search runs in rounds of :data:`BATCH` candidates.  Candidate ``k`` of round ``r`` is drawn
from ``numpy.random.default_rng([seed, r, k])`` - afresh, or as a variation of a parent the
previous rounds chose - and scored where it runs (this process, a local worker or a Dask worker):
the hook's cheap geometric checks first, then the validators that need no travel, and only a
candidate that passes both gets the travel validators.  Parents are chosen from the scores of
whole rounds, in candidate order, so the arenas drawn depend only on the seed, never on which
worker scored what or how many there are.  The search stops after the first round in which a
candidate passes (the best-scoring pass of the search wins) - the same arena for a seed on one
core, two or a cluster - or when the time budget runs out (the best so far, said so; how far it
got then depends on the machine).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from validators.fanout import Session
from validators.findings import RANK
from validators.game import analysis
from validators.generate_hooks import Hook
from validators.options import GENERATE_BUDGET, GENERATE_WORKERS
from validators.run import validate

#: Candidates a round scores (fixed: the arenas drawn must not depend on the worker count).
BATCH = 8
#: Best candidates kept as parents.
ELITE = 4
#: Share of a later round's candidates drawn afresh rather than varied from a parent.
FRESH = 0.25
#: Default time budget (seconds) and local worker processes.
DEFAULT_BUDGET = GENERATE_BUDGET
DEFAULT_WORKERS = GENERATE_WORKERS


def hook_of(system: str) -> Hook:
    """The game's generator hook (:meth:`validators.game.GameAnalysis.generator_hook`);
    ``LookupError`` naming the game when it has none."""
    return analysis(system).generator_hook()


@dataclass(frozen=True)
class Scored:
    """One candidate's verdict: how far it got (``precheck``, ``setup``: the validators without
    travel, ``full``), the findings at or above the pass level as (severity, code, message), the
    hook's quality of a full pass (higher is better) and the seconds it took."""

    round: int
    index: int
    stage: str
    failing: tuple[tuple[str, str, str], ...]
    quality: float
    seconds: float

    @property
    def passed(self) -> bool:
        return self.stage == "full" and not self.failing

    def key(self) -> tuple[float, ...]:
        """Lower is better: a full pass, then fewer errors and warnings, further along, better quality."""
        stage = {"full": 0, "setup": 1, "precheck": 2}[self.stage]
        errors = sum(1 for s, _, _ in self.failing if s == "error")
        return (errors * 10 + len(self.failing) + stage * 100, -self.quality, self.round, self.index)


def score(system: str, plan: Any, seed: int, rnd: int, index: int, parent: Any, fail_on: str) -> tuple[Any, Scored]:
    """Draw candidate ``index`` of round ``rnd`` (from ``parent``, or afresh if None) and score
    it; returns (its genome, its verdict).  Runs on whichever worker."""
    t0 = time.perf_counter()
    hook = hook_of(system)
    rng = np.random.default_rng([seed, rnd, index])
    genome = hook.fresh(plan, rng) if parent is None else hook.vary(plan, parent, rng)
    arena = hook.build(plan, genome, seed)
    problems = hook.precheck(arena)
    if problems:
        failing = tuple(("warning", "precheck", p) for p in problems)
        return genome, Scored(rnd, index, "precheck", failing, 0.0, time.perf_counter() - t0)
    level = RANK[fail_on]
    from validators.registry import default_registry

    chosen = default_registry().select([], [], game=system)
    setup = [v.id for v in chosen if not getattr(v, "needs_travel", True)]
    report = validate(arena, enable=setup)
    failing = tuple((f.severity, f.code, f.message) for f in report.findings if RANK[f.severity] >= level)
    if failing:
        return genome, Scored(rnd, index, "setup", failing, 0.0, time.perf_counter() - t0)
    report = validate(arena)
    failing = tuple((f.severity, f.code, f.message) for f in report.findings if RANK[f.severity] >= level)
    return genome, Scored(rnd, index, "full", failing, hook.quality(report.metrics), time.perf_counter() - t0)


@dataclass
class Progress:
    """What the search reports after each candidate."""

    round: int
    evaluated: int
    elapsed: float
    budget: float
    best: Scored | None


@dataclass
class Outcome:
    """The best arena found, its verdict, whether it passes, and how the search went."""

    arena: Any
    best: Scored
    passed: bool
    rounds: int
    evaluated: int
    seconds: float
    out_of_time: bool
    cancelled: bool = False
    history: list[Scored] = field(default_factory=list)


class Cancelled(Exception):
    """The caller stopped the search before any candidate was scored."""


def warm_worker(system: str) -> int:
    """Run in a worker before the search needs it (:meth:`validators.fanout.Session.warm`):
    import what scoring ``system``'s candidates takes - its hook, the validators, the runner -
    so that the first candidate pays for none of it.  Returns the worker's process id."""
    import os

    from validators.registry import default_registry

    hook_of(system)
    default_registry().select([], [], game=system)
    return os.getpid()


def generate(system: str, plan: Any, seed: int, *, budget: float = DEFAULT_BUDGET, workers: int = DEFAULT_WORKERS,
             scheduler: str | None = None, fail_on: str = "warning", max_rounds: int | None = None,
             progress: Callable[[Progress], None] | None = None,
             should_stop: Callable[[], bool] | None = None, session: Session | None = None) -> Outcome:
    """Search as the module docstring says; the outcome's arena is built from the best genome.
    ``session``: workers started already (:meth:`validators.fanout.Session.warm`), used instead
    of ``workers`` and ``scheduler`` and left running.  ``progress`` is called at the start of
    each round as well as after each candidate."""
    hook = hook_of(system)
    t0 = time.monotonic()
    deadline = t0 + budget
    scored: list[tuple[Scored, Any]] = []
    out_of_time = cancelled = False
    rnd = 0

    def stop() -> bool:
        nonlocal out_of_time, cancelled
        if should_stop is not None and should_stop():
            cancelled = True
        elif time.monotonic() >= deadline:
            out_of_time = True
        return out_of_time or cancelled

    with (nullcontext(session) if session is not None
          else Session(jobs=workers, scheduler=scheduler, name="arena-generate")) as used:
        while max_rounds is None or rnd < max_rounds:
            tasks = [(system, plan, seed, rnd, k, _parent(scored, rnd, seed, k), fail_on) for k in range(BATCH)]

            def tick(done: int, _total: int, rnd: int = rnd) -> None:
                if progress:
                    best = min((s for s, _ in scored), key=Scored.key, default=None)
                    progress(Progress(rnd, len(scored) + done, time.monotonic() - t0, budget, best))

            tick(0, len(tasks))
            results, complete = used.map(score, tasks, progress=tick, should_stop=stop)
            scored += [(s, g) for g, s in (r for r in results if r is not None)]
            rnd += 1
            if not complete or any(s.passed for s, _ in scored) or stop():
                break
    if not scored:
        raise Cancelled
    best, genome = min(scored, key=lambda sg: sg[0].key())
    if progress:
        progress(Progress(rnd - 1, len(scored), time.monotonic() - t0, budget, best))
    return Outcome(hook.build(plan, genome, seed), best, best.passed, rnd, len(scored), time.monotonic() - t0,
                   out_of_time and not best.passed, cancelled, [s for s, _ in scored])


def _parent(scored: list[tuple[Scored, Any]], rnd: int, seed: int, index: int) -> Any:
    """The genome candidate ``index`` of round ``rnd`` varies (None: drawn afresh): chosen from
    the :data:`ELITE` best of the earlier rounds by the candidate's own draw."""
    if rnd == 0 or not scored:
        return None
    rng = np.random.default_rng([seed, rnd, index, 1])
    if rng.random() < FRESH:
        return None
    elite = sorted(scored, key=lambda sg: sg[0].key())[:ELITE]
    return elite[int(rng.integers(len(elite)))][1]


def best_text(step: Progress) -> str:
    """One line on a generation step's best candidate so far (the CLI's and the editor's progress)."""
    b = step.best
    if b is None:
        return "scoring the first round"
    if b.passed:
        return "a candidate passes"
    return f"best: {len(b.failing)} finding(s) at {b.stage}"
