"""The main window's docks and status bar (a room of :class:`editor.mainwindow.MainWindow`):
which panel goes where, default sizes that work from 1366 x 768 up, and the designer's own
layout (dock places and sizes, window geometry) kept across sessions in the settings.

Default layout: *Elements* and *Layers* tabs down the whole left side (the element tree lists
a few dozen rows at 1366 x 768 without scrolling); *Inspector* / *Arena* / *Scenario* tabs on
the right; *Validation* / *Travel times* / *History* tabs along the bottom, between the side
columns, tall enough for several findings (their messages wrap in the width there is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSize, Qt
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QSizePolicy, QUndoView, QWidget

from editor.games.rulesets import units_name, units_symbol
from editor.layers import LayersPanel
from editor.panels import ElementTree, Inspector, ValidationPanel
from editor.settings_panels import ArenaPanel, ScenarioPanel

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from editor.canvas import ArenaScene, ArenaView
    from editor.document import ArenaDocument
    from editor.validation import ValidationRunner

#: Bumped when the docks change, so that a layout saved by an older version is not restored.
LAYOUT_VERSION = 4
GEOMETRY_KEY, STATE_KEY = "window/geometry", "window/state"
#: The window's size on a first start (within the screen).
DEFAULT_SIZE = QSize(1400, 900)


def default_size() -> QSize:
    """The first window size: :data:`DEFAULT_SIZE`, or the screen's free area if smaller."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return DEFAULT_SIZE
    free = screen.availableGeometry().size()
    return QSize(min(DEFAULT_SIZE.width(), free.width()), min(DEFAULT_SIZE.height(), free.height()))


if TYPE_CHECKING:  # the room is mixed into the main window: typed as the QMainWindow it is part of
    _Window = QMainWindow
else:
    _Window = object


