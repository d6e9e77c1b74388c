"""Travel planner benchmark.

Part 1, on the shipped default arena (arenas/default.yaml):
  * one start -> checkpoint query at `arena travel`'s tolerance (0.1 length, eighth-width
    sideslips), median of N searches on a warm planner (distance maps and configuration space
    already built);
  * one start -> every checkpoint search at 0.1;
  * the full start x checkpoint and checkpoint x checkpoint matrices at the analysis tolerance
    the validators use (0.25), planner only (no symmetry reuse), and through the validators'
    AnalysisContext (which reuses symmetric sources).
Part 2, against the plain reference search (tests/engine/reference_planner.py) on the small
generated arenas of the oracle tests (reverse speeds, half-width sideslips): total time of both on
the same queries, the speed ratio, and a check that every answer (time, icons, damage) is
identical.
Part 3, answers in bounded time: a checkpoint sealed in 0.5-thick walls on arenas of 20 x 10, 24 x
24 and 100 x 100 lengths, and a goal behind an exclusion field with --avoid-exclusions - each a
fresh planner (as `arena travel` runs), wall time to the "unreachable" answer.

Part 4 (``--exact-pairs start1|all``, alone): issue 20's exact query, each start -> checkpoint
pair at tolerance 0.01 in a fresh planner (as ``arena travel --tolerance 0.01``), each stopped
after ``--exact-seconds``.

Usage: python bench/travel.py [--repeat N] [--exact-matrix] [--seeds N] [--skip-default] [--skip-reference]
       python bench/travel.py --exact-pairs start1|all [--exact-seconds S]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gravstrike.geometry import ArenaGeometry  # noqa: E402
from engine.gravstrike.planner import CheckpointSource, Goal, Planner, Source, StartSource, TravelResult  # noqa: E402
from schema import load  # noqa: E402
from tests.engine.arenas import avoid_arena, sealed_arena, small_arena  # noqa: E402
from tests.engine.reference_planner import reference_plan  # noqa: E402
from validators.games.gravstrike.context import AnalysisContext  # noqa: E402
from validators.options import ANALYSIS_TOLERANCE  # noqa: E402


def key(r: TravelResult) -> tuple[Fraction, int, int] | None:
    return (Fraction(r.turns - 1) + Fraction(r.lengths, abs(r.speed)), r.icons, r.damage) if r.reachable else None


def clock(fn):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def median_of(repeat: int, fn):  # type: ignore[no-untyped-def]
    """(last result, median seconds) of ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        out, dt = clock(fn)
        samples.append(dt)
    return out, statistics.median(samples)


