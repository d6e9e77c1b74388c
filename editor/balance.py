"""Propose fix: the Validation panel's action on a finding (its context menu, or the "Propose fix"
button under the list).

The search (:func:`validators.balance.propose`, the same as ``arena balance --code CODE --element
REF...``) runs in a child process (:func:`editor.validation.call_in_child`, at a lower priority)
from a worker thread, so the editor never waits; the progress dialog shows at once, then the
search's stage and count of validations as they come; its Cancel kills the child at once.  The
moved elements are put on the window's snap grid where that keeps the fix
(:func:`editor.snapping.snap_checked`).  The proposal is shown
as a ghost on the canvas - each moved element drawn translucent at its new place with an arrow
from where it is - and its edits in words above the panel's Apply / Discard buttons.  Apply pushes
ONE undo step (:class:`ApplyFix`); an edit of the arena meanwhile discards the proposal (it was for
the arena as it was).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (QGraphicsItem, QHBoxLayout, QLabel, QMenu, QProgressDialog, QPushButton,
                               QStyleOptionGraphicsItem, QVBoxLayout, QWidget)

from editor import elements as E
from editor import grid_render
from editor import render as R
from editor.commands import ArenaCommand, check_no_new_problems
from editor.snapping import grid_point, snap_checked
from editor.validation import Cancelled, call_in_child
from editor.warm_pool import BACKGROUND_NICE

#: Seconds the editor's search may take (the CLI's default).
BUDGET = 30.0
#: The progress report after the search: the moved elements are being put on the snap grid.
SNAPPING = "snapping"
#: Steps of the progress bar (the share of the budget used).
STEPS = 1000
GHOST_Z = 60.0  # over every element and the travel path
GHOST_OPACITY = 0.45


def propose_for(arena: Any, code: str, elements: tuple[str, ...], budget: float, step: float = 0.0,
                progress: Callable[[Any], None] | None = None) -> dict[str, Any]:
    """The child's work: the proposal for one finding, as plain picklable values.  ``arena`` is
    the proposal as searched; ``applied`` what Apply puts in the editor: its moved elements on
    the ``step`` snap grid when that keeps the fix (:func:`editor.snapping.snap_checked`; ``snap``
    says what happened).  ``progress`` gets the search's reports (:class:`~validators.balance.SearchStep`)."""
    from validators.balance import propose

    p = propose(arena, code=code, elements=elements, budget=budget, progress=progress)
    applied, snap, edits = p.arena, "", list(p.edits)
    if p.changed and step > 0:
        if progress is not None:
            progress(SNAPPING)
        got = snap_checked(p.arena, p.moved_refs(), step, report=p.after)
        applied, snap = got.arena, got.note
        if got.snapped:  # the words say the moves Apply makes
            edits = _snapped_edits(arena, applied, edits)
    return {"arena": p.arena, "applied": applied, "snap": snap, "words": [e.words(p.unit) for e in edits],
            "refs": p.moved_refs(), "fixes": [(f.status, f.note) for f in p.fixes], "stopped_early": p.stopped_early,
            "changed": p.changed, "seconds": p.seconds, "validations": p.validations}


def _snapped_edits(before: Any, after: Any, edits: list[Any]) -> list[Any]:
    """``edits`` with each element's move as it is in ``after`` (snapped): from its grid point
    in ``before`` to that in ``after`` (an element moved by two edits keeps their own moves)."""
    import dataclasses

    refs = [e.ref for e in edits]
    out = []
    for e in edits:
        a, b = E.find(before, e.ref), E.find(after, e.ref)
        pa, pb = (grid_point(a) if a is not None else None), (grid_point(b) if b is not None else None)
        if refs.count(e.ref) == 1 and pa is not None and pb is not None:
            e = dataclasses.replace(e, dx=round(pb[0] - pa[0], 9), dy=round(pb[1] - pa[1], 9))
        out.append(e)
    return out


