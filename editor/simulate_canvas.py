"""What a simulated-play run draws on the canvas (:mod:`editor.simulate_dock` drives it): the contact
heat map (:class:`ContactHeat`, under the elements) and one turn of a recorded game
(:class:`ReplayLayer`, over them: a marker per seat in its start's colour, an arrow along its
heading when the game's pieces have one, and the turn's events).

Both are view state, never an edit: items added to the scene beside the arena's, with no undo
entry, not selectable, taking no mouse button.  Positions are the records' own (the arena's
coordinates, as the canvas's)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, cast

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import render as R
from editor.style_render import player_colour

HEAT_Z = -4.5  # under every element, over the travel heat maps
REPLAY_Z = 2500.0  # over every element, under the tools' marks
#: Marker radius and heading arrow length, in screen pixels (any zoom).
MARKER_PX = 9.0
ARROW_PX = 26.0
#: Event kinds drawn as a burst (pieces meeting), the rest as a ring.
BURST_KINDS = ("ram", "contact", "crash", "collision")


def start_colour(start: int) -> QColor:
    """A start's colour: the editor's player palette (the bars of the dock's chart too)."""
    return player_colour(start)


class ContactHeat(QGraphicsItem):
    """The run's contact heat map: each cell with contacts shaded by its count (the hottest
    darkest), its count written in it."""

    def __init__(self) -> None:
        super().__init__()
        self.contacts: Mapping[str, Any] | None = None
        self.setZValue(HEAT_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_contacts(self, contacts: Mapping[str, Any] | None) -> None:
        """The ``contacts`` section of a run's JSON (None: nothing)."""
        self.prepareGeometryChange()
        self.contacts = contacts if contacts and contacts.get("cell") else None
        self.update()

    def cells(self) -> list[tuple[QRectF, int]]:
        """Every cell with contacts: its rectangle (arena coordinates) and count."""
        c = self.contacts
        if c is None:
            return []
        x0, y0 = c["origin"]
        size = float(c["cell"])
        return [(QRectF(x0 + col * size, y0 + row * size, size, size), n)
                for row, counts in enumerate(c["counts"]) for col, n in enumerate(counts) if n]

    def boundingRect(self) -> QRectF:
        c = self.contacts
        if c is None:
            return QRectF()
        x0, y0 = c["origin"]
        size = float(c["cell"])
        return QRectF(x0, y0, c["columns"] * size, c["rows"] * size)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        cells = self.cells()
        if not cells:
            return
        top = max(n for _r, n in cells)
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        for rect, n in cells:
            painter.setBrush(R.with_alpha(R.VERMILLION, int(40 + 170 * n / top)))
            painter.drawRect(rect)
        scale = abs(painter.worldTransform().m11()) or 1.0
        for rect, n in cells:
            if rect.width() * scale >= 18:
                R.draw_label(painter, rect.center(), str(n), colour=R.INK, px=11.0)
        painter.restore()


class ReplayLayer(QGraphicsItem):
    """One turn of a recorded game: set by :meth:`set_turn` with the turn's JSON
    (:meth:`engine.play.GameRecord.to_json`'s ``turns[i]``).  Each piece and event is a child
    mark drawn at a fixed pixel size at its place (:class:`PieceMark`, :class:`EventMark`)."""

    def __init__(self) -> None:
        super().__init__()
        self.pieces: list[Mapping[str, Any]] = []
        self.events: list[Mapping[str, Any]] = []
        self.setZValue(REPLAY_Z)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)

    def set_turn(self, turn: Mapping[str, Any] | None) -> None:
        scene = self.scene()
        for child in self.childItems():
            if scene is not None:
                scene.removeItem(child)  # and from this item
            else:
                child.setParentItem(cast(QGraphicsItem, None))  # Qt takes None: no parent
        self.pieces = list(turn["pieces"]) if turn else []
        self.events = list(turn["events"]) if turn else []
        for e in self.events:
            mark: QGraphicsItem = EventMark(e)
            mark.setParentItem(self)
        for p in self.pieces:
            mark = PieceMark(p)
            mark.setParentItem(self)

    def markers(self) -> dict[int, tuple[float, float, float | None, bool]]:
        """start -> (x, y, heading, out) of the pieces drawn, read back from their marks."""
        out: dict[int, tuple[float, float, float | None, bool]] = {}
        for child in self.childItems():
            if isinstance(child, PieceMark):
                out[child.start] = (child.pos().x(), child.pos().y(), child.heading, child.out)
        return out

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        pass


class _Mark(QGraphicsItem):
    """A mark at a fixed pixel size (device pixels, y down) at an arena point."""

    def __init__(self, x: float, y: float) -> None:
        super().__init__()
        self.setPos(QPointF(x, y))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)


