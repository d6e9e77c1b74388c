"""The Arena Rex overlays' canvas layers and key (:mod:`editor.games.arenarex.overlays` drives them),
built on the Car Wars ones (:mod:`editor.games.overlay_layers`): the moves heat map is a
:class:`~editor.games.overlay_layers.CellLayer`, the sight layer is Car Wars' line-of-sight
layer (seen / hidden), and the key is :class:`~editor.games.overlay_layers.CwLegend` with Arena
Rex's rows.  The walks are drawn over the elements: the line, the base where the walk starts,
after each move of MOV inches (numbered) and at its end, and the walk's length and moves."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import render as R
from editor.games import overlay_work as W
from editor.games.arenarex import overlay_work as RW
from editor.games.overlay_layers import PATH_Z, CellLayer, CwLegend, band_row, sight_style

#: The walks' colours, in order (Okabe-Ito), and their names for the key.
WALK_COLOURS = ((R.VERMILLION, "vermillion"), (R.BLUE, "blue"), (R.PURPLE, "purple"), (R.GREEN, "green"))


class RexHeatLayer(CellLayer):
    """The grid nodes coloured by the moves a base of the zone takes to get there (the cell
    around each node, as the distance field samples it)."""

    def __init__(self) -> None:
        super().__init__()
        self.heat: RW.RexHeat | None = None

    def set_heat(self, arena: Any, heat: RW.RexHeat | None) -> None:
        self.heat = heat
        if heat is None:
            self.set_cells(None, 0.0, 0.0, 1.0, None)
            return
        self.set_cells(arena, heat.x0 - heat.step / 2, heat.y0 - heat.step / 2, heat.step, heat.colours())


class RexPathLayer(QGraphicsItem):
    """Walks of a base: each its colour (:data:`WALK_COLOURS`), with the base's outline where it
    starts, after each whole move (numbered) and at its end, labelled with length and moves."""

    def __init__(self) -> None:
        super().__init__()
        self.walks: tuple[RW.RexWalk, ...] = ()
        self.setZValue(PATH_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_walks(self, walks: tuple[RW.RexWalk, ...]) -> None:
        self.prepareGeometryChange()
        self.walks = tuple(walks)
        self.update()

    def boundingRect(self) -> QRectF:
        pts = [p for w in self.walks for p in w.points]
        if not pts:
            return QRectF()
        # the labels are in device pixels (up to ~200 wide): their size in the scene at this zoom
        views = self.scene().views() if self.scene() is not None else []
        px = abs(views[0].transform().m11()) if views and views[0].transform().m11() else 1.0
        pad = 2.0 + max(w.base_mm for w in self.walks) / 25.4 + 200.0 / px
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return QRectF(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        for k, walk in enumerate(self.walks):
            if len(walk.points) < 2:
                continue
            colour = WALK_COLOURS[k % len(WALK_COLOURS)][0]
            r = walk.base_mm / 25.4 / 2.0
            fill = QColor(colour)
            fill.setAlpha(40)
            painter.setBrush(fill)
            painter.setPen(R.pen(colour, 1.0, Qt.PenStyle.DashLine))
            marks = walk.move_marks()
            for x, y in [walk.points[0], *marks]:
                painter.drawEllipse(QPointF(x, y), r, r)
            painter.setPen(R.pen(colour, 2.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in walk.points]))
            for n, (x, y) in enumerate(marks[:-1], start=1):
                R.draw_label(painter, QPointF(x, y), str(n), colour=QColor("white"), px=10, bold=True,
                             background=R.with_alpha(colour.darker(130), 220))
            end = QPointF(*walk.points[-1])
            moves = walk.moves
            R.draw_label(painter, end, f"{walk.length:.1f} in, {moves} move{'s' if moves != 1 else ''}", colour=QColor("white"),
                         px=11, bold=True, background=R.with_alpha(colour.darker(130), 230), offset=(0, -16 - 12 * k))


def heat_rows() -> list[tuple[Any, Any, str]]:
    """The key of the moves heat map: a row per band, then what is left uncoloured."""
    rows: list[tuple[Any, Any, str]] = [band_row(colour, text) for _m, colour, text in RW.MOVE_BANDS]
    rows.append(band_row(RW.MORE_COLOUR, RW.MORE_TEXT))
    rows.append((None, None, "uncoloured: the base cannot stand or get there"))
    return rows


def sight_rows() -> list[tuple[Any, Any, str]]:
    return [(*sight_style(W.CLEAR), "seen from a base position in the zone"),
            (*sight_style(W.BLOCKED), "hidden by terrain hazards that block sight")]


def legend(view: QWidget, viewport: QWidget) -> CwLegend:
    return CwLegend(view, viewport, heat=heat_rows(), sight=sight_rows(), name="arenarex-overlay-legend")


def walks_text(walks: tuple[RW.RexWalk, ...]) -> str:
    """The key's text of the walks drawn: each walk's colour and summary."""
    lines = [f"{WALK_COLOURS[k % len(WALK_COLOURS)][1]}: {w.summary()}" for k, w in enumerate(walks)]
    if any(math.isfinite(w.length) for w in walks):
        lines.append(f"circles: the base at the start and after each move of {walks[0].mov:g} in")
    return "\n".join(lines)


__all__ = ["RexHeatLayer", "RexPathLayer", "WALK_COLOURS", "heat_rows", "legend", "sight_rows", "walks_text"]
