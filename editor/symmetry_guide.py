"""The mirror axes and rotation centre drawn over the canvas while symmetry mode is on.

Every game's canvas (:class:`editor.canvas.ArenaScene`) holds one :class:`SymmetryGuide`.  It
draws the arena's declared symmetry (:func:`editor.symmetry.guide`) when symmetry mode is on:
each mirror axis as a dash-dot line across the arena, the centre of the operations as a ring
with a cross, and for a rotation of order N, N short spokes round the ring (one for each image
a point gets).  Lines are cosmetic (a fixed pixel width at any zoom); the guide takes no clicks,
is not an element and is never exported or printed (exports draw the arena, not the canvas).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import render
from editor import symmetry as S

if TYPE_CHECKING:
    from editor.document import ArenaDocument

#: Reddish purple (Okabe-Ito), not used by any element's fill.
COLOUR = QColor("#AA3377")
#: The centre ring's radius and the spokes' length, in screen pixels.
RING_PX = 7.0
SPOKE_PX = 6.0


class SymmetryGuide(QGraphicsItem):
    """Draws :func:`editor.symmetry.guide` of the document's arena while symmetry mode is on."""

    def __init__(self, doc: ArenaDocument) -> None:
        super().__init__()
        self.doc = doc
        self.setZValue(2500)  # over the elements, under the tools' tags (3000)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self._rect = QRectF()
        self.refresh()

    def shown(self) -> S.Guide | None:
        """The guide drawn now (None: symmetry mode off, or no symmetry declared)."""
        if not self.doc.symmetry_enabled:
            return None
        return S.guide(self.doc.arena)

    def refresh(self) -> None:
        """Follow the arena (its symmetry, its extent) and symmetry mode."""
        self.prepareGeometryChange()
        self._rect = render.arena_rect(self.doc.arena, 2.0)
        self.setVisible(self.shown() is not None)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        g = self.shown()
        if g is None:
            return
        scale = abs(painter.worldTransform().m11()) or 1.0
        c = QPointF(*g.centre)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setClipRect(self._rect)
        pen = QPen(COLOUR, 1.6)
        pen.setCosmetic(True)
        pen.setDashPattern([8.0, 3.0, 1.5, 3.0])  # dash-dot, long dashes (in pen widths)
        painter.setPen(pen)
        reach = math.hypot(self._rect.width(), self._rect.height())
        for axis in g.axes:
            a = math.radians(axis)
            d = QPointF(math.cos(a) * reach, math.sin(a) * reach)
            painter.drawLine(QLineF(c - d, c + d))
        pen = QPen(COLOUR, 2.0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        r = RING_PX / scale
        painter.drawEllipse(c, r, r)
        painter.drawLine(QLineF(c.x() - r, c.y(), c.x() + r, c.y()))
        painter.drawLine(QLineF(c.x(), c.y() - r, c.x(), c.y() + r))
        if g.order > 1:
            spoke = SPOKE_PX / scale
            base = math.radians(g.axes[0]) if g.axes else math.pi / 2.0
            for k in range(g.order):
                a = base + 2.0 * math.pi * k / g.order
                u = QPointF(math.cos(a), math.sin(a))
                painter.drawLine(QLineF(c + u * r, c + u * (r + spoke)))


__all__ = ["COLOUR", "SymmetryGuide"]
