"""Background validation: run an ``analyse(arena) -> list[finding dict]`` callable off the
UI thread and publish the newest result.

A finding is a dict ``{code, severity, message, elements: [refs]}`` (severity ``error``,
``warning`` or ``info``). :func:`default_analyse` / :func:`validators_analyse` (Qt-free, in
:mod:`editor.analysis`) are **the seam where the fairness validators plug in**: they run
``validators.run.validate`` (plus the format layer's checks). A game's editor
runs the same in stages (:class:`StagedAnalysis`); Gravstrike's
(:func:`editor.games.gravstrike.live_travel.editor_analysis`) runs them on persistent workers
(:class:`~editor.games.gravstrike.live_travel.LiveTravel`): the travel findings come first
from the workers' kept searches, then - where those answers were provisional - from new searches
of the edited version (:class:`~editor.games.gravstrike.live_travel.ExactTravel`, which replaces them), so that the findings a run
ends on are what ``arena validate`` finds for that version, whatever the edits before it.

Runs never block the event loop: each request gets a generation number (an edit made while
nothing runs starts at once; a burst coalesces), work happens on a ``QThreadPool``, a newer
request cancels the running job (the workers stop between two batches; a child process is
terminated) and results of stale generations are dropped. An analysis may publish partial
results (``finished`` fires per stage when the next one takes longer than
:data:`PARTIAL_HOLD_S`; ``busy`` stays true until the last one); while a later stage runs,
:attr:`ValidationRunner.running` names it (:func:`stage_name`: each stage says what its checks
are, Gravstrike's and Car Wars' "travel checks", Arena Rex's "fairness checks") and the
validation panel's status line says so.
"""

from __future__ import annotations

import inspect
import os
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from editor.analysis import (  # the seam's names, re-exported (``X as X``)
    Analyse as Analyse,
    Cancelled as Cancelled,
    Finding as Finding,
    default_analyse as default_analyse,
    format_analyse as format_analyse,
    format_findings as format_findings,
    normalise as normalise,
    quick_findings as quick_findings,
    refs_for_pointer as refs_for_pointer,
    validators_analyse as validators_analyse,
    validators_available as validators_available,
    validators_run as validators_run,
)
from schema.io import TypedArena

#: What a stage's checks are called when the stage does not say (:func:`stage_name`).
STAGE = "further checks"


def stage_name(fn: object, default: str = STAGE) -> str:
    """What the checks of the stage ``fn`` are called in the status line: its ``stage``
    attribute ("travel checks", "fairness checks"), else ``default``."""
    return str(getattr(fn, "stage", default))


def combined(parts: list[tuple[Callable[..., Any], list[Finding]]]) -> list[Finding]:
    """The findings of stages run in order (each stage with its findings): a stage that
    ``replaces_previous`` takes the place of the one before it.

    >>> class Redo:
    ...     replaces_previous = True
    >>> combined([(print, ["quick"]), (print, ["provisional"]), (Redo(), ["exact"])])
    ['quick', 'exact']
    """
    found: list[Finding] = []
    start = 0
    for fn, part in parts:
        if getattr(fn, "replaces_previous", False):
            del found[start:]
        start = len(found)
        found += part
    return found


class StagedAnalysis:
    """The editor's analysis in stages, published as each completes: the format checks and
    the validators that need no travel, then the travel validators.

    With a ``live`` stage (Gravstrike's
    :class:`~editor.games.gravstrike.live_travel.LiveTravel`) both run on its persistent workers;
    with a ``slow`` callable the quick stage runs in the calling thread and the slow one in a
    **child process** per run (terminated when stale, so it never holds up a newer run or
    closing the window).  Calling the object runs every stage in the calling thread."""

    def __init__(self, quick: Callable[..., list[Finding]] | None = None,
                 slow: Callable[[TypedArena], list[Finding]] | None = None, live: Any = None) -> None:
        """``quick``: the quick stage (default: :func:`quick_findings`, on the workers when
        live); ``slow``: a callable run in a fresh child process per run, or None (no travel stage);
        ``live``: a stage on persistent workers, incremental (``quick``, ``close``, ``serves_quick``
        and perhaps ``exact_stage``), in place of ``slow``."""
        self.live = live
        self.quick: Callable[..., list[Finding]] = quick or (self.live.quick if self.live else quick_findings)
        if self.live is not None and quick is not None:
            self.live.serves_quick = False
        self.slow = None if isinstance(slow, str) else slow
        #: Further stages run in the thread after those (each skipped where ``applies`` says so).
        self.more: list[Callable[..., list[Finding]]] = []

    def stages(self) -> list[tuple[Callable[..., list[Finding]], bool]]:
        """(callable, run in a child process) in order."""
        out: list[tuple[Callable[..., list[Finding]], bool]] = [(self.quick, False)]
        if self.live is not None:
            out.append((self.live, False))
            exact = getattr(self.live, "exact_stage", None)  # Gravstrike's: the final travel findings
            if exact is not None:
                out.append((exact, False))
        elif self.slow is not None:
            out.append((self.slow, True))
        return out + [(fn, False) for fn in self.more]

    def close(self) -> None:
        if self.live is not None:
            self.live.close()
        for fn in self.more:
            getattr(fn, "close", lambda: None)()

    def __call__(self, arena: TypedArena) -> list[Finding]:
        return combined([(fn, fn(arena)) for fn, _ in self.stages()])


