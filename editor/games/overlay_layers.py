"""The Car Wars overlays' canvas layers and their key (:mod:`editor.games.overlays` drives
them): the travel heat map and the line of sight under the elements, the planned path over
them, and a key in the canvas's top-right corner like Gravstrike's
(:class:`editor.canvas_legend.CanvasLegend`)."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QFrame, QGraphicsItem, QGridLayout, QLabel, QProgressBar, QStyleOptionGraphicsItem, QVBoxLayout, QWidget

from editor import render as R
from editor.canvas_legend import MARGIN, swatch
from editor.games import overlay_work as W

HEAT_Z = -5.0  # under every element (as Gravstrike's)
SIGHT_Z = -4.0
PATH_Z = 50.0  # over every element
HEAT_ALPHA = 120


def _bounds_path(arena: Any) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in arena.bounds_geometry().exterior.coords]))
    return path


class CwHeatLayer(QGraphicsItem):
    """Cells coloured by the turns the chosen start needs for the car's centre to end a
    movement point there (half-turn bands up to the horizon)."""

    def __init__(self) -> None:
        super().__init__()
        self.arena: Any = None
        self.reach: Any = None
        self.times: Any = None  # the map's times for drawing (W.display_times)
        self.setZValue(HEAT_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_map(self, arena: Any, reach: Any) -> None:
        self.prepareGeometryChange()
        self.arena, self.reach = arena, reach
        self.times = W.display_times(reach.times) if reach is not None else None
        self.update()

    def boundingRect(self) -> QRectF:
        if self.reach is None:
            return QRectF()
        nx, ny = self.reach.times.shape
        return QRectF(self.reach.x0, self.reach.y0, nx * self.reach.cell, ny * self.reach.cell)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.reach is None or self.arena is None:
            return
        painter.save()
        painter.setClipPath(_bounds_path(self.arena), Qt.ClipOperation.IntersectClip)
        painter.setPen(Qt.PenStyle.NoPen)
        m = self.reach
        nx, ny = self.times.shape
        for i in range(nx):
            for j in range(ny):
                colour = W.heat_colour(float(self.times[i, j]))
                if colour is None:
                    continue
                c = QColor(colour)
                c.setAlpha(HEAT_ALPHA)
                painter.setBrush(c)
                painter.drawRect(QRectF(m.x0 + i * m.cell, m.y0 + j * m.cell, m.cell, m.cell))
        painter.restore()


#: Line of sight: (fill brush, outline colour) per class.
def sight_style(cls: int) -> tuple[QBrush, QColor | None]:
    if cls == W.CLEAR:
        return QBrush(R._alpha(R.INK, 120), Qt.BrushStyle.BDiagPattern), R.VERMILLION
    if cls == W.COVER:
        return QBrush(R._alpha(R.ORANGE, 200), Qt.BrushStyle.Dense6Pattern), R.ORANGE.darker(130)
    return QBrush(R._alpha(R.INK, 70)), None


class CwSightLayer(QGraphicsItem):
    """What a start's car sees: clear (hatched, bold outline), through cover (dotted orange)
    and blocked (grey), under the elements."""

    def __init__(self) -> None:
        super().__init__()
        self.grid: W.SightGrid | None = None
        self.paths: dict[int, QPainterPath] = {}
        self.setZValue(SIGHT_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_grid(self, grid: W.SightGrid | None) -> None:
        self.prepareGeometryChange()
        self.grid = grid
        self.paths = {}
        for cls, polys in (grid.regions.items() if grid is not None else ()):
            path = QPainterPath()
            path.setFillRule(Qt.FillRule.OddEvenFill)
            for rings in polys:
                for ring in rings:
                    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in ring]))
                    path.closeSubpath()
            self.paths[cls] = path
        self.update()

    def boundingRect(self) -> QRectF:
        r = QRectF()
        for path in self.paths.values():
            r = r.united(path.boundingRect())
        return r.adjusted(-0.5, -0.5, 0.5, 0.5)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        for cls in (W.BLOCKED, W.COVER, W.CLEAR):
            path = self.paths.get(cls)
            if path is None:
                continue
            brush, outline = sight_style(cls)
            painter.setBrush(brush)
            painter.setPen(R.pen(outline, 2.0) if outline is not None else Qt.PenStyle.NoPen)
            painter.drawPath(path)


class CwPathLayer(QGraphicsItem):
    """A planned path: the centre's line through every movement point, the car's footprint and
    heading after each, turns shaded alternately and labelled with the turn number (and the
    dice rolled there, if any)."""

    def __init__(self) -> None:
        super().__init__()
        self.plan: W.PathPlan | None = None
        self.vehicle: Any = None
        self.setZValue(PATH_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_plan(self, plan: W.PathPlan | None, vehicle: Any) -> None:
        self.prepareGeometryChange()
        self.plan, self.vehicle = plan, vehicle
        self.update()

    def boundingRect(self) -> QRectF:
        if self.plan is None:
            return QRectF()
        pts = [(s["x"], s["y"]) for s in self.plan.steps] + [self.plan.start[:2]]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        pad = 3.0 + float(getattr(self.vehicle, "length", 3.0))
        return QRectF(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        from editor.games.paint import car_path

        if self.plan is None:
            return
        moves = self.plan.moves()
        x0, y0, _h = self.plan.start
        prev = QPointF(x0, y0)
        for step in moves:
            fill = QColor(R.VERMILLION)
            fill.setAlpha(30 + 40 * (step["turn"] % 2))  # alternate turns
            painter.setBrush(fill)
            painter.setPen(R.pen(R.VERMILLION, 1.0))
            painter.drawPath(car_path((step["x"], step["y"]), step["heading"], self.vehicle))
        painter.setPen(R.pen(R.VERMILLION, 2.5))
        for step in moves:
            here = QPointF(step["x"], step["y"])
            painter.drawLine(prev, here)
            prev = here
        half = float(getattr(self.vehicle, "length", 3.0)) / 2.0
        for step in moves:  # heading: a tick to the car's nose
            a = math.radians(step["heading"])
            here = QPointF(step["x"], step["y"])
            painter.setPen(R.pen(R.INK, 2.0))
            painter.drawLine(here, here + QPointF(math.cos(a), math.sin(a)) * half)
        for step in moves:
            text = f"{step['turn']}.{step['point']}" + (f" +{step['dice']}d" if step["dice"] else "")
            R.draw_label(painter, QPointF(step["x"], step["y"]), text, colour=QColor("white"), px=10, bold=True,
                         background=R._alpha(R.VERMILLION.darker(130), 220))


class CwLegend(QFrame):
    """The key of the Car Wars overlays, in the viewport's top-right corner."""

    def __init__(self, view: QWidget, viewport: QWidget) -> None:
        super().__init__(view)
        self.viewport = viewport
        self.setObjectName("carwars-overlay-legend")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#carwars-overlay-legend { background: rgba(255, 255, 255, 235); border: 1px solid #888; }")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        col = QVBoxLayout(self)
        col.setContentsMargins(8, 6, 8, 6)
        col.setSpacing(4)
        self.heat_title, self.path_title, self.sight_title = QLabel(), QLabel(), QLabel()
        for t in (self.heat_title, self.path_title, self.sight_title):
            t.setStyleSheet("font-weight: bold")
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumHeight(8)
        self.busy.setTextVisible(False)
        self.heat_rows = QWidget()
        grid = QGridLayout(self.heat_rows)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(1)
        lower = 0.0
        for i, (upper, colour) in enumerate(W.HEAT_BANDS):
            c = QColor(colour)
            c.setAlpha(HEAT_ALPHA)
            icon = QLabel()
            icon.setPixmap(swatch(c, QColor(colour)))
            grid.addWidget(icon, i, 0)
            grid.addWidget(QLabel(f"{lower:g}–{upper:g} turns"), i, 1)
            lower = upper
        grid.addWidget(QLabel(f"uncoloured: more than {lower:g} turns"), len(W.HEAT_BANDS), 0, 1, 2)
        grid.setColumnStretch(1, 1)
        self.path_text = QLabel()
        self.sight_rows = QWidget()
        rows = QGridLayout(self.sight_rows)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setHorizontalSpacing(6)
        for i, (cls, text) in enumerate(((W.CLEAR, "seen, no cover"), (W.COVER, "seen through cover"),
                                         (W.BLOCKED, "blocked by full cover"))):
            brush, outline = sight_style(cls)
            icon = QLabel()
            icon.setPixmap(swatch(brush, outline))
            rows.addWidget(icon, i, 0)
            rows.addWidget(QLabel(text), i, 1)
        rows.setColumnStretch(1, 1)
        for w in (self.heat_title, self.busy, self.heat_rows, self.path_title, self.path_text, self.sight_title,
                  self.sight_rows):
            col.addWidget(w)
        #: Per overlay: (title, state) with state "computing", "shown", "failed" or "" (a note).
        self.states: dict[str, tuple[str, str] | None] = {"heat": None, "path": None, "sight": None}
        view.installEventFilter(self)
        viewport.installEventFilter(self)
        self._update()

    def set_state(self, which: str, title: str | None, state: str = "shown", detail: str = "") -> None:
        self.states[which] = None if title is None else (title, state)
        if which == "path":
            self.path_text.setText(detail)
        self._update()

    def text(self) -> str:
        return " | ".join(w.text() for w in self.findChildren(QLabel) if w.isVisibleTo(self) and w.text())

    def _update(self) -> None:
        computing = [k for k, s in self.states.items() if s is not None and s[1] == "computing"]
        self.busy.setVisible(bool(computing))
        for key, title, body in (("heat", self.heat_title, self.heat_rows), ("path", self.path_title, self.path_text),
                                 ("sight", self.sight_title, self.sight_rows)):
            st = self.states[key]
            title.setVisible(st is not None)
            body.setVisible(st is not None and st[1] == "shown")
            if st is not None:
                title.setText({"computing": f"Computing {st[0]}…", "failed": f"{st[0]}: failed"}.get(st[1], st[0]))
        self.setVisible(any(s is not None for s in self.states.values()))
        self.adjustSize()
        self._place()

    def _place(self) -> None:
        port = self.viewport.geometry()
        self.move(port.right() - self.width() - MARGIN, port.top() + MARGIN)
        self.raise_()

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        from PySide6.QtCore import QEvent

        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self._place()
        return False


__all__ = ["CwHeatLayer", "CwLegend", "CwPathLayer", "CwSightLayer", "sight_style"]
