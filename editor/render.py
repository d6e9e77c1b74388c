"""Widget-free drawing of arenas onto any ``QPainter`` (canvas items, PNG/SVG/PDF export).

The painter works in arena coordinates (lengths, y up): the caller's world transform does
the y flip (:func:`arena_transform`). Text and badges are drawn upright at a fixed device
size by :func:`draw_label`, which maps the anchor through the current transform and draws
untransformed, so labels never appear mirrored whatever the flip.

Colours follow the Okabe-Ito colour-blind-safe palette; kinds also differ by pattern and
outline style, not by colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from schema.shapes import Circle, Point, Polygon, Polyline, Rect, Shape
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, Element, ExclusionField, Gate, StartPosition, StaticTarget, Turbine, Wall

# Okabe-Ito
ORANGE = QColor("#E69F00")
SKY = QColor("#56B4E9")
GREEN = QColor("#009E73")
YELLOW = QColor("#F0E442")
BLUE = QColor("#0072B2")
VERMILLION = QColor("#D55E00")
PURPLE = QColor("#CC79A7")
INK = QColor("#1A1A1A")
WALL = QColor("#3B3B3B")
OUTSIDE = QColor("#C9C9C4")
FLOOR = QColor("#FBFAF5")
GRID_MINOR = QColor(0, 0, 0, 22)
GRID_MAJOR = QColor(0, 0, 0, 55)
SEVERITY_COLOURS = {"error": VERMILLION, "warning": ORANGE, "info": BLUE}
TARGET_RADIUS = 0.3


@dataclass(frozen=True)
class RenderOptions:
    label_px: float = 12.0
    line_px: float = 1.5


DEFAULT = RenderOptions()


def with_alpha(c: QColor, a: int) -> QColor:
    out = QColor(c)
    out.setAlpha(a)
    return out


def pen(colour: QColor, px: float = 1.5, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    p = QPen(colour, px, style)
    p.setCosmetic(True)
    p.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return p


# ------------------------------------------------------------------ geometry -> paths


def qpoints(points: tuple[Point, ...] | list[Point]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


def shape_path(s: Shape) -> QPainterPath:
    """The filled outline of a shape (polylines buffered by their thickness)."""
    path = QPainterPath()
    if isinstance(s, Circle):
        path.addEllipse(QPointF(*s.center), s.radius, s.radius)
    elif isinstance(s, Rect):
        path.addPolygon(qpoints(list(s.corners())))
        path.closeSubpath()
    elif isinstance(s, Polygon):
        path.addPolygon(qpoints(s.points))
        path.closeSubpath()
    elif isinstance(s, Polyline):
        g = s.to_shapely()
        for poly in getattr(g, "geoms", [g]):
            if poly.is_empty:
                continue
            path.addPolygon(qpoints(list(poly.exterior.coords)[:-1]))
            path.closeSubpath()
            for ring in poly.interiors:
                path.addPolygon(qpoints(list(ring.coords)[:-1]))
                path.closeSubpath()
    return path


def turbine_polygon(pos: Point, facing: float, turbine: Turbine) -> QPolygonF:
    a = math.radians(facing)
    ca, sa = math.cos(a), math.sin(a)
    hl, hw = turbine.length / 2, turbine.width / 2
    pts = [(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)]
    return qpoints([(pos[0] + x * ca - y * sa, pos[1] + x * sa + y * ca) for x, y in pts])


GRAVSTRIKE_TYPES = (Wall, Checkpoint, Gate, AccelerationField, ExclusionField, StaticTarget, StartPosition)


def context_of(arena: Arena) -> object:
    """What drawing an element needs from its arena: Gravstrike's turbine, another game's
    (:mod:`editor.games.paint`) car."""
    if isinstance(arena, Arena):
        return arena.turbine
    from editor.games.paint import context_of as ctx

    return ctx(arena)


def element_path(el: Element, turbine: object = Turbine()) -> QPainterPath:
    """Hit-test / selection outline of an element, in arena coordinates (``turbine``: the
    arena's :func:`context_of`)."""
    if not isinstance(el, GRAVSTRIKE_TYPES):
        from editor.games import paint as G

        return G.element_path(el, turbine)
    assert isinstance(turbine, Turbine)  # a Gravstrike element is drawn with its arena's turbine
    path = QPainterPath()
    if isinstance(el, Gate):
        line = QPainterPath(QPointF(*el.start))
        line.lineTo(QPointF(*el.end))
        from PySide6.QtGui import QPainterPathStroker

        stroker = QPainterPathStroker()
        stroker.setWidth(0.3)
        return stroker.createStroke(line)
    if isinstance(el, StaticTarget):
        path.addEllipse(QPointF(*el.position), TARGET_RADIUS, TARGET_RADIUS)
        return path
    if isinstance(el, StartPosition):
        path.addPolygon(turbine_polygon(el.position, el.facing, turbine))
        path.closeSubpath()
        path.addEllipse(QPointF(*el.position), 0.45, 0.45)
        return path.simplified()
    return shape_path(el.shape)


# ------------------------------------------------------------------ primitives


#: The device rectangles of the labels drawn so far inside :func:`separate_labels` (None: outside).
_PLACED: ContextVar[list[QRectF] | None] = ContextVar("placed_labels", default=None)


@contextmanager
def separate_labels() -> Iterator[None]:
    """Within: each :func:`draw_label` moves off the labels drawn before it, by whole line
    heights (down, up, then further, up to four lines) to the first place where it overprints
    none, so two labels at one spot (a checkpoint's name on an exclusion field's badge) both
    read.  Whole-arena painting (render, print) uses it.  Only the labels' places relative to
    each other count: the arena painted at another offset (print's tiles, which must agree
    across their overlap strips) places its labels alike."""
    token = _PLACED.set([])
    try:
        yield
    finally:
        _PLACED.reset(token)


def _overprints(a: QRectF, b: QRectF) -> bool:
    """Do two text boxes share ink room?  Stacked lines whose boxes touch (an element's name
    and its badge a line below) do not."""
    i = a.intersected(b)
    return i.width() > 0.5 and i.height() > 0.15 * min(a.height(), b.height())


def _free_place(rect: QRectF, placed: list[QRectF]) -> QRectF:
    for k in (0, 1, -1, 2, -2, 3, -3, 4, -4):
        moved = rect.translated(0, k * rect.height())
        if not any(_overprints(moved, other) for other in placed):
            return moved
    return rect


@dataclass(frozen=True)
class Label:
    """A label as :func:`draw_label` lays it out: its device rectangle and how it is drawn."""

    rect: QRectF
    text: str
    colour: QColor
    px: int
    bold: bool
    background: QColor | None


#: Where :func:`draw_label` sends its labels: None draws them; a list collects them undrawn
#: (:func:`collect_labels`); "skip" leaves them out (the canvas draws them on top, see
#: :func:`labels_on_top`).
_LABEL_MODE: ContextVar[list[Label] | str | None] = ContextVar("label_mode", default=None)


@contextmanager
def collect_labels() -> Iterator[list[Label]]:
    """Within: :func:`draw_label` draws nothing and appends its :class:`Label` to the list."""
    out: list[Label] = []
    token = _LABEL_MODE.set(out)
    try:
        yield out
    finally:
        _LABEL_MODE.reset(token)


@contextmanager
def labels_on_top(on: bool) -> Iterator[None]:
    """Within (when ``on``): :func:`draw_label` draws nothing (the canvas item's labels are
    drawn over every item by the view, separated); collecting wins over skipping."""
    token = _LABEL_MODE.set("skip") if on and _LABEL_MODE.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _LABEL_MODE.reset(token)


def paint_label(painter: QPainter, label: Label) -> None:
    """Draw a :class:`Label` (device coordinates: the painter's transform is ignored)."""
    painter.save()
    painter.resetTransform()
    font = QFont(painter.font())
    font.setPixelSize(label.px)
    font.setBold(label.bold)
    painter.setFont(font)
    if label.background is not None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(label.background)
        painter.drawRoundedRect(label.rect.adjusted(-3, -1, 3, 1), 3, 3)
    painter.setPen(label.colour)
    painter.drawText(label.rect, Qt.AlignmentFlag.AlignCenter, label.text)
    painter.restore()


def separated(labels: list[Label]) -> list[Label]:
    """``labels`` moved off each other as :func:`separate_labels` moves them (in order: a
    later label moves off the earlier ones)."""
    placed: list[QRectF] = []
    out = []
    for lab in labels:
        rect = _free_place(lab.rect, placed) if lab.text else lab.rect
        if lab.text:
            placed.append(rect)
        out.append(lab if rect == lab.rect else Label(rect, lab.text, lab.colour, lab.px, lab.bold, lab.background))
    return out


def overprints(a: QRectF, b: QRectF) -> bool:
    """Do two label rectangles overprint each other (see :func:`separate_labels`)?"""
    return _overprints(a, b)


def draw_label(painter: QPainter, at: QPointF, text: str, *, colour: QColor = INK, px: float = 12.0,
               bold: bool = False, background: QColor | None = None, offset: tuple[float, float] = (0, 0),
               align: str = "center") -> QRectF:
    """Upright text centred on ``at`` (arena coords), offset in device pixels (y down); inside
    :func:`separate_labels`, moved off the labels drawn before it.  Returns the device
    rectangle used."""
    device = painter.worldTransform().map(at)
    font = QFont(painter.font())
    font.setPixelSize(max(1, round(px)))
    font.setBold(bold)
    fm = QFontMetricsF(font)
    w, h = fm.horizontalAdvance(text), fm.height()
    x = device.x() + offset[0] - (w / 2 if align == "center" else 0)
    rect = QRectF(x, device.y() + offset[1] - h / 2, w, h)
    mode = _LABEL_MODE.get()
    if mode is not None:
        if isinstance(mode, list):
            mode.append(Label(rect, text, QColor(colour), font.pixelSize(), bold,
                              QColor(background) if background is not None else None))
        return rect
    placed = _PLACED.get()
    if placed is not None and text:
        rect = _free_place(rect, placed)
        placed.append(rect)
    paint_label(painter, Label(rect, text, colour, font.pixelSize(), bold, background))
    return rect


def draw_arrow(painter: QPainter, start: QPointF, end: QPointF, colour: QColor, px: float = 2.0,
               head: float = 0.35) -> None:
    """An arrow in arena coordinates; ``head`` is the head length in lengths."""
    painter.setPen(pen(colour, px))
    painter.drawLine(start, end)
    dx, dy = end.x() - start.x(), end.y() - start.y()
    n = math.hypot(dx, dy)
    if n == 0:
        return
    ux, uy = dx / n, dy / n
    h = min(head, n * 0.6)
    left = QPointF(end.x() - h * ux - 0.5 * h * uy, end.y() - h * uy + 0.5 * h * ux)
    right = QPointF(end.x() - h * ux + 0.5 * h * uy, end.y() - h * uy - 0.5 * h * ux)
    painter.setBrush(colour)
    painter.drawPolygon(QPolygonF([end, left, right]))


def _direction(deg: float, length: float, at: Point) -> tuple[QPointF, QPointF]:
    a = math.radians(deg)
    dx, dy = math.cos(a) * length / 2, math.sin(a) * length / 2
    return QPointF(at[0] - dx, at[1] - dy), QPointF(at[0] + dx, at[1] + dy)


def _centre(el: Element) -> Point:
    from editor.elements import anchor

    return anchor(el)


def shape_extent(s: Shape) -> float:
    minx, miny, maxx, maxy = s.to_shapely().bounds  # shapely is untyped: its floats are Any
    extent: float = min(maxx - minx, maxy - miny)
    return extent


# ------------------------------------------------------------------ elements


def paint_element(painter: QPainter, el: Element, turbine: object = Turbine(), *, selected: bool = False,
                  severity: str | None = None, opts: RenderOptions = DEFAULT) -> None:
    """Draw one element in arena coordinates."""
    if not isinstance(el, GRAVSTRIKE_TYPES):
        from editor.games import paint as G

        G.paint_element(painter, el, turbine, selected=selected, severity=severity, label_px=opts.label_px,
                        line_px=opts.line_px)
        return
    assert isinstance(turbine, Turbine)  # a Gravstrike element is drawn with its arena's turbine
    painter.save()
    lp = opts.label_px
    if isinstance(el, Wall):
        painter.setPen(pen(INK, opts.line_px))
        painter.setBrush(WALL)
        painter.drawPath(shape_path(el.shape))
        draw_label(painter, QPointF(*_centre(el)), el.id, colour=QColor("white"), px=lp * 0.8)
    elif isinstance(el, Checkpoint):
        central = el.kind == "central"
        colour = PURPLE if central else BLUE
        style = Qt.PenStyle.DashDotLine if central else Qt.PenStyle.SolidLine
        painter.setPen(pen(colour.darker(130), 2.5, style))
        painter.setBrush(QBrush(with_alpha(colour, 60), Qt.BrushStyle.Dense4Pattern if central else Qt.BrushStyle.SolidPattern))
        painter.drawPath(shape_path(el.shape))
        text = el.id + (" (decaying)" if el.decaying else "")
        draw_label(painter, QPointF(*_centre(el)), text, colour=colour.darker(160), px=lp * 1.5, bold=True)
    elif isinstance(el, Gate):
        colour = PURPLE if el.kind == "central" else ORANGE
        painter.setPen(pen(colour.darker(120), 4.0))
        painter.drawLine(QPointF(*el.start), QPointF(*el.end))
        painter.setPen(pen(INK, 1.0))
        painter.setBrush(colour)
        for p in (el.start, el.end):
            painter.drawEllipse(QPointF(*p), 0.12, 0.12)
        mid = QPointF((el.start[0] + el.end[0]) / 2, (el.start[1] + el.end[1]) / 2)
        if el.one_way:
            dx, dy = el.end[0] - el.start[0], el.end[1] - el.start[1]
            n = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / n, dx / n  # left-hand normal: the scoring direction
            draw_arrow(painter, QPointF(mid.x() - nx * 0.5, mid.y() - ny * 0.5),
                       QPointF(mid.x() + nx * 0.7, mid.y() + ny * 0.7), INK, 2.0, 0.3)
        draw_label(painter, mid, el.id, colour=INK, px=lp, bold=True, background=with_alpha(colour, 200),
                   offset=(0, -14))
    elif isinstance(el, AccelerationField):
        painter.setPen(pen(GREEN.darker(130), opts.line_px, Qt.PenStyle.DashLine))
        painter.setBrush(with_alpha(GREEN, 55))
        painter.drawPath(shape_path(el.shape))
        c = _centre(el)
        a, b = _direction(el.direction, max(0.6, min(2.0, shape_extent(el.shape) * 0.7)), c)
        draw_arrow(painter, a, b, GREEN.darker(160), 3.0, 0.4)
        minx, miny, maxx, maxy = el.shape.to_shapely().bounds
        draw_label(painter, QPointF((minx + maxx) / 2, miny), el.id, colour=GREEN.darker(200), px=lp * 0.85,
                   offset=(0, lp * 0.8))
    elif isinstance(el, ExclusionField):
        painter.setPen(pen(VERMILLION, 2.0, Qt.PenStyle.DashLine))
        painter.setBrush(with_alpha(VERMILLION, 25))
        path = shape_path(el.shape)
        painter.drawPath(path)
        painter.setBrush(QBrush(with_alpha(VERMILLION, 150), Qt.BrushStyle.BDiagPattern))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPath(path)
        draw_label(painter, QPointF(*_centre(el)), f"{el.id}  tier {el.active_from_tier}+", colour=QColor("white"),
                   px=lp * 0.9, bold=True, background=with_alpha(VERMILLION.darker(120), 220))
    elif isinstance(el, StaticTarget):
        x, y = el.position
        r = TARGET_RADIUS
        painter.setPen(pen(INK, 1.5))
        painter.setBrush(YELLOW)
        painter.drawPolygon(qpoints([(x + r, y), (x, y + r), (x - r, y), (x, y - r)]))
        if el.exploding:
            painter.setPen(pen(VERMILLION, 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(x, y), r * 1.35, r * 1.35)
        draw_label(painter, QPointF(x, y), el.id, colour=INK, px=lp * 0.85, bold=True, offset=(0, -18))
        badge = f"cap {el.capacity} | TN {el.tn_modifier:+d}" + (" | boom" if el.exploding else "")
        draw_label(painter, QPointF(x, y), badge, colour=INK, px=lp * 0.75, background=with_alpha(YELLOW, 230),
                   offset=(0, 18))
    elif isinstance(el, StartPosition):
        painter.setPen(pen(INK, 1.5))
        painter.setBrush(with_alpha(SKY, 220))
        painter.drawPolygon(turbine_polygon(el.position, el.facing, turbine))
        a, b = _direction(el.facing, turbine.length * 2.2, el.position)
        draw_arrow(painter, QPointF(*el.position), b, BLUE.darker(140), 2.5, 0.3)
        draw_label(painter, QPointF(*el.position), str(el.player), colour=QColor("white"), px=lp, bold=True,
                   background=with_alpha(BLUE.darker(130), 235))
    if severity is not None:
        _finding_marks(painter, el, turbine, severity, lp)
    if selected:
        outline = element_path(el, turbine)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(pen(QColor("white"), 4.0))
        painter.drawPath(outline)
        painter.setPen(pen(INK, 2.0, Qt.PenStyle.DashLine))
        painter.drawPath(outline)
    painter.restore()


def _finding_marks(painter: QPainter, el: Element, turbine: Turbine, severity: str, lp: float) -> None:
    colour = SEVERITY_COLOURS.get(severity, ORANGE)
    outline = element_path(el, turbine)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(pen(colour, 3.0, Qt.PenStyle.DotLine))
    painter.drawPath(outline)
    r = outline.boundingRect()
    draw_label(painter, QPointF(r.right(), r.bottom()), "!", colour=QColor("white"), px=lp, bold=True,
               background=colour, offset=(4, -4))


# ------------------------------------------------------------------ arena


def paint_background(painter: QPainter, arena: Arena, rect: QRectF, *, grid: bool = True,
                     minor: float = 1.0, major: float = 5.0) -> None:
    """Outside colour, floor inside the bounds and a grid over ``rect`` (arena coords)."""
    painter.save()
    painter.fillRect(rect, OUTSIDE)
    bounds = shape_path(arena.bounds)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(FLOOR)
    painter.drawPath(bounds)
    if grid:
        px_per_unit = abs(painter.worldTransform().m11()) or 1.0
        for step, colour in ((minor, GRID_MINOR), (major, GRID_MAJOR)):
            if step * px_per_unit < 6:
                continue
            painter.setPen(pen(colour, 1.0))
            x = math.ceil(rect.left() / step - 1e-9) * step  # lines inside rect only: SVG has no clip
            while x <= rect.right():
                painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
                x += step
            y = math.ceil(rect.top() / step - 1e-9) * step
            while y <= rect.bottom():
                painter.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y))
                y += step
    painter.setPen(pen(INK, 2.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(bounds)
    painter.restore()


def z_order(el: Element) -> int:
    if not isinstance(el, GRAVSTRIKE_TYPES):
        from editor.games import paint as G

        return G.z_order(el)
    order = (ExclusionField, AccelerationField, Checkpoint, Wall, Gate, StaticTarget, StartPosition)
    return next(i for i, t in enumerate(order) if isinstance(el, t))


def arena_rect(arena: Arena, margin: float = 1.0) -> QRectF:
    if not hasattr(arena, "bounds"):  # a grid arena: its cells and labels
        from editor import grid_render

        return grid_render.arena_rect(arena, margin)
    minx, miny, maxx, maxy = arena.bounds.to_shapely().bounds
    return QRectF(minx - margin, miny - margin, maxx - minx + 2 * margin, maxy - miny + 2 * margin)


def arena_transform(source: QRectF, target: QRectF) -> QTransform:
    """Map arena rectangle ``source`` (y up) into device rectangle ``target`` (y down),
    uniformly scaled and centred."""
    s = min(target.width() / source.width(), target.height() / source.height())
    t = QTransform()
    t.translate(target.center().x(), target.center().y())
    t.scale(s, -s)
    t.translate(-source.center().x(), -source.center().y())
    return t


def paint_arena(painter: QPainter, arena: Arena, target: QRectF, *, grid: bool = True, margin: float = 1.0,
                selected: frozenset[str] = frozenset(), severities: dict[str, str] | None = None,
                opts: RenderOptions = DEFAULT, underlay: Callable[[QPainter], None] | None = None) -> None:
    """Draw a whole arena fitted into device rectangle ``target`` (export, thumbnails);
    ``underlay`` paints between the floor and the elements (analysis layers that must not
    cover walls or starts), in arena coordinates."""
    source = arena_rect(arena, margin)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setWorldTransform(arena_transform(source, target), True)
    paint_background(painter, arena, source, grid=grid)
    if underlay is not None:
        painter.save()
        underlay(painter)
        painter.restore()
    sev = severities or {}
    with separate_labels():
        for el in sorted(arena.elements(), key=z_order):
            paint_element(painter, el, context_of(arena), selected=el.id in selected, severity=sev.get(el.id),
                          opts=opts)
    painter.restore()
