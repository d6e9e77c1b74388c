"""Live-validation benchmark: after moving one element of the default arena, how long until the
editor's two analysis stages have new findings — the quick stage (format checks and the
validators that need no travel, run in a worker thread) and the travel stage (run in a child
process). Measures the work itself (what the editor's background jobs run), median of N moves.

Usage: python bench/editor_update.py [--moves N]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from editor.validation import _travel_findings, quick_findings  # noqa: E402
from schema import load  # noqa: E402
from schema.model import Circle  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=5)
    ap.add_argument("--travel-moves", type=int, default=2)
    args = ap.parse_args()
    arena = load(ROOT / "arenas" / "default.yaml")
    quick, travel = [], []
    for i in range(args.moves):
        cp = arena.checkpoints[0]
        assert isinstance(cp.shape, Circle)
        moved = dataclasses.replace(cp, shape=dataclasses.replace(cp.shape, center=(cp.shape.center[0] - 0.1 * (i + 1),
                                                                                    cp.shape.center[1])))
        edited = dataclasses.replace(arena, checkpoints=(moved, *arena.checkpoints[1:]))
        t = time.perf_counter()
        quick_findings(edited)
        quick.append(time.perf_counter() - t)
        if i < args.travel_moves:
            t = time.perf_counter()
            _travel_findings(edited)
            travel.append(time.perf_counter() - t)
    print(f"move checkpoint A, default arena: quick stage median {1000 * statistics.median(quick):.0f} ms "
          f"over {len(quick)} moves; travel stage median {statistics.median(travel):.2f} s over {len(travel)} moves "
          "(target: findings updated within 100 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