class ApplyFix(ArenaCommand):
    """Apply a proposed fix: the arena it was computed for becomes the fixed one (one undo step;
    the fix is symmetric already, so symmetry mode adds nothing)."""

    symmetric = False

    def __init__(self, doc: Any, fixed: Any, refs: list[str], text: str) -> None:
        self.fixed, self.refs = fixed, refs
        if fixed == doc.arena:
            raise ValueError("nothing changes")
        super().__init__(doc, text)
        check_no_new_problems(self.before, self.after)

    def apply(self, arena: Any) -> Any:
        return self.fixed

    def selection_after_default(self) -> list[str]:
        return [r for r in self.refs if E.find(self.fixed, r) is not None]


class GhostLayer(QGraphicsItem):
    """The moved elements drawn translucent at their new place, an arrow from each old place."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[Any, Any]] = []
        self.turbine: Any = None
        #: A grid game's arenas (before, after): its elements are cells, drawn as such.
        self.grid: tuple[Any, Any] | None = None
        self.setZValue(GHOST_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_fix(self, before: Any, after: Any, refs: list[str]) -> None:
        self.prepareGeometryChange()
        self.pairs = [(E.find(before, r), E.find(after, r)) for r in refs]
        self.pairs = [(a, b) for a, b in self.pairs if a is not None and b is not None]
        self.turbine = getattr(after, "turbine", None)
        self.grid = (before, after) if after is not None and grid_render.is_grid(after) else None
        self.setVisible(bool(self.pairs))
        self.update()

    def clear(self) -> None:
        self.set_fix(None, None, [])

    def _anchor(self, el: Any, which: int) -> tuple[float, float]:
        if self.grid is None:
            return E.anchor(el)
        arena = self.grid[which]
        pts = [grid_render.layout(arena).center(c) for c in grid_render.element_cells(arena, el.id)]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)) if pts else (0.0, 0.0)

    def boundingRect(self) -> QRectF:
        pts = [self._anchor(el, i) for pair in self.pairs for i, el in enumerate(pair)]
        if not pts:
            return QRectF()
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return QRectF(min(xs) - 4, min(ys) - 4, max(xs) - min(xs) + 8, max(ys) - min(ys) + 8)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        for old, new in self.pairs:
            painter.save()
            painter.setOpacity(GHOST_OPACITY)
            if self.grid is not None:
                after = self.grid[1]
                painter.setPen(R.pen(QColor(R.INK), 1.5))
                painter.setBrush(grid_render.ZONE)
                painter.drawPath(grid_render.cells_path(grid_render.layout(after), grid_render.element_cells(after, new.id)))
            elif self.turbine is not None:
                R.paint_element(painter, new, self.turbine)
            else:
                R.paint_element(painter, new)
            painter.restore()
            a, b = self._anchor(old, 0), self._anchor(new, 1)
            if math.dist(a, b) > 1e-6:
                R.draw_arrow(painter, QPointF(*a), QPointF(*b), QColor(R.VERMILLION), 2.0)


class _Signals(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)
    progress = Signal(int, object)


def snap_step(win: Any, system: str | None = None) -> float:
    """The window's snap grid step for a fix of its arena or a generated arena of ``system``
    (0: snapping off, or a grid game, whose elements are cells already)."""
    view = win.view
    system = system if system is not None else str(getattr(win.doc.arena, "system", ""))
    from schema.ruleset import UnknownSystem, ruleset

    try:
        grid = ruleset(system).grid is not None
    except UnknownSystem:
        grid = False
    return float(view.snap_step) if view.snap_enabled and view.snap_step > 0 and not grid else 0.0


class FixBar(QWidget):
    """Under the findings, only while a proposal is shown: the proposal in words, Apply and
    Discard.  ``propose`` is the "Propose fix" button, beside the panel's status line (so the
    findings keep their height)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QLabel()
        self.text.setWordWrap(True)
        layout.addWidget(self.text)
        row = QHBoxLayout()
        self.propose = QPushButton("Propose fix")
        self.propose.setToolTip("Search the smallest symmetric move that removes the selected finding")
        self.apply = QPushButton("Apply fix")
        self.discard = QPushButton("Discard")
        for b in (self.apply, self.discard):
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)
        self.show_proposal(None)

    def show_proposal(self, text: str | None, can_apply: bool = False) -> None:
        self.text.setText(text or "")
        self.apply.setVisible(can_apply)
        self.setVisible(bool(text))


