"""Drawing grid arenas (Glider-Pit Gladiators' hex pit, the Mothership battlefield) onto any
``QPainter``, for the canvas, ``arena render`` and ``arena print`` (:mod:`editor.style_render`
hands grid arenas here).

Coordinates are the grid's own (:mod:`engine.grids`): one unit is one cell — a hex across the
flats (``units.hex_mm`` printed) or a square's side (``units.square_mm``), y up.

* **The pit**: every hex in the recorded orientation, the pit wall (every hexside between a pit
  hex and the outside) heavy, each numbered row's 2d6 total in a badge beyond both ends of its
  line (``↑``/``↓`` for an updraft- or downdraft-only row), the launch zones in the zone colour
  with their id and, outside the wall, the Airspeed Track each is tied to, and the FLOOR level.
* **The battlefield**: the squares, its edge heavy, each Mothership's three squares outside the
  short side in its player's colour with its hit points, and its build squares tinted and
  outlined in the same colour.

Selected elements are outlined dashed; elements with findings dotted in the severity colour.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPolygonF

from editor import render as R
from engine.grids import HexLayout, SquareLayout

Cell = tuple[int, int]
#: Player colours (Okabe-Ito), as the other games' starts.
PLAYERS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
ZONE = QColor("#E69F00")
ROW = QColor("#0072B2")
#: Arena units of room around a pit for the row badges and track labels.
PIT_ROOM = 3.2


def is_grid(arena: Any) -> bool:
    """Is ``arena`` played on a grid (hexes or squares: its ruleset's ``grid``)?"""
    from schema.ruleset import UnknownSystem, ruleset

    try:
        return ruleset(str(getattr(arena, "system", ""))).grid is not None
    except UnknownSystem:
        return False


def hexes(arena: Any) -> bool:
    """Is ``arena`` played on hexes (a pit), not squares (a battlefield)?"""
    from schema.ruleset import ruleset

    return ruleset(str(arena.system)).grid == "hex"


def cell_mm(arena: Any) -> float:
    """Printed millimetres per cell: a hex across the flats, or a square's side."""
    u = arena.units
    return float(u.hex_mm if hexes(arena) else u.square_mm)


def with_cell_mm(arena: Any, mm: float) -> Any:
    """``arena`` printed with cells of ``mm`` millimetres (``arena print --cell-mm``)."""
    if not (math.isfinite(mm) and 2.0 <= mm <= 500.0):
        raise ValueError(f"the cell size must be between 2 and 500 mm, not {mm:g}")
    field = "hex_mm" if hexes(arena) else "square_mm"
    return dataclasses.replace(arena, units=dataclasses.replace(arena.units, **{field: float(mm)}))


def layout(arena: Any) -> HexLayout | SquareLayout:
    return HexLayout(arena.orientation) if hexes(arena) else SquareLayout()


def cells_of(arena: Any) -> list[Cell]:
    """Every cell drawn: the pit's hexes, or the battlefield's squares and the Motherships'."""
    if hexes(arena):
        return list(arena.cells)
    return [*arena.squares, *(s for m in arena.motherships for s in m.squares)]


def polygon(lay: HexLayout | SquareLayout, c: Cell) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in lay.corners(c)])


def cells_path(lay: HexLayout | SquareLayout, cells: Iterable[Cell]) -> QPainterPath:
    path = QPainterPath()
    for c in cells:
        path.addPolygon(polygon(lay, c))
        path.closeSubpath()
    return path


