"""Arena properties and scenario settings panels, and the points table of the inspector.

Every edit is one undo command (:mod:`editor.edit_commands`); a refused value shows the
reason in red and the field goes back to the current value.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor import edit_commands as EC
from editor import elements as E
from editor import render
from editor.document import ArenaDocument
from editor.snapping import segment_ends
from schema.shapes import Polygon, Polyline


def fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, tuple):
        return ", ".join(str(x) for x in v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


class SettingsForm(QWidget):
    """A form of arena (or scenario) settings, one editor per field."""

    message = Signal(str)
    command = EC.SetArenaSetting
    root = ""

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.editors: dict[str, QWidget] = {}
        outer = QVBoxLayout(self)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        # a narrow dock wraps long labels above their fields: never an input scrolled off
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        host = QWidget()
        self.column = QVBoxLayout(host)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.column.addLayout(self.form)
        self.column.addStretch(1)
        scroll.setWidget(host)
        outer.addWidget(scroll)
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # refusals quote values as typed
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {render.VERMILLION.name()}")
        outer.addWidget(self.error)
        for path, (label, kind, _m, _x) in self.rows().items():
            w: QWidget
            if kind == "bool":
                box = QCheckBox()
                box.toggled.connect(lambda v, p=path: self.commit(p, bool(v)))
                w = box
            else:
                edit = QLineEdit()
                edit.setMinimumWidth(90)  # room for a value: a long label goes above it instead
                if kind == "optint":
                    edit.setPlaceholderText("auto")
                edit.editingFinished.connect(lambda p=path, e=edit: self._commit_text(p, e))
                w = edit
            w.setObjectName(f"setting:{path}")
            self.editors[path] = w
            self.form.addRow(label, w)
        doc.arenaChanged.connect(lambda _a: self.refresh())
        doc.pathChanged.connect(lambda _p: self.error.clear())  # File -> New / Open: a fresh start
        self.refresh()

    def rows(self) -> dict[str, EC.SettingSpec]:
        """One row per setting of any installed game (the header's first), in the editors' menu
        order: :meth:`refresh` shows those of the document's game."""
        from editor.game import editors

        out: dict[str, EC.SettingSpec] = dict(EC.HEADER_FIELDS) if self.root != "scenario" else {}
        for game in editors().values():
            for path, spec in (game.scenario_settings() if self.root == "scenario" else game.arena_settings()).items():
                out.setdefault(path, spec)
        return out

    def value(self, path: str) -> Any:
        return EC.get_path(self.doc.arena, f"{self.root}.{path}" if self.root else path)

    def refresh(self) -> None:
        # another game's scenario: its own form (editor.games.settings); name, author... stay
        from editor.game import game_of

        own_form = self.root == "scenario" and game_of(self.doc.arena).scenario_form()
        fields = self.command.fields_of(self.doc.arena)
        for path, w in self.editors.items():
            try:
                if own_form or path not in fields:
                    raise AttributeError(path)
                v = self.value(path)
            except (AttributeError, IndexError):  # another game's arena has no such setting
                self.form.setRowVisible(w, False)
                continue
            self.form.setRowVisible(w, True)
            w.blockSignals(True)
            if isinstance(w, QCheckBox):
                w.setChecked(bool(v))
            elif isinstance(w, QLineEdit) and w.text() != fmt(v):
                w.setText(fmt(v))
                w.setCursorPosition(0)  # a long name shows its start
            w.blockSignals(False)

    def _commit_text(self, path: str, edit: QLineEdit) -> None:
        if edit.text().strip() == fmt(self.value(path)):
            return
        self.commit(path, edit.text())

    def commit(self, path: str, value: Any) -> bool:
        try:
            cmd = self.command(self.doc, path, value)
        except ValueError as exc:
            self.error.setText(str(exc))
            self.message.emit(f"Refused: {exc}")
            self.refresh()
            return False
        self.error.clear()
        self.doc.push(cmd)
        return True


class ArenaPanel(SettingsForm):
    """Name, description, author, license, tags, units and turbine, and the bounds as numbers
    and presets (:class:`editor.bounds_panel.BoundsEditor`; on the canvas: the Edit vertices
    tool with nothing selected)."""

    command = EC.SetArenaSetting

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__(doc, parent)
        from editor.bounds_panel import BoundsEditor

        self.bounds = BoundsEditor(doc)
        self.bounds.message.connect(self.message)
        self.bounds.error.connect(self.error.setText)
        self.column.insertWidget(0, self.bounds)
        hint = QLabel("On the canvas: the Edit vertices tool (E) with nothing selected drags the corners and sides.")
        hint.setWordWrap(True)
        self.column.insertWidget(1, hint)
        from editor.games.settings import GameSettings

        # another game's arena-wide settings (Car Wars: the car's base and the turning key)
        self.game = GameSettings(doc, ("vehicle", "turning_key", "units"), "Game settings")
        self.game.message.connect(self.message)
        self.column.insertWidget(self.column.count() - 1, self.game)


class ScenarioPanel(SettingsForm):
    """Players, VP to win, tier thresholds, veterans, respawns, scoring variants, analysis (for
    another game: its ``scenario`` from its schema)."""

    command = EC.SetScenarioSetting
    root = "scenario"

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__(doc, parent)
        from editor.games.settings import GameSettings

        self.game = GameSettings(doc, ("scenario",), "Scenario")
        self.game.message.connect(self.message)
        self.column.insertWidget(self.column.count() - 1, self.game)
        from editor.start_sets_panel import StartSetsBox

        # every game with starts: which play at each player count, and the active count
        self.start_sets = StartSetsBox(doc)
        self.start_sets.message.connect(self.message)
        self.column.insertWidget(self.column.count() - 1, self.start_sets)


class PointsTable(QWidget):
    """x/y table of a polygon's or polyline's points or a gate's ends; edits are undoable."""

    message = Signal(str)

    def __init__(self, doc: ArenaDocument, ref: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc, self.ref = doc, ref
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("points")
        self.table.setHorizontalHeaderLabels(["x", "y"])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table)
        if not self._segment():  # a gate has two ends, no more, no fewer
            self.add_button = QPushButton("Add point")
            self.add_button.clicked.connect(self.add_point)
            self.remove_button = QPushButton("Remove point")
            self.remove_button.clicked.connect(self.remove_point)
            layout.addWidget(self.add_button)
            layout.addWidget(self.remove_button)
        self.fill()
        self.table.itemChanged.connect(self._changed)

    def _segment(self) -> bool:
        """Whether the element is a segment (a gate: its ends, its ``start`` and ``end``)."""
        return segment_ends(E.find(self.doc.arena, self.ref)) is not None

    def points(self) -> list[tuple[float, float]]:
        el = E.find(self.doc.arena, self.ref)
        ends = segment_ends(el)
        if ends is not None:
            return list(ends)
        s = getattr(el, "shape", None)
        return list(s.points) if isinstance(s, (Polygon, Polyline)) else []

    def fill(self) -> None:
        self.table.blockSignals(True)
        pts = self.points()
        self.table.setRowCount(len(pts))
        for i, (x, y) in enumerate(pts):
            self.table.setItem(i, 0, QTableWidgetItem(fmt(x)))
            self.table.setItem(i, 1, QTableWidgetItem(fmt(y)))
        self.table.setVerticalHeaderLabels(["from", "to"] if len(pts) == 2 and self._segment()
                                           else [str(i + 1) for i in range(len(pts))])
        self.table.blockSignals(False)

    def set_points(self, pts: list[tuple[float, float]], what: str) -> bool:
        el = E.find(self.doc.arena, self.ref)
        if el is None:
            return False
        if segment_ends(el) is not None:
            new: Any = dataclasses.replace(el, start=pts[0], end=pts[1])
        else:
            reshaped: dict[str, Any] = {"shape": dataclasses.replace(getattr(el, "shape"), points=tuple(pts))}
            new = dataclasses.replace(el, **reshaped)
        try:
            cmd = EC.EditShape(self.doc, self.ref, new, what)
        except ValueError as exc:
            self.message.emit(f"Refused: {exc}")
            self.fill()
            return False
        self.doc.push(cmd)
        return True

    def _changed(self, item: QTableWidgetItem) -> None:
        pts = self.points()
        try:
            v = float(item.text())
        except ValueError:
            self.message.emit("Refused: a coordinate must be a number")
            self.fill()
            return
        x, y = pts[item.row()]
        pts[item.row()] = (v, y) if item.column() == 0 else (x, v)
        self.set_points(pts, "Edit points of")

    def add_point(self) -> bool:
        """Insert a point halfway along the edge after the current row (or the last edge)."""
        pts = self.points()
        i = self.table.currentRow()
        i = i if 0 <= i < len(pts) else len(pts) - 1
        j = (i + 1) % len(pts)
        mid = ((pts[i][0] + pts[j][0]) / 2, (pts[i][1] + pts[j][1]) / 2)
        return self.set_points([*pts[:i + 1], mid, *pts[i + 1:]], "Insert vertex in")

    def remove_point(self) -> bool:
        pts = self.points()
        i = self.table.currentRow()
        if not 0 <= i < len(pts):
            return False
        return self.set_points(pts[:i] + pts[i + 1:], "Delete vertex of")
