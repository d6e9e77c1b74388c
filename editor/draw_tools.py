"""The base of the area-drawing tools (:class:`ShapeTool`; each game's tools subclass it:
:mod:`editor.games.tools`, :mod:`editor.games.gravstrike.draw_tools`).

Area tools (walls, checkpoints, fields) have shape modes:

* ``rect`` — drag corner to corner (every area tool's first shape, in every game);
* ``circle`` — press at the centre, drag out the radius;
* ``polygon`` / ``polyline`` — click the points; double-click or Enter finishes,
  Backspace removes the last point, Esc cancels.

A press and release that gives no size (a click, or a drag along one grid line) draws nothing
and says why under the cursor: there is no default size, each shape is drawn at its size.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QPainterPath

from editor import commands as C
from editor import elements as E
from editor import render
from editor.bounds import BoundedArena
from editor.tools import Tool, ToolEvent, angle_of, clean
from schema.shapes import AreaShape, Circle, Point, Polygon, Polyline, Rect, Shape

if TYPE_CHECKING:
    from editor.canvas import ArenaView
    from editor.commands import ArenaCommand
    from editor.document import ArenaDocument


def pt(p: QPointF) -> Point:
    return (clean(p.x()), clean(p.y()))


class ShapeTool(Tool):
    """Base of the area-drawing tools; subclasses implement :meth:`make`."""

    modes: tuple[str, ...] = ("rect", "circle", "polygon")
    min_points = {"polygon": 3, "polyline": 2}

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self.points: list[QPointF] = []
        self._press: QPointF | None = None
        self.thickness = 0.5

    def make(self, shape: Shape) -> C.ArenaCommand:  # pragma: no cover - abstract
        raise NotImplementedError

    def cancel(self) -> None:
        super().cancel()
        self.points = []
        self._press = None

    def _next(self, ev: ToolEvent) -> QPointF:
        if ev.shift and self.points:
            return self.constrained(self.points[-1], ev)
        return ev.snapped

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.RightButton:
            self.finish() if self.mode in self.min_points else self.cancel()
            return
        if self.mode in self.min_points:
            p = self._next(ev)
            if not self.points or QLineF(self.points[-1], p).length() > 1e-9:
                self.points.append(p)
            self._preview(p)
        else:
            self._press = ev.snapped

    def mouse_move(self, ev: ToolEvent) -> None:
        if self.mode in self.min_points:
            if self.points:
                self._preview(self._next(ev))
            return
        if self._press is None:
            return
        shape = self._drag_shape(self._press, ev)
        if shape is not None:
            self.overlay(render.shape_path(shape), render.BLUE)

    def mouse_release(self, ev: ToolEvent) -> None:
        if self.mode in self.min_points or self._press is None or ev.button != Qt.MouseButton.LeftButton:
            return
        press = self._press
        shape = self._drag_shape(press, ev)
        self.cancel()
        if shape is None:  # said on the canvas under the cursor too (ArenaView.show_notice)
            self.refuse(f"{self.label}: nothing drawn - {self._why_flat(press, ev.snapped)}")
            return
        self.push(lambda: self.make(shape))

    def _why_flat(self, a: QPointF, b: QPointF) -> str:
        """Why a press and release drew nothing (no default size: the designer gives each shape its size)."""
        if self.mode == "circle":
            return "drag from the centre outwards to give the circle its radius"
        flat = [what for what, d in (("width", b.x() - a.x()), ("height", b.y() - a.y())) if abs(d) < 1e-9]
        return f"drag from one corner to the opposite one (this drag had no {' and no '.join(flat)})"

    def mouse_double_click(self, ev: ToolEvent) -> None:
        if self.mode in self.min_points:
            self.finish()

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.points:
            self.finish()
            return True
        if ev.key() == Qt.Key.Key_Backspace and self.points:
            self.points.pop()
            self._preview(self.points[-1] if self.points else None)
            return True
        return super().key_press(ev)

    def _drag_shape(self, a: QPointF, ev: ToolEvent) -> AreaShape | None:
        b = ev.snapped
        if self.mode == "circle":
            r = clean(QLineF(a, b).length())
            return Circle(pt(a), r) if r > 1e-9 else None
        w, h = abs(b.x() - a.x()), abs(b.y() - a.y())
        if w < 1e-9 or h < 1e-9:
            return None
        return Rect(((clean((a.x() + b.x()) / 2)), clean((a.y() + b.y()) / 2)), (clean(w), clean(h)))

    def _preview(self, cursor: QPointF | None) -> None:
        path = QPainterPath()
        pts = [*self.points, *([cursor] if cursor is not None else [])]
        if pts:
            path.moveTo(pts[0])
            for p in pts[1:]:
                path.lineTo(p)
            if self.mode == "polygon" and len(pts) > 2:
                path.closeSubpath()
        self.overlay(path, render.BLUE)

    def finish(self) -> None:
        pts = [pt(p) for p in self.points]
        mode = self.mode
        self.cancel()
        if len(pts) < self.min_points[mode]:
            self.refuse(f"{self.label}: a {mode} needs at least {self.min_points[mode]} points")
            return
        if mode == "polygon":
            if not E.polygon_ok(pts):
                self.refuse(f"{self.label}: the polygon's edges cross or it has no area")
                return
            shape: Shape = Polygon(tuple(pts))
        else:
            if not E.polyline_ok(pts):
                self.refuse(f"{self.label}: the line needs two different points")
                return
            shape = Polyline(tuple(pts), self.thickness)
        self.push(lambda: self.make(shape))


class PoseTool(Tool):
    """Place the next player's piece: press where it stands, drag the handle to set its facing
    (Shift: 15° steps); a click faces the arena's centre.  A subclass says how the piece is
    previewed (:meth:`piece_path`, :attr:`arrow`), which player is next (:meth:`next_player`) and
    what command places it (:meth:`place`)."""

    #: Length of the facing arrow drawn from the piece's position, in the arena's units.
    arrow = 1.0

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self._pos: QPointF | None = None

    def piece_path(self, pos: Point, facing: float) -> QPainterPath:
        """The piece's outline at ``pos`` facing ``facing`` degrees (the preview)."""
        raise NotImplementedError

    def next_player(self) -> int:
        """The player whose piece the tool places."""
        raise NotImplementedError

    def place(self, pos: Point, facing: float) -> ArenaCommand:
        """The undo command adding the next player's piece at ``pos`` facing ``facing``."""
        raise NotImplementedError

    def _facing(self, ev: ToolEvent) -> float:
        assert self._pos is not None
        arena = self.doc.arena
        if QLineF(self._pos, ev.pos).length() * self.view.scale_factor < 6 and isinstance(arena, BoundedArena):
            c = arena.bounds.to_shapely().centroid  # a click faces the arena's centre
            target = QPointF(c.x, c.y)
            if QLineF(self._pos, target).length() < 1e-9:
                return 0.0
            return round(angle_of(self._pos, target), 1) % 360.0
        step = 15.0 if ev.shift else 1.0
        return (round(angle_of(self._pos, ev.pos) / step) * step) % 360.0

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.LeftButton:
            self._pos = ev.snapped

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._pos is None:
            return
        facing = self._facing(ev)
        path = self.piece_path(pt(self._pos), facing)
        a = math.radians(facing)
        path.moveTo(self._pos)
        path.lineTo(self._pos + QPointF(math.cos(a), math.sin(a)) * self.arrow)
        self.overlay(path, render.BLUE)
        self.overlay_text(ev.pos, f"player {self.next_player()}, facing {facing:.0f}°")

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._pos is None:
            return
        facing = self._facing(ev)
        pos, facing = pt(self._pos), 0.0 if facing == 0 else facing  # never -0.0
        self._pos = None
        self.cancel()
        self.push(lambda: self.place(pos, facing))