class ProposeFix(QObject):
    """The action, the worker, the ghost and the link to the panel and the undo stack."""

    proposed = Signal(dict)
    failed = Signal(str)

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.signals = _Signals(self)
        self.signals.done.connect(self._done)
        self.signals.failed.connect(self._failed)
        self.signals.progress.connect(self._progress)
        self.ghost = GhostLayer()
        self.ghost.setVisible(False)
        win.scene.addItem(self.ghost)
        self.bar = FixBar()
        panel = win.validation
        panel.layout().addWidget(self.bar)
        top = QHBoxLayout()  # the status line and the Propose fix button share one row
        top.setContentsMargins(0, 0, 0, 0)
        panel.layout().removeWidget(panel.status)
        top.addWidget(panel.status, 1)
        top.addWidget(self.bar.propose)
        panel.layout().insertLayout(0, top)
        self.bar.propose.clicked.connect(self.propose_selected)
        self.bar.apply.clicked.connect(self.apply)
        self.bar.discard.clicked.connect(self.discard)
        panel.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        panel.tree.customContextMenuRequested.connect(self._menu)
        self.dialog: QProgressDialog | None = None
        self.proposal: dict[str, Any] | None = None
        self.arena: Any = None
        self.running = False
        self._id = 0
        self._stop = threading.Event()
        win.doc.arenaChanged.connect(self._edited)

    # -- starting
    def _menu(self, pos: Any) -> QMenu | None:
        """The finding's context menu (at ``pos`` in the list's viewport)."""
        item = self.win.validation.tree.itemAt(pos)
        if item is None:
            return None
        menu = QMenu(self.win.validation.tree)
        act = menu.addAction("Propose fix")
        act.setToolTip("Search the smallest symmetric move that removes this finding")
        act.triggered.connect(lambda: self.start(self._finding(item)))
        menu.popup(self.win.validation.tree.viewport().mapToGlobal(pos))
        return menu

    def _finding(self, item: Any) -> dict[str, Any]:
        from editor.panels import REF_ROLE

        return dict(self.win.validation.findings[item.data(0, REF_ROLE)])

    def propose_selected(self) -> None:
        items = self.win.validation.tree.selectedItems()
        if not items:
            self.win.statusBar().showMessage("Select a finding to propose a fix for", 4000)
            return
        self.start(self._finding(items[0]))

    def start(self, finding: dict[str, Any], budget: float = BUDGET) -> bool:
        """Search a fix for ``finding`` (a panel finding: code, elements) in the background."""
        from validators.balance import hook_of

        arena = self.win.doc.arena
        if finding.get("table"):
            self.win.statusBar().showMessage("That finding is not in the drawn arena: nothing to fix", 6000)
            return False
        try:
            hook_of(arena)
        except LookupError as exc:
            self.win.statusBar().showMessage(str(exc), 8000)
            return False
        self.cancel(quiet=True)
        self._id += 1
        self._stop = threading.Event()
        self.arena, self.running = arena, True
        run, stop = self._id, self._stop
        args = (arena, str(finding["code"]), tuple(finding["elements"]), budget, snap_step(self.win))
        self.code = str(finding["code"])
        # shown at once, busy until the search's first report (a child process starting)
        self.dialog = QProgressDialog(f"Searching a fix for {self.code}: starting the search…", "Cancel", 0, 0,
                                      self.win)
        self.dialog.setWindowTitle("Propose fix")
        self.dialog.setWindowModality(Qt.WindowModality.NonModal)
        self.dialog.setMinimumDuration(0)
        self.dialog.canceled.connect(self.cancel)
        self.dialog.show()
        self.pool.start(lambda: self._work(run, stop, args))
        return True

    def _progress(self, run: int, step: Any) -> None:
        """The search's report: what it is doing, how many validations so far, the budget used."""
        if run != self._id or not self.running or self.dialog is None:
            return
        if step == SNAPPING:
            self.dialog.setRange(0, 0)
            self.dialog.setLabelText(f"Searching a fix for {self.code}: putting the moves on the snap grid "
                                     "(validating again)…")
            return
        if self.dialog.maximum() == 0:
            self.dialog.setRange(0, STEPS)
        if math.isfinite(step.budget) and step.budget > 0:
            self.dialog.setValue(min(STEPS - 1, int(STEPS * step.elapsed / step.budget)))
        self.dialog.setLabelText(f"Searching a fix for {self.code}: {step.doing} "
                                 f"({step.validations} validation{'s' if step.validations != 1 else ''})…")

    def _work(self, run: int, stop: threading.Event, args: tuple[Any, ...]) -> None:
        signals = self.signals
        try:
            result = call_in_child(propose_for, args, stop.is_set, progress=lambda step: signals.progress.emit(run, step),
                                   nice=BACKGROUND_NICE)
        except Cancelled:
            return
        except Exception as exc:  # noqa: BLE001 - shown to the designer
            text = str(exc).strip()
            self.signals.failed.emit(run, text.splitlines()[-1] if text else repr(exc))
            return
        self.signals.done.emit(run, result)

    # -- results
    def _done(self, run: int, result: dict[str, Any]) -> None:
        if run != self._id or not self.running:
            return
        self.running = False
        self._close()
        if self.win.doc.arena is not self.arena:
            return
        self.proposal = result
        if result["changed"]:
            self.ghost.set_fix(self.arena, result.get("applied", result["arena"]), result["refs"])
            text = "Proposed: " + "; ".join(result["words"])
            if result.get("snap"):
                text += f" ({result['snap']})"
        else:
            notes = "; ".join(note for _, note in result["fixes"] if note) or "nothing to fix"
            text = "No fix found: " + notes
        if result["stopped_early"]:
            text += " (stopped early: the time budget ran out)"
        self.bar.show_proposal(text, result["changed"])
        self.win.statusBar().showMessage(text, 8000)
        self.proposed.emit(result)

    def _failed(self, run: int, text: str) -> None:
        if run == self._id and self.running:
            self.running = False
            self._close()
            self.win.statusBar().showMessage("Propose fix failed: " + text, 8000)
            self.failed.emit(text)

    def apply(self) -> bool:
        """Apply the shown proposal as one undo step."""
        p = self.proposal
        if p is None or not p["changed"] or self.win.doc.arena is not self.arena:
            return False
        text = "Fix: " + "; ".join(p["words"])
        try:
            self.win.doc.push(ApplyFix(self.win.doc, p.get("applied", p["arena"]), p["refs"], text[:200]))
        except ValueError as exc:
            self.win.statusBar().showMessage(f"Cannot apply the fix: {exc}", 8000)
            return False
        return True

    def discard(self) -> None:
        self.proposal = None
        self.ghost.clear()
        self.bar.show_proposal(None)

    def cancel(self, quiet: bool = False) -> None:
        self._stop.set()
        self.running = False
        self._close()
        if not quiet:
            self.win.statusBar().showMessage("Propose fix cancelled", 4000)

    def _close(self) -> None:
        if self.dialog is not None:
            dialog, self.dialog = self.dialog, None
            dialog.canceled.disconnect(self.cancel)
            dialog.close()

    def _edited(self, *_args: Any) -> None:
        if self.proposal is not None and self.win.doc.arena is not self.arena:
            self.discard()
        if self.running and self.win.doc.arena is not self.arena:
            self.cancel(quiet=True)

    def shutdown(self) -> None:
        self.cancel(quiet=True)
        self.pool.waitForDone(3000)


def install(win: Any) -> ProposeFix:
    """The Validation panel's "Propose fix" (context menu and button)."""
    return ProposeFix(win)
