"""Widget-free drawing of arenas onto any ``QPainter`` (canvas items, PNG/SVG/PDF export).

The painter works in arena coordinates (lengths, y up): the caller's world transform does
the y flip (:func:`arena_transform`). Text and badges are drawn upright at a fixed device
size by :func:`draw_label`, which maps the anchor through the current transform and draws
untransformed, so labels never appear mirrored whatever the flip.

Each game draws through its :class:`ArenaRenderer` (:meth:`editor.game.EditorGame.renderer`;
the base class draws any ruleset from its kinds' styles, a game may draw its pieces by hand):
:func:`paint_arena`, :func:`paint_element`, :func:`element_path`, :func:`z_order` and
:func:`context_of` find the renderer of the arena's or element's game, so this module names no
game.

Colours follow the Okabe-Ito colour-blind-safe palette; kinds also differ by pattern and
outline style, not by colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from schema.ruleset import ArenaModel
from schema.shapes import AreaShape, Circle, Point, Polygon, Polyline, Rect, Shape

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
#: How much of its ink an element drawn dimmed keeps, its labels too (on the canvas: a start
#: outside the active player count's set, :mod:`editor.start_sets`).
DIM_OPACITY = 0.25


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


def oriented_rect(pos: Point, facing: float, length: float, width: float) -> QPolygonF:
    """A ``length`` x ``width`` rectangle centred on ``pos``, its length along ``facing`` degrees
    (a piece's base)."""
    a = math.radians(facing)
    ca, sa = math.cos(a), math.sin(a)
    hl, hw = length / 2, width / 2
    pts = [(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)]
    return qpoints([(pos[0] + x * ca - y * sa, pos[1] + x * sa + y * ca) for x, y in pts])


@runtime_checkable
class Bounded(Protocol):
    """An arena placed freely inside an outline (every game not played on a grid of cells): its
    ``bounds`` alone (:class:`editor.bounds.BoundedArena` is the same with the file's header)."""

    @property
    def bounds(self) -> AreaShape: ...


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
    #: How much of its ink it keeps (an element drawn dimmed: its labels too), over the painter's.
    opacity: float = 1.0


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
    if label.opacity < 1.0:
        painter.setOpacity(painter.opacity() * label.opacity)
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
        out.append(lab if rect == lab.rect else replace(lab, rect=rect))
    return out


def overprints(a: QRectF, b: QRectF) -> bool:
    """Do two label rectangles overprint each other (see :func:`separate_labels`)?"""
    return _overprints(a, b)


def paint_selection(painter: QPainter, outline: QPainterPath) -> None:
    """The selection's mark around an element: a white halo under a dashed ink line."""
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(pen(QColor("white"), 4.0))
    painter.drawPath(outline)
    painter.setPen(pen(INK, 2.0, Qt.PenStyle.DashLine))
    painter.drawPath(outline)


class PanelText:
    """Wrapped lines written down a page's side panel (its title block, facts and legend): each
    call writes one line at :attr:`y` and moves :attr:`y` below it."""

    def __init__(self, painter: QPainter, x0: float, y: float, width: float) -> None:
        self.painter, self.x0, self.y, self.width = painter, x0, y, width
        self.font = QFont(painter.font())

    def __call__(self, line: str, px: float, bold: bool = False, colour: QColor = INK, indent: float = 0.0) -> None:
        self.font.setPixelSize(round(px))
        self.font.setBold(bold)
        self.painter.setFont(self.font)
        self.painter.setPen(colour)
        w = self.width - 24 - indent
        rect = QFontMetricsF(self.font).boundingRect(QRectF(0, 0, w, 10000), int(Qt.TextFlag.TextWordWrap), line)
        self.painter.drawText(QRectF(self.x0 + 12 + indent, self.y, w, rect.height()), int(Qt.TextFlag.TextWordWrap), line)
        self.y += rect.height() + px * 0.35


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
            # collected to be drawn later (over every item): with the ink the painter gives it now
            mode.append(Label(rect, text, QColor(colour), font.pixelSize(), bold,
                              QColor(background) if background is not None else None, painter.opacity()))
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


def direction(deg: float, length: float, at: Point) -> tuple[QPointF, QPointF]:
    """The ends of a segment ``length`` long centred on ``at`` along ``deg`` degrees."""
    a = math.radians(deg)
    dx, dy = math.cos(a) * length / 2, math.sin(a) * length / 2
    return QPointF(at[0] - dx, at[1] - dy), QPointF(at[0] + dx, at[1] + dy)


def shape_extent(s: Shape) -> float:
    minx, miny, maxx, maxy = s.to_shapely().bounds  # shapely is untyped: its floats are Any
    extent: float = min(maxx - minx, maxy - miny)
    return extent


# ------------------------------------------------------------------ arena


def paint_background(painter: QPainter, arena: Bounded, rect: QRectF, *, grid: bool = True,
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


def arena_rect(arena: ArenaModel, margin: float = 1.0) -> QRectF:
    """The arena's extent (its bounds'; a grid arena's cells and labels) with ``margin`` around."""
    if not isinstance(arena, Bounded):  # a grid arena: its cells and labels
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


# ------------------------------------------------------------------ the renderers


class ArenaRenderer:
    """How a game's arenas and elements are drawn, one object per game (Tiled style: the shared
    renderer's interface, one implementation per game where needed), returned by the game's
    :meth:`editor.game.EditorGame.renderer`.

    The base class draws any ruleset from its kinds' :class:`~schema.ruleset.Style`: elements as
    the canvas shows them by :mod:`editor.games.paint`, a whole arena (exports, prints) by
    :func:`editor.style_render.paint_arena` (a grid game's by :mod:`editor.grid_render`).  A game
    that draws its pieces by hand overrides the element hooks and, to be printed as the canvas
    shows it, :meth:`paint_arena` with :meth:`paint_as_canvas`.

    An element is drawn with its arena's :meth:`context` (what drawing it needs besides itself:
    a car's size, the board a zone is drawn from), so that a canvas item is redrawn only when its
    element or that context changes."""

    def context(self, arena: ArenaModel) -> object:
        """What drawing one of ``arena``'s elements needs from the arena (compared with ``==``)."""
        from editor.games.paint import context_of

        return context_of(arena)

    def z_order(self, el: object) -> int:
        """Stacking order of ``el`` (higher on top)."""
        from editor.games.paint import z_order

        return z_order(el)

    def element_path(self, el: object, ctx: object = None) -> QPainterPath:
        """Hit-test / selection outline of ``el``, in arena coordinates."""
        from editor.games.paint import element_path

        return element_path(el, ctx)

    def paint_element(self, painter: QPainter, el: object, ctx: object = None, *, selected: bool = False,
                      severity: str | None = None, opts: RenderOptions = DEFAULT) -> None:
        """Draw ``el`` in arena coordinates, marked when ``selected`` and when a finding of
        ``severity`` is about it."""
        from editor.games.paint import paint_element

        paint_element(painter, el, ctx, selected=selected, severity=severity, label_px=opts.label_px,
                      line_px=opts.line_px)

    def paint_arena(self, painter: QPainter, arena: ArenaModel, target: QRectF, *, grid: bool = True,
                    margin: float = 1.0, selected: frozenset[str] = frozenset(),
                    severities: dict[str, str] | None = None, opts: RenderOptions = DEFAULT,
                    underlay: Callable[[QPainter], None] | None = None) -> None:
        """Draw the whole arena fitted into device rectangle ``target`` (exports, prints,
        thumbnails); ``underlay`` paints between the floor and the elements (analysis layers that
        must not cover walls or starts), in arena coordinates.  Default: from the ruleset's styles
        (``selected`` and ``severities`` are the canvas's and not drawn)."""
        from editor import style_render

        style_render.paint_arena(painter, arena, target, grid=grid, margin=margin, label_px=opts.label_px,
                                 underlay=underlay)

    def paint_as_canvas(self, painter: QPainter, arena: ArenaModel, target: QRectF, *, grid: bool = True,
                        margin: float = 1.0, selected: frozenset[str] = frozenset(),
                        severities: dict[str, str] | None = None, opts: RenderOptions = DEFAULT,
                        underlay: Callable[[QPainter], None] | None = None) -> None:
        """:meth:`paint_arena` as the canvas draws the arena: its floor and grid
        (:func:`paint_background`), ``underlay``, then each element by :meth:`paint_element` in
        :meth:`z_order`, labels moved off each other."""
        assert isinstance(arena, Bounded), arena  # an arena placed freely inside its outline
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
        ctx = self.context(arena)
        elements: tuple[Any, ...] = arena.elements()  # any game's elements: each has an id
        with separate_labels():
            for el in sorted(elements, key=self.z_order):
                self.paint_element(painter, el, ctx, selected=el.id in selected, severity=sev.get(el.id), opts=opts)
        painter.restore()


#: The renderer of a game that has none of its own.
DEFAULT_RENDERER = ArenaRenderer()


def renderer_of(arena: ArenaModel) -> ArenaRenderer:
    """The renderer of ``arena``'s game (:meth:`editor.game.EditorGame.renderer`)."""
    from editor.game import game_of

    return game_of(arena).renderer()


#: :func:`element_renderer` by element class.
_BY_CLASS: dict[type, ArenaRenderer] = {}


def element_renderer(cls: type) -> ArenaRenderer:
    """The renderer of the game whose model has elements of class ``cls`` (the base renderer
    for a class no installed game has)."""
    found = _BY_CLASS.get(cls)
    if found is None:
        from editor.game import editor_game
        from editor.games.model import home_of_type

        try:
            found = editor_game(home_of_type(cls)[0]).renderer()
        except KeyError:  # no installed game's arena holds the class
            found = DEFAULT_RENDERER
        _BY_CLASS[cls] = found
    return found


def context_of(arena: ArenaModel) -> object:
    """What drawing an element needs from its arena (:meth:`ArenaRenderer.context`)."""
    return renderer_of(arena).context(arena)


def element_path(el: object, ctx: object = None) -> QPainterPath:
    """Hit-test / selection outline of an element, in arena coordinates (``ctx``: its arena's
    :func:`context_of`), by its game's renderer."""
    return element_renderer(type(el)).element_path(el, ctx)


def z_order(el: object) -> int:
    """Stacking order of an element, by its game's renderer."""
    return element_renderer(type(el)).z_order(el)


def paint_element(painter: QPainter, el: object, ctx: object = None, *, selected: bool = False,
                  severity: str | None = None, opts: RenderOptions = DEFAULT) -> None:
    """Draw one element in arena coordinates (``ctx``: its arena's :func:`context_of`), by its
    game's renderer."""
    element_renderer(type(el)).paint_element(painter, el, ctx, selected=selected, severity=severity, opts=opts)


def paint_arena(painter: QPainter, arena: ArenaModel, target: QRectF, *, grid: bool = True, margin: float = 1.0,
                selected: frozenset[str] = frozenset(), severities: dict[str, str] | None = None,
                opts: RenderOptions = DEFAULT, underlay: Callable[[QPainter], None] | None = None) -> None:
    """Draw a whole arena fitted into device rectangle ``target`` (export, prints, thumbnails),
    by its game's renderer (:meth:`ArenaRenderer.paint_arena`)."""
    renderer_of(arena).paint_arena(painter, arena, target, grid=grid, margin=margin, selected=selected,
                                   severities=severities, opts=opts, underlay=underlay)
