"""Background validation: run an ``analyse(arena) -> list[finding dict]`` callable off the
UI thread and publish the newest result.

A finding is a dict ``{code, severity, message, elements: [refs]}`` (severity ``error``,
``warning`` or ``info``). :func:`default_analyse` / :func:`validators_analyse` are **the seam
where the fairness validators plug in**: they run ``validators.run.validate`` (plus the
format layer's checks). The window runs :func:`editor_analysis`: the same in stages
(:class:`StagedAnalysis`), the slow travel validators in a child process.

Runs never block the event loop: each request gets a generation number, work happens on a
``QThreadPool``, a newer request cancels the running job (its child process is terminated)
and results of stale generations are dropped. An analysis may publish partial results
(``finished`` fires per stage; ``busy`` stays true until the last one).
"""

from __future__ import annotations

import inspect
import re
import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from schema import ArenaError, from_document, to_document
from schema.model import Arena

Finding = dict[str, Any]
Analyse = Callable[[Arena], list[Finding]]

_ELEMENT_PTR = re.compile(r"^/(walls|checkpoints|gates|acceleration_fields|exclusion_fields|static_targets|start_positions)/(\d+)")


def refs_for_pointer(arena: Arena, ptr: str) -> list[str]:
    """The element a JSON pointer into the arena document points into (if any)."""
    m = _ELEMENT_PTR.match(ptr)
    if not m:
        return []
    items = getattr(arena, m.group(1))
    i = int(m.group(2))
    return [items[i].id] if i < len(items) else []


def format_findings(arena: Arena) -> list[Finding]:
    """The format layer's checks as findings (errors), located on the elements they are about."""
    try:
        from_document(to_document(arena), source="<arena>")
    except ArenaError as exc:
        return [{"code": "format", "severity": "error", "message": f"{p.pointer or '/'}: {p.message}",
                 "elements": refs_for_pointer(arena, p.pointer)} for p in exc.problems]
    return []


def format_analyse(arena: Arena) -> list[Finding]:
    """The format layer's checks only (no validators): cheap, used by tests and as fallback."""
    return format_findings(arena)


# ------------------------------------------------------------------ the validators seam

def _validators_run(arena: Arena, travel: bool | None, should_stop: Callable[[], bool] | None = None,
                    context: Any = None) -> list[Finding]:
    """Run ``validators.run.validate``: all validators (``travel=None``), only those that need
    no travel (``False``) or only the travel ones (``True``)."""
    from validators.registry import default_registry
    from validators.run import validate

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

    report = validate(arena, disable=skip, progress=progress, context=context)
    return [normalise(f) for f in report.findings]


class Cancelled(Exception):
    """A stale run stopped early."""


def validators_analyse(arena: Arena) -> list[Finding]:
    """SEAM: the fairness validators (``validators.run.validate``) plus the format checks, as
    finding dicts. Runs everything in the calling thread — the runner calls it off the UI
    thread in two stages (see :class:`StagedAnalysis`)."""
    return format_findings(arena) + _validators_run(arena, None)


