"""Analysis overlays on the canvas: the travel-time heat map from a chosen start, the optimal
path of the selected travel finding (length by length), what a chosen (or the selected) start
can see, a key for them in the canvas's corner (:mod:`editor.canvas_legend`), and a dock with
every start's time to every checkpoint.

The slow ones (heat map, travel table) are computed in a child process that is killed when the
arena or the choice changes, so the editor never waits; the layers draw with the same painter
code as ``arena render`` (:mod:`editor.export_render`).
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QThreadPool, Signal
from PySide6.QtGui import QAction, QActionGroup, QColor, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStackedWidget, QStyleOptionGraphicsItem, QWidget

from editor import elements as E
from editor import export_render as X
from editor import render as R
from editor.travel_table import TravelTable
from editor.canvas_legend import CanvasLegend, sight_brush
from editor.games.overlay_jobs import JobSlots, OverlayJob, OverlaySignals
from schema.games.gravstrike.model import Arena, StartPosition

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


# ------------------------------------------------------------------ the controller


class Overlays(JobSlots, QObject):
    """Owns the layers and the background jobs; ``win`` is the main window."""

    message = Signal(str)
    # the travel dock's pages (the table, each game's own), added by :func:`install`
    stack: TravelStack

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.heat, self.path, self.sight = HeatLayer(), PathLayer(), SightLayer()
        for layer in (self.heat, self.path, self.sight):
            layer.setVisible(False)
            win.scene.addItem(layer)
        self.heat_player: int | None = None
        #: Line of sight: None (off), "selected" (the selected start) or a player number.
        self.sight_mode: int | str | None = None
        self._menu_players: tuple[int, ...] | None = None
        self.legend = CanvasLegend(win.view, win.view.viewport())
        self.table = TravelTable()
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)
        self.signals = OverlaySignals(self)
        self.signals.done.connect(self._done)
        self.generation = {"heat": 0, "table": 0}
        self.jobs: dict[str, OverlayJob] = {}
        #: Each game's own overlays (:meth:`editor.game.EditorGame.overlays`) and travel-dock
        #: pages (:meth:`editor.game.EditorGame.travel_page`), by game id.
        self.parts: dict[str, Any] = {}
        self.pages: dict[str, Any] = {}

    # -- jobs
    def _done(self, kind: str, generation: int, result: object) -> None:
        if generation != self.generation[kind]:
            return
        self.jobs.pop(kind, None)
        if isinstance(result, Exception):
            self.message.emit(f"{'Heat map' if kind == 'heat' else 'Travel table'} failed: {result}")
            if kind == "heat":
                self.legend.set_heat(self.heat_player, "failed")
            return
        if kind == "heat":
            self.heat.set_map(self.win.doc.arena, result)
            self.heat.setVisible(True)
            self.legend.set_heat(self.heat_player, "shown")
        else:
            self.table.show_table(result)  # type: ignore[arg-type]

    # -- user choices
    def show_heat(self, player: int | None) -> None:
        self.heat_player = player
        if hasattr(self, "heat_group"):
            self._check_menu(self.heat_group, player)
        part = self._start_part()
        if part is not None:
            self._cancel("heat")
            self.heat.set_map(None, None)
            self.heat.setVisible(False)
            self.legend.set_heat(None)
            part.show_heat(player)
            return
        if player is None:
            self._cancel("heat")
            self.heat.set_map(None, None)
            self.heat.setVisible(False)
            self.legend.set_heat(None)
            return
        if self._other_game():
            return
        self.legend.set_heat(player, "computing")  # the old map stays until the new one arrives
        self._start("heat", X.reach_map, (self.win.doc.arena, player))

    def show_sight(self, mode: int | str | None) -> None:
        """Line of sight from start ``mode`` (a player), from the selected start
        (``"selected"``) or off (None)."""
        self.sight_mode = mode
        self.refresh_sight()
        self._check_menu(self.sight_group, mode)

    def sight_player(self) -> int | None:
        if self.sight_mode == "selected":
            sel = self.win.doc.selection
            el = E.find(self.win.doc.arena, sel[0]) if len(sel) == 1 else None
            return el.player if isinstance(el, StartPosition) else None
        return self.sight_mode if isinstance(self.sight_mode, int) else None

    def game_part(self) -> Any:
        """The overlays of the edited arena's game (:meth:`editor.game.EditorGame.overlays`), if
        it brings its own; None: this window's own layers (those of the window's first game)."""
        for part in self.parts.values():
            if part.active():
                return part
        return None

    def _start_part(self) -> Any:
        """The game's overlays when they serve the "from start" menus (``show_heat`` and
        ``show_sight`` of a start), else None."""
        part = self.game_part()
        return part if part is not None and hasattr(part, "show_heat") and hasattr(part, "show_sight") else None

    def _other_game(self) -> bool:
        """An arena of a game these layers are not written for and whose overlays do not serve
        the menu: nothing to show (a status message)."""
        from editor.games import is_generic

        if not is_generic(self.win.doc.arena):
            return False
        self.heat.setVisible(False)
        self.sight.setVisible(False)
        self.win.statusBar().showMessage("Overlays: not available for this game yet", 6000)
        return True

    def refresh_sight(self) -> None:
        part = self._start_part()
        if part is not None:
            self.sight.set_view(None, None)
            self.sight.setVisible(False)
            self.legend.set_sight(None, 0.0)
            part.show_sight(self.sight_mode)
            return
        if self.sight_mode is not None and self._other_game():
            return
        arena = self.win.doc.arena
        player = self.sight_player()
        if not any(s.player == player for s in arena.start_positions):
            player = None
        on = self.sight_mode is not None
        self.sight.set_view(arena if on else None, player)
        self.sight.setVisible(on and player is not None)
        note = "Line of sight: select a start" if self.sight_mode == "selected" else ""
        self.legend.set_sight(player if on else None, arena.scenario.analysis.safe_area_radius, note if on else "")

    def show_finding_path(self, finding: dict[str, Any]) -> None:
        from editor.games import is_generic

        if is_generic(self.win.doc.arena):  # a game's own findings: its overlays draw them
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
        self.path.setVisible(bool(steps) and self.path_action.isChecked())

    def _live(self) -> Any:
        """The live validation (its travel feeds the table), or None."""
        return getattr(self.win.runner.analyse, "live", None)

    def refresh_table(self) -> None:
        """Fill the travel table if it is shown: from the live validation's travel when it has
        the current arena's (no work of its own), after the running validation if one is going,
        else computed in the background."""
        if not self.table.isVisible():
            return
        from editor.games import is_generic

        if is_generic(self.win.doc.arena):
            self.table.status.setText("Travel times: not available for this game yet")
            return
        arena = self.win.doc.arena
        live = self._live()
        if live is not None:
            got = live.last_travel
            if got is not None and got[0] is arena:
                self._cancel("table")
                self.table.show_table(travel_table(arena, got[1]))
                return
            if self.win.runner.busy:  # its final findings refresh the table
                self.table.status.setText("Computing travel times in the background…")
                return
        self.table.status.setText("Computing travel times in the background…")
        self._start("table", travel_table, (arena,))

    def arena_changed(self) -> None:
        for part in self.parts.values():
            part.arena_changed()  # a game's layers: recomputed after the edits pause, or off
        if self._start_part() is not None:
            self.path.set_path([], None, self.path.size)
            self.refresh_table()
            self._refill_start_menus()
            return
        if self.heat_player is not None:
            self.show_heat(self.heat_player if any(s.player == self.heat_player for s in getattr(self.win.doc.arena, "start_positions", ()))
                           else None)
        if self.sight_mode is not None:
            self.refresh_sight()
        self.path.set_path([], None, self.path.size)  # a path planned on the old arena is stale
        if self._live() is None:
            self.refresh_table()  # else the validation run this edit starts brings the table's travel
        self._refill_start_menus()

    def _refill_start_menus(self) -> None:
        players = tuple(sorted(s.player for s in getattr(self.win.doc.arena, "start_positions", ())))
        if players != self._menu_players:  # the menus list the starts: rebuilt only when they change
            self._menu_players = players
            self._fill_heat_menu()
            self._fill_sight_menu()

    def shutdown(self) -> None:
        for part in (*self.parts.values(), *self.pages.values()):
            part.shutdown()
        for kind in list(self.jobs):
            self._cancel(kind)
        self.pool.waitForDone(3000)

    # -- menus
    def install_menu(self, menu: Any) -> None:
        m = menu.addMenu("&Overlays")
        self.heat_menu = m.addMenu("Travel &heat map from start")
        self.heat_group = QActionGroup(self)
        self.heat_group.setExclusive(True)
        self._fill_heat_menu()
        self.sight_menu = m.addMenu("&Line of sight from start")
        self.sight_group = QActionGroup(self)
        self.sight_group.setExclusive(True)
        self._fill_sight_menu()
        self.path_action = QAction("&Path of the selected travel finding", self, checkable=True)
        self.path_action.setChecked(True)
        self.path_action.toggled.connect(lambda on: self.path.setVisible(on and bool(self.path.steps)))
        m.addAction(self.path_action)
        self.menu = m

    def _fill_sight_menu(self) -> None:
        if not hasattr(self, "sight_menu"):
            return
        from editor.games.overlay_jobs import fill_choices

        choices: list[tuple[str, object]] = [("None", None), ("Selected start", "selected")]
        choices += [(f"Start {s.player}", s.player) for s in sorted(getattr(self.win.doc.arena, "start_positions", ()), key=lambda s: s.player)]
        fill_choices(self, self.sight_menu, self.sight_group, choices, self.sight_mode, self.show_sight)

    @staticmethod
    def _check_menu(group: QActionGroup, value: object) -> None:
        for act in group.actions():
            act.setChecked(act.data() == value)

    def _fill_heat_menu(self) -> None:
        if not hasattr(self, "heat_menu"):
            return
        from editor.games.overlay_jobs import fill_choices

        choices: list[tuple[str, object]] = [("None", None)]
        choices += [(f"Start {s.player}", s.player) for s in sorted(getattr(self.win.doc.arena, "start_positions", ()), key=lambda s: s.player)]
        fill_choices(self, self.heat_menu, self.heat_group, choices, self.heat_player, self.show_heat)


class TravelStack(QStackedWidget):
    """The "Travel times" dock's body: this window's travel table, or the page of the edited
    arena's game (:meth:`editor.game.EditorGame.travel_page`)."""

    def __init__(self, table: QWidget) -> None:
        super().__init__()
        self.table = table
        self.pages: list[Any] = []
        self.addWidget(table)

    def add(self, page: Any) -> None:
        self.pages.append(page)
        self.addWidget(page.widget)

    def follow(self) -> None:
        """Show the active game's page, else the table."""
        page = next((p for p in self.pages if p.active()), None)
        self.setCurrentWidget(page.widget if page is not None else self.table)


