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
from PySide6.QtWidgets import QDockWidget, QLabel, QSizePolicy, QUndoView, QWidget

from editor.games.rulesets import units_name, units_symbol
from editor.layers import LayersPanel
from editor.panels import ElementTree, Inspector, ValidationPanel
from editor.settings_panels import ArenaPanel, ScenarioPanel

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow
    from editor.window_files import FileRoom

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


def build_status(win: MainWindow) -> None:
    """Tool hint (a temporary message replaces it for a few seconds), the Measure readout,
    symmetry, cursor position and zoom."""
    bar = win.statusBar()
    win.hint_label = HintLabel()
    win.hint_label.setObjectName("tool-hint")
    win.measure_label = QLabel()
    win.measure_label.setObjectName("measure")
    win.measure_label.setStyleSheet("font-weight: bold")
    win.measure_label.hide()
    win.symmetry_label = QLabel()
    win.symmetry_label.setObjectName("symmetry")
    win.pos_label = QLabel("x –  y –")
    win.pos_label.setObjectName("position")
    win.zoom_label = QLabel()
    win.zoom_label.setObjectName("zoom")
    bar.addWidget(win.hint_label, 1)  # a normal widget: hidden while a message shows
    for label in (win.measure_label, win.symmetry_label, win.pos_label, win.zoom_label):
        bar.addPermanentWidget(label)
    win.view.cursorMoved.connect(lambda x, y: show_position(win, (x, y)))
    win.view.zoomChanged.connect(lambda s: win.zoom_label.setText(f"{s:.0f} px/{units_symbol(win.doc.arena)}"))
    win.view.message.connect(lambda m: bar.showMessage(m, 6000))
    win.doc.notice.connect(lambda m: bar.showMessage(m, 12000))
    win.view.readout.connect(lambda text: set_readout(win, text))
    show_units(win)


def show_position(win: MainWindow, at: tuple[float, float] | None) -> None:
    """The cursor's position in the status bar, in the document's unit (None: not over the canvas)."""
    unit = units_symbol(win.doc.arena)
    win.pos_label.setText(f"x –  y – {unit}" if at is None else f"x {at[0]:7.2f}  y {at[1]:7.2f} {unit}")


def show_units(win: MainWindow) -> None:
    """Every unit the status and tool bars print, in the document's game's unit (its ruleset's
    symbol): the cursor position (until the mouse moves again: no position), the zoom, the
    rulers' corner and the snapping step. Called when the document's game changes."""
    unit = units_symbol(win.doc.arena)
    show_position(win, None)
    win.zoom_label.setText(f"{win.view.scale_factor:.0f} px/{unit}")
    if hasattr(win, "rulers"):
        win.rulers.set_unit(unit)
    if hasattr(win, "snap_box"):  # built after the status bar
        win.snap_box.setSuffix(f" {unit}")
        win.snap_box.setToolTip(f"Grid snapping step in {units_name(win.doc.arena)} "
                                "(0 = off; hold Ctrl to disable while drawing)")


def set_readout(win: MainWindow, text: str) -> None:
    """The Measure tool's distance in the status bar (empty: hidden)."""
    win.measure_label.setText(text)
    win.measure_label.setVisible(bool(text))


def add_dock(win: MainWindow, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
    dock = QDockWidget(title, win)
    dock.setObjectName(title)
    dock.setWidget(widget)
    win.addDockWidget(area, dock)
    return dock


def build_docks(win: MainWindow) -> None:
    win.tree = ElementTree(win.doc)
    win.inspector = Inspector(win.doc)
    win.history = QUndoView(win.doc.undo_stack)
    win.validation = ValidationPanel(win.runner)
    win.layers_panel = LayersPanel(win.scene.layers, win.doc.arena)
    win.doc.arenaChanged.connect(win.layers_panel.set_counts)
    win.scene.layers.changed.connect(lambda: win.tree.rebuild(win.doc.arena, force=True))
    win.tree.frameRequested.connect(win.frame_refs)
    win.inspector.message.connect(lambda m: win.statusBar().showMessage(m, 6000))
    win.validation.findingActivated.connect(win.show_refs)
    win.arena_panel = ArenaPanel(win.doc)
    win.scenario_panel = ScenarioPanel(win.doc)
    for panel in (win.arena_panel, win.scenario_panel):
        panel.message.connect(lambda m: win.statusBar().showMessage(m, 6000))
    left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                           Qt.DockWidgetArea.BottomDockWidgetArea)
    win.docks = {"elements": add_dock(win, "Elements", win.tree, left),
                 "layers": add_dock(win, "Layers", win.layers_panel, left),
                 "inspector": add_dock(win, "Inspector", win.inspector, right),
                 "validation": add_dock(win, "Validation", win.validation, bottom),
                 "history": add_dock(win, "History", win.history, bottom),
                 "arena": add_dock(win, "Arena", win.arena_panel, right),
                 "scenario": add_dock(win, "Scenario", win.scenario_panel, right)}
    # the element tree runs the whole height (issue 42, point 10: ~15 rows were visible at
    # 1366 x 768 under a full-width bottom dock); the findings run under the canvas and the
    # inspector (their messages on one or two lines)
    win.setCorner(Qt.Corner.BottomLeftCorner, left)
    win.setCorner(Qt.Corner.BottomRightCorner, bottom)
    win.tabifyDockWidget(win.docks["elements"], win.docks["layers"])
    win.docks["elements"].raise_()
    win.tabifyDockWidget(win.docks["inspector"], win.docks["arena"])
    win.tabifyDockWidget(win.docks["arena"], win.docks["scenario"])
    win.tabifyDockWidget(win.docks["validation"], win.docks["history"])
    win.docks["inspector"].raise_()


def default_sizes(win: MainWindow) -> None:
    """Dock sizes for the window's current size (1366 x 768 and up): side columns wide enough
    for the forms, several findings visible, the canvas keeping the rest."""
    w, h = win.width(), win.height()
    side_l = max(190, min(250, int(w * 0.16)))
    side_r = max(290, min(360, int(w * 0.23)))
    bottom = max(190, min(300, int(h * 0.28)))
    win.resizeDocks([win.docks["elements"], win.docks["inspector"]], [side_l, side_r], Qt.Orientation.Horizontal)
    win.resizeDocks([win.docks["validation"]], [bottom], Qt.Orientation.Vertical)


def restore_layout(win: MainWindow) -> bool:
    """The designer's saved layout, if any (and saved by this layout version)."""
    geometry, state = win.settings.value(GEOMETRY_KEY), win.settings.value(STATE_KEY)
    if not isinstance(state, QByteArray) or not isinstance(geometry, QByteArray):
        return False
    return win.restoreGeometry(geometry) and win.restoreState(state, LAYOUT_VERSION)


def save_layout(win: FileRoom) -> None:
    win.settings.setValue(GEOMETRY_KEY, win.saveGeometry())
    win.settings.setValue(STATE_KEY, win.saveState(LAYOUT_VERSION))
    win.settings.sync()
