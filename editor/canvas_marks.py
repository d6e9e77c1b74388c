"""Marks the tools draw over the canvas at a fixed pixel size: a reading next to the cursor
(:class:`TextTag`), a refused or empty action's reason there (:class:`Notice`) and the
highlighted snap target (:class:`SnapMarker`)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import elements as E
from editor import render
from editor.snapping import SnapHit
from schema.ruleset import ArenaModel


class TextTag(QGraphicsItem):
    """A tool's reading next to the cursor: dark text on a light box, drawn over every element
    at a fixed pixel size."""

    PAD = 4.0

    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setZValue(3000)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_text(self, text: str) -> None:
        if text != self.text:
            self.prepareGeometryChange()
            self.text = text
            self.update()

    def boundingRect(self) -> QRectF:
        fm = QFontMetricsF(QFont())
        w, h = fm.horizontalAdvance(self.text), fm.height()
        return QRectF(10.0, 10.0, w + 2 * self.PAD, h + 2 * self.PAD)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        box = self.boundingRect()
        painter.setPen(render.pen(render.INK, 1.0))
        painter.setBrush(QColor(255, 255, 255, 235))
        painter.drawRoundedRect(box, 3.0, 3.0)
        painter.setFont(QFont())
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), self.text)


class Notice(TextTag):
    """Why an action on the canvas did nothing (a flat drag, a refused edit), shown by the
    cursor where the designer is looking, for a few seconds (the status bar keeps it longer):
    wrapped to :attr:`WIDTH` pixels and turned to stay inside the view (:meth:`fit_in`)."""

    WIDTH = 340.0
    GAP = QPointF(14.0, 30.0)  # device pixels right of and under the cursor, clear of a TextTag

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(3100)
        self.offset = QPointF(self.GAP)

    def _size(self) -> QRectF:
        fm = QFontMetricsF(QFont())
        flags = int(Qt.TextFlag.TextWordWrap)
        r = fm.boundingRect(QRectF(0.0, 0.0, self.WIDTH, 10_000.0), flags, self.text)
        return QRectF(0.0, 0.0, r.width() + 2 * self.PAD, r.height() + 2 * self.PAD)

    def boundingRect(self) -> QRectF:
        return self._size().translated(self.offset)

    def fit_in(self, cursor_px: QPointF, view_px: QRectF) -> None:
        """Place the box right of and under the cursor (``cursor_px``, in the view's pixels),
        or left of / above it where it would leave ``view_px``."""
        size = self._size()
        x = self.GAP.x() if cursor_px.x() + self.GAP.x() + size.width() <= view_px.right() else \
            max(view_px.left() - cursor_px.x(), -self.GAP.x() - size.width())
        y = self.GAP.y() if cursor_px.y() + self.GAP.y() + size.height() <= view_px.bottom() else \
            -self.GAP.y() - size.height()
        self.prepareGeometryChange()
        self.offset = QPointF(x, y)
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        box = self.boundingRect()
        painter.setPen(render.pen(render.VERMILLION, 1.5))
        painter.setBrush(QColor(255, 246, 230, 245))
        painter.drawRoundedRect(box, 3.0, 3.0)
        painter.setFont(QFont())
        painter.setPen(render.pen(render.INK, 1.0))
        inner = box.adjusted(self.PAD, self.PAD, -self.PAD, -self.PAD)
        painter.drawText(inner, int(Qt.AlignmentFlag.AlignLeft) | int(Qt.TextFlag.TextWordWrap), self.text)


class SnapMarker(QGraphicsItem):
    """Highlights the snap target: the element's outline (or the bounds') and a ring (vertex)
    or a diamond (edge) at the point, at a fixed pixel size."""

    def __init__(self) -> None:
        super().__init__()
        self.hit: SnapHit | None = None
        self.outline = QPainterPath()
        self.setZValue(2500)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def show_hit(self, hit: SnapHit | None, arena: ArenaModel) -> None:
        if hit == self.hit:
            return
        self.prepareGeometryChange()
        self.hit = hit
        self.outline = QPainterPath()
        if hit is not None:
            if hit.ref == "bounds" and isinstance(arena, render.Bounded):
                self.outline = render.shape_path(arena.bounds)
            elif (el := E.find(arena, hit.ref)) is not None:
                self.outline = render.element_path(el, render.context_of(arena))
        self.update()

    def boundingRect(self) -> QRectF:
        if self.hit is None:
            return QRectF()
        r = self.outline.boundingRect()
        x, y = self.hit.point
        return r.united(QRectF(x, y, 0, 0)).adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.hit is None:
            return
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(render.pen(render.SKY, 3.0))
        painter.drawPath(self.outline)
        p = painter.worldTransform().map(QPointF(*self.hit.point))
        painter.save()
        painter.resetTransform()
        painter.setPen(render.pen(render.VERMILLION, 2.0))
        if self.hit.kind == "vertex":
            painter.drawEllipse(p, 6.0, 6.0)
        else:
            painter.drawPolygon(QPolygonF([p + QPointF(0, -6), p + QPointF(6, 0), p + QPointF(0, 6), p + QPointF(-6, 0)]))
        painter.restore()
