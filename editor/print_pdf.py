"""Printable 1:1 PDF of an arena, tiled across pages of a chosen paper (A4, Letter, A3, Tabloid,
Legal: :data:`PAPERS`).

Page 1 is the assembly map: the arena with the page grid, the column letters above it and the
row numbers left of it that name each page ("B3" = column B, row 3), the scale check and
instructions.  Then one page per tile that holds some
of the arena (squares of the grid with only floor outside the bounds are not printed): the arena at true
size (``units.length_mm`` millimetres per length), clipped to the page's drawing area, with the
tile's coordinate and its neighbours in the header, a 1-length calibration bar, dashed
alignment lines where the neighbouring pages' content starts (the overlap strip is printed on
both pages: glue the next page over it, lining up the crosshairs) and crop marks at the
drawing area's corners.  The last page holds measuring aids (:mod:`editor.print_aids`): a ruler in lengths and the
30/60/90 degree turning arcs of the motion model (a turn of alpha follows a circular arc of one
length, radius ``R = 1 / alpha`` in radians); other games' aids are their rulesets' (a Car Wars
turning key, Arena Rex bases and MOV gauge, a grid's cell).  Page text is laid out by measuring
it (one-line captions, elided names), never wrapped into a box it overflows; units are counted
with their ruleset's plural (``9 hexes``).

Everything is drawn in millimetres through one transform, ``mm -> device`` at 96 device units
per inch (QPdfWriter coordinates are floating point, so the output is exact vector art).
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from schema.formats.systems import units_mm
from schema.io import TypedArena

if TYPE_CHECKING:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF, QPainter, QPdfWriter

    from schema.ruleset import Units as RulesetUnits

#: The papers the printable PDF tiles onto: width and height in millimetres, portrait.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "tabloid": (279.4, 431.8),
          "legal": (215.9, 355.6)}
#: How the papers are named to a designer.
PAPER_NAMES = {"a4": "A4 (210 × 297 mm)", "letter": "Letter (8.5 × 11 in)", "a3": "A3 (297 × 420 mm)",
               "tabloid": "Tabloid (11 × 17 in)", "legal": "Legal (8.5 × 14 in)"}
MARGIN = 10.0  # mm, unprinted border most printers need
HEADER = 9.0  # mm, strip for the page coordinate and the calibration bar
OVERLAP = 12.0  # mm printed on both neighbouring pages
ARENA_MARGIN = 0.5  # lengths of floor drawn around the bounds
DPI = 96
MM = DPI / 25.4  # device units per millimetre
TURNS = (30, 60, 90)
CROP = 6.0  # mm, crop marks' length (they start 1 mm off the drawing area's corners)
CLEAR = 2.0  # mm between the header's text and the crop marks on the margin lines
CAPTION = 2.8  # mm, calibration bars' captions
CODE = 4.5  # mm, at most: the assembly map's column letters and row numbers
NAME_ROOM = 40.0  # mm kept for the arena's name in a page header beside its calibration bar
RULER_H = 14.0  # mm, the measuring aids' ruler
SCALE_CHECK = "measure to check the print scale"


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


def layout(arena: TypedArena, paper: str = "a4") -> Layout:
    """Portrait or landscape, whichever needs fewer pages (portrait on ties)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; use {', '.join(PAPERS)}")
    pw, ph = PAPERS[paper]
    portrait, landscape = _layout(arena, paper, pw, ph), _layout(arena, paper, ph, pw)
    return landscape if len(landscape.tiles) < len(portrait.tiles) else portrait


def _outline(arena: TypedArena) -> object:
    """What must be printed, as a shapely geometry in arena units: the bounds, or a grid
    arena's cells."""
    if hasattr(arena, "bounds"):
        return arena.bounds.to_shapely()
    from editor import grid_render

    return grid_render.footprint(arena)


