"""A window-state snapshot for automation (the real-window tests, the screenshot script):
with ``ARENA_STUDIO_PROBE=FILE`` in the environment the editor writes, a few times a second
and only when something changed, a JSON document describing what is on screen — the arena,
the selection, the tool, the focused widget, the findings, the inspector's and panels' fields
and errors, where the docks, fields, tabs and open menus are on the screen, and how arena
coordinates map to screen pixels — so that a driver sending real X input (``xdotool``) can
aim and check. Nothing is written without the variable; the file is replaced atomically.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QRect, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTabBar,
    QWidget,
)

from schema import to_document

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

ENV = "ARENA_STUDIO_PROBE"
INTERVAL_MS = 100


def rect_of(w: QWidget, r: QRect | None = None) -> list[int]:
    r = r if r is not None else w.rect()
    g = w.mapToGlobal(r.topLeft())
    return [g.x(), g.y(), r.width(), r.height()]


def under_pointer_at(w: QWidget) -> bool:
    """Whether a click at the middle of ``w`` on the screen reaches ``w`` (shown, not hidden
    behind another dock's tab, a dialog or another window)."""
    if not w.isVisible():
        return False
    hit = QApplication.widgetAt(w.mapToGlobal(w.rect().center()))
    return hit is not None and (hit is w or w.isAncestorOf(hit))


def snapshot(win: MainWindow) -> dict[str, Any]:
    """What the window shows, as plain data."""
    from editor.game import game_of
    from editor.games import is_generic
    from editor.games import model as G

    app = QApplication.instance()
    focus = QApplication.focusWidget()
    view = win.view
    t = view.viewportTransform()
    named: dict[str, Any] = {}
    for w in win.findChildren(QWidget):
        name = w.objectName()
        if name.startswith(("prop:", "bounds:", "setting:", "start-set", "active-count")) and w.isVisible() and not w.visibleRegion().isEmpty():
            named[name] = {"rect": rect_of(w), "text": w.text() if isinstance(w, QLineEdit) else None}
    tabs = []
    for bar in win.findChildren(QTabBar):
        if bar.isVisible():
            tabs += [{"text": bar.tabText(i), "rect": rect_of(bar, bar.tabRect(i)), "current": i == bar.currentIndex()}
                     for i in range(bar.count())]
    menus = []
    popup = QApplication.activePopupWidget() if app is not None else None
    for m in win.findChildren(QMenu) + ([popup] if isinstance(popup, QMenu) else []):
        if m.isVisible():
            menus.append({"title": m.title(), "actions": [
                {"text": a.text().replace("&", ""), "rect": rect_of(m, m.actionGeometry(a)), "checked": a.isChecked()}
                for a in m.actions() if not a.isSeparator() and a.isVisible()]})
    menubar = [{"text": a.text().replace("&", ""), "rect": rect_of(win.menuBar(), win.menuBar().actionGeometry(a))}
               for a in win.menuBar().actions()]
    live = getattr(win.runner.analyse, "live", None)
    workers = getattr(live, "_workers", None)
    return {
        "pid": os.getpid(),
        "title": win.windowTitle(),
        "window": rect_of(win),
        "active": win.isActiveWindow(),
        "tool": win.view.tool.name if win.view.tool is not None else None,
        "focus": {"name": focus.objectName(), "class": type(focus).__name__,
                  "canvas": focus is view or (focus is not None and view.isAncestorOf(focus))} if focus else None,
        "selection": win.doc.selection,
        "active_count": win.doc.active_count,
        "dimmed": sorted(ref for ref, it in win.scene.items_by_ref.items() if it.isVisible() and it.opacity() < 1.0),
        "dirty": win.doc.dirty,
        "modified": win.isWindowModified(),
        "dialogs": _dialogs(),
        "undo": {"count": win.doc.undo_stack.count(), "index": win.doc.undo_stack.index()},
        "arena": to_document(win.doc.arena) if not is_generic(win.doc.arena) else G.document(win.doc.arena),
        "game": win.doc.arena.system,
        "runner": {"generation": win.runner.generation, "completed": win.runner.completed_generation,
                   "final": win.runner.final, "busy": win.runner.busy,
                   "running": win.runner.running},
        "findings": win.runner.findings,
        "finding_rows": [{"code": it.text(1), "message": it.text(2),
                          "rect": rect_of(win.validation.tree.viewport(), win.validation.tree.visualItemRect(it))}
                         for it in (win.validation.tree.topLevelItem(i)
                                    for i in range(win.validation.tree.topLevelItemCount())) if it is not None],
        "validation_status": win.validation.status.text(),
        "workers": [w.proc.pid for w in (workers.workers if workers is not None else []) if w is not None],
        "errors": {"inspector": win.inspector.error.text(), "arena": win.arena_panel.error.text(),
                   "scenario": win.scenario_panel.error.text()},
        "status": {"message": win.statusBar().currentMessage(), "measure": win.measure_label.text(),
                   "measure_visible": win.measure_label.isVisible(), "hint": win.hint_label.text(),
                   "position": win.pos_label.text(), "zoom": win.zoom_label.text(), "snap": win.snap_box.suffix()},
        "notice": view.notice.text if view.notice.isVisible() else "",
        "modal": _modal(),
        "tree_rows": [{"ref": ref, "text": it.text(0), "rect": rect_of(win.tree.viewport(), win.tree.visualItemRect(it))}
                      for ref, it in win.tree.items_by_ref.items() if not win.tree.visualItemRect(it).isEmpty()],
        "view": {"viewport": rect_of(view.viewport()), "matrix": [t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy()],
                 "scale": view.scale_factor,
                 "center": list(view.mapToScene(view.viewport().rect().center()).toTuple())},
        "docks": {k: {"rect": rect_of(d), "visible": d.isVisible()} for k, d in win.docks.items()},
        "named": named,
        "tabs": tabs,
        "menus": menus,
        "menubar": menubar,
        "labels": {w.objectName(): w.text() for w in win.findChildren(QLabel) if w.objectName() and w.isVisible()},
        "parts": game_of(win.doc.arena).probe(win),  # the game's own overlays and docks
        "simulation": win.simulation.probe(rect_of, under_pointer_at),  # Analysis → Simulate play… and its dock
    }


def _dialogs() -> list[dict[str, Any]]:
    """The dialogs on screen (a question, File → New's game list…), with their buttons."""
    out = []
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QDialog) and w.isVisible():
            buttons = [b for b in w.findChildren(QAbstractButton) if b.isVisible() and b.text()]
            out.append({"title": w.windowTitle(), "text": w.text() if isinstance(w, QMessageBox) else "",
                        "active": w.isActiveWindow(), "rect": rect_of(w),
                        "buttons": [{"text": b.text().replace("&", ""), "rect": rect_of(b)} for b in buttons]})
    return out


def _modal() -> dict[str, Any] | None:
    """The open modal dialog: its title and the units after its numbers (spin boxes' suffixes)."""
    w = QApplication.activeModalWidget()
    if w is None:
        return None
    return {"title": w.windowTitle(), "rect": rect_of(w),
            "suffixes": [b.suffix() for b in w.findChildren(QDoubleSpinBox) if b.isVisible()]}


class Probe(QObject):
    def __init__(self, win: MainWindow, path: str) -> None:
        super().__init__(win)
        self.win, self.path = win, Path(path)
        self._last = ""
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.write)
        self.timer.start()

    def write(self) -> None:
        try:
            text = json.dumps(snapshot(self.win), default=str)
        except RuntimeError:  # a widget went away mid-snapshot: the next tick
            return
        if text != self._last:
            self._last = text
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)


def install(win: MainWindow) -> Probe | None:
    path = os.environ.get(ENV)
    return Probe(win, path) if path else None
