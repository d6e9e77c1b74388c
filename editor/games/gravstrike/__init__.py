"""Gravstrike's editor: the window's hand-written parts for Gravstrike's typed model
(:mod:`schema.games.gravstrike.model`) - its tools (:mod:`editor.games.gravstrike.draw_tools`), inspector
(:mod:`editor.games.gravstrike.properties`), painting (:mod:`editor.render`), overlays (:mod:`editor.overlays`)
and live validation on the persistent travel workers (:mod:`editor.games.gravstrike.travel_workers`) - behind
the :class:`~editor.game.EditorGame` interface (registered as ``gravstrike`` in the
``arena_studio.editors`` entry points)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from editor.game import EditorGame, ElementProperty, GamePart

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter

    from editor.analysis import Analyse
    from editor.export_render import ArenaExport
    from editor.tools import Tool


class GravstrikeEditor(EditorGame):
    """Gravstrike: the window's first game, edited through its own typed model."""

    schema_driven = False
    menu_order = 0

    def label(self) -> str:
        return "Gravstrike"

    def edition(self) -> str:
        return "core rules"

    def new_arena(self) -> Any:
        """The empty 24 × 24 square."""
        from schema.games.gravstrike.model import Arena
        from schema.shapes import Rect

        return Arena(name="Untitled arena", bounds=Rect((0.0, 0.0), (24.0, 24.0)))

    def tool_classes(self) -> tuple[type[Tool], ...]:
        from editor.games.gravstrike.draw_tools import tool_classes

        return tool_classes()

    def snap_step(self) -> float:
        return 0.5

    def element_properties(self, el: Any) -> list[ElementProperty]:
        from editor.games.gravstrike.properties import properties_of

        return list(properties_of(el))

    def set_element_property(self, el: Any, name: str, value: Any) -> Any:
        from editor.games.gravstrike.properties import set_property

        return set_property(el, name, value)

    def scenario_form(self) -> bool:
        return False  # the Scenario dock's own fields (editor.settings_panels)

    def analysis(self) -> Analyse:
        from editor.games.gravstrike.live_travel import editor_analysis

        return editor_analysis()

    def worker_modules(self) -> tuple[str, ...]:
        return ("validators.games.gravstrike.travel_session",)

    def print_aids(self, painter: QPainter, arena: Any, lay: Any, frame: Any) -> None:
        from editor.games.gravstrike.print_aids import turning_arcs

        turning_arcs(painter, arena, lay, frame)

    # -- H4 (overlays, export; issue 37)
    def overlays(self, win: Any, overlays: Any) -> GamePart | None:
        """The heat map, line of sight and finding path layers, the travel table's rows
        (:mod:`editor.games.gravstrike.overlays`)."""
        from editor.games.gravstrike.overlays import install

        return install(win, overlays)

    def export(self) -> ArenaExport:
        """Gravstrike's page and its ``los``, ``paths`` and ``heatmap`` overlays
        (:mod:`editor.games.gravstrike.export_layers`)."""
        from editor.games.gravstrike.export_layers import GravstrikeExport

        return GravstrikeExport()

    def probe(self, win: Any) -> dict[str, Any] | None:
        """The overlays' layers and key (:meth:`editor.games.gravstrike.overlays.GravstrikeOverlays.probe`)."""
        part = win.overlays.parts.get(self.system)
        return part.probe() if part is not None and part.active() else None
    # -- end H4


EDITOR = GravstrikeEditor("gravstrike")

__all__ = ["EDITOR", "GravstrikeEditor"]