def _box(arena: TypedArena) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) printed: the bounds, or everything a grid arena draws."""
    if hasattr(arena, "bounds"):
        minx, miny, maxx, maxy = arena.bounds.to_shapely().bounds
        return (float(minx), float(miny), float(maxx), float(maxy))
    from editor import grid_render

    return grid_render.extent(arena)


def _layout(arena: TypedArena, paper: str, pw: float, ph: float) -> Layout:
    minx, miny, maxx, maxy = _box(arena)
    L = units_mm(arena)
    width, height = (maxx - minx + 2 * ARENA_MARGIN) * L, (maxy - miny + 2 * ARENA_MARGIN) * L
    dw, dh = pw - 2 * MARGIN, ph - 2 * MARGIN - HEADER
    cols = max(1, math.ceil((width - OVERLAP) / (dw - OVERLAP) - 1e-9))
    rows = max(1, math.ceil((height - OVERLAP) / (dh - OVERLAP) - 1e-9))
    grid = Layout(paper, pw, ph, width, height, dw, dh, cols, rows)
    return Layout(paper, pw, ph, width, height, dw, dh, cols, rows, _arena_tiles(arena, grid))


def _arena_tiles(arena: TypedArena, lay: Layout) -> tuple[tuple[int, int], ...]:
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


# ------------------------------------------------------------------ text and bars (mm)


def _font(painter: QPainter, size_mm: float, bold: bool = False) -> QFontMetricsF:
    """Set the painter's font to ``size_mm`` (its pixel size) and return its metrics."""
    from PySide6.QtGui import QFont, QFontMetricsF

    f = QFont(painter.font())
    f.setPixelSize(max(1, round(size_mm * MM)))
    f.setBold(bold)
    painter.setFont(f)
    return QFontMetricsF(f, painter.device())


def text_width(painter: QPainter, text: str, size: float = 3.5, bold: bool = False) -> float:
    """Width (mm) of ``text`` on one line."""
    return _font(painter, size, bold).horizontalAdvance(text) / MM


def line_height(painter: QPainter, size: float = 3.5, bold: bool = False) -> float:
    """Height (mm) of one line of text: ascent and descent."""
    return _font(painter, size, bold).height() / MM


def text_line(painter: QPainter, x: float, y: float, text: str, size: float = 3.5, bold: bool = False, *,
              align: str = "left", width: float | None = None) -> float:
    """One line of text, its top at ``y``: starting at ``x`` (``align="left"``), ending at it
    (``"right"``) or centred on it (``"center"``); elided (``…``) to ``width`` mm when given.
    Returns the width drawn (mm)."""
    from PySide6.QtCore import QRectF, Qt

    from editor import render as R

    fm = _font(painter, size, bold)
    if width is not None:
        text = fm.elidedText(text, Qt.TextElideMode.ElideRight, max(0.0, width) * MM)
    w = fm.horizontalAdvance(text)
    left = x * MM - {"left": 0.0, "right": w, "center": w / 2}[align]
    painter.setPen(R.INK)
    painter.drawText(QRectF(left, y * MM, w, fm.height()),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop) | int(Qt.TextFlag.TextDontClip), text)
    return w / MM


def paragraph(painter: QPainter, x: float, y: float, width: float, text: str, size: float = 3.5,
              bold: bool = False) -> float:
    """``text`` wrapped to ``width`` mm, its top at ``y``.  Returns its height (mm)."""
    from PySide6.QtCore import QRectF, Qt

    from editor import render as R

    fm = _font(painter, size, bold)
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop) | int(Qt.TextFlag.TextWordWrap)
    box = fm.boundingRect(QRectF(0, 0, width * MM, 1e6), flags, text)
    painter.setPen(R.INK)
    painter.drawText(QRectF(x * MM, y * MM, width * MM, box.height()), flags | int(Qt.TextFlag.TextDontClip), text)
    return box.height() / MM


def units_of(arena: TypedArena) -> RulesetUnits:
    """The arena's unit (name, plural, symbol): its ruleset's."""
    from schema.ruleset import ruleset

    return ruleset(str(arena.system)).units


def unit_name(arena: TypedArena) -> str:
    """The printed unit's name: the ruleset's (``length``, ``inch``)."""
    return units_of(arena).name


