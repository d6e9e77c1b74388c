"""The inspector's form for an element of a generic ruleset, built from the kind's JSON Schema
(:mod:`editor.games.schema_fields`): enums as combo boxes, booleans as check boxes, integers as
spin boxes within the schema's minimum/maximum (a nullable one has a "none" entry), numbers and
text as line edits; each field's description is its tooltip.  Every change is one
:class:`~editor.games.commands.SetField` undo command; a value the game's schema refuses is
refused with its words.  A polygon's or thick line's points are listed in an x/y table (Add /
Remove point), each edit one undo command (:class:`GenericPointsTable`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox, QWidget

from editor.games import model as G
from editor.games.commands import SetField
from editor.games.schema_fields import Field, fields, value_at
from editor.settings_panels import PointsTable

if TYPE_CHECKING:
    from editor.panels import Inspector

NONE = "(none)"


def fmt(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _name(f: Field) -> str:
    return "field:" + ".".join(map(str, f.path))


def element_fields(arena: Any, ref: str) -> tuple[list[Field], dict[str, Any]]:
    el = G.find(arena, ref)
    key = G.kind_of(el)
    item = G.item_doc(arena, ref)
    return fields(G.ruleset(arena), key, item), item


def fill(panel: Inspector, el: Any) -> None:
    """Fill ``panel``'s form for generic element ``el``."""
    arena = panel.doc.arena
    key = G.kind_of(el)
    title = G.ruleset(arena).kind(key).title
    panel.title.setText(f"{title[:-1] if title.endswith('s') else title} {el.id}")
    flds, item = element_fields(arena, el.id)
    panel.generic_fields = {_name(f): f for f in flds}
    for f in flds:
        w = _editor(panel, f, value_at(item, f.path))
        panel.form.addRow(f.title, w)
    path = points_path(item)
    if path is not None:
        table = GenericPointsTable(panel.doc, el.id, path)
        table.message.connect(panel._table_message)
        panel.form.addRow("Points", table)
        panel.points_table = table


