"""Glider-Pit travel queries for ``arena travel`` and the service (the analysis's ``travel``
hook, :func:`answer`): the fewest turns for a glider to end a Movement Phase in a goal hex under
the book's movement rules (:func:`engine.gliderpit.travel.plan`: one glider alone in the pit,
never touching the wall, never at LEDGE or FLOOR; among the fewest-turn plans the one arriving
highest).

Sources: a launch zone's id (``Z2``: launched from any of its hexes, any legal facing, dive
and speed) or a glider ``q,r,facing,speed,altitude`` (axial hex, facing 0-5, speed 1-5, an
altitude above FLOOR).  Goals: ``centre`` (the pit's centre hexes), a launch zone's id or a hex
``q,r``.

>>> from schema.games.gliderpit import default_arena
>>> from validators.game import TravelQuery
>>> a = answer(default_arena(), TravelQuery("Z2", "centre"))
>>> a.status, a.document["turns"], a.summary.split(":")[0]
('reached', 2, 'Z2 -> centre')
"""

from __future__ import annotations

from typing import Any

from engine.gliderpit.pit import pit_of
from engine.gliderpit.rules import MAX_SPEED, TOP_ALTITUDE
from engine.gliderpit.travel import Glider, SearchLimits, TravelError, TravelResult, plan
from engine.grids import Axial
from schema.games.gliderpit import GliderPitArena
from validators.game import Column, TextTable, TravelAnswer, TravelQuery, TravelQueryError


def _ints(text: str, n: int) -> list[int] | None:
    """``text`` as ``n`` comma-separated integers, or None when it is not that."""
    parts = text.split(",")
    if len(parts) != n:
        return None
    try:
        return [int(p) for p in parts]
    except ValueError:
        return None


def _source(arena: GliderPitArena, text: str) -> str | Glider:
    zones = ", ".join(z.id for z in arena.launch_zones) or "none"
    if any(z.id == text for z in arena.launch_zones):
        return text
    v = _ints(text, 5)
    if v is None:
        raise TravelQueryError(f"a source is a launch zone ({zones}) or a glider q,r,facing,speed,altitude, "
                               f"not {text!r}", "from")
    q, r, facing, speed, altitude = v
    if not 0 <= facing <= 5:
        raise TravelQueryError(f"a glider's facing is 0-5 (a hexside), not {facing}", "from")
    if not 1 <= speed <= MAX_SPEED:
        raise TravelQueryError(f"a glider's speed is 1-{MAX_SPEED}, not {speed}", "from")
    if not arena.floor_level < altitude <= TOP_ALTITUDE:
        raise TravelQueryError(f"a flying glider's altitude is above FLOOR ({arena.floor_level}) and at most "
                               f"{TOP_ALTITUDE}, not {altitude}", "from")
    if (q, r) not in pit_of(arena).cells:
        raise TravelQueryError(f"hex [{q}, {r}] is not in the pit", "from")
    return Glider((q, r), facing, speed, altitude)


def _goal(arena: GliderPitArena, text: str) -> str | list[Axial]:
    if text in ("centre", "center"):
        return "centre"
    if any(z.id == text for z in arena.launch_zones):
        return text
    v = _ints(text, 2)
    if v is None:
        zones = ", ".join(z.id for z in arena.launch_zones) or "none"
        raise TravelQueryError(f"a goal is centre, a launch zone ({zones}) or a hex q,r, not {text!r}", "to")
    if (v[0], v[1]) not in pit_of(arena).cells:
        raise TravelQueryError(f"goal hex [{v[0]}, {v[1]}] is not in the pit", "to")
    return [(v[0], v[1])]


def document(query: TravelQuery, r: TravelResult) -> dict[str, Any]:
    """The JSON answer (``arena travel --json``, the service): the engine's result as it is,
    with the keys every game's answer has (``time``: whole turns here; ``at_least``: the turns a
    goal ``beyond`` the search's horizon takes at least)."""
    reached = r.status == "reached"
    return {"from": query.source, "to": query.goal, "status": r.status, "reason": r.undecided,
            "at_least": r.horizon + 1 if r.status == "beyond" and r.horizon is not None else None,
            "reachable": reached, "turns": r.turns, "time": r.turns if reached else None, "altitude": r.altitude,
            "states": r.states,
            "path": [{"turn": s.turn, "phase": s.phase, "maneuver": s.maneuver, "hex": list(s.hex), "facing": s.facing,
                      "speed": s.speed, "altitude": s.altitude} for s in r.path]}


def answer(arena: GliderPitArena, query: TravelQuery) -> TravelAnswer:
    """The query answered as :meth:`validators.game.GameAnalysis.travel` does; the query's
    ``max_seconds`` bounds the search (the other options are other games')."""
    source, goal = _source(arena, query.source), _goal(arena, query.goal)
    limits = SearchLimits(max_seconds=query.max_seconds)
    try:
        r = plan(arena, source, goal, limits=limits)
    except TravelError as exc:  # what the parts above let through (a zone with no hex in the pit)
        raise TravelQueryError(str(exc)) from None
    doc = document(query, r)
    src, dst = query.source, query.goal
    if r.status == "reached":
        summary = (f"{src} -> {dst}: {r.turns} turn(s), ending the Movement Phase at altitude {r.altitude} "
                   "(the highest of the fewest-turn plans)")
        table = TextTable((Column("turn", True), Column("phase"), Column("maneuver"), Column("hex"),
                           Column("facing", True), Column("speed", True), Column("altitude", True)),
                          tuple((str(s.turn), s.phase, s.maneuver, f"{s.hex[0]},{s.hex[1]}", str(s.facing),
                                 str(s.speed), str(s.altitude)) for s in r.path))
        return TravelAnswer("reached", doc, summary, table)
    if r.status == "unreachable":
        return TravelAnswer("unreachable", doc, f"{dst} is not reachable from {src}: no glider of the source ends a "
                            "Movement Phase there without touching the wall, LEDGE or FLOOR.")
    if r.status == "beyond":
        return TravelAnswer("beyond", doc, f"{dst} is not reachable from {src} within {r.horizon} turns.")
    return TravelAnswer("undecided", doc, f"{src} -> {dst}: undecided - the search stopped at its "
                        f"{r.undecided or 'limit'} after {r.horizon} turn(s).")
