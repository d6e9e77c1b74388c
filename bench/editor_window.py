"""End-to-end live validation in the real editor window (Qt, offscreen).

Opens the default arena in a MainWindow with the editor's own analysis (format checks and the
validators that need no travel in a thread, travel on the two persistent travel workers), waits
for its findings and for the workers to warm up, then moves checkpoint A N times - the same
MoveElements undo command the select tool pushes when a drag is released - and times each edit
until the validation panel holds the final findings of the new arena.  That includes the
scheduling the work on the two workers, the quick stage and the travel on them, Qt's signal
delivery, the travel validators on the workers' answers and the panel's update.
Both with symmetry mode on (the default arena declares a symmetry, so A's images B and C move
with it) and off.  With ``--screenshot PNG`` it then drags A alone to (2.7, 0), next to the centre
(so that the starts are no longer equally near their checkpoints) and saves the window with
those live findings (the README's picture of this comes from the real-window suite:
``scripts/screenshots.py``).

Usage: python bench/editor_window.py [--moves N] [--screenshot PNG]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from editor import commands as C  # noqa: E402
from editor import files as F  # noqa: E402
from editor.mainwindow import MainWindow  # noqa: E402


def wait_final(app: QApplication, win: MainWindow, generation: int, timeout: float = 60.0) -> float:
    """Run the event loop (as the application does: blocked until something happens, no
    polling) until the runner has published the final findings of ``generation``; returns when."""
    def done() -> bool:
        return win.runner.completed_generation >= generation and win.runner.final

    if not done():
        loop = QEventLoop()
        check = lambda *_: loop.quit() if done() else None  # noqa: E731
        win.runner.finished.connect(check)
        win.runner.failed.connect(check)
        QTimer.singleShot(int(timeout * 1000), loop.quit)
        loop.exec()
        win.runner.finished.disconnect(check)
        win.runner.failed.disconnect(check)
        if not done():
            raise TimeoutError("the validation run did not finish")
    return time.perf_counter()


def edit(app: QApplication, win: MainWindow, command: C.ArenaCommand) -> float:
    """Push ``command`` (as a tool does on mouse release) and wait for the final findings of the
    run it starts; returns when."""
    before = win.runner.generation
    win.doc.push(command)
    while win.runner.generation == before:  # the run starts (at once unless one is going)
        app.processEvents()
        time.sleep(0.0005)
    return wait_final(app, win, win.runner.generation)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=15)
    ap.add_argument("--screenshot", metavar="PNG", help="then drag A alone next to the centre and save the window")
    args = ap.parse_args()
    app = QApplication.instance() or QApplication([])
    tmp = tempfile.mkdtemp()
    win = MainWindow(settings=QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat),
                     recovery=F.RecoveryStore(Path(tmp) / "rec"))
    win.ask_save = lambda: QMessageBox.StandardButton.Discard  # type: ignore[method-assign]
    win.resize(1500, 950)
    win.show()
    try:
        t = time.perf_counter()
        assert win.open_path(str(ROOT / "arenas" / "default.yaml"), ask=False), win.last_error
        wait_final(app, win, win.runner.generation)
        print(f"default arena opened: all findings after {time.perf_counter() - t:.2f} s (workers started)")
        live = win.runner.analyse.live  # type: ignore[attr-defined]
        live._workers.wait_warm()
        for symmetric in ((True, False) if args.moves else ()):
            win.doc.symmetry_enabled = symmetric
            times = []
            for i in range(args.moves):
                dx = 0.1 if i % 2 else -0.1
                t0 = time.perf_counter()
                times.append(edit(app, win, C.MoveElements(win.doc, ["A"], dx, 0.05 * (i % 3))) - t0)
                live._workers.wait_warm()
            what = ("symmetry mode on: A's two images B and C move with it" if symmetric
                    else "symmetry mode off: A alone")
            print(f"move checkpoint A in the window ({what}): final findings after "
                  f"{1000 * statistics.median(times):.0f} ms median (min {1000 * min(times):.0f}, max "
                  f"{1000 * max(times):.0f}; {args.moves} moves; target 100 ms)")
        if args.screenshot:  # symmetry mode off: A alone moves, and the arena turns unfair
            win.doc.symmetry_enabled = False
            edit(app, win, C.MoveElements(win.doc, ["A"], -7.5, 0.0))
            codes = sorted({f["code"] for f in win.runner.findings})
            win.view.fit_arena()
            for _ in range(5):
                app.processEvents()
            out = Path(args.screenshot)
            win.grab().save(str(out))
            print(f"after dragging A alone to the centre the panel shows {codes}; saved {out}")
    finally:
        win.runner.shutdown()
        win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
