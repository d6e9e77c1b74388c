"""Validation benchmark: `validate()` on the shipped arenas with a per-validator breakdown.

Travel validators share one AnalysisContext, so the first of them to run pays for the planner
searches (one per source, fewer on symmetric arenas); the breakdown shows where time goes.

Usage: python bench/validate.py [FILES...] [--tolerance T]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schema import load  # noqa: E402
from validators.context import ANALYSIS_TOLERANCE, AnalysisContext  # noqa: E402
from validators.run import validate  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", default=[str(ROOT / "arenas" / "default.yaml"),
                                                  *sorted(str(p) for p in (ROOT / "arenas" / "examples").glob("*.yaml"))])
    ap.add_argument("--tolerance", type=float, default=ANALYSIS_TOLERANCE)
    args = ap.parse_args()
    for f in args.files:
        arena = load(f)
        ctx = AnalysisContext(arena, tolerance=args.tolerance)
        t = time.perf_counter()
        report = validate(arena, source=f, context=ctx)
        total = time.perf_counter() - t
        counts = report.counts()
        print(f"{Path(f).name}: {total:.2f} s total, {ctx.searches} planner searches, "
              f"{counts['error']} errors / {counts['warning']} warnings / {counts['info']} info")
        for code, dt in sorted(report.timings.items(), key=lambda kv: -kv[1]):
            print(f"    {code:26s} {1000 * dt:9.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
