"""Draw the arena of any ruleset from its element kinds' styles (``ElementKind.style``: fill,
stroke, opacity, hatch pattern, label field, z order) and placement, onto any ``QPainter``.

This is the base :class:`editor.render.ArenaRenderer`'s whole-arena drawing: every game whose
renderer does not draw its own (Gravstrike's hand-tuned painter is its renderer,
:mod:`editor.games.gravstrike.paint`) is drawn here. Car Wars adds what its pieces mean on the
table: obstacles and tokens show their cover (full: heavy outline and a solid badge; partial:
half badge) and weight (drive-thru dashed, light dotted), terrain its level, hazards their dice,
numbered cards their number, role and owner's colour, and each start the car's base rectangle,
its heading and the turning key laid against the arena edge
(``engine.carwars.checks.start_keys``).

A ``pose`` kind (``position`` and ``facing``) is drawn from what the game provides, first found:
the arena's ``vehicle`` (:class:`VehicleBase`: every piece is that car), the arena's outline of
the element (:class:`OutlinesElements`: ``element_shape``), a round base of the kind's
``ElementKind.base`` diameter, else an arrow marker; the outlines and the marker in the kind's
style, with an arrow along the facing.

Coordinates are the ruleset's units (inches for Car Wars), y up; the caller's world transform
flips y (:func:`editor.render.arena_transform`).  Pens are cosmetic, their width the style's
``stroke_mm`` at the printed scale (at least one device pixel).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from dataclasses import fields, is_dataclass, replace
from typing import Any, Protocol, runtime_checkable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QTransform

from editor import render as R
from schema.formats.systems import units_mm
from schema.ruleset import ElementKind, Style
from schema.shapes import AreaShape, Circle

#: Player colours (Okabe-Ito, the order the editor uses for starts).
PLAYER_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#1A1A1A")
PATTERNS = {"diagonal": Qt.BrushStyle.BDiagPattern, "cross": Qt.BrushStyle.DiagCrossPattern,
            "dots": Qt.BrushStyle.Dense6Pattern}
COVER_TEXT = {"full": "full cover", "partial": "partial cover", "none": "no cover"}


#: The arrow marker of a ``pose`` element without a footprint, and how far a footprint's facing
#: arrow reaches beyond its outline: millimetres at the printed scale.
MARKER_MM, ARROW_MM = 16.0, 6.0


@runtime_checkable
class VehicleBase(Protocol):
    """An arena's ``vehicle``: the car every ``pose`` element of the arena stands for, in the
    arena's units - a ``length`` x ``width`` rectangle whose rounded nose and rear reach
    ``bumper`` beyond it, and its turning key (``key_length`` x ``key_width``)."""

    @property
    def length(self) -> float: ...
    @property
    def width(self) -> float: ...
    @property
    def bumper(self) -> float: ...
    @property
    def key_length(self) -> float: ...
    @property
    def key_width(self) -> float: ...


@runtime_checkable
class OutlinesElements(Protocol):
    """An arena that outlines its elements that have no ``shape`` field (a piece's base, a
    deployment zone)."""

    def element_shape(self, el: Any) -> AreaShape: ...


def vehicle_of(arena: Any) -> VehicleBase | None:
    """The arena's ``vehicle``, if it has one."""
    v = getattr(arena, "vehicle", None)
    return v if isinstance(v, VehicleBase) else None


def pose_footprint(arena: Any, kind: ElementKind, el: Any) -> AreaShape | None:
    """What a ``pose`` element stands on (without a :func:`vehicle_of`): the arena's outline
    of it, else a disc of the kind's ``base`` diameter, else None."""
    if isinstance(arena, OutlinesElements):
        return arena.element_shape(el)
    if kind.base is not None:
        return Circle((float(el.position[0]), float(el.position[1])), kind.base / 2.0)
    return None


def _reach(shape: AreaShape, at: tuple[float, float], angle: float) -> float:
    """How far the outline reaches from ``at`` along ``angle`` (radians)."""
    from shapely.geometry import LineString
    from shapely.geometry import Point as SPoint

    g = shape.to_shapely()
    minx, miny, maxx, maxy = g.bounds
    far = math.hypot(maxx - minx, maxy - miny) + math.hypot(at[0] - minx, at[1] - miny) + 1.0
    cut = LineString([at, (at[0] + far * math.cos(angle), at[1] + far * math.sin(angle))]).intersection(g)
    return 0.0 if cut.is_empty else float(SPoint(at).hausdorff_distance(cut))


