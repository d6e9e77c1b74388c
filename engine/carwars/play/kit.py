"""What every Car Wars game on one arena shares, made once per arena and process: the prepared
geometry, the travel planners (``arena travel``'s: ``flat-out`` and ``safe``, default limits and
position quantum), the maneuvers by label, the race's checkpoint cards, the cards' distance
fields and the planner's answers (least-time plans from a pose and speed to a card).

The planner is the one ``arena travel`` runs (:func:`validators.games.carwars.travel.plan`), so
a plan a car follows here is the plan ``arena travel --from x,y,heading,speed --to card:ID``
prints.

On an arena with an exact symmetry (:func:`engine.carwars.symmetry.symmetries`) that maps one
car's race onto another's, each seat asks its questions through a :class:`Frame`: in the frame of
the first start of its orbit, the answer mapped back.  The planner settles ties between equally
good plans (the same time, dice and hard speed changes) by the order of its position keys, which
a rotation or a mirror does not keep: from the four starts of the shipped crossroads arena it
answers four different first turns, all taking the first card at 1.0 turns with 8 dice.  Through
the frames a seat's every decision is the image of the one its orbit's first start makes in the
image situation.
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from engine.carwars.fairness import map_result
from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.heuristic import GoalShape
from engine.carwars.motion import Pose
from engine.carwars.planner import Planner
from engine.carwars.rules import Maneuver, Policy
from engine.carwars.symmetry import Symmetry, symmetries
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


def rounded(pose: Pose) -> Pose:
    """``pose`` as the kit keys its plans: coordinates to 1e-9 in, the heading to 1e-6 degrees in
    0..360."""
    return Pose(round(pose.x, 9) + 0.0, round(pose.y, 9) + 0.0, round(pose.heading, 6) % 360.0)


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
        self._symmetries: list[Symmetry] | None = None
        self._frames: dict[tuple[int, bool], Frame] = {}

    def route(self, start: int) -> tuple[RaceCard, ...]:
        """The cards ``start`` takes on one lap, in order: the race's cards by number, from its
        own-colour checkpoint (its lowest numbered one) on, wrapping round; cards the planner
        proves unreachable from the start are left out."""
        cards = [c for c in self.cards if self.reachable_from_start(start, c)]
        own = [i for i, c in enumerate(cards) if c.owner == start]
        if own:
            cards = cards[own[0]:] + cards[:own[0]]
        return tuple(cards)

    def symmetries(self) -> list[Symmetry]:
        """The arena's exact symmetries (not the identity: :func:`engine.carwars.symmetry.symmetries`)."""
        if self._symmetries is None:
            self._symmetries = symmetries(self.arena)
        return self._symmetries

    def frame(self, start: int, symmetric: bool = True) -> Frame:
        """Start ``start``'s seat's frame: the symmetry taking it to the first start (by player)
        of its orbit and its race card by card onto that start's race; none for that first start,
        when no symmetry does, or when ``symmetric`` is false."""
        key = (start, symmetric)
        got = self._frames.get(key)
        if got is None:
            op = None
            if symmetric:
                mine = [c.id for c in self.route(start)]
                for s in sorted(p.player for p in self.arena.start_positions):
                    if s >= start:
                        break
                    theirs = [c.id for c in self.route(s)]
                    op = next((t for t in self.symmetries() if t.starts.get(start) == s
                               and [t.cards.get(c) for c in mine] == theirs), None)
                    if op is not None:
                        break
            got = self._frames[key] = Frame(self, op)
        return got

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
        answers it.  Planned from the pose :func:`rounded`, as the plans are kept: an answer must
        not depend on which pose, of those rounding alike, asked first (the planner's choice among
        equally good plans can turn on the last digits), or a game would depend on the games the
        kit played before it - and the runner's results on how games are shared out among
        processes."""
        at = None if pose is None else rounded(pose)
        key = (policy, start if at is None else (at.x, at.y, at.heading), speed, goal)
        got = self._plans.get(key)
        if got is not None:
            self._plans.move_to_end(key)
            return got
        planner = self.planner(policy)
        try:
            source = StartSource(start) if at is None and start is not None else PoseSource(
                at if at is not None else Pose(0.0, 0.0, 0.0), speed)
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


def _mirrored(label: str) -> str:
    """A move's label in a mirror: left and right swapped."""
    return label.replace("left", "LEFT").replace("right", "left").replace("LEFT", "right")


class Frame:
    """One seat's questions to the kit, asked in its orbit's first start's frame (see the module
    docstring): poses and cards go in through the symmetry ``op``, plans come back through its
    inverse; ``op`` None asks the kit as it is.  ``hand`` is how the seat's player settles the
    ties the rules leave to the player (1; -1, the mirror image, for a seat whose frame is a
    mirror: :meth:`engine.carwars.play.game.Game.push_side`)."""

    def __init__(self, kit: Kit, op: Symmetry | None) -> None:
        self.kit = kit
        self.op = op
        self.back = None if op is None else op.inverse()
        self.hand = -1 if op is not None and op.mirror else 1

    def pose(self, p: Pose) -> Pose:
        """``p`` in this frame, rounded as the kit's plan cache keys poses (so that two seats in
        image situations ask the very same question)."""
        if self.op is None:
            return rounded(p)
        x, y = self.op.point(p.x, p.y)
        return rounded(Pose(x, y, self.op.heading(p.heading)))

    def card(self, card: RaceCard) -> RaceCard:
        """``card`` in this frame."""
        return card if self.op is None else self.kit.by_id[self.op.cards[card.id]]

    def plan(self, pose: Pose | None, speed: int, card: RaceCard, policy: Policy = "flat-out",
             start: int | None = None) -> TravelResult:
        """:meth:`Kit.plan` through this frame (from start ``start``'s image when ``pose`` is None)."""
        if self.op is None or self.back is None:
            return self.kit.plan(pose, speed, card.goal, policy, start)
        r = self.kit.plan(None if pose is None else self.pose(pose), speed, self.card(card).goal, policy,
                          None if start is None else self.op.starts[start])
        return map_result(r, self.back)

    def distance(self, card: RaceCard, x: float, y: float) -> float:
        """:meth:`Kit.distance` through this frame."""
        if self.op is None:
            return self.kit.distance(card, x, y)
        return self.kit.distance(self.card(card), *self.op.point(x, y))

    def maneuvers(self) -> list[Maneuver]:
        """The turning key's moves as this seat makes them, in the order of their images (so
        that ties between them fall the same way for every seat of an orbit)."""
        if self.op is None or not self.op.mirror:
            return list(self.kit.maneuvers)
        return [self.kit.by_label[_mirrored(m.label)] for m in self.kit.maneuvers]


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
