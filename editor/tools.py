"""Canvas tools, one class per tool (Tiled-style). This module holds the base class, snapping,
the select/move tool and the measure tool; the area tools' base is
:mod:`editor.draw_tools`, each game's drawing and placing tools are in its package.

Modifiers: snapping to the grid (``view.snap_step``, default 0.5 lengths) unless Ctrl is
held; Shift constrains angles to 15-degree steps (in the select tool, Shift adds to the
selection instead, and constrains the drag direction).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import QApplication, QGraphicsPathItem

from editor import commands as C
from editor import elements as E
from editor import render
from editor.canvas import ElementItem
from editor.canvas_marks import SnapMarker, TextTag
from editor.game import game_of
from editor.snapping import choose, nearest_target, segment_ends
from schema.shapes import Polygon, Polyline

if TYPE_CHECKING:
    from editor.canvas import ArenaScene, ArenaView
    from editor.document import ArenaDocument

ANGLE_STEP = 15.0
HANDLE_PX = 9.0
SNAP_PX = 6.0


@dataclass(frozen=True)
class ToolEvent:
    pos: QPointF  # raw arena position
    snapped: QPointF  # snapped to the grid unless Ctrl is held
    button: Qt.MouseButton
    modifiers: Qt.KeyboardModifier

    @property
    def shift(self) -> bool:
        return bool(self.modifiers & Qt.KeyboardModifier.ShiftModifier)

    @property
    def ctrl(self) -> bool:
        return bool(self.modifiers & Qt.KeyboardModifier.ControlModifier)


def snap_value(v: float, step: float) -> float:
    return round(v / step) * step if step > 0 else v


def constrain(origin: QPointF, p: QPointF, step_deg: float = ANGLE_STEP) -> QPointF:
    """``p`` moved onto the nearest ray from ``origin`` at a multiple of ``step_deg``."""
    length = math.hypot(p.x() - origin.x(), p.y() - origin.y())
    ang = math.degrees(math.atan2(p.y() - origin.y(), p.x() - origin.x()))
    a = math.radians(round(ang / step_deg) * step_deg)
    return QPointF(origin.x() + length * math.cos(a), origin.y() + length * math.sin(a))


def angle_of(origin: QPointF, p: QPointF) -> float:
    return math.degrees(math.atan2(p.y() - origin.y(), p.x() - origin.x())) % 360.0


def clean(v: float) -> float:
    """Round away float noise (1e-9) so snapped coordinates are written as typed."""
    r = round(v, 9)
    return 0.0 if r == 0 else r


def move_anchor(el: Any, grab: tuple[float, float]) -> tuple[float, float]:
    """The point of a dragged element that lands on a grid point: a circle's or rectangle's
    centre, a target's or start's position, the segment's (gate's) end or the polygon/line vertex
    nearest to where it was grabbed."""
    ends = segment_ends(el)
    if ends is not None:
        return min(ends, key=lambda q: math.dist(q, grab))
    shape = getattr(el, "shape", None)
    if isinstance(shape, (Polygon, Polyline)):
        return min(shape.points, key=lambda q: math.dist(q, grab))
    return E.anchor(el)


class Tool:
    name = "tool"
    label = "Tool"
    shortcut = ""
    description = ""
    cursor = Qt.CursorShape.CrossCursor
    modes: tuple[str, ...] = ()
    #: What the tool-options box chooses (its label in the toolbar).
    mode_title = "Shape"
    #: The tool places points where the cursor snaps: the snap target is highlighted.
    shows_snap = True

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        self.view = view
        self.doc = doc
        self.mode = self.modes[0] if self.modes else ""
        self._overlay: QGraphicsPathItem | None = None
        self._text: TextTag | None = None
        self.last_snap = ""

    @property
    def scene(self) -> ArenaScene:
        return self.view.arena_scene

    def title(self) -> str:
        """The label with its key: "Draw wall (W)"."""
        return f"{self.label} ({self.shortcut})" if self.shortcut else self.label

    def tooltip(self) -> str:
        return f"{self.title()}\n{self.description}"

    # ---------------------------------------------------------------- helpers

    def event(self, ev: QMouseEvent, view: ArenaView) -> ToolEvent:
        pos = view.mapToScene(ev.position().toPoint())
        mods = ev.modifiers()
        return ToolEvent(pos, self.snap(pos, mods), ev.button(), mods)

    def snap(self, pos: QPointF, mods: Qt.KeyboardModifier) -> QPointF:
        """Snap to a grid point; to another element's vertex within a few pixels, or its edge
        when that is nearer than the grid point (:func:`editor.snapping.choose`; the target is
        highlighted); Ctrl disables snapping."""
        self.last_snap = ""
        hit = None
        if not mods & Qt.KeyboardModifier.ControlModifier:
            p = (pos.x(), pos.y())
            s = self.view.snap_step
            grid = (snap_value(p[0], s), snap_value(p[1], s)) if self.view.snap_enabled else None
            if self.view.object_snap:
                tol = SNAP_PX / (self.view.scale_factor or 1.0)
                exclude = (*self.snap_exclude(), *self.scene.layers.hidden_refs(self.doc.arena))
                hit = nearest_target(self.doc.arena, p, tol, exclude)
            kind, q = choose(p, grid, hit)
            hit = hit if kind in ("vertex", "edge") else None
            self.last_snap = kind if hit is not None else ""
            pos = QPointF(*q)
        if self.shows_snap:
            self.marker().show_hit(hit, self.doc.arena)
        return QPointF(pos)

    def marker(self) -> SnapMarker:
        """The snap target's highlight (one per scene)."""
        m = getattr(self.scene, "snap_marker", None)
        if m is None or m.scene() is None:
            m = self.scene.snap_marker = SnapMarker()
            self.scene.addItem(m)
        return m

    def snap_exclude(self) -> tuple[str, ...]:
        """Refs whose vertices/edges are not snap targets (the element being edited)."""
        return ()

    def constrained(self, origin: QPointF, ev: ToolEvent) -> QPointF:
        """The cursor on the nearest 15-degree ray from ``origin``, its distance snapped."""
        p = constrain(origin, ev.pos)
        if not self.view.snap_enabled or ev.ctrl:
            return p
        d = QLineF(origin, p)
        length = snap_value(d.length(), self.view.snap_step)
        if d.length() > 0:
            d.setLength(length)
        return QPointF(clean(d.p2().x()), clean(d.p2().y()))

    def push(self, make: Callable[[], C.ArenaCommand]) -> bool:
        """Build and push a command; a refused edit becomes a status message."""
        try:
            cmd = make()
        except ValueError as exc:
            self.refuse(f"{self.label}: {exc}")
            return False
        self.doc.push(cmd)
        return True

    def refuse(self, text: str) -> None:
        """Say why an action did nothing: in the status bar and by the cursor on the canvas."""
        self.view.message.emit(text)
        self.view.show_notice(text)

    def overlay(self, path: QPainterPath, colour: QColor = render.INK) -> None:
        if self._overlay is None:
            self._overlay = QGraphicsPathItem()
            self._overlay.setZValue(1000)
            self.scene.addItem(self._overlay)
        self._overlay.setPen(render.pen(colour, 1.5, Qt.PenStyle.DashLine))
        self._overlay.setPath(path)

    def overlay_text(self, at: QPointF, text: str) -> None:
        if self._text is None:
            self._text = TextTag()
            self.scene.addItem(self._text)
        self._text.set_text(text)
        self._text.setPos(at)

    def clear_overlay(self) -> None:
        for item in (self._overlay, self._text):
            if item is not None and item.scene() is not None:
                item.scene().removeItem(item)
        self._overlay = self._text = None

    # ---------------------------------------------------------------- events

    def activate(self) -> None:
        pass

    def deactivate(self) -> None:
        self.cancel()
        self.marker().show_hit(None, self.doc.arena)

    def cancel(self) -> None:
        self.clear_overlay()

    def mouse_press(self, ev: ToolEvent) -> None:
        pass

    def mouse_move(self, ev: ToolEvent) -> None:
        pass

    def mouse_release(self, ev: ToolEvent) -> None:
        pass

    def mouse_double_click(self, ev: ToolEvent) -> None:
        pass

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.cancel()
            return True
        return False


