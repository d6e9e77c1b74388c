"""The edit-vertices tool and the rotate tool.

*Edit vertices* (E) works on the single selected element, or on the arena bounds when
nothing is selected:

* drag a square handle: a polygon/polyline vertex, a gate end, a rectangle corner (the
  opposite corner stays put), a rectangle side's middle (the opposite side stays put) or a
  circle's radius handle;
* a circle board (Arena Rex) has a radius handle on its rim (or press anywhere on the rim) and a
  round centre handle; the board follows the mouse live, the status bar reads the radius
  (:mod:`editor.board_circle`);
* drag the round handle above a rectangle to rotate it (Shift: 15° steps);
* double-click or Alt+click on an edge to insert a vertex there;
* click a vertex to select it, Delete removes it (a polygon keeps at least 3 points, a line 2).

*Rotate* (R) turns the selection about its centre by dragging (Shift: 15° steps).

Points snap to vertices/edges of other elements and to the grid (Ctrl: no snapping); every
drag is one undo step.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import arrange as A
from editor import board_circle as BC
from editor import edit_commands as EC
from editor import elements as E
from editor import render
from editor.board_drag import CircleBoardDrag
from editor.bounds import BoundedArena
from editor.snapping import closest_on_segment, segment_ends
from editor.tools import ANGLE_STEP, HANDLE_PX, Tool, ToolEvent, angle_of, clean
from schema.shapes import AreaShape, Circle, Point, Polygon, Polyline, Rect, Shape

if TYPE_CHECKING:
    from editor.canvas import ArenaView
    from editor.document import ArenaDocument

ROTATE_HANDLE_PX = 28.0
BOUNDS = "bounds"
#: An element of any game's arena (its own frozen dataclass, with an ``id``).
Element = Any


@dataclass(frozen=True)
class Handle:
    kind: str  # vertex | corner | radius | rotate
    index: int
    point: Point


class HandlesItem(QGraphicsItem):
    """Handles drawn at a fixed pixel size whatever the zoom."""

    def __init__(self) -> None:
        super().__init__()
        self.handles: list[Handle] = []
        self.selected: int | None = None
        self.pad = 1.0
        self.setZValue(2000)

    def set(self, handles: list[Handle], selected: int | None, pad: float) -> None:
        self.prepareGeometryChange()
        self.handles, self.selected, self.pad = handles, selected, pad
        self.update()

    def boundingRect(self) -> QRectF:
        if not self.handles:
            return QRectF()
        xs = [h.point[0] for h in self.handles]
        ys = [h.point[1] for h in self.handles]
        return QRectF(min(xs) - self.pad, min(ys) - self.pad, max(xs) - min(xs) + 2 * self.pad,
                      max(ys) - min(ys) + 2 * self.pad)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        t = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        for h in self.handles:
            p = t.map(QPointF(*h.point))
            sel = h.kind == "vertex" and h.index == self.selected
            painter.setPen(QPen(render.INK, 1.2))
            painter.setBrush(render.VERMILLION if sel else (render.SKY if h.kind != "rotate" else render.YELLOW))
            r = (4.5 if not sel else 5.5) if h.kind != "side" else 3.5
            if h.kind == "rotate":
                painter.drawEllipse(p, r + 1, r + 1)
            elif h.kind == BC.CENTRE:
                painter.setBrush(render.SKY)
                painter.drawEllipse(p, r + 1, r + 1)
            else:
                painter.drawRect(QRectF(p.x() - r, p.y() - r, 2 * r, 2 * r))
        painter.restore()


def resized_side(s: Rect, side: int, p: Point) -> Rect | None:
    """``s`` with side ``side`` (0 bottom, 1 right, 2 top, 3 left, before rotation) moved to
    pass through ``p``, the opposite side kept; None when it would have no width or height."""
    a = math.radians(s.rotation)
    ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    dx, dy = p[0] - s.center[0], p[1] - s.center[1]
    u, v = dx * ux + dy * uy, dx * vx + dy * vy  # p in the rectangle's own axes
    hw, hh = s.size[0] / 2, s.size[1] / 2
    lo_u, hi_u, lo_v, hi_v = -hw, hw, -hh, hh
    if side == 0:
        lo_v = v
    elif side == 1:
        hi_u = u
    elif side == 2:
        hi_v = v
    else:
        lo_u = u
    w, h = hi_u - lo_u, hi_v - lo_v
    if w < 1e-9 or h < 1e-9:
        return None
    mu, mv = (lo_u + hi_u) / 2, (lo_v + hi_v) / 2
    c = (clean(s.center[0] + mu * ux + mv * vx), clean(s.center[1] + mu * uy + mv * vy))
    return dataclasses.replace(s, center=c, size=(clean(w), clean(h)))


def _shape_of(target: Element | AreaShape) -> Shape | None:
    return target if isinstance(target, (Rect, Polygon)) else getattr(target, "shape", None)


class EditVerticesTool(CircleBoardDrag, Tool):
    name = "vertices"
    label = "Edit vertices"
    shortcut = "E"
    description = ("Drag handles; round handle rotates; double-click/Alt+click an edge adds a vertex, "
                   "Delete removes one. Nothing selected: the bounds (a circle board: its rim and centre).")
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self.item: HandlesItem | None = None
        self.selected_vertex: int | None = None
        self._drag: Handle | None = None
        self._preview: Element | AreaShape | None = None
        self._last_target: str | None = None
        self._board: tuple[int, Circle] | None = None

    # ---------------------------------------------------------------- target and handles

    def target(self) -> tuple[str, Element | AreaShape] | None:
        sel = self.doc.selection
        if not sel:
            arena = self.doc.arena
            return (BOUNDS, arena.bounds) if isinstance(arena, BoundedArena) else None
        if len(sel) == 1 and (el := E.find(self.doc.arena, sel[0])) is not None:
            return sel[0], el
        return None

    def snap_exclude(self) -> tuple[str, ...]:
        t = self.target()
        return (t[0],) if t else ()

    def handles(self) -> list[Handle]:
        t = self.target()
        if t is None:
            return []
        el = t[1]
        ends = segment_ends(el)
        if ends is not None:  # a gate: its two ends
            return [Handle("vertex", 0, ends[0]), Handle("vertex", 1, ends[1])]
        if isinstance(el, Circle):  # a circle board
            return [Handle(BC.RADIUS, 0, BC.radius_handle(el)), Handle(BC.CENTRE, 0, el.center)]
        s = _shape_of(el)
        if isinstance(s, (Polygon, Polyline)):
            return [Handle("vertex", i, p) for i, p in enumerate(s.points)]
        if isinstance(s, Rect):
            cs = s.corners()
            out = [Handle("corner", i, p) for i, p in enumerate(cs)]
            out += [Handle("side", i, ((cs[i][0] + cs[(i + 1) % 4][0]) / 2, (cs[i][1] + cs[(i + 1) % 4][1]) / 2))
                    for i in range(4)]
            a = math.radians(s.rotation)
            d = s.size[1] / 2 + ROTATE_HANDLE_PX / max(self.view.scale_factor, 1e-9)
            out.append(Handle("rotate", 0, (s.center[0] - d * math.sin(a), s.center[1] + d * math.cos(a))))
            return out
        if isinstance(s, Circle):
            return [Handle("radius", 0, (s.center[0] + s.radius, s.center[1]))]
        return []

    def refresh(self, *_args: object) -> None:
        if self.item is None:
            return
        t = self.target()
        ref = t[0] if t else None
        if ref != self._last_target:
            self.selected_vertex = None
            self._last_target = ref
        hs = self.handles()
        if self.selected_vertex is not None and not any(h.kind == "vertex" and h.index == self.selected_vertex for h in hs):
            self.selected_vertex = None
        self.item.set(hs, self.selected_vertex, 12.0 / max(self.view.scale_factor, 1e-9))

    def activate(self) -> None:
        self.item = HandlesItem()
        self.scene.addItem(self.item)
        self.doc.arenaChanged.connect(self.refresh)
        self.doc.selectionChanged.connect(self.refresh)
        self.view.zoomChanged.connect(self.refresh)
        self.refresh()

    def deactivate(self) -> None:
        super().deactivate()
        for sig in (self.doc.arenaChanged, self.doc.selectionChanged, self.view.zoomChanged):
            try:
                sig.disconnect(self.refresh)
            except (RuntimeError, TypeError):
                pass
        if self.item is not None and self.item.scene() is not None:
            self.item.scene().removeItem(self.item)
        self.item = None

    def _hit(self, pos: QPointF) -> Handle | None:
        here = self.view.mapFromScene(pos).toPointF()
        best, best_d = None, HANDLE_PX
        for h in self.handles():
            d = QLineF(self.view.mapFromScene(QPointF(*h.point)).toPointF(), here).length()
            if d <= best_d:
                best, best_d = h, d
        return best

    def _edge_at(self, pos: QPointF) -> tuple[int, Point] | None:
        """(index to insert at, point on the edge) of the target's edge under ``pos``."""
        t = self.target()
        s = _shape_of(t[1]) if t else None
        if not isinstance(s, (Polygon, Polyline)):
            return None
        pts = list(s.points)
        n = len(pts) if isinstance(s, Polygon) else len(pts) - 1
        tol = HANDLE_PX / max(self.view.scale_factor, 1e-9)
        best: tuple[float, int, Point] | None = None
        p = (pos.x(), pos.y())
        for i in range(n):
            q, _t = closest_on_segment(p, pts[i], pts[(i + 1) % len(pts)])
            d = math.dist(p, q)
            if d <= tol and (best is None or d < best[0]):
                best = (d, i + 1, q)
        if best is None:
            return None
        snapped = self.snap(QPointF(*best[2]), Qt.KeyboardModifier.NoModifier)
        q = (clean(snapped.x()), clean(snapped.y())) if math.dist((snapped.x(), snapped.y()), best[2]) <= tol else \
            (clean(best[2][0]), clean(best[2][1]))
        return best[1], q

    # ---------------------------------------------------------------- editing

    def _with_shape(self, target: Element | AreaShape, shape: Shape) -> Element | AreaShape:
        if isinstance(target, (Rect, Polygon)) and not hasattr(target, "id"):
            return shape
        return dataclasses.replace(target, shape=shape)

    def edited(self, h: Handle, ev: ToolEvent) -> Element | AreaShape | None:
        t = self.target()
        if t is None:
            return None
        el = t[1]
        p = ev.snapped
        ends = segment_ends(el)
        if ends is not None:  # a gate: the dragged end moves, the other stays
            other = ends[1] if h.index == 0 else ends[0]
            if ev.shift:
                p = self.constrained(QPointF(*other), ev)
            q = (clean(p.x()), clean(p.y()))
            return dataclasses.replace(el, start=q) if h.index == 0 else dataclasses.replace(el, end=q)
        s = _shape_of(el)
        if isinstance(s, (Polygon, Polyline)):
            pts = list(s.points)
            if ev.shift and len(pts) > 1:
                p = self.constrained(QPointF(*pts[h.index - 1]), ev)
            pts[h.index] = (clean(p.x()), clean(p.y()))
            return self._with_shape(el, dataclasses.replace(s, points=tuple(pts)))
        if isinstance(s, Circle):
            r = clean(QLineF(QPointF(*s.center), p).length())
            return self._with_shape(el, dataclasses.replace(s, radius=r)) if r > 1e-9 else None
        if isinstance(s, Rect) and h.kind == "corner":
            o = s.corners()[(h.index + 2) % 4]
            a = math.radians(s.rotation)
            dx, dy = p.x() - o[0], p.y() - o[1]
            w, hh = abs(dx * math.cos(a) + dy * math.sin(a)), abs(-dx * math.sin(a) + dy * math.cos(a))
            if w < 1e-9 or hh < 1e-9:
                return None
            c = (clean((p.x() + o[0]) / 2), clean((p.y() + o[1]) / 2))
            return self._with_shape(el, dataclasses.replace(s, center=c, size=(clean(w), clean(hh))))
        if isinstance(s, Rect) and h.kind == "side":
            side = resized_side(s, h.index, (p.x(), p.y()))
            return self._with_shape(el, side) if side is not None else None
        if isinstance(s, Rect) and h.kind == "rotate":
            ang = angle_of(QPointF(*s.center), ev.pos) - 90.0
            step = ANGLE_STEP if ev.shift else (0.0 if ev.ctrl else 1.0)
            if step:
                ang = round(ang / step) * step
            return self._with_shape(el, dataclasses.replace(s, rotation=A.norm_angle(ang)))
        return None

    def commit(self, new: Element | AreaShape, what: str) -> bool:
        t = self.target()
        if t is None:
            return False
        ref = t[0]
        if ref == BOUNDS:
            from editor.game import game_of  # its command (Arena Rex: the zones follow the board)

            return self.push(lambda: game_of(self.doc.arena).bounds_command()(self.doc, new))
        return self.push(lambda: EC.EditShape(self.doc, ref, new, what))  # type: ignore[arg-type]

    def insert_vertex(self, pos: QPointF) -> bool:
        t = self.target()
        hit = self._edge_at(pos)
        if t is None or hit is None:
            return False
        s = _shape_of(t[1])
        assert isinstance(s, (Polygon, Polyline))
        i, q = hit
        pts = (*s.points[:i], q, *s.points[i:])
        if self.commit(self._with_shape(t[1], dataclasses.replace(s, points=pts)), "Insert vertex in"):
            self.selected_vertex = i
            self.refresh()
            return True
        return False

    def delete_vertex(self) -> bool:
        """Delete the selected vertex; refused below 3 polygon / 2 line points. True when the
        Delete key was used by the tool."""
        t = self.target()
        if t is None or self.selected_vertex is None:
            return False
        el = t[1]
        s = _shape_of(el)
        if not isinstance(s, (Polygon, Polyline)):
            return False
        minimum = 3 if isinstance(s, Polygon) else 2
        if len(s.points) <= minimum:
            self.refuse(f"{self.label}: a {'polygon' if minimum == 3 else 'line'} needs at least "
                                   f"{minimum} points")
            return True
        i = self.selected_vertex
        pts = s.points[:i] + s.points[i + 1:]
        if self.commit(self._with_shape(el, dataclasses.replace(s, points=pts)), "Delete vertex of"):
            self.selected_vertex = None
            self.refresh()
        return True

    # ---------------------------------------------------------------- events

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        h = self._hit(ev.pos)
        alt = bool(ev.modifiers & Qt.KeyboardModifier.AltModifier)
        if self.press_board(h, ev):
            return
        if h is not None and not alt:
            self._drag = h
            if h.kind == "vertex":
                self.selected_vertex = h.index
                self.refresh()
            return
        if alt and self.insert_vertex(ev.pos):
            return
        if self._edge_at(ev.pos) is not None:
            return  # a click on the target's own edge keeps it (a double-click inserts)
        item = self.scene.element_at(ev.pos, self.view.transform())
        self.doc.set_selection([item.ref] if item is not None else [])

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._drag is None:
            return
        if self._board is not None:
            self.drag_board(ev)
            return
        new = self.edited(self._drag, ev)
        self._preview = new
        if new is not None:
            path = render.shape_path(new) if isinstance(new, (Rect, Polygon)) and not hasattr(new, "id") else \
                render.element_path(new, render.context_of(self.doc.arena))
            self.overlay(path, render.VERMILLION)
            hint = f" ({self.last_snap})" if self.last_snap else ""
            self.overlay_text(ev.pos, f"{ev.snapped.x():.2f}, {ev.snapped.y():.2f}{hint}")

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._drag is None:
            return
        if self._board is not None:
            self.end_board(ev)
            return
        self.mouse_move(ev)
        drag, new = self._drag, self._preview
        self._drag, self._preview = None, None
        self.clear_overlay()
        if new is None:
            return
        t = self.target()
        if t is not None and new != t[1]:
            self.commit(new, "Rotate" if drag.kind == "rotate" else "Edit shape of")

    def mouse_double_click(self, ev: ToolEvent) -> None:
        self.insert_vertex(ev.pos)

    def delete_key(self) -> bool:
        return self.delete_vertex()

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.delete_vertex():
            return True
        if ev.key() == Qt.Key.Key_Escape and self.selected_vertex is not None:
            self.selected_vertex = None
            self.refresh()
            return True
        return super().key_press(ev)

    def cancel(self) -> None:
        if self._board is not None:
            self.end_board(None)
        super().cancel()
        self._drag, self._preview = None, None


