"""Proposed fixes: the smallest symmetric move of the arena's pieces that removes a finding.

For a finding with a geometric cause (an access gap, checkpoints too close, a start in a field...)
the game's balance hook (its analysis's ``balance_hook``, :class:`Hook`) names **seeds**: an element that
may move and a direction (toward the checkpoint a slow start lacks, away from the checkpoint it
crowds, out from the centre) or a turn (an acceleration field's push).  The search tries the seeds
in growing steps (the hook's ``steps`` in the arena's unit, ``turns`` in degrees), all seeds at
one step before any at the next, so the first fix found is the smallest; it then halves the gap to
the last step that failed (:data:`REFINE` times) for a smaller one.  When no single seed removes
the finding at any step, pairs of seeds on two different elements are tried together (both at the
same step), each pair first at the largest step it can make and, when that fixes, down its steps;
the smallest such pair move is refined alike (two outlying checkpoints, one in a corner, each
moved away from the other).

Every candidate moves the element **together with its symmetric images** (the hook's ``images``:
the move is averaged over the operations that fix the element - a start on a mirror axis slides
along it - and carried to each image by its operation), keeps every element's id, must keep on the
table the pieces that were on it (the hook's ``fits``), pass the game's file checks and keep as many symmetry operations as the arena had.  It is then judged by the
real validators: first the finding's own validator, then a full validation with the same settings.
It is offered only when

- the finding (its code and elements, in any order) is gone and its code has fewer findings than
  before (an imbalance that only moves to another start is not fixed);
- no new error appears, and no finding fixed earlier in the run comes back.

A candidate that adds a warning of another code is kept only when no clean one is found at that
step (the before/after table shows it).  Findings are fixed one after another, each on the arena
the previous fixes left.  The search is deterministic: the same arena, settings and free kinds give
the same proposal - unless the time ``budget`` runs out, when it stops before its next
validation and says so (:attr:`Proposal.stopped_early`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.placement import Offset, replace_pieces
from schema.io import document_problems
from schema.ruleset import ruleset_of
from validators.balance_hooks import Hook, Operation, Seed, carry
from validators.fanout import Cancelled
from validators.findings import Finding, at_least
from validators.game import analysis_of
from validators.options import BALANCE_BUDGET, Options
from validators.run import Report, validate

__all__ = ["Cancelled", "Edit", "Fix", "Hook", "Operation", "Proposal", "SearchStep", "Seed", "carry", "finding_key", "hook_of",
           "propose"]

#: Halvings of the gap between the last step that failed and the first that fixed the finding.
REFINE = 2
#: Seconds a proposal may take unless told otherwise.
DEFAULT_BUDGET = BALANCE_BUDGET

Status = Literal["fixed", "no-fix", "no-move", "stopped"]


def hook_of(arena: Any) -> Hook:
    """The arena's game's hook (:meth:`validators.game.GameAnalysis.balance_hook`);
    ``LookupError`` naming the game when it has none."""
    return analysis_of(arena).balance_hook()


def finding_key(f: Finding) -> tuple[str, tuple[str, ...]]:
    """A finding's identity across arenas: its code and the elements it names, in any order."""
    return f.code, tuple(sorted(f.elements))


@dataclass(frozen=True)
class Edit:
    """One move of a proposal: ``ref`` shifted by (``dx``, ``dy``) and turned by ``dtheta``
    degrees, with its symmetric ``images`` moved alike."""

    ref: str
    name: str
    dx: float
    dy: float
    dtheta: float
    why: str
    images: tuple[str, ...] = ()
    image_names: tuple[str, ...] = ()

    def words(self, unit: str) -> str:
        """"move start 3 by 0.8 lengths toward checkpoint A (with its images start 4, start 5)"."""
        parts = []
        if math.hypot(self.dx, self.dy) > 1e-9:
            size = _num(math.hypot(self.dx, self.dy))
            parts.append(f"move {self.name} by {size} {_units(size, unit)} {self.why}".rstrip())
        if abs(self.dtheta) > 1e-9:
            way = "counter-clockwise" if self.dtheta > 0 else "clockwise"
            text = f"turn {self.name} by {_num(abs(self.dtheta))}° {way}"
            parts.append(text if parts else f"{text} {self.why}".rstrip())
        text = " and ".join(parts) or f"leave {self.name}"
        if self.image_names:
            text += f" (with its symmetric image{'s' if len(self.image_names) > 1 else ''} {', '.join(self.image_names)})"
        return text

    def to_json(self, unit: str) -> dict[str, Any]:
        return {"element": self.ref, "dx": round(self.dx, 4), "dy": round(self.dy, 4),
                "distance": round(math.hypot(self.dx, self.dy), 4), "turn": round(self.dtheta, 3), "why": self.why,
                "images": list(self.images), "words": self.words(unit)}