def player_colour(player: int | None) -> QColor:
    if player is None:
        return R.INK
    return QColor(PLAYER_COLOURS[(player - 1) % len(PLAYER_COLOURS)])


def _ruleset(system: str) -> Any:
    from schema.ruleset import ruleset

    return ruleset(system)


@lru_cache(maxsize=None)
def kinds_of(system: str) -> tuple[ElementKind, ...]:
    """The ruleset's element kinds, drawing order (``style.z``) first."""
    return tuple(sorted(_ruleset(system).kinds, key=lambda k: k.style.z))


def unit_of(arena: Any) -> tuple[str, str]:
    """(unit name, symbol) of an arena's coordinates."""
    u = arena.units
    if not hasattr(u, "name"):  # a grid game's units hold the printed size only
        ru = _ruleset(arena.system).units
        return (str(ru.name), str(ru.symbol))
    return (str(getattr(u, "name", "length")), str(getattr(u, "symbol", "len")))


def _colour(hex_: str, opacity: float = 1.0) -> QColor:
    c = QColor(hex_)
    c.setAlphaF(max(0.0, min(1.0, opacity)))
    return c


class Painter:
    """Paints one arena's elements with its ruleset's styles (``label_px``: label size)."""

    def __init__(self, painter: QPainter, arena: Any, *, label_px: float = 12.0) -> None:
        self.p, self.arena, self.lp = painter, arena, label_px
        self.mm = units_mm(arena)

    # -------------------------------------------------------------- primitives

    def pen_px(self, style: Style, factor: float = 1.0) -> float:
        """The style's stroke at the current scale (device px), at least 1."""
        px_per_unit = abs(self.p.worldTransform().m11()) or 1.0
        return max(1.0, style.stroke_mm * factor * px_per_unit / self.mm)

    def fill(self, path: QPainterPath, style: Style, *, stroke: QColor | None = None, width: float = 1.0,
             pen_style: Qt.PenStyle = Qt.PenStyle.SolidLine, fill: QColor | None = None) -> None:
        self.p.setPen(R.pen(stroke or QColor(style.stroke), self.pen_px(style, width), pen_style))
        self.p.setBrush(fill if fill is not None else _colour(style.fill, style.fill_opacity))
        self.p.drawPath(path)
        if style.pattern in PATTERNS:
            self.p.setPen(Qt.PenStyle.NoPen)
            self.p.setBrush(QBrush(_colour(style.stroke, 0.75), PATTERNS[style.pattern]))
            self.p.drawPath(path)

    def label(self, at: tuple[float, float], text: str, *, colour: QColor = R.INK, scale: float = 1.0,
              bold: bool = False, background: QColor | None = None, offset: tuple[float, float] = (0, 0)) -> None:
        if text:
            R.draw_label(self.p, QPointF(*at), text, colour=colour, px=self.lp * scale, bold=bold,
                         background=background, offset=offset)

    # -------------------------------------------------------------- elements

    def element(self, kind: ElementKind, el: Any) -> None:
        self.p.save()
        st = kind.style
        if kind.placement == "pose":
            if vehicle_of(self.arena) is not None:
                self.start(st, el)
            else:
                self.pose(kind, el)
        else:
            # a kind without its own outline (Arena Rex's deployment zones) asks the arena
            shape = el.shape if hasattr(el, "shape") else self.arena.element_shape(el)
            if getattr(shape, "points", None) == ():
                self.p.restore()
                return
            path = R.shape_path(shape)
            cover = getattr(el, "cover", None)
            weight = getattr(el, "weight", None)
            dash = {"drive-thru": Qt.PenStyle.DashLine, "light": Qt.PenStyle.DotLine}.get(str(weight),
                                                                                          Qt.PenStyle.SolidLine)
            width = 2.0 if cover == "full" and kind.key != "walls" else 1.0
            stroke = player_colour(el.owner) if getattr(el, "owner", None) is not None else None
            self.fill(path, st, stroke=stroke, width=width * (2.5 if stroke is not None else 1.0), pen_style=dash)
            self.annotate(kind, el, _anchor(shape), bottom=float(shape.to_shapely().bounds[1]))
        self.p.restore()

    def annotate(self, kind: ElementKind, el: Any, at: tuple[float, float], *, bottom: float | None = None) -> None:
        """The element's labels: on it, but a token's (barrel, tires: pieces a few inches or less
        across) under it, so the whole piece shows; ``bottom`` is the shape's lowest y."""
        st = kind.style
        dark = QColor(st.stroke).darker(150) if QColor(st.fill).lightness() > 110 else QColor("white")
        if kind.key == "cards":
            colour = player_colour(el.owner) if el.owner is not None else R.INK
            self.label(at, str(el.number), colour=colour, scale=2.2, bold=True)
            role = el.role + (f" P{el.owner}" if el.owner is not None else "")
            self.label(at, role, scale=0.75, offset=(0, self.lp * 1.8))
            return
        if kind.key == "terrain":
            self.label(at, f"level {el.level}", colour=QColor(st.stroke).darker(170), scale=0.9, bold=True)
            return
        if kind.key == "hazards" and hasattr(el, "dice"):  # Car Wars hazard cards
            name = el.name or el.id
            self.label(at, name, colour=QColor(st.stroke).darker(140), scale=0.9, bold=True)
            self.label(at, f"+{el.dice} dice" + ("" if el.drive_over else ", blocks"), scale=0.75,
                       offset=(0, self.lp * 1.1), background=_colour("#ffffff", 0.8))
            return
        text = "" if st.label is None else str(getattr(el, st.label, "") or "")
        if kind.key == "tokens":
            text = el.kind
        if kind.key == "walls":
            if text:
                self.label(at, text, colour=QColor("white"), scale=0.8)
            return
        below = kind.key == "tokens" and bottom is not None
        first = 0.0
        if kind.key == "tokens" and bottom is not None:  # the name's box 3 px under the piece, the badge's under it
            at, first = (at[0], bottom), 3.0 + self.lp * 0.5
        self.label(at, text, colour=dark if kind.key != "tokens" else R.INK, scale=0.8, bold=True,
                   offset=(0, first))
        cover, weight = getattr(el, "cover", None), getattr(el, "weight", None)
        if cover is not None and weight is not None:
            dur = getattr(el, "effective_durability", None)
            badge = f"{cover} | {weight}" + (f" | D{dur}" if dur else "")
            self.label(at, badge, scale=0.68, background=_colour("#ffffff", 0.85),
                       offset=(0, first + self.lp * (1.1 if below else 1.05)))

    def pose(self, kind: ElementKind, el: Any, *, labelled: bool = True) -> None:
        """A piece by its :func:`pose_footprint` with an arrow along its facing, or an arrow
        marker :data:`MARKER_MM` long; its label (the style's field) on it, or under the
        marker (``labelled``)."""
        st = kind.style
        at = (float(el.position[0]), float(el.position[1]))
        a = math.radians(float(getattr(el, "facing", 0.0) or 0.0))
        ca, sa = math.cos(a), math.sin(a)
        unit = 1.0 / self.mm  # one printed millimetre
        shape = pose_footprint(self.arena, kind, el)
        text = "" if st.label is None else str(getattr(el, st.label, "") or "")
        if shape is not None:
            self.fill(R.shape_path(shape), st)
            reach = _reach(shape, at, a)
            start, end = 0.45 * reach, reach + ARROW_MM * unit
            R.draw_arrow(self.p, QPointF(at[0] + start * ca, at[1] + start * sa),
                         QPointF(at[0] + end * ca, at[1] + end * sa), QColor(st.stroke), self.pen_px(st, 3.0),
                         0.6 * ARROW_MM * unit)
            self.annotate(kind, el, at)
            return
        h = MARKER_MM * unit / 2.0  # an arrowhead centred on the position, pointing along the facing
        local = [(h, 0.0), (-h, 0.7 * h), (-0.45 * h, 0.0), (-h, -0.7 * h)]
        path = QPainterPath()
        path.addPolygon(R.qpoints([(at[0] + x * ca - y * sa, at[1] + x * sa + y * ca) for x, y in local]))
        path.closeSubpath()
        self.fill(path, st)
        if labelled:
            below = h * abs(self.p.worldTransform().m11()) + self.lp * 0.6
            self.label(at, text, scale=0.8, bold=True, background=_colour("#ffffff", 0.8), offset=(0, below))

    def start(self, st: Style, s: Any) -> None:
        """The car's base rectangle, its heading, the player number, and the turning key."""
        v = self.arena.vehicle
        colour = player_colour(s.player)
        key = self.keys().get(s.player)
        if key is not None:
            kp = QPainterPath()
            kp.addPolygon(R.qpoints(list(key)))
            kp.closeSubpath()
            self.p.setPen(R.pen(colour.darker(120), self.pen_px(st), Qt.PenStyle.DashLine))
            self.p.setBrush(_colour(colour.name(), 0.18))
            self.p.drawPath(kp)
        a = math.radians(s.facing)
        ca, sa = math.cos(a), math.sin(a)
        hl, hw, b = v.length / 2, v.width / 2, v.bumper
        pts = [(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)]
        body = R.qpoints([(s.position[0] + x * ca - y * sa, s.position[1] + x * sa + y * ca) for x, y in pts])
        ends = QPainterPath()  # the rounded nose and rear: collisions only
        for sign in (1, -1):
            cx, cy = s.position[0] + sign * hl * ca, s.position[1] + sign * hl * sa
            ends.addEllipse(QPointF(cx, cy), b, b)
        self.p.setPen(R.pen(colour.darker(130), 1.0))
        self.p.setBrush(_colour(colour.name(), 0.35))
        self.p.drawPath(ends)
        self.p.setPen(R.pen(R.INK, self.pen_px(st, 1.5)))
        self.p.setBrush(_colour(colour.name(), st.fill_opacity))
        self.p.drawPolygon(body)
        tip = QPointF(s.position[0] + (hl + b + 0.9) * ca, s.position[1] + (hl + b + 0.9) * sa)
        R.draw_arrow(self.p, QPointF(*s.position), tip, colour.darker(140), 2.5, 0.45)
        self.label(s.position, str(s.player), colour=QColor("white"), bold=True, background=colour.darker(125))

    @lru_cache(maxsize=1)  # noqa: B019 - one painter, one arena
    def keys(self) -> dict[int, tuple[tuple[float, float], ...]]:
        from editor.game import game_of

        try:
            return game_of(self.arena).start_keys(self.arena)  # Car Wars' turning keys
        except Exception:  # a start the check itself reports on: draw the car without its key
            return {}

    def arena_elements(self) -> None:
        for kind in kinds_of(self.arena.system):
            for el in getattr(self.arena, kind.key, ()):
                self.element(kind, el)