class PieceMark(_Mark):
    """A seat's piece: a disc in its start's colour with the start's number, an arrow along its
    heading (games whose pieces have one); hollow when the piece is out."""

    def __init__(self, piece: Mapping[str, Any]) -> None:
        super().__init__(float(piece["x"]), float(piece["y"]))
        self.start = int(piece["start"])
        h = piece.get("heading")
        self.heading: float | None = None if h is None else float(h)
        self.out = bool(piece.get("out"))
        self.setZValue(1.0)

    def boundingRect(self) -> QRectF:
        r = ARROW_PX + 6
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        colour = start_colour(self.start)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.heading is not None and not self.out:
            a = math.radians(self.heading)  # counter-clockwise from +x with y up: y down on screen
            R.draw_arrow(painter, QPointF(0, 0), QPointF(ARROW_PX * math.cos(a), -ARROW_PX * math.sin(a)),
                         colour.darker(150), px=3.0, head=9.0)
        painter.setPen(R.pen(R.INK if not self.out else R.OUTSIDE.darker(150), 1.5))
        painter.setBrush(colour if not self.out else QColor(255, 255, 255, 200))
        painter.drawEllipse(QPointF(0, 0), MARKER_PX, MARKER_PX)
        font = QFont()
        font.setPixelSize(11)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("white") if not self.out else R.INK)
        painter.drawText(QRectF(-MARKER_PX, -MARKER_PX, 2 * MARKER_PX, 2 * MARKER_PX),
                         int(Qt.AlignmentFlag.AlignCenter), str(self.start))


class EventMark(_Mark):
    """Something that happened in the turn: a burst where pieces met (a ram, a contact, a
    crash), a ring for the rest (a checkpoint taken, a shot...), tagged with its kind."""

    def __init__(self, event: Mapping[str, Any]) -> None:
        super().__init__(float(event["x"]), float(event["y"]))
        self.kind = str(event["kind"])
        self.start = int(event["start"])
        self.text = self.kind + (f" {event['other']}" if event.get("other") else "")
        font = QFont()
        font.setPixelSize(11)
        self.font = font
        self.tag_width = QFontMetricsF(font).horizontalAdvance(self.text) + 6

    def boundingRect(self) -> QRectF:
        r = MARKER_PX + 10
        return QRectF(-r, -r, 2 * r + self.tag_width + 8, 2 * r + 16)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        colour = start_colour(self.start)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.kind in BURST_KINDS:
            _burst(painter, QPointF(0, 0), colour)
        else:
            painter.setPen(R.pen(colour.darker(130), 2.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), MARKER_PX + 6, MARKER_PX + 6)
        painter.setFont(self.font)
        _tag(painter, QFontMetricsF(self.font), QPointF(MARKER_PX + 4, MARKER_PX + 14), self.text, colour)


def _burst(painter: QPainter, at: QPointF, colour: QColor) -> None:
    pts = []
    for k in range(16):
        r = (MARKER_PX + 9) if k % 2 == 0 else (MARKER_PX + 2)
        a = math.pi * k / 8
        pts.append(QPointF(at.x() + r * math.cos(a), at.y() + r * math.sin(a)))
    path = QPainterPath()
    path.addPolygon(QPolygonF(pts))
    path.closeSubpath()
    painter.setPen(R.pen(R.VERMILLION.darker(120), 1.5))
    painter.setBrush(R.with_alpha(R.YELLOW, 220))
    painter.drawPath(path)


def _tag(painter: QPainter, fm: QFontMetricsF, at: QPointF, text: str, colour: QColor) -> None:
    w = fm.horizontalAdvance(text) + 6
    box = QRectF(at.x(), at.y() - fm.height(), w, fm.height() + 2)
    painter.setPen(R.pen(colour.darker(130), 1.0))
    painter.setBrush(QColor(255, 255, 255, 225))
    painter.drawRoundedRect(box, 3, 3)
    painter.setPen(R.INK)
    painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), text)


def turn_scores(turn: Mapping[str, Any] | None, starts: Sequence[int]) -> list[tuple[int, float]]:
    """(start, score) after ``turn``, in seat order (0 where the turn does not say)."""
    scores = (turn or {}).get("scores", {})
    return [(s, float(scores.get(str(s), 0.0))) for s in starts]


__all__ = ["ContactHeat", "EventMark", "PieceMark", "ReplayLayer", "start_colour", "turn_scores"]