# ------------------------------------------------------------------ worker

class _Signals(QObject):
    done = Signal(int, object, str)  # generation, list[Finding] | str (error text), "" final | the stage still running


def _mp_context() -> Any:
    from editor.processes import mp_context

    return mp_context()


def _child(fn: Callable[..., Any], args: tuple[Any, ...], conn: Any, line: Any = None,
           report: bool = False, nice: int = 0) -> None:  # pragma: no cover - child
    if line is not None:  # exit with the editor (editor.lifeline)
        from editor.lifeline import watch

        watch(line)
    if nice > 0 and hasattr(os, "nice"):
        os.nice(nice)
    try:
        if report:  # ``fn`` reports its progress: each report goes to the parent as it comes
            conn.send(("ok", fn(*args, progress=lambda step: conn.send(("progress", step)))))
        else:
            conn.send(("ok", fn(*args)))
    except BaseException:  # noqa: BLE001
        conn.send(("error", traceback.format_exc(limit=3)))
    finally:
        conn.close()


#: The name of a process :func:`call_in_child` starts (``ps``, tests telling it from a pool's).
CHILD_NAME = "arena-editor-child"


def call_in_child(fn: Callable[..., Any], args: tuple[Any, ...], should_stop: Callable[[], bool],
                  poll_s: float = 0.05, progress: Callable[[Any], None] | None = None, nice: int = 0) -> Any:
    """``fn(*args)`` in a child process (``fn`` importable, arguments picklable); the child is
    terminated as soon as ``should_stop()`` (raising :class:`Cancelled`).  With ``progress``,
    ``fn`` is called with a ``progress`` keyword too, and what the child passes it (picklable)
    is handed to ``progress`` here as it comes.  ``nice``: the child runs at that much lower a
    priority."""
    ctx = _mp_context()
    here, there = ctx.Pipe(duplex=False)
    from editor.lifeline import lifeline

    proc = ctx.Process(target=_child, args=(fn, args, there, lifeline(ctx), progress is not None, nice),
                       daemon=True, name=CHILD_NAME)
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
                if status == "progress" and progress is not None:
                    progress(payload)
                    continue
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


def _normalised(fn: Callable[[TypedArena], list[Finding]], arena: TypedArena) -> list[Finding]:
    return [normalise(f) for f in fn(arena)]


def run_isolated(fn: Callable[[TypedArena], list[Finding]], arena: TypedArena, should_stop: Callable[[], bool],
                 poll_s: float = 0.05) -> list[Finding]:
    """Run ``fn(arena)`` in a child process; terminate it as soon as ``should_stop()``."""
    return list(call_in_child(_normalised, (fn, arena), should_stop, poll_s))


#: A stage's findings wait this long for the next stage's before they are shown alone, so that
#: a run whose travel comes back quickly updates the panel and the canvas once, not twice.
PARTIAL_HOLD_S = 0.12


class _Job(QRunnable):
    def __init__(self, generation: int, arena: TypedArena, analyse: Analyse, signals: _Signals) -> None:
        super().__init__()
        self.generation, self.arena, self.analyse, self.signals = generation, arena, analyse, signals
        self.cancelled = threading.Event()
        self.setAutoDelete(True)
        self._held: tuple[float, list[Finding], str] | None = None

    def _stop(self) -> bool:
        """The stages' ``should_stop``: also publishes held partial findings when their time is up."""
        held = self._held
        if held is not None and time.monotonic() >= held[0]:
            self._held = None
            self.signals.done.emit(self.generation, held[1], held[2])
        return self.cancelled.is_set()

    def run(self) -> None:
        stages: list[tuple[Callable[..., list[Finding]], bool]] = (
            self.analyse.stages() if hasattr(self.analyse, "stages") else [(self.analyse, False)])
        # a stage with nothing to do for this arena (``fn.applies(arena)`` false) is not run at all:
        # no child process, and the stage before it publishes the final findings
        stages = [(fn, iso) for fn, iso in stages if getattr(fn, "applies", lambda _a: True)(self.arena)]
        found: list[Finding] = []
        start = 0  # where the last stage's findings begin (a stage may replace them)
        stop = self._stop
        try:
            for fn, _ in stages:  # the workers start on the whole run at once
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
                if getattr(fn, "replaces_previous", False):
                    del found[start:]
                start = len(found)
                found += [normalise(f) for f in part]
                final = i == len(stages) - 1
                if final:
                    self._held = None
                    self.signals.done.emit(self.generation, list(found), "")
                else:  # shown when the next stage takes longer than PARTIAL_HOLD_S
                    nxt, isolated_next = stages[i + 1]  # the child-process stage: StagedAnalysis's travel
                    hold = float(getattr(nxt, "hold_s", getattr(self.analyse, "partial_hold_s", PARTIAL_HOLD_S)))
                    running = stage_name(nxt, "travel checks" if isolated_next else STAGE)
                    self._held = (time.monotonic() + hold, list(found), running)
        except Cancelled:
            return
        except Exception:  # noqa: BLE001 - reported in the panel, never crashes the editor
            self.signals.done.emit(self.generation, traceback.format_exc(limit=3), "")


