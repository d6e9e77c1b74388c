"""Rulers along the top and left of the canvas, in the arena's unit (named in the corner where
they meet), following zoom and pan."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QWidget

if TYPE_CHECKING:
    from editor.canvas import ArenaView

RULER_PX = 20
NICE = (1, 2, 5)


def tick_step(pixels_per_length: float, min_px: float = 60.0) -> float:
    """The smallest 1/2/5 × 10^k length step whose labelled ticks are ``min_px`` apart.

    >>> tick_step(30.0), tick_step(300.0), tick_step(3.0)
    (2.0, 0.2, 20.0)
    """
    raw = min_px / max(pixels_per_length, 1e-9)
    k = math.floor(math.log10(raw))
    for n in NICE:
        if n * 10 ** k >= raw:
            return float(n * 10 ** k)
    return float(10 ** (k + 1))


def ticks(lo: float, hi: float, step: float) -> list[float]:
    """Multiples of ``step`` in [lo, hi]."""
    start = math.ceil(lo / step)
    return [round(i * step, 9) for i in range(start, math.floor(hi / step) + 1)]


class Ruler(QWidget):
    def __init__(self, view: ArenaView, horizontal: bool) -> None:
        super().__init__(view)
        self.view = view
        self.horizontal = horizontal
        self.cursor_at: float | None = None
        self.setFont(QFont(self.font().family(), 7))

    def visible_range(self) -> tuple[float, float]:
        vp = self.view.viewport().rect()
        a = self.view.mapToScene(vp.topLeft())
        b = self.view.mapToScene(vp.bottomRight())
        if self.horizontal:
            return min(a.x(), b.x()), max(a.x(), b.x())
        return min(a.y(), b.y()), max(a.y(), b.y())

    def to_px(self, v: float) -> float:
        if self.horizontal:
            return float(self.view.mapFromScene(QPointF(v, 0)).x())
        return float(self.view.mapFromScene(QPointF(0, v)).y())

    def labelled_ticks(self) -> list[float]:
        lo, hi = self.visible_range()
        return ticks(lo, hi, tick_step(self.view.scale_factor))

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#EEEDE8"))
        p.setPen(QPen(QColor("#888888"), 1))
        if self.horizontal:
            p.drawLine(0, self.height() - 1, self.width(), self.height() - 1)
        else:
            p.drawLine(self.width() - 1, 0, self.width() - 1, self.height())
        step = tick_step(self.view.scale_factor)
        lo, hi = self.visible_range()
        minor = step / 5
        p.setPen(QPen(QColor("#555555"), 1))
        for v in ticks(lo, hi, minor):
            x = self.to_px(v)
            major = abs(v / step - round(v / step)) < 1e-6
            size = RULER_PX * (0.55 if major else 0.25)
            if self.horizontal:
                p.drawLine(QPointF(x, RULER_PX - size), QPointF(x, RULER_PX))
                if major:
                    p.drawText(QRectF(x + 2, 0, 60, RULER_PX * 0.6), Qt.AlignmentFlag.AlignLeft, f"{v:g}")
            else:
                p.drawLine(QPointF(RULER_PX - size, x), QPointF(RULER_PX, x))
                if major:
                    p.save()
                    p.translate(1, x - 2)
                    p.rotate(-90)
                    p.drawText(QRectF(0, 0, 60, RULER_PX * 0.6), Qt.AlignmentFlag.AlignLeft, f"{v:g}")
                    p.restore()
        if self.cursor_at is not None:
            p.setPen(QPen(QColor("#D55E00"), 1))
            c = self.to_px(self.cursor_at)
            if self.horizontal:
                p.drawLine(QPointF(c, 0), QPointF(c, RULER_PX))
            else:
                p.drawLine(QPointF(0, c), QPointF(RULER_PX, c))
        p.end()


class Rulers(QObject):
    """Install top/left rulers in the view's viewport margins and keep them in step."""

    def __init__(self, view: ArenaView) -> None:
        super().__init__(view)
        self.view = view
        self.top = Ruler(view, True)
        self.left = Ruler(view, False)
        #: The unit of the rulers' numbers (the document's game's symbol), where they meet.
        self.corner = QLabel(view)
        self.corner.setObjectName("ruler-unit")
        self.corner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.corner.setFont(QFont(self.corner.font().family(), 7))
        self.corner.setStyleSheet("background: #EEEDE8; color: #555555")
        self.visible = True
        view.setViewportMargins(RULER_PX, RULER_PX, 0, 0)
        view.zoomChanged.connect(lambda _s: self.update())
        view.horizontalScrollBar().valueChanged.connect(lambda _v: self.update())
        view.verticalScrollBar().valueChanged.connect(lambda _v: self.update())
        view.cursorMoved.connect(self._cursor)
        view.installEventFilter(self)
        self.layout()

    def _cursor(self, x: float, y: float) -> None:
        self.top.cursor_at, self.left.cursor_at = x, y
        self.update()

    def set_visible(self, on: bool) -> None:
        self.visible = on
        self.view.setViewportMargins(RULER_PX if on else 0, RULER_PX if on else 0, 0, 0)
        self.top.setVisible(on)
        self.left.setVisible(on)
        self.corner.setVisible(on)
        self.layout()

    def set_unit(self, symbol: str) -> None:
        self.corner.setText(symbol)
        self.corner.setToolTip(f"The rulers count {symbol}")

    def layout(self) -> None:
        vp = self.view.viewport().geometry()
        self.top.setGeometry(vp.left(), vp.top() - RULER_PX, vp.width(), RULER_PX)
        self.left.setGeometry(vp.left() - RULER_PX, vp.top(), RULER_PX, vp.height())
        self.corner.setGeometry(vp.left() - RULER_PX, vp.top() - RULER_PX, RULER_PX, RULER_PX)
        self.update()

    def update(self) -> None:
        self.top.update()
        self.left.update()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.LayoutRequest):
            self.layout()
        return False
