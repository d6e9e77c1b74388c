"""The main window follows the arena's game (:class:`editor.game.EditorGame`): when File → New or
Open changes the game, the palette is rebuilt (the game's :meth:`~editor.game.EditorGame.tool_classes`),
the snapping step and its unit follow the game, the status bar names it, and its canvas parts
(:meth:`~editor.game.EditorGame.canvas_parts`: Car Wars' turning keys) are shown, the other
games' hidden."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel

from editor.game import CanvasPart, EditorGame, game_of

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow


class GameWindow(QObject):
    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.system: str | None = None
        #: Each game's canvas parts, made the first time an arena of the game is edited.
        self.parts: dict[str, list[CanvasPart]] = {}
        self.label = QLabel()
        self.label.setObjectName("game")
        win.statusBar().addPermanentWidget(self.label)
        from editor.games.grid_window import install as install_grid

        self.grid = install_grid(win)
        win.doc.arenaChanged.connect(self.arena_changed)
        self.arena_changed(win.doc.arena)

    def arena_changed(self, arena: Any) -> None:
        game = game_of(arena)
        if game.system != self.system:
            self.switch(arena, game)
        for part in self.parts[game.system]:
            part.arena_changed(arena)

    def switch(self, arena: Any, game: EditorGame) -> None:
        """Another game: its palette, snapping step, unit and canvas parts."""
        first = self.system is None
        self.system = game.system
        win = self.win
        if game.system not in self.parts:
            self.parts[game.system] = game.canvas_parts(win)
            for part in self.parts[game.system]:
                win.scene.addItem(part)  # type: ignore[arg-type]
        for system, parts in self.parts.items():
            for part in parts:
                part.setVisible(system == game.system)
        self.label.setText(game.label())
        win.show_units()  # the status bar and the snap box in the new game's unit
        if first and self._built_for(game):
            return  # the window was built with this game's tools
        win.snap_box.setValue(game.snap_step())
        if win.view.tool is not None:
            win.view.tool.deactivate()
            win.view.tool = None
        win.tools = {cls.name: cls(win.view, win.doc) for cls in game.tool_classes()}
        for act in win.snap_actions:  # a grid game's tools snap to its cells
            act.setVisible(game.ruleset.grid is None)
        win._fill_tool_actions()
        win.set_tool("select")

    def _built_for(self, game: EditorGame) -> bool:
        """Whether the window's tools are ``game``'s palette already (the window is built with
        its first document's game's tools)."""
        return [type(t) for t in self.win.tools.values()] == list(game.tool_classes())


def install(win: MainWindow) -> GameWindow:
    return GameWindow(win)