def part1(args: argparse.Namespace) -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    geometry = ArenaGeometry(arena)
    cps = [Goal("checkpoint", c.id) for c in arena.checkpoints]
    starts: list[Source] = [StartSource(s.player) for s in arena.start_positions]
    cp_sources: list[Source] = [CheckpointSource(c.id) for c in arena.checkpoints if c.kind == "outlying"]
    outlying = [Goal("checkpoint", c.id) for c in arena.checkpoints if c.kind == "outlying"]

    exact = Planner(arena, geometry, quantum=0.1)
    _, warm = clock(lambda: exact.plan(starts[0], cps[0]))
    print(f"default arena, arena travel's tolerance 0.1: first query incl. precompute {warm:.2f} s")
    r, med = median_of(args.repeat, lambda: exact.plan(starts[0], cps[0]))
    print(f"  one query start:1 -> checkpoint:{cps[0].id} (nearest): median {1000 * med:.0f} ms "
          f"over {args.repeat} (answer {r.time:.3f} turns, {r.icons} icons)")
    row, dt = clock(lambda: exact.plan_from(starts[0], cps))
    print(f"  start:1 -> every checkpoint, one search: {dt:.1f} s  "
          + " ".join(f"{g.id}={row[g].time:.3f}" for g in cps))
    vec = Planner(arena, geometry, quantum=0.1, minimise="time")
    vec.plan(starts[0], cps[0])
    rv, med = median_of(args.repeat, lambda: vec.plan(starts[0], cps[0]))
    print(f"  vectorised time-only search (engine/gravstrike/frontier.py), same query: median {1000 * med:.0f} ms "
          f"(answer {rv.time:.3f} turns)")
    rowv, dt = clock(lambda: vec.plan_from(starts[0], cps))
    print(f"  vectorised time-only, start:1 -> every checkpoint: {dt:.1f} s  "
          + " ".join(f"{g.id}={rowv[g].time:.3f}" for g in cps)
          + ("  (same times)" if all(abs(rowv[g].time - row[g].time) < 1e-9 for g in cps) else "  (TIMES DIFFER)"))
    if args.exact_matrix:
        _, dt = clock(lambda: [exact.plan_from(s, cps) for s in starts])
        print(f"  full start x checkpoint matrix at 0.1: {dt:.1f} s")

    scalar = Planner(arena, geometry, quantum=ANALYSIS_TOLERANCE, minimise="time", max_turns=12, vectorised=False)
    scalar.plan(starts[0], cps[0])
    _, dt0 = clock(lambda: {s: scalar.plan_from(s, cps) for s in starts})
    fast = Planner(arena, geometry, quantum=ANALYSIS_TOLERANCE, minimise="time", max_turns=12)
    fast.plan(starts[0], cps[0])
    sxc, dt1 = clock(lambda: {s: fast.plan_from(s, cps) for s in starts})
    cxc, dt2 = clock(lambda: {s: fast.plan_from(s, outlying) for s in cp_sources})
    single = [clock(lambda: fast.plan(s, g))[1] for s in starts for g in cps]
    print(f"analysis tolerance {ANALYSIS_TOLERANCE}, one start -> checkpoint query at a time ({len(single)} pairs, "
          f"warm planner): median {1000 * statistics.median(single):.0f} ms, worst {1000 * max(single):.0f} ms "
          "(target: median <= 50 ms)")
    print(f"analysis tolerance {ANALYSIS_TOLERANCE}, planner only: start x checkpoint ({len(starts)}x{len(cps)}) "
          f"{dt1:.2f} s vectorised ({dt0:.1f} s one state at a time), outlying checkpoint x checkpoint {dt2:.2f} s")
    for src, res in [*sxc.items(), *cxc.items()]:
        name = f"start:{src.player}" if isinstance(src, StartSource) else f"checkpoint:{src.checkpoint}"  # type: ignore[union-attr]
        print(f"    {name:14s} " + "  ".join(f"{g.id}={res[g].time:.3f}" if res[g].reachable else f"{g.id}=--" for g in res))
    differ = [(s, g) for s in starts for g in cps if abs(sxc[s][g].time - row[g].time) > 1e-9 and s == starts[0]]
    print(f"  start:1 row equal to the exact search: {'yes' if not differ else 'NO: ' + str(differ)}")
    ctx = AnalysisContext(arena)
    _, dt = clock(lambda: ([ctx.travel_from(f"start:{s.player}") for s in arena.start_positions],  # type: ignore[union-attr]
                           [ctx.travel_from(f"checkpoint:{s.checkpoint}") for s in cp_sources]))  # type: ignore[union-attr]
    print(f"  through AnalysisContext (symmetry reuse, every goal kind): {dt:.2f} s, {ctx.searches} searches")


def part2(args: argparse.Namespace) -> None:
    t_fast = t_ref = t_vec = 0.0
    answers = mismatches = vec_mismatches = 0
    for seed in range(args.seeds):
        arena, turns = small_arena(seed)
        goals = [Goal("checkpoint", c.id) for c in arena.checkpoints]
        budget = arena.turbine.icons_per_turn
        for src in (StartSource(1), StartSource(2)):
            planner = Planner(arena, quantum=1e-4, max_turns=turns, slip_steps=2)
            fast, dt = clock(lambda: planner.plan_from(src, goals))
            t_fast += dt
            ref, dt = clock(lambda: reference_plan(arena, src, goals, budget=budget, quantum=1e-4, max_turns=turns,
                                                   slip_steps=2))
            t_ref += dt
            timed = Planner(arena, quantum=1e-4, max_turns=turns, minimise="time", slip_steps=2)
            vec, dt = clock(lambda: timed.plan_from(src, goals))
            t_vec += dt
            for g in goals:
                o = ref[g]
                expected = None if o is None else (Fraction(o[0] - 1) + Fraction(o[1], abs(o[2])), o[3], o[4])
                answers += 1
                if key(fast[g]) != expected:
                    mismatches += 1
                    print(f"  MISMATCH seed {seed} {src} -> {g}: fast {key(fast[g])} reference {expected}")
                got = key(vec[g])
                if (got and got[0]) != (expected and expected[0]):
                    vec_mismatches += 1
                    print(f"  MISMATCH (time) seed {seed} {src} -> {g}: vectorised {got} reference {expected}")
    print(f"reference comparison on {args.seeds} small arenas x 2 starts ({answers} answers): fast {t_fast:.2f} s, "
          f"reference {t_ref:.2f} s -> {t_ref / t_fast:.1f}x; {'identical answers' if not mismatches else f'{mismatches} DIFFER'}")
    print(f"  vectorised time-only search, same queries: {t_vec:.2f} s -> {t_ref / t_vec:.1f}x the reference; "
          f"{'identical times' if not vec_mismatches else f'{vec_mismatches} times DIFFER'}")


