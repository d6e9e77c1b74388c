"""Waiting (issue 42, point 9): the generator's workers start when its dialog opens and the search
uses them; progress shows from the first moment (the workers starting, the round being scored,
a proposed fix's stage and count of validations); the status bar says while a validation runs and
the canvas stays usable; proposed fixes and generated arenas land on the snap grid when that keeps
them legal, and say so when it does not.

Searches here are bounded by work, not seconds: the generator's budget counts clock readings
(:func:`tests.clocks.counting_time`), proposals run without a time budget; the waits are safety
nets only."""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog

import validators.generate as gen
from editor.generate import GenerateDialog
from editor.games.gravstrike.travel_workers import WORKER_NAME
from editor.validation import CHILD_NAME
from schema.shapes import Circle
from schema.games.gravstrike.model import Checkpoint
from tests.balance.arenas import mirrored_by_walls
from tests.clocks import counting_time
from tests.editor.conftest import make_arena
from tests.procs import alive
from validators.balance import propose
from validators.run import validate

#: Longest wait for a search or a worker (a safety net).
WAIT_MS = 600_000
UNTIMED = math.inf


def _on_grid(arena: Any, refs: list[str], step: float) -> bool:
    from editor import elements as E
    from editor.snapping import grid_point

    for ref in refs:
        p = grid_point(E.find(arena, ref))  # type: ignore[arg-type]
        if p is not None and any(abs(v / step - round(v / step)) > 1e-9 for v in p):
            return False
    return True


# ------------------------------------------------------------------ generate: workers and progress


def test_the_dialog_starts_the_workers_and_the_search_uses_them(window, qtbot,  # type: ignore[no-untyped-def]
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening File → Generate arena… starts the search's two worker processes (each importing
    the scoring code); the search then runs on those two, starting none; after it they are kept
    (bounded: two, for a while), and closing the window kills them."""
    monkeypatch.setattr(gen, "time", counting_time(0.1))
    g = window.generator
    seen: list[bool] = []
    monkeypatch.setattr(GenerateDialog, "exec", lambda self: seen.append(g.warm.started) or QDialog.DialogCode.Rejected)
    assert not g.ask()
    assert seen == [True]  # started while the dialog was open
    assert "starting 2 worker processes" in g.warm.status()
    qtbot.waitUntil(lambda: g.warm.ready_count == 2, timeout=WAIT_MS)
    pids = g.warm.pids()
    assert len(pids) == 2 and all(alive(p) for p in pids) and g.warm.status() == ""
    lower = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 5)  # the window keeps the cores it paints with
    assert [os.getpriority(os.PRIO_PROCESS, p) for p in pids] == [lower, lower]
    def pool_processes() -> set[int]:
        """Children that are not the window's own (its validation children and travel workers
        come and go with the edits: the generated arena's validation starts one)."""
        return {p.pid for p in multiprocessing.active_children() if p.name not in (CHILD_NAME, WORKER_NAME)}

    children = pool_processes()
    assert g.start(2, "mirror", 3, 2.0, None)
    assert g.warm.in_use
    with qtbot.waitSignal(g.run.finished, timeout=WAIT_MS) as got:
        pass
    assert got.args[0].evaluated > 0
    assert g.warm.pids() == pids and not g.warm.in_use  # the same workers, kept for the next search
    assert pool_processes() <= children  # no process was started for the search
    g.warm.idle.timeout.emit()  # unused for IDLE_MS: ended
    assert not g.warm.started
    qtbot.waitUntil(lambda: not any(alive(p) for p in pids), timeout=WAIT_MS)
    g.prewarm("gravstrike")
    qtbot.waitUntil(lambda: len(g.warm.pids()) == 2, timeout=WAIT_MS)
    again = g.warm.pids()
    g.shutdown()  # the window closing
    assert not g.warm.started
    qtbot.waitUntil(lambda: not any(alive(p) for p in again), timeout=WAIT_MS)


