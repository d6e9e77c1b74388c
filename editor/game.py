"""What the shared editor asks of a game: :class:`EditorGame`, one object per game.

A game's editor subclasses :class:`EditorGame` and overrides the hooks it draws differently
(python-chess style: the base class is a whole, working game); it registers the object in the
entry-point group ``arena_studio.editors`` under its ruleset's id, e.g.
``car-wars-6e = "editor.games.carwars:EDITOR"``.  :func:`editor_game` finds it, importing only
that game's package; a game with no editor entry (a ruleset installed by a third party and
nothing else) gets the base class, which serves it from its ruleset alone:

* the palette is one tool per placeable kind (:func:`editor.games.tools.tool_classes`; a grid
  game's stroke tools);
* the inspector builds its fields from the kind's JSON Schema;
* live validation runs the game's JSON Schema and its registered validators (the
  ``arena_studio.validators`` entry points whose ``games`` name it), as ``arena validate`` does;
* symmetry mode names images with the next free id or player (:data:`DEFAULT_RULES`);
* no overlays, docks or canvas layers of its own.

The window and the shared modules talk to this interface (and to the game's
:class:`~schema.ruleset.Ruleset`) only; they name no game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from schema.ruleset import ArenaModel, Ruleset, entry_points, ruleset
from schema.shapes import Point

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter

    from editor.analysis import Analyse
    from editor.commands import ArenaCommand
    from editor.document import ArenaDocument
    from editor.edit_commands import SetBounds, SettingSpec
    from editor.export_render import ArenaExport
    from editor.games.model import ElementModel
    from editor.games.symmetry_rules import Rules
    from editor.mainwindow import MainWindow
    from editor.overlays import Overlays
    from editor.print_aids import Flow
    from editor.print_pdf import Layout
    from editor.render import ArenaRenderer
    from editor.tools import Tool
    from editor.travel_table import TravelTable

GROUP = "arena_studio.editors"


class CanvasPart(Protocol):
    """A layer a game adds to the canvas (Car Wars' turning keys): told each new arena of its
    game; hidden while another game's arena is edited."""

    def arena_changed(self, arena: Any) -> None: ...

    def setVisible(self, visible: bool) -> None: ...  # noqa: N802 - Qt's name


class ElementProperty(Protocol):
    """One typed field of an element of a game's own model, as the inspector edits it
    (Gravstrike's :class:`editor.games.gravstrike.properties.Prop`)."""

    @property
    def name(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def type(self) -> str: ...  # str | choice | float | int | bool | angle

    @property
    def value(self) -> Any: ...

    @property
    def choices(self) -> tuple[str, ...]: ...


class GamePart(Protocol):
    """A game's part of a window service (its overlays, its travel-dock page): ``active`` while
    the window edits an arena of its game; ``shutdown`` when the window closes."""

    def active(self) -> bool: ...

    def shutdown(self) -> None: ...


# -- what the window's shared overlay entries ask of a game's part


@runtime_checkable
class StartOverlays(GamePart, Protocol):
    """A game's overlays (:meth:`EditorGame.overlays`) that serve the window's shared View →
    Overlays entries "Travel heat map from start" and "Line of sight from start"
    (:class:`editor.overlays.Overlays` hands it the choices while its game's arena is edited)."""

    def show_heat(self, player: int | None) -> None: ...

    def show_sight(self, mode: int | str | None) -> None: ...  # a player, "selected" or None (off)


@runtime_checkable
class TravelTableSource(GamePart, Protocol):
    """A game's overlays that fill the window's travel-time table (every start's time to every
    checkpoint) while its game's arena is edited."""

    def fill_table(self, table: TravelTable) -> None:
        """Fill the shown ``table`` (at once, or from a background job)."""
        ...

    def table_hidden(self) -> None:
        """The table's dock was hidden: stop its work."""
        ...




class EditorGame:
    """The default editor of a game: everything from its :class:`~schema.ruleset.Ruleset`.

    ``system`` is the ruleset's id.  Subclasses override hooks; none is required."""

    #: Elements edited through the arena's document and the game's JSON Schema (the generic
    #: model, :mod:`editor.games.model`).  False for a game whose window parts are written for
    #: its own typed model (the window's first game, built with its tools).
    schema_driven: bool = True
    #: Where File → New and Arena → Generate list the game (lower first; then by id).
    menu_order: int = 100

    def __init__(self, system: str) -> None:
        self.system = system

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.system!r})"

    # ------------------------------------------------------------------ the file

    @property
    def ruleset(self) -> Ruleset:
        return ruleset(self.system)

    def label(self) -> str:
        """How the status bar names the game: ``Car Wars (6th edition)``."""
        rs = self.ruleset
        return f"{rs.game} ({rs.edition})"

    def edition(self) -> str:
        """The edition File → New names beside the game (the ruleset's)."""
        return self.ruleset.edition

    def new_arena(self) -> ArenaModel:
        """File → New's arena (the ruleset's default arena)."""
        return self.ruleset.default_arena()

    # ------------------------------------------------------------------ elements (names, sizes, clipboard, checks)

    def elements(self) -> ElementModel:
        """The game's element operations (:class:`editor.games.model.ElementModel`: kinds and
        their titles, new ids and players, footprints, the clipboard, the format's problems),
        asked by :mod:`editor.elements`.  Default: the generic model, from the ruleset and its
        JSON Schema."""
        from editor.games.model import GENERIC

        return GENERIC


    # ------------------------------------------------------------------ editing

    def tool_classes(self) -> tuple[type[Tool], ...]:
        """The palette: select, vertices, rotate, one tool per placeable kind, measure (a grid
        game: its stroke tools)."""
        from editor.games.tools import tool_classes

        return tool_classes(self.ruleset)

    def snap_step(self) -> float:
        """Snapping step of a new document of the game, in its units (0: a grid game's cells)."""
        return 0.0 if self.ruleset.grid is not None else 1.0

    def symmetry_rules(self) -> Rules:
        """How symmetry mode names an element's images (:class:`editor.games.symmetry_rules.Rules`)."""
        from editor.games.symmetry_rules import DEFAULT

        return DEFAULT

    def move_document(self, arena: ArenaModel, doc: dict[str, Any], refs: set[str], dx: float, dy: float) -> None:
        """After the elements ``refs`` of ``doc`` were translated by (dx, dy): the game's own
        rule for what a drag does (an element that slides along an edge).  Default: nothing."""

    def moves_by_document(self, arena: ArenaModel, refs: list[str]) -> list[str]:
        """Of ``refs``, those a move must make through the arena's document (:meth:`move_document`)
        even in a game with its own model.  Default: none."""
        return []

    def bounds_command(self) -> type[SetBounds]:
        """The undo command that sets the arena's outline (a game whose elements follow the
        board edits them in the same step)."""
        from editor.edit_commands import SetBounds

        return SetBounds

    def grid_images(self, arena: ArenaModel, cells: Iterable[tuple[int, int]]) -> list[tuple[tuple[int, int], int]]:
        """A grid game's symmetry: (image cell, operation, 1-based) of each of ``cells``; a hex
        grid's operations are about the centroid of its cells (:func:`editor.games.grid_model.hex_images`);
        a square grid has none unless its game says."""
        if self.ruleset.grid == "hex":
            from editor.games.grid_model import hex_images

            return hex_images(arena, cells)
        return []

    def grid_guide(self, arena: ArenaModel) -> tuple[tuple[float, float], tuple[float, ...], int] | None:
        """(centre, mirror axes in degrees, rotation order) of a grid game's symmetry, drawn as
        the symmetry guide (the operations of :meth:`grid_images`)."""
        if self.ruleset.grid == "hex":
            from editor.games.grid_model import hex_guide

            return hex_guide(arena)
        return None

    def start_keys(self, arena: ArenaModel) -> dict[int, tuple[tuple[float, float], ...]]:
        """Polygons drawn under each player's start piece in renders and prints (Car Wars' turning
        key against the arena edge), by player.  Default: none."""
        return {}

    def element_properties(self, el: Any) -> list[ElementProperty]:
        """The inspector's typed fields of ``el``, an element of the game's own model (a
        schema-driven game's come from its JSON Schema instead).  Default: none."""
        return []

    def set_element_property(self, el: Any, name: str, value: Any) -> Any:
        """``el`` with its property ``name`` set to ``value`` (checked: ValueError says why
        not), for a game with :meth:`element_properties`."""
        raise ValueError(f"{self.system}: {name!r} is not a typed property of {el!r}")

    def scenario_form(self) -> bool:
        """Whether the Scenario settings are the form built from the game's schema (else the
        window's own fields, written for the game's typed model)."""
        return True

    def arena_settings(self) -> Mapping[str, SettingSpec]:
        """The game's arena-wide settings the Arena tab edits with the file's header fields, by
        their path in the arena's typed model (:data:`editor.edit_commands.SettingSpec`).
        Default: none (the tab's *Game settings* form is built from the game's schema)."""
        return {}

    def scenario_settings(self) -> Mapping[str, SettingSpec]:
        """The Scenario tab's fields when :meth:`scenario_form` is False, by their path under the
        arena's ``scenario``.  Default: none (the form is built from the game's schema)."""
        return {}

    # ------------------------------------------------------------------ geometry (the
    # canvas tools' questions that only a game can answer; the tools ask an element's role by its
    # fields: a segment's start/end, a pose's facing)

    def turn_handle(self, arena: ArenaModel, el: object) -> tuple[Point, float, float] | None:
        """The round handle the select tool turns ``el`` by: (centre, angle in degrees, the
        handle's distance from the centre); None: ``el`` does not turn.  Default: a piece with a
        ``facing`` (a pose) turns about its position, the handle 0.9 × the arena's ``vehicle``
        length (1 without one) from it."""
        facing = getattr(el, "facing", None)
        if facing is None:
            return None
        x, y = getattr(el, "position")
        length = float(getattr(getattr(arena, "vehicle", None), "length", 1.0))
        return (float(x), float(y)), float(facing), length * 0.9

    def turn_command(self, doc: ArenaDocument, ref: str, angle: float) -> ArenaCommand:
        """The undo command that turns the element ``ref`` to ``angle`` degrees (its
        :meth:`turn_handle` dragged).  Default: its ``facing`` set through the arena's document."""
        from editor.games.commands import SetField

        return SetField(doc, ref, ("facing",), angle, "facing")

    def measure_turns(self, arena: ArenaModel, distance: float) -> tuple[float, str] | None:
        """What the Measure tool says of a measured ``distance`` besides its length and direction:
        (turns, its words) for a game whose pieces cross a fixed distance a turn at top speed
        (``2.00 turns at speed 6``).  Default: None (the length alone)."""
        return None

    # ------------------------------------------------------------------ live validation

    def analysis(self) -> Analyse:
        """The live validation of the game's arenas (called once per window, closed with it):
        its JSON Schema, then its registered validators (:func:`editor.analysis.validators_run`)."""
        from editor.games.analysis import GenericQuick
        from editor.validation import StagedAnalysis

        staged = StagedAnalysis(quick=GenericQuick(), slow=None)
        staged.partial_hold_s = 0.0  # type: ignore[attr-defined]
        return staged

    # ------------------------------------------------------------------ canvas, overlays, docks

    def canvas_parts(self, win: MainWindow) -> list[CanvasPart]:
        """Layers the game adds to the scene (made once, the first time the game is edited)."""
        return []

    def overlays(self, win: MainWindow, overlays: Overlays) -> GamePart | None:
        """The game's View → Overlays entries, layers and jobs (:class:`editor.overlays.Overlays`
        holds them); None: the window's own overlays do not apply to it."""
        return None

    def travel_page(self, win: MainWindow, overlays: Overlays) -> Any:
        """The game's page of the Travel times dock (a widget with ``active()``), or None."""
        return None

    # ------------------------------------------------------------------ export
    def export(self) -> ArenaExport:
        """What ``arena render`` draws of the game's arenas (:class:`editor.export_render.ArenaExport`):
        by default the page drawn from its ruleset's styles and no analysis overlays."""
        from editor.export_render import ArenaExport

        return ArenaExport()

    def print_aids(self, painter: QPainter, arena: ArenaModel, lay: Layout, frame: Flow) -> None:
        """The print's aids under the calibration bar (a car's template, a base's size...):
        a grid game's cell; nothing for a game placed freely."""
        if self.ruleset.grid is not None:
            from editor.grid_render import cell_aid
            from editor.print_pdf import MARGIN

            cell_aid(painter, arena, MARGIN, frame, lay.draw_w)

    # ------------------------------------------------------------------ drawing (editor/render.py)

    def renderer(self) -> ArenaRenderer:
        """How the game's arenas and elements are drawn on the canvas, in exports and prints
        (:class:`editor.render.ArenaRenderer`).  Default: from the ruleset's kinds' styles."""
        from editor.render import DEFAULT_RENDERER

        return DEFAULT_RENDERER

    def tool_kinds(self) -> tuple[str, ...]:
        """The choices of the tool bar's Kind box, set on every tool of the palette that has a
        ``kind`` (Gravstrike's checkpoint and gate kinds); none: the box is hidden."""
        return ()


    def worker_modules(self) -> tuple[str, ...]:
        """Modules the editor's worker processes pre-import for the game (its travel session),
        so a worker starts warm (:func:`editor.processes.mp_context`).  Default: none."""
        return ()

    def probe(self, win: MainWindow) -> dict[str, Any] | None:
        """What the window's probe (:mod:`editor.probe`, read by the real-window tests) reports
        of the game's own overlays and docks, as plain data.  Default: nothing."""
        return None


