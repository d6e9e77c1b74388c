"""The Arena Studio main window: canvas, tool bar, menus and editing. Its other rooms: files
(:mod:`editor.window_files`), docks and status bar (:class:`editor.window_layout.LayoutRoom`), focus
(:mod:`editor.focus`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence, QShowEvent
from PySide6.QtWidgets import QComboBox, QDockWidget, QDoubleSpinBox, QLabel, QMainWindow, QToolBar, QWidget

from editor import balance, busy, combo_popup, export_menu, focus, generate, overlays, probe, robustness, simulate_play
from editor.games import window as game_window
from editor import commands as C
from editor import elements as E
from editor import files as F
from editor.actions import ActionsRoom
from editor.window_layout import LayoutRoom, default_size
from editor.canvas import ArenaScene, ArenaView
from editor.document import ArenaDocument
from editor.games.io import dumps
from schema.ruleset import default_system
from editor.panels import severities
from editor.rulers import Rulers
from editor.tools import Tool
from editor.game import editor_game, first_game, game_of
from editor.validation import Analyse, ValidationRunner
from editor.window_files import FILE_FILTER, FileRoom  # noqa: F401 - FILE_FILTER: its old home

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoCommand
    from PySide6.QtWidgets import QMenu, QUndoView

    from editor.actions import ShortcutsDialog
    from editor.layers import LayersPanel
    from editor.panels import ElementTree, Inspector, ValidationPanel
    from editor.settings_panels import ArenaPanel, ScenarioPanel
    from editor.user_guide import UserGuide
    from editor.window_layout import HintLabel


def redo_shortcuts(platform: list[QKeySequence]) -> list[QKeySequence]:
    """The platform's redo keys (Ctrl+Shift+Z alone on X11 without a desktop theme) and Ctrl+Y,
    each once (a key bound twice to one action is ambiguous and does nothing)."""
    out = list(platform)
    if QKeySequence("Ctrl+Y") not in out:
        out.append(QKeySequence("Ctrl+Y"))
    return out


def shortcuts_in_tooltips(win: QMainWindow) -> None:
    """Every tool bar button's tooltip names its key ("Fit arena (Ctrl+0)"), as its menu entry
    does (issue 42, point 11); a tooltip that names it already is kept."""
    for bar in win.findChildren(QToolBar):
        for act in bar.actions():
            keys = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if keys and keys not in act.toolTip():
                first, _, rest = act.toolTip().partition("\n")
                act.setToolTip(f"{first} ({keys})" + (f"\n{rest}" if rest else ""))


class MainWindow(FileRoom, LayoutRoom, ActionsRoom, QMainWindow):
    """Canvas, tool bar, menus and editing; the files are in :class:`~editor.window_files.FileRoom`,
    the docks and status bar in :class:`~editor.window_layout.LayoutRoom`, focus in :mod:`editor.focus`."""

    # the widgets the other rooms add (:func:`editor.window_layout.build_status`, ``build_docks``;
    # :func:`editor.actions.install`), declared here with their types
    hint_label: HintLabel
    measure_label: QLabel
    symmetry_label: QLabel
    pos_label: QLabel
    zoom_label: QLabel
    tree: ElementTree
    inspector: Inspector
    history: QUndoView
    validation: ValidationPanel
    layers_panel: LayersPanel
    arena_panel: ArenaPanel
    scenario_panel: ScenarioPanel
    docks: dict[str, QDockWidget]
    template_menu: QMenu
    shortcuts_dialog: ShortcutsDialog
    user_guide: UserGuide

    def __init__(self, settings: QSettings | None = None, recovery: F.RecoveryStore | None = None,
                 analyse: Analyse | None = None, autosave_ms: int | None = None) -> None:
        super().__init__()
        combo_popup.install()  # every combo box drops its list below itself
        self.settings = settings or QSettings("Arena Studio", "Arena Studio")
        self.recovery = recovery or F.RecoveryStore()
        first = first_game()  # the game a new window edits (File → New's first)
        self.doc = ArenaDocument(first.new_arena(), None, self)
        self.runner = ValidationRunner(analyse if analyse is not None else first.analysis(), self)
        # the first slot of an edit: the validation workers start on it before the canvas, the
        # panels and the overlays redraw (6-28 ms of a Car Wars card drag)
        self.doc.arenaChanged.connect(self._arena_changed)
        self.scene = ArenaScene(self.doc, self)
        self.view = ArenaView(self.scene, self)
        self.setCentralWidget(self.view)
        self.tools: dict[str, Tool] = {cls.name: cls(self.view, self.doc) for cls in first.tool_classes()}
        self.last_error = ""
        self.resize(default_size())
        self.setAcceptDrops(True)
        self.rulers = Rulers(self.view)
        self.build_status()
        self.build_docks()
        self._build_actions()
        self.tree.deleteRequested.connect(self.delete_elements)  # Delete in the Elements list
        self._build_toolbar()
        self.install_actions()
        self.overlays = overlays.install(self)
        self.exports = export_menu.install(self)
        self.focus = focus.install(self)
        self.robustness = robustness.install(self)  # Analysis → Tabletop robustness…
        self.simulation = simulate_play.install(self)  # Analysis → Simulate play…, the Simulated play dock
        self.fixes = balance.install(self)  # the Validation panel's "Propose fix"
        self.generator = generate.install(self)  # File → Generate arena…
        self.busy = busy.install(self)  # "validating…" in the status bar while a run takes long
        self.set_tool("select")
        self.game = game_window.install(self)  # the palette, units and title follow the arena's game
        self._layout_restored = self.restore_layout()
        self._sized = self._layout_restored
        self.probe = probe.install(self)  # ARENA_STUDIO_PROBE: state for automation
        shortcuts_in_tooltips(self)  # the tool bars other rooms filled too
        self.doc.arenaChanged.connect(lambda _a: self.update_symmetry_label())
        self.doc.dirtyChanged.connect(lambda _d: self._update_title())
        self.doc.pathChanged.connect(lambda _p: self._update_title())
        self.runner.finished.connect(lambda fs: self.scene.set_severities(severities(fs)))
        # the recovery copy, written shortly after every change (editor.files.Autosaver);
        # autosave_ms None: ARENA_STUDIO_AUTOSAVE_MS, else editor.files.AUTOSAVE_MS
        self.autosaver = F.Autosaver(self.recovery, lambda: (self.doc.dirty, self.doc.arena, self.doc.path),
                                     dumps, autosave_ms, self)
        for signal in (self.doc.arenaChanged, self.doc.dirtyChanged, self.doc.pathChanged):
            signal.connect(self.autosaver.changed)
        self.autosaver.failed.connect(self.autosave_failed)  # queued: from the autosave thread
        self._update_title()
        self.doc.activeCountChanged.connect(lambda _count: self.validate())
        arena, self.runner.pending_note = self.judged()
        self.runner.run_now(arena)

    # ---------------------------------------------------------------- construction

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:  # the first show without a saved layout: sizes for this screen
            self._sized = True
            self.default_sizes()

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        return self.add_dock(title, widget, area)

    def _action(self, text: str, slot: Callable[[], object],
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                widget: QWidget | None = None) -> QAction:
        act = QAction(text, widget or self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(lambda _checked=False: slot())
        if widget is not None:
            act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            widget.addAction(act)
        return act

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        a = self._action
        self.act = {
            "new": a("&New arena…", self.new_arena, K.New),
            "new_empty": a(f"New empty &{editor_game(default_system()).label()} arena", lambda: self.new_document(False)),
            "new_default": a("New from &default arena", lambda: self.new_document(True), "Ctrl+Shift+N"),
            "open": a("&Open…", self.open_dialog, K.Open),
            "import": a("&Import…", self.import_dialog),
            "save": a("&Save", self.save, K.Save),
            "save_as": a("Save &as…", self.save_as, K.SaveAs),
            "quit": a("&Quit", self.close, K.Quit),
            "cut": a("Cu&t", self.cut, K.Cut),
            "copy": a("&Copy", self.copy, K.Copy),
            "paste": a("&Paste", self.paste, K.Paste),
            "duplicate": a("D&uplicate", self.duplicate, "Ctrl+D"),
            "delete": a("&Delete", self.delete_selection, K.Delete, self.view),
            "select_all": a("Select &all", self.select_all, K.SelectAll),
            "fit": a("&Fit arena", self.view.fit_arena, "Ctrl+0"),
            "zoom_100": a("Actual size (&100 %)", self.view.zoom_100, "Ctrl+1"),
            "zoom_in": a("Zoom &in", lambda: self.view.zoom_by(1.25), K.ZoomIn),
            "zoom_out": a("Zoom &out", lambda: self.view.zoom_by(0.8), K.ZoomOut),
        }
        self.act["undo"] = self.doc.undo_stack.createUndoAction(self, "&Undo")
        self.act["undo"].setShortcut(K.Undo)
        self.act["redo"] = self.doc.undo_stack.createRedoAction(self, "&Redo")
        self.act["redo"].setShortcuts(redo_shortcuts(QKeySequence.keyBindings(K.Redo)))
        for key, (dx, dy) in {"Left": (-1, 0), "Right": (1, 0), "Up": (0, 1), "Down": (0, -1)}.items():
            self.act[f"nudge_{key}"] = a(f"Nudge {key.lower()}", partial(self.nudge, dx, dy), key, self.view)
            self.act[f"nudge_big_{key}"] = a(f"Nudge {key.lower()} ×10", partial(self.nudge, dx * 10, dy * 10),
                                             f"Shift+{key}", self.view)
        self.grid_act = QAction("Show &grid", self, checkable=True, checked=True)
        self.grid_act.toggled.connect(self._set_grid)

        mb = self.menuBar()
        m = mb.addMenu("&File")
        self.menus = {"file": m}
        for k in ("new", "new_empty", "new_default", "open", "import"):
            m.addAction(self.act[k])
        self.recent_menu = m.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        for k in ("save", "save_as"):
            m.addAction(self.act[k])
        m.addSeparator()
        m.addAction(self.act["quit"])
        m = self.menus["edit"] = mb.addMenu("&Edit")
        for entry in ("undo", "redo", None, "cut", "copy", "paste", "duplicate", "delete", "select_all", None):
            m.addAction(self.act[entry]) if entry else m.addSeparator()
        nudge = m.addMenu("&Nudge")
        for k in [k for k in self.act if k.startswith("nudge_")]:
            nudge.addAction(self.act[k])
        m = self.menus["view"] = mb.addMenu("&View")
        for k in ("fit", "zoom_100", "zoom_in", "zoom_out"):
            m.addAction(self.act[k])
        m.addAction(self.grid_act)
        m.addSeparator()
        for dock in self.docks.values():
            m.addAction(dock.toggleViewAction())
        self.tools_menu = mb.addMenu("&Tools")

    def _build_toolbar(self) -> None:
        self.tools_bar = tb = self.addToolBar("Tools")
        tb.setObjectName("Tools")
        self.tool_actions: dict[str, QAction] = {}
        self._fill_tool_actions()
        self.addToolBarBreak()
        tb = self.addToolBar("Tool options")
        tb.setObjectName("Tool options")
        self.mode_label = QLabel(" Shape ")
        tb.addWidget(self.mode_label)
        self.mode_box = QComboBox()
        self.mode_box.setToolTip("Shape of the element the tool draws")
        self.mode_box.currentTextChanged.connect(self._set_mode)
        tb.addWidget(self.mode_box)
        #: The game's kinds of new elements (:meth:`editor.game.EditorGame.tool_kinds`) and the snap
        #: step: hidden where the game has no use for them
        self.kind_actions = [tb.addWidget(QLabel(" Kind "))]
        self.kind_box = QComboBox()
        self.kind_box.addItems(list(game_of(self.doc.arena).tool_kinds()))
        self.kind_box.setToolTip("Kind of the new elements the tool draws")
        self.kind_box.currentTextChanged.connect(self._set_kind)
        self.kind_actions.append(tb.addWidget(self.kind_box))
        tb.addSeparator()
        self.snap_actions = [tb.addWidget(QLabel(" Snap "))]
        self.snap_box = QDoubleSpinBox()
        self.snap_box.setRange(0.0, 10.0)
        self.snap_box.setSingleStep(0.25)
        self.snap_box.setValue(self.view.snap_step)
        self.snap_box.setSpecialValueText("off")
        self.snap_box.valueChanged.connect(self._set_snap)
        self.snap_actions.append(tb.addWidget(self.snap_box))
        self.show_units()  # the snap box's unit and tool tip
        tb.addAction(self.act["fit"])
        tb.addAction(self.act["zoom_100"])
        shortcuts_in_tooltips(self)

    def _fill_tool_actions(self) -> None:
        """The palette's actions for :attr:`tools` (again when the game changes)."""
        for act in self.tool_actions.values():
            self.tools_bar.removeAction(act)
            self.tools_menu.removeAction(act)
            act.deleteLater()
        group = QActionGroup(self)
        self.tool_actions = {}
        for name, tool in self.tools.items():
            act = QAction(tool.label, self, checkable=True)
            act.setShortcut(QKeySequence(tool.shortcut))
            act.setToolTip(tool.tooltip())
            act.setStatusTip(tool.description)
            act.triggered.connect(lambda _c=False, n=name: self.set_tool(n))
            group.addAction(act)
            self.tools_bar.addAction(act)
            self.tools_menu.addAction(act)
            self.tool_actions[name] = act
        shortcuts_in_tooltips(self)
        self.hint_label.set_hints([self.tool_hint(t) for t in self.tools.values()])

    # ---------------------------------------------------------------- tools and view

    def set_tool(self, name: str) -> None:
        tool = self.tools[name]
        self.view.set_tool(tool)
        self.tool_actions[name].setChecked(True)
        self.mode_box.blockSignals(True)
        self.mode_box.clear()
        self.mode_box.addItems(list(tool.modes))
        if tool.modes:
            self.mode_box.setCurrentText(tool.mode)
        self.mode_box.setEnabled(bool(tool.modes))
        self.mode_box.blockSignals(False)
        self.mode_label.setText(f" {tool.mode_title} ")
        choices = list(game_of(self.doc.arena).tool_kinds())
        if choices != [self.kind_box.itemText(i) for i in range(self.kind_box.count())]:
            self.kind_box.blockSignals(True)
            self.kind_box.clear()
            self.kind_box.addItems(choices)
            self.kind_box.blockSignals(False)
        kinds = bool(choices) and any(hasattr(t, "kind") for t in self.tools.values())
        for a in self.kind_actions:
            a.setVisible(kinds)
        self.kind_box.setEnabled(hasattr(tool, "kind"))
        self.hint_label.setText(self.tool_hint(tool))

    def select_all(self) -> None:
        """Select every element of the arena."""
        elements: tuple[Any, ...] = self.doc.arena.elements()
        self.doc.set_selection([str(e.id) for e in elements])

    @staticmethod
    def tool_hint(tool: Tool) -> str:
        """The status bar's hint for ``tool``."""
        return f"{tool.title()}: {tool.description}"

    def _set_mode(self, mode: str) -> None:
        tool = self.view.tool
        if tool is not None and mode in tool.modes:
            tool.cancel()
            tool.mode = mode

    def _set_kind(self, kind: str) -> None:
        for tool in self.tools.values():
            if hasattr(tool, "kind"):
                tool.kind = kind

    def _set_snap(self, step: float) -> None:
        self.view.snap_step = step
        self.view.snap_enabled = step > 0

    def _set_grid(self, on: bool) -> None:
        self.scene.set_grid_visible(on)

    def frame_refs(self, refs: list[str]) -> None:
        boxes = [E.bounds_of(el) for r in refs if (el := E.find(self.doc.arena, r)) is not None]
        if not boxes:
            return
        from PySide6.QtCore import QRectF

        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        pad = max(2.0, 0.3 * max(x1 - x0, y1 - y0))
        self.view.fit_rect(QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad))

    def show_refs(self, refs: list[str]) -> None:
        """Select and frame elements (clicking a finding)."""
        self.doc.set_selection(refs)
        self.frame_refs(refs)

    def judged(self) -> tuple[Any, str]:
        """(the arena live validation judges, which count): the arena with only the active player
        count's starts, as ``arena validate --players N`` judges it, or the arena as it stands
        (:func:`editor.start_sets.judged`)."""
        from editor.start_sets import judged

        return judged(self.doc.arena, self.doc.active_count)

    def validate(self) -> None:
        """Ask live validation for the arena as it is judged now (:meth:`judged`)."""
        arena, self.runner.pending_note = self.judged()
        from editor.start_sets import set_aside

        self.runner.pending_drop = set_aside(self.doc.arena, self.doc.active_count)
        self.runner.request(arena)

    def _arena_changed(self, arena: object) -> None:
        self.validate()
        self._update_title()

    def _update_title(self) -> None:
        from editor.games.rulesets import game_label

        self.setWindowTitle(f"{self.doc.display_name()}[*] — {self.doc.arena.name} — {game_label(self.doc.arena)}"
                            " — Arena Studio")
        self.setWindowModified(self.doc.dirty)

    # ---------------------------------------------------------------- editing

    def _push(self, make: Callable[[], QUndoCommand]) -> bool:
        try:
            cmd = make()
        except ValueError as exc:
            self.statusBar().showMessage(str(exc), 6000)
            return False
        self.doc.push(cmd)
        return True

    def delete_selection(self) -> None:
        tool = self.view.tool
        if tool is not None and hasattr(tool, "delete_key") and tool.delete_key():
            return  # the vertex tool deleted (or refused to delete) a vertex
        self.delete_elements()

    def delete_elements(self) -> bool:
        """Delete the selected elements (one undo step); with nothing selected, say so."""
        if not self.doc.selection:
            self.statusBar().showMessage("Delete: nothing selected (select elements on the canvas or in the "
                                         "Elements list)", 6000)
            return False
        return self._push(lambda: C.DeleteElements(self.doc, self.doc.selection))

    def nudge(self, dx: float, dy: float) -> None:
        step = self.view.snap_step or 0.1
        if self.doc.selection:
            self._push(lambda: C.MoveElements(self.doc, self.doc.selection, dx * step, dy * step, mergeable=True))

    def copy(self) -> bool:
        if not self.doc.selection:
            return False
        text = E.elements_to_yaml(self.doc.arena, self.doc.selection)
        # Plain text (elements as YAML; paste checks it): a QMimeData made in Python would be
        # owned by the clipboard and destroyed by Qt after the interpreter has shut down.
        QGuiApplication.clipboard().setText(text)
        return True

    def cut(self) -> None:
        if self.copy():
            self._push(lambda: C.DeleteElements(self.doc, self.doc.selection))

    def paste(self) -> None:
        mime = QGuiApplication.clipboard().mimeData()
        if mime is None:
            return
        raw = mime.data(E.CLIPBOARD_MIME)
        text = bytes(raw.data()).decode("utf-8") if raw.size() else mime.text()
        try:
            els = E.elements_from_yaml(text, self.doc.arena)
        except ValueError as exc:
            self.statusBar().showMessage(f"Cannot paste: {exc}", 6000)
            return
        step = max(self.view.snap_step, 0.5) * 2
        els = [E.translate(el, step, -step) for el in els]
        self._push(lambda: C.AddElements(self.doc, els, "Paste"))

    def duplicate(self) -> None:
        if self.doc.selection:
            step = max(self.view.snap_step, 0.5) * 2
            els = E.renumbered_copy(self.doc.arena, self.doc.selection, step, -step)
            self._push(lambda: C.AddElements(self.doc, els, "Duplicate"))
