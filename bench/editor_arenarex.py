"""Editor feedback benchmark for Arena Rex (issue 14): after dragging a pit of the shipped 30 in
circle about 1 in, how long until the editor shows the new findings.

It drives an offscreen editor window (the real one: document, undo command, canvas, inspector,
validation runner) on arenas/arena-rex/colosseum-30.yaml: each move pushes the select tool's
MoveElements command for pit-west (1.03 in: 0.25 in east and 1 in north or south, a new place
every time) and times until the runner publishes that edit's findings (the quick stage: the
schema and the setup checks, those that do not read pits kept from before), then until the zone
fairness checks' final findings (a persistent worker, :mod:`editor.games.rex_analysis`).
Medians over N moves; opening the arena is reported apart.

Usage: python bench/editor_arenarex.py [--moves N] [--final-moves M] [--back-and-forth]
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

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

ARENA = ROOT / "arenas" / "arena-rex" / "colosseum-30.yaml"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=15)
    ap.add_argument("--final-moves", type=int, default=15, help="moves also timed to the fairness checks' findings")
    ap.add_argument("--back-and-forth", action="store_true", help="drag the pit 1 in north and back in turn")
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
    assert win.open_path(str(ARENA), ask=False)
    win.doc.symmetry_enabled = False  # one pit moves (in symmetry mode its image moves too)

    def wait(pred, timeout: float = 120.0) -> float:  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        while not pred():
            app.processEvents()
            if time.perf_counter() - t0 > timeout:
                raise TimeoutError
            time.sleep(0.0005)
        return time.perf_counter()

    def settled() -> bool:
        r = win.runner
        return r.completed_generation == r.generation and r.final and not r.busy

    t = time.perf_counter()
    wait(settled, 300)
    print(f"open {ARENA.name}: final findings after {time.perf_counter() - t:.2f} s ({len(win.runner.findings)} findings)")
    published: list[int] = []
    win.runner.finished.connect(lambda _f: published.append(win.runner.generation))
    quick, final = [], []
    try:
        for i in range(args.moves):
            # a new place every time (a drag back to where the pit was is a lookup, not timed here)
            dx, dy = (0.25, 1.0) if i % 2 == 0 else (0.25, -1.0)
            if args.back_and_forth:
                dx, dy = (0.0, 1.0) if i % 2 == 0 else (0.0, -1.0)
            t0 = time.perf_counter()
            win.doc.push(C.MoveElements(win.doc, ["pit-west"], dx, dy))  # what the select tool pushes on release
            gen = win.runner.generation
            t1 = wait(lambda: gen in published)
            quick.append(t1 - t0)
            if i < args.final_moves:
                final.append(wait(settled, 300) - t0)
        wait(settled, 300)
    finally:
        win.runner.shutdown()
        win.overlays.shutdown()
    print(f"drag pit-west ~1 in: findings shown {1000 * statistics.median(quick):5.0f} ms median "
          f"(min {1000 * min(quick):.0f}, max {1000 * max(quick):.0f}; {len(quick)} moves; target 100 ms)")
    if final:
        print(f"  all findings, the zone fairness checks' included: {1000 * statistics.median(final):5.0f} ms median "
              f"(min {1000 * min(final):.0f}, max {1000 * max(final):.0f}; {len(final)} moves)")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
