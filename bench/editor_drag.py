"""The editor-feedback benchmark every game shares: open an arena in an offscreen editor window
(the real one: document, undo command, canvas, inspector, validation runner), push the select
tool's MoveElements command for one element again and again, and time until the runner
publishes that edit's first findings, then its final ones.  Medians over N moves; opening the
arena is reported apart.  ``--pause MS`` idles after each move as a user between two drags
(what waits for the edits to pause - the travel dock - then runs, as in the editor);
``--symmetry`` keeps the arena's symmetry mode on (a drag moves the element's images too).
bench/editor_carwars.py and bench/editor_arenarex.py choose the arena,
the element and the steps."""

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

Step = tuple[float, float]


def run(arena: Path, element: str, steps: tuple[Step, Step], back: tuple[Step, Step], *, label: str,
        final_label: str, back_help: str, final_target: bool = True) -> int:
    """Drag ``element`` by ``steps`` in turn (a new place every move), or by ``back`` with
    ``--back-and-forth``; print the medians."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=15)
    ap.add_argument("--final-moves", type=int, default=15, help=f"moves also timed to {final_label}")
    ap.add_argument("--back-and-forth", action="store_true", help=back_help)
    ap.add_argument("--symmetry", action="store_true",
                    help="keep the arena's symmetry mode on: a drag moves the element's images too")
    ap.add_argument("--pause", type=int, default=0, metavar="MS",
                    help="idle this long after each move's final findings, as a user between two drags "
                         "(the views that wait for edits to pause - the travel dock - update then)")
    args = ap.parse_args()
    app = QApplication.instance() or QApplication([sys.argv[0]])
    from editor import commands as C
    from editor import files as F
    from editor.mainwindow import MainWindow

    tmp = Path(tempfile.mkdtemp())
    win = MainWindow(settings=QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat),
                     recovery=F.RecoveryStore(tmp / "recovery", pid=1))
    win.resize(1366, 768)
    win.show()
    assert win.open_path(str(arena), ask=False)
    # one element moves (in symmetry mode, --symmetry, its images move too)
    win.doc.symmetry_enabled = bool(args.symmetry) and win.doc.symmetry_enabled

    from PySide6.QtCore import QEventLoop, QTimer

    tick = QTimer()  # wakes the wait below at least every 2 ms (a result arrives as an event anyway)
    tick.start(2)

    def wait(pred, timeout: float = 120.0) -> float:  # type: ignore[no-untyped-def]
        """Run the event loop until ``pred()``: blocking between events, as the editor's own loop
        does (a loop polling without pause would take a core from the workers it waits for)."""
        t0 = time.perf_counter()
        while not pred():
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
            if time.perf_counter() - t0 > timeout:
                raise TimeoutError
        return time.perf_counter()

    def settled() -> bool:
        r = win.runner
        return r.completed_generation == r.generation and r.final and not r.busy

    t = time.perf_counter()
    wait(settled, 300)
    print(f"open {arena.name}: final findings after {time.perf_counter() - t:.2f} s ({len(win.runner.findings)} findings)")
    published: list[int] = []
    win.runner.finished.connect(lambda _f: published.append(win.runner.generation))
    quick, final = [], []
    cpu0 = time.process_time()
    try:
        for i in range(args.moves):
            # a new place every time (a drag back to where the element was may be a lookup)
            dx, dy = (back if args.back_and_forth else steps)[i % 2]
            t0 = time.perf_counter()
            win.doc.push(C.MoveElements(win.doc, [element], dx, dy))  # what the select tool pushes on release
            gen = win.runner.generation
            t1 = wait(lambda: gen in published)
            quick.append(t1 - t0)
            if i < args.final_moves:  # else the next drag cancels this edit's slow run, as in the editor
                final.append(wait(settled, 300) - t0)
            if args.pause:
                until = time.perf_counter() + args.pause / 1000.0
                wait(lambda: time.perf_counter() >= until)
        wait(settled, 300)
    finally:
        win.runner.shutdown()
        win.overlays.shutdown()
    print(f"drag {label}: findings shown {1000 * statistics.median(quick):5.0f} ms median "
          f"(min {1000 * min(quick):.0f}, max {1000 * max(quick):.0f}; {len(quick)} moves; target 100 ms)")
    if final:
        print(f"  all findings, {final_label} included: {1000 * statistics.median(final):5.0f} ms median "
              f"(min {1000 * min(final):.0f}, max {1000 * max(final):.0f}; {len(final)} moves"
              + ("; target 100 ms)" if final_target else ")"))
    print(f"the editor's own process: {time.process_time() - cpu0:.2f} s CPU over the moves"
          + (f" (and {args.pause} ms pauses)" if args.pause else ""))
    travel = win.docks.get("travel") if hasattr(win, "docks") else None
    print(f"the Travel times dock is {'shown' if travel is not None and travel.isVisible() else 'hidden'}")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0
