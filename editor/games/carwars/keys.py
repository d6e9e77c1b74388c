"""Car Wars' turning keys on the canvas: each start's key where ``cw-start-key`` lays it
(a canvas part of the Car Wars editor, :meth:`editor.game.EditorGame.canvas_parts`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import render
from editor.games.carwars.analysis import READS


class StartKeys(QGraphicsItem):
    """Each start's turning key where ``cw-start-key`` lays it (against the arena edge, touching
    the car: "Place the turning key against the arena edge ..."), or nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[tuple[int, tuple[tuple[float, float], ...]]] = []
        self.setZValue(9.5)  # under the elements of other games (10+), over the floor
        self._rect = QRectF()

    def set_keys(self, keys: list[tuple[int, tuple[tuple[float, float], ...]]]) -> None:
        self.prepareGeometryChange()
        self.keys = keys
        xs = [p[0] for _, poly in keys for p in poly]
        ys = [p[1] for _, poly in keys for p in poly]
        self._rect = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(-1, -1, 1, 1) if xs else QRectF()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    #: Its labels are drawn over the cars by the view (they lay under them: issue 42, point 10).
    labels_on_top = True

    def label_key(self) -> object:
        return tuple(self.keys)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        fill = QColor("#009E73")
        fill.setAlpha(90)
        with render.labels_on_top(True):
            for player, poly in self.keys:
                painter.setPen(render.pen(QColor("#005A41"), 1.5))
                painter.setBrush(fill)
                painter.drawPolygon(QPolygonF([QPointF(x, y) for x, y in poly]))
                cx = sum(p[0] for p in poly) / len(poly)
                cy = sum(p[1] for p in poly) / len(poly)
                render.draw_label(painter, QPointF(cx, cy), f"key {player}", colour=QColor("#003D2C"), px=10,
                                  background=QColor(255, 255, 255, 210))


def start_keys(arena: Any) -> list[tuple[int, tuple[tuple[float, float], ...]]]:
    """The keys that fit (engine.carwars.checks.start_key)."""
    from engine.carwars.checks import start_keys as keys

    return [(p, k.polygon) for p, k in sorted(keys(arena).items()) if k.polygon is not None]


class KeysPart(StartKeys):
    """The keys as a canvas part: laid again only when what ``cw-start-key`` reads changed (a
    card drag does not move them)."""

    def __init__(self) -> None:
        super().__init__()
        self._keys_of: tuple[Any, ...] = ()

    def arena_changed(self, arena: Any) -> None:
        key = tuple(getattr(arena, f, None) for f in READS["cw-start-key"])
        if key != self._keys_of:
            self._keys_of = key
            self.set_keys(start_keys(arena))


__all__ = ["KeysPart", "StartKeys", "start_keys"]
