"""Printable 1:1 PDF of an arena, tiled across A4 or Letter pages.

Page 1 is the assembly map: the arena with the page grid and each page's coordinate ("B3" =
column B, row 3), the scale check and instructions.  Then one page per tile that holds some
of the arena (squares of the grid with only floor outside the bounds are not printed): the arena at true
size (``units.length_mm`` millimetres per length), clipped to the page's drawing area, with the
tile's coordinate and its neighbours in the header, a 1-length calibration bar, dashed
alignment lines where the neighbouring pages' content starts (the overlap strip is printed on
both pages: glue the next page over it, lining up the crosshairs) and crop marks at the
drawing area's corners.  The last page holds measuring aids: a ruler in lengths and the
30/60/90 degree turning arcs of the motion model (a turn of alpha follows a circular arc of one
length, radius ``R = 1 / alpha`` in radians).

Everything is drawn in millimetres through one transform, ``mm -> device`` at 96 device units
per inch (QPdfWriter coordinates are floating point, so the output is exact vector art).
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass

from schema.formats.systems import units_mm
from schema.model import Arena

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 10.0  # mm, unprinted border most printers need
HEADER = 9.0  # mm, strip for the page coordinate and the calibration bar
OVERLAP = 12.0  # mm printed on both neighbouring pages
ARENA_MARGIN = 0.5  # lengths of floor drawn around the bounds
DPI = 96
MM = DPI / 25.4  # device units per millimetre
TURNS = (30, 60, 90)


@dataclass(frozen=True)
class Layout:
    """Tiling of an arena's printed rectangle (``width`` x ``height`` mm) into ``cols`` x
    ``rows`` pages whose drawing areas (``draw_w`` x ``draw_h``) advance by ``stride``."""

    paper: str
    page_w: float
    page_h: float
    width: float
    height: float
    draw_w: float
    draw_h: float
    cols: int
    rows: int
    #: (row, column) of the tiles printed: those holding some of the arena (a tile of the grid
    #: that holds only floor outside the bounds is left out).
    tiles: tuple[tuple[int, int], ...] = ()

    @property
    def stride(self) -> tuple[float, float]:
        return (self.draw_w - OVERLAP, self.draw_h - OVERLAP)

    def code(self, row: int, col: int) -> str:
        """``B3``: column letter(s), row number (1-based)."""
        letters = string.ascii_uppercase
        c = letters[col] if col < 26 else letters[col // 26 - 1] + letters[col % 26]
        return f"{c}{row + 1}"

    def tile_origin(self, row: int, col: int) -> tuple[float, float]:
        """Top-left of a tile in the printed rectangle's millimetres."""
        return (col * self.stride[0], row * self.stride[1])


def layout(arena: Arena, paper: str = "a4") -> Layout:
    """Portrait or landscape, whichever needs fewer pages (portrait on ties)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; use {' or '.join(PAPERS)}")
    pw, ph = PAPERS[paper]
    portrait, landscape = _layout(arena, paper, pw, ph), _layout(arena, paper, ph, pw)
    return landscape if len(landscape.tiles) < len(portrait.tiles) else portrait


def _outline(arena: Arena) -> object:
    """What must be printed, as a shapely geometry in arena units: the bounds, or a grid
    arena's cells."""
    if hasattr(arena, "bounds"):
        return arena.bounds.to_shapely()
    from editor import grid_render

    return grid_render.footprint(arena)