class HintLabel(QLabel):
    """The tool hint: takes the status bar's free width and wraps onto as many lines as its
    text needs there, rather than being cut off by the permanent widgets (symmetry, cursor,
    zoom, game) at 1366 x 768 (issue 42, point 10).  It keeps two lines from the start and is
    as tall as the longest of the palette's hints (:meth:`set_hints`), so picking another tool
    never resizes the canvas."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.hints: list[str] = []

    def set_hints(self, hints: list[str]) -> None:
        """Every hint the label will show (the palette's): its height is the tallest's."""
        self.hints = list(hints)
        self.updateGeometry()
        self._reserve()

    def _reserve(self) -> None:
        """Keep the status bar as tall as with the hint shown, also while a message hides it
        (the canvas must not grow and shrink with every message)."""
        bar = self.parentWidget()
        if bar is None:
            return
        rest = max((w.sizeHint().height() for w in bar.findChildren(QWidget) if w is not self and w.parentWidget() is bar
                    and w.isVisibleTo(bar)), default=0)
        bar.setMinimumHeight(max(self._height(), rest) + 8)  # the bar's own margins above and below

    def hasHeightForWidth(self) -> bool:
        return False  # the height follows the width the bar gives (sizeHint), not the layout's guess

    def _height(self) -> int:
        width = self.contentsRect().width()
        if width < 200:  # not laid out yet (or a window too narrow to wrap in): two lines
            width = 100_000
        flags = int(Qt.TextFlag.TextWordWrap)
        tallest = max((self.fontMetrics().boundingRect(0, 0, width, 100_000, flags, t).height()
                       for t in [*self.hints, self.text()]), default=0)
        margins = self.contentsMargins()
        two_lines = self.fontMetrics().lineSpacing() + self.fontMetrics().height()  # room kept from the start
        return max(two_lines, tallest) + margins.top() + margins.bottom()

    def sizeHint(self) -> QSize:
        return QSize(self.width(), self._height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self._height())

    def setText(self, text: str) -> None:
        super().setText(text)
        self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._height() != self.height():
            self.updateGeometry()
        self._reserve()


class LayoutRoom(_Window):
    """Mixed into the main window (``self`` is the :class:`~editor.mainwindow.MainWindow`): its
    status bar, docks and their layout."""

    if TYPE_CHECKING:  # the window parts this room uses, made in MainWindow.__init__
        settings: QSettings
        doc: ArenaDocument
        runner: ValidationRunner
        scene: ArenaScene
        view: ArenaView

        def frame_refs(self, refs: list[str]) -> None: ...
        def show_refs(self, refs: list[str]) -> None: ...

    def build_status(self) -> None:
        """Tool hint (a temporary message replaces it for a few seconds), the Measure readout,
        symmetry, cursor position and zoom."""
        bar = self.statusBar()
        self.hint_label = HintLabel()
        self.hint_label.setObjectName("tool-hint")
        self.measure_label = QLabel()
        self.measure_label.setObjectName("measure")
        self.measure_label.setStyleSheet("font-weight: bold")
        self.measure_label.hide()
        self.symmetry_label = QLabel()
        self.symmetry_label.setObjectName("symmetry")
        self.pos_label = QLabel("x –  y –")
        self.pos_label.setObjectName("position")
        self.zoom_label = QLabel()
        self.zoom_label.setObjectName("zoom")
        bar.addWidget(self.hint_label, 1)  # a normal widget: hidden while a message shows
        for label in (self.measure_label, self.symmetry_label, self.pos_label, self.zoom_label):
            bar.addPermanentWidget(label)
        self.view.cursorMoved.connect(lambda x, y: self.show_position((x, y)))
        self.view.zoomChanged.connect(lambda s: self.zoom_label.setText(f"{s:.0f} px/{units_symbol(self.doc.arena)}"))
        self.view.message.connect(lambda m: bar.showMessage(m, 6000))
        self.doc.notice.connect(lambda m: bar.showMessage(m, 12000))
        self.view.readout.connect(lambda text: self.set_readout(text))
        self.show_units()

    def show_position(self, at: tuple[float, float] | None) -> None:
        """The cursor's position in the status bar, in the document's unit (None: not over the canvas)."""
        unit = units_symbol(self.doc.arena)
        self.pos_label.setText(f"x –  y – {unit}" if at is None else f"x {at[0]:7.2f}  y {at[1]:7.2f} {unit}")

    def show_units(self) -> None:
        """Every unit the status and tool bars print, in the document's game's unit (its ruleset's
        symbol): the cursor position (until the mouse moves again: no position), the zoom, the
        rulers' corner and the snapping step. Called when the document's game changes."""
        unit = units_symbol(self.doc.arena)
        self.show_position(None)
        self.zoom_label.setText(f"{self.view.scale_factor:.0f} px/{unit}")
        if hasattr(self, "rulers"):
            self.rulers.set_unit(unit)
        if hasattr(self, "snap_box"):  # built after the status bar
            self.snap_box.setSuffix(f" {unit}")
            self.snap_box.setToolTip(f"Grid snapping step in {units_name(self.doc.arena)} "
                                    "(0 = off; hold Ctrl to disable while drawing)")

    def set_readout(self, text: str) -> None:
        """The Measure tool's distance in the status bar (empty: hidden)."""
        self.measure_label.setText(text)
        self.measure_label.setVisible(bool(text))

    def add_dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def build_docks(self) -> None:
        self.tree = ElementTree(self.doc)
        self.inspector = Inspector(self.doc)
        self.history = QUndoView(self.doc.undo_stack)
        self.validation = ValidationPanel(self.runner)
        self.layers_panel = LayersPanel(self.scene.layers, self.doc.arena)
        self.doc.arenaChanged.connect(self.layers_panel.set_counts)
        self.scene.layers.changed.connect(lambda: self.tree.rebuild(self.doc.arena, force=True))
        self.tree.frameRequested.connect(self.frame_refs)
        self.inspector.message.connect(lambda m: self.statusBar().showMessage(m, 6000))
        self.validation.findingActivated.connect(self.show_refs)
        self.arena_panel = ArenaPanel(self.doc)
        self.scenario_panel = ScenarioPanel(self.doc)
        for panel in (self.arena_panel, self.scenario_panel):
            panel.message.connect(lambda m: self.statusBar().showMessage(m, 6000))
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)
        self.docks = {"elements": self.add_dock("Elements", self.tree, left),
                     "layers": self.add_dock("Layers", self.layers_panel, left),
                     "inspector": self.add_dock("Inspector", self.inspector, right),
                     "validation": self.add_dock("Validation", self.validation, bottom),
                     "history": self.add_dock("History", self.history, bottom),
                     "arena": self.add_dock("Arena", self.arena_panel, right),
                     "scenario": self.add_dock("Scenario", self.scenario_panel, right)}
        # the element tree runs the whole height (issue 42, point 10: ~15 rows were visible at
        # 1366 x 768 under a full-width bottom dock); the findings run under the canvas and the
        # inspector (their messages on one or two lines)
        self.setCorner(Qt.Corner.BottomLeftCorner, left)
        self.setCorner(Qt.Corner.BottomRightCorner, bottom)
        self.tabifyDockWidget(self.docks["elements"], self.docks["layers"])
        self.docks["elements"].raise_()
        self.tabifyDockWidget(self.docks["inspector"], self.docks["arena"])
        self.tabifyDockWidget(self.docks["arena"], self.docks["scenario"])
        self.tabifyDockWidget(self.docks["validation"], self.docks["history"])
        self.docks["inspector"].raise_()

    def default_sizes(self) -> None:
        """Dock sizes for the window's current size (1366 x 768 and up): side columns wide enough
        for the forms, several findings visible, the canvas keeping the rest."""
        w, h = self.width(), self.height()
        side_l = max(190, min(250, int(w * 0.16)))
        side_r = max(290, min(360, int(w * 0.23)))
        bottom = max(190, min(300, int(h * 0.28)))
        self.resizeDocks([self.docks["elements"], self.docks["inspector"]], [side_l, side_r], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["validation"]], [bottom], Qt.Orientation.Vertical)

    def restore_layout(self) -> bool:
        """The designer's saved layout, if any (and saved by this layout version)."""
        geometry, state = self.settings.value(GEOMETRY_KEY), self.settings.value(STATE_KEY)
        if not isinstance(state, QByteArray) or not isinstance(geometry, QByteArray):
            return False
        return self.restoreGeometry(geometry) and self.restoreState(state, LAYOUT_VERSION)

    def save_layout(self) -> None:
        self.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        self.settings.setValue(STATE_KEY, self.saveState(LAYOUT_VERSION))
        self.settings.sync()


__all__ = ["LayoutRoom", "default_size"]
