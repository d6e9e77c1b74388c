"""Gravstrike's drawing and placing tools, one class per tool (the area tools are
:class:`editor.draw_tools.ShapeTool`s).

New elements get the next free id of their kind (W1.., A/B/C.. or M/N/O.., F1.., X1..,
G1.., T1..; starts take the next free player number).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainterPath

from editor import commands as C
from editor import elements as E
from editor import render
from editor.draw_tools import PoseTool, ShapeTool, pt
from editor.games.gravstrike.paint import turbine_polygon
from editor.tools import Tool, ToolEvent
from schema.shapes import Point, Polyline, Shape
from schema.games.gravstrike.model import (AccelerationField, Arena, Checkpoint, ExclusionField, Gate, StartPosition,
                                           StaticTarget, Wall)

if TYPE_CHECKING:
    from editor.canvas import ArenaView
    from editor.document import ArenaDocument


def _arena(doc: ArenaDocument) -> Arena:
    """The document's arena: a Gravstrike arena while Gravstrike's tools are in the palette."""
    arena = doc.arena
    assert isinstance(arena, Arena), f"Gravstrike's tools on a {arena.system} arena"
    return arena


class DrawWallTool(ShapeTool):
    name = "wall"
    label = "Draw wall"
    shortcut = "W"
    description = "Rectangle: drag. Polygon / thick line: click points, double-click or Enter to finish."
    modes = ("rect", "polygon", "polyline")

    def make(self, shape: Shape) -> C.ArenaCommand:
        return C.AddElement(self.doc, Wall(E.next_id(self.doc.arena, "walls"), shape))


class DrawCheckpointTool(ShapeTool):
    name = "checkpoint"
    label = "Draw checkpoint"
    shortcut = "C"
    description = "Rectangle: drag. Circle: drag from the centre. Polygon: click points."
    modes = ("rect", "circle", "polygon")

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self.kind = "outlying"

    def make(self, shape: Shape) -> C.ArenaCommand:
        assert not isinstance(shape, Polyline)
        ident = E.next_id(self.doc.arena, "checkpoints", self.kind)
        return C.AddElement(self.doc, Checkpoint(ident, self.kind, shape))  # type: ignore[arg-type]


class DrawAccelerationFieldTool(ShapeTool):
    name = "acceleration"
    label = "Draw acceleration field"
    shortcut = "A"
    description = "Draw the activation area; turn its arrow with the select tool's handle."
    modes = ("rect", "circle", "polygon")

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self.direction = 0.0

    def make(self, shape: Shape) -> C.ArenaCommand:
        ident = E.next_id(self.doc.arena, "acceleration_fields")
        return C.AddElement(self.doc, AccelerationField(ident, shape, self.direction))  # type: ignore[arg-type]


class DrawExclusionFieldTool(ShapeTool):
    name = "exclusion"
    label = "Draw exclusion field"
    shortcut = "X"
    description = "Draw the excluded area (active from tier 3 by default)."
    modes = ("rect", "circle", "polygon")

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self.tier = 3

    def make(self, shape: Shape) -> C.ArenaCommand:
        ident = E.next_id(self.doc.arena, "exclusion_fields")
        return C.AddElement(self.doc, ExclusionField(ident, shape, self.tier))  # type: ignore[arg-type]


class PlaceGateTool(Tool):
    name = "gate"
    label = "Place gate"
    shortcut = "G"
    description = "Drag from one end of the gate to the other (one-way gates score right to left)."

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self._start: QPointF | None = None
        self.kind = "outlying"
        self.one_way = False

    def _end(self, ev: ToolEvent) -> QPointF:
        assert self._start is not None
        return self.constrained(self._start, ev) if ev.shift else ev.snapped

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.LeftButton:
            self._start = ev.snapped

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._start is not None:
            path = QPainterPath(self._start)
            path.lineTo(self._end(ev))
            self.overlay(path, render.ORANGE)

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._start is None:
            return
        a, b = pt(self._start), pt(self._end(ev))
        self.cancel()
        self._start = None
        if a == b:
            self.refuse(f"{self.label}: drag from one end to the other")
            return
        ident = E.next_id(self.doc.arena, "gates")
        gate = Gate(ident, self.kind, a, b, self.one_way)  # type: ignore[arg-type]
        self.push(lambda: C.AddElement(self.doc, gate))


class PlaceTargetTool(Tool):
    name = "target"
    label = "Place static target"
    shortcut = "T"
    description = "Click to place a static target."

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        target = StaticTarget(E.next_id(self.doc.arena, "static_targets"), pt(ev.snapped))
        self.push(lambda: C.AddElement(self.doc, target))


class PlaceStartTool(PoseTool):
    name = "start"
    label = "Place start position"
    shortcut = "P"
    description = "Press to place the next player's turbine, drag the handle to set its facing (Shift: 15° steps)."
    arrow = 1.2

    def piece_path(self, pos: Point, facing: float) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(turbine_polygon(pos, facing, _arena(self.doc).turbine))
        path.closeSubpath()
        return path

    def next_player(self) -> int:
        return E.next_player(self.doc.arena)

    def place(self, pos: Point, facing: float) -> C.ArenaCommand:
        return C.AddElement(self.doc, StartPosition(self.next_player(), pos, facing))


def tool_classes() -> tuple[type[Tool], ...]:
    from editor.tools import MeasureTool, SelectTool
    from editor.vertex_tool import EditVerticesTool, RotateTool

    return (SelectTool, EditVerticesTool, RotateTool, DrawWallTool, DrawCheckpointTool, DrawAccelerationFieldTool, DrawExclusionFieldTool,
            PlaceGateTool, PlaceTargetTool, PlaceStartTool, MeasureTool)
