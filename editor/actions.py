"""Menus and dialogs added to the main window: arrange (align, distribute, mirror, rotate),
arena (symmetry, properties, scenario), templates, rulers and the keyboard cheat-sheet."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor import arrange as A
from editor import edit_commands as EC
from editor import symmetry as S
from editor.document import DEFAULT_ARENA
from editor.symmetry_form import TABLE, SymmetryForm, form_of

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoCommand
    from PySide6.QtWidgets import QDockWidget

    from editor.document import ArenaDocument
    from editor.rulers import Rulers
    from editor.tools import Tool

EXAMPLES = DEFAULT_ARENA.parent / "examples"


if TYPE_CHECKING:  # the room is mixed into the main window: typed as the QMainWindow it is part of
    _Window = QMainWindow
else:
    _Window = object


def templates() -> list[tuple[str, Path | None]]:
    """(label, file or None for the empty arena) for File → New from template."""
    out: list[tuple[str, Path | None]] = [("Empty arena", None), ("Default arena", DEFAULT_ARENA)]
    if EXAMPLES.is_dir():
        for p in sorted(EXAMPLES.glob("*.y*ml")):
            out.append((f"Example: {p.stem.replace('-', ' ')}", p))
    return out


class SymmetryDialog(QDialog):
    """Choose the arena's symmetry: none or one of its game's kinds, with the parameters its
    game's symmetry has (:class:`editor.symmetry_form.SymmetryForm`): an order, a centre, a
    mirror axis - a grid game's symmetry is about its grid's centre and has no centre fields,
    Mothership's mirrors or turns half round and has no order."""

    def __init__(self, current: Any, centre: tuple[float, float], unit: str,
                 parent: QWidget | None = None, form: SymmetryForm = TABLE) -> None:
        """``unit``: the symbol of the arena's unit (its game's), after the centre's coordinates;
        ``centre``: where a new symmetry's centre goes (when the game has one)."""
        super().__init__(parent)
        self.setWindowTitle("Symmetry")
        self.setMinimumWidth(340)
        self.form = form
        self.error = ""
        layout = QFormLayout(self)
        self.kind = QComboBox()
        self.kind.addItem("none", "")
        for k in form.kinds:
            self.kind.addItem(k, k)
            if k in form.hints:
                self.kind.setItemData(self.kind.count() - 1, form.hints[k], Qt.ItemDataRole.ToolTipRole)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.order = QComboBox()
        self.order.addItems([str(n) for n in form.orders])
        self.cx, self.cy, self.axis = QDoubleSpinBox(), QDoubleSpinBox(), QDoubleSpinBox()
        for box in (self.cx, self.cy):
            box.setRange(-1000, 1000)
            box.setDecimals(3)
            box.setSuffix(f" {unit}")
        self.axis.setRange(*form.axis_range)
        self.axis.setSuffix(" °")
        self.axis.setSingleStep(form.axis_step)
        kind = str(getattr(current, "kind", "")) if current is not None else ""
        order = int(getattr(current, "order", 1))
        self.kind.setCurrentIndex(max(0, self.kind.findData(kind)))
        if str(order) in [self.order.itemText(i) for i in range(self.order.count())]:
            self.order.setCurrentText(str(order))
        elif str(2) in [self.order.itemText(i) for i in range(self.order.count())]:
            self.order.setCurrentText("2")
        at = getattr(current, "center", centre)
        self.cx.setValue(float(at[0]))
        self.cy.setValue(float(at[1]))
        self.axis.setValue(float(getattr(current, "axis", 90.0)) % 180 if current is not None else 90.0)
        self.about = QLabel("Edits to one element are applied to its whole orbit; recorded in the file."
                            + (f"\n{form.about}" if form.about else ""))
        self.about.setWordWrap(True)
        layout.addRow(self.about)
        layout.addRow("Kind", self.kind)
        layout.addRow("", self.hint)
        rows: list[tuple[str, QWidget, bool]] = [("Order (N)", self.order, bool(form.orders)),
                                                 ("Centre x", self.cx, form.centre), ("Centre y", self.cy, form.centre),
                                                 ("Mirror axis", self.axis, form.axis)]
        for label, widget, has in rows:
            if has:  # the game's symmetry has this parameter
                layout.addRow(label, widget)
            else:
                widget.setParent(self)
                widget.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addRow(self.buttons)
        self.kind.currentIndexChanged.connect(lambda _i: self._enable(self.kind_value()))
        self._enable(self.kind_value())

    @classmethod
    def for_arena(cls, arena: Any, parent: QWidget | None = None) -> SymmetryDialog:
        """The dialog for ``arena``'s game (:func:`editor.symmetry_form.form_of`), showing its
        current symmetry; a new centre goes to the middle of the arena's bounds."""
        from editor.games.rulesets import units_symbol

        form = form_of(arena)
        centre = (0.0, 0.0)
        if form.centre and hasattr(arena, "bounds"):
            c = arena.bounds.to_shapely().centroid
            centre = (round(c.x, 3), round(c.y, 3))
        return cls(arena.symmetry, centre, units_symbol(arena), parent, form)

    def kind_value(self) -> str:
        return str(self.kind.currentData() or "")

    def _enable(self, kind: str) -> None:
        self.hint.setText(self.form.hints.get(kind, ""))
        self.order.setEnabled(self.form.uses_order(kind))
        self.axis.setEnabled(self.form.uses_axis(kind))
        for w in (self.cx, self.cy):
            w.setEnabled(kind != "")

    def symmetry(self) -> Any:
        """The game's own ``Symmetry`` of the fields (None: none); ``ValueError`` with the file
        format's words for a value the game refuses."""
        kind = self.kind_value()
        if not kind:
            return None
        order = int(self.order.currentText()) if self.order.count() else 1
        return self.form.value({"kind": kind, "order": order, "center": (self.cx.value(), self.cy.value()),
                                "axis": self.axis.value()})

    def accept(self) -> None:
        """OK: kept open, saying why, when the game refuses the values."""
        try:
            self.symmetry()
        except ValueError as exc:
            self.error = str(exc)
            self.hint.setText(f"Not possible: {exc}")
            return
        super().accept()


