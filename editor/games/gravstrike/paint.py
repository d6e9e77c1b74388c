"""Gravstrike's renderer: its hand-tuned drawing of walls, checkpoints, gates, acceleration and
exclusion fields, static targets and start positions (each start a turbine of the arena's
size), onto any ``QPainter`` in arena coordinates (the window's canvas, exports, prints).

:class:`GravstrikeRenderer` is Gravstrike's :class:`editor.render.ArenaRenderer`, returned by
:meth:`editor.games.gravstrike.GravstrikeEditor.renderer`: the shared renderer draws a Gravstrike
arena through it and never names the game.  A whole arena is drawn as the canvas draws it
(:meth:`editor.render.ArenaRenderer.paint_as_canvas`), not from the ruleset's styles; colours
and primitives are the shared ones of :mod:`editor.render` (Okabe-Ito; kinds also differ by
pattern and outline style).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPainterPathStroker, QPolygonF

from editor.render import (BLUE, DEFAULT, GREEN, INK, ORANGE, PURPLE, SEVERITY_COLOURS, SKY, VERMILLION, WALL, YELLOW,
                           ArenaRenderer, RenderOptions, direction, draw_arrow, draw_label, oriented_rect, paint_selection, pen,
                           qpoints, shape_extent, shape_path, with_alpha)
from schema.games.gravstrike.model import (AccelerationField, Arena, Checkpoint, Element, ExclusionField, Gate,
                                           StartPosition, StaticTarget, Turbine, Wall)
from schema.ruleset import ArenaModel
from schema.shapes import Point

#: A static target's drawn half-diagonal (lengths).
TARGET_RADIUS = 0.3
#: Drawing order, bottom first.
Z_ORDER: tuple[type, ...] = (ExclusionField, AccelerationField, Checkpoint, Wall, Gate, StaticTarget, StartPosition)


def turbine_polygon(pos: Point, facing: float, turbine: Turbine) -> QPolygonF:
    """A turbine's base at ``pos`` facing ``facing`` degrees."""
    return oriented_rect(pos, facing, turbine.length, turbine.width)


def _centre(el: Element) -> Point:
    from editor.elements import anchor

    return anchor(el)


def _turbine(ctx: object) -> Turbine:
    """The arena's turbine (:meth:`GravstrikeRenderer.context`); a standard one when the caller has
    no arena."""
    if ctx is None:
        return Turbine()
    assert isinstance(ctx, Turbine)  # a Gravstrike element is drawn with its arena's turbine
    return ctx


def _element(el: object) -> Element:
    assert isinstance(el, (Wall, Checkpoint, Gate, AccelerationField, ExclusionField, StaticTarget, StartPosition)), \
        el  # the shared renderer sends only Gravstrike's elements here (by their class)
    return el


class GravstrikeRenderer(ArenaRenderer):
    """Gravstrike's arenas and elements (the context an element is drawn with: the arena's
    :class:`~schema.games.gravstrike.model.Turbine`)."""

    def context(self, arena: ArenaModel) -> object:
        assert isinstance(arena, Arena)
        return arena.turbine

    def z_order(self, el: object) -> int:
        return next(i for i, t in enumerate(Z_ORDER) if isinstance(el, t))

    def element_path(self, el: object, ctx: object = None) -> QPainterPath:
        el, turbine = _element(el), _turbine(ctx)
        path = QPainterPath()
        if isinstance(el, Gate):
            line = QPainterPath(QPointF(*el.start))
            line.lineTo(QPointF(*el.end))
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

    def paint_element(self, painter: QPainter, el: object, ctx: object = None, *, selected: bool = False,
                      severity: str | None = None, opts: RenderOptions = DEFAULT) -> None:
        el, turbine = _element(el), _turbine(ctx)
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
            painter.setBrush(QBrush(with_alpha(colour, 60),
                                    Qt.BrushStyle.Dense4Pattern if central else Qt.BrushStyle.SolidPattern))
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
            a, b = direction(el.direction, max(0.6, min(2.0, shape_extent(el.shape) * 0.7)), c)
            draw_arrow(painter, a, b, GREEN.darker(160), 3.0, 0.4)
            minx, miny, maxx, _maxy = el.shape.to_shapely().bounds
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
            draw_label(painter, QPointF(*_centre(el)), f"{el.id}  tier {el.active_from_tier}+",
                       colour=QColor("white"), px=lp * 0.9, bold=True,
                       background=with_alpha(VERMILLION.darker(120), 220))
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
            _a, b = direction(el.facing, turbine.length * 2.2, el.position)
            draw_arrow(painter, QPointF(*el.position), b, BLUE.darker(140), 2.5, 0.3)
            draw_label(painter, QPointF(*el.position), str(el.player), colour=QColor("white"), px=lp, bold=True,
                       background=with_alpha(BLUE.darker(130), 235))
        if severity is not None:
            self._finding_marks(painter, el, turbine, severity, lp)
        if selected:
            paint_selection(painter, self.element_path(el, turbine))
        painter.restore()

    def _finding_marks(self, painter: QPainter, el: Element, turbine: Turbine, severity: str, lp: float) -> None:
        colour = SEVERITY_COLOURS.get(severity, ORANGE)
        outline = self.element_path(el, turbine)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(pen(colour, 3.0, Qt.PenStyle.DotLine))
        painter.drawPath(outline)
        r = outline.boundingRect()
        draw_label(painter, QPointF(r.right(), r.bottom()), "!", colour=QColor("white"), px=lp, bold=True,
                   background=colour, offset=(4, -4))

    def paint_arena(self, painter: QPainter, arena: ArenaModel, target: QRectF, *, grid: bool = True,
                    margin: float = 1.0, selected: frozenset[str] = frozenset(),
                    severities: dict[str, str] | None = None, opts: RenderOptions = DEFAULT,
                    underlay: Callable[[QPainter], None] | None = None) -> None:
        """As the canvas draws it (hand-tuned, not from the ruleset's styles)."""
        self.paint_as_canvas(painter, arena, target, grid=grid, margin=margin, selected=selected,
                             severities=severities, opts=opts, underlay=underlay)


RENDERER = GravstrikeRenderer()

__all__ = ["RENDERER", "TARGET_RADIUS", "Z_ORDER", "GravstrikeRenderer", "turbine_polygon"]
