"""What the Car Wars travel dock and the travel findings' paths show, computed with the Car Wars
engine's public planner (no Qt: these run in child processes, :func:`editor.validation.call_in_child`).

* :func:`start_travel` — one start's row block: its fewest turns and driving-roll dice to each
  checkpoint card, the centre and every other start (:func:`dock_goals`), under both policies
  (``safe``: no maneuver dice; ``flat-out``: fewest turns, dice counted), each answer the
  planner's :class:`~engine.carwars.travel.TravelResult` (its path included);
* :func:`finding_query` — which plan a travel finding is about (``cw-start-access``,
  ``cw-centre-access``, ``cw-start-spacing``, ``cw-card-reach``): the worse start (the first
  the finding names), the policy its message names, and the goal: the centre, the card, the
  start's own-colour checkpoint, or the nearest of its checkpoints / other starts;
* :func:`finding_plan` — that plan, as the path overlay draws it (:class:`~editor.games.overlay_work.PathPlan`).

>>> from schema import load
>>> arena = load("arenas/car-wars/twin-pillars-2p.yaml")
>>> dock_goals(arena, 1)
['card:own-1', 'card:own-2', 'centre', 'start:2']
>>> q = finding_query(arena, {"code": "cw-centre-access", "elements": ["start:2", "start:1"],
...                           "message": "start:2 needs 2 turns to reach the centre, ... (safe): ..."})
>>> q.player, q.policy, q.goals, q.what
(2, 'safe', ('centre',), 'the centre')
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from editor.games import overlay_work as W

#: The dock's policies, in its column order.
POLICIES = ("safe", "flat-out")
POLICY_LABEL = {"safe": "Safe", "flat-out": "Flat out"}
#: The codes of the travel findings whose path can be drawn.
TRAVEL_CODES = ("cw-start-access", "cw-centre-access", "cw-start-spacing", "cw-card-reach")
_POLICY_IN_MESSAGE = re.compile(r"\((safe|flat-out)\)")


def dock_goals(arena: Any, player: int) -> list[str]:
    """The goals of start ``player``'s rows: the checkpoint cards (by number), the centre and
    the other starts (by player)."""
    cards = sorted((c for c in arena.cards if c.role == "checkpoint"), key=lambda c: (c.number, c.id))
    others = sorted((s for s in arena.start_positions if s.player != player), key=lambda s: s.player)
    return [f"card:{c.id}" for c in cards] + ["centre"] + [f"start:{s.player}" for s in others]


@dataclass(frozen=True)
class StartTravel:
    """Start ``player``'s answers: ``results[policy][goal ref]`` (a TravelResult), or the
    planner's ``error`` when the car cannot stand there; ``seconds`` spent."""

    player: int
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    error: str | None = None
    seconds: float = 0.0

    def get(self, policy: str, goal: str) -> Any | None:
        return self.results.get(policy, {}).get(goal)


def start_travel(arena: Any, player: int) -> StartTravel:
    """Start ``player``'s travel to every goal of :func:`dock_goals`, under both policies (one
    planner search per policy answers every goal)."""
    from engine.carwars.planner import Planner
    from engine.carwars.travel import Goal, PlanningError, StartSource

    t0 = time.perf_counter()
    goals = [Goal.parse(g) for g in dock_goals(arena, player)]
    out: dict[str, dict[str, Any]] = {}
    for policy in POLICIES:
        try:
            res = Planner(arena, policy).plan_many(StartSource(player), goals)  # type: ignore[arg-type]
        except PlanningError as exc:
            return StartTravel(player, error=str(exc), seconds=time.perf_counter() - t0)
        out[policy] = {g.ref: r for g, r in res.items()}
    return StartTravel(player, out, seconds=time.perf_counter() - t0)


def turns_text(r: Any | None) -> str:
    """A result's time in turns (``1.4``), or what stopped it: ``unreachable`` (proven: no plan
    without a collision), ``beyond N`` (not within the horizon of N turns), ``undecided`` (a
    search limit came first)."""
    from engine.carwars.issues import fmt

    if r is None:
        return "…"
    if r.status == "reached":
        return fmt(r.time)
    if r.status == "beyond":
        return f"beyond {fmt(r.horizon or 0)}"
    return str(r.status)


def dice_text(r: Any | None) -> str:
    return str(r.dice) if r is not None and r.status == "reached" else ("…" if r is None else "—")


