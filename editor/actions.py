"""Menus and dialogs added to the main window: arrange (align, distribute, mirror, rotate),
arena (symmetry, properties, scenario), templates, rulers and the keyboard cheat-sheet."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

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
    QMenu,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor import arrange as A
from editor import edit_commands as EC
from editor import symmetry as S
from editor.document import DEFAULT_ARENA
from schema.model import Symmetry

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

EXAMPLES = DEFAULT_ARENA.parent / "examples"


def templates() -> list[tuple[str, Path | None]]:
    """(label, file or None for the empty arena) for File → New from template."""
    out: list[tuple[str, Path | None]] = [("Empty arena", None), ("Default arena", DEFAULT_ARENA)]
    if EXAMPLES.is_dir():
        for p in sorted(EXAMPLES.glob("*.y*ml")):
            out.append((f"Example: {p.stem.replace('-', ' ')}", p))
    return out


class SymmetryDialog(QDialog):
    """Choose the arena's symmetry: none, rotational (order), mirror (axis), dihedral."""

    def __init__(self, current: Symmetry | None, centre: tuple[float, float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Symmetry")
        form = QFormLayout(self)
        self.kind = QComboBox()
        self.kind.addItems(["none", *S.KINDS])
        self.order = QSpinBox()
        self.order.setRange(1, 12)
        self.cx, self.cy, self.axis = QDoubleSpinBox(), QDoubleSpinBox(), QDoubleSpinBox()
        for box in (self.cx, self.cy):
            box.setRange(-1000, 1000)
            box.setDecimals(3)
            box.setSuffix(" L")
        self.axis.setRange(0, 180)
        self.axis.setSuffix(" °")
        sym = current or Symmetry("rotational", 2, centre)
        self.kind.setCurrentText(current.kind if current else "none")
        self.order.setValue(sym.order)
        self.cx.setValue(sym.center[0])
        self.cy.setValue(sym.center[1])
        self.axis.setValue(sym.axis % 180 if current else 90.0)
        form.addRow(QLabel("Edits to one element are applied to its whole orbit; recorded in the file."))
        form.addRow("Kind", self.kind)
        form.addRow("Order (N)", self.order)
        form.addRow("Centre x", self.cx)
        form.addRow("Centre y", self.cy)
        form.addRow("Mirror axis", self.axis)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.kind.currentTextChanged.connect(self._enable)
        self._enable(self.kind.currentText())

    def _enable(self, kind: str) -> None:
        self.order.setEnabled(kind in ("rotational", "dihedral"))
        self.axis.setEnabled(kind in ("mirror", "dihedral"))
        for w in (self.cx, self.cy):
            w.setEnabled(kind != "none")

    def symmetry(self) -> Symmetry | None:
        kind = self.kind.currentText()
        if kind == "none":
            return None
        order = 1 if kind == "mirror" else self.order.value()
        return Symmetry(kind, order, (self.cx.value(), self.cy.value()), self.axis.value())  # type: ignore[arg-type]


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


def shortcut_rows(win: MainWindow) -> list[tuple[str, str, str]]:
    rows = [("Tool", t.label, t.shortcut) for t in win.tools.values()]
    for act in win.act.values():
        seq = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if seq:
            rows.append(("Action", act.text().replace("&", ""), seq))
    return rows


def install(win: MainWindow) -> None:
    """Add the arrange/arena/help menus, templates and rulers to ``win``."""
    a = win._action
    sel = lambda: win.doc.selection  # noqa: E731
    acts: dict[str, QAction] = {}
    for how, key in zip(A.ALIGN, "LCRTMB"):
        acts[f"align_{how}"] = a(f"Align {how}", lambda h=how: win._push(lambda: EC.AlignElements(win.doc, sel(), h)),
                                 f"Alt+Shift+{key}")
    for d, key in (("horizontal", "H"), ("vertical", "V")):
        acts[f"distribute_{d}"] = a(f"Distribute {d}ly",
                                    lambda d=d: win._push(lambda: EC.DistributeElements(win.doc, sel(), d)),
                                    f"Alt+Shift+{key}")
    acts["mirror_horizontal"] = a("Mirror &horizontally", lambda: win._push(
        lambda: EC.MirrorElements(win.doc, sel(), "horizontal")), "Ctrl+Shift+H")
    acts["mirror_vertical"] = a("Mirror &vertically", lambda: win._push(
        lambda: EC.MirrorElements(win.doc, sel(), "vertical")), "Ctrl+Shift+J")
    acts["rotate_left"] = a("Rotate 90° counter-clockwise", lambda: win._push(
        lambda: EC.RotateElements(win.doc, sel(), 90.0)), "Ctrl+Shift+Left")
    acts["rotate_right"] = a("Rotate 90° clockwise", lambda: win._push(
        lambda: EC.RotateElements(win.doc, sel(), -90.0)), "Ctrl+Shift+Right")
    acts["rotate_by"] = a("Rotate &by…", lambda: rotate_by(win), "Ctrl+Shift+R")
    acts["symmetry"] = a("&Symmetry…", lambda: edit_symmetry(win), "Ctrl+Shift+Y")
    acts["symmetry_mode"] = QAction("Symmetry &mode", win, checkable=True, checked=True)
    acts["symmetry_mode"].setToolTip("Edit whole orbits when the arena declares a symmetry")
    acts["symmetry_mode"].toggled.connect(lambda on: set_symmetry_mode(win, on))
    acts["shortcuts"] = a("&Keyboard shortcuts", lambda: show_shortcuts(win), "F1")
    acts["guide"] = a("&User guide", lambda: show_user_guide(win), "Shift+F1")
    acts["rulers"] = QAction("Show &rulers", win, checkable=True, checked=True)
    acts["rulers"].toggled.connect(win.rulers.set_visible)
    win.act.update(acts)

    mb = win.menuBar()
    arr = win.menus["edit"].addMenu("&Arrange")
    for k in acts:
        if k.startswith("align_") or k.startswith("distribute_"):
            arr.addAction(acts[k])
    arr.addSeparator()
    for k in ("mirror_horizontal", "mirror_vertical", "rotate_left", "rotate_right", "rotate_by"):
        arr.addAction(acts[k])
    view = win.menus["view"]
    view.insertAction(view.actions()[5] if len(view.actions()) > 5 else None, acts["rulers"])
    arena = mb.addMenu("&Arena")
    arena.addAction(acts["symmetry"])
    arena.addAction(acts["symmetry_mode"])
    arena.addSeparator()
    for key in ("arena", "scenario"):
        act = win.docks[key].toggleViewAction()
        arena.addAction(act)
    helpm = mb.addMenu("&Help")
    helpm.addAction(acts["guide"])
    helpm.addAction(acts["shortcuts"])

    file_menu = win.menus["file"]
    tmpl = QMenu("New from &template", file_menu)
    file_menu.insertMenu(file_menu.actions()[2], tmpl)
    for label, path in templates():
        act = tmpl.addAction(label)
        act.triggered.connect(lambda _c=False, p=path: win.new_from_template(p))
    win.template_menu = tmpl


def rotate_by(win: MainWindow, degrees: float | None = None) -> bool:
    """Rotate the selection counter-clockwise by an angle asked for in a dialog."""
    if not win.doc.selection:
        win.statusBar().showMessage("Select something to rotate", 4000)
        return False
    if degrees is None:
        value, ok = QInputDialog.getDouble(win, "Rotate selection", "Degrees (counter-clockwise):", 45.0,
                                           -360.0, 360.0, 2)
        if not ok:
            return False
        degrees = value
    return bool(win._push(lambda: EC.RotateElements(win.doc, win.doc.selection, float(degrees))))


def edit_symmetry(win: MainWindow, symmetry: Symmetry | None | str = "ask") -> bool:
    """Set the arena's symmetry (dialog unless given) through the SetSymmetry undo command."""
    if symmetry == "ask":
        c = win.doc.arena.bounds.to_shapely().centroid
        dlg = SymmetryDialog(win.doc.arena.symmetry, (round(c.x, 3), round(c.y, 3)), win)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return False
        symmetry = dlg.symmetry()
    ok = bool(win._push(lambda: EC.SetSymmetry(win.doc, symmetry)))  # type: ignore[arg-type]
    if ok and symmetry is not None:
        win.act["symmetry_mode"].setChecked(True)
    return ok


def set_symmetry_mode(win: MainWindow, on: bool) -> None:
    win.doc.symmetry_enabled = on
    update_symmetry_label(win)


def update_symmetry_label(win: MainWindow) -> None:
    sym = win.doc.arena.symmetry
    if sym is None:
        win.symmetry_label.setText("")
        return
    state = "on" if win.doc.symmetry_enabled else "off"
    win.symmetry_label.setText(f"Symmetry {state}: {S.describe(sym)}")


def show_user_guide(win: MainWindow) -> QDialog:
    """Help → User guide (:mod:`editor.user_guide`)."""
    from editor.user_guide import show_guide

    win.user_guide = show_guide(win)  # type: ignore[attr-defined]
    return win.user_guide  # type: ignore[attr-defined, no-any-return]


def show_shortcuts(win: MainWindow) -> ShortcutsDialog:
    dlg = ShortcutsDialog(shortcut_rows(win), win)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    win.shortcuts_dialog = dlg
    dlg.show()
    return dlg
