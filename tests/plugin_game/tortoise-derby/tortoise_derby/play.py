"""Tortoise Derby played out (the studio's simulated play, :class:`engine.play.PlayEngine`): a
seeded race to the lettuces, small enough to test the studio's runner with a real engine.

Each tortoise crawls its shortest crawl (:func:`tortoise_derby.movement.shortest`) to its
nearest lettuce.  A turn, the tortoises move one at a time in an order drawn afresh each turn
(the initiative), each up to ``stride`` times a speed drawn uniformly between ``min_speed`` and
1 (the ``greedy`` policy) or half that (``dawdle``, a weaker bot for mixing policies).  Shells may
pass over each other (a tortoise climbs over another), but with ``rams`` on a step that would
end with the shells overlapping is a ``ram`` event where they meet and the climber crawls only
half the step.  Every tortoise that reaches a lettuce in a turn wins (a
tie shares the win); the turn limit ends a race nobody finishes.  The score is 10 on the
lettuce, else 10 times the share of its crawl done (so the winners have the best score).

Randomness comes only from ``numpy.random.default_rng(setup.seed)``.

>>> from tortoise_derby.model import default_arena
>>> from engine.play import PlaySetup
>>> record = ENGINE.play(default_arena(), PlaySetup((1, 2), ("greedy", "greedy"), 3))
>>> record.ended, ENGINE.replay(default_arena(), record)
('target', [])
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from engine.play import EndReason, Event, GameRecord, IllegalMove, PieceState, PlaySetup, Turn
from tortoise_derby.model import TortoiseDerbyArena
from tortoise_derby.movement import can_stand, shortest

Point = tuple[float, float]
#: Inches of slack in the replay's checks (rounding of recorded positions).
SLACK = 1e-6


@lru_cache(maxsize=64)
def _route(arena: TortoiseDerbyArena, player: int) -> tuple[str, tuple[Point, ...], float] | None:
    """Player's nearest lettuce by crawl, its crawl's corners and length (None: none reachable)."""
    start = next(t.position for t in arena.tortoises if t.player == player)
    best = None
    for le in arena.lettuces:
        crawl = shortest(arena, start, le.position)
        if crawl.length is not None and (best is None or crawl.length < best[2]):
            best = (le.id, crawl.path, crawl.length)
    return best


def _along(path: tuple[Point, ...], s: float) -> tuple[Point, float]:
    """The point ``s`` inches along ``path`` and the heading there (degrees)."""
    for a, b in zip(path, path[1:]):
        seg = math.dist(a, b)
        if s <= seg or b == path[-1]:
            t = 0.0 if seg == 0 else min(1.0, s / seg)
            return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])), math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        s -= seg
    return path[-1], 0.0


class TortoiseDerbyPlay:
    policies: tuple[str, ...] = ("greedy", "dawdle")
    parameters: dict[str, Any] = {"min_speed": 0.5, "rams": True, "turn_limit": 40}

    def seats(self, arena: TortoiseDerbyArena, players: int | None) -> tuple[int, ...]:
        """The first ``players`` tortoises by player number (all by default)."""
        have = tuple(sorted(t.player for t in arena.tortoises))
        k = len(have) if players is None else players
        if not 1 <= k <= len(have):
            raise ValueError(f"{arena.name} has {len(have)} tortoises; it cannot seat {k} players")
        return have[:k]

    def objectives(self, arena: TortoiseDerbyArena) -> tuple[str, ...]:
        return tuple(le.id for le in arena.lettuces)

    def balance_tolerance(self, arena: TortoiseDerbyArena) -> float:
        """Five points of win rate either way (the game has no book to say otherwise)."""
        return 0.05

    def play(self, arena: TortoiseDerbyArena, setup: PlaySetup) -> GameRecord:
        p = {**self.parameters, **setup.parameters}
        rng = np.random.default_rng(setup.seed)
        shell, stride = arena.scenario.shell, arena.scenario.stride
        limit = setup.max_turns or int(p["turn_limit"])
        routes = {s: _route(arena, s) for s in setup.starts}
        done = {s: 0.0 for s in setup.starts}
        where = {s: _along(r[1], 0.0)[0] if r else next(t.position for t in arena.tortoises if t.player == s)
                 for s, r in routes.items()}
        heading = {s: next(t.facing for t in arena.tortoises if t.player == s) for s in setup.starts}
        turns: list[Turn] = []
        work = 0
        ended: EndReason = "turn-limit"
        for number in range(1, limit + 1):
            events: list[Event] = []
            order = [setup.starts[i] for i in rng.permutation(len(setup.starts))]
            speeds = rng.uniform(float(p["min_speed"]), 1.0, len(setup.starts))
            for s, speed in zip(order, speeds):
                route = routes[s]
                if route is None:
                    continue
                oid, path, length = route
                if done[s] >= length:
                    continue
                seat = setup.starts.index(s)
                step = stride * speed * (0.5 if setup.policies[seat] == "dawdle" else 1.0)
                target = min(length, done[s] + step)
                work += 1
                if setup.max_work is not None and work > setup.max_work:
                    ended = "work-limit"
                    break
                at, head = _along(path, target)
                hit = [o for o in setup.starts if o != s and math.dist(at, where[o]) < 2 * shell - SLACK] \
                    if p["rams"] else []
                s_try = target
                if hit:  # a bump: the mover climbs over at half the step
                    o = hit[0]
                    events.append(Event("ram", s, (at[0] + where[o][0]) / 2, (at[1] + where[o][1]) / 2, str(o),
                                        detail=f"tortoise {s} bumps into tortoise {o}"))
                    s_try = min(length, done[s] + step / 2)
                    at, head = _along(path, s_try)
                done[s], where[s], heading[s] = s_try, at, head
                if done[s] >= length - SLACK:
                    events.append(Event("lettuce", s, at[0], at[1], oid, 10.0, f"tortoise {s} reaches {oid}"))
            scores = {s: 10.0 if r and done[s] >= r[2] - SLACK else round(10.0 * done[s] / r[2], 4) if r else 0.0
                      for s, r in routes.items()}
            pieces = tuple(PieceState(s, round(where[s][0], 6), round(where[s][1], 6), round(heading[s], 3),
                                      {"crawled": round(done[s], 6)}) for s in setup.starts)
            turns.append(Turn(number, pieces, tuple(events), scores))
            if ended == "work-limit":
                break
            if any(e.kind == "lettuce" for e in events):
                ended = "target"
                break
        final = turns[-1].scores if turns else {s: 0.0 for s in setup.starts}
        best = max(final.values())
        winners = tuple(s for s in setup.starts if final[s] == best)
        return GameRecord(setup, tuple(turns), ended, winners, work)

    def replay(self, arena: TortoiseDerbyArena, record: GameRecord) -> list[IllegalMove]:
        """Each turn: no tortoise crawled farther than a stride and each stands where a shell
        may."""
        stride = arena.scenario.stride
        last = {t.player: t.position for t in arena.tortoises}
        out: list[IllegalMove] = []
        for turn in record.turns:
            for piece in turn.pieces:
                at = (piece.x, piece.y)
                if math.dist(at, last[piece.start]) > stride + 1e-4:
                    out.append(IllegalMove(turn.number, piece.start, f"crawled {math.dist(at, last[piece.start]):.2f} in, "
                                                                     f"more than a stride ({stride:g} in)"))
                if not can_stand(arena, at):
                    out.append(IllegalMove(turn.number, piece.start, "its shell overlaps a rock or leaves the paddock"))
                last[piece.start] = at
        return out


ENGINE = TortoiseDerbyPlay()
