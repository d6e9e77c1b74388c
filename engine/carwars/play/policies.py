"""Car Wars policies: how a car chooses its speed and each movement point.

* ``greedy``: the next card of its route by the travel planner's least-time plan (``arena
  travel``'s ``flat-out`` search from the car's pose and speed at the start of its move),
  followed point by point while nothing throws it off (a collision, a spin, losing control);
  a lone car therefore takes each card in exactly ``arena travel``'s time from where it planned.
  Off its plan (the card taken mid-turn, thrown off, or no plan within the planner's horizon)
  a point is the move that ends nearest the card by the planner's distance field without
  touching anything, the fewest dice breaking ties.
* ``lookahead``: compares the ``flat-out`` and the ``safe`` plan (no maneuver dice) by their time
  plus ``crash_cost`` turns times the chance of running out of CONTROL in the plan's first turn
  (its driving rolls against the tokens in hand) plus ``ram_cost`` when that turn passes within a
  car length of another car where it stands or is likely to be (straight on at its speed); and
  before each planned point, looks at where the other cars stand now: a point that would run
  into one is replaced by the best clear move.

Both ask the planner through the seat's :class:`~engine.carwars.play.kit.Frame` (the parameter
``symmetric_frames``): on a symmetric arena, in the frame of the first start of its orbit, so
seats the arena treats alike decide alike - their plans, the distance field a fallback point goes
by, and the order of the key's moves when two fallback points tie.

Both are bounded: one or two planner queries per replanning, one evaluation per move looked at,
each counted as work.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from engine.carwars.motion import Pose, compose, local_end
from engine.carwars.play.game import Game, parse_move
from engine.carwars.rules import REVERSE, driving_dice, generate_speed_changes, points, slider
from engine.carwars.travel import PathStep, TravelResult


@dataclass
class Plan:
    """A plan being followed: played from game turn ``base``, towards card ``card``."""

    result: TravelResult
    base: int
    card: str
    expected: Pose
    speed: int
    broken: bool = False

    def speed_for(self, t: int) -> int | None:
        for s in self.result.path:
            if s.turn == t and s.maneuver == "speed":
                return s.speed
        return None

    def moves(self, t: int) -> list[PathStep]:
        return [s for s in self.result.path if s.turn == t and s.maneuver != "speed"]


def _same(a: Pose, b: Pose) -> bool:
    return abs(a.x - b.x) <= 1e-9 and abs(a.y - b.y) <= 1e-9 and abs((a.heading - b.heading + 180.0) % 360.0 - 180.0) <= 1e-9


class Greedy:
    """The ``greedy`` policy of one seat (see the module docstring)."""

    def __init__(self, start: int) -> None:
        self.start = start
        self.plan: Plan | None = None

    # -- planning ------------------------------------------------------------------------------
    def choose(self, game: Game, pose: Pose, speed: int) -> TravelResult | None:
        seat = game.seats[self.start]
        card = seat.next_card
        assert card is not None
        game.spend()
        start = self.start if game.turn == 1 else None  # arena travel's start:N source
        r = game.frame(self.start).plan(None if start is not None else pose, speed, card, start=start)
        return r if r.reachable else None

    def _valid(self, game: Game) -> bool:
        seat = game.seats[self.start]
        plan, card = self.plan, seat.next_card
        if plan is None or plan.broken or card is None or plan.card != card.id:
            return False
        t = game.turn - plan.base + 1
        return t <= plan.result.turns and plan.speed == seat.speed and _same(plan.expected, seat.pose)

    def speed(self, game: Game) -> int:
        seat = game.seats[self.start]
        if seat.next_card is None:
            return seat.speed
        if not self._valid(game):
            self.plan = None
            found = self.choose(game, seat.pose, seat.speed)
            if found is not None:
                self.plan = Plan(found, game.turn, seat.next_card.id, seat.pose, seat.speed)
        legal = [c.speed for c in generate_speed_changes(seat.speed, "flat-out", game.max_speed)]
        if self.plan is not None:
            want = self.plan.speed_for(game.turn - self.plan.base + 1)
            if want is not None and want in legal:
                self.plan.speed = want
                return want
            self.plan.broken = True
        target = int(game.p["fallback_speed"])
        return min(legal, key=lambda s: (abs(slider(s) - target), s == REVERSE, -s))

    # -- points --------------------------------------------------------------------------------
    def planned(self, game: Game) -> str | None:
        """The plan's next move, when the car is where the plan put it."""
        seat = game.seats[self.start]
        plan = self.plan
        if plan is None or plan.broken or seat.next_card is None or plan.card != seat.next_card.id:
            return None
        if not _same(plan.expected, seat.pose):
            plan.broken = True
            return None
        moves = plan.moves(game.turn - plan.base + 1)
        i = len(seat.moves)
        if i >= len(moves):
            return None
        return moves[i].maneuver

    def follow(self, game: Game, label: str) -> None:
        """Note where the planned move should leave the car (nothing in the way)."""
        plan = self.plan
        assert plan is not None
        parsed = parse_move(label, game.kit)
        assert parsed is not None
        m, rev = parsed
        plan.expected = compose(game.seats[self.start].pose, local_end(m, game.kit.vehicle, game.kit.key), rev)

    def point(self, game: Game) -> str:
        label = self.planned(game)
        if label is not None and self._pushing(game, label):
            assert self.plan is not None
            self.plan.broken = True  # a player does not drive into what the car already touches
            label = None
        if label is not None:
            self.follow(game, label)
            return label
        return self.fallback(game)

    def _pushing(self, game: Game, label: str) -> bool:
        """Whether the move runs into something the car already touches (a wall or car it would
        have to push)."""
        if not any(a == self.start for a, _ in game.touching):
            return False
        parsed = parse_move(label, game.kit)
        assert parsed is not None
        game.spend()
        return not game.clear(self.start, game.seats[self.start].pose, parsed[0], parsed[1])

    def fallback(self, game: Game) -> str:
        """The clear move ending nearest the next card (the fewest dice, then the key's order)
        from which the car can still move on (one of :data:`ESCAPES` clear)."""
        seat = game.seats[self.start]
        card = seat.next_card
        rev = seat.speed == REVERSE
        g = game.kit.geometry
        frame = game.frame(self.start)
        ranked: list[tuple[tuple[bool, float, int, int], Pose, str]] = []
        for i, m in enumerate(frame.maneuvers()):  # ties: the order of this seat's frame
            game.spend()
            end = compose(seat.pose, local_end(m, game.kit.vehicle, game.kit.key), rev)
            clear = game.clear(self.start, seat.pose, m, rev)
            dist = 0.0 if card is None else round(frame.distance(card, end.x, end.y), 6)
            dice = driving_dice(m, seat.speed, g.terrain_level_at(end), g.hazard_dice_at(end), game.kit.key)
            ranked.append(((not clear, dist, dice, i), end, ("reverse-" if rev else "") + m.label))
        ranked.sort(key=lambda r: r[0])
        escapes = [m for m in game.kit.maneuvers if m.label in ESCAPES]
        for key, end, label in ranked[:ESCAPE_TRIES]:
            if key[0]:
                break
            for m in escapes:
                game.spend()
                if game.clear(self.start, end, m, rev):
                    return label
        return ranked[0][2]


