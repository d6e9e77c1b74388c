"""Gravstrike simulated-play benchmark (issue 40): six-player games of the default arena with the
greedy policy, in games per second of CPU, against the goal of 1,000 games in 2 minutes on two
cores (<= 0.24 s of CPU a game), and the runner's scaling from one Dask worker to two.

The machine is shared, so the seconds alone mean little: every round also times a floor - a
fixed amount of footprint tests done with shapely alone (footprints built and tested against the
arena's bounds and walls, as the rules' end-of-length checks did before they got their quick
answers), untouched by the engine's own speed-ups, so ratios compare across versions - and the
table gives each round's CPU a game as a multiple of the floor's median, next to the seconds.
Rounds alternate the games and the floor so that both see the same load.

The first games of a process build the arena's kit (:mod:`engine.gravstrike.play.kit`, once per
arena and process): planners, heading lattices (a new one for each heading a disentangling
pivot leaves the 30-degree lattice at), plans, lengths, TNs.  Games of one arena repeat most of
these, so a worker gets faster over its first games: ``--warm`` games are timed apart
("warm-up") and the rounds after them reuse the kit, as a runner's worker does over its share
of the 1,000 games.  The projection of the 1,000 games on two cores counts each worker's
warm-up and its other 500 - W games at the rounds' median.

Dask (``--dask-games``, 0: skip): a LocalCluster of one worker process and one of two (one
thread each), the runner's ``scheduler=`` path (:func:`validators.simulate.simulate`); each
worker is warmed with ``--warm`` games first (it keeps its kit across chunks), then the same
games are timed on each cluster: the speed-up is the wall time on one worker over the time on
two (2.0: linear), next to the workers' CPU a game.

The work is reported too, as it doesn't depend on the load: the planner searches a game runs
(:attr:`engine.gravstrike.play.kit.Kit.searches`, cache misses), the greedy policy's re-plans
(:attr:`~engine.gravstrike.play.kit.Kit.soonest_calls`) and the record's work units.

Usage: python bench/simulate_gravstrike.py [--games N] [--rounds R] [--warm W] [--dask-games D]
[--policy P] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import shapely  # noqa: E402

from engine.gravstrike.play import ENGINE  # noqa: E402
from engine.gravstrike.play.kit import kit_for  # noqa: E402
from engine.play import PlaySetup  # noqa: E402
from schema import load  # noqa: E402
from schema.games.gravstrike.model import Arena  # noqa: E402

DEFAULT = ROOT / "arenas" / "default.yaml"
#: The goal: 1,000 games in 120 s on two cores.
GOAL_CPU_PER_GAME = 120.0 * 2 / 1000
GAMES = 1000
#: Footprints the floor tests.
FLOOR_FOOTPRINTS = 2000


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def floor(arena: Arena) -> float:
    """CPU seconds of :data:`FLOOR_FOOTPRINTS` footprints built and tested with shapely against
    the arena's bounds and walls (no engine code: the same work in every version)."""
    import math

    bounds = arena.bounds_geometry()
    shapely.prepare(bounds)
    walls = [w.shape.to_shapely() for w in arena.walls]
    for w in walls:
        shapely.prepare(w)
    hl, hw = arena.turbine.length / 2.0, arena.turbine.width / 2.0
    c = cpu()
    hits = 0
    for i in range(FLOOR_FOOTPRINTS):
        a = 0.01 * i
        x, y, h = 9.0 * math.cos(a), 9.0 * math.sin(1.3 * a), math.radians(7.0 * i)
        co, si = math.cos(h), math.sin(h)
        pts = [(x + lx * co - ly * si, y + lx * si + ly * co) for lx, ly in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))]
        fp = shapely.polygons(pts + pts[:1])
        hits += int(not bounds.contains(fp)) + sum(int(w.intersects(fp)) for w in walls)
    return cpu() - c


def games(arena: Arena, seeds: range, policy: str) -> tuple[float, list[str], dict[str, int]]:
    """CPU seconds for the games of ``seeds``, how each ended, and their work (planner searches,
    re-plans, work units)."""
    seats = ENGINE.seats(arena, 6)
    kit = kit_for(arena)
    searches, replans = kit.searches, kit.soonest_calls
    c = cpu()
    records = [ENGINE.play(arena, PlaySetup(seats, (policy,) * len(seats), seed=s)) for s in seeds]
    spent = cpu() - c
    work = {"searches": kit.searches - searches, "replans": kit.soonest_calls - replans,
            "work": sum(r.work for r in records)}
    return spent, [str(r.ended) for r in records], work


def _warm_worker(path: str, count: int, policy: str) -> float:
    """On a Dask worker: play ``count`` games (its kit warms up); its CPU seconds."""
    arena = load(path)
    assert isinstance(arena, Arena)
    return games(arena, range(10**6, 10**6 + count), policy)[0]


def _worker_cpu() -> float:
    return cpu()


def _kits_made() -> int:
    """Kits the worker made (1: it kept its kit from the warm-up through every chunk)."""
    from engine.gravstrike.play.kit import kits_made

    return kits_made()


