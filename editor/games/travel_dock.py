"""The Car Wars travel-time dock (the "Travel times" dock for a Car Wars arena, as Gravstrike's
table is for Gravstrike): one row per start and goal - each checkpoint card, the centre, each
other start - with the fewest turns and the driving-roll dice under both policies (``safe``,
``flat-out``), the best start per goal in bold and the worst in red, "unreachable", "beyond N"
and "undecided" written as such.  Selecting a row draws that plan on the canvas (the safe or
flat-out one by the column clicked; the overlays' policy from the start and goal columns).

The answers come from the live validation's kept searches (:class:`editor.games.kept_travel.CarWarsTravel`
answers every start to every card, the centre and every other start under both policies): when
its final findings for the current arena arrive, the dock shows its answers and runs no search
of its own.  When it has none (validation off, or a cold table after a search that did not
reach every goal) the dock computes them with the Car Wars planner
(:func:`editor.games.travel_work.start_travel`), one child process per start on a thread pool,
only while the dock is shown.  Either way the window never waits, an edit (coalesced,
:data:`EDIT_DELAY_MS`) kills the running children, and the old numbers stay, greyed, until each
start's new ones arrive.

Clicking a Car Wars travel finding in the Validation panel draws its plan the same way
(:meth:`CarWarsTravelDock.show_finding`): from the dock's answers when it has them, else
computed in the background (:func:`editor.games.travel_work.finding_plan`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, QThreadPool, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor import render as R
from editor.games import overlay_work as W
from editor.games import travel_work as T
from editor.games.overlays import OverlayJob, OverlaySignals, goal_label

#: After an edit, wait this long for the next one before recomputing.
EDIT_DELAY_MS = 200
COLUMNS = ("Start", "Goal", "Safe: turns", "Safe: dice", "Flat out: turns", "Flat out: dice")
#: Column -> the policy whose plan a click on it draws (the others: the overlays' policy).
COLUMN_POLICY = {2: "safe", 3: "safe", 4: "flat-out", 5: "flat-out"}
STALE = QColor("#8a8a8a")
BLACK = QColor("black")
HINT = ("Turns (t − 1 + points/speed) and driving-roll dice from each start to each checkpoint, the centre "
        "and the other starts; best start per goal bold, worst red. Select a row to draw its plan.")


class CarWarsTravelDock(QObject):
    """The dock's Car Wars page (``page``), its background jobs and its link to the path
    overlay (``cw``, :class:`editor.games.overlays.CarWarsOverlays`)."""

    #: The dock's body (this page or Gravstrike's table), made by :func:`install`.
    stack: TravelStack

    def __init__(self, win: Any, cw: Any) -> None:
        super().__init__(win)
        self.win, self.cw = win, cw
        self.page = QWidget()
        self.page.setObjectName("carwars-travel")
        col = QVBoxLayout(self.page)
        col.setContentsMargins(4, 4, 4, 4)
        self.status = QLabel("Open this panel to compute travel times")
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        # fitted once per update (:meth:`_render`): a header that resizes to its contents measures
        # every row again at each cell set, 40 ms an update for the four-player arena's 32 rows
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # a click makes the cell current, then selects its row: both draw (the second wins)
        self.table.currentCellChanged.connect(lambda *_a: self._selected())
        self.table.itemSelectionChanged.connect(self._selected)
        col.addWidget(self.status)
        col.addWidget(self.table)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self.signals = OverlaySignals(self)
        self.signals.done.connect(self._done)
        #: Generations of the starts' jobs and of the finding's (older answers are dropped).
        self.generation = 0
        self.finding_generation = 0
        self.jobs: dict[str, OverlayJob] = {}
        #: Each start's answers and the arena they are of (older arenas' are shown greyed).
        self.answers: dict[int, tuple[Any, T.StartTravel | Exception]] = {}
        #: The rows shown: (player, goal ref), in order.
        self.rows: list[tuple[int, str]] = []
        #: Whether the last :meth:`_render` changed a cell's text (then the columns are fitted).
        self._texts_changed = False
        #: The finding whose plan is wanted: (arena, query, title), until it is drawn.
        self.finding: tuple[Any, T.Query, str] | None = None
        self.edit_timer = QTimer(self)
        self.edit_timer.setSingleShot(True)
        self.edit_timer.setInterval(EDIT_DELAY_MS)
        self.edit_timer.timeout.connect(self.refresh)

    # -- state
    def active(self) -> bool:
        return bool(self.cw.active())

    def shown(self) -> bool:
        return self.page.isVisible()

    def fresh(self, player: int) -> T.StartTravel | None:
        """Start ``player``'s answers for the current arena, if computed."""
        got = self.answers.get(player)
        if got is None or got[0] is not self.win.doc.arena or not isinstance(got[1], T.StartTravel):
            return None
        return got[1]

    def busy(self) -> bool:
        return bool(self.jobs) or self.edit_timer.isActive()

    # -- jobs
    def arena_changed(self) -> None:
        """An edit: the running searches are for the old arena; new ones once the edits pause."""
        self._cancel_all()
        self._cancel_finding()
        self.refresh_later()

    def refresh_later(self) -> None:
        if self.active() and self.shown():
            self._render()  # the old numbers, greyed, until the new ones arrive
            self.status.setText("Updating travel times for the edited arena…")
            self.edit_timer.start()
        else:
            self.refresh()

    def visibility(self, shown: bool) -> None:
        if shown:
            self.refresh()
        else:
            self.edit_timer.stop()
            self._cancel_all()

    def refresh(self) -> None:
        """Start the searches of the starts whose answers for the current arena are missing
        (when the dock is shown), and show what is known."""
        self.edit_timer.stop()
        if not self.active():
            self._cancel_all()
            self._cancel_finding()
            return
        arena = self.win.doc.arena
        players = sorted(s.player for s in arena.start_positions)
        for player in list(self.answers):
            if player not in players:
                del self.answers[player]
        if not self.shown():
            return  # filled in when shown
        if self._from_live(arena):
            self._render()
            if 0 <= self.table.currentRow() < len(self.rows):
                self._selected()  # the selected row's plan, now of the current arena
            return
        if self._live_pending():
            self._render()
            return
        for player in players:
            kind = f"start:{player}"
            if kind not in self.jobs and not (player in self.answers and self.answers[player][0] is arena):
                job = OverlayJob(kind, self.generation, T.start_travel, (arena, player), self.signals)
                self.jobs[kind] = job
                self.pool.start(job)
        self._render()

    def _live(self) -> Any:
        """The live validation's Car Wars travel stage (:class:`editor.games.kept_travel.CarWarsTravel`),
        or None (validation of another kind, or none)."""
        runner = getattr(self.win, "runner", None)
        live = getattr(runner.analyse_for(self.win.doc.arena), "live", None) if runner is not None else None
        return live if hasattr(live, "last_rows") else None

    def _from_live(self, arena: Any) -> bool:
        """Every start's answers for ``arena`` from the live validation's kept searches (no
        search here); whether it had them all."""
        live = self._live()
        got = live.last_rows if live is not None else None
        if got is None or got[0] is not arena:
            return False
        rows = got[1]
        found: dict[int, T.StartTravel] = {}
        for s in arena.start_positions:
            results: dict[str, dict[str, Any]] = {}
            goals = T.dock_goals(arena, s.player)
            for policy in T.POLICIES:
                row = rows.get((policy, s.id), {})
                if any(g not in row for g in goals):
                    return False
                results[policy] = {g: row[g] for g in goals}
            found[s.player] = T.StartTravel(s.player, results)
        self._cancel_all()
        for player, travel in found.items():
            self.answers[player] = (arena, travel)
        return True

    def _live_pending(self) -> bool:
        """Whether the live validation is still working on the current arena (its final findings
        bring the dock's answers: :meth:`validation_done`)."""
        runner = getattr(self.win, "runner", None)
        return self._live() is not None and runner is not None and bool(runner.busy)

    def validation_done(self) -> None:
        """The live validation published its final findings: fill the dock from them (when it
        is shown and waiting for them; while the edits go on - the edit delay not over - the
        delay's end fills it, so a drag's findings are not held up repainting the dock)."""
        if self.active() and self.shown() and not self.edit_timer.isActive() and self._live() is not None:
            self.refresh()

    def _cancel_all(self) -> None:
        """Stop the starts' searches (not a finding's plan: it does not need the dock)."""
        self.generation += 1
        for kind in [k for k in self.jobs if k != "finding"]:
            self.jobs.pop(kind).cancelled.set()

    def _cancel_finding(self) -> None:
        self.finding_generation += 1
        self.finding = None
        job = self.jobs.pop("finding", None)
        if job is not None:
            job.cancelled.set()

    def _done(self, kind: str, generation: int, result: object) -> None:
        if generation != (self.finding_generation if kind == "finding" else self.generation):
            return  # an older arena's (or an older finding's)
        self.jobs.pop(kind, None)
        arena = self.win.doc.arena
        if kind == "finding":
            want = self.finding
            self.finding = None
            if want is not None and want[0] is arena:
                if isinstance(result, Exception):
                    self.cw.legend.set_state("path", want[2], "failed")
                    self.cw.message.emit(f"{want[2]}: failed: {result}")
                else:
                    self.cw.show_plan(result, want[2])
            return
        player = int(kind.split(":")[1])
        if isinstance(result, (T.StartTravel, Exception)):
            self.answers[player] = (arena, result)
        if isinstance(result, Exception):
            self.cw.message.emit(f"Travel times from start {player}: failed: {result}")
        self._render()
        row = self.table.currentRow()
        if 0 <= row < len(self.rows) and self.rows[row][0] == player:
            self._selected()  # the selected row's plan, now of the current arena

    # -- the table
    def _render(self) -> None:
        if not self.active():
            return
        arena = self.win.doc.arena
        players = sorted(s.player for s in arena.start_positions)
        rows = [(p, g) for p in players for g in T.dock_goals(arena, p)]
        keep = self.rows[self.table.currentRow()] if 0 <= self.table.currentRow() < len(self.rows) else None
        keep_col = max(0, self.table.currentColumn())
        self.table.blockSignals(True)
        try:
            self.rows = rows
            self.table.setRowCount(len(rows))
            best = self._extremes(rows)
            self._texts_changed = False
            self._fill(arena, rows, best)
            if keep in rows:
                self.table.setCurrentCell(rows.index(keep), keep_col)
            if self._texts_changed:  # greying the old numbers changes no width
                self.table.resizeColumnsToContents()
        finally:
            self.table.blockSignals(False)
        self._status(players)

    def _fill(self, arena: Any, rows: list[tuple[int, str]],
              best: dict[tuple[str, str], tuple[float | None, float | None]]) -> None:
        """Every cell of ``rows``: the answers for ``arena``, greyed where they are older."""
        for i, (player, goal) in enumerate(rows):
            got = self.answers.get(player)
            stale = got is None or got[0] is not arena
            answer = got[1] if got is not None else None
            self._cell(i, 0, f"start {player}", stale=False)
            self._cell(i, 1, goal_label(arena, goal), stale=False)
            err = str(answer) if isinstance(answer, Exception) else \
                answer.error if isinstance(answer, T.StartTravel) else None
            for c, policy in ((2, "safe"), (4, "flat-out")):
                if err:
                    self._cell(i, c, "cannot move" if isinstance(answer, T.StartTravel) else "failed", stale, err)
                    self._cell(i, c + 1, "—", stale, err)
                    continue
                r = answer.get(policy, goal) if isinstance(answer, T.StartTravel) else None
                lo, hi = best.get((goal, policy), (None, None))
                t = r.time if r is not None and r.status == "reached" else None
                mark = "best" if t is not None and t == lo else "worst" if t is not None and t == hi else ""
                self._cell(i, c, T.turns_text(r), stale, T.status_note(r), mark)
                self._cell(i, c + 1, T.dice_text(r), stale, T.status_note(r))

    def _extremes(self, rows: list[tuple[int, str]]) -> dict[tuple[str, str], tuple[float | None, float | None]]:
        """Per card or centre goal and policy: the least and greatest time over the starts."""
        out: dict[tuple[str, str], tuple[float | None, float | None]] = {}
        for goal in {g for _, g in rows if not g.startswith("start:")}:
            for policy in T.POLICIES:
                times = []
                for player in {p for p, g in rows if g == goal}:
                    got = self.fresh(player)
                    r = got.get(policy, goal) if got is not None else None
                    if r is not None and r.status == "reached":
                        times.append(r.time)
                out[(goal, policy)] = T.best_and_worst(times)
        return out

    def _cell(self, row: int, col: int, text: str, stale: bool, tip: str = "", mark: str = "") -> None:
        """Set a cell (only what changed: each change repaints it)."""
        item = self.table.item(row, col)
        if item is None:
            item = QTableWidgetItem()
            if col >= 2:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(row, col, item)
        if item.text() != text:
            item.setText(text)
            self._texts_changed = True
        if item.toolTip() != tip:
            item.setToolTip(tip)
        font = item.font()
        if font.bold() != (mark == "best"):
            font.setBold(mark == "best")
            item.setFont(font)
        colour = STALE if stale else R.VERMILLION if mark == "worst" else BLACK
        if item.foreground().color() != colour:
            item.setForeground(colour)
        if item.data(Qt.ItemDataRole.UserRole) != mark:
            item.setData(Qt.ItemDataRole.UserRole, mark)

    def _status(self, players: list[int]) -> None:
        if not players:
            self.status.setText("No start positions: nothing to travel from")
        elif not self.shown():
            self.status.setText("Open this panel to compute travel times")
        else:
            done = sum(1 for p in players if p in self.answers and self.answers[p][0] is self.win.doc.arena)
            self.status.setText(HINT if done == len(players) else
                                f"Computing travel times in the background… ({done} of {len(players)} starts)")

    def value(self, player: int, goal: str, policy: str) -> tuple[str, str]:
        """The (turns, dice) texts of a row under a policy (for tests and the probe)."""
        i = self.rows.index((player, goal))
        c = 2 if policy == "safe" else 4
        turns, dice = self.table.item(i, c), self.table.item(i, c + 1)
        return (turns.text() if turns else ""), (dice.text() if dice else "")

    # -- paths
    def _selected(self) -> None:
        row, col = self.table.currentRow(), self.table.currentColumn()
        if not (0 <= row < len(self.rows)) or not self.table.selectionModel().isRowSelected(row, self.table.rootIndex()):
            self.cw.clear_plan()
            return
        player, goal = self.rows[row]
        policy = COLUMN_POLICY.get(col, self.cw.policy)
        arena = self.win.doc.arena
        title = f"Path from start {player} to {goal_label(arena, goal)} ({policy})"
        got = self.fresh(player)
        r = got.get(policy, goal) if got is not None else None
        self.cw.show_plan(None if r is None else W.plan_of(arena, player, goal, policy, r), title)

    def show_finding(self, finding: dict[str, Any]) -> None:
        """Draw the plan a clicked travel finding is about (nothing for other findings)."""
        if not self.active():
            return
        arena = self.win.doc.arena
        q = T.finding_query(arena, finding)
        if q is None:
            return
        got = self.fresh(q.player)
        picked = T.choose(q, got.results.get(q.policy, {})) if got is not None else None
        if picked is not None:
            self._cancel_finding()
            goal, r = picked
            self.cw.show_plan(W.plan_of(arena, q.player, goal, q.policy, r),
                              f"Path from start {q.player} to {goal_label(arena, goal)} ({q.policy})")
            return
        title = f"Path from start {q.player} to {q.what} ({q.policy})"
        self._cancel_finding()
        self.finding = (arena, q, title)
        self.cw.show_plan(None, title)
        job = OverlayJob("finding", self.finding_generation, T.finding_plan, (arena, q), self.signals)
        self.jobs["finding"] = job
        self.pool.start(job)

    def shutdown(self) -> None:
        self.edit_timer.stop()
        self._cancel_all()
        self._cancel_finding()
        self.pool.waitForDone(3000)


class TravelStack(QStackedWidget):
    """The "Travel times" dock's body: Gravstrike's table, or the Car Wars page."""

    def __init__(self, gravstrike: QWidget, car_wars: QWidget) -> None:
        super().__init__()
        self.addWidget(gravstrike)
        self.addWidget(car_wars)


def install(win: Any, ov: Any) -> CarWarsTravelDock:
    """The Car Wars page of the travel dock (``ov``: the window's :class:`editor.overlays.Overlays`,
    whose ``table`` is Gravstrike's page); ``.stack`` is the dock's body."""
    dock = CarWarsTravelDock(win, ov.cw)
    dock.stack = TravelStack(ov.table, dock.page)

    def arena_changed(_arena: Any) -> None:
        dock.stack.setCurrentWidget(dock.page if dock.active() else ov.table)
        dock.arena_changed()

    win.doc.arenaChanged.connect(arena_changed)
    win.runner.finished.connect(lambda _f: dock.validation_done() if win.runner.final else None)
    win.validation.findingSelected.connect(dock.show_finding)
    arena_changed(win.doc.arena)
    return dock


__all__ = ["CarWarsTravelDock", "COLUMNS", "EDIT_DELAY_MS", "install"]