#: The moves a fallback point must leave open (a car boxed in against a wall is not chosen).
ESCAPES = ("straight", "slight-left-18", "slight-right-18", "turn-left-90-D4", "turn-right-90-D4")
#: Candidates (best first) a fallback point looks beyond for a way on.
ESCAPE_TRIES = 6


def out_of_control_chance(dice: list[int], control: int, skid: float) -> float:
    """The chance that skids over the rolls ``dice`` (each die a skid with chance ``skid``)
    reach ``control`` tokens: the car runs out of CONTROL."""
    if control <= 0:
        return 1.0 if any(dice) else 0.0
    dist = [1.0] + [0.0] * control  # P(skids so far = j), the last entry "control or more"
    for n in dice:
        for _ in range(n):
            new = [0.0] * (control + 1)
            for j, p in enumerate(dist):
                if j == control:
                    new[j] += p
                else:
                    new[j] += p * (1.0 - skid)
                    new[j + 1] += p * skid
            dist = new
    return dist[control]


class Lookahead(Greedy):
    """The ``lookahead`` policy (see the module docstring)."""

    def choose(self, game: Game, pose: Pose, speed: int) -> TravelResult | None:
        seat = game.seats[self.start]
        card = seat.next_card
        assert card is not None
        start = self.start if game.turn == 1 else None
        found = []
        frame = game.frame(self.start)
        for policy in ("flat-out", "safe"):
            game.spend()
            r = frame.plan(None if start is not None else pose, speed, card, policy, start=start)
            if r.reachable:
                found.append(r)
        if not found:
            return None
        length = game.kit.vehicle.length
        others = [s for k, s in game.seats.items() if k != self.start]
        ahead = [compose(s.pose, (length * points(s.speed), 0.0, 0.0), s.speed == REVERSE) for s in others]
        skid = float(game.p["skid_chance"])

        def cost(r: TravelResult) -> float:
            first = [s for s in r.path if s.turn == 1 and s.maneuver != "speed"]
            crash = out_of_control_chance([s.dice for s in first], seat.control, skid)
            near = any(math.hypot(s.x - p.x, s.y - p.y) < length for s in first
                       for p in [o.pose for o in others] + ahead)
            return r.time + float(game.p["crash_cost"]) * crash + (float(game.p["ram_cost"]) if near else 0.0)

        return min(found, key=lambda r: (round(cost(r), 9), r.key()))

    def point(self, game: Game) -> str:
        label = self.planned(game)
        if label is not None:
            parsed = parse_move(label, game.kit)
            assert parsed is not None
            game.spend()
            if game.clear(self.start, game.seats[self.start].pose, parsed[0], parsed[1]):
                self.follow(game, label)
                return label
            assert self.plan is not None
            self.plan.broken = True
        return self.fallback(game)


POLICIES: Mapping[str, type[Greedy]] = {"greedy": Greedy, "lookahead": Lookahead}


class Seats:
    """The game's :class:`engine.carwars.play.game.Decisions`: each seat's policy, and the dice
    (the first player, driving rolls, collision damage) from the game's generator."""

    def __init__(self, policies: Mapping[int, Greedy]) -> None:
        self.by_seat = policies

    def first(self, game: Game) -> int:
        return int(game.rng.integers(len(game.setup.starts)))

    def speed(self, game: Game, start: int) -> int:
        return self.by_seat[start].speed(game)

    def point(self, game: Game, start: int) -> str:
        return self.by_seat[start].point(game)

    def skids(self, game: Game, start: int, dice: int) -> int:
        return int(game.rng.binomial(dice, float(game.p["skid_chance"])))

    def hits(self, game: Game, start: int, dice: int) -> int:
        return int(game.rng.binomial(dice, float(game.p["hit_chance"]))) if dice > 0 else 0
