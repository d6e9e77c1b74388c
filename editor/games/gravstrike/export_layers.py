"""Gravstrike's part of ``arena render`` (:class:`GravstrikeExport`, its
:meth:`editor.game.EditorGame.export` hook): the decorated page (title block, a legend of real
elements drawn by :func:`editor.render.paint_element`, the heat map's bands) and the analysis
overlays:

* ``los`` - what each start sees within the arena's safe-area radius
  (:func:`engine.sight.visible_region`);
* ``paths`` - the planner's fastest route from each start to each checkpoint;
* ``heatmap:start:N`` - the turns start N needs to end a length in each half-length cell
  (:func:`reach_map`, also the editor's heat-map layer, :mod:`editor.games.gravstrike.overlays`).

The areas (heat map, line of sight) go under the elements, the routes over them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from editor.export_render import GAP, PANEL, ArenaExport, Overlay, RenderError, file_name, nice_lengths, paint_scale_bar
from schema.games.gravstrike.model import (AccelerationField, Arena, Checkpoint, Element, ExclusionField, Gate,
                                           StartPosition, StaticTarget, Wall)
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Polygon, Rect
from validators.heatmaps import WHOLE_TURN_BANDS

if TYPE_CHECKING:
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

#: Heat-map bands: (upper bound in turns, colour), a colour-blind-safe sequential scale (the
#: HTML report's too: :data:`validators.heatmaps.WHOLE_TURN_BANDS`).
HEAT_BANDS = WHOLE_TURN_BANDS
HEAT_HORIZON = 4.0
#: The overlays drawn under the elements (areas); the others (routes) go over them.
UNDER = ("heatmap", "los")


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


def paint_heatmap(painter: QPainter, arena: Arena, reach: Any, alpha: int = 120) -> None:
    """Fill each reached cell with its band colour, clipped to the bounds (arena coordinates)."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QPainterPath, QPolygonF

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
    under = [o for o in overlays if o.kind in UNDER]
    return under, [o for o in overlays if o.kind not in UNDER]


def paint_overlays(painter: QPainter, arena: Arena, overlays: Sequence[Overlay]) -> None:
    """Draw overlays in arena coordinates (the painter's world transform is already set)."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QColor, QPainterPath, QPolygonF

    from editor import render as R

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


def samples(arena: Arena) -> list[tuple[str, Element]]:
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


def paint_page(painter: QPainter, arena: Arena, width: float, height: float, *, overlays: Sequence[Overlay] = (),
               title: str | None = None, source: str | None = None) -> None:
    """The decorated page: arena at the left, title block and legend at the right, scale bar
    below the arena."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QPainter, QTransform

    from editor import render as R

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
    x0 = width - PANEL - GAP
    panel = QRectF(x0, GAP, PANEL, height - 2 * GAP)
    painter.setPen(R.pen(R.INK, 1.5))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(panel)
    text = R.PanelText(painter, x0, GAP, PANEL)

    text.y += 10
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
            painter.fillRect(QRectF(x0 + 14, text.y + 2, 14, 14), QColor(colour))
            text.x0 = x0 + 22  # the band's swatch before its words
            text(f"{lower:g}–{upper:g} turns to get there", 12)
            text.x0 = x0
            lower = upper
        text(f"uncoloured: not within {HEAT_HORIZON:g} turns", 12, colour=QColor("#444444"))
    text.y += 8
    painter.setPen(R.pen(R.INK, 1.0))
    painter.drawLine(QPointF(x0, text.y), QPointF(x0 + PANEL, text.y))
    text.y += 10
    text("Legend", 15, bold=True)
    opts = R.RenderOptions(label_px=1.0)
    for label, el in samples(arena):
        box = QRectF(x0 + 14, text.y, 64, 40)
        painter.save()
        painter.setWorldTransform(R.arena_transform(QRectF(-1.3, -0.9, 2.6, 1.8), box))
        R.paint_element(painter, el, arena.turbine, opts=opts)
        painter.restore()
        text.font.setPixelSize(13)
        text.font.setBold(False)
        painter.setFont(text.font)
        painter.setPen(R.INK)
        painter.drawText(QRectF(x0 + 90, text.y, PANEL - 100, 40), int(Qt.AlignmentFlag.AlignVCenter), label)
        text.y += 46
    painter.setWorldTransform(QTransform())


def _arena(arena: ArenaModel) -> Arena:
    """``arena`` as Gravstrike's (the hook is only asked about arenas of its game)."""
    if not isinstance(arena, Arena):
        raise TypeError(f"not a Gravstrike arena: {type(arena).__name__}")
    return arena


class GravstrikeExport(ArenaExport):
    """Gravstrike's page and its ``los``, ``paths`` and ``heatmap:start:N`` overlays."""

    overlays = ("los", "paths", "heatmap")

    def check_overlays(self, arena: ArenaModel, overlays: Sequence[Overlay]) -> None:
        players = {s.player for s in _arena(arena).start_positions}
        for ov in overlays:
            if ov.kind == "heatmap" and int(ov.arg.split(":")[1]) not in players:
                raise RenderError(f"overlay heatmap:{ov.arg}: the arena has no {ov.arg}")

    def paint_page(self, painter: QPainter, arena: ArenaModel, width: float, height: float, *,
                   overlays: Sequence[Overlay] = (), title: str | None = None, source: str | None = None) -> None:
        paint_page(painter, _arena(arena), width, height, overlays=overlays, title=title, source=source)

    def paint_view(self, painter: QPainter, arena: ArenaModel, target: QRectF, overlays: Sequence[Overlay] = ()) -> None:
        from editor import render as R

        a = _arena(arena)
        under, over = split_overlays(overlays)
        R.paint_arena(painter, a, target, margin=0.0,
                      underlay=(lambda q: paint_overlays(q, a, under)) if under else None)
        if over:
            painter.setWorldTransform(R.arena_transform(R.arena_rect(a, 0.0), target))
            paint_overlays(painter, a, over)


__all__ = ["HEAT_BANDS", "HEAT_HORIZON", "GravstrikeExport", "heat_colour", "paint_heatmap", "paint_overlays",
           "paint_page", "reach_map", "samples", "split_overlays"]