def install(win: Any) -> Overlays:
    """Add the overlays to a main window: layers, View → Overlays menu (and each installed
    game's own entries, :meth:`editor.game.EditorGame.overlays`), the travel-time dock (and each
    game's page of it)."""
    from editor.game import editors

    ov = Overlays(win)
    ov.install_menu(win.menus["view"])
    for system, game in editors().items():
        part = game.overlays(win, ov)
        if part is not None:
            ov.parts[system] = part
    ov.stack = TravelStack(ov.table)
    win.doc.arenaChanged.connect(lambda _a: ov.stack.follow())  # before the pages hear of the arena
    for system, game in editors().items():
        page = game.travel_page(win, ov)
        if page is not None:
            ov.pages[system] = page
            ov.stack.add(page)
    ov.stack.follow()
    dock = win._dock("Travel times", ov.stack, Qt.DockWidgetArea.BottomDockWidgetArea)
    win.docks["travel"] = dock
    win.tabifyDockWidget(win.docks["validation"], dock)
    win.docks["validation"].raise_()
    win.menus["view"].addAction(dock.toggleViewAction())
    dock.visibilityChanged.connect(lambda shown: ov.refresh_table() if shown else ov._cancel("table"))
    for page in ov.pages.values():
        dock.visibilityChanged.connect(page.visibility)
    win.validation.findingSelected.connect(ov.show_finding_path)
    win.doc.arenaChanged.connect(lambda _a: ov.arena_changed())
    win.doc.selectionChanged.connect(lambda _s: ov.refresh_sight() if ov.sight_mode == "selected" else None)
    win.runner.finished.connect(lambda _f: ov.refresh_table() if win.runner.final else None)
    ov.message.connect(lambda text: win.statusBar().showMessage(text, 8000))
    return ov


__all__ = ["HeatLayer", "Overlays", "PathLayer", "SightLayer", "TravelStack", "TravelTable", "install", "travel_table"]