class SelectTool(Tool):
    """Click to select, Shift+click to add/remove, drag on empty floor for a rubber band,
    drag selected elements to move them (one undo step), drag the round handle of a
    selected start position (or another element its game turns,
    :meth:`editor.game.EditorGame.turn_handle`) to turn it."""

    name = "select"
    label = "Select / move"
    shortcut = "V"
    description = "Click, Shift+click, rubber band; drag to move; drag a handle to turn."
    cursor = Qt.CursorShape.ArrowCursor
    shows_snap = False

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self._state = ""
        self._origin = QPointF()
        self._base: list[str] = []
        self._delta = QPointF()
        self._anchor = QPointF()
        self._dragging = False
        self._angle = 0.0

    def handle(self) -> tuple[str, QPointF, QPointF] | None:
        """(ref, centre, handle point) of the single selected turnable element."""
        sel = self.doc.selection
        if len(sel) != 1:
            return None
        el = E.find(self.doc.arena, sel[0])
        found = game_of(self.doc.arena).turn_handle(self.doc.arena, el) if el is not None else None
        if found is None:
            return None
        c, deg, r = found
        a = math.radians(deg)
        return sel[0], QPointF(*c), QPointF(c[0] + r * math.cos(a), c[1] + r * math.sin(a))

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        h = self.handle()
        if h is not None:
            px = QLineF(self.view.mapFromScene(h[2]).toPointF(), self.view.mapFromScene(ev.pos).toPointF()).length()
            if px <= HANDLE_PX:
                self._state, self._origin = "turn", h[1]
                return
        item = self.scene.element_at(ev.pos, self.view.transform())
        sel = self.doc.selection
        if item is not None:
            if ev.shift:
                sel = [r for r in sel if r != item.ref] if item.ref in sel else [*sel, item.ref]
                self.doc.set_selection(sel)
            elif item.ref not in sel:
                self.doc.set_selection([item.ref])
            if item.ref in self.doc.selection:
                self._state, self._origin, self._delta = "move", ev.pos, QPointF()
                self._anchor = QPointF(*move_anchor(item.element, (ev.pos.x(), ev.pos.y())))
                self._dragging = False
            return
        self._base = sel if ev.shift else []
        if not ev.shift:
            self.doc.set_selection([])
        self._state, self._origin = "band", ev.pos

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._state == "move":
            d = ev.pos - self._origin
            s = self.view.snap_step
            if not self._dragging:  # a click is not a move: nothing snaps until the mouse travels
                px = QLineF(self.view.mapFromScene(self._origin).toPointF(), self.view.mapFromScene(ev.pos).toPointF())
                if px.length() < QApplication.startDragDistance():
                    return
                self._dragging = True
            if ev.shift:  # along a 15-degree ray, by whole snap steps
                d = constrain(QPointF(), d)
                if self.view.snap_enabled and not ev.ctrl and d.manhattanLength() > 0:
                    line = QLineF(QPointF(), d)
                    line.setLength(snap_value(line.length(), s))
                    d = line.p2()
            elif self.view.snap_enabled and not ev.ctrl:  # the grabbed element lands on a grid point
                a = self._anchor
                d = QPointF(snap_value(a.x() + d.x(), s) - a.x(), snap_value(a.y() + d.y(), s) - a.y())
            self._delta = d
            for ref in self.doc.selection:
                item = self.scene.items_by_ref.get(ref)
                if item is not None:
                    item.setPos(d)
        elif self._state == "band":
            rect = QRectF(self._origin, ev.pos).normalized()
            path = QPainterPath()
            path.addRect(rect)
            self.overlay(path, render.BLUE)
        elif self._state == "turn":
            p = ev.pos
            self._angle = angle_of(self._origin, p)
            step = ANGLE_STEP if ev.shift else 1.0
            self._angle = (round(self._angle / step) * step) % 360.0
            rad = math.radians(self._angle)
            path = QPainterPath(self._origin)
            path.lineTo(self._origin + QPointF(math.cos(rad), math.sin(rad)) * 1.5)
            self.overlay(path, render.VERMILLION)
            self.overlay_text(p, f"{self._angle:.0f}°")

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._state in ("move", "turn"):
            self.mouse_move(ev)  # the release position (and modifiers) are final
        state, self._state = self._state, ""
        if state == "move":
            d = self._delta
            if d.x() != 0 or d.y() != 0:
                refs = self.doc.selection
                self.push(lambda: C.MoveElements(self.doc, refs, clean(d.x()), clean(d.y())))
            self.scene.sync(self.doc.arena)
        elif state == "band":
            rect = QRectF(self._origin, ev.pos).normalized()
            self.clear_overlay()
            hits = [i.ref for i in self.scene.items(rect, Qt.ItemSelectionMode.IntersectsItemShape)
                    if isinstance(i, ElementItem) and self.scene.pickable(i)]
            self.doc.set_selection([*self._base, *[r for r in self._ordered(hits) if r not in self._base]])
        elif state == "turn":
            self.clear_overlay()
            h = self.handle()
            if h is not None:
                ref, angle = h[0], self._angle
                self.push(lambda: game_of(self.doc.arena).turn_command(self.doc, ref, angle))

    def _ordered(self, refs: list[str]) -> list[str]:
        wanted = set(refs)
        return [ref for el in self.doc.arena.elements() if (ref := getattr(el, "id")) in wanted]

    def cancel(self) -> None:
        super().cancel()
        if self._state == "move":
            self.scene.sync(self.doc.arena)
        self._state = ""

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape and not self._state:
            self.doc.set_selection([])
            return True
        return super().key_press(ev)


