"""What every Car Wars game on one arena shares, made once per arena and process: the prepared
geometry, the travel planners (``arena travel``'s: ``flat-out`` and ``safe``, default limits and
position quantum), the maneuvers by label, the race's checkpoint cards, the cards' distance
fields and the planner's answers (least-time plans from a pose and speed to a card).

The planner is the one ``arena travel`` runs (:func:`validators.games.carwars.travel.plan`), so
a plan a car follows here is the plan ``arena travel --from x,y,heading,speed --to card:ID``
prints.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.heuristic import GoalShape
from engine.carwars.motion import Pose
from engine.carwars.planner import Planner
from engine.carwars.rules import Maneuver, Policy
from engine.carwars.travel import Goal, PlanningError, PoseSource, SearchLimits, StartSource, TravelResult
from schema.games.carwars import Card, CarWarsArena

#: Plans kept per arena (least recently used dropped first).
PLAN_CACHE = 20_000
#: Arenas whose kits a process keeps.
KITS = 4


@dataclass(frozen=True)
class RaceCard:
    """A checkpoint card as the race takes it."""

    id: str
    number: int
    owner: int | None
    goal: Goal
    shape: GoalShape


def race_cards(arena: CarWarsArena) -> tuple[Card, ...]:
    """The cards a race runs through, by number: the ``checkpoint`` cards, else (an arena whose
    numbered cards are all triggers) every numbered card that is not a hidden hazard."""
    cards = [c for c in arena.cards if c.role == "checkpoint"]
    if not cards:
        cards = [c for c in arena.cards if c.role != "hidden-hazard"]
    return tuple(sorted(cards, key=lambda c: (c.number, c.id)))


class Kit:
    """One arena's shared tables (see the module docstring)."""

    def __init__(self, arena: CarWarsArena) -> None:
        self.arena = arena
        self.geometry = CarWarsGeometry(arena)
        self.vehicle = arena.vehicle
        self.key = arena.turning_key
        self.planners: dict[str, Planner] = {}
        fast = self.planner("flat-out")
        self.maneuvers: tuple[Maneuver, ...] = fast.maneuvers
        self.by_label: dict[str, Maneuver] = {m.label: m for m in self.maneuvers}
        self.cards: tuple[RaceCard, ...] = tuple(
            RaceCard(c.id, c.number, c.owner, Goal("card", c.id), fast.goal_shape(Goal("card", c.id)))
            for c in race_cards(arena))
        self.by_id = {c.id: c for c in self.cards}
        self._plans: OrderedDict[tuple[object, ...], TravelResult] = OrderedDict()
        self._fields: dict[str, np.ndarray] = {}
        self._open: dict[tuple[int, str], bool] = {}

    def planner(self, policy: Policy) -> Planner:
        p = self.planners.get(policy)
        if p is None:
            p = self.planners[policy] = Planner(self.arena, policy, geometry=self.geometry,
                                                limits=SearchLimits())
        return p

    def plan(self, pose: Pose | None, speed: int, goal: Goal, policy: Policy = "flat-out",
             start: int | None = None) -> TravelResult:
        """The least-time plan to ``goal`` from ``pose`` at ``speed`` having completed a turn (or
        from start ``start`` at the starting speed when ``pose`` is None), as ``arena travel``
        answers it."""
        key = (policy, start if pose is None else (round(pose.x, 9), round(pose.y, 9), round(pose.heading, 6)),
               speed, goal)
        got = self._plans.get(key)
        if got is not None:
            self._plans.move_to_end(key)
            return got
        planner = self.planner(policy)
        try:
            source = StartSource(start) if pose is None and start is not None else PoseSource(
                pose if pose is not None else Pose(0.0, 0.0, 0.0), speed)
            result = planner.plan(source, goal)
        except PlanningError:  # the car overlaps a blocker (thrown there by a spin): no plan from here
            result = TravelResult(goal, "unreachable")
        self._plans[key] = result
        if len(self._plans) > PLAN_CACHE:
            self._plans.popitem(last=False)
        return result

    def reachable_from_start(self, start: int, card: RaceCard) -> bool:
        """Whether the planner does not prove ``card`` unreachable from ``start`` (a card walled
        in, or off the table): such a card is left out of the race."""
        k = (start, card.id)
        got = self._open.get(k)
        if got is None:
            got = self._open[k] = not self.geometry.untouchable(card.shape.corners()) and (
                self.plan(None, 2, card.goal, start=start).status != "unreachable")
        return got

    def distance(self, card: RaceCard, x: float, y: float) -> float:
        """The planner's grid distance (inches around the walls) from a car centre at (x, y) to
        where a car touches ``card``; the straight distance plus 1000 where the grid has none."""
        f = self._fields.get(card.id)
        if f is None:
            f = self._fields[card.id] = self.planner("flat-out").distances.field(card.shape)
        g = self.geometry
        nx, ny = g.field.shape
        i = int(round((x - g.gx0) / g.grid))
        j = int(round((y - g.gy0) / g.grid))
        if 0 <= i < nx and 0 <= j < ny:
            d = float(f[i * ny + j])
            if math.isfinite(d):
                return d
        return 1000.0 + float(card.shape.distance(np.array([x]), np.array([y]))[0])

    def touches(self, pose: Pose, card: RaceCard) -> bool:
        """Whether the car's rectangle at ``pose`` touches ``card`` (the planner's goal test)."""
        corners = self.geometry.rectangles(np.array([pose.x]), np.array([pose.y]), np.array([pose.heading]))
        return bool(card.shape.touched_by(corners)[0])


_KITS: OrderedDict[str, Kit] = OrderedDict()
_BY_ID: dict[int, tuple[CarWarsArena, str]] = {}


def arena_key(arena: CarWarsArena) -> str:
    """A digest of everything in the arena (its repr)."""
    return hashlib.sha256(repr(arena).encode()).hexdigest()


def kit_for(arena: CarWarsArena) -> Kit:
    """The arena's kit, made on first use and kept for the next games (keyed on the arena's
    content, so an equal arena loaded again shares it)."""
    seen = _BY_ID.get(id(arena))
    key = seen[1] if seen is not None and seen[0] is arena else arena_key(arena)
    kit = _KITS.get(key)
    if kit is None:
        kit = _KITS[key] = Kit(arena)
        while len(_KITS) > KITS:
            _KITS.popitem(last=False)
    else:
        _KITS.move_to_end(key)
    if len(_BY_ID) > 64:
        _BY_ID.clear()
    _BY_ID[id(arena)] = (arena, key)
    return kit