def points_path(item: Any, path: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """Where an element's document keeps its vertices (``("shape", "points")``), if it has any."""
    if not isinstance(item, dict) or len(path) > 2:
        return None
    pts = item.get("points")
    if isinstance(pts, list) and all(isinstance(p, list) and len(p) == 2 for p in pts):
        return (*path, "points")
    for key, value in item.items():
        found = points_path(value, (*path, key)) if isinstance(value, dict) else None
        if found is not None:
            return found
    return None


class GenericPointsTable(PointsTable):
    """The x/y table of a generic element's vertices (a Car Wars polygon wall, an Arena Rex
    polygon hazard...): each edit, added or removed point is one :class:`SetField` command,
    refused with the game's words when its schema refuses the points."""

    def __init__(self, doc: Any, ref: str, path: tuple[str | int, ...]) -> None:
        self.path = path
        super().__init__(doc, ref)

    def points(self) -> list[tuple[float, float]]:
        pts = value_at(G.item_doc(self.doc.arena, self.ref), self.path) if G.find(self.doc.arena, self.ref) else None
        return [(float(p[0]), float(p[1])) for p in pts] if isinstance(pts, list) else []

    def set_points(self, pts: list[tuple[float, float]], what: str) -> bool:
        value = [[int(c) if float(c).is_integer() else c for c in p] for p in pts]
        try:
            label = {"Insert vertex in": "points (one added)", "Delete vertex of": "points (one removed)"}.get(what, "points")
            cmd = SetField(self.doc, self.ref, self.path, value, label)
        except (ValueError, KeyError) as exc:
            self.message.emit(f"Refused: {exc}")
            self.fill()
            return False
        self.doc.push(cmd)
        return True


def refresh(panel: Inspector) -> bool:
    """Update the form's values in place (a drag must not rebuild it); False when the fields
    differ and the form must be rebuilt."""
    ref = panel.ref
    if ref is None or G.find(panel.doc.arena, ref) is None or list(panel.doc.selection) != [ref]:
        return False
    flds, item = element_fields(panel.doc.arena, ref)
    if [_name(f) for f in flds] != list(getattr(panel, "generic_fields", {})):
        return False
    table = panel.points_table
    if (points_path(item) is None) != (table is None):
        return False
    if isinstance(table, GenericPointsTable):
        table.fill()
    for f in flds:
        w = panel.editors.get(_name(f))
        if w is not None:
            _show(w, f, value_at(item, f.path))
    return True


def _show(w: QWidget, f: Field, value: Any) -> None:
    w.blockSignals(True)
    if isinstance(w, QCheckBox):
        w.setChecked(bool(value))
    elif isinstance(w, QComboBox):
        w.setCurrentText(NONE if value is None else str(value))
    elif isinstance(w, QSpinBox):
        w.setValue(w.minimum() if value is None else int(value))
    elif isinstance(w, QLineEdit) and w.text() != fmt(value):
        w.setText(fmt(value))
        w.setCursorPosition(0)
    w.blockSignals(False)


def _editor(panel: Inspector, f: Field, value: Any) -> QWidget:
    w: QWidget
    if f.kind == "enum":
        combo = QComboBox()
        combo.addItems([*(NONE,) * f.nullable, *map(str, f.choices)])
        combo.currentTextChanged.connect(lambda v, f=f: commit(panel, f, None if v == NONE else _choice(f, v)))
        w = combo
    elif f.kind == "bool":
        box = QCheckBox()
        box.toggled.connect(lambda v, f=f: commit(panel, f, bool(v)))
        w = box
    elif f.kind == "integer" and f.minimum is not None and f.maximum is not None:
        spin = QSpinBox()
        lo = int(f.minimum) + (1 if f.exclusive_minimum else 0)
        spin.setRange(lo - 1 if f.nullable else lo, int(f.maximum))
        if f.nullable:
            spin.setSpecialValueText(NONE)
        spin.valueChanged.connect(lambda v, f=f, s=spin: commit(panel, f, None if f.nullable and v == s.minimum() else int(v)))
        w = spin
    else:
        edit = QLineEdit()
        edit.editingFinished.connect(lambda e=edit, f=f: _commit_text(panel, e, f))
        w = edit
    _show(w, f, value)
    tip = f.description
    if f.minimum is not None or f.maximum is not None:
        low = "" if f.minimum is None else f"{'>' if f.exclusive_minimum else '≥'} {fmt(f.minimum)}"
        high = "" if f.maximum is None else f"≤ {fmt(f.maximum)}"
        tip += f"\n({', '.join(x for x in (low, high) if x)})"
    w.setToolTip(tip)
    w.setObjectName(_name(f))
    panel.editors[_name(f)] = w
    return w


def _choice(f: Field, text: str) -> Any:
    for c in f.choices:
        if str(c) == text:
            return c
    return text


def _commit_text(panel: Inspector, edit: QLineEdit, f: Field) -> None:
    text = edit.text().strip()
    item = G.item_doc(panel.doc.arena, panel.ref) if panel.ref else {}
    old = value_at(item, f.path)
    if text == fmt(old):
        return
    value: Any = text
    if f.kind in ("number", "integer"):
        if text == "" and f.nullable:
            value = None
        else:
            try:
                value = float(text) if f.kind == "number" else int(text)
            except ValueError:
                panel._refuse(f"{f.title} must be {'a number' if f.kind == 'number' else 'a whole number'}", edit, fmt(old))
                return
            if f.kind == "number" and float(value).is_integer():
                value = int(value)
    elif text == "" and f.nullable:
        value = None
    commit(panel, f, value, edit, fmt(old))


def commit(panel: Inspector, f: Field, value: Any, edit: QLineEdit | None = None, old: str | None = None) -> bool:
    """Set field ``f`` of the inspected element through an undo command."""
    if panel.ref is None:
        return False
    try:
        cmd = SetField(panel.doc, panel.ref, f.path, value, f.title.lower())
    except (ValueError, KeyError) as exc:
        panel._refuse(str(exc), edit, old)
        return False
    panel.error.clear()
    panel.doc.push(cmd)
    return True