def _takes_should_stop(fn: Callable[..., Any]) -> bool:
    try:
        return "should_stop" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


class ValidationRunner(QObject):
    """``request(arena)`` runs ``analyse`` in the pool (debounced while a run is going); ``finished`` carries
    the newest generation's findings; ``failed`` an error text; ``started`` a generation."""

    started = Signal(int)
    finished = Signal(list)
    failed = Signal(str)

    def __init__(self, analyse: Analyse = format_analyse, parent: QObject | None = None,
                 debounce_ms: int = 30) -> None:
        super().__init__(parent)
        self.analyse = analyse
        #: Each other game's analysis (:meth:`analyse_for`), by game id.
        self.game_analyses: dict[str, Analyse] = {}
        self.generation = 0
        self.completed_generation = 0
        self.findings: list[Finding] = []
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.done.connect(self._done)
        self._pending: TypedArena | None = None
        #: What the next run judges (the window sets it: which player count), kept as :attr:`note`.
        self.pending_note = ""
        #: Codes the next run's findings leave out: the checks of the arena as built when it judges
        #: a subset of the starts (:attr:`schema.starts.StartSlots.whole_arena_codes`; the
        #: whole arena's run reports them).
        self.pending_drop: frozenset[str] = frozenset()
        #: Each launched run's note (which player count it judged) and codes left out, by generation.
        self._notes: dict[int, str] = {}
        self._drops: dict[int, frozenset[str]] = {}
        #: What the run whose findings were published last judged (its :attr:`pending_note`).
        self.note = ""
        self._job: _Job | None = None
        self.final = True  # the last published findings are complete
        #: What the stage still running after the last published findings checks ("" when final).
        self.running = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._launch)

    @property
    def busy(self) -> bool:
        return self.completed_generation < self.generation or self._timer.isActive()

    def request(self, arena: TypedArena) -> None:
        """Validate ``arena``: at once when nothing is running (the first edit after a pause is
        validated without delay), else after ``debounce_ms`` of quiet (a burst of edits - nudging
        with the arrow keys, typing in the inspector - coalesces into one run)."""
        self._pending = arena
        if self._timer.isActive() or (self._job is not None and not self._job.cancelled.is_set()):
            self._timer.start()
        else:
            self._launch()

    def run_now(self, arena: TypedArena) -> int:
        """Start a run immediately; returns its generation."""
        self._timer.stop()
        self._pending = arena
        return self._launch()

    def _launch(self) -> int:
        arena, self._pending = self._pending, None
        if arena is None:
            return self.generation
        self.generation += 1
        self._notes = {self.generation: self.pending_note}  # older runs' findings are never published
        self._drops = {self.generation: self.pending_drop}
        self.pool.clear()  # queued-but-unstarted older runs are dropped
        if self._job is not None:
            self._job.cancelled.set()  # a running older job stops (its child process is killed)
        self._job = _Job(self.generation, arena, self.analyse_for(arena), self._signals)
        self.pool.start(self._job)
        self.started.emit(self.generation)
        return self.generation

    def analyse_for(self, arena: TypedArena) -> Analyse:
        """The runner's analysis (``analyse``) for an arena of the game whose own model the
        window is written for; another game's (:meth:`editor.game.EditorGame.analysis`), made
        once per game, for any other arena."""
        from editor.game import game_of

        game = game_of(arena)
        if not game.schema_driven:
            return self.analyse
        if game.system not in self.game_analyses:
            self.game_analyses[game.system] = game.analysis()
        return self.game_analyses[game.system]

    def _done(self, generation: int, result: object, running: str = "") -> None:
        """``running``: "" for a run's final findings, else what its stage still running checks."""
        if generation != self.generation:
            return  # stale: a newer run was requested meanwhile
        final = not running
        if final:
            self.completed_generation = generation
            self._job = None
        self.final, self.running = final, running
        if isinstance(result, str):
            self.failed.emit(result)
            return
        assert isinstance(result, list)
        self.note = self._notes.get(generation, "")
        drop = self._drops.get(generation, frozenset())
        if drop:
            result = [f for f in result if f.get("code") not in drop]
        self.findings = result
        self.finished.emit(result)

    def shutdown(self) -> None:
        self._timer.stop()
        self.pool.clear()
        if self._job is not None:
            self._job.cancelled.set()
        self.pool.waitForDone(5000)
        for analyse in (self.analyse, *self.game_analyses.values()):
            close = getattr(analyse, "close", None)
            if callable(close):
                close()
