"""Live validation of an Arena Rex arena in the editor (Qt-free), in two stages:

* **setup** (in the quick stage, :class:`SetupStage`): the registered
  setup validators (``ar-board-size``, ``ar-pits``, ``ar-hazard-mix``, ``ar-deployment``,
  ``ar-zone-hazard``, ``ar-zone-room``, ``ar-symmetry``), each kept with the parts of the arena it reads (:data:`SETUP_READS`), so a
  pit drag re-runs the checks that read pits and not the board size or hazard mix;
* **fairness** (:class:`RexFairness`, two persistent worker processes, one per core, each
  computing the zones' numbers for its share of the listed base sizes): the zone checks (the
  deployment zones' walks, kill bands and sight lines side by side for every listed base).  The
  workers answer only the newest edit; recent arenas' findings are remembered (an undo is a
  lookup).

Every finding is the registered validator's, so the panel lists what ``arena validate`` prints
(a test compares the two after an edit).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from editor.analysis import Cancelled, Finding, normalise
from editor.kept_worker import KeptTravel, serve_loop, watched
from editor.lifeline import lifeline
from editor.worker_requests import Requests, take

SYSTEM = "arena-rex"

#: The arena fields each setup check reads (its findings are kept while those are unchanged).
SETUP_READS: dict[str, tuple[str, ...]] = {
    "ar-board-size": ("bounds", "scenario"),
    "ar-pits": ("pits", "scenario"),
    "ar-hazard-mix": ("spikes", "hazards"),
    "ar-deployment": ("bounds", "bases", "pits", "spikes", "deployment", "scenario"),
    "ar-zone-hazard": ("bounds", "bases", "hazards", "deployment", "scenario"),
    "ar-zone-room": ("bounds", "bases", "pits", "spikes", "hazards", "deployment", "scenario"),
    "ar-symmetry": ("bounds", "bases", "pits", "spikes", "deployment", "symmetry"),
}
#: What the zone checks read (the fairness worker's answers are remembered by these).
FAIRNESS_READS = ("bounds", "bases", "pits", "spikes", "hazards", "deployment", "scenario")
#: How many arenas' fairness findings are remembered.
REMEMBERED = 16
#: Fairness worker processes (the base sizes are shared out among them): one per core.
SHARES = 2


def _key(arena: Any, fields: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(getattr(arena, f) for f in fields)


def _setup_checks() -> dict[str, Any]:
    from validators.games.arenarex.checks import ALL, SetupCheck

    return {v.id: v for v in ALL if isinstance(v, SetupCheck)}


def _disabled(arena: Any) -> set[str]:
    return set(arena.scenario.analysis.disabled)


def setup_findings(arena: Any, cache: dict[str, tuple[tuple[Any, ...], list[Finding]]], ran: list[str],
                   stop: Callable[[], bool]) -> list[Finding]:
    """The setup validators' findings, each re-run only when what it reads changed (``cache``:
    code -> (key, findings); the codes run are appended to ``ran``)."""
    found: list[Finding] = []
    disabled = _disabled(arena)
    for code, check in _setup_checks().items():
        if code in disabled:
            continue
        if stop():
            raise Cancelled()
        key = _key(arena, SETUP_READS[code])
        hit = cache.get(code)
        if hit is None or hit[0] != key:
            hit = (key, [normalise(f) for f in check.evaluate(arena, None).findings])
            cache[code] = hit
            ran.append(code)
        found += hit[1]
    return found


def fairness_findings(arena: Any, metrics: dict[float, list[Any]] | None = None) -> list[Finding]:
    """The zone checks' findings, as ``arena validate`` words them (``metrics``: the zones'
    numbers when they were computed elsewhere, :func:`share_metrics`)."""
    from validators.games.arenarex.context import ArenaRexContext
    from validators.games.arenarex.run import validate
    from validators.run import analysis_budget, default_limits

    ctx = ArenaRexContext(arena)
    if metrics is not None:
        ctx.preset(metrics)
    with analysis_budget(default_limits()):  # arena validate's caps (a worker's, when it has some)
        report = validate(arena, disable=list(_setup_checks()), context=ctx)
    return [normalise(f) for f in report.findings]


def share_metrics(arena: Any, share: int, shares: int) -> list[tuple[float, list[Any]]]:
    """Worker ``share`` of ``shares``'s part of the zones' numbers: every ``shares``-th listed
    base (three bases on two workers: the first and the last, and the middle one), as (base
    diameter in mm, the zones' :class:`~engine.arenarex.fairness.ZoneMetrics`)."""
    from engine.arenarex.fairness import Analysis

    an = Analysis(arena)
    radii = list(arena.base_radii())
    return [(_base_order(arena)[k], an.metrics(radii[k])) for k in range(share, len(radii), shares)]


def fairness_applies(arena: Any) -> bool:
    """The fairness stage has work for an Arena Rex arena with two zones or more, some zone
    check enabled."""
    if getattr(arena, "system", "") != SYSTEM or len(arena.deployment) < 2:
        return False
    from validators.games.arenarex.checks import ALL, ZoneCheck

    return any(v.id not in _disabled(arena) for v in ALL if isinstance(v, ZoneCheck))


def _serve(requests: Any, replies: Any, line: Any = None, share: int = 0,
           shares: int = 1) -> None:  # pragma: no cover - the worker process
    watched(line)
    serve_loop(take(requests), replies, lambda msg: share_metrics(msg[2], share, shares))


def _base_order(arena: Any) -> list[float]:
    from schema.games.arenarex import MM_PER_INCH

    return [round(r * 2 * MM_PER_INCH, 3) for r in arena.base_radii()]


class _Share(KeptTravel):
    """One fairness worker: its share of the base sizes' zone numbers."""

    serve = staticmethod(_serve)

    def __init__(self, share: int, shares: int) -> None:
        super().__init__()
        self.share, self.shares = share, shares
        self.what = f"the Arena Rex fairness worker {share + 1} of {shares}"

    def _start(self) -> None:
        from editor.processes import mp_context

        ctx = mp_context()
        self._requests = Requests(ctx)
        self._replies, there = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=type(self).serve, daemon=True,
                                 args=(self._requests.reader, there, lifeline(ctx), self.share, self.shares))
        self._proc.start()
        there.close()
        self._requests.reader.close()