class ShortcutsDialog(QDialog):
    """Every tool and action with its shortcut."""

    def __init__(self, rows: list[tuple[str, str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(560, 640)
        layout = QVBoxLayout(self)
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Group", "Action", "Shortcut"])
        self.table.verticalHeader().setVisible(False)
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                self.table.setItem(i, j, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        layout.addWidget(self.table)
        layout.addWidget(QLabel("Modifiers while drawing: Shift = 15° steps, Ctrl = no snapping; "
                                "Space + drag or middle button pans; wheel zooms."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class ActionsRoom(_Window):
    """Mixed into the main window (``self`` is the :class:`~editor.mainwindow.MainWindow`): the
    arrange, arena and help menus, templates and rulers, and what their entries do."""

    if TYPE_CHECKING:  # the window parts this room uses, made in MainWindow.__init__
        doc: ArenaDocument
        tools: dict[str, Tool]
        rulers: Rulers
        act: dict[str, QAction]
        menus: dict[str, QMenu]
        docks: dict[str, QDockWidget]
        symmetry_label: QLabel

        def _action(self, text: str, slot: Callable[[], object],
                    shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                    widget: QWidget | None = None) -> QAction: ...
        def _push(self, make: Callable[[], QUndoCommand]) -> bool: ...
        def new_from_template(self, path: Path | None) -> bool: ...

    def shortcut_rows(self) -> list[tuple[str, str, str]]:
        rows = [("Tool", t.label, t.shortcut) for t in self.tools.values()]
        for act in self.act.values():
            seq = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if seq:
                rows.append(("Action", act.text().replace("&", ""), seq))
        return rows

    def install_actions(self) -> None:
        """Add the arrange/arena/help menus, templates and rulers to ``self``."""
        a = self._action

        def sel() -> list[str]:
            return self.doc.selection

        def align(how: str) -> Callable[[], bool]:
            return lambda: self._push(lambda: EC.AlignElements(self.doc, sel(), how))

        def distribute(direction: str) -> Callable[[], bool]:
            return lambda: self._push(lambda: EC.DistributeElements(self.doc, sel(), direction))

        acts: dict[str, QAction] = {}
        for how, key in zip(A.ALIGN, "LCRTMB"):
            acts[f"align_{how}"] = a(f"Align {how}", align(how),
                                     f"Alt+Shift+{key}")
        for d, key in (("horizontal", "H"), ("vertical", "V")):
            acts[f"distribute_{d}"] = a(f"Distribute {d}ly",
                                        distribute(d),
                                        f"Alt+Shift+{key}")
        acts["mirror_horizontal"] = a("Mirror &horizontally", lambda: self._push(
            lambda: EC.MirrorElements(self.doc, sel(), "horizontal")), "Ctrl+Shift+H")
        acts["mirror_vertical"] = a("Mirror &vertically", lambda: self._push(
            lambda: EC.MirrorElements(self.doc, sel(), "vertical")), "Ctrl+Shift+J")
        acts["rotate_left"] = a("Rotate 90° counter-clockwise", lambda: self._push(
            lambda: EC.RotateElements(self.doc, sel(), 90.0)), "Ctrl+Shift+Left")
        acts["rotate_right"] = a("Rotate 90° clockwise", lambda: self._push(
            lambda: EC.RotateElements(self.doc, sel(), -90.0)), "Ctrl+Shift+Right")
        acts["rotate_by"] = a("Rotate &by…", lambda: self.rotate_by(), "Ctrl+Shift+R")
        acts["symmetry"] = a("&Symmetry…", lambda: self.edit_symmetry(), "Ctrl+Shift+Y")
        acts["symmetry_mode"] = QAction("Symmetry &mode", self, checkable=True, checked=True)
        acts["symmetry_mode"].setToolTip("Edit whole orbits when the arena declares a symmetry")
        acts["symmetry_mode"].toggled.connect(lambda on: self.set_symmetry_mode(on))
        acts["shortcuts"] = a("&Keyboard shortcuts", lambda: self.show_shortcuts(), "F1")
        acts["guide"] = a("&User guide", lambda: self.show_user_guide(), "Shift+F1")
        acts["rulers"] = QAction("Show &rulers", self, checkable=True, checked=True)
        acts["rulers"].toggled.connect(self.rulers.set_visible)
        self.act.update(acts)

        mb = self.menuBar()
        arr = self.menus["edit"].addMenu("&Arrange")
        for k in acts:
            if k.startswith("align_") or k.startswith("distribute_"):
                arr.addAction(acts[k])
        arr.addSeparator()
        for k in ("mirror_horizontal", "mirror_vertical", "rotate_left", "rotate_right", "rotate_by"):
            arr.addAction(acts[k])
        view = self.menus["view"]
        if len(view.actions()) > 5:
            view.insertAction(view.actions()[5], acts["rulers"])
        else:  # what insertAction(None, ...) does: append
            view.addAction(acts["rulers"])
        arena = mb.addMenu("&Arena")
        arena.addAction(acts["symmetry"])
        arena.addAction(acts["symmetry_mode"])
        arena.addSeparator()
        for key in ("arena", "scenario"):
            act = self.docks[key].toggleViewAction()
            arena.addAction(act)
        helpm = mb.addMenu("&Help")
        helpm.addAction(acts["guide"])
        helpm.addAction(acts["shortcuts"])

        file_menu = self.menus["file"]
        tmpl = QMenu("New from &template", file_menu)
        file_menu.insertMenu(file_menu.actions()[2], tmpl)
        for label, path in templates():
            act = tmpl.addAction(label)
            act.triggered.connect(lambda _c=False, p=path: self.new_from_template(p))
        self.template_menu = tmpl

    def rotate_by(self, degrees: float | None = None) -> bool:
        """Rotate the selection counter-clockwise by an angle asked for in a dialog."""
        if not self.doc.selection:
            self.statusBar().showMessage("Select something to rotate", 4000)
            return False
        if degrees is None:
            value, ok = QInputDialog.getDouble(self, "Rotate selection", "Degrees (counter-clockwise):", 45.0,
                                               -360.0, 360.0, 2)
            if not ok:
                return False
            degrees = value
        return bool(self._push(lambda: EC.RotateElements(self.doc, self.doc.selection, float(degrees))))

    def edit_symmetry(self, symmetry: Any = "ask") -> bool:
        """Set the arena's symmetry (the game's own ``Symmetry`` or None; the dialog of the arena's
        game unless given) through the SetSymmetry undo command."""
        if isinstance(symmetry, str) and symmetry == "ask":
            dlg = SymmetryDialog.for_arena(self.doc.arena, self)
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return False
            symmetry = dlg.symmetry()
        ok = bool(self._push(lambda: EC.SetSymmetry(self.doc, symmetry)))
        if ok and symmetry is not None:
            self.act["symmetry_mode"].setChecked(True)
        return ok

    def set_symmetry_mode(self, on: bool) -> None:
        self.doc.symmetry_enabled = on
        self.update_symmetry_label()

    def update_symmetry_label(self) -> None:
        sym = getattr(self.doc.arena, "symmetry", None)  # the game's own Symmetry
        if sym is None:
            self.symmetry_label.setText("")
            return
        state = "on" if self.doc.symmetry_enabled else "off"
        text = S.describe(sym)
        if hasattr(sym, "center"):  # the text ends with the centre's coordinates: their unit
            from editor.games.rulesets import units_symbol

            text += f" {units_symbol(self.doc.arena)}"
        self.symmetry_label.setText(f"Symmetry {state}: {text}")

    def show_user_guide(self) -> QDialog:
        """Help → User guide (:mod:`editor.user_guide`)."""
        from editor.user_guide import show_guide

        self.user_guide = show_guide(self)
        return self.user_guide

    def show_shortcuts(self) -> ShortcutsDialog:
        dlg = ShortcutsDialog(self.shortcut_rows(), self)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.shortcuts_dialog = dlg
        dlg.show()
        return dlg
