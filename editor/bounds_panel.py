"""The Arena tab's bounds editor: the outline as numbers and presets.

*Shape* picks how the bounds are edited: a rectangle (centre, width, height, rotation), a
regular polygon (centre, radius to the corners, sides, rotation), free points (an x/y table)
or, for a game with circle boards (Arena Rex), a circle (centre, radius). Choosing another
shape converts the current outline (its bounding box, a regular polygon as wide, or the circle
through the box's longer side); a preset replaces it, keeping its size and centre. Every change is one
undoable *Edit arena bounds* step and a value the file format refuses is shown in red.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor import bounds as B
from editor.document import ArenaDocument
from schema.shapes import AreaShape, Circle, Polygon, Rect

KINDS = {"rect": "Rectangle", "regular": "Regular polygon", "polygon": "Polygon (points)", "circle": "Circle"}
FIELDS = {
    "rect": (("cx", "Centre x"), ("cy", "Centre y"), ("width", "Width"), ("height", "Height"),
             ("rotation", "Rotation (°)")),
    "regular": (("cx", "Centre x"), ("cy", "Centre y"), ("radius", "Radius (to corners)"), ("sides", "Sides"),
                ("rotation", "Rotation (°)")),
    "circle": (("cx", "Centre x"), ("cy", "Centre y"), ("radius", "Radius")),
}



def fmt(v: float) -> str:
    return f"{v:.6g}"


class BoundsEditor(QGroupBox):
    """Bounds as numbers; ``message`` carries refusals for the status bar."""

    message = Signal(str)
    #: The editor's own error text changed (the panel shows it in red).
    error = Signal(str)

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__("Bounds", parent)
        self.doc = doc
        layout = QVBoxLayout(self)
        top = QFormLayout()
        top.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.kind = QComboBox()
        self.kind.setObjectName("bounds:kind")
        for key, label in KINDS.items():
            self.kind.addItem(label, key)
        self.kind.activated.connect(lambda _i: self._convert(self.kind.currentData()))
        top.addRow("Shape", self.kind)
        self.preset = QComboBox()
        self.preset.setObjectName("bounds:preset")
        self.preset.activated.connect(self._preset)
        top.addRow("Preset", self.preset)
        layout.addLayout(top)
        self.pages = QStackedWidget()
        self.fields: dict[str, dict[str, QLineEdit]] = {}
        for kind, fields in FIELDS.items():
            page = QWidget()
            form = QFormLayout(page)
            form.setContentsMargins(0, 0, 0, 0)
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
            self.fields[kind] = {}
            for name, label in fields:
                edit = QLineEdit()
                edit.setMinimumWidth(90)
                edit.setObjectName(f"bounds:{name}")
                edit.editingFinished.connect(lambda k=kind, n=name: self._typed(k, n))
                form.addRow(label, edit)
                self.fields[kind][name] = edit
            self.pages.addWidget(page)
        self.points = QTableWidget(0, 2)
        self.points.setObjectName("bounds:points")
        self.points.setHorizontalHeaderLabels(["x", "y"])
        self.points.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.points.itemChanged.connect(self._point_changed)
        page = QWidget()
        col = QVBoxLayout(page)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.points)
        row = QHBoxLayout()
        self.add_button, self.remove_button = QPushButton("Add point"), QPushButton("Remove point")
        self.add_button.clicked.connect(self.add_point)
        self.remove_button.clicked.connect(self.remove_point)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        col.addLayout(row)
        self.pages.insertWidget(list(KINDS).index("polygon"), page)
        layout.addWidget(self.pages)
        self.shown = "rect"
        self.circles = False
        #: The designer picked "Polygon (points)": a polygon stays on that page even when its
        #: points trace a rectangle or a regular polygon.
        self._points_chosen = False
        self._shown_bounds: object = None
        doc.arenaChanged.connect(lambda _a: self.refresh() if self._bounds() != self._shown_bounds else None)
        self.refresh()

    def _bounds(self) -> AreaShape | None:
        """The arena's outline (None: a grid arena, whose cells are its bounds)."""
        arena = self.doc.arena
        return arena.bounds if isinstance(arena, B.BoundedArena) else None

    def outline(self) -> AreaShape:
        """The arena's outline (the editor is shown only for an arena that has one)."""
        found = self._bounds()
        if found is None:
            raise ValueError(f"a {self.doc.arena.system} arena has no bounds to edit: its cells are its board")
        return found

    # ---------------------------------------------------------------- showing

    def refresh(self) -> None:
        bounds = self._bounds()
        self.setVisible(bounds is not None)  # a grid arena's cells are its bounds
        self._shown_bounds = bounds
        if bounds is None:
            return
        self.circles = B.circle_board(self.doc.arena)  # a game with circle boards (Arena Rex)
        item = self.kind.model().item(list(KINDS).index("circle"))  # type: ignore[attr-defined]
        item.setEnabled(self.circles)
        form = B.describe(bounds)
        if self._points_chosen and isinstance(bounds, Polygon):
            form = B.BoundsForm("polygon", points=bounds.points)
        self._points_chosen = False if isinstance(bounds, Rect) else self._points_chosen
        self.shown = form.kind
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(list(KINDS).index(form.kind))
        self.kind.blockSignals(False)
        self.pages.setCurrentIndex(list(KINDS).index(form.kind))
        values = {"cx": form.center[0], "cy": form.center[1], "width": form.width, "height": form.height,
                  "rotation": form.rotation, "radius": form.radius, "sides": form.sides}
        for name, edit in self.fields.get(form.kind, {}).items():
            if not edit.hasFocus() or edit.text() != fmt(values[name]):
                edit.setText(fmt(values[name]))
                edit.setCursorPosition(0)
        self._fill_points()
        self.preset.blockSignals(True)
        self.preset.clear()
        self.preset.addItem("Choose a preset…")
        for label, _make in B.presets(bounds, self.circles, self.doc.arena.system):
            self.preset.addItem(label)
        self.preset.blockSignals(False)

    def _fill_points(self) -> None:
        bounds = B.as_polygon(self.outline())
        pts = bounds.corners() if isinstance(bounds, Rect) else bounds.points
        self.points.blockSignals(True)
        self.points.setRowCount(len(pts))
        for i, (x, y) in enumerate(pts):
            self.points.setItem(i, 0, QTableWidgetItem(fmt(x)))
            self.points.setItem(i, 1, QTableWidgetItem(fmt(y)))
        self.points.blockSignals(False)

    # ---------------------------------------------------------------- editing

    def apply(self, bounds: AreaShape) -> bool:
        """Set the bounds (one undo step); a refusal goes to ``message`` and the fields reset."""
        if bounds == self._bounds():
            self.refresh()
            return False
        from editor.game import game_of

        try:
            cmd = game_of(self.doc.arena).bounds_command()(self.doc, bounds)  # Arena Rex: the edges follow
        except ValueError as exc:
            self.error.emit(str(exc))
            self.message.emit(f"Refused: {exc}")
            self.refresh()
            return False
        self.error.emit("")
        self.doc.push(cmd)
        return True

    def _number(self, kind: str, name: str) -> float:
        text = self.fields[kind][name].text().strip()
        try:
            return float(text)
        except ValueError:
            label = dict(FIELDS[kind])[name].split(" (")[0]
            raise ValueError(f"{label} must be a number") from None

    def build(self, kind: str) -> AreaShape:
        """The bounds the fields of ``kind`` describe (``ValueError`` with a message)."""
        def n(name: str) -> float:
            return self._number(kind, name)

        if kind == "rect":
            return B.rect((n("cx"), n("cy")), n("width"), n("height"), n("rotation"))
        if kind == "circle":
            if not n("radius") > 0:
                raise ValueError("Radius must be more than 0")
            return Circle((n("cx"), n("cy")), n("radius"))
        sides = n("sides")
        if not sides.is_integer():
            raise ValueError("Sides must be a whole number")
        return B.regular((n("cx"), n("cy")), n("radius"), int(sides), n("rotation"))

    def _typed(self, kind: str, name: str) -> None:
        if kind != self.shown:
            return
        try:
            bounds = self.build(kind)
        except ValueError as exc:
            self.error.emit(str(exc))
            self.message.emit(f"Refused: {exc}")
            self.refresh()
            return
        self.apply(bounds)

    def set_field(self, name: str, value: float) -> bool:
        """Type ``value`` into a field of the shown shape and apply it (as pressing Enter)."""
        edit = self.fields[self.shown][name]
        edit.setText(fmt(value))
        before = self._bounds()
        self._typed(self.shown, name)
        return self._bounds() != before

    def choose_kind(self, kind: str) -> None:
        """Pick a shape in the *Shape* box (``rect``, ``regular``, ``polygon`` or, for a game
        with circle boards, ``circle``)."""
        self.kind.setCurrentIndex(list(KINDS).index(kind))
        self._convert(kind)

    def _convert(self, kind: str) -> None:
        self._points_chosen = kind == "polygon"
        if kind == self.shown:
            return
        if kind == "circle" and not B.circle_board(self.doc.arena):
            self.message.emit("Refused: this game's board is a rectangle or a polygon")
            self.refresh()
            return
        current = B.as_polygon(self.outline())
        cx, cy, w, h = B.extent(current)
        if kind == "rect":
            new: AreaShape = B.rect((cx, cy), w, h)
        elif kind == "regular":
            new = B.regular((cx, cy), max(w, h) / 2, 6, 0.0)
        elif kind == "circle":
            new = B.circle_of((cx, cy), max(w, h) / 2)
        else:
            new = Polygon(tuple((round(x, B.DECIMALS), round(y, B.DECIMALS)) for x, y in current.corners())) \
                if isinstance(current, Rect) else current
        if new == current:  # already a polygon: only the page changes
            self.refresh()
            return
        self.apply(new)

    def _preset(self, index: int) -> None:
        choices = B.presets(self.outline(), self.circles, self.doc.arena.system)
        if 1 <= index <= len(choices):
            self.apply(choices[index - 1][1]())
        self.preset.setCurrentIndex(0)

    def choose_preset(self, label: str) -> bool:
        """Apply the preset called ``label``."""
        for i, (text, _make) in enumerate(B.presets(self.outline(), self.circles, self.doc.arena.system), start=1):
            if text == label:
                before = self._bounds()
                self._preset(i)
                return self._bounds() != before
        raise KeyError(label)

    def _points(self) -> list[tuple[float, float]]:
        bounds = B.as_polygon(self.outline())
        return list(bounds.corners() if isinstance(bounds, Rect) else bounds.points)

    def _point_changed(self, item: QTableWidgetItem) -> None:
        pts = self._points()
        try:
            v = float(item.text())
        except ValueError:
            self.error.emit("a coordinate must be a number")
            self.message.emit("Refused: a coordinate must be a number")
            self._fill_points()
            return
        x, y = pts[item.row()]
        pts[item.row()] = (v, y) if item.column() == 0 else (x, v)
        self.apply(Polygon(tuple(pts)))

    def add_point(self) -> bool:
        """Insert a point halfway along the edge after the current row (or the last edge)."""
        pts = self._points()
        i = self.points.currentRow()
        i = i if 0 <= i < len(pts) else len(pts) - 1
        j = (i + 1) % len(pts)
        mid = (round((pts[i][0] + pts[j][0]) / 2, B.DECIMALS), round((pts[i][1] + pts[j][1]) / 2, B.DECIMALS))
        return self.apply(Polygon((*pts[:i + 1], mid, *pts[i + 1:])))

    def remove_point(self) -> bool:
        pts = self._points()
        i = self.points.currentRow()
        if not 0 <= i < len(pts):
            return False
        return self.apply(Polygon(tuple(pts[:i] + pts[i + 1:])))
