"""The arena canvas: a QGraphicsScene in lengths (scene = arena coordinates, y up) shown by
a view whose transform flips y (``scale(z, -z)``) — the single place the flip happens.

Elements are :class:`ElementItem` objects that draw through :mod:`editor.render`. Mouse
input goes to the active tool (:mod:`editor.tools`); the view itself only handles zoom
(wheel), pan (middle button or space + drag) and reporting the cursor position.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QPainterPath, QTransform, QWheelEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView, QStyleOptionGraphicsItem, QWidget

from editor import elements as E
from editor import render
from editor.canvas_marks import Notice, SnapMarker
from editor.document import ArenaDocument
from editor.layers import Layers
from editor.symmetry_guide import SymmetryGuide
from schema.ruleset import ArenaModel as Arena

if TYPE_CHECKING:
    from editor.tools import Tool

LABEL_PAD = 1.2  # lengths of slack around items for labels drawn at device size...
LABEL_PX = 72.0  # ...and at least this many device pixels (labels and badges at any zoom)


class ElementItem(QGraphicsItem):
    """One arena element; its position offset is only used to preview drags."""

    def __init__(self, element: Any, context: object) -> None:
        super().__init__()
        self.element = element
        #: What drawing the element needs from its arena (:func:`editor.render.context_of`).
        self.context = context
        self.severity: str | None = None
        self._path = render.element_path(element, context)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setZValue(render.z_order(element))
        self.setToolTip(element.id)

    @property
    def ref(self) -> str:
        return str(self.element.id)

    def set_element(self, element: Any, context: object) -> None:
        self.prepareGeometryChange()
        self.element, self.context = element, context
        self._path = render.element_path(element, context)
        self.setToolTip(element.id)
        self.update()

    def set_dimmed(self, dimmed: bool) -> None:
        """Draw the element (and its labels) faint: a start outside the active player count's set
        (:mod:`editor.start_sets`)."""
        self.setOpacity(render.DIM_OPACITY if dimmed else 1.0)

    def set_severity(self, severity: str | None) -> None:
        if severity != self.severity:
            self.severity = severity
            self.update()

    def boundingRect(self) -> QRectF:
        scene = self.scene()
        pad = scene.label_pad if isinstance(scene, ArenaScene) else LABEL_PAD
        return self._path.boundingRect().adjusted(-pad, -pad, pad, pad)

    def shape(self) -> QPainterPath:
        return self._path

    #: Its labels are drawn by the view over every item, moved off each other
    #: (:meth:`ArenaView.label_layout`).
    labels_on_top = True

    def label_key(self) -> object:
        """Changes whenever the labels this item draws may change."""
        return (id(self.element), id(self.context), self.severity, self.isSelected())

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        with render.labels_on_top(True):
            render.paint_element(painter, self.element, self.context, selected=self.isSelected(),
                                 severity=self.severity)


class ArenaScene(QGraphicsScene):
    """Mirrors a document's arena as items and its selection as item selection."""

    def __init__(self, doc: ArenaDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.items_by_ref: dict[str, ElementItem] = {}
        #: The snap target's highlight, made by the first tool that snaps (:meth:`Tool.marker`).
        self.snap_marker: SnapMarker | None = None
        self.grid_visible = True
        self.severities: dict[str, str] = {}
        #: Slack (lengths) around items' outlines for labels drawn at device size; the view sets
        #: it from its zoom, so that repainting only what changed never clips a label.
        self.label_pad = LABEL_PAD
        self._syncing = False
        self._bounds: object = None
        #: Hidden and locked element kinds (the Layers dock).
        self.layers = Layers(self)
        self.layers.changed.connect(self.apply_layers)
        doc.selectable = lambda ref: self.layers.editable(self.doc.arena, ref)
        #: The mirror axes and rotation centre, drawn while symmetry mode is on.
        self.guide = SymmetryGuide(doc)
        self.addItem(self.guide)
        doc.symmetryModeChanged.connect(lambda _on: self.guide.refresh())
        #: The refs drawn dimmed: the starts outside the active player count's set.
        self.dimmed: frozenset[str] = frozenset()
        doc.activeCountChanged.connect(lambda _count: self.sync(self.doc.arena))
        doc.arenaChanged.connect(self.sync)
        doc.selectionChanged.connect(self.sync_selection)
        self.selectionChanged.connect(self._scene_selection_changed)
        self.sync(doc.arena)

    @property
    def arena(self) -> Arena:
        return self.doc.arena

    def sync(self, arena: Arena) -> None:
        """Update items to match ``arena``: keep unchanged items, update, add, remove."""
        self._syncing = True
        try:
            seen: set[str] = set()
            ctx = render.context_of(arena)
            from editor.start_sets import dimmed_refs

            self.dimmed = dimmed_refs(arena, self.doc.active_count)
            grid = not isinstance(arena, render.Bounded)  # a grid arena: drawn whole by editor.games.grid_window
            elements: tuple[Any, ...] = () if grid else arena.elements()
            for el in elements:
                seen.add(el.id)
                item = self.items_by_ref.get(el.id)
                if item is None:
                    item = ElementItem(el, ctx)
                    self.items_by_ref[el.id] = item
                    self.addItem(item)
                elif item.element != el or item.context != ctx:
                    item.set_element(el, ctx)
                item.setPos(0, 0)
                item.set_severity(self.severities.get(el.id))
                item.set_dimmed(el.id in self.dimmed)
                item.setVisible(self.layers.visible(E.kind_of(el)))
            for ref in list(self.items_by_ref):
                if ref not in seen:
                    self.removeItem(self.items_by_ref.pop(ref))
            outline = arena.bounds if isinstance(arena, render.Bounded) else render.arena_rect(arena, 0.0)
            if self._bounds != outline:
                self._bounds = outline
                self.fit_scene_rect(keep_visible=True)
                self.redraw_background()
        finally:
            self._syncing = False
        self.guide.refresh()
        self.sync_selection(self.doc.selection)

    def apply_layers(self) -> None:
        """Show or hide items by kind; drop hidden or locked elements from the selection."""
        for item in self.items_by_ref.values():
            item.setVisible(self.layers.visible(E.kind_of(item.element)))
        self.doc.set_selection(self.doc.selection)

    def pickable(self, item: QGraphicsItem) -> bool:
        """An element item the tools may pick (its kind neither hidden nor locked)."""
        return isinstance(item, ElementItem) and self.layers.editable(self.doc.arena, item.ref)

    def sync_selection(self, refs: Iterable[str]) -> None:
        wanted = set(refs)
        self._syncing = True
        try:
            for ref, item in self.items_by_ref.items():
                item.setSelected(ref in wanted)
        finally:
            self._syncing = False

    def _scene_selection_changed(self) -> None:
        if self._syncing:
            return
        self.doc.set_selection([i.ref for i in self.selectedItems() if isinstance(i, ElementItem)])

    def set_severities(self, severities: dict[str, str]) -> None:
        self.severities = dict(severities)
        for ref, item in self.items_by_ref.items():
            item.set_severity(self.severities.get(ref))

    def set_label_pad(self, pad: float) -> None:
        if pad != self.label_pad:
            for item in self.items_by_ref.values():
                item.prepareGeometryChange()
            self.label_pad = pad

    def set_grid_visible(self, on: bool) -> None:
        self.grid_visible = on
        self.redraw_background()

    def redraw_background(self) -> None:
        """Repaint the floor, the outline and the grid. The views cache the background, and
        ``invalidate`` with a null rectangle never reaches that cache: a bounds edit that keeps
        the bounding box would leave the old outline on screen."""
        for view in self.views():
            view.resetCachedContent()
        self.invalidate(self.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)

    def fit_scene_rect(self, keep_visible: bool) -> None:
        """The scrollable area: the bounds with a margin, and (``keep_visible``) what every view
        shows now, so that a bounds edit never scrolls or re-centres the view."""
        rect = render.arena_rect(self.arena, 8.0)
        centres = []
        if keep_visible:
            for view in self.views():
                seen = view.mapToScene(view.viewport().rect()).boundingRect()
                centres.append((view, seen.center()))
                # with room around it: a scene smaller than the view is centred in it instead
                w, h = seen.width() / 2, seen.height() / 2
                rect = rect.united(seen.adjusted(-w, -h, w, h))
        if rect != self.sceneRect():
            self.setSceneRect(rect)
            for view, centre in centres:
                view.centerOn(centre)

    def element_at(self, pos: QPointF, transform: QTransform) -> ElementItem | None:
        """Topmost element under ``pos`` (its shape, with a few pixels of tolerance)."""
        for item in self.items(pos, Qt.ItemSelectionMode.IntersectsItemShape, Qt.SortOrder.DescendingOrder,
                               transform):
            if isinstance(item, ElementItem) and self.pickable(item):
                return item
        scale = abs(transform.m11()) or 1.0
        tol = 5.0 / scale
        probe = QRectF(pos.x() - tol, pos.y() - tol, 2 * tol, 2 * tol)
        for item in self.items(probe, Qt.ItemSelectionMode.IntersectsItemShape, Qt.SortOrder.DescendingOrder,
                               transform):
            if isinstance(item, ElementItem) and self.pickable(item):
                return item
        return None

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        rect = QRectF(rect)  # Qt passes a QRectF; the stubs allow a QRect too
        if not isinstance(self.arena, render.Bounded):  # a grid arena: its cells are the floor
            painter.fillRect(rect, render.OUTSIDE)
            return
        render.paint_background(painter, self.arena, rect, grid=self.grid_visible)


class ArenaView(QGraphicsView):
    cursorMoved = Signal(float, float)
    zoomChanged = Signal(float)
    #: A message for the status bar (tool feedback, refused edits; a tool's refusal is also shown
    #: on the canvas next to the cursor: :meth:`editor.tools.Tool.refuse`, :meth:`show_notice`).
    message = Signal(str)
    #: The Measure tool's reading for the status bar ("" when there is none).
    readout = Signal(str)

    MIN_SCALE, MAX_SCALE = 2.0, 800.0
    NOTICE_MS = 4000

    def __init__(self, scene: ArenaScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.arena_scene = scene
        self.tool: Tool | None = None
        self.snap_step = 0.5
        self.snap_enabled = True
        #: Snap to vertices and edges of other elements.
        self.object_snap = True
        self._pan_from: QPointF | None = None
        self._space = False
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        # repaint only what changed, over a cached grid: an edit or a new finding redraws its
        # elements, not the whole arena
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # always shown: a scroll bar appearing would shrink the view and shift the arena
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self._labels: tuple[object, list[render.Label]] = (None, [])
        self.set_scale(30.0)
        #: Where the cursor last was over the canvas (arena coordinates), for notices.
        self.cursor_at: QPointF | None = None
        self.notice = Notice()
        self.notice.hide()
        self._notice_timer = QTimer(self)
        self._notice_timer.setSingleShot(True)
        self._notice_timer.timeout.connect(self.notice.hide)

    def show_notice(self, text: str) -> None:
        """``text`` on the canvas under the cursor (the view's centre when the cursor has not been
        over it) for :attr:`NOTICE_MS`: a tool that did nothing says why where the designer looks."""
        if self.notice.scene() is not self.scene():
            self.scene().addItem(self.notice)
        at = self.cursor_at
        if at is None or not self.viewport().rect().contains(self.mapFromScene(at)):
            at = self.mapToScene(self.viewport().rect().center())
        self.notice.set_text(text)
        self.notice.setPos(at)
        self.notice.fit_in(QPointF(self.mapFromScene(at)), QRectF(self.viewport().rect()))
        self.notice.show()
        self._notice_timer.start(self.NOTICE_MS)

    # ---------------------------------------------------------------- labels

    def label_layout(self) -> list[render.Label]:
        """Every label the scene's items draw (those with ``labels_on_top``), in the viewport's
        pixels, in stacking order, each moved off the ones before it
        (:func:`editor.render.separated`): drawn over every item by :meth:`drawForeground`, so
        that no label hides under another element or overprints another label (issue 42,
        point 10: "F1" over checkpoint C, a Car Wars key's name under its car). Kept until an
        item, its labels or the view's transform change."""
        items = [it for it in self.scene().items(order=Qt.SortOrder.AscendingOrder)
                 if getattr(it, "labels_on_top", False) and it.isVisible()]
        t = self.viewportTransform()
        key = ((t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy()),
               tuple((id(it), it.pos().x(), it.pos().y(), it.effectiveOpacity(), it.label_key())  # type: ignore[attr-defined]
                     for it in items))
        if key == self._labels[0]:
            return self._labels[1]
        from PySide6.QtGui import QPicture

        collected: list[render.Label] = []
        picture = QPicture()
        painter = QPainter(picture)
        option = QStyleOptionGraphicsItem()
        for it in items:
            option.exposedRect = it.boundingRect()
            painter.setWorldTransform(it.sceneTransform() * t)
            painter.setOpacity(it.effectiveOpacity())  # a dimmed item's labels are dimmed too
            with render.collect_labels() as labels:
                it.paint(painter, option, None)
            collected += labels
        painter.end()
        layout = render.separated(collected)
        old = self._labels[1]
        self._labels = (key, layout)
        gone = {(r.rect.x(), r.rect.y(), r.rect.width(), r.rect.height(), r.text) for r in old} ^ \
               {(r.rect.x(), r.rect.y(), r.rect.width(), r.rect.height(), r.text) for r in layout}
        if old and gone:  # labels that moved without their item changing: their old and new places
            port = self.viewport()
            for x, y, w, h, _text in gone:
                port.update(QRectF(x, y, w, h).adjusted(-5, -3, 5, 3).toAlignedRect())
        return layout

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        super().drawForeground(painter, rect)
        for label in self.label_layout():
            render.paint_label(painter, label)

    # ---------------------------------------------------------------- zoom

    @property
    def scale_factor(self) -> float:
        """Pixels per length."""
        return abs(self.transform().m11())

    def set_scale(self, pixels_per_length: float) -> None:
        s = max(self.MIN_SCALE, min(self.MAX_SCALE, pixels_per_length))
        self.arena_scene.set_label_pad(max(LABEL_PAD, LABEL_PX / s))
        self.setTransform(QTransform.fromScale(s, -s))  # the y flip: arena y up, screen y down
        self.zoomChanged.emit(s)

    def zoom_by(self, factor: float) -> None:
        self.set_scale(self.scale_factor * factor)

    def zoom_100(self) -> None:
        """Actual size: one length drawn at its printed size (units.length_mm) on screen."""
        from editor.games.rulesets import printed_mm

        mm = printed_mm(self.arena_scene.arena)
        dpi = self.logicalDpiX() or 96
        self.set_scale(mm / 25.4 * dpi)

    def fit_arena(self) -> None:
        self.fit_rect(render.arena_rect(self.arena_scene.arena, 0.5))

    def fit_rect(self, rect: QRectF) -> None:
        vp = self.viewport().rect()
        if rect.width() <= 0 or rect.height() <= 0 or vp.width() <= 0:
            return
        s = min(vp.width() / rect.width(), vp.height() / rect.height()) * 0.95
        self.set_scale(s)
        self.arena_scene.fit_scene_rect(keep_visible=False)
        self.centerOn(rect.center())

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y()
        if delta:
            self.zoom_by(1.0015 ** delta)
        event.accept()

    # ---------------------------------------------------------------- input

    def arena_pos(self, event: QMouseEvent) -> QPointF:
        return self.mapToScene(event.position().toPoint())

    def _start_pan(self, event: QMouseEvent) -> None:
        self._pan_from = event.position()
        self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.setFocus()
        self.cursor_at = self.arena_pos(event)
        self.notice.hide()  # a new action: the last one's reason has been seen
        if event.button() == Qt.MouseButton.MiddleButton or (self._space and event.button() == Qt.MouseButton.LeftButton):
            self._start_pan(event)
            event.accept()
            return
        if self.tool is not None and event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self.tool.mouse_press(self.tool.event(event, self))
            event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        p = self.cursor_at = self.arena_pos(event)
        self.cursorMoved.emit(p.x(), p.y())
        if self._pan_from is not None:
            d = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(d.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(d.y()))
            event.accept()
            return
        if self.tool is not None:
            self.tool.mouse_move(self.tool.event(event, self))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self.cursor_at = self.arena_pos(event)
        if self._pan_from is not None and event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.LeftButton):
            self._pan_from = None
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        if self.tool is not None:
            self.tool.mouse_release(self.tool.event(event, self))

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self.tool is not None and event.button() == Qt.MouseButton.LeftButton:
            self.tool.mouse_double_click(self.tool.event(event, self))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if self.tool is not None and self.tool.key_press(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self._pan_from = None
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            return
        super().keyReleaseEvent(event)

    def set_tool(self, tool: Tool) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        tool.activate()
        self.viewport().setCursor(tool.cursor)