def _anchor(shape: Any) -> tuple[float, float]:
    from schema.shapes import Circle, Polygon, Rect

    if isinstance(shape, (Circle, Rect)):
        return (float(shape.center[0]), float(shape.center[1]))
    g = shape.to_shapely()
    c = g.representative_point() if isinstance(shape, Polygon) else g.centroid
    return (float(c.x), float(c.y))


# ------------------------------------------------------------------ whole arenas


def grid_steps(arena: Any) -> tuple[float, float]:
    """(minor, major) grid spacing: inches and feet for inch arenas, else lengths and fives."""
    return (1.0, 12.0) if unit_of(arena)[0] == "inch" else (1.0, 5.0)


def paint_arena(painter: QPainter, arena: Any, target: QRectF, *, grid: bool = True, margin: float = 1.0,
                label_px: float = 12.0, underlay: Callable[[QPainter], None] | None = None) -> None:
    """Draw a whole arena fitted into device rectangle ``target`` (grid arenas:
    :func:`editor.grid_render.paint_arena`)."""
    from editor import grid_render

    if grid_render.is_grid(arena):
        grid_render.paint_arena(painter, arena, target, margin=margin, label_px=label_px)
        return
    source = R.arena_rect(arena, margin)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setWorldTransform(R.arena_transform(source, target), True)
    minor, major = grid_steps(arena)
    R.paint_background(painter, arena, source, grid=grid, minor=minor, major=major)
    if underlay is not None:
        painter.save()
        underlay(painter)
        painter.restore()
    with R.separate_labels():
        Painter(painter, arena, label_px=label_px).arena_elements()
    painter.restore()


