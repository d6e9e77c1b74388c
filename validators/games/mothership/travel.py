"""Mothership travel queries for ``arena travel`` and the service (the analysis's ``travel``
hook, :func:`answer`): the fewest action points for a Unit between squares of the battlefield
("For every square in which the Units move, they spend 1 AP", moves orthogonal:
:func:`engine.mothership.travel.plan`), and the rounds that takes at the 5 AP one Unit may
spend a round ("a maximum of 5 are utilizable by 1 single Unit").  The battlefield is taken
empty: no Unit to pass or sidestep.

Sources and goals: ``build:P`` (the squares where player P builds, next to their Mothership),
``approach:P`` (the battlefield squares next to player P's Mothership: where a Unit attacks it
from) or a square ``x,y``.

>>> from schema.games.mothership import default_arena
>>> from validators.game import TravelQuery
>>> a = answer(default_arena(), TravelQuery("build:1", "approach:2"))
>>> a.status, a.document["ap"], a.document["rounds"]
('reached', 4, 1)
"""

from __future__ import annotations

from typing import Any, Literal

from engine.mothership.battlefield import battlefield_of
from engine.mothership.rules import AP_PER_UNIT
from engine.mothership.travel import TravelError, TravelResult, plan
from engine.grids import Square
from schema.games.mothership import MothershipArena
from validators.game import Column, TextTable, TravelAnswer, TravelQuery, TravelQueryError


def _place(arena: MothershipArena, text: str, param: Literal["from", "to"]) -> str | Square:
    """A query's place: ``build:P``/``approach:P`` as the engine reads them, or a square."""
    kind, _, player = text.partition(":")
    players = ", ".join(str(m.player) for m in arena.motherships) or "none"
    if kind in ("build", "approach"):
        if not player.isdigit() or not any(m.player == int(player) for m in arena.motherships):
            raise TravelQueryError(f"{text!r}: the battlefield's players are {players}", param)
        return text
    parts = text.split(",")
    try:
        square = (int(parts[0]), int(parts[1])) if len(parts) == 2 else None
    except ValueError:
        square = None
    if square is not None:
        if square not in battlefield_of(arena).squares:
            raise TravelQueryError(f"{'source' if param == 'from' else 'goal'} square {list(square)} is not on the "
                                   "battlefield", param)
        return square
    raise TravelQueryError(f"a {'source' if param == 'from' else 'goal'} is build:P, approach:P (players {players}) "
                           f"or a square x,y, not {text!r}", param)


def document(query: TravelQuery, r: TravelResult) -> dict[str, Any]:
    """The JSON answer (``arena travel --json``, the service): the engine's result as it is,
    with the keys every game's answer has (``turns`` and ``time``: the rounds; each step of the
    ``path`` a square and the AP spent reaching it)."""
    reached = r.status == "reached"
    return {"from": query.source, "to": query.goal, "status": r.status, "reason": r.undecided, "at_least": None,
            "reachable": reached, "ap": r.ap, "rounds": r.rounds, "turns": r.rounds,
            "time": r.rounds if reached else None,
            "path": [{"x": x, "y": y, "ap": i} for i, (x, y) in enumerate(r.path)]}


def answer(arena: MothershipArena, query: TravelQuery) -> TravelAnswer:
    """The query answered as :meth:`validators.game.GameAnalysis.travel` does (the query's
    options are other games')."""
    source, goal = _place(arena, query.source, "from"), _place(arena, query.goal, "to")
    try:
        r = plan(arena, source, goal)
    except TravelError as exc:  # what _place let through (a player without build squares)
        raise TravelQueryError(str(exc)) from None
    doc = document(query, r)
    src, dst = query.source, query.goal
    if r.status == "reached":
        summary = f"{src} -> {dst}: {r.ap} AP, {r.rounds} round(s) for one Unit (at most {AP_PER_UNIT} AP a round)"
        table = TextTable((Column("AP spent", True), Column("square")),  # 1 AP a square, in order
                          tuple((str(i), f"{x},{y}") for i, (x, y) in enumerate(r.path)))
        return TravelAnswer("reached", doc, summary, table)
    if r.status == "unreachable":
        return TravelAnswer("unreachable", doc, f"{dst} is not reachable from {src} on this battlefield.")
    return TravelAnswer("undecided", doc, f"{src} -> {dst}: undecided - the search stopped at {r.undecided}.")
