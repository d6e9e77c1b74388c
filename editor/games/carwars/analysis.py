"""Live validation of a Car Wars arena (Qt-free), in the editor's two stages:

* **quick** (in the validation thread): the game's JSON Schema and every check that needs no
  travel search.  Each check's findings are kept with the parts of the arena it reads
  (:data:`READS`); an edit re-runs only the checks whose parts changed, so dragging a card
  re-runs the card checks and not the wall-gap or sight-line geometry;
* **slow** (two persistent worker processes, :mod:`editor.games.carwars.kept_travel`, told to stop when
  a newer edit comes): the travel fairness checks, which search every start's fewest turns and
  dice.  Each worker keeps its share of the searches: after a drag that moves no car (a checkpoint card), a
  start's answers are looked up or its search continued (:mod:`engine.carwars.kept`).

The checks are the Car Wars engine's (``engine.carwars``), staged and cached as above; each
finding is worded as the registered validator words it (:func:`validators.games.carwars.checks.quoted`
adds the book's words where the engine's message has none), so the panel lists what
``arena validate`` prints (a test compares the two on the shipped arenas).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from editor.analysis import Cancelled, Finding, normalise
from editor.games.analysis import format_findings

#: The arena fields each Car Wars check reads (its findings are kept while those are unchanged).
_PLACE = ("bounds", "walls", "obstacles", "tokens", "hazards", "start_positions", "vehicle", "scenario")
READS: dict[str, tuple[str, ...]] = {
    "cw-arena-size": ("bounds", "scenario"),
    "cw-corner-angle": ("bounds", "walls", "obstacles", "tokens", "scenario"),
    "cw-wall-gap": ("bounds", "walls", "obstacles", "tokens", "vehicle", "scenario"),
    "cw-start-key": _PLACE,
    "cw-start-spread": ("bounds", "start_positions", "symmetry", "scenario"),
    "cw-components": ("cards", "tokens", "hazards", "start_positions", "scenario"),
    "cw-own-checkpoint": ("cards", "start_positions", "scenario"),
    "cw-game-size": ("scenario",),
    "cw-exposure": ("start_positions", "hazards", "terrain", "vehicle", "scenario"),
    "cw-sightlines": ("bounds", "walls", "obstacles", "tokens", "start_positions", "vehicle", "scenario"),
}


def _finding(issue: Any) -> Finding:
    from validators.games.carwars.checks import quoted

    out = normalise(issue)
    out["message"] = quoted(out["code"], out["message"])
    return out


def _checks() -> dict[str, Callable[[Any], list[Any]]]:
    from engine.carwars.checks import SETUP_CHECKS
    from engine.carwars.fairness import OTHER_CHECKS

    return {**SETUP_CHECKS, **OTHER_CHECKS}


def _key(arena: Any, code: str) -> tuple[Any, ...]:
    return tuple(getattr(arena, f, None) for f in READS.get(code, ("__all__",))) if code in READS else (arena,)


class QuickStage:
    """The quick stage, remembering each check's findings with what it read."""

    def __init__(self) -> None:
        self.cache: dict[str, tuple[tuple[Any, ...], list[Finding]]] = {}
        #: Codes the last call ran (the rest came from the cache).
        self.ran: list[str] = []

    def __call__(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        stop = should_stop or (lambda: False)
        found = format_findings(arena)
        if found:
            return found
        self.ran = []
        from engine import budget as caps
        from validators.report import limit_findings
        from validators.run import analysis_budget, default_limits

        disabled = set(arena.scenario.analysis.disabled)
        stopped: dict[str, str] = {}  # checks the caps stopped or left unstarted: named, never a silent pass
        with analysis_budget(default_limits()):
            for code, check in _checks().items():
                if code in disabled:
                    continue
                if stop():
                    raise Cancelled()
                key = _key(arena, code)
                hit = self.cache.get(code)
                if hit is None or hit[0] != key:
                    try:
                        caps.tick()
                        hit = (key, [_finding(i) for i in check(arena)])
                    except caps.AnalysisStopped as exc:
                        stopped[code] = exc.reason
                        continue
                    self.cache[code] = hit
                    self.ran.append(code)
                found += hit[1]
        return found + [normalise(f) for f in limit_findings([], stopped)]


def slow_findings(arena: Any, table_of: Callable[[Any], Any] | None = None, limits: Any = None) -> list[Finding]:
    """The travel fairness checks, on the travel table ``table_of(arena)`` (default: a cold
    :func:`engine.carwars.fairness.travel_table`; the editor's worker passes its kept searches',
    :class:`engine.carwars.kept.TravelCache`, which answers the same), and an ``analysis-limit``
    warning for what its searches (run under ``limits``, default the analysis's) left open."""
    if not arena.start_positions:
        return []
    from engine.carwars import fairness as fair
    from engine.carwars.travel import SearchLimits
    from validators.games.carwars.context import open_questions
    from validators.report import limit_findings

    disabled = set(arena.scenario.analysis.disabled)
    if all(c in disabled for c in fair.TRAVEL_CHECKS):
        return []
    table = fair.travel_table(arena) if table_of is None else table_of(arena)
    found = [_finding(i) for code, check in fair.TRAVEL_CHECKS.items() if code not in disabled
             for i in check(arena, table)]
    # what the searches left open is a finding, as arena validate reports it: never a silent pass
    return found + [normalise(f) for f in limit_findings(open_questions(table, limits or SearchLimits()))]


def travel_applies(arena: Any) -> bool:
    """The travel stage has work only for an arena with starts."""
    return bool(arena.start_positions)


slow_findings.applies = travel_applies  # type: ignore[attr-defined]


def analysis() -> Any:
    """The staged analysis the validation runner runs for a Car Wars arena: the quick stage in
    the validation thread, the travel stage on two persistent workers each keeping its share of
    the searches (:class:`editor.games.carwars.kept_travel.CarWarsTravel`)."""
    from editor.games.carwars.kept_travel import CarWarsTravel
    from editor.validation import StagedAnalysis

    staged = StagedAnalysis(quick=QuickStage(), slow=None)
    staged.live = CarWarsTravel()  # a stage run in the thread, closed with the runner
    #: The quick findings are shown at once, not held for the travel stage.
    staged.partial_hold_s = 0.0  # type: ignore[attr-defined]
    return staged