def dask_scaling(count: int, warm: int, policy: str) -> dict[str, Any]:
    """Wall seconds and the workers' CPU a game for ``count`` games on one Dask worker and on two."""
    import distributed

    from validators.simulate import simulate

    arena = load(DEFAULT)
    out: dict[str, Any] = {}
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None, host="127.0.0.1") as cluster, \
                distributed.Client(cluster.scheduler_address) as client:
            client.run(_warm_worker, str(DEFAULT), warm, policy)  # each worker's kit
            before = client.run(_worker_cpu)
            t = time.perf_counter()
            doc = simulate(arena, count, 0, players=6, policy=policy, scheduler=cluster.scheduler_address,
                           workers=workers).document
            wall = time.perf_counter() - t
            after = client.run(_worker_cpu)
            kits = client.run(_kits_made)
        assert doc["games_counted"] == count, doc["games_counted"]
        spent = sum(after[k] - before[k] for k in after)
        out[str(workers)] = {"wall_s": wall, "worker_cpu_per_game_s": spent / count,
                             "kits_made_per_worker": sorted(kits.values())}
    out["speedup"] = out["1"]["wall_s"] / out["2"]["wall_s"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games a round (default 10)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--warm", type=int, default=20, help="warm-up games before the rounds (default 20)")
    ap.add_argument("--dask-games", type=int, default=40, help="games timed on each Dask cluster (default 40; 0: skip)")
    ap.add_argument("--policy", default="greedy", choices=ENGINE.policies)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    arena = load(DEFAULT)
    assert isinstance(arena, Arena)
    c = cpu()
    games(arena, range(10**6, 10**6 + args.warm), args.policy)
    warm = cpu() - c
    rounds = []
    for r in range(args.rounds):
        f = floor(arena)
        spent, ended, work = games(arena, range(r * args.games, (r + 1) * args.games), args.policy)
        rounds.append((spent / args.games, f, ended, work))
    per_game = statistics.median(x[0] for x in rounds)
    fl = statistics.median(x[1] for x in rounds)
    ratio = statistics.median(x[0] / x[1] for x in rounds)
    played = args.games * args.rounds
    per = {k: sum(x[3][k] for x in rounds) / played for k in ("searches", "replans", "work")}
    share = GAMES // 2
    projected = warm + per_game * max(0, share - args.warm)
    result: dict[str, Any] = {
        "policy": args.policy, "games_per_round": args.games, "rounds": args.rounds, "warm_up_games": args.warm,
        "warm_up_s": warm, "cpu_per_game_s": per_game, "games_per_cpu_s": 1.0 / per_game if per_game else None,
        "round_cpu_per_game_s": [x[0] for x in rounds], "round_ratio_to_floor": [x[0] / x[1] for x in rounds],
        "floor_s": fl, "ratio_to_floor": ratio,
        "projected_1000_games_two_cores_s": projected, "projected_steady_only_s": per_game * share,
        "goal_cpu_per_game_s": GOAL_CPU_PER_GAME, "goal_ratio_to_floor": GOAL_CPU_PER_GAME / fl if fl else None,
        "goal_met": projected <= 120.0,
        "searches_per_game": per["searches"], "replans_per_game": per["replans"], "work_per_game": per["work"],
        "ended": {k: sum(e.count(k) for e in (x[2] for x in rounds)) for k in ("target", "turn-limit", "work-limit")},
    }
    if args.dask_games:
        result["dask"] = dask_scaling(args.dask_games, args.warm, args.policy)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"warm-up ({args.warm} games: kit, lattices, first plans): {warm:.2f} s CPU")
    for i, (g, f, _, w) in enumerate(rounds, start=1):
        print(f"round {i}: {g:.3f} s CPU a game, floor {f:.3f} s, ratio {g / f:.1f}; "
              f"{w['searches'] / args.games:.1f} searches, {w['replans'] / args.games:.1f} re-plans a game")
    print(f"work a game: {per['searches']:.1f} planner searches, {per['replans']:.1f} re-plans, {per['work']:.0f} units")
    print(f"median: {per_game:.3f} s CPU a game ({1 / per_game:.2f} games/s a core), {ratio:.1f}x the floor "
          f"(goal {GOAL_CPU_PER_GAME:.2f} s = {GOAL_CPU_PER_GAME / fl:.1f}x)")
    print(f"1,000 games on two cores ~ {projected:.0f} s (each worker: its warm-up, then {share - args.warm} games "
          f"at the median; steady state alone {per_game * share:.0f} s): goal <= 120 s "
          f"{'met' if result['goal_met'] else 'NOT met'}")
    if args.dask_games:
        d = result["dask"]
        print(f"Dask, {args.dask_games} games after {args.warm} warm-up games a worker: one worker {d['1']['wall_s']:.1f} s "
              f"({d['1']['worker_cpu_per_game_s']:.3f} s CPU a game), two {d['2']['wall_s']:.1f} s "
              f"({d['2']['worker_cpu_per_game_s']:.3f} s CPU a game): speed-up {d['speedup']:.2f} (linear: 2); "
              f"kits made per worker: {d['1']['kits_made_per_worker']}, {d['2']['kits_made_per_worker']}")


if __name__ == "__main__":
    main()