def extent(arena: Any) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of everything drawn, labels included."""
    lay = layout(arena)
    cells = cells_of(arena) or [(0, 0)]
    x0, y0, x1, y1 = lay.bounds(cells)
    room = PIT_ROOM if hexes(arena) else 0.25
    return (x0 - room, y0 - room, x1 + room, y1 + room)


def footprint(arena: Any) -> Any:
    """The cells as one shapely geometry (print: which pages hold some of the arena)."""
    import shapely

    lay = layout(arena)
    cells = cells_of(arena)
    if not cells:
        x0, y0, x1, y1 = extent(arena)
        return shapely.box(x0, y0, x1, y1)
    return shapely.union_all([shapely.Polygon(lay.corners(c)) for c in cells])


def element_cells(arena: Any, ref: str) -> list[Cell]:
    """The cells an element covers: a row's line, a zone's hexes, a Mothership's squares and
    build squares."""
    if hexes(arena):
        for row in arena.rows:
            if row.id == ref:
                return [c for c in arena.cells if arena.line_of(c) == row.line]
        for z in arena.launch_zones:
            if z.id == ref:
                return list(z.cells)
        return []
    for m in arena.motherships:
        if m.id == ref:
            return [*m.squares, *m.build_squares]
    return []


def player_colour(player: int) -> QColor:
    return QColor(PLAYERS[(player - 1) % len(PLAYERS)])


def _alpha(c: QColor, a: float) -> QColor:
    out = QColor(c)
    out.setAlphaF(a)
    return out


def _px_per_unit(painter: QPainter) -> float:
    return abs(painter.worldTransform().m11()) or 1.0


def _pen_units(painter: QPainter, mm: float, arena: Any) -> float:
    """A pen ``mm`` millimetres wide at the printed scale, in device pixels (at least 1)."""
    return max(1.0, mm / cell_mm(arena) * _px_per_unit(painter))


def _badge(painter: QPainter, at: tuple[float, float], text: str, colour: QColor, px: float, *,
           fill: QColor | None = None) -> None:
    R.draw_label(painter, QPointF(*at), text, colour=colour, px=px, bold=True,
                 background=fill if fill is not None else QColor(255, 255, 255, 230))


def text_px(painter: QPainter, label_px: float, share: float = 0.42) -> float:
    """Label size: ``label_px``, but never more than ``share`` of a cell."""
    return max(5.0, min(label_px * 1.15, share * _px_per_unit(painter)))


#: The smallest label, in screen pixels, read at a glance on a laptop screen: on the canvas
#: (``paint_grid(min_px=READABLE_PX)``) row totals, zone and track badges, build squares and
#: Motherships' names are drawn at least this big where their room allows (at the editor's
#: default zoom a pit's hexes are about 16 pixels: 0.42 of one was a 7-pixel number, issue 42,
#: point 10).  Pictures and prints keep their sizes (their scale is the page's).
READABLE_PX = 10.0


def readable_px(px: float, room: float, least: float) -> float:
    """``px`` raised to ``least`` when ``room`` (device pixels: the spacing of the labels'
    places) holds a line of that size; never more than fits in ``room``."""
    line = 1.25  # a label's line height and background, in font pixels
    return max(px, min(least, room / line))


# ------------------------------------------------------------------ the pit


def _pit_centre(arena: Any, lay: HexLayout) -> tuple[float, float]:
    return lay.centroid(arena.cells) if arena.cells else (0.0, 0.0)


def row_ends(arena: Any, line: int) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where a row's badges go: one cell beyond each end of its line (pointy hexes: left and
    right; flat hexes: bottom and top)."""
    lay = HexLayout(arena.orientation)
    cells = [c for c in arena.cells if arena.line_of(c) == line]
    if not cells:
        return None
    axis = 0 if arena.orientation == "pointy" else 1
    pts = sorted((lay.center(c) for c in cells), key=lambda p: p[axis])
    lo, hi = pts[0], pts[-1]
    step = (1.0, 0.0) if axis == 0 else (0.0, 1.0)
    return ((lo[0] - step[0], lo[1] - step[1]), (hi[0] + step[0], hi[1] + step[1]))