def status_note(r: Any | None) -> str:
    """A tooltip for a cell: what the answer means."""
    if r is None:
        return "being computed"
    from engine.carwars.issues import fmt

    if r.status == "reached":
        return (f"reached in turn {r.turns}, point {r.points} at speed {r.speed} ({fmt(r.time)} turns); "
                f"{r.dice} driving-roll dice on the way, {r.hard} hard speed changes")
    if r.status == "unreachable":
        return "unreachable: no plan reaches it without a collision"
    if r.status == "beyond":
        return f"beyond the horizon: not within {fmt(r.horizon or 0)} turns (the scenario's max_turns)"
    return f"undecided: the search's {r.undecided or 'limit'} ran out after looking {fmt(r.horizon or 0)} turns ahead"


@dataclass(frozen=True)
class Query:
    """A travel finding's plan: from start ``player`` under ``policy`` to the first of
    ``goals`` (``pick`` = "first") or the nearest of them ("nearest"); ``what`` names it."""

    player: int
    policy: str
    goals: tuple[str, ...]
    pick: str
    what: str


def finding_query(arena: Any, finding: dict[str, Any]) -> Query | None:
    """The plan a Car Wars travel finding is about (see the module docstring), or None."""
    code, message = finding.get("code", ""), finding.get("message", "")
    if code not in TRAVEL_CODES:
        return None
    refs = [str(e) for e in finding.get("elements", [])]
    starts = [int(e[6:]) for e in refs if e.startswith("start:") and e[6:].isdigit()]
    players = {s.player for s in arena.start_positions}
    if not starts or starts[0] not in players:
        return None
    player = starts[0]
    m = _POLICY_IN_MESSAGE.search(message)
    policy = m.group(1) if m else "flat-out"
    checkpoints = dock_goals(arena, player)[: sum(1 for c in arena.cards if c.role == "checkpoint")]
    if code == "cw-centre-access":
        return Query(player, policy, ("centre",), "first", "the centre")
    if code == "cw-card-reach":
        card = next((c for c in arena.cards if c.id == refs[0]), None)
        if card is None:
            return None
        return Query(player, "flat-out", (f"card:{card.id}",), "first", f"card {card.number} ({card.id})")
    if code == "cw-start-spacing":
        others = tuple(f"start:{p}" for p in sorted(players) if p != player)
        return Query(player, "flat-out", others, "nearest", "its nearest rival's start") if others else None
    if "own-colour" in message:
        own = next((c for c in arena.cards if c.role == "checkpoint" and c.owner == player), None)
        if own is not None:
            return Query(player, policy, (f"card:{own.id}",), "first", "its own-colour checkpoint")
    return Query(player, policy, tuple(checkpoints), "nearest", "its nearest checkpoint") if checkpoints else None


def choose(query: Query, results: dict[str, Any]) -> tuple[str, Any] | None:
    """The goal and answer ``query`` is about among ``results`` (goal ref -> TravelResult), or
    None when one of its goals is missing.  The nearest is the least time, the first in goal
    order on a tie (as the fairness metrics take it); with none reached, the first goal."""
    if any(g not in results for g in query.goals):
        return None
    if query.pick == "nearest":
        reached = [g for g in query.goals if results[g].status == "reached"]
        if reached:
            g = min(reached, key=lambda g: results[g].time)
            return g, results[g]
    g = query.goals[0]
    return g, results[g]


def finding_plan(arena: Any, query: Query) -> W.PathPlan:
    """The plan of ``query`` (one planner search for all its goals)."""
    from engine.carwars.planner import Planner
    from engine.carwars.travel import Goal, StartSource

    goals = [Goal.parse(g) for g in query.goals]
    res = Planner(arena, query.policy).plan_many(StartSource(query.player), goals)  # type: ignore[arg-type]
    picked = choose(query, {g.ref: r for g, r in res.items()})
    assert picked is not None
    goal, r = picked
    return W.plan_of(arena, query.player, goal, query.policy, r)


def best_and_worst(values: list[float]) -> tuple[float | None, float | None]:
    """The least and the greatest finite value, when they differ (else None, None)."""
    finite = [v for v in values if math.isfinite(v)]
    if len(set(finite)) < 2:
        return None, None
    return min(finite), max(finite)


__all__ = ["POLICIES", "POLICY_LABEL", "Query", "StartTravel", "TRAVEL_CODES", "best_and_worst", "choose",
           "dice_text", "dock_goals", "finding_plan", "finding_query", "start_travel", "status_note", "turns_text"]
