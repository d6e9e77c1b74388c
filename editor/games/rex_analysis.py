"""Live validation of an Arena Rex arena in the editor (Qt-free), in two stages:

* **setup** (in the quick stage, :class:`editor.games.analysis.QuickStage`): the registered
  setup validators (``ar-board-size``, ``ar-pits``, ``ar-hazard-mix``, ``ar-deployment``,
  ``ar-symmetry``), each kept with the parts of the arena it reads (:data:`SETUP_READS`), so a
  pit drag re-runs the checks that read pits and not the board size or hazard mix;
* **fairness** (:class:`RexFairness`, a persistent worker process): the zone checks (the
  deployment zones' walks, kill bands and sight lines side by side for every listed base), which
  take most of a second on the shipped circle.  The worker answers only the newest edit and
  remembers recent arenas' answers (an undo is a lookup).

Every finding is the registered validator's, so the panel lists what ``arena validate`` prints
(a test compares the two after an edit).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from editor.analysis import Cancelled, Finding, normalise
from editor.games.kept_travel import KeptTravel

SYSTEM = "arena-rex"

#: The arena fields each setup check reads (its findings are kept while those are unchanged).
SETUP_READS: dict[str, tuple[str, ...]] = {
    "ar-board-size": ("bounds", "scenario"),
    "ar-pits": ("pits", "scenario"),
    "ar-hazard-mix": ("spikes", "hazards"),
    "ar-deployment": ("bounds", "bases", "pits", "spikes", "deployment", "scenario"),
    "ar-symmetry": ("bounds", "bases", "pits", "spikes", "deployment", "symmetry"),
}
#: What the zone checks read (the fairness worker's answers are remembered by these).
FAIRNESS_READS = ("bounds", "bases", "pits", "spikes", "hazards", "deployment", "scenario")
#: How many arenas' fairness findings the worker remembers.
REMEMBERED = 16


def _key(arena: Any, fields: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(getattr(arena, f) for f in fields)


def _setup_checks() -> dict[str, Any]:
    from validators.arenarex.checks import ALL, SetupCheck

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


def fairness_findings(arena: Any) -> list[Finding]:
    """The zone checks' findings, as ``arena validate`` words them."""
    from validators.arenarex.run import validate

    report = validate(arena, disable=list(_setup_checks()))
    return [normalise(f) for f in report.findings]


def fairness_applies(arena: Any) -> bool:
    """The fairness stage has work for an Arena Rex arena with two zones or more, some zone
    check enabled."""
    if getattr(arena, "system", "") != SYSTEM or len(arena.deployment) < 2:
        return False
    from validators.arenarex.checks import ALL, ZoneCheck

    return any(v.id not in _disabled(arena) for v in ALL if isinstance(v, ZoneCheck))


def _serve(requests: Any, replies: Any, line: Any = None) -> None:  # pragma: no cover - the worker process
    if line is not None:
        from editor.lifeline import watch

        watch(line)
    import queue
    import traceback

    remembered: OrderedDict[tuple[Any, ...], list[Finding]] = OrderedDict()
    while True:
        msg = requests.get()
        while True:  # only the newest request counts
            try:
                msg = requests.get_nowait()
            except queue.Empty:
                break
        if msg[0] == "quit":
            return
        _, gen, arena = msg
        try:
            key = (_key(arena, FAIRNESS_READS), tuple(sorted(_disabled(arena))))
            if key not in remembered:
                remembered[key] = fairness_findings(arena)
                while len(remembered) > REMEMBERED:
                    remembered.popitem(last=False)
            remembered.move_to_end(key)
            replies.send(("ok", gen, remembered[key]))
        except BaseException:  # noqa: BLE001 - shown in the validation panel
            replies.send(("error", gen, traceback.format_exc(limit=4)))


class RexFairness(KeptTravel):
    """The Arena Rex zone checks' findings from a persistent worker (started on first use)."""

    serve = staticmethod(_serve)
    what = "the Arena Rex fairness worker"
    stage = "fairness checks"

    @staticmethod
    def applies(arena: Any) -> bool:
        return fairness_applies(arena)