def track_anchor(arena: Any, zone: Any, lay: HexLayout) -> tuple[tuple[float, float], tuple[float, float]]:
    """(the zone's middle hex centre, the track label's point outside the wall)."""
    mid = lay.center(zone.cells[len(zone.cells) // 2])
    cx, cy = _pit_centre(arena, lay)
    dx, dy = mid[0] - cx, mid[1] - cy
    n = math.hypot(dx, dy) or 1.0
    return mid, (mid[0] + 2.3 * dx / n, mid[1] + 2.3 * dy / n)


def _dim(painter: QPainter, ref: str, dimmed: Collection[str], base: float) -> None:
    """The painter's opacity for element ``ref``: faint when it is ``dimmed`` (a start outside
    the active player count's set, :mod:`editor.start_sets`), else full."""
    painter.setOpacity(base * (R.DIM_OPACITY if ref in dimmed else 1.0))


def paint_pit(painter: QPainter, arena: Any, *, label_px: float = 12.0, min_px: float = 0.0,
              dimmed: Collection[str] = ()) -> None:
    lay = HexLayout(arena.orientation)
    cells = set(arena.cells)
    base = painter.opacity()
    thin = _pen_units(painter, 0.25, arena)
    painter.setPen(R.pen(QColor("#8A8A85"), thin))
    painter.setBrush(R.FLOOR)
    painter.drawPath(cells_path(lay, sorted(cells)))
    for row in arena.rows:  # a row that takes one kind of current only: tinted
        if row.current != "any":
            tint = QColor("#56B4E9") if row.current == "updraft" else QColor("#CC79A7")
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(_alpha(tint, 0.22))
            painter.drawPath(cells_path(lay, (c for c in cells if arena.line_of(c) == row.line)))
    for z in arena.launch_zones:
        _dim(painter, z.id, dimmed, base)
        painter.setPen(R.pen(R.INK, thin))
        painter.setBrush(_alpha(ZONE, 0.6))
        painter.drawPath(cells_path(lay, z.cells))
    painter.setOpacity(base)
    wall = QPainterPath()
    for (ax, ay), (bx, by) in lay.wall_segments(cells):
        wall.moveTo(ax, ay)
        wall.lineTo(bx, by)
    painter.setPen(R.pen(R.WALL, _pen_units(painter, 1.2, arena)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(wall)
    unit = _px_per_unit(painter)
    # row badges are stacked a row apart (1.5 hex radii), zone and track badges stand alone
    px = readable_px(text_px(painter, label_px), 1.5 * lay.size * unit if arena.orientation == "pointy" else unit,
                     min_px)
    badge_px = readable_px(px * 0.9, 2.0 * unit, min_px)
    zones = [(z, *track_anchor(arena, z, lay)) for z in arena.launch_zones if z.cells]
    for z, mid, out in zones:  # the leader lines first: the labels' backgrounds go over them
        _dim(painter, z.id, dimmed, base)
        painter.setPen(R.pen(ZONE.darker(160), _pen_units(painter, 0.4, arena), Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(*mid), QPointF(*out))
    for row in arena.rows:
        ends = row_ends(arena, row.line)
        if ends is None:
            continue
        mark = {"updraft": "↑", "downdraft": "↓"}.get(row.current, "")
        for end in ends:
            _badge(painter, end, f"{row.label}{mark}", ROW.darker(140), px)
    painter.setOpacity(base)
    for z, mid, out in zones:
        _dim(painter, z.id, dimmed, base)
        R.draw_label(painter, QPointF(*mid), z.id, colour=R.INK, px=badge_px, bold=True, background=_alpha(ZONE, 0.9))
        _badge(painter, out, f"Track {z.track}", R.INK, badge_px, fill=_alpha(ZONE, 0.95))
    painter.setOpacity(base)
    x0, _y0, _x1, y1 = extent(arena)
    floor = "standard (below altitude 1)" if arena.floor == 0 else f"{arena.floor}"
    R.draw_label(painter, QPointF(x0 + 0.3, y1 - 0.5), f"FLOOR: {floor}", colour=R.INK, px=px, bold=True,
                 align="left")


# ------------------------------------------------------------------ the battlefield


def paint_field(painter: QPainter, arena: Any, *, label_px: float = 12.0, min_px: float = 0.0,
                dimmed: Collection[str] = ()) -> None:
    lay = SquareLayout()
    squares = set(arena.squares)
    base = painter.opacity()
    thin = _pen_units(painter, 0.4, arena)
    painter.setPen(R.pen(QColor("#8A8A85"), thin))
    painter.setBrush(R.FLOOR)
    painter.drawPath(cells_path(lay, sorted(squares)))
    px = readable_px(text_px(painter, label_px, 0.16), 0.5 * _px_per_unit(painter), min_px)
    for m in arena.motherships:
        _dim(painter, m.id, dimmed, base)
        colour = player_colour(m.player)
        painter.setPen(R.pen(colour.darker(130), _pen_units(painter, 0.8, arena), Qt.PenStyle.DashLine))
        painter.setBrush(_alpha(colour, 0.18))
        for c in m.build_squares:
            painter.drawPolygon(polygon(lay, c))
            x, y = lay.center(c)
            R.draw_label(painter, QPointF(x, y - 0.3), f"build P{m.player}", colour=colour.darker(150), px=px)
        painter.setPen(R.pen(R.INK, _pen_units(painter, 0.8, arena)))
        painter.setBrush(_alpha(colour, 0.7))
        painter.drawPath(cells_path(lay, m.squares).simplified())
        if m.squares:
            xs = [lay.center(c) for c in m.squares]
            at = (sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs))
            room = 0.85 * len(m.squares) * _px_per_unit(painter)
            text = f"Mothership {m.player} ({m.id}) · {m.hp} HP"
            if room / (0.62 * len(text)) < min_px:  # too small to read: the short form
                text = f"{m.id} · P{m.player} · {m.hp} HP"
            fit = room / (0.62 * len(text))  # within its squares
            R.draw_label(painter, QPointF(*at), text, colour=QColor("white"), px=max(5.0, min(px * 1.3, fit)), bold=True)
    painter.setOpacity(base)
    edge = QPainterPath()
    for (ax, ay), (bx, by) in lay.edge_segments(squares):
        edge.moveTo(ax, ay)
        edge.lineTo(bx, by)
    painter.setPen(R.pen(R.WALL, _pen_units(painter, 1.6, arena)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(edge)


# ------------------------------------------------------------------ whole arenas


def paint_marks(painter: QPainter, arena: Any, selected: Collection[str] = (),
                severities: Mapping[str, str] | None = None) -> None:
    """Dashed outlines round selected elements, dotted ones round elements with findings."""
    lay = layout(arena)
    for ref, sev in (severities or {}).items():
        cells = element_cells(arena, ref)
        if cells:
            painter.setPen(R.pen(R.SEVERITY_COLOURS.get(sev, R.ORANGE), 3.0, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(cells_path(lay, cells).simplified())
    for ref in selected:
        R.paint_selection(painter, cells_path(lay, element_cells(arena, ref)).simplified())


def paint_grid(painter: QPainter, arena: Any, *, label_px: float = 12.0, selected: Collection[str] = (),
               severities: Mapping[str, str] | None = None, min_px: float = 0.0,
               dimmed: Collection[str] = ()) -> None:
    """Draw a grid arena in its own coordinates (the painter's world transform is set);
    ``min_px``: the smallest label where there is room (the canvas: :data:`READABLE_PX`);
    ``dimmed``: elements drawn faint, their labels too (the starts outside the active player
    count's set)."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    base = painter.opacity()
    if hexes(arena):
        paint_pit(painter, arena, label_px=label_px, min_px=min_px, dimmed=dimmed)
    else:
        paint_field(painter, arena, label_px=label_px, min_px=min_px, dimmed=dimmed)
    painter.setOpacity(base)
    paint_marks(painter, arena, selected, severities)
    painter.restore()


def arena_rect(arena: Any, margin: float = 1.0) -> QRectF:
    x0, y0, x1, y1 = extent(arena)
    return QRectF(x0 - margin, y0 - margin, x1 - x0 + 2 * margin, y1 - y0 + 2 * margin)


def paint_arena(painter: QPainter, arena: Any, target: QRectF, *, margin: float = 1.0,
                label_px: float = 12.0) -> None:
    """A whole grid arena fitted into device rectangle ``target`` (render, print, thumbnails)."""
    source = arena_rect(arena, margin)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setWorldTransform(R.arena_transform(source, target), True)
    painter.fillRect(source, QColor("white"))
    with R.separate_labels():
        paint_grid(painter, arena, label_px=label_px)
    painter.restore()


def legend_text(arena: Any, key: str) -> str | None:
    """The legend's words for a grid kind (None: not shown)."""
    if hexes(arena):
        return {"cells": f"Pit hex ({arena.orientation}, {cell_mm(arena):g} mm across the flats); "
                         "heavy line: the pit wall",
                "rows": "Numbered row: its 2d6 total at both ends (↑ updraft only, ↓ downdraft only)",
                "launch_zones": "Launch zone (five wall hexes) and its Airspeed Track"}.get(key)
    return {"squares": f"Battlefield square ({cell_mm(arena):g} mm); heavy line: its edge",
            "motherships": "Mothership (3 squares, shared HP) and its build squares (dashed), player colours"}.get(key)


def facts(arena: Any) -> list[str]:
    """Title-block facts of a grid arena."""
    if hexes(arena):
        floor = "standard" if arena.floor == 0 else str(arena.floor)
        return [f"{len(arena.cells)} hexes ({arena.orientation})", f"{len(arena.rows)} numbered rows",
                f"{len(arena.launch_zones)} launch zones", f"FLOOR {floor}",
                f"1 hex = {cell_mm(arena):g} mm across the flats"]
    xs = [c[0] for c in arena.squares] or [0]
    ys = [c[1] for c in arena.squares] or [0]
    return [f"battlefield {max(xs) - min(xs) + 1} x {max(ys) - min(ys) + 1} squares", f"{len(arena.motherships)} Motherships",
            f"1 square = {cell_mm(arena):g} mm"]


def cell_aid(painter: QPainter, arena: Any, x0: float, flow: Any, width: float) -> None:
    """Print's measuring aid (millimetres, 96 dpi device units): one cell at 1:1 with its
    across-the-flats (or side) dimension, to check the print scale against a hex or square;
    ``flow`` is the aids page's :class:`editor.print_pdf.Flow`.  A cell larger than the page
    is named, not drawn."""
    from editor.print_pdf import MARGIN, MM, line_height, paragraph, text_line, text_width

    mm = cell_mm(arena)
    on_hexes = hexes(arena)
    pointy = on_hexes and arena.orientation == "pointy"
    w = mm if not on_hexes or pointy else 2 * mm / math.sqrt(3)  # the drawn cell's box
    h = mm if not on_hexes or not pointy else 2 * mm / math.sqrt(3)
    label = f"{mm:g} mm"
    lh = line_height(painter, 3.2)
    fits = w <= width and h + 2 * lh + 14 <= flow.lay.page_h - 2 * MARGIN
    what = f"One hex, {mm:g} mm across the flats" if on_hexes else f"One square, {mm:g} mm a side"
    what += (" (measure it to check the print scale):" if fits else
             ": larger than the page, so not drawn here; measure one on the tile pages.")
    flow.y += paragraph(painter, x0, flow.need(8), width, what, 3.2) + 3
    if not fits:
        return
    beside = w + 4 + text_width(painter, label, 3.2) <= width
    top = flow.need(h + (0 if beside else lh + 1))
    cx, cy = x0 + w / 2, top + h / 2
    if on_hexes:
        lay = HexLayout.across_flats(arena.orientation, mm)
        pts = [QPointF((cx + px) * MM, (cy - py) * MM) for px, py in lay.corners((0, 0))]  # y down
    else:
        pts = [QPointF(px * MM, py * MM) for px, py in ((x0, top), (x0 + mm, top), (x0 + mm, top + mm), (x0, top + mm))]
    painter.setPen(R.pen(R.INK, 1.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPolygon(QPolygonF(pts))
    painter.setPen(R.pen(R.VERMILLION, 1.0, Qt.PenStyle.DashLine))
    if on_hexes and not pointy:  # flat-topped: the flats are the top and bottom sides
        painter.drawLine(QPointF(cx * MM, (cy - mm / 2) * MM), QPointF(cx * MM, (cy + mm / 2) * MM))
    else:
        painter.drawLine(QPointF((cx - mm / 2) * MM, cy * MM), QPointF((cx + mm / 2) * MM, cy * MM))
    if beside:
        text_line(painter, x0 + w + 4, cy - lh / 2, label, 3.2)
        flow.y = top + h + 6
    else:
        text_line(painter, x0, top + h + 1, label, 3.2)
        flow.y = top + h + lh + 6


__all__ = ["arena_rect", "cell_mm", "cells_of", "element_cells", "extent", "facts", "footprint", "is_grid",
           "layout", "legend_text", "paint_arena", "paint_grid", "paint_marks", "with_cell_mm"]
