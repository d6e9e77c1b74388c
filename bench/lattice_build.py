"""Lattice-build benchmark (not a test): the CPU a tabletop-robustness placement spends building
its :class:`~engine.gravstrike.lattice.HeadingLattice` s (configuration spaces included).

For each of ``--placements`` perturbed copies of arenas/default.yaml (``placement_error.perturb``,
seeded) a fresh planner is made as the validators make it (``AnalysisContext.planner``) and
``planner.lattice(base)`` is called for ``--lattices`` random bases in [0, 30), as a placement's
searches do.  Prints the CPU seconds (``time.process_time``) per placement, best and median of
``--repeats`` runs, and a profile of one run with ``--profile``.  Run from the worktree to time:

    PYTHONPATH=. .venv/bin/python bench/lattice_build.py [--placements 8] [--lattices 7] [--repeats 5]

(to compare with older code, run the same file from a worktree of that commit).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from engine.gravstrike.placement_error import perturb, tolerance
from schema import load
from validators.games.gravstrike.context import AnalysisContext

ROOT = Path(__file__).resolve().parents[1]


def placements(n: int, seed: int) -> list:
    arena = load(ROOT / "arenas" / "default.yaml")
    return [perturb(arena, np.random.default_rng(seed + k), tolerance(arena))[0] for k in range(n)]


def run(arenas: list, lattices: int, seed: int) -> float:
    """CPU seconds per placement to make its planner's lattices."""
    rng = np.random.default_rng(seed)
    bases = [rng.uniform(0.0, 30.0, lattices).tolist() for _ in arenas]
    spent = 0.0
    for arena, bs in zip(arenas, bases):
        planner = AnalysisContext(arena).planner  # untimed: made once per placement whatever the lattices cost
        t0 = time.process_time()
        for b in bs:
            planner.lattice(b)
        spent += time.process_time() - t0
    return spent / len(arenas)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--placements", type=int, default=8)
    ap.add_argument("--lattices", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    arenas = placements(args.placements, args.seed)
    run(arenas[:1], args.lattices, args.seed)  # warm up (imports, numba kernels)
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        run(arenas, args.lattices, args.seed)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return
    times = [run(arenas, args.lattices, args.seed) for _ in range(args.repeats)]
    print(f"lattice build, {args.placements} placements x {args.lattices} lattices: CPU per placement "
          f"best {min(times):.4f} s, median {statistics.median(times):.4f} s "
          f"(runs: {', '.join(f'{t:.4f}' for t in times)})")


if __name__ == "__main__":
    main()
