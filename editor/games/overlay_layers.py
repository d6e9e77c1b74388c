"""The Car Wars overlays' canvas layers and their key (:mod:`editor.games.carwars.overlays` drives
them): the travel heat map and the line of sight under the elements, the planned path over
them, and a key in the canvas's top-right corner like Gravstrike's
(:class:`editor.canvas_legend.CanvasLegend`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QFrame, QGraphicsItem, QGridLayout, QLabel, QProgressBar, QStyleOptionGraphicsItem, QVBoxLayout, QWidget

from editor import render as R
from editor.canvas_legend import TITLE_WIDTH, follow_view, place_clear, swatch
from editor.games import overlay_work as W

HEAT_Z = -5.0  # under every element (as Gravstrike's)
SIGHT_Z = -4.0
PATH_Z = 50.0  # over every element
HEAT_ALPHA = 120


def _bounds_path(arena: Any) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in arena.bounds_geometry().exterior.coords]))
    return path


class CellLayer(QGraphicsItem):
    """Square cells coloured under the elements, clipped to the board: one image, a pixel a
    cell, drawn unsmoothed (the cells stay crisp at any zoom)."""

    def __init__(self) -> None:
        super().__init__()
        self.arena: Any = None
        self.image: QImage | None = None
        self.rect = QRectF()
        self.setZValue(HEAT_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_cells(self, arena: Any, x0: float, y0: float, cell: float, colours: Any) -> None:
        """Cell (i, j) covers [x0 + i*cell, x0 + (i+1)*cell) x [y0 + j*cell, ...) and is
        painted ``colours[i][j]`` (a colour name, or None for none) at :data:`HEAT_ALPHA`;
        ``colours`` None clears the layer."""
        self.prepareGeometryChange()
        self.arena = arena
        if colours is None:
            self.image, self.rect = None, QRectF()
        else:
            nx, ny = len(colours), (len(colours[0]) if len(colours) else 0)
            rgba = np.zeros((ny, nx, 4), dtype=np.uint8)
            cache: dict[str, tuple[int, int, int, int]] = {}
            for i in range(nx):
                for j in range(ny):
                    name = colours[i][j]
                    if name is not None:
                        if name not in cache:
                            c = QColor(name)
                            cache[name] = (c.red(), c.green(), c.blue(), HEAT_ALPHA)
                        rgba[j, i] = cache[name]
            self.image = QImage(rgba.tobytes(), nx, ny, 4 * nx, QImage.Format.Format_RGBA8888).copy()
            self.rect = QRectF(x0, y0, nx * cell, ny * cell)
        self.update()

    def colour_at(self, x: float, y: float) -> str | None:
        """The colour (``#rrggbb``) of the cell at arena point (x, y), if it is painted."""
        if self.image is None or not self.rect.contains(QPointF(x, y)):
            return None
        i = min(int((x - self.rect.x()) / self.rect.width() * self.image.width()), self.image.width() - 1)
        j = min(int((y - self.rect.y()) / self.rect.height() * self.image.height()), self.image.height() - 1)
        c = self.image.pixelColor(i, j)
        return c.name() if c.alpha() else None

    def boundingRect(self) -> QRectF:
        return QRectF(self.rect)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.image is None or self.arena is None:
            return
        painter.save()
        painter.setClipPath(_bounds_path(self.arena), Qt.ClipOperation.IntersectClip)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(self.rect, self.image)
        painter.restore()


class CwHeatLayer(CellLayer):
    """Cells coloured by the turns the chosen start needs for the car's centre to end a
    movement point there (half-turn bands up to the horizon)."""

    def __init__(self) -> None:
        super().__init__()
        self.reach: Any = None
        self.times: Any = None  # the map's times for drawing (W.display_times)

    def set_map(self, arena: Any, reach: Any) -> None:
        self.reach = reach
        self.times = W.display_times(reach.times) if reach is not None else None
        if reach is None:
            self.set_cells(None, 0.0, 0.0, 1.0, None)
            return
        self.set_cells(arena, reach.x0, reach.y0, reach.cell,
                       [[W.heat_colour(float(t)) for t in row] for row in self.times])


#: Line of sight: (fill brush, outline colour) per class.
def sight_style(cls: int) -> tuple[QBrush, QColor | None]:
    if cls == W.CLEAR:
        return QBrush(R.with_alpha(R.INK, 120), Qt.BrushStyle.BDiagPattern), R.VERMILLION
    if cls == W.COVER:
        return QBrush(R.with_alpha(R.ORANGE, 200), Qt.BrushStyle.Dense6Pattern), R.ORANGE.darker(130)
    return QBrush(R.with_alpha(R.INK, 70)), None


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
                         background=R.with_alpha(R.VERMILLION.darker(130), 220))


