"""The *Simulated play* dock: what a run of Analysis → Simulate play… found (:mod:`editor.simulate_play`).

- **Win rates**: each start's win rate as a bar in its start's colour, its 95 % interval as a
  whisker, the fair share 1/K as a dashed line with the scenario's tolerance shaded around it
  (:class:`WinRateChart`, drawn with QPainter); a run the Cancel or a time limit stopped says so
  above the chart (*incomplete: 37 of 100 games*).
- **Findings**: the run's ``play-balance`` findings; clicking one selects (and frames) its start
  on the canvas, with the objective it names.
- **First to each objective**: the share of games in which each start took it first.
- **Contact heat map** (a check box): where pieces met, as cells on the canvas
  (:class:`editor.simulate_canvas.ContactHeat`).
- **Replay**: a recorded game (runs of up to :data:`editor.simulate_play.RECORD_LIMIT` games keep
  every record) stepped through turn by turn on the canvas - each seat's piece in its start's
  colour with its heading, the turn's events, the scores after it
  (:class:`editor.simulate_canvas.ReplayLayer`).  View state only: no edit, no undo entry.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import (QCheckBox, QGridLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QSlider, QSpinBox, QSplitter, QTableWidget,
                               QTableWidgetItem, QToolTip, QVBoxLayout, QWidget)

from editor import render as R
from editor.simulate_canvas import ContactHeat, ReplayLayer, start_colour, turn_scores
from editor.simulate_play import RECORD_LIMIT


def _pct(v: float) -> str:
    return f"{v * 100:.1f} %"


class WinRateChart(QWidget):
    """Bars of each start's win rate with its 95 % interval, the fair-share line and its
    tolerance band.  ``startClicked(start)`` when a bar is clicked."""

    startClicked = Signal(int)
    MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 44, 10, 10, 34

    def __init__(self) -> None:
        super().__init__()
        self.doc: dict[str, Any] | None = None
        self.setMinimumSize(200, 110)
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        return QSize(360, 200)

    def set_document(self, doc: dict[str, Any] | None) -> None:
        self.doc = doc
        self.update()

    def values(self) -> list[tuple[int, float, float, float]]:
        """(start, win rate, interval low, interval high) of each bar, in seat order."""
        if self.doc is None:
            return []
        return [(int(s["start"]), float(s["win_rate"]), float(s["ci"][0]), float(s["ci"][1]))
                for s in self.doc["starts"]]

    def top(self) -> float:
        """The y axis' top: the highest whisker or band, rounded up to a tenth."""
        if self.doc is None:
            return 1.0
        high = max([hi for _s, _r, _lo, hi in self.values()]
                   + [float(self.doc["fair_share"]) + float(self.doc["tolerance"])])
        return min(1.0, max(0.1, math.ceil(high * 10 - 1e-9) / 10))

    def plot(self) -> QRectF:
        return QRectF(self.MARGIN_L, self.MARGIN_T, max(1, self.width() - self.MARGIN_L - self.MARGIN_R),
                      max(1, self.height() - self.MARGIN_T - self.MARGIN_B))

    def y_of(self, rate: float) -> float:
        """The widget's y of a win rate."""
        p = self.plot()
        return p.bottom() - rate / self.top() * p.height()

    def bars(self) -> list[tuple[int, QRectF, tuple[float, float]]]:
        """(start, bar rectangle, whisker's (top y, bottom y)) in widget pixels, in seat order."""
        vals = self.values()
        if not vals:
            return []
        p = self.plot()
        slot = p.width() / len(vals)
        w = min(48.0, slot * 0.6)
        out = []
        for i, (s, rate, lo, hi) in enumerate(vals):
            x = p.left() + slot * (i + 0.5) - w / 2
            out.append((s, QRectF(x, self.y_of(rate), w, p.bottom() - self.y_of(rate)), (self.y_of(hi), self.y_of(lo))))
        return out

    def fair_y(self) -> float | None:
        return None if self.doc is None else self.y_of(float(self.doc["fair_share"]))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), self.palette().base())
        if self.doc is None:
            painter.setPen(self.palette().placeholderText().color())
            painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter),
                             "No run yet: Analysis → Simulate play…")
            return
        p, top = self.plot(), self.top()
        font = QFont(self.font())
        font.setPixelSize(11)
        painter.setFont(font)
        # axis and grid
        steps = max(1, round(top / 0.1))
        every = 1 if steps <= 5 else 2
        for k in range(0, steps + 1, every):
            v = k * 0.1
            y = self.y_of(v)
            painter.setPen(QColor(0, 0, 0, 30))
            painter.drawLine(QPointF(p.left(), y), QPointF(p.right(), y))
            painter.setPen(R.INK)
            painter.drawText(QRectF(0, y - 8, self.MARGIN_L - 4, 16),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), f"{v * 100:.0f} %")
        # the tolerance band and the fair share
        fair, tol = float(self.doc["fair_share"]), float(self.doc["tolerance"])
        band = QRectF(p.left(), self.y_of(min(top, fair + tol)), p.width(),
                      self.y_of(max(0.0, fair - tol)) - self.y_of(min(top, fair + tol)))
        painter.fillRect(band, R.with_alpha(R.GREEN, 35))
        for start, rect, (y_hi, y_lo) in self.bars():
            colour = start_colour(start)
            painter.setPen(R.pen(colour.darker(140), 1.0))
            painter.setBrush(colour)
            painter.drawRect(rect)
            cx = rect.center().x()
            painter.setPen(R.pen(R.INK, 1.6))
            painter.drawLine(QPointF(cx, y_hi), QPointF(cx, y_lo))
            for y in (y_hi, y_lo):
                painter.drawLine(QPointF(cx - 7, y), QPointF(cx + 7, y))
            painter.setPen(R.INK)
            painter.drawText(QRectF(cx - 40, p.bottom() + 2, 80, 14), int(Qt.AlignmentFlag.AlignCenter),
                             f"start {start}")
            rate = next(v[1] for v in self.values() if v[0] == start)
            painter.drawText(QRectF(cx - 40, p.bottom() + 16, 80, 14), int(Qt.AlignmentFlag.AlignCenter), _pct(rate))
        y = self.y_of(fair)
        painter.setPen(R.pen(R.GREEN.darker(150), 1.6, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(p.left(), y), QPointF(p.right(), y))
        painter.setPen(R.GREEN.darker(170))
        painter.drawText(QRectF(p.right() - 170, y - 15, 168, 14),
                         int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                         f"fair share 1/{len(self.values())} = {_pct(fair)}")
        painter.setPen(R.pen(R.INK, 1.0))
        painter.drawLine(QPointF(p.left(), p.bottom()), QPointF(p.right(), p.bottom()))
        painter.end()

    def _bar_at(self, pos: QPointF) -> int | None:
        p = self.plot()
        for start, rect, _w in self.bars():
            if rect.left() - 6 <= pos.x() <= rect.right() + 6 and p.top() <= pos.y() <= p.bottom() + 30:
                return start
        return None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        start = self._bar_at(event.position())
        if start is None or self.doc is None:
            QToolTip.hideText()
            return
        row = next(s for s in self.doc["starts"] if s["start"] == start)
        lo, hi = row["ci"]
        QToolTip.showText(event.globalPosition().toPoint(),
                          f"start {start}: wins {_pct(row['win_rate'])} of {self.doc['games_counted']} games "
                          f"(95 % interval {_pct(lo)} – {_pct(hi)}); mean score {row['mean_vp']:g}; "
                          f"{row['contacts']:g} contacts a game", self)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        start = self._bar_at(event.position())
        if start is not None:
            self.startClicked.emit(start)


class SimulationDock(QWidget):
    """The dock's body; ``win`` is the main window (its document, scene and selection)."""

    def __init__(self, win: Any) -> None:
        super().__init__()
        self.win = win
        self.arena: Any = None
        self.doc: dict[str, Any] | None = None
        self.records: list[dict[str, Any]] = []
        self.heat = ContactHeat()
        self.replay = ReplayLayer()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 2, 4, 2)
        outer.setSpacing(2)
        self.summary = QLabel("No run yet: Analysis → Simulate play… plays the arena's game out with bots.")
        self.summary.setObjectName("simulation-summary")
        self.summary.setWordWrap(True)
        outer.addWidget(self.summary)
        split = QSplitter(Qt.Orientation.Horizontal)
        outer.addWidget(split, 1)
        self.chart = WinRateChart()
        self.chart.startClicked.connect(lambda s: self.select_start(s, []))
        split.addWidget(self.chart)
        # findings and objectives
        middle = QWidget()
        mid = QVBoxLayout(middle)
        mid.setContentsMargins(0, 0, 0, 0)
        mid.setSpacing(2)
        mid.addWidget(QLabel("Play-balance findings (click: the start on the canvas)"))
        self.findings = QListWidget()
        self.findings.setWordWrap(True)
        self.findings.setMinimumHeight(36)
        self.findings.itemClicked.connect(self._finding_clicked)
        self.findings.itemActivated.connect(self._finding_clicked)
        mid.addWidget(self.findings, 1)
        mid.addWidget(QLabel("Who takes each objective first (share of games)"))
        self.objectives = QTableWidget(0, 0)
        self.objectives.verticalHeader().setVisible(False)
        self.objectives.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.objectives.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.objectives.setMinimumHeight(36)
        mid.addWidget(self.objectives, 1)
        self.heat_box = QCheckBox("Contact heat map on the canvas")
        self.heat_box.setToolTip("Where pieces met (rams, collisions) over every game counted")
        self.heat_box.toggled.connect(self.show_heat)
        mid.addWidget(self.heat_box)
        split.addWidget(middle)
        # replay
        box = QGroupBox("Replay a recorded game")
        grid = QGridLayout(box)
        grid.setContentsMargins(6, 2, 6, 4)
        grid.setVerticalSpacing(2)
        self.show_replay = QCheckBox("On the canvas")
        self.show_replay.setToolTip("Draw the chosen turn's pieces and events on the canvas")
        self.show_replay.setChecked(True)
        self.show_replay.toggled.connect(lambda _on: self._draw_turn())
        self.game = QSpinBox()
        self.game.setRange(0, 0)
        self.game.setPrefix("game ")
        self.game.setToolTip("Which recorded game (in game order: game i played with the seed drawn from (seed, i))")
        self.game.valueChanged.connect(self._game_changed)
        self.prev_button = QPushButton("◀")
        self.prev_button.setToolTip("The turn before")
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button = QPushButton("▶")
        self.next_button.setToolTip("The next turn")
        self.next_button.clicked.connect(lambda: self.step(1))
        for b in (self.prev_button, self.next_button):
            b.setMaximumWidth(36)
        self.turn = QSlider(Qt.Orientation.Horizontal)
        self.turn.setRange(0, 0)
        self.turn.valueChanged.connect(lambda _t: self._draw_turn())
        row = QHBoxLayout()
        for w in (self.show_replay, self.game, self.prev_button):
            row.addWidget(w)
        row.addWidget(self.turn, 1)
        row.addWidget(self.next_button)
        grid.addLayout(row, 0, 0)
        self.turn_label = QLabel("turn –")
        self.turn_label.setWordWrap(True)
        self.game_info = QLabel()  # the game's seed, length, end and winners (in the turn line)
        grid.addWidget(self.turn_label, 1, 0)
        self.scores = QLabel()
        self.scores.setObjectName("replay-scores")
        self.scores.setWordWrap(True)
        self.scores.setTextFormat(Qt.TextFormat.RichText)
        grid.addWidget(self.scores, 2, 0)
        self.events = QListWidget()
        self.events.setWordWrap(True)
        self.events.setMinimumHeight(36)
        self.events.setToolTip("The turn's events, in the order they happened")
        grid.addWidget(self.events, 3, 0)
        grid.setRowStretch(3, 1)
        split.addWidget(box)
        middle.setMinimumWidth(180)  # a column's minimum is its own: the dock fits 1366 x 768's bottom area
        box.setMinimumWidth(240)
        split.setSizes([360, 320, 320])
        self._enable_replay()

    # -- the result
    def show_result(self, arena: Any, doc: dict[str, Any], records: Sequence[dict[str, Any]] | None) -> None:
        """Show a run's JSON (schema/simulation.schema.json) and its records (None: not kept)."""
        self.arena, self.doc, self.records = arena, doc, list(records or [])
        self.summary.setText(self._summary(doc))
        self.chart.set_document(doc)
        self.findings.clear()
        for f in doc["findings"]:
            item = QListWidgetItem(f"{f['severity']}: {f['message']}")
            item.setData(Qt.ItemDataRole.UserRole, f)
            item.setForeground(R.SEVERITY_COLOURS.get(f["severity"], R.INK))
            self.findings.addItem(item)
        if not doc["findings"]:
            self.findings.addItem("No start wins more or less often than a fair share beyond the tolerance.")
        self._fill_objectives(doc)
        if self.heat_box.isChecked():
            self.show_heat(True)
        self.game.blockSignals(True)
        self.game.setRange(1 if self.records else 0, len(self.records))
        self.game.setValue(1 if self.records else 0)
        self.game.blockSignals(False)
        self._enable_replay()
        self._game_changed()

    @staticmethod
    def _summary(doc: dict[str, Any]) -> str:
        head = (f"{doc['arena'] or 'Arena'}: {doc['games_counted']} games of {doc['players']} players "
                f"(seed {doc['seed']}, policy {doc['policy']}); fair share {_pct(doc['fair_share'])} ± "
                f"{_pct(doc['tolerance'])}")
        chi = doc.get("chi_square")
        if chi:
            head += f"; chi-square p = {chi['p_value']:.3g}"
        if not doc["complete"]:
            head = (f"<b>Incomplete: {doc['games_played']} of {doc['games']} games</b> ({doc['stopped']}). "
                    + head)
        if doc["incomplete_games"]:
            head += f"; {doc['incomplete_games']} game(s) stopped at the engine's work limit, not counted"
        return head

    def _fill_objectives(self, doc: dict[str, Any]) -> None:
        starts = [s["start"] for s in doc["starts"]]
        t = self.objectives
        t.clear()
        t.setRowCount(len(doc["objectives"]))
        t.setColumnCount(len(starts) + 2)
        t.setHorizontalHeaderLabels(["objective", *(f"start {s}" for s in starts), "nobody"])
        for r, o in enumerate(doc["objectives"]):
            t.setItem(r, 0, QTableWidgetItem(str(o["id"])))
            shares = [o["first"][str(s)] for s in starts]
            best = max(shares, default=0.0)
            for c, share in enumerate(shares, 1):
                item = QTableWidgetItem(_pct(share))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if share == best and best > 0:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                t.setItem(r, c, item)
            t.setItem(r, len(starts) + 1, QTableWidgetItem(_pct(o["untaken"])))

    def set_stale(self, stale: bool) -> None:
        """Say when the arena was edited since the run (its figures are for the arena as it was)."""
        if self.doc is None:
            return
        text = self._summary(self.doc)
        self.summary.setText(text + (" — <i>the arena has been edited since this run</i>" if stale else ""))

    def arena_changed(self, arena: Any) -> None:
        if self.doc is None:
            return
        if getattr(arena, "system", None) != getattr(self.arena, "system", None):
            self.clear()  # another game's arena: nothing of the run applies
        else:
            self.set_stale(arena is not self.arena)

    def clear(self) -> None:
        self.doc, self.arena, self.records = None, None, []
        self.chart.set_document(None)
        self.findings.clear()
        self.objectives.setRowCount(0)
        self.summary.setText("No run yet: Analysis → Simulate play… plays the arena's game out with bots.")
        self.game.setRange(0, 0)
        self.clear_canvas()
        self._enable_replay()

    def clear_canvas(self) -> None:
        for item in (self.heat, self.replay):
            if item.scene() is not None:
                item.scene().removeItem(item)

    # -- findings
    def _finding_clicked(self, item: QListWidgetItem) -> None:
        f = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(f, dict):
            self.select_start(int(f["metrics"]["start"]), [e for e in f["elements"] if not e.startswith("start:")])

    def select_start(self, start: int, also: Sequence[str]) -> list[str]:
        """Select (and frame) start ``start``'s element on the canvas, with ``also`` (the
        objectives a finding names); returns the refs selected."""
        from editor import elements as E
        from editor.start_sets import slots_of

        arena = self.win.doc.arena
        slots = slots_of(arena)
        ref = slots.label(arena, start) if slots is not None else f"start:{start}"
        refs = [r for r in (ref, *also) if E.find(arena, r) is not None]
        if refs:
            self.win.show_refs(refs)
        else:
            self.win.statusBar().showMessage(f"start {start} is not in the arena as it is now", 6000)
        return refs

    # -- the heat map
    def show_heat(self, on: bool) -> None:
        scene = self.win.scene
        if on and self.doc is not None:
            self.heat.set_contacts(self.doc["contacts"])
            if self.heat.scene() is None:
                scene.addItem(self.heat)
        elif self.heat.scene() is not None:
            scene.removeItem(self.heat)

    # -- the replay
    def record(self) -> dict[str, Any] | None:
        i = self.game.value()
        return self.records[i - 1] if 1 <= i <= len(self.records) else None

    def _enable_replay(self) -> None:
        on = bool(self.records)
        for w in (self.game, self.turn, self.prev_button, self.next_button, self.show_replay):
            w.setEnabled(on)
        if not on:
            self.game_info.setText("")
            self.turn_label.setText(f"no records: runs of up to {RECORD_LIMIT} games keep them" if self.doc is not None else "turn –")
            self.scores.setText("")
            self.events.clear()

    def _game_changed(self, *_args: Any) -> None:
        rec = self.record()
        if rec is None:
            self.turn.setRange(0, 0)
            self._draw_turn()
            return
        turns = len(rec["turns"])
        self.game_info.setText(f"seed {rec['seed']}, ended {rec['ended']}, won by "
                               f"{', '.join(f'start {w}' for w in rec['winners']) or 'nobody'}")
        self.turn.blockSignals(True)
        self.turn.setRange(1 if turns else 0, turns)
        self.turn.setValue(1 if turns else 0)
        self.turn.blockSignals(False)
        self._draw_turn()

    def step(self, by: int) -> None:
        """The turn before (-1) or after (+1)."""
        self.turn.setValue(max(self.turn.minimum(), min(self.turn.maximum(), self.turn.value() + by)))

    def show_turn(self, game: int, turn: int) -> None:
        """Game ``game``'s turn ``turn`` (both 1-based) on the canvas."""
        self.game.setValue(game)
        self.turn.setValue(turn)

    def current_turn(self) -> dict[str, Any] | None:
        rec = self.record()
        t = self.turn.value()
        return rec["turns"][t - 1] if rec is not None and 1 <= t <= len(rec["turns"]) else None

    def _draw_turn(self) -> None:
        rec, turn = self.record(), self.current_turn()
        scene = self.win.scene
        if turn is None or not self.show_replay.isChecked():
            if self.replay.scene() is not None:
                scene.removeItem(self.replay)
            self.replay.set_turn(None)
        else:
            if self.replay.scene() is None:
                scene.addItem(self.replay)
            self.replay.set_turn(turn)
        if rec is None or turn is None:
            self.turn_label.setText("turn –")
            return
        self.turn_label.setText(f"turn {turn['turn']} of {len(rec['turns'])} · {self.game_info.text()}")
        parts = []
        for s, v in turn_scores(turn, rec["starts"]):
            colour = start_colour(s).name()
            parts.append(f"<span style='color:{colour}'>■</span> start {s}: <b>{v:g}</b>")
        self.scores.setText("Scores: " + " &nbsp; ".join(parts))
        lines = [f"start {e['start']}: {e['kind']}" + (f" {e['other']}" if e.get("other") else "")
                 + (f" (+{e['points']:g})" if e.get("points") else "")
                 + (f" — {e['detail']}" if e.get("detail") else "") for e in turn["events"]]
        self.events.clear()
        self.events.addItems(lines or ["no events this turn"])


__all__ = ["SimulationDock", "WinRateChart"]
