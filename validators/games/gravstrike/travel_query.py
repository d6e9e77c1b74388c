"""Gravstrike travel queries for the CLI (``arena travel``) and the service (the analysis's
``travel`` hook, :func:`answer`): the reference turbine flat out from a source to a goal.

Sources: ``start:N``, ``checkpoint:ID`` (its centre at max speed, best of 12 headings) or
``x,y,heading[,speed]`` (a negative speed travels in reverse).  Goals: ``checkpoint:ID``,
``gate:ID``, ``start:N``, ``target:ID``.

>>> parse_source("start:2"), parse_source("checkpoint:B").checkpoint
(StartSource(player=2), 'B')
"""

from __future__ import annotations

import math
from typing import Any

from engine.gravstrike.motion import EngineError, Pose
from engine.gravstrike.planner import CheckpointSource, Goal, Planner, PoseSource, Source, StartSource
from engine.gravstrike.travel_types import DEFAULT_MAX_BYTES, SearchLimits, TravelResult
from schema.games.gravstrike.model import Arena
from validators.game import Column, TextTable, TravelAnswer, TravelQuery, TravelQueryError


def parse_source(text: str) -> Source:
    """``start:N``, ``checkpoint:ID`` or ``x,y,heading[,speed]`` (finite numbers)."""
    kind, _, ident = text.partition(":")
    if kind == "start" and ident:
        try:
            return StartSource(int(ident))
        except ValueError:
            raise EngineError(f"a start is start:N, not {text!r}") from None
    if kind == "checkpoint" and ident:
        return CheckpointSource(ident)
    parts = text.split(",")
    if len(parts) in (3, 4):
        try:
            x, y, h = (float(v) for v in parts[:3])
            speed = int(parts[3]) if len(parts) == 4 else 0
        except ValueError:
            raise EngineError(f"a pose source is x,y,heading[,speed], not {text!r}") from None
        if not all(math.isfinite(v) for v in (x, y, h)):
            raise EngineError(f"a pose source needs finite numbers, not {text!r}")
        return PoseSource(Pose(x, y, h), speed)
    raise EngineError(f"a source is start:N, checkpoint:ID or x,y,heading[,speed], not {text!r}")


def other_games_place(what: str, text: str) -> str | None:
    """Why ``text`` (the query's ``what``: source or goal) is another game's place, or None: a
    Car Wars card or centre, an Arena Rex deployment zone, base size or ``x,y`` point."""
    if text.startswith("card:") or text == "centre":
        return f"a Gravstrike arena has no cards or centre goal: the {what} {text!r} is a Car Wars place"
    pose = what == "source" and text.count(",") >= 2  # x,y,heading[,speed]
    if text.startswith("deploy:") or "@" in text or (":" not in text and not pose):
        return (f"a Gravstrike arena has no deployment zones, hazards or x,y places: the {what} {text!r} is an "
                "Arena Rex place")
    return None


def result_json(source: str, goal: str, r: TravelResult) -> dict[str, Any]:
    return {
        "from": source,
        "to": goal,
        "status": r.status,
        "reason": r.undecided,
        "at_least": r.horizon if r.status in ("beyond", "undecided") else None,
        "reachable": r.reachable,
        "turns": r.turns if r.reachable else None,
        "lengths": r.lengths if r.reachable else None,
        "time": round(r.time, 6) if r.reachable else None,
        "icons": r.icons if r.reachable else None,
        "damage": r.damage if r.reachable else None,
        "path": [
            {"x": round(s.x, 4), "y": round(s.y, 4), "heading": round(s.heading, 3), "speed": s.speed,
             "turn": s.turn, "length": s.length, "maneuver": s.maneuver, "pushed_by": s.pushed_by}
            for s in r.path
        ],
    }


def answer(arena: Arena, query: TravelQuery) -> TravelAnswer:
    """The query answered as :meth:`validators.game.GameAnalysis.travel` does: another game's
    place, an unreadable source (``from``) or goal (``to``) and a query the planner refuses are
    :class:`~validators.game.TravelQueryError`."""
    for what, text in (("source", query.source), ("goal", query.goal)):
        wrong = other_games_place(what, text)
        if wrong is not None:
            raise TravelQueryError(wrong, "from" if what == "source" else "to")
    try:
        src = parse_source(query.source)
    except EngineError as exc:
        raise TravelQueryError(str(exc), "from") from None
    players = sorted(s.player for s in arena.start_positions)
    if isinstance(src, StartSource) and src.player not in players:
        raise TravelQueryError(f"the arena has no start {src.player} (its starts: "
                               f"{', '.join(f'start:{p}' for p in players) or 'none'})", "from")
    try:
        dst = Goal.parse(query.goal)
    except EngineError as exc:
        raise TravelQueryError(str(exc), "to") from None
    progress = query.progress

    def report(states: int, bound: float) -> None:
        if progress is not None:
            progress(f"searching: {states:,} states kept, the goal is at least {bound:.2f} turns away")

    limits = SearchLimits(max_bytes=query.max_bytes or DEFAULT_MAX_BYTES, max_seconds=query.max_seconds,
                          progress=report if progress is not None else None)
    try:
        planner = Planner(arena, tier=query.tier, budget=query.budget, exclusions=query.exclusions,
                          quantum=query.tolerance, limits=limits,
                          minimise="time-icons-damage" if query.fewest_icons else "time")
        result = planner.plan(src, dst)
    except (EngineError, ValueError) as exc:
        raise TravelQueryError(str(exc)) from None
    return TravelAnswer(result.status, result_json(query.source, query.goal, result),
                        *_text(query.source, query.goal, result, planner.quantum))


def _text(source: str, goal: str, result: TravelResult, quantum: float) -> tuple[str, TextTable | None]:
    if result.status == "unreachable":
        return f"{goal} is not reachable from {source} without ramming.", None
    if result.status == "beyond":
        return f"{goal} is not reachable from {source} within {result.horizon:g} turns.", None
    if result.status == "undecided":
        return (f"undecided: the search stopped at its {result.undecided}; {goal} is at least {result.horizon:.2f} "
                f"turns from {source}. Raise --max-memory or --max-seconds, or try a coarser --tolerance (now "
                f"{quantum:g})."), None
    summary = (f"{source} -> {goal}: turn {result.turns}, length {result.lengths} at speed {result.speed} "
               f"(time {result.time:.3f} turns), {result.icons} icons, {result.damage} damage")
    columns = ("turn", "length", "maneuver", "x", "y", "heading", "speed", "pushed by")
    rows = tuple((str(s.turn), str(s.length), s.maneuver, f"{s.x:.2f}", f"{s.y:.2f}", f"{s.heading:g}", str(s.speed),
                  s.pushed_by or "") for s in result.path)
    return summary, TextTable(tuple(Column(c) for c in columns), rows)
