"""Car Wars' measuring aids in a print: the turning key and the vehicle, at 1:1."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from editor.print_aids import Flow
from editor.print_pdf import MARGIN, MM, Layout, line_height, paragraph, text_line, text_width, units_of
from schema.formats.systems import units_mm

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter


def vehicle_aids(painter: QPainter, arena: Any, lay: Layout, f: Flow) -> None:
    """Car Wars: the turning key ("2 car-lengths long and 1/2 car-length wide", also the range
    ruler: one defense re-roll per full key length) and the car base's rectangle, at 1:1, to cut
    out; the key is divided into car lengths."""
    from PySide6.QtCore import QPointF, QRectF, Qt

    from editor import render as R

    L, U = units_mm(arena), units_of(arena)
    v = arena.vehicle
    x0, w = MARGIN, lay.draw_w
    kw, kh = v.key_length * L, v.key_width * L
    f.y += paragraph(painter, x0, f.need(12), w,
                     f"Turning key (cut out): 2 car lengths long and 1/2 car length wide = {v.key_length:g} x "
                     f"{U.count(v.key_width)} ({kw:.1f} x {kh:.1f} mm); it is also the range ruler. Its zone lines "
                     "(SLIGHT, D1-D4) are the arena's turning_key.zones, drawn by the editor." +
                     (" It is wider than the page: not drawn." if kw > w else ""), 3.2) + 3
    if kw <= w:
        label = U.count(v.key_length)
        beside = x0 + kw + 4 + text_width(painter, label, 3.2) <= lay.page_w - MARGIN
        top = f.need(kh + (0 if beside else line_height(painter, 3.2) + 1))
        painter.setPen(R.pen(R.INK, 1.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(x0 * MM, top * MM, kw * MM, kh * MM))
        painter.setPen(R.pen(R.INK, 1.0, Qt.PenStyle.DashLine))
        x = x0 + v.length * L
        painter.drawLine(QPointF(x * MM, top * MM), QPointF(x * MM, (top + kh) * MM))
        if beside:
            text_line(painter, x0 + kw + 4, top + kh / 2 - line_height(painter, 3.2) / 2, label, 3.2)
            f.y = top + kh + 8
        else:
            text_line(painter, x0, top + kh + 1, label, 3.2)
            f.y = top + kh + line_height(painter, 3.2) + 8
    cw, ch, b = v.length * L, v.width * L, v.bumper * L
    fits = cw + 2 * b <= w
    f.y += paragraph(painter, x0, f.need(8), w,
                     f"Car base rectangle: {v.length:g} x {U.count(v.width)} ({cw:.1f} x {ch:.1f} mm); the rounded "
                     f"nose and rear reach {U.count(v.bumper)} beyond it (collisions only)." +
                     ("" if fits else " It is wider than the page: not drawn."), 3.2) + 2
    if fits:
        top = f.need(max(ch, 2 * b))
        cy = top + max(ch, 2 * b) / 2
        painter.setPen(R.pen(R.INK, 1.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF((x0 + b) * MM, (cy - ch / 2) * MM, cw * MM, ch * MM))
        painter.setPen(R.pen(R.INK, 1.0, Qt.PenStyle.DashLine))
        for cx in (x0 + b, x0 + b + cw):
            painter.drawEllipse(QPointF(cx * MM, cy * MM), b * MM, b * MM)
        f.y = top + max(ch, 2 * b) + 6


__all__ = ["vehicle_aids"]
