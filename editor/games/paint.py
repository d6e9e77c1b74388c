"""Drawing the elements of any generic ruleset onto a ``QPainter`` in arena coordinates, with
the kind's :class:`~schema.ruleset.Style` (fill, stroke, opacity, hatch, label field, order).

Elements with a ``shape`` draw it; a start position draws the car's base (the ``vehicle``'s
length × width rectangle with its rounded bumpers) and a facing arrow; cards and tokens draw
their footprint with the label field (a card's number) large and upright.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath

from editor.games import model as G
from editor.games.rulesets import installed
from schema import ruleset as R

PATTERNS = {"diagonal": Qt.BrushStyle.BDiagPattern, "cross": Qt.BrushStyle.DiagCrossPattern,
            "dots": Qt.BrushStyle.Dense6Pattern}


@lru_cache(maxsize=None)
def kind_for_type(cls: type) -> R.ElementKind | None:
    """The kind of an element class in its game's ruleset (None: no installed game's)."""
    try:
        system, key = G.home_of_type(cls)
    except KeyError:
        return None
    return installed()[system].kind(key)


def style_of(el: Any) -> R.Style:
    cls: type = type(el)
    k = kind_for_type(cls)
    return k.style if k is not None else R.Style("#999999")


def z_order(el: Any) -> int:
    return 10 + style_of(el).z


def car_path(position: tuple[float, float], facing: float, vehicle: Any) -> QPainterPath:
    """The car base: the printed rectangle plus the rounded nose and rear (``bumper``)."""
    from editor.render import qpoints

    length, width = float(getattr(vehicle, "length", 1.0)), float(getattr(vehicle, "width", 0.5))
    bumper = float(getattr(vehicle, "bumper", 0.0))
    path = QPainterPath()
    path.addPolygon(qpoints(G.car_corners(position, facing, length + 2 * bumper, width)))
    path.closeSubpath()
    return path


def element_path(el: Any, ctx: Any = None) -> QPainterPath:
    """Hit-test / selection outline of a generic element."""
    from editor.render import shape_path

    s = G.footprint(el)
    if s is not None:
        return shape_path(s)
    if hasattr(ctx, "element_shape") and not hasattr(el, "position"):  # an Arena Rex zone: its band
        return shape_path(ctx.element_shape(el))
    pos = getattr(el, "position", (0.0, 0.0))
    if hasattr(el, "facing"):
        return car_path(pos, float(el.facing), ctx)
    path = QPainterPath()
    path.addEllipse(QPointF(*pos), 0.5, 0.5)
    return path


def _label(el: Any, style: R.Style) -> str:
    if style.label is None:
        return ""
    value = getattr(el, style.label, None)
    if style.label == "level":
        return f"level {value}"
    if style.label == "kind":
        return f"{value} {el.id}"
    return "" if value is None else str(value)


def paint_element(painter: QPainter, el: Any, ctx: Any = None, *, selected: bool = False,
                  severity: str | None = None, label_px: float = 12.0, line_px: float = 1.5) -> None:
    from editor.render import INK, SEVERITY_COLOURS, draw_arrow, draw_label, paint_selection, pen

    style = style_of(el)
    fill, stroke = QColor(style.fill), QColor(style.stroke)
    fill.setAlphaF(max(0.0, min(1.0, style.fill_opacity)))
    path = element_path(el, ctx)
    painter.save()
    painter.setPen(pen(stroke, line_px))
    painter.setBrush(fill)
    painter.drawPath(path)
    if style.pattern in PATTERNS:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(stroke, PATTERNS[style.pattern]))
        painter.drawPath(path)
    at = QPointF(*G.anchor(el)) if G.footprint(el) is not None or hasattr(el, "position") \
        else path.boundingRect().center()  # a zone drawn from its edge
    if hasattr(el, "facing"):  # a start: the car's heading
        a = math.radians(float(el.facing))
        length = float(getattr(ctx, "length", 1.0))
        tip = QPointF(at.x() + math.cos(a) * length * 0.9, at.y() + math.sin(a) * length * 0.9)
        draw_arrow(painter, at, tip, stroke.darker(130), 2.5, min(0.6, length * 0.25))
        draw_label(painter, at, _label(el, style), colour=QColor("white"), px=label_px, bold=True,
                   background=stroke.darker(130))
    elif style.label == "number":  # a numbered card: its number, large
        draw_label(painter, at, _label(el, style), colour=INK, px=label_px * 2.0, bold=True)
        draw_label(painter, at, f"{el.id} · {getattr(el, 'role', '')}", colour=INK, px=label_px * 0.75,
                   offset=(0, label_px * 1.6))
    else:
        text = _label(el, style) if style.label not in (None, "id") else el.id
        dark = fill.lightnessF() < 0.45 and style.fill_opacity > 0.6
        ground = QColor(fill.darker(120))  # white on the element's own dark colour: readable where the
        ground.setAlpha(215)                # name runs past a thin wall's edge onto the floor
        draw_label(painter, at, text, colour=QColor("white") if dark else INK, px=label_px * 0.85,
                   background=ground if dark else QColor(255, 255, 255, 170))
    if severity is not None:
        colour = SEVERITY_COLOURS.get(severity, QColor("#E69F00"))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(pen(colour, 3.0, Qt.PenStyle.DotLine))
        painter.drawPath(path)
        r = path.boundingRect()
        draw_label(painter, QPointF(r.right(), r.bottom()), "!", colour=QColor("white"), px=label_px, bold=True,
                   background=colour, offset=(4, -4))
    if selected:
        paint_selection(painter, path)
    painter.restore()


def context_of(arena: Any) -> Any:
    """What drawing an element needs from its arena: for a game whose arena outlines some
    elements itself (``element_shape``: Arena Rex's deployment zones from the board, bases and
    scenario) the arena without its elements, so that an element's item is redrawn only when
    those change; else its ``vehicle`` (Car Wars' car), None without one."""
    if hasattr(arena, "element_shape"):
        import dataclasses

        from editor.games.rulesets import ruleset_of

        rs = ruleset_of(arena)
        if rs is not None:
            emptied = {k.key: () for k in rs.kinds if k.placement not in ("cell", "cells", "bounds") and hasattr(arena, k.key)}
            return dataclasses.replace(arena, **emptied)
    return getattr(arena, "vehicle", None)