@dataclass
class Fix:
    """What the search did for one finding: ``fixed`` (``edits`` remove it), ``no-fix`` (no
    candidate within the steps did), ``no-move`` (nothing free to move for it: no geometric
    cause the game knows, or the free kinds exclude it) or ``stopped`` (the budget ran out)."""

    finding: Finding
    status: Status
    edits: list[Edit] = field(default_factory=list)
    tried: int = 0
    note: str = ""

    def to_json(self, unit: str) -> dict[str, Any]:
        return {"finding": self.finding.to_json(), "status": self.status, "edits": [e.to_json(unit) for e in self.edits],
                "candidates_tried": self.tried, "note": self.note}


@dataclass
class Proposal:
    """A proposal: the fixed ``arena`` (the input when nothing was fixed), the reports before and
    after, what happened to each chosen finding, and what it cost."""

    arena: Any
    before: Report
    after: Report
    fixes: list[Fix]
    unit: str
    budget: float
    seconds: float = 0.0
    validations: int = 0
    stopped_early: bool = False

    @property
    def edits(self) -> list[Edit]:
        return [e for f in self.fixes for e in f.edits]

    @property
    def changed(self) -> bool:
        return bool(self.edits)

    def moved_refs(self) -> list[str]:
        """Every element the proposal moves (the edits' elements and their images)."""
        return list(dict.fromkeys(r for e in self.edits for r in (e.ref, *e.images)))

    def to_json(self) -> dict[str, Any]:
        return {"fixes": [f.to_json(self.unit) for f in self.fixes], "edits": [e.to_json(self.unit) for e in self.edits],
                "before": [f.to_json() for f in self.before.findings], "after": [f.to_json() for f in self.after.findings],
                "metrics": metric_rows(self), "budget": self.budget, "seconds": round(self.seconds, 3),
                "validations": self.validations, "stopped_early": self.stopped_early}


def metric_rows(p: Proposal) -> list[dict[str, Any]]:
    """The game's headline metrics (its robustness hook's) that the proposal changes, before and
    after; empty for a game without them."""
    from validators.robustness import hook_of as headlines_of

    try:
        hook = headlines_of(p.before.arena)
    except LookupError:
        return []
    after = {h.key: h for h in hook.headlines(p.after)}
    rows = []
    for h in hook.headlines(p.before):
        a = after.get(h.key)
        new = None if a is None else a.value
        if _rounded(h.value) == _rounded(new):
            continue
        rows.append({"key": h.key, "label": h.label, "unit": h.unit, "before": _rounded(h.value), "after": _rounded(new),
                     "tolerance": h.tolerance, "limit": h.limit, "beyond_before": h.beyond(),
                     "beyond_after": bool(a and a.beyond())})
    return rows


@dataclass(frozen=True)
class SearchStep:
    """What a search reports after each validation (``progress`` of :func:`propose`): how many
    validations so far, the budget's seconds used (of its clock) and what it is doing."""

    validations: int
    elapsed: float
    budget: float
    doing: str