def band_row(colour: str, text: str) -> tuple[QColor, QColor, str]:
    """A key row of a heat band: its swatch at the layer's alpha, outlined in the full colour."""
    c = QColor(colour)
    c.setAlpha(HEAT_ALPHA)
    return c, QColor(colour), text


def turn_rows() -> list[tuple[Any, Any, str]]:
    """The Car Wars heat map's key: half-turn bands, then what is left uncoloured."""
    rows: list[tuple[Any, Any, str]] = []
    lower = 0.0
    for upper, colour in W.HEAT_BANDS:
        rows.append(band_row(colour, f"{lower:g}–{upper:g} turns"))
        lower = upper
    rows.append((None, None, f"uncoloured: over {lower:g} turns"))
    return rows


class CwLegend(QFrame):
    """The key of the Car Wars overlays, in the viewport's top-right corner."""

    def __init__(self, view: QWidget, viewport: QWidget, heat: Sequence[tuple[Any, Any, str]] | None = None,
                 sight: Sequence[tuple[QBrush, QColor | None, str]] | None = None,
                 name: str = "carwars-overlay-legend") -> None:
        """``heat``: the heat map's rows (fill, outline, text; a row without a fill is a note;
        default the Car Wars bands in turns), ``sight``: the line of sight's rows (brush,
        outline, text; default blocked / through cover / clear)."""
        super().__init__(view)
        self.viewport = viewport
        self.setObjectName(name)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(f"#{name} {{ background: rgba(255, 255, 255, 235); border: 1px solid #888; }}")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        col = QVBoxLayout(self)
        col.setContentsMargins(8, 6, 8, 6)
        col.setSpacing(4)
        self.heat_title, self.path_title, self.sight_title = QLabel(), QLabel(), QLabel()
        for t in (self.heat_title, self.path_title, self.sight_title):
            t.setStyleSheet("font-weight: bold")
            t.setWordWrap(True)
            t.setMaximumWidth(TITLE_WIDTH)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumHeight(8)
        self.busy.setTextVisible(False)
        self.heat_rows = QWidget()
        grid = QGridLayout(self.heat_rows)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(1)
        for i, (fill, outline, text) in enumerate(heat if heat is not None else turn_rows()):
            if fill is None:  # a note
                grid.addWidget(QLabel(text), i, 0, 1, 2)
                continue
            icon = QLabel()
            icon.setPixmap(swatch(fill, outline))
            grid.addWidget(icon, i, 0)
            grid.addWidget(QLabel(text), i, 1)
        grid.setColumnStretch(1, 1)
        self.path_text = QLabel()
        self.path_text.setWordWrap(True)
        self.path_text.setMaximumWidth(TITLE_WIDTH)
        self.sight_rows = QWidget()
        rows = QGridLayout(self.sight_rows)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setHorizontalSpacing(6)
        sight_rows = sight if sight is not None else [(*sight_style(cls), text) for cls, text in (
            (W.CLEAR, "seen, no cover"), (W.COVER, "seen through cover"), (W.BLOCKED, "blocked by full cover"))]
        for i, (brush, outline, text) in enumerate(sight_rows):
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
        follow_view(self, view, self._place)
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

    def _place(self, *_changed: object) -> None:
        view = self.parentWidget()
        assert view is not None  # made as the view's child
        place_clear(self, view, self.viewport)

    def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 - Qt's name
        from PySide6.QtCore import QEvent

        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self._place()
        return False


__all__ = ["CellLayer", "CwHeatLayer", "CwLegend", "CwPathLayer", "CwSightLayer", "band_row", "sight_style",
           "turn_rows"]
