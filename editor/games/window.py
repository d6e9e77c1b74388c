"""The main window follows the arena's game: when File → New or Open changes the game, the
palette is rebuilt (Gravstrike's hand-written tools, or one tool per placeable kind of the
ruleset), the snapping grid and its unit follow the ruleset (1 in for Car Wars), the status bar
names the game, and Car Wars starts show their turning key flush to the arena edge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QLabel, QStyleOptionGraphicsItem, QWidget

from editor import render
from editor.games import is_generic
from editor.games.rulesets import game_label, ruleset_of, units_symbol

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

#: Snapping step of a new document, by unit symbol.
GRID = {"L": 0.5, "in": 1.0, "hex": 0.0, "sq": 0.0}


class StartKeys(QGraphicsItem):
    """Each start's turning key where ``cw-start-key`` lays it (against the arena edge, touching
    the car: "Place the turning key against the arena edge ..."), or nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[tuple[int, tuple[tuple[float, float], ...]]] = []
        self.setZValue(9.5)  # under the elements of other games (10+), over the floor
        self._rect = QRectF()

    def set_keys(self, keys: list[tuple[int, tuple[tuple[float, float], ...]]]) -> None:
        self.prepareGeometryChange()
        self.keys = keys
        xs = [p[0] for _, poly in keys for p in poly]
        ys = [p[1] for _, poly in keys for p in poly]
        self._rect = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(-1, -1, 1, 1) if xs else QRectF()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    #: Its labels are drawn over the cars by the view (they lay under them: issue 42, point 10).
    labels_on_top = True

    def label_key(self) -> object:
        return tuple(self.keys)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        fill = QColor("#009E73")
        fill.setAlpha(90)
        with render.labels_on_top(True):
            for player, poly in self.keys:
                painter.setPen(render.pen(QColor("#005A41"), 1.5))
                painter.setBrush(fill)
                painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in poly]))
                cx = sum(p[0] for p in poly) / len(poly)
                cy = sum(p[1] for p in poly) / len(poly)
                render.draw_label(painter, QPointF(cx, cy), f"key {player}", colour=QColor("#003D2C"), px=10,
                                  background=QColor(255, 255, 255, 210))


def start_keys(arena: Any) -> list[tuple[int, tuple[tuple[float, float], ...]]]:
    """The keys that fit (engine.carwars.checks.start_key), for a game that has them."""
    if getattr(arena, "system", "") != "car-wars-6e":
        return []
    from engine.carwars.checks import start_keys as keys

    return [(p, k.polygon) for p, k in sorted(keys(arena).items()) if k.polygon is not None]


class GameWindow(QObject):
    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.system: str | None = None
        self._keys_of: tuple[Any, ...] = ()
        self.keys = StartKeys()
        win.scene.addItem(self.keys)
        self.label = QLabel()
        self.label.setObjectName("game")
        win.statusBar().addPermanentWidget(self.label)
        from editor.games.grid_window import install as install_grid

        self.grid = install_grid(win)
        win.doc.arenaChanged.connect(self.arena_changed)
        self.arena_changed(win.doc.arena)

    def arena_changed(self, arena: Any) -> None:
        system = getattr(arena, "system", "gravstrike") if is_generic(arena) else "gravstrike"
        if system != self.system:
            self.switch(arena, system)
        from editor.games.analysis import READS

        key = (system, *(getattr(arena, f, None) for f in READS["cw-start-key"]))
        if key != self._keys_of:  # a card drag does not move the keys: not computed again
            self._keys_of = key
            self.keys.set_keys(start_keys(arena))

    def switch(self, arena: Any, system: str) -> None:
        """Another game: its palette, grid step and unit."""
        first = self.system is None
        self.system = system
        win = self.win
        self.label.setText(game_label(arena))
        unit = units_symbol(arena)
        from editor.window_layout import show_units

        show_units(win)  # the status bar and the snap box in the new game's unit
        if first and not is_generic(arena):
            return  # the window was built with Gravstrike's tools
        win.snap_box.setValue(GRID.get(unit, 1.0))
        rs = ruleset_of(arena)
        if rs is None:
            from editor.draw_tools import tool_classes
            classes = tool_classes()
        else:
            from editor.games.tools import tool_classes as generic
            classes = generic(rs)
        if win.view.tool is not None:
            win.view.tool.deactivate()
            win.view.tool = None
        win.tools = {cls.name: cls(win.view, win.doc) for cls in classes}
        for act in win.snap_actions:  # a grid game's tools snap to its cells
            act.setVisible(rs is None or rs.grid is None)
        win._fill_tool_actions()
        win.set_tool("select")


def install(win: MainWindow) -> GameWindow:
    return GameWindow(win)