def quick_findings(arena: Arena, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
    """The format checks and the validators that need no travel (fast)."""
    return format_findings(arena) + _validators_run(arena, False, should_stop)


class LiveTravel:
    """The travel validators for live validation: travel from persistent worker processes that
    keep their searches between edits (:mod:`editor.travel_workers`), then the validators on
    it here.  ``close()`` ends the workers."""

    def __init__(self, workers: int | None = None) -> None:
        self._count = workers
        self._workers: Any = None
        self._submitted: Arena | None = None

    def submit(self, arena: Arena) -> None:
        """Start the workers on ``arena`` now (the job does this before its quick stage, so both
        run at once); the next call with the same arena collects."""
        from editor.travel_workers import WORKERS, TravelWorkers

        if self._workers is None:
            self._workers = TravelWorkers(self._count or WORKERS)
        self._workers.submit(arena)
        self._submitted = arena

    def __call__(self, arena: Arena, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        from editor.travel_workers import Stopped
        from validators.context import AnalysisContext

        stop = should_stop or (lambda: False)
        if self._submitted is not arena:
            self.submit(arena)
        self._submitted = None
        try:
            travel = self._workers.collect(stop)
        except Stopped:
            raise Cancelled() from None
        ctx = AnalysisContext(arena)
        ctx.provide(travel)
        return _validators_run(arena, True, stop, context=ctx)

    def close(self) -> None:
        if self._workers is not None:
            self._workers.close()
            self._workers = None


class StagedAnalysis:
    """The editor's analysis in stages, published as each completes: the format checks and
    the validators that need no travel (well under a second, in the worker thread), then the
    travel validators in a **child process** (they can take long; a stale run's child is
    terminated, so it never holds up a newer run or closing the window).

    Calling the object runs every stage in the calling thread."""

    def __init__(self, quick: Callable[..., list[Finding]] = quick_findings,
                 slow: Callable[[Arena], list[Finding]] | None | str = "live") -> None:
        """``slow``: "live" (:class:`LiveTravel`: persistent workers, incremental), a callable
        run in a fresh child process per run, or None (no travel stage)."""
        self.quick = quick
        self.live = LiveTravel() if slow == "live" else None
        self.slow = None if isinstance(slow, str) else slow

    def stages(self) -> list[tuple[Callable[..., list[Finding]], bool]]:
        """(callable, run in a child process) in order."""
        out: list[tuple[Callable[..., list[Finding]], bool]] = [(self.quick, False)]
        if self.live is not None:
            out.append((self.live, False))
        elif self.slow is not None:
            out.append((self.slow, True))
        return out

    def close(self) -> None:
        if self.live is not None:
            self.live.close()

    def __call__(self, arena: Arena) -> list[Finding]:
        return [f for fn, _ in self.stages() for f in fn(arena)]


def validators_available() -> bool:
    """True when the validators package imports cleanly."""
    try:
        import validators.registry  # noqa: F401
        import validators.run  # noqa: F401
    except Exception:  # noqa: BLE001 - any import failure means: fall back to format checks
        return False
    return True


def default_analyse(arena: Arena) -> list[Finding]:
    """SEAM: everything the validation panel shows, in one call: the validators (when they
    import cleanly) and the format checks."""
    return validators_analyse(arena) if validators_available() else format_findings(arena)


def editor_analysis() -> Analyse:
    """What the editor window runs: :func:`default_analyse` split into stages
    (:class:`StagedAnalysis`) when the validators import cleanly, else the format checks."""
    return StagedAnalysis() if validators_available() else format_analyse


# ------------------------------------------------------------------ worker

class _Signals(QObject):
    done = Signal(int, object, bool)  # generation, list[Finding] | str (error text), final


def _mp_context() -> Any:
    from editor.travel_workers import mp_context

    return mp_context()


def _child(fn: Callable[..., Any], args: tuple[Any, ...], conn: Any) -> None:  # pragma: no cover - child
    try:
        conn.send(("ok", fn(*args)))
    except BaseException:  # noqa: BLE001
        conn.send(("error", traceback.format_exc(limit=3)))
    finally:
        conn.close()


def call_in_child(fn: Callable[..., Any], args: tuple[Any, ...], should_stop: Callable[[], bool],
                  poll_s: float = 0.05) -> Any:
    """``fn(*args)`` in a child process (``fn`` importable, arguments picklable); the child is
    terminated as soon as ``should_stop()`` (raising :class:`Cancelled`)."""
    ctx = _mp_context()
    here, there = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(fn, args, there), daemon=True)
    proc.start()
    there.close()
    try:
        while True:
            if should_stop():
                raise Cancelled()
            if here.poll(poll_s):
                try:
                    status, payload = here.recv()
                except EOFError:
                    raise RuntimeError(f"analysis process died (exit code {proc.exitcode})") from None
                if status != "ok":
                    raise RuntimeError(payload)
                return payload
            if not proc.is_alive() and not here.poll():
                raise RuntimeError(f"analysis process died (exit code {proc.exitcode})")
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join(2.0)
        here.close()


def _normalised(fn: Callable[[Arena], list[Finding]], arena: Arena) -> list[Finding]:
    return [normalise(f) for f in fn(arena)]


def run_isolated(fn: Callable[[Arena], list[Finding]], arena: Arena, should_stop: Callable[[], bool],
                 poll_s: float = 0.05) -> list[Finding]:
    """Run ``fn(arena)`` in a child process; terminate it as soon as ``should_stop()``."""
    return list(call_in_child(_normalised, (fn, arena), should_stop, poll_s))


class _Job(QRunnable):
    def __init__(self, generation: int, arena: Arena, analyse: Analyse, signals: _Signals) -> None:
        super().__init__()
        self.generation, self.arena, self.analyse, self.signals = generation, arena, analyse, signals
        self.cancelled = threading.Event()
        self.setAutoDelete(True)

    def run(self) -> None:
        stages = self.analyse.stages() if hasattr(self.analyse, "stages") else [(self.analyse, False)]
        found: list[Finding] = []
        stop = self.cancelled.is_set
        try:
            for fn, _ in stages:  # background stages start first, to run alongside the quick one
                submit = getattr(fn, "submit", None)
                if callable(submit):
                    submit(self.arena)
            for i, (fn, isolated) in enumerate(stages):
                if stop():
                    return
                if isolated:
                    part = run_isolated(fn, self.arena, stop)
                elif _takes_should_stop(fn):
                    part = fn(self.arena, should_stop=stop)
                else:
                    part = fn(self.arena)
                found += [normalise(f) for f in part]
                self.signals.done.emit(self.generation, list(found), i == len(stages) - 1)
        except Cancelled:
            return
        except Exception:  # noqa: BLE001 - reported in the panel, never crashes the editor
            self.signals.done.emit(self.generation, traceback.format_exc(limit=3), True)


def _takes_should_stop(fn: Callable[..., Any]) -> bool:
    try:
        return "should_stop" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def normalise(f: Any) -> Finding:
    """Accept dicts or objects with code/severity/message/elements attributes."""
    get = f.get if isinstance(f, dict) else (lambda k, d=None: getattr(f, k, d))
    out: Finding = {"code": str(get("code", "")), "severity": str(get("severity", "warning")),
                    "message": str(get("message", "")), "elements": [str(e) for e in (get("elements", []) or [])]}
    path = get("path", None)
    if path:
        out["path"] = [dict(step) for step in path]
    return out


class ValidationRunner(QObject):
    """``request(arena)`` debounces, then runs ``analyse`` in the pool; ``finished`` carries
    the newest generation's findings; ``failed`` an error text; ``started`` a generation."""

    started = Signal(int)
    finished = Signal(list)
    failed = Signal(str)

    def __init__(self, analyse: Analyse = format_analyse, parent: QObject | None = None,
                 debounce_ms: int = 30) -> None:
        super().__init__(parent)
        self.analyse = analyse
        self.generation = 0
        self.completed_generation = 0
        self.findings: list[Finding] = []
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.done.connect(self._done)
        self._pending: Arena | None = None
        self._job: _Job | None = None
        self.final = True  # the last published findings are complete
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._launch)

    @property
    def busy(self) -> bool:
        return self.completed_generation < self.generation or self._timer.isActive()

    def request(self, arena: Arena) -> None:
        """Validate ``arena`` soon (coalescing quick successive edits)."""
        self._pending = arena
        self._timer.start()

    def run_now(self, arena: Arena) -> int:
        """Start a run immediately; returns its generation."""
        self._timer.stop()
        self._pending = arena
        return self._launch()

    def _launch(self) -> int:
        arena, self._pending = self._pending, None
        if arena is None:
            return self.generation
        self.generation += 1
        self.pool.clear()  # queued-but-unstarted older runs are dropped
        if self._job is not None:
            self._job.cancelled.set()  # a running older job stops (its child process is killed)
        self._job = _Job(self.generation, arena, self.analyse, self._signals)
        self.pool.start(self._job)
        self.started.emit(self.generation)
        return self.generation

    def _done(self, generation: int, result: object, final: bool = True) -> None:
        if generation != self.generation:
            return  # stale: a newer run was requested meanwhile
        if final:
            self.completed_generation = generation
            self._job = None
        self.final = final
        if isinstance(result, str):
            self.failed.emit(result)
            return
        assert isinstance(result, list)
        self.findings = result
        self.finished.emit(result)

    def shutdown(self) -> None:
        self._timer.stop()
        self.pool.clear()
        if self._job is not None:
            self._job.cancelled.set()
        self.pool.waitForDone(5000)
        close = getattr(self.analyse, "close", None)
        if callable(close):
            close()
