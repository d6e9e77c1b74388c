"""Car Wars validation benchmark: every setup check and fairness metric of a Car Wars arena
(default: the four-player 3 ft candidate shipped arena), cold (caches cleared), median of N
runs, wall and CPU time (this process and its forked workers), with a per-check breakdown of
the median run and the machine's load average (the machine is shared: compare CPU times).

Modes: two workers (this process and one forked worker share the travel searches; the target
is <= 1 s wall), one core, and the same arena with its first card moved 1.3 in right and
0.7 in down (no symmetry applies, every start is planned: what the editor re-validates after
a drag).  Also times one flat-out and one safe search, and a reach heat map.

Usage: python bench/carwars.py [FILES...] [--repeat N]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
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


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(arena: cw.CarWarsArena, repeat: int, **kw: object) -> tuple[float, float, dict[str, float], int]:
    """(median wall, median CPU, timings of the median-wall run, issues)."""
    runs = []
    for _ in range(repeat):
        cold()
        c = _cpu()
        v = validate(arena, **kw)  # type: ignore[arg-type]
        runs.append((v.timings["total"], _cpu() - c, v.timings, len(v.issues)))
    cpu = statistics.median(r[1] for r in runs)
    runs.sort(key=lambda r: r[0])
    wall, _, timings, n = runs[len(runs) // 2]
    return wall, cpu, timings, n


def moved(arena: cw.CarWarsArena) -> cw.CarWarsArena:
    """The arena with its first card dragged a little: the symmetry shortcut no longer applies."""
    if not arena.cards:
        return arena
    c = arena.cards[0]
    card = dataclasses.replace(c, position=(c.position[0] + 1.3, c.position[1] - 0.7))
    return dataclasses.replace(arena, cards=(card,) + arena.cards[1:])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", default=[str(next(p for p in CANDIDATES if p.exists()))])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for f in args.files:
        arena = load(f)
        for label, subject, kw in (("2 workers", arena, {"workers": 2}), ("1 core", arena, {"workers": 1}),
                                   ("card moved, 2 workers", moved(arena), {"workers": 2}),
                                   ("card moved, 1 core", moved(arena), {"workers": 1})):
            reps = args.repeat if "moved" not in label else max(1, (args.repeat + 1) // 2)
            print(f"  (load average {os.getloadavg()[0]:.2f})")
            total, cpu, timings, n = run(subject, reps, **kw)
            print(f"{Path(f).name} [{label}]: {total:.2f} s wall, {cpu:.2f} s CPU, medians of {reps}, {n} issues")
            for code, dt in sorted(timings.items(), key=lambda kv: -kv[1]):
                if code != "total" and dt >= 0.0005:
                    print(f"    {code:22s} {1000 * dt:8.1f} ms")
        times = []
        for _ in range(args.repeat):  # what `arena validate` runs: the validators' runner, by ruleset, on two cores
            cold()
            from validators.run import validate as run_validators

            t = time.perf_counter()
            report = run_validators(arena, source=str(f), parallel=True)  # as `arena validate` FILE runs it
            times.append(time.perf_counter() - t)
        print(f"{Path(f).name} [arena validate: validators.run.validate]: {statistics.median(times):.2f} s median of "
              f"{args.repeat}, {len(report.findings)} findings")
        for policy in ("flat-out", "safe"):
            times = []
            for _ in range(args.repeat):
                cold()
                p = Planner(arena, policy)
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
