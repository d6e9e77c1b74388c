"""Gravstrike's analysis overlays on the canvas (its :meth:`editor.game.EditorGame.overlays`
part, driven by the window's shared View → Overlays entries, :mod:`editor.overlays`): the
travel-time heat map from a chosen start, the optimal path of the selected travel finding
(length by length), what a chosen (or the selected) start can see, their key in the canvas's
corner (:class:`editor.canvas_legend.CanvasLegend`), and the travel-time table's rows (every
start's time to every checkpoint).

The slow ones (heat map, travel table) are computed in a child process that is killed when the
arena or the choice changes, so the editor never waits; the layers draw with the same painter
code as ``arena render`` (:mod:`editor.games.gravstrike.export_layers`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import elements as E
from editor import render as R
from editor.canvas_legend import CanvasLegend, sight_brush
from editor.games.gravstrike import export_layers as X
from editor.games.overlay_jobs import JobSlots, OverlayJob, OverlaySignals
from schema.games.gravstrike.model import Arena, StartPosition

if TYPE_CHECKING:
    from editor.overlays import Overlays
    from editor.travel_table import TravelTable

SYSTEM = "gravstrike"
HEAT_Z = -5.0  # under every element
PATH_Z = 50.0  # over every element


# ------------------------------------------------------------------ background work


def travel_table(arena: Arena, travel: dict[str, Any] | None = None) -> dict[str, dict[str, float | None]]:
    """start -> checkpoint -> turns (None when unreachable), with the validators' settings;
    from ``travel`` (source -> goal ref -> result, the live validation's) where given."""
    from validators.games.gravstrike.context import AnalysisContext

    ctx = AnalysisContext(arena)
    if travel:
        ctx.provide(travel)
    out: dict[str, dict[str, float | None]] = {}
    for s in ctx.starts():
        row = ctx.travel_from(s)
        out[s] = {c.id: (round(row[f"checkpoint:{c.id}"].time, 3) if row[f"checkpoint:{c.id}"].reachable else None)
                  for c in arena.checkpoints}
    return out


# ------------------------------------------------------------------ canvas layers


class HeatLayer(QGraphicsItem):
    """Cells coloured by the turns the chosen start needs to end a length there."""

    def __init__(self) -> None:
        super().__init__()
        self.arena: Arena | None = None
        self.reach: Any = None
        self.setZValue(HEAT_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_map(self, arena: Arena | None, reach: Any) -> None:
        self.prepareGeometryChange()
        self.arena, self.reach = arena, reach
        self.update()

    def boundingRect(self) -> QRectF:
        if self.reach is None:
            return QRectF()
        nx, ny = self.reach.times.shape
        return QRectF(self.reach.x0, self.reach.y0, nx * self.reach.cell, ny * self.reach.cell)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.reach is not None and self.arena is not None:
            X.paint_heatmap(painter, self.arena, self.reach, alpha=110)


class PathLayer(QGraphicsItem):
    """A planned path: the centre's line, the footprint after every length, field pushes dashed."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[dict[str, Any]] = []
        self.start: tuple[float, float] | None = None
        self.size = (1.0, 0.5)
        self.setZValue(PATH_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_path(self, steps: list[dict[str, Any]], start: tuple[float, float] | None, size: tuple[float, float]) -> None:
        self.prepareGeometryChange()
        self.steps, self.start, self.size = list(steps), start, size
        self.update()

    def boundingRect(self) -> QRectF:
        pts = [(s["x"], s["y"]) for s in self.steps] + ([self.start] if self.start else [])
        if not pts:
            return QRectF()
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return QRectF(min(xs) - 1, min(ys) - 1, max(xs) - min(xs) + 2, max(ys) - min(ys) + 2)

    def footprint(self, step: dict[str, Any]) -> QPolygonF:
        a = math.radians(step["heading"])
        c, s = math.cos(a), math.sin(a)
        hl, hw = self.size[0] / 2.0, self.size[1] / 2.0
        return QPolygonF([QPointF(step["x"] + lx * c - ly * s, step["y"] + lx * s + ly * c)
                          for lx, ly in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))])

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if not self.steps:
            return
        prev = QPointF(*self.start) if self.start else QPointF(self.steps[0]["x"], self.steps[0]["y"])
        for step in self.steps:
            here = QPointF(step["x"], step["y"])
            pushed = step.get("pushed_by") is not None
            painter.setPen(R.pen(R.VERMILLION, 2.5, Qt.PenStyle.DashLine if pushed else Qt.PenStyle.SolidLine))
            painter.drawLine(prev, here)
            if not pushed:
                fill = QColor(R.VERMILLION)
                fill.setAlpha(35 + 30 * (step["turn"] % 2))  # alternate turns
                painter.setBrush(fill)
                painter.setPen(R.pen(R.VERMILLION, 1.0))
                painter.drawPolygon(self.footprint(step))
            prev = here


class SightLayer(QGraphicsItem):
    """What one start position sees within the safe-area radius: hatched, with a bold outline,
    readable over the heat map; under the elements."""

    def __init__(self) -> None:
        super().__init__()
        self.arena: Arena | None = None
        self.player: int | None = None
        self.region = QPainterPath()
        self.setZValue(HEAT_Z + 1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_view(self, arena: Arena | None, player: int | None) -> None:
        from engine.sight import Blockers, visible_region

        self.prepareGeometryChange()
        self.arena, self.player = arena, player
        self.region = QPainterPath()
        start = next((s for s in arena.start_positions if s.player == player), None) if arena is not None else None
        if start is not None and arena is not None:
            region = visible_region(start.position, arena.scenario.analysis.safe_area_radius, Blockers.from_arena(arena))
            for poly in getattr(region, "geoms", [region]):
                if not poly.is_empty:
                    self.region.addPolygon(QPolygonF([QPointF(x, y) for x, y in poly.exterior.coords]))
                    self.region.closeSubpath()
        self.update()

    def boundingRect(self) -> QRectF:
        return self.region.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.region.isEmpty():
            return
        painter.setBrush(sight_brush())
        painter.setPen(R.pen(R.VERMILLION, 2.5))
        painter.drawPath(self.region)


# ------------------------------------------------------------------ the part


class GravstrikeOverlays(JobSlots, QObject):
    """Gravstrike's layers, their key and background jobs (heat map, travel table), serving
    the window's shared entries (:class:`editor.overlays.Overlays` ``ov``: its heat-map and
    line-of-sight choices, its "Path of the selected travel finding" switch, its travel table)
    while a Gravstrike arena is edited."""

    message = Signal(str)

    def __init__(self, win: Any, ov: Overlays) -> None:
        super().__init__(win)
        self.win, self.ov = win, ov
        self.heat, self.path, self.sight = HeatLayer(), PathLayer(), SightLayer()
        for layer in (self.heat, self.path, self.sight):
            layer.setVisible(False)
            win.scene.addItem(layer)
        self.legend = CanvasLegend(win.view, win.view.viewport(), X.HEAT_BANDS)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self.signals = OverlaySignals(self)
        self.signals.done.connect(self._done)
        self.generation = {"heat": 0, "table": 0}
        self.jobs: dict[str, OverlayJob] = {}

    def active(self) -> bool:
        return isinstance(self.win.doc.arena, Arena)

    # -- jobs
    def _done(self, kind: str, generation: int, result: object) -> None:
        if generation != self.generation[kind]:
            return
        self.jobs.pop(kind, None)
        if isinstance(result, Exception):
            self.message.emit(f"{'Heat map' if kind == 'heat' else 'Travel table'} failed: {result}")
            if kind == "heat":
                self.legend.set_heat(self.ov.heat_player, "failed")
            return
        if kind == "heat":
            self.heat.set_map(self.win.doc.arena, result)
            self.heat.setVisible(True)
            self.legend.set_heat(self.ov.heat_player, "shown")
        else:
            self.ov.table.show_table(result)  # type: ignore[arg-type]

    # -- the shared entries' choices
    def show_heat(self, player: int | None) -> None:
        """The heat map from start ``player`` (None: off)."""
        if player is None:
            self._cancel("heat")
            self.heat.set_map(None, None)
            self.heat.setVisible(False)
            self.legend.set_heat(None)
            return
        self.legend.set_heat(player, "computing")  # the old map stays until the new one arrives
        self._start("heat", X.reach_map, (self.win.doc.arena, player))

    def show_sight(self, mode: int | str | None) -> None:
        """Line of sight from start ``mode`` (a player), from the selected start
        (``"selected"``) or off (None)."""
        arena = self.win.doc.arena
        player = self.sight_player(mode)
        if not any(s.player == player for s in arena.start_positions):
            player = None
        on = mode is not None
        self.sight.set_view(arena if on else None, player)
        self.sight.setVisible(on and player is not None)
        note = "Line of sight: select a start" if mode == "selected" else ""
        self.legend.set_sight(player if on else None, arena.scenario.analysis.safe_area_radius, note if on else "")

    def sight_player(self, mode: int | str | None) -> int | None:
        if mode == "selected":
            sel = self.win.doc.selection
            el = E.find(self.win.doc.arena, sel[0]) if len(sel) == 1 else None
            return el.player if isinstance(el, StartPosition) else None
        return mode if isinstance(mode, int) else None

    def show_finding_path(self, finding: dict[str, Any]) -> None:
        """The path of a travel finding (its ``path``: the planner's steps) from its start."""
        if not self.active():  # another game's findings: its overlays draw them
            return
        steps = finding.get("path") or []
        arena = self.win.doc.arena
        start = None
        for ref in finding.get("elements", []):
            if ref.startswith("start:"):
                s = next((s for s in arena.start_positions if s.id == ref), None)
                if s is not None and steps and math.dist(s.position, (steps[0]["x"], steps[0]["y"])) < 3.5:
                    start = s.position
        self.path.set_path(steps, start, (arena.turbine.length, arena.turbine.width))
        self.path.setVisible(bool(steps) and self.ov.path_action.isChecked())

    def show_path(self, on: bool) -> None:
        """The "Path of the selected travel finding" switch."""
        self.path.setVisible(on and bool(self.path.steps) and self.active())

    # -- the travel table
    def _live(self) -> Any:
        """The live validation (its travel feeds the table), or None."""
        return getattr(self.win.runner.analyse, "live", None)

    def fill_table(self, table: TravelTable) -> None:
        """Fill the travel table (shown): from the live validation's travel when it has the
        current arena's (no work of its own), after the running validation if one is going,
        else computed in the background."""
        arena = self.win.doc.arena
        live = self._live()
        if live is not None:
            got = live.last_travel
            if got is not None and got[0] is arena:
                self._cancel("table")
                table.show_table(travel_table(arena, got[1]))
                return
            if self.win.runner.busy:  # its final findings refresh the table
                table.status.setText("Computing travel times in the background…")
                return
        table.status.setText("Computing travel times in the background…")
        self._start("table", travel_table, (arena,))

    def table_hidden(self) -> None:
        self._cancel("table")

    # -- the window
    def arena_changed(self) -> None:
        """An edit or another arena: the heat map and the line of sight follow it (off for
        another game's arena), a path planned on the old arena goes."""
        ov = self.ov
        if not self.active():
            self.show_heat(None)
            self.sight.set_view(None, None)
            self.sight.setVisible(False)
            self.legend.set_sight(None, 0.0)
            self.path.set_path([], None, self.path.size)
            self.path.setVisible(False)
            self._cancel("table")
            return
        starts = {s.player for s in self.win.doc.arena.start_positions}
        if ov.heat_player is not None:
            ov.show_heat(ov.heat_player if ov.heat_player in starts else None)
        if ov.sight_mode is not None:
            self.show_sight(ov.sight_mode)
        self.path.set_path([], None, self.path.size)  # a path planned on the old arena is stale
        if self._live() is None:
            ov.refresh_table()  # else the validation run this edit starts brings the table's travel

    def probe(self) -> dict[str, Any]:
        """What the real-window tests read of the layers (:meth:`editor.game.EditorGame.probe`)."""
        return {"heat_visible": self.heat.isVisible(), "heat_player": self.ov.heat_player,
                "legend": self.legend.text() if self.legend.isVisible() else "",
                "sight_player": self.sight.player if self.sight.isVisible() else None,
                "path_steps": len(self.path.steps) if self.path.isVisible() else 0}

    def shutdown(self) -> None:
        for kind in list(self.jobs):
            self._cancel(kind)
        self.pool.waitForDone(3000)


def install(win: Any, ov: Overlays) -> GravstrikeOverlays:
    """Add Gravstrike's overlays to the window whose :class:`editor.overlays.Overlays` is ``ov``."""
    part = GravstrikeOverlays(win, ov)
    ov.path_action.toggled.connect(part.show_path)
    win.validation.findingSelected.connect(part.show_finding_path)
    part.message.connect(lambda text: win.statusBar().showMessage(text, 8000))
    return part


__all__ = ["GravstrikeOverlays", "HeatLayer", "PathLayer", "SightLayer", "install", "travel_table"]