class _Search:
    """One run's state: the clock, the validation settings and the count of validations."""

    def __init__(self, hook: Hook, options: Options, free: Sequence[str], budget: float,
                 should_stop: Callable[[], bool] | None, clock: Callable[[], float],
                 progress: Callable[[SearchStep], None] | None = None) -> None:
        self.hook, self.options, self.free = hook, options, set(free)
        self.kinds = tuple(dict.fromkeys(k for name in hook.free.values() for k in name))
        self.clock, self.deadline = clock, clock() + budget
        self.t0, self.budget = self.deadline - budget, budget
        self.should_stop = should_stop
        self.progress = progress
        self.doing = "validating the arena"
        self.validations = 0
        self.stopped = False
        self.refused: set[tuple[str, tuple[str, ...]]] = set()

    def time_left(self) -> bool:
        if self.should_stop and self.should_stop():
            raise Cancelled
        if self.clock() >= self.deadline:
            self.stopped = True
        return not self.stopped

    def validate(self, arena: Any, enable: Iterable[str] = ()) -> Report:
        o = self.options
        if self.progress is not None and self.validations == 0:
            self.progress(SearchStep(0, 0.0, self.budget, self.doing))
        self.validations += 1
        report = validate(arena, enable=tuple(enable) or o.enable, disable=o.disable, tier=o.tier, budget=o.budget,
                          tolerance=o.tolerance)
        if self.progress is not None:
            self.progress(SearchStep(self.validations, self.clock() - self.t0, self.budget, self.doing))
        return report

    def candidate(self, arena: Any, seed: Seed, size: float, symmetries: int) -> tuple[Any, Edit] | None:
        """``arena`` with ``seed`` applied at ``size`` to the element and its images (None when
        the move breaks the file checks or the symmetry, or the symmetry cancels it)."""
        hook = self.hook
        off = Offset(seed.direction[0] * size, seed.direction[1] * size, seed.turn * size)
        offsets = hook.images(arena, seed.ref, off)
        if not offsets or any(hook.kind_of(arena, r) not in self.free for r in offsets):
            return None
        fixed = replace_pieces(arena, self.kinds, {r: hook.moved(arena, r, o) for r, o in offsets.items()})
        if not hook.fits(arena, fixed, list(offsets)):
            return None
        rs = ruleset_of(arena)
        if document_problems(rs.document(fixed)):
            return None
        if hook.symmetries(fixed) < symmetries:
            return None
        own = offsets[seed.ref]
        images = tuple(r for r in offsets if r != seed.ref)
        return fixed, Edit(seed.ref, hook.name(arena, seed.ref), own.dx, own.dy, own.dtheta, seed.why, images,
                           tuple(hook.name(arena, r) for r in images))

    def judge(self, before: Report, finding: Finding, arena: Any) -> tuple[str, Report] | None:
        """``("clean" | "warned", full report)`` when ``arena`` removes ``finding`` without a
        new error (``warned``: with a new warning of another code), else None."""
        quick = self.validate(arena, (finding.code,))
        if not _gone(finding, before, quick):
            return None
        if not self.time_left():
            return None
        full = self.validate(arena)
        if not _gone(finding, before, full):
            return None
        known = {finding_key(f) for f in before.findings}
        new = [f for f in full.findings if finding_key(f) not in known]
        if any(f.severity == "error" for f in new) or any(finding_key(f) in self.refused for f in full.findings):
            return None
        counts = _counts(before.findings)
        worse = any(n > counts.get(c, 0) for c, n in _counts(full.findings, "warning").items())
        return ("warned" if worse else "clean"), full

    def fix(self, arena: Any, report: Report, finding: Finding) -> tuple[Fix, Any, Report]:
        """Search a fix of ``finding`` on ``arena`` (whose report is ``report``)."""
        hook = self.hook
        seeds = [s for s in hook.seeds(arena, finding, report) if hook.kind_of(arena, s.ref) in self.free]
        if not seeds:
            free = ", ".join(sorted(self.free))
            return Fix(finding, "no-move", note=f"nothing that may move ({free}) is known to change it"), arena, report
        symmetries = hook.symmetries(arena)
        tried = 0
        fallback: tuple[Seed, float, float, Any, Edit, Report] | None = None
        for i in range(len(hook.steps)):
            for seed in seeds:
                self.doing = f"{finding.code}: moving {hook.name(arena, seed.ref)}"
                sizes = hook.turns if seed.turn else hook.steps
                size, last = sizes[i], (sizes[i - 1] if i else 0.0)
                cand = self.candidate(arena, seed, size, symmetries)
                if cand is None:
                    continue
                if not self.time_left():
                    return Fix(finding, "stopped", tried=tried, note="the time budget ran out"), arena, report
                tried += 1
                verdict = self.judge(report, finding, cand[0])
                if verdict is None:
                    continue
                if verdict[0] == "clean":
                    return self._refined(arena, report, finding, [(seed, last, size)], (cand[0], [cand[1]]),
                                         verdict[1], symmetries, tried)
                if fallback is None:
                    fallback = (seed, last, size, *cand, verdict[1])
            if fallback is not None:
                seed, last, size, fixed, edit, full = fallback
                out = self._refined(arena, report, finding, [(seed, last, size)], (fixed, [edit]), full, symmetries,
                                    tried)
                out[0].note = "adds a warning of another kind (see the table)"
                return out
        if not self.stopped:  # no single move does it: two elements at once
            found, tried = self._pairs(arena, report, finding, seeds, symmetries, tried)
            if found is not None:
                return found
        if self.stopped:
            return Fix(finding, "stopped", tried=tried, note="the time budget ran out"), arena, report
        turn = f" or turn of up to {_num(hook.turns[-1])}°" if hook.turns else ""
        return Fix(finding, "no-fix", tried=tried, note=f"no move of up to {_num(hook.steps[-1])} {hook.unit}{turn} "
                   "(of one element, or of two at once) removes it without a new error"), arena, report

    def _pairs(self, arena: Any, report: Report, finding: Finding, seeds: list[Seed], symmetries: int,
               tried: int) -> tuple[tuple[Fix, Any, Report] | None, int]:
        """Two seeds of different elements applied together (neither an image of the other), both
        at the same step of their sizes - for a finding no single move removes (two checkpoints
        both too near).  Since single moves failed up to the largest step, each pair is judged
        first at the largest step it can make on the table, and only a pair that fixes there is
        searched down its steps (halving); the pair fixing at the smallest step is refined like a
        single move.  A pair that adds a warning of another kind is kept only when no pair is clean."""
        pairs = [(a, b) for i, a in enumerate(seeds) for b in seeds[i + 1:] if a.ref != b.ref]
        found: dict[str, tuple[int, tuple[Seed, Seed], tuple[Any, list[Edit]], Report]] = {}
        for pair in pairs:
            self.doing = f"{finding.code}: moving {self.hook.name(arena, pair[0].ref)} and {self.hook.name(arena, pair[1].ref)}"
            best = found.get("clean")
            top = len(self.hook.steps) - 1 if best is None else best[0]
            got = None
            for top in range(top, -1, -1):  # the largest step the pair can make (cheap: no validation)
                got = self._apply(arena, [(seed, self._step(seed, top)[1]) for seed in pair], symmetries)
                if got is not None:
                    break
            if got is None or not self.time_left():
                if self.stopped:
                    break
                continue
            tried += 1
            verdict = self.judge(report, finding, got[0])
            if verdict is None:
                continue
            kind, hi, cand, full = verdict[0], top, got, verdict[1]
            lo = -1
            while hi - lo > 1 and kind == "clean" and self.time_left():  # the smallest step that still fixes
                mid = (lo + hi) // 2
                trial = self._apply(arena, [(seed, self._step(seed, mid)[1]) for seed in pair], symmetries)
                if trial is not None:
                    tried += 1
                    again = self.judge(report, finding, trial[0])
                    if again is not None and again[0] == "clean":
                        hi, cand, full = mid, trial, again[1]
                        continue
                lo = mid
            if kind not in found or hi < found[kind][0]:
                found[kind] = (hi, pair, cand, full)
        for kind in ("clean", "warned"):
            if kind in found:
                i, pair, cand, full = found[kind]
                moves = [(seed, *self._step(seed, i)) for seed in pair]
                out = self._refined(arena, report, finding, moves, cand, full, symmetries, tried)
                if kind == "warned":
                    out[0].note = "adds a warning of another kind (see the table)"
                return out, tried
        return None, tried

    def _step(self, seed: Seed, i: int) -> tuple[float, float]:
        """(the size before step ``i``, the size at it) for ``seed``: a move's or a turn's."""
        sizes = self.hook.turns if seed.turn else self.hook.steps
        return (sizes[i - 1] if i else 0.0), sizes[i]

    def _apply(self, arena: Any, moves: Sequence[tuple[Seed, float]], symmetries: int) -> tuple[Any, list[Edit]] | None:
        """``arena`` with each (seed, size) applied in turn (:meth:`candidate`); None when one
        of them can't be, or moves an element an earlier one already moved (as an image)."""
        edits: list[Edit] = []
        for seed, size in moves:
            if any(seed.ref in (e.ref, *e.images) for e in edits):
                return None
            cand = self.candidate(arena, seed, size, symmetries)
            if cand is None:
                return None
            arena = cand[0]
            edits.append(cand[1])
        return arena, edits

    def _refined(self, arena: Any, report: Report, finding: Finding, moves: list[tuple[Seed, float, float]],
                 best: tuple[Any, list[Edit]], full: Report, symmetries: int, tried: int) -> tuple[Fix, Any, Report]:
        """Halve the gap between the failing sizes (each move's ``lo``) and the fixing ones
        (``hi``), all moves by the same share (in whole steps for a hook whose ``whole_steps`` is
        true: a grid game's moves are whole cells)."""
        whole = bool(getattr(self.hook, "whole_steps", False))
        lo, hi = 0.0, 1.0
        for _ in range(REFINE):
            mid = (lo + hi) / 2
            sizes = [a + mid * (b - a) for _, a, b in moves]
            if whole:
                sizes = [float(math.floor(v)) for v in sizes]
                if all(v <= a for v, (_, a, _) in zip(sizes, moves)):
                    break
            cand = self._apply(arena, [(seed, v) for (seed, _, _), v in zip(moves, sizes)], symmetries)
            if cand is None or not self.time_left():
                break
            tried += 1
            verdict = self.judge(report, finding, cand[0])
            if verdict is not None and verdict[0] == "clean":
                hi, best, full = mid, cand, verdict[1]
            else:
                lo = mid
        self.refused.add(finding_key(finding))
        return Fix(finding, "fixed", list(best[1]), tried), best[0], full


