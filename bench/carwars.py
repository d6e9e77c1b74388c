"""Car Wars validation benchmark: every setup check and fairness metric of a Car Wars arena
(default: the four-player 3 ft candidate shipped arena), cold (caches cleared), median of N
runs, with a per-check breakdown of the median run.

Modes: two workers (the travel searches in two forked processes while this one runs the other
checks; the target is <= 1 s), one core, and without the symmetry shortcut (every start
planned).  Also times one flat-out and one safe search, and a reach heat map.

Usage: python bench/carwars.py [FILES...] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from engine.carwars import heuristic, motion  # noqa: E402
from engine.carwars.planner import Planner  # noqa: E402
from engine.carwars.reach import reach  # noqa: E402
from engine.carwars.travel import Goal, StartSource  # noqa: E402
from engine.carwars.validate import validate  # noqa: E402
from schema import model  # noqa: E402
from schema.games import carwars as cw  # noqa: E402

CANDIDATES = [ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml",
              ROOT / "tests" / "carwars" / "data" / "shipped" / "crossroads-4p.yaml"]


def cold() -> None:
    motion._sweep.cache_clear()
    heuristic._heading_table.cache_clear()
    model._geometry.cache_clear()


def load(path: str) -> cw.CarWarsArena:
    """The arena as ``arena validate`` loads it (schema, semantic checks), else the bare model."""
    try:
        from schema.io import load as load_any

        arena = load_any(path)
        assert isinstance(arena, cw.CarWarsArena)
        return arena
    except ImportError:
        with open(path, encoding="utf-8") as fh:
            return cw.from_document(yaml.safe_load(fh))


def run(arena: cw.CarWarsArena, repeat: int, **kw: object) -> tuple[float, dict[str, float], int]:
    runs = []
    for _ in range(repeat):
        cold()
        v = validate(arena, **kw)  # type: ignore[arg-type]
        runs.append((v.timings["total"], v.timings, len(v.issues)))
    runs.sort(key=lambda r: r[0])
    return runs[len(runs) // 2]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", default=[str(next(p for p in CANDIDATES if p.exists()))])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for f in args.files:
        arena = load(f)
        for label, kw in (("2 workers", {"workers": 2}), ("1 core", {"workers": 1}),
                          ("1 core, no symmetry shortcut", {"workers": 1, "use_symmetry": False})):
            reps = args.repeat if "no symmetry" not in label else max(1, args.repeat // 2)
            total, timings, n = run(arena, reps, **kw)
            print(f"{Path(f).name} [{label}]: {total:.2f} s median of {reps}, {n} issues")
            for code, dt in sorted(timings.items(), key=lambda kv: -kv[1]):
                if code != "total" and dt >= 0.0005:
                    print(f"    {code:22s} {1000 * dt:8.1f} ms")
        times = []
        for _ in range(args.repeat):  # what `arena validate` runs: the validators' runner, by ruleset
            cold()
            from validators.run import validate as run_validators

            t = time.perf_counter()
            report = run_validators(arena, source=str(f))
            times.append(time.perf_counter() - t)
        print(f"{Path(f).name} [arena validate: validators.run.validate]: {statistics.median(times):.2f} s median of "
              f"{args.repeat}, {len(report.findings)} findings")
        for policy in ("flat-out", "safe"):
            times = []
            for _ in range(args.repeat):
                cold()
                p = Planner(arena, policy)  # type: ignore[arg-type]
                goals = p.goals()
                t = time.perf_counter()
                p.plan_many(StartSource(arena.start_positions[0].player), goals)
                times.append(time.perf_counter() - t)
            print(f"  one {policy} search, start {arena.start_positions[0].player} to {len(goals)} goals: "
                  f"{statistics.median(times):.2f} s median")
        cold()
        t = time.perf_counter()
        m = reach(arena, StartSource(arena.start_positions[0].player), limit=3, cell=2.0)
        print(f"  reach map (3 turns, 2-in cells): {time.perf_counter() - t:.2f} s, complete={m.complete}")
        cold()
        t = time.perf_counter()
        Planner(arena).plan(StartSource(arena.start_positions[0].player), Goal("centre"))
        print(f"  one goal (centre), flat-out, cold: {time.perf_counter() - t:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