def test_generate_shows_what_it_does_from_the_first_moment(window, qtbot,  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress dialog shows at once, busy (not a bar at 0 %) and saying what happens - the
    round being scored - until the first candidate is in; then the share of the budget."""
    monkeypatch.setattr(gen, "time", counting_time(0.1))
    gate = threading.Event()
    score = gen.score

    def held(*args: Any) -> Any:
        assert gate.wait(WAIT_MS / 1000)
        return score(*args)

    monkeypatch.setattr(gen, "score", held)
    g = window.generator
    g.run.workers = 1  # the search in its thread (the candidates held here)
    assert g.start(2, "mirror", 3, 2.0, None)
    dlg = g.progress_dialog
    assert dlg is not None and dlg.isVisible()
    assert dlg.maximum() == 0 and dlg.labelText().startswith("Generating: ")  # busy, with words
    qtbot.waitUntil(lambda: "round 1, scoring 8 candidates" in dlg.labelText(), timeout=WAIT_MS)
    assert dlg.maximum() == 0
    steps: list[Any] = []
    g.run.progress.connect(steps.append)
    gate.set()
    with qtbot.waitSignal(g.run.finished, timeout=WAIT_MS):
        pass
    assert any(s != "snapping" and s.evaluated > 0 for s in steps)
    assert g.progress_dialog is None


def test_a_generated_arena_lands_on_the_snap_grid(window, qtbot,  # type: ignore[no-untyped-def]
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The best arena's elements are put on the window's snap grid before it opens, validated
    again: it opens on the grid, with no more findings than the search's arena."""
    monkeypatch.setattr(gen, "time", counting_time(0.1))
    g = window.generator
    g.run.workers = 1
    window.snap_box.setValue(0.5)
    assert g.start(2, "mirror", 3, 2.0, None)
    with qtbot.waitSignal(g.run.finished, timeout=WAIT_MS) as got:
        pass
    arena = window.doc.arena
    assert arena is got.args[0].arena
    refs = [el.id for el in arena.elements()]
    if "kept off" in g.run.snap_note:  # snapping would have added a finding: said, and not done
        assert "kept off the 0.5 snap grid" in window.statusBar().currentMessage()
    else:
        assert _on_grid(arena, refs, 0.5)
        assert g.run.snap_note in ("", "snapped to the 0.5 grid")


# ------------------------------------------------------------------ propose fix: progress and the grid


def test_propose_reports_its_stage_and_count() -> None:
    """``progress`` hears of the search before its first validation and after each one: the
    count, the budget used and what it is doing."""
    steps: list[Any] = []
    p = propose(mirrored_by_walls(), code="overlap", elements=("A", "W1"), budget=UNTIMED, progress=steps.append)
    assert steps[0].validations == 0 and steps[0].doing == "validating the arena"
    assert [s.validations for s in steps] == list(range(p.validations + 1))
    assert any(s.doing.startswith("overlap: moving checkpoint A") for s in steps)


def test_propose_fix_shows_progress_and_applies_on_the_grid(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The dialog shows at once (busy), then the search's stage and count of validations as
    they come from the child process; the fix that Apply puts in has its moved elements on the
    snap grid (the search's own moves are not: 3.2 + 0.3125...)."""
    arena = mirrored_by_walls()
    window.doc.reset(arena, None)
    f = next(f for f in validate(arena).findings if f.code == "overlap")
    fixes = window.fixes
    labels: list[str] = []
    fixes.signals.progress.connect(lambda _run, _step: fixes.dialog is not None and labels.append(fixes.dialog.labelText()))
    assert fixes.start({"code": f.code, "elements": list(f.elements)}, budget=UNTIMED)
    assert fixes.dialog is not None and fixes.dialog.isVisible() and fixes.dialog.maximum() == 0
    assert "starting the search" in fixes.dialog.labelText()
    with qtbot.waitSignal(fixes.proposed, timeout=WAIT_MS) as got:
        pass
    result = got.args[0]
    assert any("validations)" in t and "overlap: moving checkpoint A" in t for t in labels)
    assert any("snap grid" in t for t in labels)
    assert result["changed"] and result["validations"] > 1
    assert _on_grid(result["applied"], result["refs"], 0.5) and result["snap"] == "snapped to the 0.5 grid"
    # the words say the move Apply makes: A from y 3.2 to 3.5 (the search's own was 0.3125)
    assert result["applied"].checkpoints[0].shape.center == (3.0, 3.5)
    assert result["words"][0].startswith("move checkpoint A by 0.3 lengths away from wall W1")
    assert fixes.apply() and window.doc.arena == result["applied"]


def test_snapping_that_breaks_a_fix_is_refused_and_said() -> None:
    """A checkpoint 0.04 clear of a wall, off the grid: snapping it would push it into the wall
    (``overlap``), so the arena is kept as it is and the note says why."""
    import dataclasses

    from editor.snapping import snap_checked, snap_elements

    a = make_arena()
    a = dataclasses.replace(a, checkpoints=(Checkpoint("A", "outlying", Circle((-2.26, 0.0), 1.2)),
                                            *a.checkpoints[1:]))
    assert not [x for x in validate(a).findings if x.code == "overlap"]
    snapped = snap_elements(a, ["A"], 0.5)
    assert snapped.checkpoints[0].shape.center == (-2.5, 0.0)  # type: ignore[union-attr]
    got = snap_checked(a, ["A"], 0.5)
    assert got.arena is a and not got.snapped and got.note == "kept off the 0.5 snap grid: snapping would add overlap"
    ok = snap_checked(a, ["T1"], 0.5)  # on the grid already: nothing to do
    assert ok.arena is a and ok.note == ""


def test_snapping_that_breaks_the_declared_symmetry_is_refused() -> None:
    """Three checkpoints a third of a turn apart about the centre: no square grid keeps them
    images of each other, so snapping would add ``symmetry`` findings (infos): refused, said."""
    from editor.snapping import snap_checked
    from schema.shapes import Rect
    from schema.games.gravstrike.model import Arena, Scenario, Symmetry

    at = [(round(6 * math.cos(math.radians(d)), 9), round(6 * math.sin(math.radians(d)), 9)) for d in (90, 210, 330)]
    a = Arena(name="thirds", bounds=Rect((0.0, 0.0), (20.0, 20.0)), symmetry=Symmetry("rotational", 3, (0.0, 0.0), 90.0),
              checkpoints=tuple(Checkpoint(c, "outlying", Circle(p, 0.8)) for c, p in zip("ABC", at)),
              scenario=Scenario(players=3))
    assert not [f for f in validate(a).findings if f.code == "symmetry"]
    got = snap_checked(a, ["A", "B", "C"], 0.5)
    assert got.arena is a and got.note == "kept off the 0.5 snap grid: snapping would add symmetry"


# ------------------------------------------------------------------ the canvas keeps its cores


def niceness() -> int:  # pragma: no cover - the child process
    return os.getpriority(os.PRIO_PROCESS, 0)


def test_a_proposed_fix_searches_at_a_lower_priority(window, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A proposed fix's search (like the generator's workers, above) runs at a lower priority
    than the window: on two cores, the background work no longer takes the CPU the window needs
    to paint its canvas behind the dialogs."""
    import editor.balance
    from editor.validation import Cancelled, call_in_child
    from editor.warm_pool import BACKGROUND_NICE

    here = os.getpriority(os.PRIO_PROCESS, 0)
    assert call_in_child(niceness, (), lambda: False, nice=BACKGROUND_NICE) == min(19, here + BACKGROUND_NICE)
    assert call_in_child(niceness, (), lambda: False) == here
    asked: list[dict[str, Any]] = []

    def recorded(*_args: Any, **kw: Any) -> Any:
        asked.append(kw)
        raise Cancelled  # as if cancelled: nothing shown

    monkeypatch.setattr(editor.balance, "call_in_child", recorded)
    window.doc.reset(mirrored_by_walls(), None)
    assert window.fixes.start({"code": "overlap", "elements": ["A", "W1"]})
    assert window.fixes.pool.waitForDone(WAIT_MS)
    assert asked and asked[0]["nice"] == BACKGROUND_NICE


# ------------------------------------------------------------------ validation: shown, canvas usable


def test_a_long_validation_shows_in_the_status_bar_and_the_canvas_stays_usable(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """While a validation runs (held here), "validating…" and a busy bar show in the status
    bar; an edit meanwhile is made and drawn; when the run is in, they go."""
    gate = threading.Event()

    def held(arena: Any) -> list[Any]:
        gate.wait(WAIT_MS / 1000)
        return []

    busy = window.busy
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=WAIT_MS)  # the window's first run
    assert not busy.shown
    window.runner.analyse = held
    window.runner.run_now(window.doc.arena)
    qtbot.waitUntil(lambda: busy.shown, timeout=WAIT_MS)
    assert busy.label.text() == "validating…" and busy.bar.maximum() == 0
    before = window.doc.arena
    window.doc.set_selection(["W1"])
    window.nudge(0.5, 0.0)  # the canvas takes an edit while the run goes on
    assert window.doc.arena is not before
    image = window.view.grab().toImage()
    assert len({image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}) > 3
    gate.set()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=WAIT_MS)
    assert not busy.shown and busy.label.text() == ""