def propose(arena: Any, *, code: str | None = None, elements: Sequence[str] = (), free: Sequence[str] | None = None,
            budget: float = DEFAULT_BUDGET, options: Options = Options(), severity: str = "warning",
            report: Report | None = None, should_stop: Callable[[], bool] | None = None,
            clock: Callable[[], float] | None = None,
            progress: Callable[[SearchStep], None] | None = None) -> Proposal:
    """Propose fixes for ``arena``'s findings at or above ``severity`` (only those of ``code``,
    naming ``elements`` when given), moving only the kinds ``free`` (default: every kind the game's
    hook knows), within ``budget`` seconds of ``clock`` (default ``time.monotonic``, read when
    called).  ``report``: the arena's report with ``options``, if already made.  Raises
    ``LookupError`` for a game without a hook, ``ValueError`` for an unknown free kind and
    :class:`Cancelled` when ``should_stop()`` says so.  ``progress(step)`` (a
    :class:`SearchStep`) is called before the first validation and after each one."""
    clock = time.monotonic if clock is None else clock
    hook = hook_of(arena)
    chosen = list(hook.free) if free is None else list(free)
    unknown = [f for f in chosen if f not in hook.free]
    if unknown:
        raise ValueError(f"cannot free {', '.join(unknown)}: the kinds that may move are {', '.join(hook.free)}")
    search = _Search(hook, options, chosen, budget, should_stop, clock, progress)
    t0 = clock()
    before = report if report is not None else search.validate(arena)
    wanted = [f for f in before.findings if (code is None or f.code == code)
              and (code is not None or at_least(f.severity, severity))
              and (not elements or set(elements) <= set(f.elements))]
    current, current_report = arena, before
    fixes: list[Fix] = []
    for finding in wanted:
        if finding_key(finding) not in {finding_key(f) for f in current_report.findings}:
            fixes.append(Fix(finding, "fixed", note="removed by the edits above"))
            continue
        if search.stopped:
            fixes.append(Fix(finding, "stopped", note="the time budget ran out"))
            continue
        fix, current, current_report = search.fix(current, current_report, finding)
        fixes.append(fix)
    return Proposal(current, before, current_report, fixes, hook.unit, budget, clock() - t0, search.validations,
                    search.stopped)


def _gone(finding: Finding, before: Report, after: Report) -> bool:
    key = finding_key(finding)
    if any(finding_key(f) == key for f in after.findings):
        return False
    return sum(f.code == finding.code for f in after.findings) < sum(f.code == finding.code for f in before.findings)


def _counts(findings: Iterable[Finding], severity: str = "info") -> dict[str, int]:
    out: dict[str, int] = {}
    for f in findings:
        if at_least(f.severity, severity):
            out[f.code] = out.get(f.code, 0) + 1
    return out


#: The singular of the hooks' plural units ("move Z3 by 1 hex", "by 2 hexes").
_SINGULAR = {"lengths": "length", "hexes": "hex", "squares": "square"}


def _units(size: str, unit: str) -> str:
    """``unit`` as it reads after the printed ``size``."""
    return _SINGULAR.get(unit, unit) if size == "1" else unit


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _rounded(v: float | None) -> float | None:
    return None if v is None else round(float(v), 3)
