"""Render the editor window on an arena to PNG: ``python scripts/screenshots.py [ARENA] [-o DIR]``.

Writes ``editor.png`` (the whole window: rulers, the edit-vertices tool on a wall, findings of
the validators that need no travel marked on their elements) and ``arena.png`` (the arena
alone through the shared renderer) into ``docs/img/`` by default.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QRectF, QSettings  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from editor import files as F  # noqa: E402
from editor import render  # noqa: E402
from editor.mainwindow import MainWindow  # noqa: E402
from editor.validation import quick_findings  # noqa: E402


def demo_analyse(arena):  # type: ignore[no-untyped-def]
    """The real quick validators (no travel: the travel ones take minutes); when they find
    nothing, one illustrative finding so the screenshot shows the marks."""
    out = quick_findings(arena)
    if not any(f["elements"] for f in out) and arena.walls:
        out.append({"code": "demo", "severity": "warning", "elements": [arena.walls[-1].id],
                    "message": f"example finding on {arena.walls[-1].id} (screenshot only)"})
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("arena", nargs="?", default=str(ROOT / "arenas" / "default.yaml"))
    ap.add_argument("-o", "--out", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--size", default="1500x950")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    w, h = (int(v) for v in args.size.split("x"))
    app = QApplication.instance() or QApplication([])
    tmp = tempfile.mkdtemp()
    settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, recovery=F.RecoveryStore(Path(tmp) / "rec"), analyse=demo_analyse)
    win.resize(w, h)
    win.show()
    if not win.open_path(args.arena, ask=False):
        print(win.last_error, file=sys.stderr)
        return 1
    app.processEvents()
    win.view.fit_arena()
    polys = [w.id for w in win.doc.arena.walls if w.shape.type in ("polygon", "polyline", "rect")]
    win.doc.set_selection(polys[:1] or [el.id for el in win.doc.arena.checkpoints[:1]])
    win.set_tool("vertices")
    win.runner.run_now(win.doc.arena)
    win.runner.pool.waitForDone(10000)
    for _ in range(5):
        app.processEvents()
    win.grab().save(str(out / "editor.png"))
    # overlays: the heat map from start 1 (computed in the background), then a planned path
    win.doc.set_selection([])
    win.set_tool("select")
    win.overlays.show_heat(1)
    deadline = time.monotonic() + 120
    while not win.overlays.heat.isVisible() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.05)
    app.processEvents()
    win.grab().save(str(out / "editor-heatmap.png"))
    win.overlays.show_heat(None)
    from validators.context import AnalysisContext, path_json

    route = AnalysisContext(win.doc.arena).travel("start:4", "checkpoint:A")
    win.overlays.show_finding_path({"code": "travel", "elements": ["start:4", "A"], "path": list(path_json(route))})
    win.overlays.sight_action.setChecked(True)
    app.processEvents()
    win.grab().save(str(out / "editor-path.png"))
    win.overlays.sight_action.setChecked(False)
    img = QImage(1000, 1000, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    render.paint_arena(p, win.doc.arena, QRectF(0, 0, 1000, 1000))
    p.end()
    img.save(str(out / "arena.png"))
    print(out / "editor.png")
    print(out / "arena.png")
    win.doc.undo_stack.setClean()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
