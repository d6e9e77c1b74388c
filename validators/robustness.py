"""Tabletop robustness: how a validation verdict holds up when the pieces are placed by hand.

Sample ``k`` of seed ``S`` is the arena with every piece misplaced within the scenario's
placement tolerance by the game's hook (its analysis's ``robustness_hook``), drawn from
``numpy.random.default_rng([S, k])`` - so sample ``k`` is the same arena in whichever process,
machine or Dask worker validates it.  A sample whose perturbed arena fails the file checks
(the schema, then ``Ruleset.semantic``: :func:`schema.io.document_problems`) is drawn again (at
most :data:`SAMPLE_REDRAWS` times, then skipped and counted).  Each sample is validated as
``arena validate`` does (without the validators the hook skips: ``symmetry`` judges the drawing,
which hand placement always breaks), and :func:`aggregate` reports:

- per finding (code + the elements it names, in any order): in how many placements it appears and
  how often its presence differs from the drawn arena's verdict (``flip_share``);
- per code: the share of placements with any finding of that code;
- per headline metric of the game (``Hook.headlines``: e.g. each start's access gap): the drawn
  value, min / median / max over the placements and the share beyond its tolerance.

Samples fan out over local processes or a Dask cluster (:mod:`validators.fanout`); the result
depends only on the arena, the settings and the seed.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.placement import Tolerance
from schema.io import document_problems
from schema.ruleset import ruleset_of
from validators.options import Options
from validators.fanout import Cancelled, FanProgress, fan_out
from validators.game import analysis_of
from validators.headlines import Headline, Hook, gaps
from validators.run import Report, validate

__all__ = ["Cancelled", "Headline", "Hook", "gaps", "Sample", "Settings", "aggregate", "hook_of", "robustness",
           "run_sample", "sample_arena", "summarise"]

#: Draws of a whole sample whose arena fails the file checks before it is skipped.
SAMPLE_REDRAWS = 5
#: Default number of worker processes for the samples.
DEFAULT_WORKERS = 2
#: Samples per worker from which the workers call the hook's ``warm()`` before validating (its
#: set-up - Gravstrike's compiled search kernels, about 0.4 s - is repaid from about the third).
WARM_SAMPLES = 3


def hook_of(arena: Any) -> Hook:
    """The arena's game's hook (:meth:`validators.game.GameAnalysis.robustness_hook`);
    ``LookupError`` naming the game when it has none."""
    return analysis_of(arena).robustness_hook()


@dataclass(frozen=True)
class Settings:
    """What a robustness run does: ``samples`` placements of seed ``seed`` within ``tolerance``
    (None: the scenario's), validated with ``options``."""

    samples: int
    seed: int = 0
    tolerance: Tolerance | None = None
    options: Options = Options()


@dataclass
class Sample:
    """One placement's verdict: its findings (code, severity, elements), its headline values,
    the piece redraws it took, and whether it was skipped (or the error it met)."""

    index: int
    findings: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    values: dict[str, float | None] = field(default_factory=dict)
    redraws: int = 0
    #: The placement's travel table (start -> goal -> turns, None when not reached), for games
    #: whose hook has one (``travel``).
    travel: dict[str, dict[str, float | None]] = field(default_factory=dict)
    skipped: bool = False
    failure: str | None = None


def sample_arena(arena: Any, seed: int, index: int, tol: Tolerance) -> tuple[Any | None, int]:
    """Sample ``index`` of ``seed``: the misplaced arena (None if every draw failed the file
    checks) and the piece redraws it took."""
    hook = hook_of(arena)
    rs = ruleset_of(arena)
    rng = np.random.default_rng([seed, index])
    redraws = 0
    for _ in range(SAMPLE_REDRAWS):
        moved, n = hook.perturb(arena, rng, tol)
        redraws += n
        if not document_problems(rs.document(moved)):
            return moved, redraws
    return None, redraws


def _selection(hook: Hook, options: Options) -> tuple[tuple[str, ...], tuple[str, ...]]:
    enable = tuple(c for c in options.enable if c not in hook.skip)
    return enable, tuple(dict.fromkeys((*options.disable, *hook.skip)))


def run_sample(arena: Any, seed: int, index: int, tol: Tolerance, options: Options, warm: bool = False) -> Sample:
    """Misplace and validate sample ``index`` (runs on whichever worker; ``warm``: the worker has
    several to do - call the hook's ``warm()`` first, which changes no result)."""
    hook = hook_of(arena)
    if warm and hasattr(hook, "warm"):
        hook.warm()
    moved, redraws = sample_arena(arena, seed, index, tol)
    if moved is None:
        return Sample(index, redraws=redraws, skipped=True)
    enable, disable = _selection(hook, options)
    try:
        report = validate(moved, enable=enable, disable=disable, tier=options.tier, budget=options.budget,
                          tolerance=options.tolerance, limits=options.limits)
    except Exception as exc:  # noqa: BLE001 - a bug: reported for this sample, the run goes on
        return Sample(index, redraws=redraws, skipped=True, failure=f"{type(exc).__name__}: {exc}"[:300])
    return Sample(index, [(f.code, f.severity, tuple(f.elements)) for f in report.findings],
                  {h.key: h.value for h in hook.headlines(report)}, redraws, travel=_travel(hook, report))


def _travel(hook: Hook, report: Report) -> dict[str, dict[str, float | None]]:
    """The hook's travel table of ``report`` ({} for a game whose hook has none)."""
    table = getattr(hook, "travel", None)
    return table(report) if table is not None else {}


def travel_bands(nominal: dict[str, dict[str, float | None]], samples: list[Sample]) -> dict[str, Any]:
    """Per start and goal of the drawn arena's travel table: its turns there and their min /
    median / max over the placements that reached it (``unreached``: the share that did not)."""
    out: dict[str, Any] = {}
    for start, row in nominal.items():
        out[start] = {}
        for goal, drawn in row.items():
            got = [s.travel.get(start, {}).get(goal) for s in samples]
            times = sorted(t for t in got if t is not None)
            band: dict[str, Any] = {"nominal": _round(drawn), "min": _round(times[0]) if times else None,
                                    "median": _round(statistics.median(times)) if times else None,
                                    "max": _round(times[-1]) if times else None}
            if len(times) < len(got):
                band["unreached"] = _share(len(got) - len(times), len(got))
            out[start][goal] = band
    return out


def robustness(arena: Any, nominal: Report, settings: Settings, *, workers: int = DEFAULT_WORKERS,
               scheduler: str | None = None, progress: FanProgress | None = None,
               should_stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Validate ``settings.samples`` placements of ``arena`` and aggregate them against the drawn
    arena's report ``nominal`` (the report's ``robustness`` section).  Raises :class:`Cancelled`
    when ``should_stop()`` says so and ``LookupError`` for a game without a hook."""
    hook = hook_of(arena)
    tol = settings.tolerance or hook.tolerance(arena)
    per_worker = settings.samples / (max(1, workers) if scheduler is None else 1)
    warm = per_worker >= WARM_SAMPLES
    tasks = [(arena, settings.seed, k, tol, settings.options, warm) for k in range(settings.samples)]
    samples = fan_out(run_sample, tasks, jobs=workers, scheduler=scheduler, progress=progress,
                      should_stop=should_stop, name="arena-robustness")
    return aggregate(nominal, samples, hook, settings, tol)


def summarise(arena: Any, samples: list[Sample], settings: Settings) -> dict[str, Any]:
    """The section for ``samples`` validated elsewhere (the editor's children): validates the
    drawn arena with ``settings.options`` and aggregates."""
    hook = hook_of(arena)
    o = settings.options
    nominal = validate(arena, enable=o.enable, disable=o.disable, tier=o.tier, budget=o.budget, tolerance=o.tolerance,
                       limits=o.limits)
    return aggregate(nominal, samples, hook, settings, settings.tolerance or hook.tolerance(arena))


def _share(count: int, total: int) -> float:
    return round(count / total, 3) if total else 0.0


def aggregate(nominal: Report, samples: list[Sample], hook: Hook, settings: Settings, tol: Tolerance) -> dict[str, Any]:
    """The ``robustness`` section of the report (schema/report.schema.json)."""
    used = [s for s in samples if not s.skipped]
    total = len(used)
    # a finding is its code and the elements it names, in any order (checkpoint-spacing names the
    # pair faster way round first): shown with the drawn arena's order, else the first seen
    drawn = {(f.code, _key(f.elements)): (f.severity, tuple(f.elements)) for f in nominal.findings
             if f.code not in hook.skip}
    seen: dict[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]] = dict(drawn)
    counts: dict[tuple[str, tuple[str, ...]], int] = {}
    code_counts: dict[str, int] = {}
    for s in used:
        keys = {(code, _key(elements)) for code, _, elements in s.findings}
        for code, severity, elements in s.findings:
            seen.setdefault((code, _key(elements)), (severity, elements))
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
        for code in {k[0] for k in keys}:
            code_counts[code] = code_counts.get(code, 0) + 1
    findings: list[dict[str, Any]] = []
    for key, (severity, elements) in seen.items():
        n = counts.get(key, 0)
        in_drawn = key in drawn
        findings.append({"code": key[0], "severity": severity, "elements": list(elements), "nominal": in_drawn,
                         "share": _share(n, total), "flip_share": _share(total - n if in_drawn else n, total)})
    findings.sort(key=lambda f: (not f["nominal"], -f["flip_share"], f["code"], f["elements"]))
    drawn_codes = {c for c, _ in drawn}
    codes = [{"code": c, "nominal": c in drawn_codes, "share": _share(code_counts.get(c, 0), total)}
             for c in sorted(drawn_codes | set(code_counts))]
    metrics = []
    for h in hook.headlines(nominal):
        values = [s.values.get(h.key) for s in used]
        got = sorted(v for v in values if v is not None)
        over = sum(1 for v in values if v is not None and Headline(h.key, h.label, h.unit, v, h.tolerance, h.limit).beyond())
        metrics.append({"key": h.key, "label": h.label, "unit": h.unit, "nominal": _round(h.value),
                        "min": _round(got[0]) if got else None,
                        "median": _round(statistics.median(got)) if got else None,
                        "max": _round(got[-1]) if got else None,
                        "tolerance": h.tolerance, "limit": h.limit, "share_over": _share(over, total)})
    failures = sorted({s.failure for s in samples if s.failure})
    out: dict[str, Any] = {
        "samples": len(samples), "validated": total, "skipped": len(samples) - total,
        "redraws": sum(s.redraws for s in samples), "seed": settings.seed,
        "tolerance": {"length": tol.length, "angle": tol.angle, "unit": hook.unit},
        "not_run": list(hook.skip), "findings": findings, "codes": codes, "metrics": metrics,
    }
    drawn_travel = _travel(hook, nominal)
    if drawn_travel:
        out["travel"] = travel_bands(drawn_travel, used)
    if failures:
        out["failures"] = failures
    return out


def _key(elements: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(elements))


def _round(v: float | None) -> float | None:
    return None if v is None else round(float(v), 3)