def _box(arena: Arena) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) printed: the bounds, or everything a grid arena draws."""
    if hasattr(arena, "bounds"):
        return arena.bounds.to_shapely().bounds  # type: ignore[no-any-return]
    from editor import grid_render

    return grid_render.extent(arena)


def _layout(arena: Arena, paper: str, pw: float, ph: float) -> Layout:
    minx, miny, maxx, maxy = _box(arena)
    L = units_mm(arena)
    width, height = (maxx - minx + 2 * ARENA_MARGIN) * L, (maxy - miny + 2 * ARENA_MARGIN) * L
    dw, dh = pw - 2 * MARGIN, ph - 2 * MARGIN - HEADER
    cols = max(1, math.ceil((width - OVERLAP) / (dw - OVERLAP) - 1e-9))
    rows = max(1, math.ceil((height - OVERLAP) / (dh - OVERLAP) - 1e-9))
    grid = Layout(paper, pw, ph, width, height, dw, dh, cols, rows)
    return Layout(paper, pw, ph, width, height, dw, dh, cols, rows, _arena_tiles(arena, grid))


def _arena_tiles(arena: Arena, lay: Layout) -> tuple[tuple[int, int], ...]:
    """The tiles whose drawing area holds some of the arena inside its bounds (in the printed
    rectangle's millimetres, y down)."""
    import shapely
    import shapely.affinity

    minx, _miny, _maxx, maxy = _box(arena)
    L = units_mm(arena)
    ox, oy = minx - ARENA_MARGIN, maxy + ARENA_MARGIN  # the printed rectangle's top-left, in lengths
    bounds = shapely.affinity.affine_transform(_outline(arena), [L, 0.0, 0.0, -L, -ox * L, oy * L])
    out = []
    for r in range(lay.rows):
        for c in range(lay.cols):
            tx, ty = lay.tile_origin(r, c)
            if bounds.intersection(shapely.box(tx, ty, tx + lay.draw_w, ty + lay.draw_h)).area > 1.0:  # > 1 mm²
                out.append((r, c))
    return tuple(out)


def _font(painter: object, size_mm: float, bold: bool = False) -> None:
    from PySide6.QtGui import QFont, QPainter

    assert isinstance(painter, QPainter)
    f = QFont(painter.font())
    f.setPixelSize(max(1, round(size_mm * MM)))
    f.setBold(bold)
    painter.setFont(f)


def _text(painter: object, x: float, y: float, w: float, h: float, text: str, size: float = 3.5,
          bold: bool = False, align: object = None) -> None:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    _font(painter, size, bold)
    painter.setPen(R.INK)
    flags = align if align is not None else (Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    painter.drawText(QRectF(x * MM, y * MM, w * MM, h * MM), int(flags) | int(Qt.TextFlag.TextWordWrap), text)  # type: ignore[call-overload]


def unit_name(arena: Arena) -> str:
    """The printed unit's name: ``length`` (Gravstrike) or the ruleset's (``inch``)."""
    if isinstance(arena, Arena):
        return "length"
    from schema.ruleset import ruleset

    return str(getattr(arena.units, "name", None) or ruleset(arena.system).units.name)


def _plural(unit: str, n: int | float) -> str:
    return unit if n == 1 else ("inches" if unit == "inch" else unit + "s")


def _paint(painter: object, arena: Arena, target: object, *, margin: float, label_px: float | None = None) -> None:
    """The arena fitted into ``target``: Gravstrike's painter, or the ruleset styles' one."""
    from editor import render as R

    if isinstance(arena, Arena):
        if label_px is None:
            R.paint_arena(painter, arena, target, margin=margin)  # type: ignore[arg-type]
        else:
            R.paint_arena(painter, arena, target, margin=margin, opts=R.RenderOptions(label_px=label_px))  # type: ignore[arg-type]
        return
    from editor import style_render

    style_render.paint_arena(painter, arena, target, margin=margin, label_px=label_px or 12.0)  # type: ignore[arg-type]


def calibration_bar(painter: object, x: float, y: float, lengths: int, length_mm: float, h: float = 2.0,
                    unit: str = "length") -> None:
    """A solid bar exactly ``lengths`` units long (no outline), labelled."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    painter.fillRect(QRectF(x * MM, y * MM, lengths * length_mm * MM, h * MM), R.INK)
    _text(painter, x, y + h + 0.3, lengths * length_mm + 40, 4,
          f"{lengths} {_plural(unit, lengths)} = {lengths * length_mm:g} mm: measure to check the print scale",
          2.8)
    del Qt


def _arena_target(arena: Arena, lay: Layout, ox: float, oy: float, scale: float = 1.0) -> object:
    """Device rectangle of the whole printed arena when its top-left sits at (ox, oy) mm."""
    from PySide6.QtCore import QRectF

    return QRectF(ox * MM, oy * MM, lay.width * scale * MM, lay.height * scale * MM)


def _assembly(painter: object, arena: Arena, lay: Layout) -> None:
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    x0, y0 = MARGIN, MARGIN
    _text(painter, x0, y0, lay.draw_w, 9, f"{arena.name}: printable 1:1 arena", 5.5, bold=True)
    _text(painter, x0, y0 + 9, lay.draw_w, 18,
          f"{len(lay.tiles)} pages (a grid of {lay.cols} across x {lay.rows} down; squares with no arena are "
          f"not printed) on {lay.paper.upper()}, "
          f"1 {unit_name(arena)} = {units_mm(arena):g} mm, arena {lay.width / 10:.1f} x {lay.height / 10:.1f} cm. "
          f"Print at 100% / actual size (no fit-to-page). Trim each page along its dashed lines "
          f"and overlap the {OVERLAP:g} mm strips, lining up the crosshairs.", 3.3)
    calibration_bar(painter, x0, y0 + 29, 1, units_mm(arena), unit=unit_name(arena))
    top = y0 + 40
    avail_w, avail_h = lay.page_w - 2 * MARGIN, lay.page_h - top - MARGIN
    total_w = lay.stride[0] * (lay.cols - 1) + lay.draw_w
    total_h = lay.stride[1] * (lay.rows - 1) + lay.draw_h
    k = min(avail_w / total_w, avail_h / total_h)
    target = _arena_target(arena, lay, x0, top, k)
    _paint(painter, arena, target, margin=ARENA_MARGIN, label_px=8.0)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for r, c in lay.tiles:
        tx, ty = lay.tile_origin(r, c)
        rect = QRectF((x0 + tx * k) * MM, (top + ty * k) * MM, lay.draw_w * k * MM, lay.draw_h * k * MM)
        painter.setPen(R.pen(R.VERMILLION, 1.5))
        painter.drawRect(rect)
        _font(painter, 6.0, True)
        painter.setPen(R.VERMILLION.darker(130))
        painter.drawText(rect.adjusted(2 * MM, 1 * MM, 0, 0), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop),
                         lay.code(r, c))
    del QPointF


def _tile(painter: object, arena: Arena, lay: Layout, r: int, c: int) -> None:
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    tx, ty = lay.tile_origin(r, c)
    dx, dy = MARGIN, MARGIN + HEADER
    area = QRectF(dx * MM, dy * MM, lay.draw_w * MM, lay.draw_h * MM)
    painter.save()
    painter.setClipRect(area)
    _paint(painter, arena, _arena_target(arena, lay, dx - tx, dy - ty), margin=ARENA_MARGIN)
    painter.restore()
    # header: coordinate, neighbours, calibration bar
    near = []
    printed = set(lay.tiles)
    for name, (rr, cc) in (("left", (r, c - 1)), ("right", (r, c + 1)), ("up", (r - 1, c)), ("down", (r + 1, c))):
        if (rr, cc) in printed:
            near.append(f"{name} {lay.code(rr, cc)}")
    _text(painter, MARGIN, MARGIN - 1, 20, HEADER, lay.code(r, c), 7.0, bold=True)
    _text(painter, MARGIN + 18, MARGIN - 1, 90, HEADER, f"{arena.name}\n" + ", ".join(near), 2.6)
    calibration_bar(painter, lay.page_w - MARGIN - units_mm(arena) - 40, MARGIN + 0.5, 1, units_mm(arena),
                    unit=unit_name(arena))
    # alignment lines where the neighbours' content starts, crosshairs at their crossings
    painter.setBrush(Qt.BrushStyle.NoBrush)
    sx, sy = lay.stride
    xs = ([dx + OVERLAP] if (r, c - 1) in printed else []) + ([dx + sx] if (r, c + 1) in printed else [])
    ys = ([dy + OVERLAP] if (r - 1, c) in printed else []) + ([dy + sy] if (r + 1, c) in printed else [])
    painter.setPen(R.pen(R.VERMILLION, 1.0, Qt.PenStyle.DashLine))
    for x in xs:
        painter.drawLine(QPointF(x * MM, dy * MM), QPointF(x * MM, (dy + lay.draw_h) * MM))
    for y in ys:
        painter.drawLine(QPointF(dx * MM, y * MM), QPointF((dx + lay.draw_w) * MM, y * MM))
    painter.setPen(R.pen(R.INK, 1.0))
    for x in xs or [dx + lay.draw_w / 2]:
        for y in ys or [dy + lay.draw_h / 2]:
            if xs or ys:
                painter.drawLine(QPointF((x - 4) * MM, y * MM), QPointF((x + 4) * MM, y * MM))
                painter.drawLine(QPointF(x * MM, (y - 4) * MM), QPointF(x * MM, (y + 4) * MM))
                painter.drawEllipse(QPointF(x * MM, y * MM), 2 * MM, 2 * MM)
    # crop marks outside the drawing area's corners
    for cx in (dx, dx + lay.draw_w):
        for cy in (dy, dy + lay.draw_h):
            ox = -1 if cx == dx else 1
            oy = -1 if cy == dy else 1
            painter.drawLine(QPointF((cx + ox * 1) * MM, cy * MM), QPointF((cx + ox * 6) * MM, cy * MM))
            painter.drawLine(QPointF(cx * MM, (cy + oy * 1) * MM), QPointF(cx * MM, (cy + oy * 6) * MM))


def _aids(painter: object, arena: Arena, lay: Layout) -> None:
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QPainter, QPainterPath

    from editor import render as R

    assert isinstance(painter, QPainter)
    L = units_mm(arena)
    x0, y = MARGIN, MARGIN
    _text(painter, x0, y, lay.draw_w, 9, "Measuring aids (print at 100%)", 5.5, bold=True)
    y += 12
    n = max(1, int((lay.page_w - 2 * MARGIN - 4) // L))
    # ruler: ticks every quarter length, numbers every length, centimetres on the lower edge
    h = 14.0
    painter.setPen(R.pen(R.INK, 1.0))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(QRectF(x0 * MM, y * MM, n * L * MM, h * MM))
    for q in range(4 * n + 1):
        x = x0 + q * L / 4
        tick = 6.0 if q % 4 == 0 else (4.0 if q % 2 == 0 else 2.5)
        painter.drawLine(QPointF(x * MM, y * MM), QPointF(x * MM, (y + tick) * MM))
        if q % 4 == 0:
            _text(painter, x - 5, y + 6, 10, 4, str(q // 4), 3.0, bold=True, align=Qt.AlignmentFlag.AlignCenter)
    for cm in range(int(n * L // 10) + 1):
        x = x0 + cm * 10
        painter.drawLine(QPointF(x * MM, (y + h) * MM), QPointF(x * MM, (y + h - 2.5) * MM))
    if not isinstance(arena, Arena):
        u = unit_name(arena)
        _text(painter, x0, y + h + 0.5, lay.draw_w, 5,
              f"Ruler: {n} {_plural(u, n)} (ticks every 1/4 {u}; lower edge: centimetres). 1 {u} = {L:g} mm.", 3.0)
        y += h + 8
        calibration_bar(painter, x0, y, n, L, h=3.0, unit=u)
        if getattr(arena, "vehicle", None) is not None:
            _vehicle_aids(painter, arena, lay, y + 14)
        elif getattr(arena, "system", None) == "arena-rex":
            _base_aids(painter, arena, lay, y + 14)
        else:
            from editor.grid_render import cell_aid

            cell_aid(painter, arena, x0, y + 14, lay.draw_w)
        return
    _text(painter, x0, y + h + 0.5, lay.draw_w, 5,
          f"Ruler: {n} lengths (ticks every 1/4 length; lower edge: centimetres). 1 length = {L:g} mm.", 3.0)
    y += h + 8
    calibration_bar(painter, x0, y, n, L, h=3.0)
    y += 14
    _text(painter, x0, y, lay.draw_w, 12,
          "Turning arcs: a turn of a degrees spreads over one length of travel, a circular arc of radius "
          "R = 1 / a (radians) lengths. Lay the straight edge along the base's side, front at the dot.", 3.2)
    y += 14
    for deg in TURNS:
        a = math.radians(deg)
        R_len = 1.0 / a
        r_mm = R_len * L
        # start at (sx, sy) heading right on the page, turning left (counter-clockwise as seen)
        sx, sy = x0 + 25.0, y + r_mm * (1 - math.cos(a)) + 6
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
        painter.drawLine(QPointF(ex * MM, ey * MM),
                         QPointF((ex + 15 * math.cos(a)) * MM, (ey - 15 * math.sin(a)) * MM))
        painter.setBrush(R.INK)
        painter.drawEllipse(QPointF(sx * MM, sy * MM), 0.8 * MM, 0.8 * MM)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        _text(painter, x0 + 25 + L + 18, y, 110, 10,
              f"{deg} degree turn: R = {R_len:.3f} lengths = {r_mm:.1f} mm, arc = 1 length ({L:g} mm)", 3.2)
        y += max(r_mm * (1 - math.cos(a)) + 22, 26)


def _base_aids(painter: object, arena: Arena, lay: Layout, y: float) -> None:
    """Arena Rex: the round bases the analysis moves (``bases``, mm) at 1:1, and a MOV gauge of
    the scenario's MOV in inches with the 1 in push and melee range marked."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    bases = tuple(getattr(arena, "bases", ()))
    if not bases:
        return
    L, u = units_mm(arena), unit_name(arena)
    an = arena.scenario.analysis
    x0 = MARGIN
    _text(painter, x0, y, lay.draw_w, 8, "Bases the analysis moves, at 1:1: " +
          ", ".join(f"{b:g} mm" for b in bases) + ".", 3.2)
    y += 9
    x = x0
    painter.setPen(R.pen(R.INK, 1.2))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for b in bases:
        painter.drawEllipse(QPointF((x + b / 2) * MM, (y + max(bases) / 2) * MM), b / 2 * MM, b / 2 * MM)
        _text(painter, x, y + max(bases) + 1, b + 4, 5, f"{b:g} mm", 3.0)
        x += b + 6
    y += max(bases) + 9
    mov = float(an.mov)
    _text(painter, x0, y, lay.draw_w, 8, f"MOV gauge: {mov:g} {_plural(u, 2)} ({mov * L:.1f} mm), the scenario's MOV; "
          f"the first {an.push:g} {u} is one push and melee range.", 3.2)
    y += 9
    painter.setPen(R.pen(R.INK, 1.2))
    painter.drawRect(QRectF(x0 * MM, y * MM, mov * L * MM, 6 * MM))
    painter.setBrush(R.INK)
    painter.drawRect(QRectF(x0 * MM, y * MM, an.push * L * MM, 6 * MM))


def _vehicle_aids(painter: object, arena: Arena, lay: Layout, y: float) -> None:
    """Car Wars: the turning key ("2 car-lengths long and 1/2 car-length wide", also the range
    ruler: one defense re-roll per full key length) and the car base's rectangle, at 1:1, to cut
    out; the key is divided into car lengths."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    L, u = units_mm(arena), unit_name(arena)
    v = arena.vehicle  # type: ignore[attr-defined]
    x0 = MARGIN
    _text(painter, x0, y, lay.draw_w, 12,
          f"Turning key (cut out): 2 car lengths long and 1/2 car length wide = {v.key_length:g} x {v.key_width:g} "
          f"{_plural(u, 2)} ({v.key_length * L:.1f} x {v.key_width * L:.1f} mm); it is also the range ruler. "
          "Its zone lines (SLIGHT, D1-D4) are the arena's turning_key.zones, drawn by the editor.", 3.2)
    y += 14
    kw, kh = v.key_length * L, v.key_width * L
    painter.setPen(R.pen(R.INK, 1.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(QRectF(x0 * MM, y * MM, kw * MM, kh * MM))
    painter.setPen(R.pen(R.INK, 1.0, Qt.PenStyle.DashLine))
    for i in range(1, 2):
        x = x0 + i * v.length * L
        painter.drawLine(QPointF(x * MM, y * MM), QPointF(x * MM, (y + kh) * MM))
    _text(painter, x0 + kw + 4, y, 60, kh, f"{v.key_length:g} {_plural(u, 2)}", 3.2)
    y += kh + 10
    _text(painter, x0, y, lay.draw_w, 8,
          f"Car base rectangle: {v.length:g} x {v.width:g} {_plural(u, 2)} ({v.length * L:.1f} x {v.width * L:.1f} mm); "
          f"the rounded nose and rear reach {v.bumper:g} {u} beyond it (collisions only).", 3.2)
    y += 10
    cw, ch, b = v.length * L, v.width * L, v.bumper * L
    painter.setPen(R.pen(R.INK, 1.5))
    painter.drawRect(QRectF((x0 + b) * MM, y * MM, cw * MM, ch * MM))
    painter.setPen(R.pen(R.INK, 1.0, Qt.PenStyle.DashLine))
    for cx in (x0 + b, x0 + b + cw):
        painter.drawEllipse(QPointF(cx * MM, (y + ch / 2) * MM), b * MM, b * MM)


def print_pdf(arena: Arena, paper: str = "a4", cell_mm: float | None = None) -> bytes:
    """The printable PDF's bytes (deterministic).  ``cell_mm``: a grid arena's hexes (across
    the flats) or squares printed at that size instead of the arena's ``units``."""
    from editor.export_render import ensure_app
    from editor.reproducible_pdf import pdf_document

    if cell_mm is not None:
        from editor.grid_render import with_cell_mm

        arena = with_cell_mm(arena, cell_mm)
    ensure_app()
    from PySide6.QtGui import QPainter, QPdfWriter

    lay = layout(arena, paper)

    def paint(painter: QPainter, writer: QPdfWriter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        _assembly(painter, arena, lay)
        for r, c in lay.tiles:
            writer.newPage()
            _tile(painter, arena, lay, r, c)
        writer.newPage()
        _aids(painter, arena, lay)

    return pdf_document(lay.page_w, lay.page_h, f"{arena.name} (1:1, {paper})", paint)