def scale_bar(arena: TypedArena, room: float, n: int = 1) -> tuple[float, str]:
    """(length mm, caption) of a calibration bar at most ``room`` mm long: ``n`` units when they
    fit, else the whole centimetres that do (a unit longer than the room: ``--cell-mm 250``)."""
    U, L = units_of(arena), units_mm(arena)
    if n >= 1 and n * L <= room:
        return n * L, f"{U.count(n)} = {n * L:g} mm: {SCALE_CHECK}"
    bar = max(10.0, math.floor(room / 10.0) * 10.0)
    return bar, f"{bar:g} mm (1 {U.name} = {L:g} mm): {SCALE_CHECK}"


def calibration_bar(painter: QPainter, x: float, y: float, length_mm: float, caption: str, h: float = 2.0, *,
                    right: bool = False) -> float:
    """A solid bar exactly ``length_mm`` long (no outline), its top at ``y``, with ``caption`` on
    one line under it, both starting at ``x`` (or the wider of them ending at ``x``:
    ``right``).  Returns the width of bar and caption (mm)."""
    from PySide6.QtCore import QRectF

    from editor import render as R

    w = max(length_mm, text_width(painter, caption, CAPTION))
    left = x - w if right else x
    painter.fillRect(QRectF(left * MM, y * MM, length_mm * MM, h * MM), R.INK)
    text_line(painter, left, y + h + 0.3, caption, CAPTION)
    return w


def _paint(painter: QPainter, arena: TypedArena, target: QRectF, *, margin: float, label_px: float | None = None) -> None:
    """The arena fitted into ``target``, by its game's renderer (:func:`editor.render.paint_arena`)."""
    from editor import render as R

    opts = R.DEFAULT if label_px is None else R.RenderOptions(label_px=label_px)
    R.paint_arena(painter, arena, target, margin=margin, opts=opts)


def _arena_target(arena: TypedArena, lay: Layout, ox: float, oy: float, scale: float = 1.0) -> QRectF:
    """Device rectangle of the whole printed arena when its top-left sits at (ox, oy) mm."""
    from PySide6.QtCore import QRectF

    return QRectF(ox * MM, oy * MM, lay.width * scale * MM, lay.height * scale * MM)


def _fit(painter: QPainter, texts: list[str], room: float, size: float, bold: bool = True) -> float:
    """The largest font size up to ``size`` (mm) at which every text is at most ``room`` mm wide."""
    while size > 1.5 and max(text_width(painter, t, size, bold) for t in texts) > room:
        size -= 0.25
    return size


# ------------------------------------------------------------------ pages


