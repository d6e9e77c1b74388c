"""Generated arenas benchmark (issue 19 part 3): wall time of ``arena generate`` for a
four-player arena (target: <= 2 minutes on two cores), and with ``--sweep`` the 20-seed sweep
over two player counts that ``make test`` keeps only a bounded subset of (tests/generate).

Each run is the library call the CLI makes (two local worker processes), seeded; the table
gives per run the seconds, rounds, candidates scored and whether the arena passes every
validator (then it is validated again here, independently, to be sure).

A game with one player count sweeps two boards instead (``--tables``: Arena Rex is for two
players, "both players roll a D6"; its sweep is the 30 in circle and the 24 in square).

Usage: python bench/generate.py [--system gravstrike] [--players 4] [--seeds 7] [--workers 2] [--budget 120]
       python bench/generate.py --sweep [--system S] [--players 4 2] [--tables T ...] [--seeds 0..19]
       python bench/generate.py --sweep --system mothership-grid --players 2 --tables 3x5 5x7
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


def main() -> int:
    from validators.generate import generate, hook_of
    from validators.run import validate

    ap = argparse.ArgumentParser()
    ap.add_argument("--system", default="gravstrike", help="the game (a ruleset id with a generator)")
    ap.add_argument("--players", type=int, nargs="*", default=None)
    ap.add_argument("--seeds", type=int, nargs="*", default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--budget", type=float, default=120.0)
    ap.add_argument("--tables", nargs="*", default=None, help="boards (the game's --table values; default: its own)")
    ap.add_argument("--sweep", action="store_true", help="20 seeds (0-19) for 4 and 2 players")
    args = ap.parse_args()
    hook = hook_of(args.system)
    own = getattr(hook, "default_players", None)
    players = args.players or ([own] if own else [4, 2] if args.sweep else [4])
    seeds = args.seeds if args.seeds is not None else (list(range(20)) if args.sweep else [7])
    print(f"system {args.system}; load average at start: {' '.join(f'{v:.1f}' for v in os.getloadavg())}; {os.cpu_count()} cores; "
          f"{args.workers} workers, budget {args.budget:g} s")
    print(f"{'players':>7} {'table':>8} {'seed':>4} {'seconds':>8} {'rounds':>6} {'scored':>6}  verdict")
    failed = 0
    for p, table in ((p, t) for p in players for t in (args.tables or [None])):
        times = []
        for seed in seeds:
            plan = hook.plan(None, p, None, None, table)
            t0 = time.perf_counter()
            out = generate(args.system, plan, seed, budget=args.budget, workers=args.workers)
            dt = time.perf_counter() - t0
            times.append(dt)
            ok = out.passed and not [f for f in validate(out.arena).findings if f.severity in ("error", "warning")]
            failed += not ok
            verdict = "passes" if ok else f"FAILS ({len(out.best.failing)} findings at {out.best.stage})"
            print(f"{p:>7} {table or '-':>8} {seed:>4} {dt:>8.1f} {out.rounds:>6} {out.evaluated:>6}  {verdict}", flush=True)
        print(f"{p} players{', ' + table if table else ''}: median {statistics.median(times):.1f} s, max {max(times):.1f} s over {len(times)} seeds")
    print(f"load average at end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}; {failed} run(s) without a pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