#: The objects made for games with no editor entry, by id.
_DEFAULTS: dict[str, EditorGame] = {}


@lru_cache(maxsize=None)
def _registered(system: str) -> EditorGame | None:
    named = [ep for ep in entry_points(group=GROUP) if ep.name == system]
    if not named:
        return None
    obj = named[-1].load()
    if not isinstance(obj, EditorGame):
        raise TypeError(f"entry point {system!r} in {GROUP} is not an editor.game.EditorGame: {obj!r}")
    if obj.system != system:
        raise ValueError(f"entry point {system!r} in {GROUP} loads the editor of {obj.system!r}")
    return obj


def editor_game(system: str) -> EditorGame:
    """The editor of the game ``system``: its registered :class:`EditorGame`, else the base
    class serving it from its ruleset."""
    found = _registered(system)
    if found is not None:
        return found
    if system not in _DEFAULTS:
        _DEFAULTS[system] = EditorGame(system)
    return _DEFAULTS[system]


def first_game() -> EditorGame:
    """The game a new window starts with (the first File → New lists)."""
    return next(iter(editors().values()))


def game_of(arena: Any) -> EditorGame:
    """The editor of ``arena``'s game (its ``system``)."""
    return editor_game(str(arena.system))


def editors() -> Mapping[str, EditorGame]:
    """Every installed game's editor, by id, in menu order (File → New lists them so)."""
    from schema.ruleset import rulesets

    games = [editor_game(system) for system in rulesets()]
    return {g.system: g for g in sorted(games, key=lambda g: (g.menu_order, g.system))}


__all__ = ["GROUP", "CanvasPart", "EditorGame", "ElementProperty", "GamePart", "StartOverlays", "TravelTableSource",
           "editor_game", "editors", "first_game", "game_of"]
