"""Car Wars validation benchmark: every setup check and fairness metric of a Car Wars arena
(default: the four-player 3 ft candidate shipped arena), cold (caches cleared), median of N
runs, wall and CPU time (this process and its forked workers), with a per-check breakdown of
the median run and the machine's load average (the machine is shared: compare CPU times).

Modes: two workers (this process and one forked worker share the travel searches; the target
is <= 1 s wall), one core, and the same arena with its first card moved 1.3 in right and
0.7 in down (no symmetry applies, every start is planned: what the editor re-validates after
a drag).  Also times one flat-out and one safe search, and a reach heat map.

Usage: python bench/carwars.py [FILES...] [--repeat N]
       python bench/carwars.py --tables [--repeat N] [--feet 3 4.5 6]

``--tables`` (issue 38, goal 2: Car Wars at table scale): the shipped Crossroads and the same
arena scaled to larger tables about its centre (walls, obstacles, terrain, hazards, cards and
tokens moved out, their sizes and the car's kept, the starts against the new edges:
``tests.runaway.crossroads_scaled``), each through ``arena validate --json`` in its own process
under the default caps, the tables alternated round by round so that every ratio compares runs
made at the same time (the machine is shared: the ratios are what counts, not the seconds).
Prints per table the CPU time (the process and its forked workers), the peak memory (their
proportional set sizes, sampled every 0.1 s), the travel questions left undecided, the medians'
ratios to the 3 ft table and the goal: the 6 ft table decided, at <= 4x the 3 ft table's CPU
(its area is 4x) and <= 500 MB.
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
from schema.games.gravstrike import model  # noqa: E402
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


def table_run(path: Path) -> dict[str, float]:
    """``arena validate --json PATH`` in a new process: its CPU (and its workers'), peak memory
    (MiB, proportional set sizes) and the travel questions its report leaves undecided."""
    import json
    import subprocess
    import threading

    from validators.memory import in_use_mb

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-m", "app.cli.main", "validate", str(path), "--json"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else b""), daemon=True)
    reader.start()
    peak = 0.0
    while proc.poll() is None:
        peak = max(peak, in_use_mb(proc.pid, precise=True) or 0.0)
        time.sleep(0.1)
    reader.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    doc = json.loads(b"".join(out))
    undecided = sum(len(f["metrics"].get("undecided", [])) for f in doc["findings"] if f["code"] == "analysis-limit")
    return {"cpu": cpu, "peak": peak, "undecided": float(undecided)}


def tables(feet: list[float], repeat: int) -> int:
    """The ``--tables`` mode (see the module's doc)."""
    import tempfile

    from schema.io import save
    from tests.runaway import crossroads_scaled

    runs: dict[float, list[dict[str, float]]] = {f: [] for f in feet}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for f in feet:
            paths[f] = Path(tmp) / f"crossroads-{f:g}ft.yaml"
            save(crossroads_scaled(f), paths[f])
        for r in range(repeat):
            order = feet if r % 2 == 0 else feet[::-1]  # alternated: no table always runs first
            print(f"round {r + 1}: load average {os.getloadavg()[0]:.2f}", flush=True)
            for f in order:
                got = table_run(paths[f])
                runs[f].append(got)
                print(f"  {f:g} ft: {got['cpu']:.2f} s CPU, peak {got['peak']:.0f} MiB, "
                      f"{got['undecided']:.0f} undecided", flush=True)
    base = statistics.median(r["cpu"] for r in runs[feet[0]])
    print(f"medians of {repeat} alternated rounds (ratios to the {feet[0]:g} ft table's CPU, same runs):")
    for f in feet:
        cpu = statistics.median(r["cpu"] for r in runs[f])
        peak = max(r["peak"] for r in runs[f])
        undecided = max(r["undecided"] for r in runs[f])
        print(f"  {f:g} ft: {cpu:.2f} s CPU = {cpu / base:.2f}x, peak {peak:.0f} MiB, {undecided:.0f} undecided")
    if 6.0 in runs:
        six = runs[6.0]
        ratio = statistics.median(r["cpu"] for r in six) / base
        peak_mb = max(r["peak"] for r in six) * 1.048576
        decided = max(r["undecided"] for r in six) == 0
        met = decided and ratio <= 4.0 and peak_mb <= 500.0
        print(f"goal (issue 38, 2): 6 ft decided ({'yes' if decided else 'no'}), <= 4x the 3 ft CPU ({ratio:.2f}x), "
              f"<= 500 MB ({peak_mb:.0f} MB): {'met' if met else 'NOT met'}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", default=[str(next(p for p in CANDIDATES if p.exists()))])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tables", action="store_true", help="the Crossroads at table scale (issue 38, goal 2)")
    ap.add_argument("--feet", type=float, nargs="+", default=[3.0, 4.5, 6.0], help="the tables of --tables")
    args = ap.parse_args()
    if args.tables:
        return tables(args.feet, args.repeat)
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
