"""Gravstrike's editor: the window's hand-written parts for Gravstrike's typed model
(:mod:`schema.games.gravstrike.model`) behind the :class:`~editor.game.EditorGame` interface
(registered as ``gravstrike`` in the ``arena_studio.editors`` entry points) - its element model
(:mod:`.elements`: the book's ids, file order, footprints, clipboard), tools (:mod:`.draw_tools`),
turning handles and measured turns (:mod:`.geometry`), inspector (:mod:`.properties`), painting
(:mod:`.paint`), canvas overlays (:mod:`.overlays`), export page and overlays
(:mod:`.export_layers`), print aids (:mod:`.print_aids`) and live validation on the persistent
travel workers (:mod:`.live_travel`, :mod:`.travel_workers`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from editor.game import EditorGame, ElementProperty, GamePart

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter

    from editor.analysis import Analyse
    from editor.commands import ArenaCommand
    from editor.document import ArenaDocument
    from editor.edit_commands import SettingSpec
    from editor.export_render import ArenaExport
    from editor.games.model import ElementModel
    from editor.render import ArenaRenderer
    from editor.tools import Tool
    from schema.ruleset import ArenaModel
    from schema.shapes import Point


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

    # -- H1 elements ----------------------------------------------------------------------------

    def elements(self) -> ElementModel:
        from editor.games.gravstrike.elements import ELEMENTS

        return ELEMENTS

    # -- end H1 ---------------------------------------------------------------------------------

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

    def arena_settings(self) -> Mapping[str, SettingSpec]:
        from editor.games.gravstrike.settings import ARENA_SETTINGS

        return ARENA_SETTINGS

    def scenario_settings(self) -> Mapping[str, SettingSpec]:
        from editor.games.gravstrike.settings import SCENARIO_SETTINGS

        return SCENARIO_SETTINGS

    def analysis(self) -> Analyse:
        from editor.games.gravstrike.live_travel import editor_analysis

        return editor_analysis()

    def worker_modules(self) -> tuple[str, ...]:
        return ("validators.games.gravstrike.travel_session",)

    def print_aids(self, painter: QPainter, arena: Any, lay: Any, frame: Any) -> None:
        from editor.games.gravstrike.print_aids import turning_arcs

        turning_arcs(painter, arena, lay, frame)

    # -- the select tool's turning handles, the Measure tool's turns

    def turn_handle(self, arena: ArenaModel, el: object) -> tuple[Point, float, float] | None:
        from editor.games.gravstrike.geometry import turn_handle

        return turn_handle(arena, el)

    def turn_command(self, doc: ArenaDocument, ref: str, angle: float) -> ArenaCommand:
        from editor.games.gravstrike.geometry import turn_command

        return turn_command(doc, ref, angle)

    def measure_turns(self, arena: ArenaModel, distance: float) -> tuple[float, str] | None:
        from editor.games.gravstrike.geometry import measure_turns

        return measure_turns(arena, distance)

    # -- painting

    def renderer(self) -> ArenaRenderer:
        from editor.games.gravstrike.paint import RENDERER

        return RENDERER

    def tool_kinds(self) -> tuple[str, ...]:
        return ("outlying", "central")  # checkpoints and gates

    # -- overlays and export

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


EDITOR = GravstrikeEditor("gravstrike")

__all__ = ["EDITOR", "GravstrikeEditor"]
