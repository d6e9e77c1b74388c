"""Gravstrike's measuring aid in a print: the turning arcs of one length, at 1:1."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from editor.print_aids import Flow
from editor.print_pdf import MARGIN, MM, TURNS, Layout, paragraph
from schema.formats.systems import units_mm

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter


def turning_arcs(painter: QPainter, arena: Any, lay: Layout, f: Flow) -> None:
    """Gravstrike: the 30/60/90 degree turns of one length, at 1:1."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QPainterPath

    from editor import render as R

    L, x0 = units_mm(arena), MARGIN
    f.y += paragraph(painter, x0, f.need(12), lay.draw_w,
                     "Turning arcs: a turn of a degrees spreads over one length of travel, a circular arc of radius "
                     "R = 1 / a (radians) lengths. Lay the straight edge along the base's side, front at the dot.",
                     3.2) + 3

    def reach(a: float) -> float:  # how far right of the dot the arc and its exit line go
        return L / a * math.sin(a) + 15 * math.cos(a)

    column = x0 + 25.0 + max(reach(math.radians(d)) for d in TURNS) + 6  # the labels' left edge
    for deg in TURNS:
        a = math.radians(deg)
        R_len = 1.0 / a
        r_mm = R_len * L
        if 25.0 + reach(a) > lay.draw_w:
            f.y += paragraph(painter, x0, f.need(8), lay.draw_w, f"{deg} degree turn: R = {R_len:.3f} lengths = "
                             f"{r_mm:.1f} mm is too wide for the page; measure it from the radius.", 3.2) + 3
            continue
        rise = r_mm * (1 - math.cos(a)) + 15 * math.sin(a)  # how far the arc and its exit line climb
        y = f.need(rise + 12) + rise + 6  # the dot's line
        sx, sy = x0 + 25.0, y
        cx, cy = sx, sy - r_mm
        path = QPainterPath(QPointF(sx * MM, sy * MM))
        steps = 64
        for i in range(1, steps + 1):
            t = a * i / steps
            path.lineTo(QPointF((cx + r_mm * math.sin(t)) * MM, (cy + r_mm * math.cos(t)) * MM))
        painter.setPen(R.pen(R.BLUE, 2.5))
        painter.drawPath(path)
        ex, ey = cx + r_mm * math.sin(a), cy + r_mm * math.cos(a)
        painter.setPen(R.pen(R.INK, 1.0, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF((sx - 20) * MM, sy * MM), QPointF(sx * MM, sy * MM))
        painter.drawLine(QPointF(ex * MM, ey * MM), QPointF((ex + 15 * math.cos(a)) * MM, (ey - 15 * math.sin(a)) * MM))
        painter.setBrush(R.INK)
        painter.drawEllipse(QPointF(sx * MM, sy * MM), 0.8 * MM, 0.8 * MM)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        tx = column if lay.page_w - MARGIN - column >= 40 else sx + reach(a) + 6
        label = f"{deg} degree turn: R = {R_len:.3f} lengths = {r_mm:.1f} mm,\narc = 1 length ({L:g} mm)"
        if lay.page_w - MARGIN - tx >= 40:
            paragraph(painter, tx, y - rise - 4, lay.page_w - MARGIN - tx, label, 3.2)
            f.y = y + 8
        else:
            f.y = y + 3
            f.y += paragraph(painter, x0, f.need(8), lay.draw_w, label, 3.2) + 4


__all__ = ["turning_arcs"]
