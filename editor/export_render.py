"""Render an arena to SVG, PNG or PDF bytes with the editor's own drawing code
(:func:`editor.render.paint_arena`), framed by a title block, a legend and a scale bar.

The legend's swatches are real elements drawn by :func:`editor.render.paint_element`, so the
legend always matches the drawing.  ``overlays`` adds analysis layers: ``los`` (what each start
sees within the arena's safe-area radius, :func:`engine.sight.visible_region`) and ``paths``
(the planner's fastest route from each start to each checkpoint).  ``heatmap:...`` is
reserved for the validators' travel heatmap and reports that it is not available yet.

``render_bytes`` is the ``arena_studio.renderers`` entry point ``qt``; with ``view`` and
``px_per_length`` it renders a bare, exactly-framed image for VTT exports.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from schema.shapes import Circle, Polygon, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, Element, ExclusionField, Gate, StartPosition, StaticTarget, Wall

OVERLAYS = ("los", "paths", "heatmap")
PANEL = 330.0
GAP = 20.0


class RenderError(ValueError):
    """A render request that cannot be met (unknown format, overlay not available)."""


def ensure_app() -> object:
    """A QGuiApplication (offscreen when there is no display), needed for fonts."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication([])


@dataclass(frozen=True)
class Overlay:
    kind: str
    arg: str = ""


def parse_overlays(specs: Iterable[str]) -> list[Overlay]:
    out = []
    for spec in specs:
        kind, _, arg = spec.partition(":")
        if kind not in OVERLAYS:
            raise RenderError(f"unknown overlay {spec!r}; known: los, paths, heatmap:start:N")
        if kind == "heatmap":
            who, _, player = arg.partition(":")
            if who != "start" or not player.isdigit():
                raise RenderError(f"overlay {spec!r}: the heat map is heatmap:start:N (a start player)")
        out.append(Overlay(kind, arg))
    return out


# ------------------------------------------------------------------ painting


#: Heat-map bands: (upper bound in turns, colour), a colour-blind-safe sequential scale.
HEAT_BANDS = ((1.0, "#fde725"), (2.0, "#5ec962"), (3.0, "#21918c"), (4.0, "#3b528b"))
HEAT_HORIZON = 4.0


def heat_colour(turns: float) -> str | None:
    """The band colour of a travel time (None beyond the horizon or unreached)."""
    for upper, colour in HEAT_BANDS:
        if turns <= upper:
            return colour
    return None


def reach_map(arena: Arena, player: int) -> Any:
    """Earliest arrival (turns) per half-length cell from start ``player``, up to HEAT_HORIZON
    turns (an exhaustive planner search at a 0.5-length tolerance: seconds on a big arena)."""
    from engine.gravstrike.planner import Planner, PlanningError, StartSource

    try:
        return Planner(arena, quantum=0.5, minimise="time", pivots=False).reach_times(
            StartSource(player), cell=0.5, max_time=HEAT_HORIZON)
    except PlanningError as exc:
        raise RenderError(str(exc)) from None


def paint_heatmap(painter: object, arena: Arena, reach: Any, alpha: int = 120) -> None:
    """Fill each reached cell with its band colour, clipped to the bounds (arena coordinates)."""
    import math

    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QPainter, QPainterPath, QPolygonF

    assert isinstance(painter, QPainter)
    clip = QPainterPath()
    clip.addPolygon(QPolygonF([QPointF(x, y) for x, y in arena.bounds.to_shapely().exterior.coords]))
    painter.save()
    painter.setClipPath(clip, Qt.ClipOperation.IntersectClip)
    painter.setPen(Qt.PenStyle.NoPen)
    nx, ny = reach.times.shape
    for i in range(nx):
        for j in range(ny):
            t = float(reach.times[i, j])
            colour = heat_colour(t) if math.isfinite(t) else None
            if colour is None:
                continue
            c = QColor(colour)
            c.setAlpha(alpha)
            painter.setBrush(c)
            painter.drawRect(QRectF(reach.x0 + i * reach.cell, reach.y0 + j * reach.cell, reach.cell, reach.cell))
    painter.restore()


