"""The canvas of a grid arena: one scene item draws the whole grid (:mod:`editor.grid_render`:
hexes in the recorded orientation or squares, the pit wall, row totals, launch zones and
their Airspeed Tracks, Motherships and build squares in player colours), with the selection
outlined dashed and the elements live validation flags outlined in the severity colour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import grid_render

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow


class GridItem(QGraphicsItem):
    """The whole grid arena (nothing for other games)."""

    def __init__(self) -> None:
        super().__init__()
        self.arena: Any = None
        self.selected: tuple[str, ...] = ()
        self.severities: dict[str, str] = {}
        #: Elements drawn faint (the starts outside the active player count's set).
        self.dimmed: frozenset[str] = frozenset()
        self._rect = QRectF()
        self.setZValue(5)  # over the background, under tool overlays

    def set_state(self, arena: Any, selected: tuple[str, ...], severities: dict[str, str],
                  dimmed: frozenset[str] = frozenset()) -> None:
        arena = arena if grid_render.is_grid(arena) else None
        if (arena, selected, severities, dimmed) == (self.arena, self.selected, self.severities, self.dimmed):
            return
        self.prepareGeometryChange()
        self.arena, self.selected, self.severities, self.dimmed = arena, selected, dict(severities), dimmed
        self._rect = grid_render.arena_rect(arena, 0.5) if arena is not None else QRectF()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    #: Its labels are drawn by the view over every item, moved off each other.
    labels_on_top = True

    def label_key(self) -> object:
        return (id(self.arena), self.selected, tuple(sorted(self.severities.items())), self.dimmed)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        from editor import render

        if self.arena is not None:
            with render.labels_on_top(True):
                grid_render.paint_grid(painter, self.arena, selected=self.selected, severities=self.severities,
                                       min_px=grid_render.READABLE_PX, dimmed=self.dimmed)


class GridCanvas(QObject):
    """Keeps the :class:`GridItem` in step with the document, its selection and the findings."""

    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.item = GridItem()
        win.scene.addItem(self.item)
        win.doc.arenaChanged.connect(self.refresh)
        win.doc.selectionChanged.connect(self.refresh)
        win.doc.activeCountChanged.connect(self.refresh)
        win.runner.finished.connect(self.findings)
        self._severities: dict[str, str] = {}
        self.refresh()

    def findings(self, found: list[Any]) -> None:
        from editor.panels import severities

        self._severities = severities(found)
        self.refresh()

    def refresh(self, *_: object) -> None:
        from editor.start_sets import dimmed_refs

        doc = self.win.doc
        self.item.set_state(doc.arena, tuple(doc.selection), self._severities, dimmed_refs(doc.arena, doc.active_count))


def install(win: MainWindow) -> GridCanvas:
    return GridCanvas(win)
