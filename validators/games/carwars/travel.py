"""Car Wars travel queries for the CLI (``arena travel``) and the service (the analysis's
``travel`` hook, :func:`answer`): parse sources and goals, plan under a policy, answer as JSON
and as text.

Sources: ``start:N`` (the start at speed 2, "all players set their speed slider to 2"), a card
(``card:ID`` or its bare id: the car's centre on the card's centre, at speed 2, the best of 8
headings) or ``x,y,heading[,speed]`` (speed -1 = reverse, 0..5).  Goals: ``card:ID`` (or the
bare id), ``centre``, ``start:N``.  Policies: ``flat-out`` (fewest turns, dice counted) and
``safe`` (no maneuver dice).

>>> from schema.games.carwars import default_arena
>>> parse_source(default_arena(), "start:1")
StartSource(player=1)
>>> parse_goal(default_arena(), "centre").ref
'centre'
"""

from __future__ import annotations

from typing import Any

from engine.carwars.motion import Pose
from engine.carwars.planner import Planner
from engine.carwars.rules import START_SPEED
from engine.carwars.travel import Goal, PlanningError, PoseSource, SearchLimits, Source, StartSource, TravelResult
from schema.games.carwars import CarWarsArena
from validators.game import Column, TextTable, TravelAnswer, TravelQuery, TravelQueryError

POLICIES = ("flat-out", "safe")
#: Headings tried when a card is the source (the car may sit on it facing any way).
CARD_HEADINGS = tuple(float(h) for h in range(0, 360, 45))


def parse_source(arena: CarWarsArena, text: str) -> Source | list[PoseSource]:
    """A source; a card gives the list of poses on it (best of them is taken)."""
    kind, _, ident = text.partition(":")
    if kind == "start" and ident:
        try:
            player = int(ident)
        except ValueError:
            raise PlanningError(f"a start is start:N, not {text!r}") from None
        try:
            arena.start(player)
        except KeyError:
            raise PlanningError(f"the arena has no start {text!r}; it has "
                                f"{', '.join(s.id for s in arena.start_positions) or 'none'}") from None
        return StartSource(player)
    parts = text.split(",")
    if len(parts) in (3, 4):
        try:
            x, y, h = (float(v) for v in parts[:3])
            speed = int(parts[3]) if len(parts) == 4 else START_SPEED
        except ValueError:
            raise PlanningError(f"a pose source is x,y,heading[,speed], not {text!r}") from None
        if not -1 <= speed <= 5:
            raise PlanningError(f"speed is -1 (reverse) to 5, not {speed}")
        return PoseSource(Pose(x, y, h), speed)
    card = _card(arena, text)
    if card is not None:
        cx, cy = card.position
        return [PoseSource(Pose(cx, cy, h), START_SPEED) for h in CARD_HEADINGS]
    cards = ", ".join(f"card:{c.id}" for c in arena.cards) or "none"
    raise PlanningError(f"the arena has no card {text!r} (cards: {cards}); a source is start:N, card:ID (or a "
                        "card's id) or x,y,heading[,speed]")


def _card(arena: CarWarsArena, text: str) -> Any:
    ident = text.split(":", 1)[1] if text.startswith("card:") else text
    for c in arena.cards:
        if c.id == ident:
            return c
    return None


def parse_goal(arena: CarWarsArena, text: str) -> Goal:
    if text == "centre" or text == "center":
        return Goal("centre")
    if text.startswith("start:"):
        try:
            goal = Goal.parse(text)
        except PlanningError:
            raise PlanningError(f"the arena has no start {text!r}") from None
        if goal.id not in {s.id for s in arena.start_positions}:
            raise PlanningError(f"the arena has no start {text!r}")
        return goal
    card = _card(arena, text)
    if card is None:
        cards = ", ".join(f"card:{c.id}" for c in arena.cards) or "none"
        raise PlanningError(f"a goal is card:ID, centre or start:N; the arena has no card {text!r} (cards: {cards})")
    return Goal("card", card.id)


def plan(arena: CarWarsArena, source: str, goal: str, policy: str = "flat-out",
         limits: SearchLimits = SearchLimits()) -> TravelResult:
    """Plan one query (raises :class:`~engine.carwars.travel.PlanningError` for bad input)."""
    if policy not in POLICIES:
        raise PlanningError(f"a policy is {' or '.join(POLICIES)}, not {policy!r}")
    src = parse_source(arena, source)
    dst = parse_goal(arena, goal)
    planner = Planner(arena, policy, limits=limits)  # type: ignore[arg-type]
    if isinstance(src, list):
        answers = []
        for s in src:
            try:
                answers.append(planner.plan(s, dst))
            except PlanningError:
                continue  # the car does not fit on the card facing this way
        if not answers:
            raise PlanningError(f"the car cannot stand on card {source!r} facing any of {len(CARD_HEADINGS)} headings")
        reached = [a for a in answers if a.reachable]
        return min(reached, key=lambda a: a.key()) if reached else answers[0]
    return planner.plan(src, dst)


def result_json(source: str, goal: str, policy: str, r: TravelResult) -> dict[str, Any]:
    return {
        "from": source,
        "to": goal,
        "policy": policy,
        "status": r.status,
        "reason": r.undecided,
        "at_least": r.horizon if r.status in ("beyond", "undecided") else None,
        "reachable": r.reachable,
        "turns": r.turns if r.reachable else None,
        "points": r.points if r.reachable else None,
        "time": round(r.time, 6) if r.reachable else None,
        "dice": r.dice if r.reachable else None,
        "hard": r.hard if r.reachable else None,
        "path": [
            {"x": round(s.x, 4), "y": round(s.y, 4), "heading": round(s.heading, 3), "speed": s.speed, "turn": s.turn,
             "point": s.point, "maneuver": s.maneuver, "dice": s.dice, "hard": s.hard}
            for s in r.path
        ],
    }


def answer(arena: CarWarsArena, query: TravelQuery) -> TravelAnswer:
    """The query answered as :meth:`validators.game.GameAnalysis.travel` does: the car under
    ``query.policy`` within ``query.max_seconds`` (the query's other options are Gravstrike's)."""
    try:
        result = plan(arena, query.source, query.goal, query.policy, SearchLimits(max_seconds=query.max_seconds))
    except PlanningError as exc:
        raise TravelQueryError(str(exc)) from None
    src, dst, policy = query.source, query.goal, query.policy
    table = None
    if result.status == "reached":
        summary = (f"{src} -> {dst} ({policy}): turn {result.turns}, movement point {result.points} at speed "
                   f"{result.speed} (time {result.time:.3f} turns), {result.dice} dice, {result.hard} hard speed "
                   "change(s)")
        table = TextTable(tuple(Column(c) for c in ("turn", "point", "maneuver", "x", "y", "heading", "speed", "dice")),
                          tuple((str(st.turn), str(st.point), st.maneuver, f"{st.x:.2f}", f"{st.y:.2f}",
                                 f"{st.heading:g}", str(st.speed), str(st.dice)) for st in result.path))
    elif result.status == "unreachable":
        summary = f"{dst} is not reachable from {src} without a collision."
    elif result.status == "beyond":
        summary = f"{dst} is not reachable from {src} within {result.horizon:g} turns."
    else:
        summary = f"undecided: the search stopped at its {result.undecided}; raise --max-seconds."
    return TravelAnswer(result.status, result_json(src, dst, policy, result), summary, table)