def split_overlays(overlays: Sequence[Overlay]) -> tuple[list[Overlay], list[Overlay]]:
    """(drawn under the elements: areas such as the heat map and line of sight, drawn over
    them: paths)."""
    under = [o for o in overlays if o.kind in ("heatmap", "los")]
    return under, [o for o in overlays if o.kind not in ("heatmap", "los")]


def paint_overlays(painter: object, arena: Arena, overlays: Sequence[Overlay]) -> None:
    """Draw overlays in arena coordinates (the painter's world transform is already set)."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QColor, QPainter, QPainterPath, QPolygonF

    from editor import render as R

    assert isinstance(painter, QPainter)
    palette = [R.BLUE, R.VERMILLION, R.GREEN, R.PURPLE, R.ORANGE, R.SKY, R.YELLOW, R.INK]
    for ov in overlays:
        if ov.kind == "los":
            from engine.sight import Blockers, visible_region

            blockers = Blockers.from_arena(arena)
            for i, s in enumerate(arena.start_positions):
                region = visible_region(s.position, arena.scenario.analysis.safe_area_radius, blockers)
                colour = QColor(palette[i % len(palette)])
                path = QPainterPath()
                for poly in getattr(region, "geoms", [region]):
                    if poly.is_empty:
                        continue
                    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in poly.exterior.coords]))
                    path.closeSubpath()
                colour.setAlpha(40)
                painter.setBrush(colour)
                colour.setAlpha(160)
                painter.setPen(R.pen(colour, 1.0, Qt.PenStyle.DashLine))
                painter.drawPath(path)
        elif ov.kind == "heatmap":
            paint_heatmap(painter, arena, reach_map(arena, int(ov.arg.split(":")[1])))
        elif ov.kind == "paths":
            from engine.gravstrike.planner import Goal, Planner, StartSource

            planner = Planner(arena, quantum=0.25)  # fewest icons among the fastest: the straightest routes
            goals = [Goal("checkpoint", c.id) for c in arena.checkpoints]
            for i, s in enumerate(arena.start_positions):
                colour = QColor(palette[i % len(palette)])
                for result in planner.plan_from(StartSource(s.player), goals).values():
                    if not result.reachable:
                        continue
                    pts = [QPointF(*s.position)] + [QPointF(p.x, p.y) for p in result.path]
                    painter.setPen(R.pen(colour, 2.0))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawPolyline(QPolygonF(pts))


def _samples(arena: Arena) -> list[tuple[str, Element]]:
    """One sample element per kind the arena uses, for the legend."""
    out: list[tuple[str, Element]] = []
    if arena.walls:
        out.append(("Wall", Wall("", Rect((0.0, 0.0), (2.0, 0.6)))))
    for kind, text in (("outlying", "Checkpoint (outlying)"), ("central", "Checkpoint (central)")):
        if any(c.kind == kind for c in arena.checkpoints):
            out.append((text, Checkpoint("", kind, Circle((0.0, 0.0), 0.7))))  # type: ignore[arg-type]
    if arena.gates:
        out.append(("Gate (scoring line)", Gate("", "outlying", (-1.0, 0.0), (1.0, 0.0))))
    if arena.acceleration_fields:
        out.append(("Acceleration field + push", AccelerationField("", Circle((0.0, 0.0), 0.7), 0.0)))
    if arena.exclusion_fields:
        out.append(("Exclusion field (from tier)", ExclusionField("", Polygon(((-1.0, -0.6), (1.0, -0.6), (0.0, 0.7))))))
    if arena.static_targets:
        out.append(("Static target", StaticTarget("", (0.0, 0.0))))
    if arena.start_positions:
        out.append(("Start position + facing", StartPosition(0, (-0.8, 0.0), 0.0)))
    return out


def nice_lengths(px_per_length: float, want_px: float) -> int:
    """A 1-2-5 number of lengths whose bar is about ``want_px`` long."""
    target = max(1.0, want_px / px_per_length)
    for n in (1, 2, 5, 10, 20, 50, 100):
        if n >= target * 0.7:
            return n
    return 100


def paint_scale_bar(painter: object, x: float, y: float, px_per_length: float, lengths: int, length_mm: float,
                    px: float = 12.0) -> float:
    """Alternating black/white bar of ``lengths`` lengths with length and centimetre labels;
    returns its width in device units."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QPainter

    from editor import render as R

    assert isinstance(painter, QPainter)
    painter.save()
    h = px * 0.8
    for i in range(lengths):
        painter.setPen(R.pen(R.INK, 1.0))
        painter.setBrush(R.INK if i % 2 == 0 else QColor("white"))
        painter.drawRect(QRectF(x + i * px_per_length, y, px_per_length, h))
    font = QFont(painter.font())
    font.setPixelSize(max(1, round(px)))
    painter.setFont(font)
    painter.setPen(R.INK)
    width = lengths * px_per_length
    for i in sorted({0, lengths} | ({lengths // 2} if lengths >= 4 else set())):
        painter.drawText(QRectF(x + i * px_per_length - 40, y + h + 2, 80, px * 1.4),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, str(i))
    cm = lengths * length_mm / 10.0
    unit = "length" if lengths == 1 else "lengths"
    painter.drawText(QRectF(x + width + 10, y - px * 0.3, 400, px * 1.4), Qt.AlignmentFlag.AlignLeft,
                     f"{lengths} {unit} = {cm:g} cm at 1:1 ({length_mm:g} mm per length)")
    painter.restore()
    return width


def file_name(source: str | None) -> str | None:
    """What a title block prints of the arena's file: its name, never the folder it is in on
    this computer (issue 42, point 11)."""
    if not source:
        return None
    return source.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def paint_page(painter: object, arena: Arena, width: float, height: float, *, overlays: Sequence[Overlay] = (),
               title: str | None = None, source: str | None = None) -> None:
    """The decorated page: arena at the left, title block and legend at the right, scale bar
    below the arena.  Arenas of other games are drawn from their ruleset's styles
    (:mod:`editor.style_render`)."""
    if not isinstance(arena, Arena):
        from editor import style_render

        style_render.paint_page(painter, arena, width, height, title=title, source=source,
                                panel=PANEL, gap=GAP)
        return
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QTransform

    from editor import render as R

    assert isinstance(painter, QPainter)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.fillRect(QRectF(0, 0, width, height), QColor("white"))
    area = QRectF(GAP, GAP, width - PANEL - 3 * GAP, height - 3 * GAP - 50)
    source_rect = R.arena_rect(arena, 1.0)
    under, over = split_overlays(overlays)
    painter.save()
    painter.setClipRect(area)  # the background grid may start outside its rectangle
    R.paint_arena(painter, arena, area, underlay=(lambda p: paint_overlays(p, arena, under)) if under else None)
    painter.restore()
    transform = R.arena_transform(source_rect, area)
    if over:
        painter.save()
        painter.setWorldTransform(transform)
        paint_overlays(painter, arena, over)
        painter.restore()
    s = transform.m11()
    n = nice_lengths(s, area.width() / 4)
    paint_scale_bar(painter, area.left(), area.bottom() + GAP, s, n, arena.units.length_mm)

    # title block
    x0, y = width - PANEL - GAP, GAP
    panel = QRectF(x0, GAP, PANEL, height - 2 * GAP)
    painter.setPen(R.pen(R.INK, 1.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(panel)
    font = QFont(painter.font())

    def text(line: str, px: float, bold: bool = False, colour: QColor = R.INK) -> None:
        nonlocal y
        font.setPixelSize(round(px))
        font.setBold(bold)
        painter.setFont(font)
        painter.setPen(colour)
        fm = QFontMetricsF(font)
        rect = fm.boundingRect(QRectF(0, 0, PANEL - 24, 10000), int(Qt.TextFlag.TextWordWrap), line)
        painter.drawText(QRectF(x0 + 12, y, PANEL - 24, rect.height()), int(Qt.TextFlag.TextWordWrap), line)
        y += rect.height() + px * 0.35

    y += 10
    text(title or arena.name, 20, bold=True)
    facts = [f"{arena.players} player{'' if arena.players == 1 else 's'}", f"1 length = {arena.units.length_mm:g} mm"]
    if arena.symmetry is not None:
        facts.append(f"{arena.symmetry.kind} symmetry, order {arena.symmetry.order}")
    text(" | ".join(facts), 13)
    for label, value in (("Author", arena.author), ("Licence", arena.license), ("File", file_name(source))):
        if value:
            text(f"{label}: {value}", 12, colour=QColor("#444444"))
    if arena.tags:
        text("Tags: " + ", ".join(arena.tags), 12, colour=QColor("#444444"))
    if overlays:
        text("Overlays: " + ", ".join(f"{o.kind} {o.arg}".strip() for o in overlays), 12, colour=QColor("#444444"))
    if any(o.kind == "heatmap" for o in overlays):
        lower = 0.0
        for upper, colour in HEAT_BANDS:
            painter.fillRect(QRectF(x0 + 14, y + 2, 14, 14), QColor(colour))
            x_save = x0
            x0 += 22
            text(f"{lower:g}–{upper:g} turns to get there", 12)
            x0 = x_save
            lower = upper
        text(f"uncoloured: not within {HEAT_HORIZON:g} turns", 12, colour=QColor("#444444"))
    y += 8
    painter.setPen(R.pen(R.INK, 1.0))
    painter.drawLine(QPointF(x0, y), QPointF(x0 + PANEL, y))
    y += 10
    text("Legend", 15, bold=True)
    opts = R.RenderOptions(label_px=1.0)
    for label, el in _samples(arena):
        box = QRectF(x0 + 14, y, 64, 40)
        painter.save()
        painter.setWorldTransform(R.arena_transform(QRectF(-1.3, -0.9, 2.6, 1.8), box))
        R.paint_element(painter, el, arena.turbine, opts=opts)
        painter.restore()
        font.setPixelSize(13)
        font.setBold(False)
        painter.setFont(font)
        painter.setPen(R.INK)
        painter.drawText(QRectF(x0 + 90, y, PANEL - 100, 40), int(Qt.AlignmentFlag.AlignVCenter), label)
        y += 46
    painter.setWorldTransform(QTransform())


# ------------------------------------------------------------------ devices


def page_size(arena: Arena, width: float = 1400.0) -> tuple[float, float]:
    """Page size (device units) giving the arena area the arena's aspect ratio."""
    from editor import render as R

    src = R.arena_rect(arena, 1.0)
    aw = width - PANEL - 3 * GAP
    ah = aw * src.height() / src.width()
    return width, max(ah + 3 * GAP + 50, 760.0)


def _open_buffer() -> tuple[object, object]:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    ba = QByteArray()
    buf = QBuffer(ba)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    return ba, buf


def render_bytes(arena: Arena, fmt: str, *, overlays: Iterable[str] = (), width: float = 1400.0,
                 view: tuple[float, float, float, float] | None = None, px_per_length: int | None = None,
                 title: str | None = None, source: str | None = None) -> bytes:
    """Render ``arena`` as ``svg``, ``png`` or ``pdf``.  With ``view`` (min x, min y, max x,
    max y in lengths) and ``px_per_length``: a bare image of exactly that frame (PNG only)."""
    ensure_app()
    from PySide6.QtCore import QRectF, QSize
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtSvg import QSvgGenerator

    from editor import render as R

    ovs = parse_overlays(overlays)
    if ovs and not isinstance(arena, Arena):
        raise RenderError(f"overlays ({', '.join(o.kind for o in ovs)}) are drawn for Gravstrike arenas only so far; "
                          f"this is a {getattr(arena, 'system', '?')} arena")
    players = {s.player for s in getattr(arena, "start_positions", ())}
    for ov in ovs:  # refuse before a painter is open (an exception mid-paint leaves it dangling)
        if ov.kind == "heatmap" and int(ov.arg.split(":")[1]) not in players:
            raise RenderError(f"overlay heatmap:{ov.arg}: the arena has no {ov.arg}")
    if fmt not in ("svg", "png", "pdf"):
        raise RenderError(f"cannot render {fmt!r}; use svg, png or pdf")
    ba, buf = _open_buffer()
    if view is not None:
        if fmt != "png" or not px_per_length:
            raise RenderError("a framed view renders to png with px_per_length")
        x0, y0, x1, y1 = view
        w, h = round((x1 - x0) * px_per_length), round((y1 - y0) * px_per_length)
        img = QImage(w, h, QImage.Format.Format_ARGB32)
        img.fill(R.OUTSIDE)
        p = QPainter(img)
        try:
            minx, miny, maxx, maxy = arena.bounds.to_shapely().bounds
            target = QRectF((minx - x0) * px_per_length, (y1 - maxy) * px_per_length,
                            (maxx - minx) * px_per_length, (maxy - miny) * px_per_length)
            under, over = split_overlays(ovs)
            if not isinstance(arena, Arena):
                from editor import style_render

                style_render.paint_arena(p, arena, target, margin=0.0)
            else:
                R.paint_arena(p, arena, target, margin=0.0,
                              underlay=(lambda q: paint_overlays(q, arena, under)) if under else None)
            if over:
                p.setWorldTransform(R.arena_transform(R.arena_rect(arena, 0.0), target))
                paint_overlays(p, arena, over)
        finally:  # a painter left open on its device when painting fails kills the process
            p.end()
        img.save(buf, "PNG")  # type: ignore[call-overload]
        png: bytes = bytes(ba)  # type: ignore[call-overload]  # PySide6's stub has no QByteArray.__bytes__
        return png
    pw, ph = page_size(arena, width)
    if fmt == "png":
        img = QImage(round(pw), round(ph), QImage.Format.Format_ARGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        try:
            paint_page(p, arena, pw, ph, overlays=ovs, title=title, source=source)
        finally:
            p.end()
        img.save(buf, "PNG")  # type: ignore[call-overload]
    elif fmt == "svg":
        gen = QSvgGenerator()
        gen.setOutputDevice(buf)  # type: ignore[arg-type]
        gen.setSize(QSize(round(pw), round(ph)))
        gen.setViewBox(QRectF(0, 0, pw, ph))
        gen.setTitle(title or arena.name)
        gen.setDescription(f"Arena Studio render of {arena.name}")
        p = QPainter(gen)
        try:
            paint_page(p, arena, pw, ph, overlays=ovs, title=title, source=source)
        finally:
            p.end()
        from editor.svg_flatten import flatten_svg

        return flatten_svg(bytes(ba))  # type: ignore[call-overload]
    else:
        from editor.reproducible_pdf import DPI, pdf_document

        mm = 25.4 / DPI
        return pdf_document(pw * mm, ph * mm, title or arena.name,
                            lambda q, _writer: paint_page(q, arena, pw, ph, overlays=ovs, title=title, source=source))
    out: bytes = bytes(ba)  # type: ignore[call-overload]  # PySide6's stub has no QByteArray.__bytes__
    return out


__all__ = ["RenderError", "ensure_app", "nice_lengths", "paint_page", "paint_scale_bar", "parse_overlays",
           "render_bytes"]
