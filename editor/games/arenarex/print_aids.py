"""Arena Rex's measuring aids in a print: its listed bases and the MOV gauge, at 1:1."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from editor.print_aids import Flow
from editor.print_pdf import MARGIN, MM, Layout, line_height, paragraph, text_line, units_of
from schema.formats.systems import units_mm

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter


def base_aids(painter: QPainter, arena: Any, lay: Layout, f: Flow) -> None:
    """Arena Rex: the round bases the analysis moves (``bases``, mm) at 1:1, in rows across the
    page, and a MOV gauge of the scenario's MOV in inches with the 1 in push and melee range
    marked (in rows of whole inches when it is longer than the page is wide)."""
    from PySide6.QtCore import QPointF, QRectF, Qt

    from editor import render as R

    bases = tuple(getattr(arena, "bases", ()))
    if not bases:
        return
    L, U = units_mm(arena), units_of(arena)
    an: Any = getattr(arena, "scenario").analysis
    x0, w = MARGIN, lay.draw_w
    fit = [b for b in bases if b <= w]
    wide = [b for b in bases if b > w]
    f.y += paragraph(painter, x0, f.need(8), w, "Bases the analysis moves, at 1:1: " +
                     ", ".join(f"{b:g} mm" for b in bases) + "." +
                     (f" Wider than the page, not drawn: {', '.join(f'{b:g} mm' for b in wide)}." if wide else ""),
                     3.2) + 2
    caption_h = line_height(painter, 3.0) + 1
    row: list[float] = []
    rows: list[list[float]] = []
    for b in fit:  # rows of circles 6 mm apart
        if row and sum(row) + 6 * len(row) + b > w:
            rows.append(row)
            row = []
        row.append(b)
    if row:
        rows.append(row)
    for row in rows:
        top = f.need(max(row) + caption_h + 2)
        x = x0
        for b in row:
            painter.setPen(R.pen(R.INK, 1.2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF((x + b / 2) * MM, (top + max(row) / 2) * MM), b / 2 * MM, b / 2 * MM)
            text_line(painter, x + b / 2, top + max(row) + 1, f"{b:g} mm", 3.0, align="center")
            x += b + 6
        f.y = top + max(row) + caption_h + 3
    mov = float(an.mov)
    per_row = max(1, int(w // L))  # whole inches a row
    n_rows = math.ceil(mov / per_row - 1e-9)
    split = f" It is drawn in {n_rows} rows of up to {U.count(per_row)}: lay them end to end." if n_rows > 1 else ""
    f.y += paragraph(painter, x0, f.need(8), w,
                     f"MOV gauge: {U.count(mov)} ({mov * L:.1f} mm), the scenario's MOV; the first {U.count(an.push)} "
                     f"is one push and melee range.{split}", 3.2) + 2
    for i in range(n_rows):
        top = f.need(8)
        start, end = i * per_row, min(mov, (i + 1) * per_row)
        painter.setPen(R.pen(R.INK, 1.2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(x0 * MM, top * MM, (end - start) * L * MM, 6 * MM))
        if an.push > start:
            painter.setBrush(R.INK)
            painter.drawRect(QRectF(x0 * MM, top * MM, (min(an.push, end) - start) * L * MM, 6 * MM))
        f.y = top + 9


__all__ = ["base_aids"]
