"""Validation benchmark: `validate()` on the shipped arenas, cold (fresh planner, caches
cleared), median of N runs, with a per-validator breakdown of the median run.

By default one arena's validation uses two cores, as `arena validate` does on one file (a forked
helper runs the checkpoints' travel and the validators that need no travel; see
validators/parallel.py); `--sequential` measures one core.

Usage: python bench/validate.py [FILES...] [--repeat N] [--sequential] [--tolerance T]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schema import load  # noqa: E402
from validators.games.gravstrike import sightlines, targets  # noqa: E402
from validators.games.gravstrike.context import AnalysisContext  # noqa: E402
from validators.options import ANALYSIS_TOLERANCE  # noqa: E402
from validators.run import validate  # noqa: E402


def cold() -> None:
    """Forget what earlier runs cached (safe-area samples, TNs from starts)."""
    sightlines._samples.cache_clear()
    targets._TN_CACHE.clear()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", default=[str(ROOT / "arenas" / "default.yaml"),
                                                  *sorted(str(p) for p in (ROOT / "arenas" / "examples").glob("*.yaml"))])
    ap.add_argument("--tolerance", type=float, default=ANALYSIS_TOLERANCE)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sequential", action="store_true", help="one core (arena validate uses two on one arena)")
    args = ap.parse_args()
    for f in args.files:
        arena = load(f)
        runs = []
        for _ in range(args.repeat):
            cold()
            ctx = AnalysisContext(arena, tolerance=args.tolerance)
            t = time.perf_counter()
            report = validate(arena, source=f, context=ctx, parallel=not args.sequential)
            runs.append((time.perf_counter() - t, report, ctx.searches))
        runs.sort(key=lambda r: r[0])
        total, report, searches = runs[len(runs) // 2]
        counts = report.counts()
        print(f"{Path(f).name}: {total:.2f} s median of {args.repeat} (min {runs[0][0]:.2f}, max {runs[-1][0]:.2f}; "
              f"{'1 core' if args.sequential else '2 cores'}), {searches} planner searches, "
              f"{counts['error']} errors / {counts['warning']} warnings / {counts['info']} info")
        for code, dt in sorted(report.timings.items(), key=lambda kv: -kv[1]):
            if dt >= 0.0005:
                print(f"    {code:26s} {1000 * dt:9.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