class RexFairness:
    """The Arena Rex zone checks' findings from :data:`SHARES` persistent workers (started on
    first use), each computing the zones' numbers for its share of the listed base sizes; the
    findings are made here from all of them (:func:`fairness_findings`).  A newer edit makes the
    workers drop older requests; recent arenas' findings are remembered (an undo is a lookup)."""

    what = "the Arena Rex fairness workers"
    stage = "fairness checks"

    def __init__(self, shares: int = 0) -> None:
        self.shares = shares or SHARES
        self._workers = [_Share(k, self.shares) for k in range(self.shares)]
        self._remembered: OrderedDict[tuple[Any, ...], list[Finding]] = OrderedDict()

    @staticmethod
    def applies(arena: Any) -> bool:
        return fairness_applies(arena)

    @staticmethod
    def _key(arena: Any) -> tuple[Any, ...]:
        return (_key(arena, FAIRNESS_READS), tuple(sorted(_disabled(arena))))

    def submit(self, arena: Any) -> None:
        """Start the workers on ``arena`` now (unless its findings are remembered)."""
        if self._key(arena) not in self._remembered:
            for w in self._workers:
                w.submit(arena)

    def __call__(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        key = self._key(arena)
        if key not in self._remembered:
            parts: list[tuple[float, Any]] = [part for w in self._workers for part in w.answer(arena, should_stop)]
            metrics = dict(sorted(parts, key=lambda p: _base_order(arena).index(p[0])))
            self._remembered[key] = fairness_findings(arena, metrics)
            while len(self._remembered) > REMEMBERED:
                self._remembered.popitem(last=False)
        self._remembered.move_to_end(key)
        return list(self._remembered[key])

    def close(self) -> None:
        for w in self._workers:
            w.close()


class SetupStage:
    """The quick stage: the game's JSON Schema, then the setup checks (:func:`setup_findings`),
    each remembered with what it read."""

    def __init__(self) -> None:
        self.cache: dict[str, tuple[tuple[Any, ...], list[Finding]]] = {}
        #: Codes the last call ran (the rest came from the cache).
        self.ran: list[str] = []

    def __call__(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        from editor.games.analysis import format_findings

        found = format_findings(arena)
        if found:
            return found
        self.ran = []
        return setup_findings(arena, self.cache, self.ran, should_stop or (lambda: False))


def analysis() -> Any:
    """The staged analysis the validation runner runs for an Arena Rex arena: the setup checks in
    the validation thread, then the zone checks on :class:`RexFairness`'s workers."""
    from editor.validation import StagedAnalysis

    staged = StagedAnalysis(quick=SetupStage(), slow=None)
    staged.more.append(RexFairness())
    #: The quick findings are shown at once, not held for the fairness stage.
    staged.partial_hold_s = 0.0  # type: ignore[attr-defined]
    return staged