def _assembly(painter: QPainter, arena: TypedArena, lay: Layout) -> None:
    """The assembly map: title, instructions, the scale check, then the arena with the page
    grid; column letters above it and row numbers left of it name each page ("B3"), so no
    page code is printed over the arena's own labels."""
    from PySide6.QtCore import QRectF, Qt

    from editor import render as R

    x0, y = MARGIN, MARGIN
    text_line(painter, x0, y, f"{arena.name}: printable 1:1 arena", 5.5, bold=True, width=lay.draw_w)
    y += line_height(painter, 5.5, True) + 2
    y += paragraph(painter, x0, y, lay.draw_w,
                   f"{len(lay.tiles)} pages (a grid of {lay.cols} across x {lay.rows} down; squares with no arena are "
                   f"not printed) on {lay.paper.upper()}, 1 {unit_name(arena)} = {units_mm(arena):g} mm, arena "
                   f"{lay.width / 10:.1f} x {lay.height / 10:.1f} cm. Print at 100% / actual size (no fit-to-page). "
                   f"Each page is named by the column letter above it and the row number left of it. Trim each page "
                   f"along its dashed lines and overlap the {OVERLAP:g} mm strips, lining up the crosshairs.", 3.3)
    y += 3
    calibration_bar(painter, x0, y, *scale_bar(arena, lay.draw_w))
    y += 2.3 + line_height(painter, CAPTION) + 3
    sx, sy = lay.stride
    total_w = sx * (lay.cols - 1) + lay.draw_w
    total_h = sy * (lay.rows - 1) + lay.draw_h
    letters = [lay.code(0, c)[:-1] for c in range(lay.cols)]
    numbers = [str(r + 1) for r in range(lay.rows)]
    side = text_width(painter, max(numbers, key=len), CODE, True) + 2
    head = line_height(painter, CODE, True) + 1
    left, top = x0 + side, y + head
    k = min((lay.page_w - MARGIN - left) / total_w, (lay.page_h - MARGIN - top) / total_h)
    _paint(painter, arena, _arena_target(arena, lay, left, top, k), margin=ARENA_MARGIN, label_px=8.0)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(R.pen(R.VERMILLION, 1.5))
    for r, c in lay.tiles:
        tx, ty = lay.tile_origin(r, c)
        painter.drawRect(QRectF((left + tx * k) * MM, (top + ty * k) * MM, lay.draw_w * k * MM, lay.draw_h * k * MM))
    size = min(_fit(painter, letters, 0.9 * sx * k, CODE), _fit(painter, numbers, side - 1.5, CODE))
    while size > 1.5 and line_height(painter, size, True) > 0.9 * sy * k:
        size -= 0.25
    for c, letter in enumerate(letters):
        text_line(painter, left + (c * sx + lay.draw_w / 2) * k, top - 1 - line_height(painter, size, True), letter,
                  size, bold=True, align="center")
    for r, number in enumerate(numbers):
        text_line(painter, left - 1, top + (r * sy + lay.draw_h / 2) * k - line_height(painter, size, True) / 2,
                  number, size, bold=True, align="right")


def _tile(painter: QPainter, arena: TypedArena, lay: Layout, r: int, c: int) -> None:
    from PySide6.QtCore import QPointF, QRectF, Qt

    from editor import render as R

    tx, ty = lay.tile_origin(r, c)
    dx, dy = MARGIN, MARGIN + HEADER
    area = QRectF(dx * MM, dy * MM, lay.draw_w * MM, lay.draw_h * MM)
    painter.save()
    painter.setClipRect(area)
    _paint(painter, arena, _arena_target(arena, lay, dx - tx, dy - ty), margin=ARENA_MARGIN)
    painter.restore()
    # header: coordinate and neighbours on the left, the calibration bar on the right, all clear
    # of the crop marks on the margin lines and of each other
    near = []
    printed = set(lay.tiles)
    for name, (rr, cc) in (("left", (r, c - 1)), ("right", (r, c + 1)), ("up", (r - 1, c)), ("down", (r + 1, c))):
        if (rr, cc) in printed:
            near.append(f"{name} {lay.code(rr, cc)}")
    x = MARGIN + CLEAR
    x += text_line(painter, x, MARGIN - 1, lay.code(r, c), 7.0, bold=True) + 4
    right = lay.page_w - MARGIN - CLEAR
    bar, caption = scale_bar(arena, right - x - NAME_ROOM)
    block = calibration_bar(painter, right, MARGIN + 0.5, bar, caption, right=True)
    room = right - block - 4 - x
    text_line(painter, x, MARGIN + 0.4, arena.name, 2.6, width=room)
    text_line(painter, x, MARGIN + 0.4 + line_height(painter, 2.6), ", ".join(near), 2.6, width=room)
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
            painter.drawLine(QPointF((cx + ox * 1) * MM, cy * MM), QPointF((cx + ox * CROP) * MM, cy * MM))
            painter.drawLine(QPointF(cx * MM, (cy + oy * 1) * MM), QPointF(cx * MM, (cy + oy * CROP) * MM))


def print_pdf(arena: TypedArena, paper: str = "a4", cell_mm: float | None = None) -> bytes:
    """The printable PDF's bytes (deterministic).  ``cell_mm``: a grid arena's hexes (across
    the flats) or squares printed at that size instead of the arena's ``units``."""
    from editor.export_render import ensure_app
    from editor.print_aids import aids_pages
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
        aids_pages(painter, writer, arena, lay)

    return pdf_document(lay.page_w, lay.page_h, f"{arena.name} (1:1, {paper})", paint)
