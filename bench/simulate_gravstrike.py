"""Gravstrike simulated-play benchmark (issue 40): six-player games of the default arena with the
greedy policy, in games per second of CPU, against the goal of 1,000 games in 2 minutes on two
cores (<= 0.24 s of CPU a game).

The machine is shared, so the seconds alone mean little: every round also times a floor - a
fixed amount of the work a game is made of (footprint tests and lengths moved through
:func:`engine.gravstrike.length.apply` on the same arena) - and the table gives each round's
CPU a game as a multiple of the floor's median, next to the seconds.  Rounds alternate the games
and the floor so that both see the same load.

The first games of a process build the arena's planners, their heading lattices and the first
plans (the kit, :mod:`engine.gravstrike.play.kit`, made once per arena and process): ``--warm``
games are timed apart ("warm-up") and the rounds after them reuse the kit, as a runner's worker
does over its share of the 1,000 games.

The work is reported too, as it doesn't depend on the load: the planner searches a game runs
(:attr:`engine.gravstrike.play.kit.Kit.searches`, cache misses), the greedy policy's re-plans
(:attr:`~engine.gravstrike.play.kit.Kit.soonest_calls`) and the record's work units.

Usage: python bench/simulate_gravstrike.py [--games N] [--rounds R] [--warm W] [--policy P] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.gravstrike.length import TurnState, apply  # noqa: E402
from engine.gravstrike.motion import Maneuver, Pose  # noqa: E402
from engine.gravstrike.play import ENGINE  # noqa: E402
from engine.gravstrike.play.kit import kit_for  # noqa: E402
from engine.play import PlaySetup  # noqa: E402
from schema import load  # noqa: E402
from schema.games.gravstrike.model import Arena  # noqa: E402

DEFAULT = ROOT / "arenas" / "default.yaml"
#: The goal: 1,000 games in 120 s on two cores.
GOAL_CPU_PER_GAME = 120.0 * 2 / 1000
#: Lengths the floor moves (about what one six-player game moves).
FLOOR_LENGTHS = 500


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def floor(arena: Arena) -> float:
    """CPU seconds of :data:`FLOOR_LENGTHS` lengths moved round the arena's centre."""
    g = kit_for(arena).geometry
    c = cpu()
    pose = Pose(-2.0, -2.0, 0.0)
    state = TurnState.start(6, lengths=FLOOR_LENGTHS, icons=None)
    for i in range(FLOOR_LENGTHS):
        r = apply(g, pose, Maneuver(30 if i % 4 else 0), state, resolve_rams=False)
        pose, state = r.pose, r.state
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10, help="games a round (default 10)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--warm", type=int, default=3, help="warm-up games before the rounds (default 3)")
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
    played = args.games * args.rounds
    per = {k: sum(x[3][k] for x in rounds) / played for k in ("searches", "replans", "work")}
    result = {
        "policy": args.policy, "games_per_round": args.games, "rounds": args.rounds, "warm_up_games": args.warm,
        "warm_up_s": warm, "cpu_per_game_s": per_game, "games_per_cpu_s": 1.0 / per_game if per_game else None,
        "games_per_s_two_workers": 2.0 / per_game if per_game else None,
        "floor_s": fl, "ratio_to_floor": per_game / fl if fl else None,
        "projected_1000_games_two_cores_s": per_game * 1000 / 2,
        "goal_cpu_per_game_s": GOAL_CPU_PER_GAME, "goal_met": per_game <= GOAL_CPU_PER_GAME,
        "searches_per_game": per["searches"], "replans_per_game": per["replans"], "work_per_game": per["work"],
        "ended": {k: sum(e.count(k) for e in (x[2] for x in rounds)) for k in ("target", "turn-limit", "work-limit")},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"warm-up ({args.warm} games: kit, lattices, first plans): {warm:.2f} s CPU")
    for i, (g, f, _, w) in enumerate(rounds, start=1):
        print(f"round {i}: {g:.3f} s CPU a game, floor {f:.3f} s, ratio {g / f:.1f}; "
              f"{w['searches'] / args.games:.1f} searches, {w['replans'] / args.games:.1f} re-plans a game")
    print(f"work a game: {per['searches']:.1f} planner searches, {per['replans']:.1f} re-plans, {per['work']:.0f} units")
    print(f"median: {per_game:.3f} s CPU a game ({1 / per_game:.2f} games/s a core, {2 / per_game:.2f} on two "
          f"workers), {per_game / fl:.1f}x the floor; 1,000 games on two cores ~ {per_game * 500:.0f} s "
          f"(goal <= 120 s, {GOAL_CPU_PER_GAME / fl:.1f}x the floor a game: {'met' if result['goal_met'] else 'NOT met'})")


if __name__ == "__main__":
    main()
