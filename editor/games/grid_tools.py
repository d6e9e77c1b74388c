"""The palette of a grid game (Glider-Pit Gladiators' pit, the Mothership battlefield), one
class per canvas tool.  Every tool works in **strokes**: press, drag over any number of cells,
release — and the stroke is ONE undo step (:class:`GridStroke`).  A fast drag fills the cells
between two mouse positions (a hex or square line), so no cell is skipped.

* **Select** (V): click a cell to select its launch zone or row (pit) or Mothership; the
  inspector shows the element's fields from the game's schema.
* **Paint cells** (B): add hexes to the pit / squares to the battlefield; the right button
  erases.  **Erase cells** (X): remove them (also from zones, Motherships, build squares).
* **Label rows** (L): each row the stroke crosses is numbered with the 2d6 total in the mode
  box (a new row element when the line had none).
* **Launch zones** (Z, pit): the stroke's hexes join the zone in the mode box (made with the
  next free Airspeed Track when missing), in stroke order; the right button takes them out.
* **Motherships** (H, battlefield): squares outside the battlefield become the mode box
  player's Mothership, squares on it that player's build squares; the right button takes them
  out.

In symmetry mode (Arena → Symmetry mode, with a declared symmetry) a stroke also paints each
cell's images under the arena's symmetry (:func:`editor.games.grid_model.images`): painted and
erased cells, labelled rows (the row on the image line gets the total the game's rule gives it:
the pit's 14 minus the total, :mod:`editor.games.gliderpit.symmetry`), launch zones (the zone's image
zone becomes its image, hex for hex), and on the battlefield the other player's Mothership and
build squares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor

from editor import render
from editor.commands import ArenaCommand
from editor.games import grid_model as M
from editor.grid_render import cells_path, hexes, layout
from editor.tools import MeasureTool, Tool, ToolEvent
from engine.grids import HexLayout, hex_line, square_line

if TYPE_CHECKING:
    from editor.canvas import ArenaView
    from editor.document import ArenaDocument

Cell = tuple[int, int]


@runtime_checkable
class _RowedGrid(Protocol):
    """What the row tool reads of a hex arena that numbers its rows (Glider-Pit's pit)."""

    @property
    def cells(self) -> tuple[Cell, ...]: ...
    @property
    def rows(self) -> tuple[Any, ...]: ...
    def line_of(self, cell: Cell) -> int: ...


def _rowed(arena: object) -> _RowedGrid:
    assert isinstance(arena, _RowedGrid)  # the tool is offered for hex grids, whose arenas number rows
    return arena


class GridStroke(ArenaCommand):
    """One stroke of a grid tool: ``edit(arena)`` gives the edited arena.  Symmetry is applied
    by the tool (cells' images), not by the free-table propagation."""

    symmetric = False

    def __init__(self, doc: ArenaDocument, text: str, edit: Callable[[Any], Any],
                 select: Sequence[str] | None = None) -> None:
        self.edit = edit
        self.select = None if select is None else list(select)
        super().__init__(doc, text)
        if self.after == self.before:
            raise ValueError("nothing changed")

    def apply(self, arena: Any) -> Any:
        return self.edit(arena)

    def selection_after_default(self) -> list[str]:
        if self.select is not None:
            return [r for r in self.select if any(getattr(el, "id") == r for el in self.after.elements())]
        return [r for r in self.doc.selection if any(getattr(el, "id") == r for el in self.after.elements())]


def cell_at(arena: Any, pos: QPointF) -> Cell:
    return layout(arena).cell_at(pos.x(), pos.y())


def between(arena: Any, a: Cell, b: Cell) -> list[Cell]:
    """The cells from ``a`` to ``b`` on a straight line (both included)."""
    if a == b:
        return [a]
    return hex_line(a, b) if isinstance(layout(arena), HexLayout) else square_line(a, b)


class GridTool(Tool):
    """A stroke over cells; subclasses say what the stroke does (:meth:`stroke`)."""

    shows_snap = False
    cursor = Qt.CursorShape.CrossCursor
    colour = render.BLUE

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self.cells: list[Cell] = []
        self.button = Qt.MouseButton.NoButton

    def snap(self, pos: QPointF, mods: Qt.KeyboardModifier) -> QPointF:
        return QPointF(pos)  # cells, not points: no grid or object snapping

    def symmetric(self) -> bool:
        return bool(self.doc.symmetry_enabled and getattr(self.doc.arena, "symmetry", None) is not None)

    def preview_cells(self) -> list[Cell]:
        return M.with_images(self.doc.arena, self.cells) if self.symmetric() else list(self.cells)

    def _add(self, c: Cell) -> None:
        path = between(self.doc.arena, self.cells[-1], c) if self.cells else [c]
        for cell in path:
            if cell not in self.cells:
                self.cells.append(cell)

    def mouse_press(self, ev: ToolEvent) -> None:
        self.button = ev.button
        self.cells = []
        self._add(cell_at(self.doc.arena, ev.pos))
        self._show(ev)

    def mouse_move(self, ev: ToolEvent) -> None:
        c = cell_at(self.doc.arena, ev.pos)
        if self.button == Qt.MouseButton.NoButton:
            self.overlay_text(ev.pos, self.hover_text(c))
            return
        self._add(c)
        self._show(ev)

    def _show(self, ev: ToolEvent) -> None:
        colour = render.VERMILLION if self.button == Qt.MouseButton.RightButton else self.colour
        self.overlay(cells_path(layout(self.doc.arena), self.preview_cells()), colour)
        self.overlay_text(ev.pos, f"{len(self.cells)} cell{'' if len(self.cells) == 1 else 's'}")

    def hover_text(self, c: Cell) -> str:
        return f"{c[0]}, {c[1]}"

    def mouse_release(self, ev: ToolEvent) -> None:
        if self.button == Qt.MouseButton.NoButton or not self.cells:
            return
        cells, right = list(self.cells), self.button == Qt.MouseButton.RightButton
        self.cells, self.button = [], Qt.MouseButton.NoButton
        self.cancel()
        self.push(lambda: self.stroke(cells, right))

    def push(self, make: Callable[[], ArenaCommand]) -> bool:
        try:
            cmd = make()
        except ValueError as exc:
            why = "nothing changed (the cells already are as this stroke would make them)" \
                if str(exc) == "nothing changed" else str(exc)
            self.refuse(f"{self.label}: {why}")
            return False
        self.doc.push(cmd)
        return True

    def stroke(self, cells: list[Cell], right: bool) -> ArenaCommand:  # pragma: no cover - abstract
        raise NotImplementedError

    def with_images(self, cells: list[Cell]) -> list[Cell]:
        return M.with_images(self.doc.arena, cells) if self.symmetric() else cells


class GridSelectTool(GridTool):
    name = "select"
    label = "Select"
    shortcut = "V"
    description = "Click a cell to select its launch zone, row or Mothership (Shift: add to the selection)."
    cursor = Qt.CursorShape.ArrowCursor

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        ref = element_at(self.doc.arena, cell_at(self.doc.arena, ev.pos))
        refs = [ref] if ref else []
        if ev.shift:
            refs = [r for r in self.doc.selection if r != ref] + ([ref] if ref and ref not in self.doc.selection else [])
        self.doc.set_selection(refs)

    def mouse_move(self, ev: ToolEvent) -> None:
        c = cell_at(self.doc.arena, ev.pos)
        ref = element_at(self.doc.arena, c)
        self.overlay_text(ev.pos, f"{c[0]}, {c[1]}" + (f": {ref}" if ref else ""))

    def mouse_release(self, ev: ToolEvent) -> None:
        pass


def element_at(arena: Any, c: Cell) -> str | None:
    """The element a cell belongs to: a launch zone, else its row (pit); a Mothership whose
    squares or build squares hold it (battlefield)."""
    if hexes(arena):
        for z in arena.launch_zones:
            if c in z.cells:
                return str(z.id)
        if c in set(arena.cells):
            return M.row_ref(arena, arena.line_of(c))
        return None
    for m in arena.motherships:
        if c in m.squares or c in m.build_squares:
            return str(m.id)
    return None


class PaintCellsTool(GridTool):
    name = "grid:paint"
    label = "Paint cells"
    shortcut = "B"
    description = "Drag to add cells to the grid (one undo step per stroke); right button erases."
    colour = render.GREEN

    def stroke(self, cells: list[Cell], right: bool) -> ArenaCommand:
        cells = self.with_images(cells)
        if right:
            return GridStroke(self.doc, f"Erase {len(cells)} cells", lambda a: M.erase(a, cells))
        return GridStroke(self.doc, f"Paint {len(cells)} cells", lambda a: M.paint(a, cells))


class EraseCellsTool(GridTool):
    name = "grid:erase"
    label = "Erase cells"
    shortcut = "X"
    description = "Drag to remove cells from the grid, and from zones, Motherships and build squares."
    colour = render.VERMILLION

    def stroke(self, cells: list[Cell], right: bool) -> ArenaCommand:
        cells = self.with_images(cells)
        return GridStroke(self.doc, f"Erase {len(cells)} cells", lambda a: M.erase(a, cells))


class LabelRowsTool(GridTool):
    name = "grid:rows"
    label = "Label rows"
    shortcut = "L"
    description = "Click or drag across rows to number them with the 2d6 total in the mode box."
    modes = tuple(str(n) for n in range(2, 13))
    mode_title = "2d6 total"
    colour = render.BLUE

    def hover_text(self, c: Cell) -> str:
        a = _rowed(self.doc.arena)
        line = a.line_of(c)
        ref = M.row_ref(a, line)
        row = next((r for r in a.rows if r.id == ref), None)
        return f"line {line}: " + (f"row {row.id}, total {row.label}" if row else "no row") + f" → {self.mode}"

    def preview_cells(self) -> list[Cell]:
        a = _rowed(self.doc.arena)
        lines = {a.line_of(c) for c in self.cells}
        if self.symmetric():
            lines |= {img for line in list(lines) for img in M.row_images(a, line)}
        return [c for c in a.cells if a.line_of(c) in lines]

    def stroke(self, cells: list[Cell], right: bool) -> ArenaCommand:
        a = _rowed(self.doc.arena)
        lines = list(dict.fromkeys(a.line_of(c) for c in cells))
        label = int(self.mode)
        if self.symmetric():
            lines += [img for line in lines for img in M.row_images(a, line) if img not in lines]

        def edit(arena: Any) -> Any:
            if self.symmetric():
                return M.label_rows_with_images(arena, [arena.line_of(c) for c in cells], label)
            for line in lines:
                arena = M.label_row(arena, line, label)
            return arena

        def refs(arena: Any) -> list[str]:
            return [r for r in (M.row_ref(arena, line) for line in lines) if r]

        cmd = GridStroke(self.doc, f"Label {len(lines)} row{'' if len(lines) == 1 else 's'} {label}", edit)
        cmd.selection_after = refs(cmd.after)
        return cmd


class LaunchZoneTool(GridTool):
    name = "grid:zones"
    label = "Launch zones"
    shortcut = "Z"
    description = ("Drag along the wall to add hexes to the zone in the mode box, in order (a new zone takes the "
                   "next free Airspeed Track; in symmetry mode its image zone becomes its image, hex for hex); right "
                   "button takes hexes out of their zone.")
    modes = tuple(f"Z{n}" for n in range(1, 7))
    mode_title = "Zone"
    colour = QColor("#E69F00")

    def stroke(self, cells: list[Cell], right: bool) -> ArenaCommand:
        if right:
            cells = self.with_images(cells)
            return GridStroke(self.doc, f"Take {len(cells)} hexes out of their zone", lambda a: M.unassign(a, cells))
        zone = self.mode
        assign = M.assign_zone_with_images if self.symmetric() else M.assign_zone
        return GridStroke(self.doc, f"Assign {len(cells)} hexes to {zone}", lambda a: assign(a, zone, cells),
                          select=[zone])


class MothershipTool(GridTool):
    name = "grid:motherships"
    label = "Motherships"
    shortcut = "H"
    description = ("Drag outside the battlefield to make the mode box player's Mothership squares, on it to make "
                   "its build squares; right button takes squares out.")
    modes = ("player 1", "player 2")
    mode_title = "Player"
    colour = render.BLUE

    def stroke(self, cells: list[Cell], right: bool) -> ArenaCommand:
        if right:
            cells = self.with_images(cells)
            return GridStroke(self.doc, f"Take {len(cells)} squares out", lambda a: M.unassign(a, cells))
        player = int(self.mode.split()[-1])
        arena = self.doc.arena
        mirrored = [img for img, _ in M.images(arena, cells)] if self.symmetric() else []
        other = M.other_player(arena, player)

        def edit(a: Any) -> Any:
            for who, group in ((player, cells), (other, mirrored)):
                if not group:
                    continue
                field = set(a.squares)
                a = M.assign_mothership(a, who, [c for c in group if c not in field])
                a = M.assign_mothership(a, who, [c for c in group if c in field], build=True)
            return a

        return GridStroke(self.doc, f"Assign {len(cells)} squares to player {player}", edit,
                          select=[f"M{player}"])


def tool_classes(rs: Any) -> tuple[type[Tool], ...]:
    """Select, paint, erase, the game's assignment tools, then measure."""
    own: tuple[type[Tool], ...] = (LabelRowsTool, LaunchZoneTool) if rs.grid == "hex" else (MothershipTool,)
    return (GridSelectTool, PaintCellsTool, EraseCellsTool, *own, MeasureTool)


__all__ = ["EraseCellsTool", "GridSelectTool", "GridStroke", "GridTool", "LabelRowsTool", "LaunchZoneTool",
           "MothershipTool", "PaintCellsTool", "element_at", "tool_classes"]