def legend_rows(arena: Any) -> list[tuple[ElementKind, str]]:
    """(kind, text) for each kind the arena uses, in drawing order."""
    from editor import grid_render

    rows = []
    for kind in kinds_of(arena.system):
        items = getattr(arena, kind.key, ())
        if not items:
            continue
        text = kind.title
        if grid_render.is_grid(arena):
            grid_text = grid_render.legend_text(arena, kind.key)
            if grid_text is not None:
                rows.append((kind, grid_text))
            continue
        if kind.key == "obstacles":
            text += " (outline: full cover thick, drive-thru dashed, light dotted)"
        elif kind.placement == "pose" and vehicle_of(arena) is not None:
            text = "Start: car, heading and turning key"
        elif kind.placement == "pose":
            text += " (arrow: facing)"
        elif kind.key == "cards":
            text += " (number, role; owner's colour)"
        elif kind.key == "terrain":
            text += " (level = dice added)"
        rows.append((kind, text))
    return rows


def paint_swatch(painter: QPainter, arena: Any, kind: ElementKind, box: QRectF) -> None:
    """A small sample of ``kind`` styled as in the drawing, inside device rectangle ``box``."""
    painter.save()
    st = kind.style
    pt = Painter(painter, arena, label_px=10.0)
    v = vehicle_of(arena)
    if kind.placement == "pose" and v is None:
        _pose_swatch(pt, kind, box)
    elif kind.placement == "pose" and v is not None:
        painter.setWorldTransform(R.arena_transform(QRectF(-2.6, -1.7, 5.2, 3.4), box))
        a = type(getattr(arena, kind.key)[0])(player=1, position=(0.0, 0.0), facing=0.0)
        pt.keys = lambda: {}  # type: ignore[assignment]  # a swatch draws no turning key: its cached method replaced
        key = QPainterPath()
        key.addRect(QRectF(-v.length / 2, -v.width / 2 - v.length / 2, v.key_length * 0.8, v.key_width))
        painter.setPen(R.pen(player_colour(1).darker(120), 1.0, Qt.PenStyle.DashLine))
        painter.setBrush(_colour(player_colour(1).name(), 0.18))
        painter.drawPath(key)
        pt.start(st, a)
    else:
        path = QPainterPath()
        path.addRect(box.adjusted(4, 6, -4, -6))
        pt.fill(path, st)
    painter.restore()