class RotateTool(Tool):
    name = "rotate"
    label = "Rotate selection"
    shortcut = "R"
    description = "Drag around the selection's centre to rotate it (Shift: 15° steps)."
    shows_snap = False

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self._center: QPointF | None = None
        self._start = 0.0
        self.angle = 0.0

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        els = [el for r in self.doc.selection if (el := E.find(self.doc.arena, r)) is not None]
        if not els:
            item = self.scene.element_at(ev.pos, self.view.transform())
            if item is None:
                self.refuse(f"{self.label}: select something to rotate")
                return
            self.doc.set_selection([item.ref])
            els = [item.element]
        self._center = QPointF(*A.selection_center(els))
        self._start = angle_of(self._center, ev.pos)
        self.angle = 0.0

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._center is None:
            return
        ang = (angle_of(self._center, ev.pos) - self._start + 180.0) % 360.0 - 180.0
        step = ANGLE_STEP if ev.shift else (0.0 if ev.ctrl else 1.0)
        self.angle = round(ang / step) * step if step else ang
        els = [el for r in self.doc.selection if (el := E.find(self.doc.arena, r)) is not None]
        path = QPainterPath()
        for el in A.rotated(els, self.angle, (self._center.x(), self._center.y())):
            path.addPath(render.element_path(el, render.context_of(self.doc.arena)))
        path.moveTo(self._center)
        path.lineTo(ev.pos)
        self.overlay(path, render.VERMILLION)
        self.overlay_text(ev.pos, f"{self.angle:+.0f}°")

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._center is None:
            return
        self.mouse_move(ev)
        c, ang = (self._center.x(), self._center.y()), self.angle
        self._center = None
        self.clear_overlay()
        if abs(ang) > 1e-9:
            refs = self.doc.selection
            self.push(lambda: EC.RotateElements(self.doc, refs, ang, c))

    def cancel(self) -> None:
        super().cancel()
        self._center = None
