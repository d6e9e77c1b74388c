"""Arena-wide settings of a generic ruleset's arena, built from the game's JSON Schema: for Car
Wars the car's base (``vehicle``), the turning key's figures (``turning_key``) in the Arena tab
and ``scenario`` (players, box, the analysis thresholds) in the Scenario tab.

Each edit is one undo command (:class:`SetArenaField`, never mirrored by symmetry mode); a value
the file format refuses is refused with the schema's words and the field shows the current
value again.  Gravstrike's settings keep their own hand-made forms (:mod:`editor.settings_panels`):
for a Gravstrike arena this form is hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from editor import render
from editor.commands import ArenaCommand
from editor.games import model as G
from editor.games.inspector import fmt
from editor.games.schema_fields import Field, walk_fields, value_at

if TYPE_CHECKING:
    from editor.document import ArenaDocument


def set_arena_field(arena: Any, path: Sequence[str | int], value: Any) -> Any:
    """``arena`` with its arena-wide field at ``path`` (``("vehicle", "length")``) set to
    ``value`` (None removes an optional field); ``ValueError`` with the schema's words."""
    rs = G.ruleset(arena)
    doc = G.document(arena)
    node: Any = doc
    for part in path[:-1]:
        if isinstance(node, dict) and part not in node:
            node[part] = {}
        node = node[part]
    if value is None and isinstance(node, dict):
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return G.build(rs, doc)


class SetArenaField(ArenaCommand):
    """Set one arena-wide field of a generic arena (one undo step; not mirrored)."""

    symmetric = False

    def __init__(self, doc: ArenaDocument, path: Sequence[str | int], value: Any, label: str = "") -> None:
        self.path, self.value = tuple(path), value
        super().__init__(doc, f"Set {label or '.'.join(map(str, self.path))}")

    def apply(self, arena: Any) -> Any:
        return set_arena_field(arena, self.path, self.value)


def arena_fields(arena: Any, keys: Sequence[str]) -> list[Field]:
    """The editable fields of the arena-wide objects ``keys`` that the game's schema has."""
    rs = G.ruleset(arena)
    props = rs.json_schema().get("properties", {})
    doc = G.document(arena)
    out: list[Field] = []
    for key in keys:
        if key in props:
            out += walk_fields(rs, (key,), props[key], "game", doc.get(key), str(props[key].get("title", key)))
    return out


def shown_value(doc: Any, f: Field) -> Any:
    """The value a field shows: the document's, else the schema's default (a setting a file
    leaves out at its default, such as Arena Rex's ``scenario.starting_favor``; a nullable
    field left out shows none)."""
    value = value_at(doc, f.path)
    return f.default if value is None and not f.nullable else value


class GameSettings(QGroupBox):
    """A form of the arena-wide objects ``keys`` of the arena's game, rebuilt when the game
    changes and updated in place after every edit."""

    message = Signal(str)

    def __init__(self, doc: ArenaDocument, keys: Sequence[str], title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.doc, self.keys = doc, tuple(keys)
        self.editors: dict[tuple[str | int, ...], QWidget] = {}
        self.fields: list[Field] = []
        self.built_for: tuple[str, tuple[tuple[str | int, ...], ...]] | None = None
        layout = QVBoxLayout(self)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        layout.addLayout(self.form)
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {render.VERMILLION.name()}")
        layout.addWidget(self.error)
        doc.arenaChanged.connect(lambda _a: self.refresh())
        self.refresh()

    # ------------------------------------------------------------------ building

    def refresh(self) -> None:
        arena = self.doc.arena
        from editor.game import game_of

        system = str(arena.system)
        if not game_of(arena).scenario_form():  # the window's own Scenario fields
            self.setVisible(False)
            self.built_for = None
            return
        self.setVisible(True)
        fields = arena_fields(arena, self.keys)
        key = (system, tuple(f.path for f in fields))
        if key != self.built_for:
            self._build(fields)
            self.built_for = key
        doc = G.document(arena)
        for f in self.fields:
            self._show(self.editors[f.path], f, shown_value(doc, f))

    def _build(self, fields: list[Field]) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.editors.clear()
        self.fields = fields
        for f in fields:
            w = self._editor(f)
            w.setObjectName("game-setting:" + ".".join(map(str, f.path)))
            w.setToolTip(f.description)
            self.editors[f.path] = w
            label = f.title if len(f.path) <= 2 else f"{str(f.path[-2]).replace('_', ' ')}: {f.title}"
            self.form.addRow(label, w)

    def _editor(self, f: Field) -> QWidget:
        if f.kind == "bool":
            box = QCheckBox()
            box.toggled.connect(lambda v, f=f: self.commit(f, bool(v)))
            return box
        if f.kind == "enum":
            combo = QComboBox()
            combo.addItems([*([""] if f.nullable else []), *(str(c) for c in f.choices)])
            combo.activated.connect(lambda _i, f=f, c=combo: self.commit(f, self._choice(f, c.currentText())))
            return combo
        edit = QLineEdit()
        edit.setMinimumWidth(90)
        if f.nullable:
            edit.setPlaceholderText("(none)")
        edit.editingFinished.connect(lambda f=f, e=edit: self._commit_text(f, e))
        return edit

    @staticmethod
    def _show(w: QWidget, f: Field, value: Any) -> None:
        w.blockSignals(True)
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            text = "" if value is None else str(value)
            if w.findText(text) < 0:  # an optional choice left out of the file: shown blank
                w.insertItem(0, text)
            w.setCurrentIndex(w.findText(text))
        elif isinstance(w, QLineEdit) and w.text() != fmt(value):
            w.setText(fmt(value))
            w.setCursorPosition(0)
        w.blockSignals(False)

    @staticmethod
    def _choice(f: Field, text: str) -> Any:
        if text == "":  # the blank entry: the field left out (its default)
            return None
        for c in f.choices:
            if str(c) == text:
                return c
        return text

    # ------------------------------------------------------------------ editing

    def _commit_text(self, f: Field, edit: QLineEdit) -> None:
        text = edit.text().strip()
        old = shown_value(G.document(self.doc.arena), f)
        if text == fmt(old):
            return
        value: Any = text
        if text == "" and f.nullable:
            value = None
        elif f.kind in ("number", "integer"):
            try:
                value = float(text) if f.kind == "number" else int(text)
            except ValueError:
                self._refuse(f"{f.title} must be {'a number' if f.kind == 'number' else 'a whole number'}")
                return
            if f.kind == "number" and float(value).is_integer():
                value = int(value)
        self.commit(f, value)

    def commit(self, f: Field, value: Any) -> bool:
        try:
            cmd = SetArenaField(self.doc, f.path, value, f.title.lower())
        except (ValueError, KeyError, TypeError) as exc:
            self._refuse(str(exc))
            return False
        self.error.clear()
        self.doc.push(cmd)
        return True

    def _refuse(self, why: str) -> None:
        self.error.setText(why)
        self.message.emit(f"Refused: {why}")
        self.refresh()