def _pose_swatch(pt: Painter, kind: ElementKind, box: QRectF) -> None:
    """The arena's first ``kind`` piece, moved to the origin facing +x (as far as its model
    lets it be moved: a dataclass), fitted with its arrow into ``box``."""
    el = next(iter(getattr(pt.arena, kind.key, ())), None)
    if el is None:
        return
    names = {f.name for f in fields(el)} if is_dataclass(el) and not isinstance(el, type) else set()
    moved = {k: v for k, v in (("position", (0.0, 0.0)), ("facing", 0.0)) if k in names}
    sample = replace(el, **moved) if "position" in moved else el
    at = (float(sample.position[0]), float(sample.position[1]))
    shape = pose_footprint(pt.arena, kind, sample)
    unit = 1.0 / pt.mm
    if shape is None:
        h = MARKER_MM * unit / 2.0
        minx, miny, maxx, maxy = at[0] - h, at[1] - h, at[0] + h, at[1] + h
    else:
        minx, miny, maxx, maxy = shape.to_shapely().bounds
        if "facing" in moved:  # its arrow, along +x
            maxx = max(maxx, at[0] + _reach(shape, at, 0.0) + ARROW_MM * unit)
    pad = 0.06 * max(maxx - minx, maxy - miny)
    w, h = maxx - minx + 2 * pad, maxy - miny + 2 * pad
    w, h = max(w, h * box.width() / box.height()), max(h, w * box.height() / box.width())
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    pt.p.setWorldTransform(R.arena_transform(QRectF(cx - w / 2, cy - h / 2, w, h), box))
    pt.pose(kind, sample, labelled=shape is not None)  # a marker's label would fall below the box


def nice_units(px_per_unit: float, want_px: float) -> int:
    target = max(1.0, want_px / px_per_unit)
    for n in (1, 2, 3, 6, 12, 24, 36, 60, 120):
        if n >= target * 0.7:
            return n
    return 120


