"""The key of the analysis overlays, in a corner of the canvas: the heat map's bands (or
"computing…" while the map is worked out in the background) and the line of sight's start and
radius. Hidden when no overlay is shown. Every game's key goes to the corner where it covers
least of the arena (:func:`place_clear`: it covered the board's top-right at 1366 x 768, issue
42, point 10), top-right first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPixmap
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QProgressBar, QVBoxLayout, QWidget

from editor import render as R

MARGIN = 8
SWATCH = 14
#: A key's titles wrap at this width (pixels), so that the key fits beside the board.
TITLE_WIDTH = 180


def path_area(path: QPainterPath) -> float:
    """The area a path encloses (its fill polygons, shoelace)."""
    total = 0.0
    for poly in path.toFillPolygons():
        pts = [poly.at(i) for i in range(poly.size())]
        total += abs(sum(a.x() * b.y() - b.x() * a.y() for a, b in zip(pts, pts[1:] + pts[:1]))) / 2
    return total


def arena_outline(view: QWidget) -> QPainterPath:
    """The open arena's outline in the view's viewport pixels (its bounds; its extent for a
    grid arena)."""
    from editor import render

    scene = view.scene()  # type: ignore[attr-defined]
    arena = getattr(scene, "arena", None)
    path = QPainterPath()
    if arena is None:
        return path
    try:
        path = render.shape_path(arena.bounds)
    except (AttributeError, TypeError, ValueError):
        path.addRect(render.arena_rect(arena, 0.0))
    return view.mapFromScene(path)  # type: ignore[attr-defined, no-any-return]


def place_clear(legend: QWidget, view: QWidget, viewport: QWidget) -> None:
    """Move ``legend`` (a child of ``view``) to the corner of ``viewport`` where it covers the
    least of the arena: top-right, top-left, bottom-right, bottom-left, the first of the
    least covered; it stays in its corner while no other is clearer."""
    from shiboken6 import isValid

    if not (isValid(legend) and isValid(view) and isValid(viewport)):
        return  # the window is being torn down
    port = viewport.geometry()  # in the view's coordinates (inside rulers and frame)
    w, h = legend.width(), legend.height()
    corners = [QPoint(port.right() - w - MARGIN + 1, port.top() + MARGIN), QPoint(port.left() + MARGIN, port.top() + MARGIN),
               QPoint(port.right() - w - MARGIN + 1, port.bottom() - h - MARGIN + 1),
               QPoint(port.left() + MARGIN, port.bottom() - h - MARGIN + 1)]
    outline = arena_outline(view)

    def covered(at: QPoint) -> float:
        box = QPainterPath()
        box.addRect(QRectF(QRect(at - port.topLeft(), legend.size())))
        return path_area(outline.intersected(box)) if not outline.isEmpty() else 0.0

    areas = [covered(at) for at in corners]
    least = min(areas)
    here = legend.pos()
    # a pan or zoom moves the key only to a corner where it covers less (no jumping about)
    stay = here in corners and legend.isVisible() and areas[corners.index(here)] <= least + 0.5
    legend.move(here if stay else corners[areas.index(least)])
    legend.raise_()


def follow_view(legend: QWidget, view: QWidget, place: Callable[[], None]) -> None:
    """Call ``place()`` (a method of ``legend``: disconnected with it) whenever the view
    scrolls or zooms: the arena moves under the key."""
    for bar in (view.horizontalScrollBar(), view.verticalScrollBar()):  # type: ignore[attr-defined]
        bar.valueChanged.connect(place)
    zoom = getattr(view, "zoomChanged", None)
    if zoom is not None:
        zoom.connect(place)


def swatch(fill: QColor | QBrush, outline: QColor | None = None) -> QPixmap:
    pm = QPixmap(SWATCH, SWATCH)
    pm.fill(QColor("white"))
    p = QPainter(pm)
    p.setPen(R.pen(outline or R.INK, 1.5))
    p.setBrush(fill)
    p.drawRect(QRectF(0.5, 0.5, SWATCH - 1.5, SWATCH - 1.5))
    p.end()
    return pm


def sight_brush() -> QBrush:
    """The line of sight's fill: hatching, readable over the heat map's colours."""
    return QBrush(R.with_alpha(R.INK, 120), Qt.BrushStyle.BDiagPattern)


class CanvasLegend(QFrame):
    """A child of the view (not of its viewport, whose children scroll with the arena), kept in
    the viewport's top-right corner."""

    def __init__(self, view: QWidget, viewport: QWidget, bands: Sequence[tuple[float, str]]) -> None:
        """``bands``: the heat map's (upper bound in turns, colour), lowest first."""
        super().__init__(view)
        self.viewport = viewport
        self.setObjectName("overlay-legend")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet("#overlay-legend { background: rgba(255, 255, 255, 235); border: 1px solid #888; }")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        col = QVBoxLayout(self)
        col.setContentsMargins(8, 6, 8, 6)
        col.setSpacing(4)
        self.heat_title = QLabel()
        self.heat_title.setStyleSheet("font-weight: bold")
        self.heat_title.setWordWrap(True)
        self.heat_title.setMaximumWidth(TITLE_WIDTH)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)  # indeterminate: computing
        self.busy.setMaximumHeight(8)
        self.busy.setTextVisible(False)
        self.heat_rows = QWidget()
        grid = QGridLayout(self.heat_rows)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        lower = 0.0
        for i, (upper, colour) in enumerate(bands):
            icon = QLabel()
            c = QColor(colour)
            c.setAlpha(110)  # as the canvas layer paints it
            icon.setPixmap(swatch(c, QColor(colour)))
            grid.addWidget(icon, i, 0)
            grid.addWidget(QLabel(f"{lower:g}–{upper:g} turns"), i, 1)
            lower = upper
        grid.addWidget(QLabel(f"uncoloured: over {lower:g} turns"), len(bands), 0, 1, 2)
        grid.setColumnStretch(1, 1)  # the text right beside its swatch
        self.sight_title = QLabel()
        self.sight_title.setStyleSheet("font-weight: bold")
        self.sight_row = QWidget()
        row = QGridLayout(self.sight_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setHorizontalSpacing(6)
        icon = QLabel()
        icon.setPixmap(swatch(sight_brush(), R.VERMILLION))
        row.addWidget(icon, 0, 0)
        self.sight_text = QLabel()
        row.addWidget(self.sight_text, 0, 1)
        row.setColumnStretch(1, 1)
        for w in (self.heat_title, self.busy, self.heat_rows, self.sight_title, self.sight_row):
            col.addWidget(w)
        self.heat_state: tuple[int, str] | None = None  # (player, "computing" | "shown" | "failed")
        self.sight_state: tuple[int | None, float, str] | None = None
        view.installEventFilter(self)
        viewport.installEventFilter(self)
        follow_view(self, view, self._place)
        self._update()

    def set_heat(self, player: int | None, state: str = "shown") -> None:
        self.heat_state = None if player is None else (player, state)
        self._update()

    def set_sight(self, player: int | None, radius: float, note: str = "") -> None:
        """``player`` None with a ``note``: the mode waits for something (a selected start)."""
        self.sight_state = None if player is None and not note else (player, radius, note)
        self._update()

    def text(self) -> str:
        """Everything the legend says (tests, the automation probe)."""
        parts = [w.text() for w in self.findChildren(QLabel) if w.isVisibleTo(self) and w.text()]
        return " | ".join(parts)

    def _update(self) -> None:
        heat = self.heat_state
        self.heat_title.setVisible(heat is not None)
        self.busy.setVisible(heat is not None and heat[1] == "computing")
        self.heat_rows.setVisible(heat is not None and heat[1] == "shown")
        if heat is not None:
            player, state = heat
            self.heat_title.setText({"computing": f"Computing the heat map from start {player}…",
                                     "failed": f"Heat map from start {player} failed"}.get(
                state, f"Heat map from start {player}: turns to end a length there"))
        sight = self.sight_state
        self.sight_title.setVisible(sight is not None)
        self.sight_row.setVisible(sight is not None and sight[0] is not None)
        if sight is not None:
            seer, radius, note = sight
            self.sight_title.setText(f"Line of sight from start {seer}" if seer is not None else note)
            self.sight_text.setText(f"seen within {radius:g} lengths")
        self.setVisible(heat is not None or sight is not None)
        self.adjustSize()
        self._place()

    def _place(self, *_changed: object) -> None:
        view = self.parentWidget()
        assert view is not None  # made as the view's child
        place_clear(self, view, self.viewport)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self._place()
        return False
