"""The measuring aids at the end of a printed arena (:func:`editor.print_pdf.print_pdf`): a ruler
in the game's units with a centimetre edge, the print-scale check, and the ruleset's own aids -
Gravstrike's 30/60/90 degree turning arcs, a Car Wars turning key and vehicle, Arena Rex bases
and MOV gauge, a grid's cell - laid out by :class:`Flow` onto as many pages as they need; an aid
bigger than a page is named instead of drawn."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from editor.print_pdf import (CAPTION, MARGIN, MM, RULER_H, TURNS, Layout, calibration_bar, line_height, paragraph,
                              scale_bar, text_line, text_width, units_of)
from schema.formats.systems import units_mm
from schema.games.gravstrike.model import Arena

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter, QPdfWriter


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


def aids_pages(painter: QPainter, writer: QPdfWriter, arena: Arena, lay: Layout) -> None:
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
    if not isinstance(arena, Arena):
        from schema.ruleset import ruleset

        if getattr(arena, "vehicle", None) is not None:
            _vehicle_aids(painter, arena, lay, f)
        elif getattr(arena, "bases", None):
            _base_aids(painter, arena, lay, f)
        elif ruleset(arena.system).grid is not None:
            from editor.grid_render import cell_aid

            cell_aid(painter, arena, x0, f, lay.draw_w)
        return  # a game on a free table with none of these: the ruler and the scale check
    _turning_arcs(painter, arena, lay, f)


def _turning_arcs(painter: QPainter, arena: Arena, lay: Layout, f: Flow) -> None:
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


def _base_aids(painter: QPainter, arena: Arena, lay: Layout, f: Flow) -> None:
    """An arena's round bases (``bases``: diameters in mm; Arena Rex's, which its analysis
    moves) at 1:1, in rows across the page, and, when its scenario's analysis has a ``mov``, a
    MOV gauge of it in the arena's units with the ``push`` (one push and melee range) marked (in
    rows of whole units when it is longer than the page is wide)."""
    from PySide6.QtCore import QPointF, QRectF, Qt

    from editor import render as R

    bases = tuple(getattr(arena, "bases", ()))
    if not bases:
        return
    L, U = units_mm(arena), units_of(arena)
    an: Any = getattr(getattr(arena, "scenario", None), "analysis", None)
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
    if getattr(an, "mov", None) is None:  # no MOV to gauge
        return
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


def _vehicle_aids(painter: QPainter, arena: Arena, lay: Layout, f: Flow) -> None:
    """Car Wars: the turning key ("2 car-lengths long and 1/2 car-length wide", also the range
    ruler: one defense re-roll per full key length) and the car base's rectangle, at 1:1, to cut
    out; the key is divided into car lengths."""
    from PySide6.QtCore import QPointF, QRectF, Qt

    from editor import render as R

    L, U = units_mm(arena), units_of(arena)
    v = arena.vehicle  # type: ignore[attr-defined]
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