class MeasureTool(Tool):
    """Drag to measure a distance in the arena's unit (Shift: 15-degree steps) and, for a game whose
    pieces have a top speed (Gravstrike's turbine), the straight-line turns it takes at that speed
    (:meth:`editor.game.EditorGame.measure_turns`)."""

    name = "measure"
    label = "Measure"
    shortcut = "M"
    description = ("Drag to measure a distance (in the arena's unit) and its direction; a game whose pieces "
                   "have a top speed also gives the straight-line turns at that speed.")

    def __init__(self, view: ArenaView, doc: ArenaDocument) -> None:
        super().__init__(view, doc)
        self._origin: QPointF | None = None
        self.distance: float | None = None
        self.turns: float | None = None

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.LeftButton:
            self._origin = ev.snapped
            self.distance = 0.0

    def mouse_move(self, ev: ToolEvent) -> None:
        if self._origin is None:
            return
        end = self.constrained(self._origin, ev) if ev.shift else ev.snapped
        self.distance = QLineF(self._origin, end).length()
        path = QPainterPath(self._origin)
        path.lineTo(end)
        self.overlay(path, render.VERMILLION)
        from editor.games.rulesets import units_symbol

        found = game_of(self.doc.arena).measure_turns(self.doc.arena, self.distance)
        self.turns = found[0] if found is not None else None
        turns = f"  {found[1]}" if found is not None else ""
        text = f"{self.distance:.2f} {units_symbol(self.doc.arena)}  ({angle_of(self._origin, end):.0f}°){turns}"
        self.overlay_text(end, text)
        self.view.readout.emit(f"Distance {text}")

    def mouse_release(self, ev: ToolEvent) -> None:
        if self._origin is not None:
            self.mouse_move(ev)  # the reading stays in the status bar until the next one
        self._origin = None

    def deactivate(self) -> None:
        super().deactivate()
        self.view.readout.emit("")
