"""Live-validation benchmark: after moving one element of the default arena, how long until the
editor has new findings.

It drives what the editor's validation job runs, end to end, without the window: the edit goes
to the persistent workers (editor/travel_workers.py: two processes that keep their searches
between edits, resume them for moved goals, and share out the edit's work, the quick stage -
format checks and the validators that need no travel - included), then the travel validators run
here on the workers' answers.  Steady state: the workers have warmed up after opening the arena.
Medians over N moves of each kind of element.  "all findings" are the first (from the kept
searches: provisional after a goal move); "final" the exact ones the run ends on (after a goal
move the workers renew their sessions and search again: :class:`editor.games.gravstrike.live_travel.ExactTravel`).

``--size L``: a generated L × L table instead (``tests/engine/table_arenas.py``, seed ``--seed``:
four starts, five checkpoints, 5 walls per 6 lengths, no symmetry; issue 20 asks for findings
within 100 ms after moving a checkpoint and within 1 s after moving a start or a wall at 48).

Usage: python bench/editor_update.py [--moves N] [--slow-moves N] [--size L [--seed N]] [--samples]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from editor.validation import LiveTravel  # noqa: E402
from schema import load  # noqa: E402
from schema.games.gravstrike.model import Arena


def _shift(shape: Any, dx: float, dy: float) -> Any:
    return dataclasses.replace(shape, center=(shape.center[0] + dx, shape.center[1] + dy))


def moves(arena: Arena) -> dict[str, Callable[[Arena, int], Arena]]:
    """Kind of edit -> function making the i-th edit (small drags back and forth)."""
    def wiggle(i: int) -> tuple[float, float]:
        return (0.1 * (1 if i % 2 else -1), 0.05 * (i % 3))

    def checkpoint(a: Arena, i: int) -> Arena:
        cp = a.checkpoints[0]
        return dataclasses.replace(a, checkpoints=(dataclasses.replace(cp, shape=_shift(cp.shape, *wiggle(i))), *a.checkpoints[1:]))

    def target(a: Arena, i: int) -> Arena:
        t = a.static_targets[0]
        dx, dy = wiggle(i)
        return dataclasses.replace(a, static_targets=(dataclasses.replace(t, position=(t.position[0] + dx, t.position[1] + dy)), *a.static_targets[1:]))

    def start(a: Arena, i: int) -> Arena:
        s = a.start_positions[0]
        dx, dy = wiggle(i)
        return dataclasses.replace(a, start_positions=(dataclasses.replace(s, position=(s.position[0] + dx, s.position[1] + dy)), *a.start_positions[1:]))

    def wall(a: Arena, i: int) -> Arena:
        w = a.walls[0]
        return dataclasses.replace(a, walls=(dataclasses.replace(w, shape=_shift(w.shape, *wiggle(i))), *a.walls[1:]))

    kinds = {"checkpoint A": checkpoint, "static target T1": target, "start 1": start, "wall W1": wall}
    return {k: f for k, f in kinds.items() if k != "static target T1" or arena.static_targets}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=9)
    ap.add_argument("--slow-moves", type=int, default=3, help="moves of starts and walls (they search again)")
    ap.add_argument("--samples", action="store_true", help="also print every edit's time, in order")
    ap.add_argument("--size", type=float, help="a generated table this many lengths across")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.size:
        from tests.engine.table_arenas import table_arena

        base = table_arena(args.size, args.seed)
        print(f"generated table {args.size:g} x {args.size:g} (seed {args.seed}, {len(base.walls)} walls)")
    else:
        base = load(ROOT / "arenas" / "default.yaml")
    live = LiveTravel()
    t = time.perf_counter()
    live(base)
    print(f"first run after opening (workers start, search, symmetric sources searched too): {time.perf_counter() - t:.2f} s")
    try:
        for kind, edit in moves(base).items():
            arena = base
            live(arena)
            live._workers.wait_warm()
            quick, total, final = [], [], []
            n = args.moves if kind in ("checkpoint A", "static target T1") else args.slow_moves
            for i in range(n):
                arena = edit(arena, i)
                t0 = time.perf_counter()
                live.submit(arena)
                live.quick(arena)
                t1 = time.perf_counter()
                live(arena)
                t2 = time.perf_counter()
                live.exact_stage(arena)
                quick.append(t1 - t0)
                total.append(t2 - t0)
                final.append(time.perf_counter() - t0)
                live._workers.wait_warm()
            print(f"move {kind:16s}: quick findings {1000 * statistics.median(quick):4.0f} ms, all findings "
                  f"{1000 * statistics.median(total):5.0f} ms (median of {n}, max {1000 * max(total):.0f} ms; target "
                  f"{'100 ms' if kind in ('checkpoint A', 'static target T1') else '1 s at 48 lengths'}), "
                  f"final {1000 * statistics.median(final):5.0f} ms")
            if args.samples:
                print("    each:", " ".join(f"{1000 * x:.0f}" for x in total), "ms")
    finally:
        live.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
