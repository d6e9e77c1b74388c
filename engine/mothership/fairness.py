"""Fairness on the battlefield: squares (AP) from each of a player's build squares to the enemy
Mothership's adjacent row, the same for both players.

>>> from schema.games.mothership import default_arena
>>> [(a.player, a.ap) for a in approach(default_arena())]
[(1, (4, 4, 4)), (2, (4, 4, 4))]
>>> compare(default_arena())
[]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.mothership.battlefield import battlefield_of
from engine.mothership.checks import Issue
from engine.mothership.rules import AP_PER_UNIT
from engine.mothership.travel import SearchLimits, reach_within
from schema.games.mothership import MothershipArena


@dataclass(frozen=True)
class Approach:
    """Player ``player``'s build squares (in order) and the fewest AP from each to a
    battlefield square next to the enemy Mothership (None: no way through), with the rounds
    one Unit needs at 5 AP a round."""

    player: int
    mothership: str
    squares: tuple[tuple[int, int], ...]
    ap: tuple[int | None, ...]
    rounds: tuple[int | None, ...]
    #: Per build square, the limit that kept its search from deciding (None: decided).
    undecided: tuple[str | None, ...] = ()


def approach(arena: MothershipArena, limits: SearchLimits = SearchLimits()) -> list[Approach]:
    """Each player's :class:`Approach` (searches bounded by ``limits`` and the analysis's caps:
    a square one of them left open has ``undecided`` set, not "no way through")."""
    bf = battlefield_of(arena)
    out = []
    for m in arena.motherships:
        enemies = [e for e in arena.motherships if e.player != m.player]
        if not enemies:
            continue
        targets = set(bf.adjacent_row(enemies[0]))
        builds = tuple(s for s in m.build_squares if s in bf.squares)
        ap: list[int | None] = []
        why: list[str | None] = []
        for s in builds:
            dist, reason = reach_within(arena, [s], limits=limits)
            best = min((d for t, d in dist.items() if t in targets), default=None)
            ap.append(best)
            why.append(reason)
        out.append(Approach(m.player, m.id, builds, tuple(ap),
                            tuple(None if a is None else math.ceil(a / AP_PER_UNIT) for a in ap), tuple(why)))
    return out


def compare(arena: MothershipArena, approaches: Sequence[Approach] | None = None) -> list[Issue]:
    """``mg-approach``: both players' build squares reach the enemy's row in the same AP
    (sorted, within the scenario's tolerance), and every build square reaches it."""
    if "mg-approach" in arena.scenario.analysis.disabled:
        return []
    aps = list(approach(arena)) if approaches is None else list(approaches)
    out = []
    for a in aps:  # a square whose search a limit stopped is not proven stuck (its caller reports it)
        open_ = a.undecided or (None,) * len(a.squares)
        stuck = [s for s, d, why in zip(a.squares, a.ap, open_) if d is None and why is None]
        if stuck:
            out.append(Issue("mg-approach", "warning",
                             f"{len(stuck)} of player {a.player}'s build squares cannot reach the enemy Mothership's row.",
                             (a.mothership,), {"squares": [list(s) for s in stuck]}))
    if len(aps) == 2:
        p, q = aps
        tol = arena.scenario.analysis.approach_tolerance
        sp = sorted(d for d in p.ap if d is not None)
        sq = sorted(d for d in q.ap if d is not None)
        if len(sp) != len(sq) or any(abs(x - y) > tol for x, y in zip(sp, sq)):
            out.append(Issue("mg-approach", "warning",
                             f"The players' approaches differ: player {p.player} needs {sp} AP from its build squares to "
                             f"the enemy Mothership's row, player {q.player} {sq} (tolerance {tol}). \"For every square in "
                             "which the Units move, they spend 1 AP.\"", (p.mothership, q.mothership),
                             {f"player{p.player}": list(p.ap), f"player{q.player}": list(q.ap), "tolerance": tol}))
    return out
