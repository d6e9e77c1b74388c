"""The window's analysis overlays (View → Overlays) and its "Travel times" dock, for every game.

The host (:class:`Overlays`) owns the menu, the entries every game with start positions shares
(the travel heat map from a start, the line of sight from a start, the path of the selected
travel finding), the travel-time table and the dock; each game's own layers, key and jobs are
its part (:meth:`editor.game.EditorGame.overlays`: Gravstrike's
:mod:`editor.games.gravstrike.overlays`, Car Wars', Arena Rex's), and the dock may show a game's
own page (:meth:`editor.game.EditorGame.travel_page`).  The shared entries go to the edited
arena's game's part when it serves them (:class:`editor.game.StartOverlays`); for a game
without one they say "not available".
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QStackedWidget, QWidget

from editor.game import StartOverlays, TravelTableSource
from editor.travel_table import TravelTable


# ------------------------------------------------------------------ the controller


class Overlays(QObject):
    """Owns the menu, the shared entries' choices and the travel table; ``win`` is the main
    window.  ``parts``: each game's own overlays, ``pages``: each game's travel-dock page."""

    # the travel dock's pages (the table, each game's own), added by :func:`install`
    stack: TravelStack

    def __init__(self, win: Any) -> None:
        super().__init__(win)
        self.win = win
        self.heat_player: int | None = None
        #: Line of sight: None (off), "selected" (the selected start) or a player number.
        self.sight_mode: int | str | None = None
        self._menu_players: tuple[int, ...] | None = None
        self.table = TravelTable()
        #: Each game's own overlays (:meth:`editor.game.EditorGame.overlays`) and travel-dock
        #: pages (:meth:`editor.game.EditorGame.travel_page`), by game id.
        self.parts: dict[str, Any] = {}
        self.pages: dict[str, Any] = {}

    # -- user choices
    def show_heat(self, player: int | None) -> None:
        self.heat_player = player
        if hasattr(self, "heat_group"):
            self._check_menu(self.heat_group, player)
        part = self._start_part()
        if part is not None:
            part.show_heat(player)
        elif player is not None:
            self._other_game()

    def show_sight(self, mode: int | str | None) -> None:
        """Line of sight from start ``mode`` (a player), from the selected start
        (``"selected"``) or off (None)."""
        self.sight_mode = mode
        self.refresh_sight()
        self._check_menu(self.sight_group, mode)

    def game_part(self) -> Any:
        """The overlays of the edited arena's game (:meth:`editor.game.EditorGame.overlays`), if
        it brings its own, else None."""
        for part in self.parts.values():
            if part.active():
                return part
        return None

    def _start_part(self) -> StartOverlays | None:
        """The game's overlays when they serve the "from start" menus (``show_heat`` and
        ``show_sight`` of a start), else None."""
        part = self.game_part()
        return part if isinstance(part, StartOverlays) else None

    def _other_game(self) -> None:
        """An arena of a game whose overlays do not serve the menu: nothing to show (a status
        message)."""
        self.win.statusBar().showMessage("Overlays: not available for this game yet", 6000)

    def refresh_sight(self) -> None:
        part = self._start_part()
        if part is not None:
            part.show_sight(self.sight_mode)
        elif self.sight_mode is not None:
            self._other_game()

    def refresh_table(self) -> None:
        """Fill the travel table if it is shown, by the edited arena's game's overlays
        (:class:`editor.game.TravelTableSource`)."""
        if not self.table.isVisible():
            return
        part = self.game_part()
        if isinstance(part, TravelTableSource):
            part.fill_table(self.table)
        else:
            self.table.status.setText("Travel times: not available for this game yet")

    def table_hidden(self) -> None:
        """The travel dock was hidden: its table's work stops."""
        for part in self.parts.values():
            if isinstance(part, TravelTableSource):
                part.table_hidden()

    def arena_changed(self) -> None:
        for part in self.parts.values():
            part.arena_changed()  # a game's layers: recomputed (after the edits pause), or off
        served = self._start_part()
        if served is None:  # no game's overlays: the choices say "not available"
            if self.heat_player is not None:
                players = {s.player for s in getattr(self.win.doc.arena, "start_positions", ())}
                self.show_heat(self.heat_player if self.heat_player in players else None)
            if self.sight_mode is not None:
                self.refresh_sight()
        if not isinstance(served, TravelTableSource):
            self.refresh_table()  # a game that fills the table refreshes it with its arena
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
        self.path_action.setChecked(True)  # a game's part draws the path (its ``toggled``)
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
    dock.visibilityChanged.connect(lambda shown: ov.refresh_table() if shown else ov.table_hidden())
    for page in ov.pages.values():
        dock.visibilityChanged.connect(page.visibility)
    win.doc.arenaChanged.connect(lambda _a: ov.arena_changed())
    win.doc.selectionChanged.connect(lambda _s: ov.refresh_sight() if ov.sight_mode == "selected" else None)
    win.runner.finished.connect(lambda _f: ov.refresh_table() if win.runner.final else None)
    return ov


__all__ = ["Overlays", "TravelStack", "TravelTable", "install"]
