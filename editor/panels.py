"""Dock panels: element tree, property inspector and validation findings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor import commands as C
from editor import elements as E
from editor import render
from editor.document import ArenaDocument
from editor.game import ElementProperty as Prop
from editor.game import game_of
from editor.snapping import segment_ends
from editor.validation import STAGE, Finding, ValidationRunner
from schema.ruleset import ArenaModel
from schema.shapes import Polygon, Polyline

if TYPE_CHECKING:
    from editor.games.schema_fields import Field

REF_ROLE = Qt.ItemDataRole.UserRole


def fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


class ElementTree(QTreeWidget):
    """Elements grouped by kind; selection mirrors the document's both ways. The Delete key asks
    for the selected elements to be deleted (:attr:`deleteRequested`), as Edit → Delete does."""

    frameRequested = Signal(list)
    deleteRequested = Signal()

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setHeaderHidden(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.items_by_ref: dict[str, QTreeWidgetItem] = {}
        self._syncing = False
        self._shown: list[tuple[str, list[tuple[str, str]]]] | None = None  # what the tree lists
        doc.arenaChanged.connect(self.rebuild)
        doc.selectionChanged.connect(self.sync_selection)
        self.itemSelectionChanged.connect(self._tree_selection_changed)
        self.itemDoubleClicked.connect(lambda item, _c: self.frameRequested.emit(self.selected_refs()))
        self.rebuild(doc.arena)

    def _rows(self, arena: ArenaModel) -> list[tuple[str, list[tuple[str, str]]]]:
        rows = []
        for kind in E.kinds(arena):
            els = getattr(arena, kind)
            rows.append((f"{E.kind_label(kind, arena)} ({len(els)})", [
                (el.id, (f"Player {el.player}" if kind == "start_positions" else el.id)
                 + (f"  {getattr(el, 'kind', '')}" if getattr(el, "kind", "") else "")) for el in els]))
        return rows

    def rebuild(self, arena: ArenaModel, force: bool = False) -> None:
        rows = self._rows(arena)
        if rows == self._shown and not force:  # an element moved or changed shape: same tree
            return
        self._shown = rows
        self._syncing = True
        try:
            tops = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
            expanded = {top.text(0).split(" (")[0]: top.isExpanded() for top in tops if top is not None}
            self.clear()
            self.items_by_ref = {}
            for kind in E.kinds(arena):
                els = getattr(arena, kind)
                label = E.kind_label(kind, arena)
                group = QTreeWidgetItem(self, [f"{label} ({len(els)})"])
                group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsSelectable)
                for el in els:
                    extra = getattr(el, "kind", "")
                    text = f"Player {el.player}" if kind == "start_positions" else el.id
                    child = QTreeWidgetItem(group, [f"{text}  {extra}".rstrip()])
                    child.setData(0, REF_ROLE, el.id)
                    if not self.doc.selectable(el.id):  # a hidden or locked layer
                        child.setFlags(child.flags() & ~Qt.ItemFlag.ItemIsSelectable & ~Qt.ItemFlag.ItemIsEnabled)
                    self.items_by_ref[el.id] = child
                group.setExpanded(expanded.get(label, True))
        finally:
            self._syncing = False
        self.sync_selection(self.doc.selection)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.matches(QKeySequence.StandardKey.Delete) or event.key() == Qt.Key.Key_Backspace:
            self.deleteRequested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def selected_refs(self) -> list[str]:
        return [i.data(0, REF_ROLE) for i in self.selectedItems() if i.data(0, REF_ROLE)]

    def sync_selection(self, refs: list[str]) -> None:
        self._syncing = True
        try:
            wanted = set(refs)
            for ref, item in self.items_by_ref.items():
                item.setSelected(ref in wanted)
            if refs and refs[0] in self.items_by_ref:
                self.scrollToItem(self.items_by_ref[refs[0]])
        finally:
            self._syncing = False

    def _tree_selection_changed(self) -> None:
        if not self._syncing:
            self.doc.set_selection(self.selected_refs())


class Inspector(QWidget):
    """Typed editors for the single selected element (or the arena name); every edit is an
    undo command and invalid values are refused with a message."""

    #: Another game's element's fields by name, set by :func:`editor.games.inspector.fill`.
    generic_fields: dict[str, Field]

    message = Signal(str)

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.editors: dict[str, QWidget] = {}
        self.points_table: QWidget | None = None
        self.ref: str | None = None
        outer = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold")
        outer.addWidget(self.title)
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        outer.addWidget(self.form_host)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # refusals quote values as typed
        self.error.setStyleSheet(f"color: {render.VERMILLION.name()}")
        outer.addWidget(self.error)
        outer.addStretch(1)
        self.props: dict[str, Prop] = {}
        doc.arenaChanged.connect(lambda _a: self.refresh())
        doc.selectionChanged.connect(lambda _s: self.rebuild())
        self.rebuild()

    def refresh(self) -> None:
        """After an edit: the same element with the same kinds of properties gets its values
        updated in place (a drag does not rebuild the form); anything else rebuilds."""
        from editor.games import is_generic

        if is_generic(self.doc.arena):
            from editor.games import inspector as GI

            if not GI.refresh(self):
                self.rebuild()
            return
        el = E.find(self.doc.arena, self.ref) if self.ref else None
        props = game_of(self.doc.arena).element_properties(el) if el is not None and self.points_table is None else None
        if not props or [(p.name, p.type, p.choices) for p in props] != \
                [(p.name, p.type, p.choices) for p in self.props.values()] or list(self.doc.selection) != [self.ref]:
            self.rebuild()
            return
        for p in props:
            w = self.editors[p.name]
            w.blockSignals(True)
            if isinstance(w, QCheckBox):
                w.setChecked(bool(p.value))
            elif isinstance(w, QComboBox):
                w.setCurrentText(str(p.value))
            elif isinstance(w, QLineEdit) and w.text() != fmt(p.value):
                w.setText(fmt(p.value))
                w.setCursorPosition(0)
            w.blockSignals(False)
        self.props = {p.name: p for p in props}

    def rebuild(self) -> None:
        self.error.clear()  # a refusal is about the element that was shown
        while self.form.rowCount():
            row = self.form.takeRow(0)  # widgets are deleted later: one may be emitting right now
            for it in (row.labelItem, row.fieldItem):
                w = it.widget() if it is not None else None
                if w is not None:
                    w.hide()
                    w.setParent(None)
                    w.deleteLater()
        self.editors = {}
        self.props = {}
        self.points_table = None
        sel = self.doc.selection
        self.ref = sel[0] if len(sel) == 1 else None
        el = E.find(self.doc.arena, self.ref) if self.ref else None
        if el is None:
            self.ref = None
            if sel:
                self.title.setText(f"{len(sel)} elements selected")
                return
            self.title.setText("Arena")
            edit = QLineEdit(self.doc.arena.name)
            edit.setCursorPosition(0)  # a long name shows its start
            edit.setObjectName("prop:name")
            edit.editingFinished.connect(lambda: self._commit_name(edit))
            self.form.addRow("Name", edit)
            self.editors["name"] = edit
            return
        from editor.games import is_generic

        if is_generic(self.doc.arena):  # another game: fields from the kind's JSON Schema
            from editor.games import inspector as GI

            GI.fill(self, el)
            return
        self.title.setText(f"{game_of(self.doc.arena).ruleset.kind(E.kind_of(el)).title} {el.id}")
        for p in game_of(self.doc.arena).element_properties(el):
            self.form.addRow(p.label, self._editor(p))
        segment = segment_ends(el) is not None  # a gate: its two ends
        if segment or isinstance(getattr(el, "shape", None), (Polygon, Polyline)):
            from editor.settings_panels import PointsTable

            self.points_table = PointsTable(self.doc, el.id)
            self.points_table.message.connect(self._table_message)
            self.form.addRow("Ends" if segment else "Points", self.points_table)

    def _table_message(self, text: str) -> None:
        self.error.setText(text.removeprefix("Refused: "))
        self.message.emit(text)

    def _editor(self, p: Prop) -> QWidget:
        w: QWidget
        if p.type == "bool":
            box = QCheckBox()
            box.setChecked(bool(p.value))
            box.toggled.connect(lambda v, n=p.name: self.commit(n, bool(v)))
            w = box
        elif p.type == "choice":
            combo = QComboBox()
            combo.addItems(list(p.choices))
            combo.setCurrentText(str(p.value))
            combo.currentTextChanged.connect(lambda v, n=p.name: self.commit(n, v))
            w = combo
        else:
            edit = QLineEdit(fmt(p.value))
            edit.setCursorPosition(0)
            if p.type == "angle":
                edit.setToolTip("Degrees counter-clockwise from +x")
            edit.editingFinished.connect(lambda e=edit, n=p.name: self._commit_text(e, self.props[n]))
            w = edit
        w.setObjectName(f"prop:{p.name}")
        self.editors[p.name] = w
        self.props[p.name] = p
        return w

    def _commit_text(self, edit: QLineEdit, p: Prop) -> None:
        text = edit.text().strip()
        if text == fmt(p.value):
            return
        value: Any = text
        if p.type != "str":
            try:
                value = float(text)
            except ValueError:
                self._refuse(f"{p.label} must be a number", edit, fmt(p.value))
                return
        self._commit(p.name, value, edit, fmt(p.value))

    def commit(self, name: str, value: Any) -> bool:
        """Set property ``name`` of the inspected element through an undo command."""
        return self._commit(name, value, None, None)

    def _commit(self, name: str, value: Any, edit: QLineEdit | None, old: str | None) -> bool:
        if self.ref is None:
            return False
        ref = self.ref
        try:
            cmd = C.SetProperty(self.doc, ref, name, value)
        except ValueError as exc:
            self._refuse(str(exc), edit, old)
            return False
        self.error.clear()
        self.doc.push(cmd)
        return True

    def _commit_name(self, edit: QLineEdit) -> None:
        if edit.text().strip() == self.doc.arena.name:
            return
        try:
            cmd = C.SetArenaName(self.doc, edit.text())
        except ValueError as exc:
            self._refuse(str(exc), edit, self.doc.arena.name)
            return
        self.doc.push(cmd)

    def _refuse(self, text: str, edit: QLineEdit | None, old: str | None) -> None:
        self.error.setText(text)
        self.message.emit(f"Refused: {text}")
        if edit is not None and old is not None:
            edit.blockSignals(True)
            edit.setText(old)
            edit.blockSignals(False)
        elif edit is None:
            self.rebuild()
            self.error.setText(text)


_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


class WrapDelegate(QStyledItemDelegate):
    """Rows as tall as their wrapped text in the column's current width (QTreeView sizes rows
    without the column width, so word wrap alone would leave one line per row)."""

    PAD = 6

    def __init__(self, view: QTreeWidget) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        width = self.view.header().sectionSize(index.column()) - self.PAD
        text = str(index.data() or "")
        if width <= 0 or not text:
            return hint
        box = option.fontMetrics.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text)
        return QSize(hint.width(), max(hint.height(), box.height() + self.PAD))


class ValidationPanel(QWidget):
    """Findings of the newest validation run; clicking one selects and frames its elements."""

    findingActivated = Signal(list)
    findingSelected = Signal(dict)  # the whole finding (with its travel path, if any)

    def __init__(self, runner: ValidationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        layout = QVBoxLayout(self)
        self.status = QLabel("Not validated yet")
        layout.addWidget(self.status)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Severity", "Code", "Message", "Elements", "Under table error"])
        self.tree.headerItem().setToolTip(4, "Share of placements by hand (Analysis → Tabletop robustness…) that have "
                                             "this finding")
        self.tree.setRootIsDecorated(False)
        # messages wrap in the width there is: no sideways scrolling to read a finding
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.tree.header()
        header.setStretchLastSection(False)
        for col, mode in enumerate((QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.ResizeToContents,
                                    QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Interactive,
                                    QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(col, mode)
        header.resizeSection(3, 130)
        self.tree.setColumnHidden(4, True)  # until a tabletop-robustness run (set_robustness)
        self.tree.setItemDelegate(WrapDelegate(self.tree))
        header.sectionResized.connect(lambda *_: self.tree.doItemsLayout())  # re-wrap to the new width
        layout.addWidget(self.tree)
        self.findings: list[Finding] = []
        #: The last tabletop-robustness section (validators.robustness), or None.
        self.robustness: dict[str, Any] | None = None
        runner.started.connect(lambda g: self.status.setText(f"Validating… (run {g})"))
        runner.finished.connect(self.show_findings)
        runner.failed.connect(lambda text: self.status.setText("Validation failed: " + text.strip().splitlines()[-1]))
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)

    def show_findings(self, findings: list[Finding]) -> None:
        # worst first (the stages arrive in their own order: quick checks, then travel)
        self.findings = sorted(findings, key=lambda f: _SEVERITY_ORDER.get(f["severity"], len(_SEVERITY_ORDER)))
        self.tree.clear()
        shares = table_shares(self.robustness)
        named = {(f["code"], tuple(sorted(f["elements"]))): tuple(f["elements"])
                 for f in (self.robustness or {}).get("findings", [])}
        for i, f in enumerate(self.findings):
            code = f["code"] if f.get("tier") is None else f"{f['code']} [tier {f['tier']}]"
            item = QTreeWidgetItem(self.tree, [f["severity"], code, f["message"], ", ".join(f["elements"])])
            item.setData(0, REF_ROLE, i)
            item.setToolTip(2, f["message"])
            item.setForeground(0, render.SEVERITY_COLOURS.get(f["severity"], QColor("black")))
            share = shares.pop((f["code"], tuple(sorted(f["elements"]))), None)
            if share is not None:
                item.setText(4, f"in {share:.0%}")
                item.setToolTip(4, f"{share:.0%} of placements by hand have this finding")
        n = len(self.findings)
        text = "No findings" if n == 0 else f"{n} finding{'s' if n != 1 else ''}"
        for (code, elements), share in sorted(shares.items(), key=lambda kv: -kv[1]):
            elements = named.get((code, elements), elements)
            if share <= 0:
                continue  # in the drawn arena's last report but not in this one: the edit changed it
            self.findings.append({"code": code, "severity": "info", "elements": list(elements), "metrics": {}, "table": True,
                                  "message": f"not in the drawn arena, but {share:.0%} of placements by hand have it"})
            item = QTreeWidgetItem(self.tree, ["table", code, self.findings[-1]["message"], ", ".join(elements),
                                               f"in {share:.0%}"])
            item.setData(0, REF_ROLE, len(self.findings) - 1)
            item.setForeground(0, QColor("#777777"))
        if self.robustness is not None:
            text += f" · under table error: {self.robustness['validated']} placements"
        if self.runner.note:  # which player count's start set was judged (editor.start_sets)
            text += f" · {self.runner.note}"
        if not self.runner.final:
            text += f" so far — {self.runner.running or STAGE} running in the background…"
        self.status.setText(text)

    def set_robustness(self, section: dict[str, Any] | None) -> None:
        """Show (or, with None, hide) the "Under table error" column of a robustness run."""
        if section is None and self.robustness is None:
            return
        self.robustness = section
        self.tree.setColumnHidden(4, section is None)
        self.show_findings([f for f in self.findings if not f.get("table")])

    def _clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        f = self.findings[item.data(0, REF_ROLE)]
        self.findingSelected.emit(dict(f))
        self.findingActivated.emit(list(f["elements"]))


def table_shares(section: dict[str, Any] | None) -> dict[tuple[str, tuple[str, ...]], float]:
    """(code, sorted elements) -> share of placements with that finding, from a robustness section
    (a finding names its elements in any order)."""
    if not section:
        return {}
    return {(f["code"], tuple(sorted(f["elements"]))): float(f["share"]) for f in section["findings"]}


def severities(findings: list[Finding]) -> dict[str, str]:
    """Worst severity per element ref."""
    rank = {"error": 3, "warning": 2, "info": 1}
    out: dict[str, str] = {}
    for f in findings:
        for ref in f["elements"]:
            if rank.get(f["severity"], 0) > rank.get(out.get(ref, ""), 0):
                out[ref] = f["severity"]
    return out
