"""The measuring aids at the end of a printed arena (:func:`editor.print_pdf.print_pdf`): a ruler
in the game's units with a centimetre edge, the print-scale check, and the game's own aids
(:meth:`editor.game.EditorGame.print_aids`: Gravstrike's 30/60/90 degree turning arcs, a Car Wars
turning key and vehicle, Arena Rex bases and MOV gauge, a grid's cell) - laid out by
:class:`Flow` onto as many pages as they need; an aid bigger than a page is named instead of
drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from editor.print_pdf import (CAPTION, MARGIN, MM, RULER_H, Layout, calibration_bar, line_height, paragraph,
                              scale_bar, text_line, text_width, units_of)
from schema.formats.systems import units_mm

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter, QPdfWriter

    from schema.io import TypedArena


class Flow:
    """The measuring-aids pages' cursor: ``y`` (mm) down the page, and a new page when the
    next block does not fit above the bottom margin."""

    def __init__(self, writer: QPdfWriter, lay: Layout) -> None:
        self.writer, self.lay, self.y = writer, lay, MARGIN

    def need(self, h: float) -> float:
        """Room for a block ``h`` mm high (a new page when it does not fit); its top."""
        if self.y + h > self.lay.page_h - MARGIN and self.y > MARGIN:
            self.writer.newPage()
            self.y = MARGIN
        return self.y


def _ruler(painter: QPainter, x0: float, y: float, major: float, count: int, minors: int, cm_edge: bool) -> None:
    """A ruler ``count`` x ``major`` mm long, 14 mm high: ``minors`` ticks a major from the top
    edge, numbers at the majors (every 1, 2, 5, 10... as room allows; the first and last inside
    the frame), centimetre ticks on the lower edge (``cm_edge``)."""
    from PySide6.QtCore import QPointF, QRectF, Qt

    from editor import render as R

    h, size = RULER_H, 3.0
    painter.setPen(R.pen(R.INK, 1.0))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(QRectF(x0 * MM, y * MM, count * major * MM, h * MM))
    for q in range(minors * count + 1):
        x = x0 + q * major / minors
        tick = 6.0 if q % minors == 0 else (4.0 if minors % 2 == 0 and q % (minors // 2) == 0 else 2.5)
        painter.drawLine(QPointF(x * MM, y * MM), QPointF(x * MM, (y + tick) * MM))
    wide = text_width(painter, str(count), size, True) + 1.5
    every = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, count) if s * major >= wide)
    for i in range(0, count + 1, every):
        x = x0 + i * major
        align = "left" if i == 0 else ("right" if i == count else "center")
        if align == "center" and (x0 + count * major) - x < wide:  # the last number would touch it
            continue
        text_line(painter, x + {"left": 0.8, "right": -0.8, "center": 0.0}[align], y + 6.3, str(i), size, bold=True,
                  align=align)
        painter.setPen(R.pen(R.INK, 1.0))
    if cm_edge:
        for cm in range(int(count * major // 10) + 1):
            x = x0 + cm * 10
            painter.drawLine(QPointF(x * MM, (y + h) * MM), QPointF(x * MM, (y + h - 2.5) * MM))


def aids_pages(painter: QPainter, writer: QPdfWriter, arena: TypedArena, lay: Layout) -> None:
    f = Flow(writer, lay)
    U, L = units_of(arena), units_mm(arena)
    x0 = MARGIN
    text_line(painter, x0, f.y, "Measuring aids (print at 100%)", 5.5, bold=True, width=lay.draw_w)
    f.y += line_height(painter, 5.5, True) + 3
    # ruler: ticks every quarter unit, numbers every unit, centimetres on the lower edge (a
    # unit longer than the page: a centimetre ruler)
    n = int((lay.draw_w - 4) // L)
    if n >= 1:
        _ruler(painter, x0, f.y, L, n, 4, True)
        caption = (f"Ruler: {U.count(n)} (ticks every 1/4 {U.name}; lower edge: centimetres). "
                   f"1 {U.name} = {L:g} mm.")
    else:
        n_cm = int((lay.draw_w - 4) // 10)
        _ruler(painter, x0, f.y, 10.0, n_cm, 2, False)
        caption = f"Ruler: {n_cm} cm (ticks every 5 mm): 1 {U.name} = {L:g} mm is longer than the page."
    f.y += RULER_H + 0.5
    f.y += paragraph(painter, x0, f.y, lay.draw_w, caption, 3.0) + 3
    bar, caption = scale_bar(arena, lay.draw_w - 4, n)
    calibration_bar(painter, x0, f.y, bar, caption, h=3.0)
    f.y += 3.3 + line_height(painter, CAPTION) + 6
    from editor.game import game_of

    game_of(arena).print_aids(painter, arena, lay, f)  # the game's own aids