def part3(args: argparse.Namespace) -> None:
    goal = Goal("checkpoint", "A")
    print("answers in bounded time (fresh planner each, median of 3; full objective as `arena travel`):")
    cases = [("sealed checkpoint, 20 x 10, tolerance 0.1", sealed_arena((20.0, 10.0)), {}, 1.0),
             ("sealed checkpoint, 24 x 24 (the default arena's size), 0.1", sealed_arena((24.0, 24.0)), {}, 1.0),
             ("sealed checkpoint, 24 x 24, finest tolerance 0.01", sealed_arena((24.0, 24.0)), {"quantum": 0.01}, 1.0),
             ("sealed checkpoint, 100 x 100, 0.1", sealed_arena((100.0, 100.0)), {}, 5.0),
             ("behind an exclusion field, --avoid-exclusions, 24 x 24", avoid_arena(), {"exclusions": "avoid"}, 1.0)]
    for name, arena, kw, target in cases:
        r, dt = median_of(3, lambda: Planner(arena, **kw).plan(StartSource(1), goal))  # type: ignore[arg-type]
        print(f"  {name}: {dt:.2f} s ({r.status}; target <= {target:g} s)")


def part4(args: argparse.Namespace) -> None:
    """Issue 20's exact query: every start -> checkpoint pair of the default arena at the finest
    tolerance (0.01: positions closer than that merge, sideslips in 1/64 widths), each in a fresh
    planner as one `arena travel --tolerance 0.01` runs it, stopped after --exact-seconds."""
    from engine.gravstrike.travel_types import SearchLimits

    arena = load(ROOT / "arenas" / "default.yaml")
    cap = args.exact_seconds
    print(f"exact tolerance 0.01, default arena, fresh planner per pair (target <= 1 s; stopped after {cap:g} s):")
    times = []
    for st in arena.start_positions if args.exact_pairs == "all" else arena.start_positions[:1]:
        for cp in arena.checkpoints:
            planner = Planner(arena, quantum=0.01, minimise="time", limits=SearchLimits(max_seconds=cap))
            r, dt = clock(lambda: planner.plan(StartSource(st.player), Goal("checkpoint", cp.id)))
            times.append(dt)
            answer = f"{r.time:.3f} turns" if r.reachable else f"{r.status} ({r.undecided})" if r.undecided else r.status
            print(f"  start:{st.player} -> checkpoint:{cp.id}: {dt:.2f} s, {answer}", flush=True)
    print(f"  median {statistics.median(times):.2f} s, worst {max(times):.2f} s over {len(times)} pairs")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=12)
    ap.add_argument("--exact-matrix", action="store_true", help="also the start x checkpoint matrix at 0.1 (minutes)")
    ap.add_argument("--skip-default", action="store_true")
    ap.add_argument("--skip-reference", action="store_true")
    ap.add_argument("--exact-pairs", choices=["start1", "all"], help="part 4: start -> checkpoint queries at 0.01 (minutes)")
    ap.add_argument("--exact-seconds", type=float, default=120.0, help="part 4: stop each query after this many seconds")
    args = ap.parse_args()
    if args.exact_pairs:
        part4(args)
        return 0
    if not args.skip_default:
        part1(args)
    if not args.skip_reference:
        part2(args)
    part3(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