def paint_scale_bar(painter: QPainter, arena: Any, x: float, y: float, px_per_unit: float, units: int,
                    px: float = 12.0) -> float:
    """Alternating bar of ``units`` units labelled in the arena's unit and in centimetres."""
    name, symbol = unit_of(arena)
    mm = units_mm(arena)
    painter.save()
    h = px * 0.8
    for i in range(units):
        painter.setPen(R.pen(R.INK, 1.0))
        painter.setBrush(R.INK if i % 2 == 0 else QColor("white"))
        painter.drawRect(QRectF(x + i * px_per_unit, y, px_per_unit, h))
    font = QFont(painter.font())
    font.setPixelSize(max(1, round(px)))
    painter.setFont(font)
    painter.setPen(R.INK)
    width = units * px_per_unit
    for i in sorted({0, units} | ({units // 2} if units >= 4 else set())):
        painter.drawText(QRectF(x + i * px_per_unit - 40, y + h + 2, 80, px * 1.4),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, f"{i} {symbol}" if i else "0")
    painter.drawText(QRectF(x + width + 10, y - px * 0.3, 420, px * 1.4), Qt.AlignmentFlag.AlignLeft,
                     f"{units} {symbol} = {units * mm / 10:g} cm at 1:1 ({mm:g} mm per {name})")
    painter.restore()
    return width


def _file_name(source: str | None) -> str | None:
    from editor.export_render import file_name

    return file_name(source)


def paint_page(painter: QPainter, arena: Any, width: float, height: float, *, title: str | None = None,
               source: str | None = None, panel: float = 330.0, gap: float = 20.0,
               notes: Sequence[str] = ()) -> None:
    """The decorated page: arena left, title block and legend right, scale bar below."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.fillRect(QRectF(0, 0, width, height), QColor("white"))
    area = QRectF(gap, gap, width - panel - 3 * gap, height - 3 * gap - 50)
    painter.save()
    painter.setClipRect(area)
    paint_arena(painter, arena, area)
    painter.restore()
    transform = R.arena_transform(R.arena_rect(arena, 1.0), area)
    s = transform.m11()
    paint_scale_bar(painter, arena, area.left(), area.bottom() + gap, s, nice_units(s, area.width() / 4))

    x0 = width - panel - gap
    painter.setPen(R.pen(R.INK, 1.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(QRectF(x0, gap, panel, height - 2 * gap))
    text = R.PanelText(painter, x0, gap, panel)

    rs = _ruleset(arena.system)
    name, symbol = unit_of(arena)
    text.y += 10
    text(title or arena.name, 20, bold=True)
    from editor import grid_render

    grid = grid_render.is_grid(arena)
    facts = [f"{rs.game} ({rs.edition})"]
    if grid:
        facts += grid_render.facts(arena)
    else:
        facts.append(f"{arena.players} player{'' if arena.players == 1 else 's'}")
        minx, miny, maxx, maxy = arena.bounds.to_shapely().bounds
        facts.append(f"{maxx - minx:g} x {maxy - miny:g} {symbol}")
    if getattr(arena, "vehicle", None) is not None:
        v = arena.vehicle
        facts.append(f"car {v.length:g} x {v.width:g} {symbol}, turning key {v.key_length:g} x {v.key_width:g} {symbol}")
    if arena.symmetry is not None:
        order = getattr(arena.symmetry, "order", None)
        facts.append(f"{arena.symmetry.kind} symmetry" + (f", order {order}" if order is not None else ""))
    text(" | ".join(facts), 13)
    for label, value in (("Author", arena.author), ("Licence", arena.license), ("File", _file_name(source))):
        if value:
            text(f"{label}: {value}", 12, colour=QColor("#444444"))
    if arena.tags:
        text("Tags: " + ", ".join(arena.tags), 12, colour=QColor("#444444"))
    for note in notes:
        text(note, 12, colour=QColor("#444444"))
    text.y += 8
    painter.setPen(R.pen(R.INK, 1.0))
    painter.drawLine(QPointF(x0, text.y), QPointF(x0 + panel, text.y))
    text.y += 10
    text("Legend", 15, bold=True)
    for kind, label in legend_rows(arena):
        paint_swatch(painter, arena, kind, QRectF(x0 + 14, text.y, 64, 40))
        text.font.setPixelSize(13)
        text.font.setBold(False)
        painter.setFont(text.font)
        painter.setPen(R.INK)
        fm = QFontMetricsF(text.font)
        rect = fm.boundingRect(QRectF(0, 0, panel - 100, 1000), int(Qt.TextFlag.TextWordWrap), label)
        h = max(40.0, rect.height())
        painter.drawText(QRectF(x0 + 90, text.y, panel - 100, h),
                         int(Qt.AlignmentFlag.AlignVCenter) | int(Qt.TextFlag.TextWordWrap), label)
        text.y += h + 6
    if not grid:
        text(f"Grid: 1 {name} squares, heavier every {grid_steps(arena)[1]:g}.", 12, colour=QColor("#444444"))
    painter.setWorldTransform(QTransform())


__all__ = ["ARROW_MM", "MARKER_MM", "PLAYER_COLOURS", "OutlinesElements", "Painter", "VehicleBase", "grid_steps", "kinds_of", "legend_rows", "nice_units", "paint_arena",
           "paint_page", "paint_scale_bar", "paint_swatch", "player_colour", "pose_footprint", "unit_of",
           "vehicle_of"]
