"""What the validation panel shows, without Qt: the format layer's checks and the fairness
validators (``validators.run.validate``) as finding dicts ``{code, severity, message,
elements: [refs]}`` (severity ``error``, ``warning`` or ``info``; travel findings may carry a
``path``).  :mod:`editor.validation` runs these off the UI thread; the travel workers
(:mod:`editor.games.gravstrike.travel_workers`) run the quick stage in their processes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from schema import ArenaError, from_document, to_document
from schema.io import TypedArena

Finding = dict[str, Any]
Analyse = Callable[[TypedArena], list[Finding]]


def refs_for_pointer(arena: TypedArena, ptr: str) -> list[str]:
    """The element a JSON pointer into the arena document points into (if any): an item of one
    of its game's element kinds (``/walls/3/shape`` -> the fourth wall's id)."""
    from schema.ruleset import UnknownSystem, ruleset

    parts = ptr.strip("/").split("/")
    if len(parts) < 2 or not parts[1].isdigit():
        return []
    try:
        keys = {k.key for k in ruleset(str(arena.system)).kinds}
    except UnknownSystem:
        return []
    if parts[0] not in keys:
        return []
    items = getattr(arena, parts[0], ())
    i = int(parts[1])
    return [str(items[i].id)] if i < len(items) else []


def format_findings(arena: TypedArena) -> list[Finding]:
    """The format layer's checks as findings (errors), located on the elements they are about."""
    try:
        from_document(to_document(arena), source="<arena>")
    except ArenaError as exc:
        return [{"code": "format", "severity": "error", "message": f"{p.pointer or '/'}: {p.message}",
                 "elements": refs_for_pointer(arena, p.pointer)} for p in exc.problems]
    return []


def format_analyse(arena: TypedArena) -> list[Finding]:
    """The format layer's checks only (no validators): cheap, used by tests and as fallback."""
    return format_findings(arena)


def validators_run(arena: TypedArena, travel: bool | None, should_stop: Callable[[], bool] | None = None,
                    context: Any = None) -> list[Finding]:
    """Run ``validators.run.validate``: all validators (``travel=None``), only those that need
    no travel (``False``) or only the travel ones (``True``) - under ``arena validate``'s caps
    (:func:`validators.run.default_limits`), unless a budget is active already (a worker's)."""
    from validators.registry import default_registry
    from validators.run import default_limits, validate

    reg = default_registry()
    codes = reg.codes()
    if travel is None:
        skip: list[str] = []
    else:
        skip = [c for c in codes if bool(getattr(reg.get(c), "needs_travel", True)) != travel]
    if len(skip) == len(codes):
        return []

    def progress(_code: str, _i: int, _n: int) -> None:
        if should_stop is not None and should_stop():
            raise Cancelled()

    report = validate(arena, disable=skip, progress=progress, context=context, limits=default_limits())
    return [normalise(f) for f in report.findings]


class Cancelled(Exception):
    """A stale run stopped early."""


def validators_analyse(arena: TypedArena) -> list[Finding]:
    """SEAM: the fairness validators (``validators.run.validate``) plus the format checks, as
    finding dicts. Runs everything in the calling thread — the runner calls it off the UI
    thread in two stages (see :class:`StagedAnalysis`)."""
    return format_findings(arena) + validators_run(arena, None)


def quick_findings(arena: TypedArena, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
    """The format checks and the validators that need no travel (fast)."""
    return format_findings(arena) + validators_run(arena, False, should_stop)


def validators_available() -> bool:
    """True when the validators package imports cleanly."""
    try:
        import validators.registry  # noqa: F401
        import validators.run  # noqa: F401
    except Exception:  # noqa: BLE001 - any import failure means: fall back to format checks
        return False
    return True


def default_analyse(arena: TypedArena) -> list[Finding]:
    """SEAM: everything the validation panel shows, in one call: the validators (when they
    import cleanly) and the format checks."""
    return validators_analyse(arena) if validators_available() else format_findings(arena)


def normalise(f: Any) -> Finding:
    """Accept dicts or objects with code/severity/message/elements attributes."""
    get = f.get if isinstance(f, dict) else (lambda k, d=None: getattr(f, k, d))
    out: Finding = {"code": str(get("code", "")), "severity": str(get("severity", "warning")),
                    "message": str(get("message", "")), "elements": [str(e) for e in (get("elements", []) or [])]}
    path = get("path", None)
    if path:
        out["path"] = [dict(step) for step in path]
    tier = get("tier", None)
    if tier is not None:  # a finding that holds only from some VP tier (a report of every tier)
        out["tier"] = int(tier)
    return out
