"""One Car Wars race played by the book's round (Sequence of Play, L435-L541): the rules side.

Each round the seats take CONTROL tokens by the speed their car starts the round at
(``control_by_speed``: the dashboard's icons were lost); then, from the first player on in seat
order, each car adjusts its speed (4A: one step, or two with hard acceleration / braking) and
drives all its movement points (4B) before the next car moves (L507).  Each point is one
maneuver of the turning key (:mod:`engine.carwars.rules`, :mod:`engine.carwars.motion`) driven
with collisions checked continuously along it against walls, heavy obstacles and the other cars
(L668: the car stops the moment it touches one; the rest of that point is lost, L682-L684); a
collision costs the mover one CONTROL and, with a car, the other car one too, and rolls speed
dice of damage (L688-L695).  After each point the driving roll (L513-L517) rolls its dice, each a
skid with chance ``skid_chance``; skids are paid in CONTROL (L608); a car that runs out is out of
control and drives straight for the rest of its points (L616), and skids of a slide or a turn it
cannot pay spin it out by the turning key's zones (L632-L660), five or more flip it (a wreck: out
of the race, left where it flipped as a heavy obstacle).  The first-player marker passes on each
round (L541).

The race (our reading: the book's numbered cards "can represent checkpoints", L214, and its only
victory is the last car standing, L1091): every car takes the checkpoint cards in number order,
starting from its own-colour checkpoint when it has one; a card is taken when the car's rectangle
touches it at the end of a movement point (the travel planner's goal).  The first car to take its
last card wins at once; at the turn limit the cars with the most cards share the win.

What a seat does is asked of a :class:`Decisions` (a policy when playing, the record when
replaying); what the rules make of it is decided here only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from engine.carwars.geometry import TOLERANCE
from engine.carwars.motion import Pose, car_outline, compose, local_pose, outline
from engine.carwars.play.kit import Frame, Kit, RaceCard
from engine.carwars.rules import (
    MAX_SPEED,
    REVERSE,
    START_SPEED,
    Maneuver,
    driving_dice,
    generate_speed_changes,
    points,
    roll_speed,
    slider,
)
from engine.play import Event, PieceState, PlaySetup, Turn

#: The engine's parameters and defaults (each a decision in docs/rules-decisions.md,
#: "Simulated play: Car Wars").
PARAMETERS: Mapping[str, Any] = {
    # the chance that one die of a driving roll shows a skid (the dice's faces were lost: one
    # face in six)
    "skid_chance": 1.0 / 6.0,
    # CONTROL tokens taken at the start of a round by the speed slider 0..5 (the dashboard's
    # icons were lost: faster cars see fewer)
    "control_by_speed": (5, 5, 4, 3, 2, 2),
    # the chance that one die of a collision's damage roll shows a hit
    "hit_chance": 0.5,
    # the game's turn limit when the setup gives none
    "turn_limit": 30,
    # the car's top speed ("The maximum speed for an undamaged car is 5")
    "max_speed": MAX_SPEED,
    # laps of the checkpoint cards a car drives to win
    "laps": 1,
    # the greedy policy when it has no plan: the speed it settles at
    "fallback_speed": 3,
    # the look-ahead policy: turns an out-of-control point costs, in expectation, and turns a
    # likely collision with another car costs
    "crash_cost": 1.0,
    "ram_cost": 0.5,
    # seats the arena's symmetry maps onto each other decide alike: each asks the planner in the
    # frame of the first start of its orbit (engine.carwars.play.kit.Frame) and settles the ties
    # the rules leave to the player as that start does, mirrored for a mirror image
    "symmetric_frames": True,
}

#: How close (inches, degrees) a recorded pose must be to where the rules put it.
POSE_TOLERANCE = 1e-6
#: Halvings that find where along a point a car first touches something.
BISECTIONS = 40
#: A point that runs into what the car already touches before this much of it is done is a push
#: (Pushing Walls), not a move.
PUSH_FRACTION = 1e-3
#: How near (inches) a car counts as resting against something already (see :meth:`Game._blocked`).
CONTACT = 1e-4
#: A car repositioning off something whose nearest point (to the car's centre) is within this
#: many inches of dead ahead or dead behind meets it square on: either side of the key will do and
#: the player chooses (:attr:`Seat.hand`: left, or right for a mirror image's player), so that the
#: rounding of where the car stopped (about 1e-15 in) does not choose for the player.
SQUARE_ON = 1e-4
#: The swept area of a pivot covers the true one with up to this much (inches) to spare
#: (:func:`engine.carwars.motion.sweep`: 0.025 in for a 3-in car, taken twice over).
SWEEP_SPARE = 0.05
#: "If there are 5 or more unresolved skid results ... The car has flipped" (Spinning Out).
FLIP_SKIDS = 5


class GameStopped(Exception):
    """The game ended in the middle of a round (a car took its last card, or the work limit)."""


class RuleBreak(Exception):
    """A decision the rules refuse (raised while replaying a record): turn, seat and why."""

    def __init__(self, turn: int, start: int, reason: str) -> None:
        super().__init__(reason)
        self.turn, self.start, self.reason = turn, start, reason


@dataclass
class Seat:
    """One car in play."""

    start: int
    pose: Pose
    route: tuple[RaceCard, ...]
    speed: int = START_SPEED
    taken: int = 0
    control: int = 0
    out_of_control: bool = False
    damage: int = 0
    out: bool = False  # flipped: a wreck
    order: int = 0
    hard: bool = False
    moved_speed: int = START_SPEED  # the speed chosen this round (a stuck car ends it at 0)
    stuck: bool = False
    hand: int = 1  # how the player settles what the rules leave to the player (Frame.hand)
    moves: list[str] = field(default_factory=list)
    poses: list[list[float]] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    skids: list[int] = field(default_factory=list)
    hits: list[list[int]] = field(default_factory=list)  # per point, each collision roll's hits
    arrivals: list[list[Any]] = field(default_factory=list)

    @property
    def next_card(self) -> RaceCard | None:
        return self.route[self.taken] if self.taken < len(self.route) else None


class Decisions(Protocol):
    """What the seats decide and the dice roll (a policy and the game's generator while playing,
    the record while replaying)."""

    def first(self, game: Game) -> int: ...

    def speed(self, game: Game, start: int) -> int: ...

    def point(self, game: Game, start: int) -> str: ...

    def skids(self, game: Game, start: int, dice: int) -> int: ...

    def hits(self, game: Game, start: int, dice: int) -> int: ...


@dataclass(frozen=True)
class Drive:
    """One movement (a point, or a spin) driven: where the car stops, the fraction of it done,
    the blockers (ids) and cars (start numbers) it touched."""

    pose: Pose
    fraction: float
    blockers: tuple[str, ...]
    cars: tuple[int, ...]


def parse_move(label: str, kit: Kit) -> tuple[Maneuver, bool] | None:
    """A move's label as (maneuver, in reverse), None for a label the turning key has not."""
    reverse = label.startswith("reverse-")
    m = kit.by_label.get(label[len("reverse-"):] if reverse else label)
    return None if m is None else (m, reverse)


class Game:
    """The state of one race and the rules that change it."""

    def __init__(self, kit: Kit, setup: PlaySetup, parameters: Mapping[str, Any]) -> None:
        self.kit = kit
        self.arena = kit.arena
        self.setup = setup
        self.p = dict(parameters)
        self.max_speed = max(1, min(MAX_SPEED, int(self.p["max_speed"])))
        self.rng = np.random.default_rng(setup.seed)
        self.seats: dict[int, Seat] = {}
        for k in setup.starts:
            st = self.arena.start(k)
            self.seats[k] = Seat(k, Pose(float(st.position[0]), float(st.position[1]), float(st.facing) % 360.0),
                                 self.route(k), hand=self.frame(k).hand)
        self.turn = 0
        self.work = 0
        self.first_index = -1
        self.events: list[Event] = []
        self.touching: set[tuple[int, str]] = set()  # (seat, blocker id or car start) in contact
        self.ended: str | None = None
        self.turns: list[Turn] = []

    # ------------------------------------------------------------------ the race
    def route(self, start: int) -> tuple[RaceCard, ...]:
        """The cards ``start`` takes, in order: the race's cards by number, from its own-colour
        checkpoint (its lowest numbered one) on, wrapping round, ``laps`` times; cards the
        planner proves unreachable from the start are left out."""
        return self.kit.route(start) * max(1, int(self.p["laps"]))

    def frame(self, start: int) -> Frame:
        """Seat ``start``'s questions to the kit (``symmetric_frames``: :class:`Frame`)."""
        return self.kit.frame(start, bool(self.p["symmetric_frames"]))

    def score(self, start: int) -> float:
        return float(self.seats[start].taken)

    def winners(self) -> tuple[int, ...]:
        live = list(self.seats.values())
        if self.ended == "last-standing":
            return tuple(s.start for s in live if not s.out)
        best = max(s.taken for s in live)
        return tuple(s.start for s in live if s.taken == best)

    # ------------------------------------------------------------------ helpers
    def spend(self, units: int = 1) -> None:
        """Count work; stop the game at the setup's bound."""
        self.work += units
        if self.setup.max_work is not None and self.work > self.setup.max_work and self.ended is None:
            self.ended = "work-limit"
            raise GameStopped

    def _event(self, kind: str, start: int, pose: Pose, other: str | None = None, points_: float = 0.0,
               detail: str = "") -> None:
        self.events.append(Event(kind, start, round(pose.x, 9), round(pose.y, 9), other, points_, detail))

    def outline(self, start: int) -> BaseGeometry:
        return car_outline(self.seats[start].pose, self.kit.vehicle)

    def order(self) -> list[int]:
        """This round's move order: seat order from the first player on (flipped cars skipped)."""
        seats = list(self.setup.starts)
        n = len(seats)
        first = (self.first_index + self.turn - 1) % n
        return [seats[(first + i) % n] for i in range(n) if not self.seats[seats[(first + i) % n]].out]

    # ------------------------------------------------------------------ driving
    def drive(self, start: int, base: Pose, m: Maneuver, reverse: bool, u0: float = 0.0,
              pushed: Drive | None = None) -> Drive:
        """Drive ``m`` from ``base`` over the fraction ``u0..1`` with collisions checked all along
        (walls, heavy obstacles, the bounds, every other car and wreck): the car stops the moment
        it touches one (L668, L682).  A repositioning pivot (``pushed``: the push it repositions
        off) is stopped by what it pushes only deeper than :meth:`push_reach` inside it
        (:meth:`_blocked`)."""
        g = self.kit.geometry
        cars = self._cars(start)
        blocked = self._blocked(start, base, m, reverse, u0, cars, pushed)
        if not blocked(1.0):
            return Drive(compose(base, local_pose(m, 1.0, self.kit.vehicle, self.kit.key), reverse), 1.0, (), ())
        lo, hi = u0, 1.0
        if blocked(u0 + 1e-12):
            hi = u0
        else:
            for _ in range(BISECTIONS):
                mid = (lo + hi) / 2.0
                if blocked(mid):
                    hi = mid
                else:
                    lo = mid
        stop = compose(base, local_pose(m, lo, self.kit.vehicle, self.kit.key), reverse)
        contact = g.swept(base, m, reverse, u0, min(1.0, max(hi, u0) + 1e-9))
        inner = contact.buffer(-TOLERANCE / 2)
        walls = tuple(i for i, geom in g.blockers if geom.intersects(inner))
        hit_cars = tuple(k for k, c in cars if c.intersects(contact))
        if not walls and not hit_cars:
            walls = ("bounds",)
        return Drive(stop, (lo - u0) / (1.0 - u0), walls, hit_cars)

    def clear(self, start: int, pose: Pose, m: Maneuver, reverse: bool) -> bool:
        """Whether ``start``'s car drives ``m`` from ``pose`` without touching anything (a
        policy's look; the rules drive with :meth:`drive`)."""
        return not self._blocked(start, pose, m, reverse, 0.0, self._cars(start))(1.0)

    def _cars(self, start: int) -> list[tuple[int, BaseGeometry]]:
        """Every other car (and wreck) as it collides: its outline shrunk by the tolerance."""
        return [(k, car_outline(s.pose, self.kit.vehicle).buffer(-TOLERANCE, join_style="mitre"))
                for k, s in self.seats.items() if k != start]

    def _blocked(self, start: int, base: Pose, m: Maneuver, reverse: bool, u0: float,
                 cars: list[tuple[int, BaseGeometry]], pushed: Drive | None = None) -> Callable[[float], bool]:
        """Whether the movement ``u0..u`` touches anything.  Against what the car already
        touches where it stands, only the area it moves into counts (moving off or along a wall or
        a car it rests against is not running into it).

        A repositioning pivot (Pushing Walls, L755-L772) stops only when "the car touches another
        wall": what the car pushes (``pushed``'s blockers and cars) stops it only deeper than
        :meth:`push_reach` inside it.  The pivot about the back corner on the far side swings the
        nose into a wall it meets square on a little at first, and the swept area is drawn wider
        still."""
        g = self.kit.geometry
        here = car_outline(self.seats[start].pose, self.kit.vehicle)
        grown = here.buffer(CONTACT, join_style="mitre")
        core = g.core
        if pushed is not None:
            mine = [geom for i, geom in g.blockers if i in pushed.blockers]
            if mine:
                reach = self.push_reach()
                core = shapely.union_all([geom for i, geom in g.blockers if i not in pushed.blockers]
                                         + [shapely.union_all(mine).buffer(-reach, join_style="mitre")])
                core = core.buffer(-TOLERANCE, join_style="mitre")
                shapely.prepare(core)
            cars = [(k, c.buffer(-self.push_reach(), join_style="mitre") if k in pushed.cars else c) for k, c in cars]
        walls_here = bool(core.intersects(grown))
        cars_here = [c.intersects(grown) for _, c in cars]

        def blocked(u: float) -> bool:
            sw = g.swept(base, m, reverse, u0, u)
            fresh: BaseGeometry | None = None
            if walls_here or any(cars_here):
                fresh = sw.difference(grown)
            if core.intersects(fresh if walls_here and fresh is not None else sw):
                return True
            return any(c.intersects(fresh if near and fresh is not None else sw) for (_, c), near in zip(cars, cars_here))

        return blocked

    def _contacts_now(self, start: int) -> set[tuple[int, str]]:
        """The blockers and cars ``start``'s car touches where it stands (within the tolerance)."""
        seat = self.seats[start]
        mine = car_outline(seat.pose, self.kit.vehicle)
        out = {(start, i) for i, geom in self.kit.geometry.blockers if shapely.distance(mine, geom) <= 1e-4}
        for k, s in self.seats.items():
            if k != start and shapely.distance(mine, car_outline(s.pose, self.kit.vehicle)) <= 1e-4:
                out.add((start, str(k)))
        return out

    def pay(self, start: int, tokens: int) -> int:
        """Pay CONTROL; the tokens that could not be paid.  A car that runs out is out of control
        (L616)."""
        seat = self.seats[start]
        paid = min(tokens, seat.control)
        seat.control -= paid
        if tokens > 0 and seat.control == 0 and not seat.out_of_control:
            seat.out_of_control = True
            self._event("out-of-control", start, seat.pose, detail="ran out of CONTROL: drives straight")
        return tokens - paid

    def collide(self, start: int, d: Drive, speed: int, dec: Decisions) -> None:
        """Resolve the collisions of a movement (L686-L701), one event per meeting."""
        seat = self.seats[start]
        new = [(b, False) for b in d.blockers if (start, b) not in self.touching]
        new += [(str(k), True) for k in d.cars if (start, str(k)) not in self.touching]
        for other, is_car in new:
            self.pay(start, 1)
            if is_car:
                o = self.seats[int(other)]
                paid = min(1, o.control)
                o.control -= paid
            hits = dec.hits(self, start, roll_speed(speed))
            if hits < 0 or hits > roll_speed(speed):
                raise RuleBreak(self.turn, start, f"{hits} damage hits from a collision roll of {roll_speed(speed)} dice "
                                "(\"rolls dice equal to their speed\", Collisions)")
            seat.hits[-1].append(hits)
            seat.damage += hits
            if is_car:
                self.seats[int(other)].damage += hits
                self._event("ram", start, seat.pose, other, detail=f"ran into car {other}: {hits} hits each")
            else:
                self._event("collision", start, seat.pose, other, detail=f"hit {other}: {hits} hits")
            self.touching.add((start, other))
            if is_car:
                self.touching.add((int(other), str(start)))

    def refresh_contacts(self, start: int) -> None:
        """Forget the meetings of ``start`` that ended (so the next touch is a new collision)."""
        now = self._contacts_now(start)
        for pair in list(self.touching):
            a, b = pair
            if a == start and pair not in now:
                self.touching.discard(pair)
                if b.isdigit():
                    self.touching.discard((int(b), str(start)))

    def take_cards(self, start: int, point: int) -> None:
        """Take every card in order that the car now touches (the last ends the race)."""
        seat = self.seats[start]
        while (card := seat.next_card) is not None and self.kit.touches(seat.pose, card):
            seat.taken += 1
            seat.arrivals.append([card.id, point])
            self._event("checkpoint", start, seat.pose, card.id, 1.0, f"took card {card.number} ({card.id})")
            if seat.next_card is None:
                self._event("finished", start, seat.pose, detail=f"took its last card in turn {self.turn}")
                self.ended = "target"
                raise GameStopped

    def spin(self, start: int, m: Maneuver, unpaid: int, dec: Decisions) -> None:
        """Spin out (L636-L660): the turning key backwards against the side away from the
        maneuver, the front at its pivot point, the back pivoted over the tip until the car covers
        zone D1..D4 (one per unpaid skid); five or more flip the car."""
        seat = self.seats[start]
        zone = min(unpaid, len(self.kit.key.zones) - 1)
        angle = float(self.kit.key.zones[zone])
        spin = Maneuver("turn", m.side, angle, zone)
        base = compose(seat.pose, (self.kit.vehicle.length, 0.0, 0.0))
        d = self.drive(start, base, spin, True, 0.5)
        seat.pose = d.pose
        self._event("spin", start, seat.pose, detail=f"spun out {angle:g} degrees ({unpaid} skids unpaid)")
        if unpaid >= FLIP_SKIDS:
            seat.out = True
            self._event("flip", start, seat.pose, detail="flipped: a wreck")
        if d.blockers or d.cars:
            self.collide(start, d, seat.speed, dec)

    def push_reach(self) -> float:
        """How deep (inches) a repositioning car may reach into what it pushes: the most a pivot
        about a back corner swings the car, square on, past its front (the outline's furthest
        point from the corner less the length to the nose), plus the swept area's spare
        (:data:`SWEEP_SPARE`)."""
        v = self.kit.vehicle
        pts = outline(v)
        far = float(np.max(np.hypot(pts[:, 0] + v.length / 2.0, pts[:, 1] - v.width / 2.0)))
        return far - (v.length + v.bumper) + SWEEP_SPARE

    def push_side(self, start: int, d: Drive) -> int:
        """The side (1 left, -1 right) of the turning key when ``start``'s car repositions off what
        the push ``d`` ran into: the side away from it (its nearest point to the car's centre);
        square on (:data:`SQUARE_ON`), either side is away from it and the player chooses -
        :attr:`Seat.hand`, left for hand 1."""
        seat = self.seats[start]
        g = self.kit.geometry
        things = [geom for i, geom in g.blockers if i in d.blockers]
        things += [car_outline(self.seats[k].pose, self.kit.vehicle) for k in d.cars]
        centre = shapely.Point(seat.pose.x, seat.pose.y)
        near = shapely.shortest_line(centre, shapely.union_all(things)).coords[-1] if things else (seat.pose.x, seat.pose.y)
        a = math.radians(seat.pose.heading)
        lateral = -(near[0] - seat.pose.x) * math.sin(a) + (near[1] - seat.pose.y) * math.cos(a)
        if abs(lateral) <= SQUARE_ON:
            return 1 if seat.hand >= 0 else -1
        return -1 if lateral > 0 else 1

    def reposition(self, start: int, d: Drive, dec: Decisions) -> None:
        """Pushing Walls (L755-L784): a car touching a wall (or a car or heavy obstacle it cannot
        push: not modelled, treated as a wall) that would move into it loses the point, pays one
        CONTROL and pivots about the back corner on the side away from it (:meth:`push_side`)
        until it covers D4; a car that touches something new on the way is stuck: speed 0, its
        CONTROL returned, two car lengths straight back (stopping at a wall), the rest of its points
        lost."""
        seat = self.seats[start]
        side = self.push_side(start, d)
        self.pay(start, 1)
        zone = len(self.kit.key.zones) - 1
        turn = Maneuver("turn", side, float(self.kit.key.zones[zone]), zone)
        base = compose(seat.pose, (-self.kit.vehicle.length, 0.0, 0.0))
        r = self.drive(start, base, turn, False, 0.5, pushed=d)
        seat.pose = r.pose
        if r.fraction >= 1.0:
            self._event("reposition", start, seat.pose, detail=f"pivoted off {', '.join(d.blockers + tuple(map(str, d.cars)))}")
            return
        seat.stuck = True
        seat.speed = 0
        seat.control = 0
        self._event("stuck", start, seat.pose, detail="stuck: speed 0, two car lengths back")
        for _ in range(2):
            back = self.drive(start, seat.pose, Maneuver("straight"), True)
            seat.pose = back.pose
            if back.fraction < 1.0:
                break

    def one_point(self, start: int, dec: Decisions) -> None:
        """One movement point: the move (straight when out of control), collisions, the driving
        roll and what it costs."""
        seat = self.seats[start]
        label = "straight" if seat.out_of_control else dec.point(self, start)
        index = len(seat.moves) + 1
        parsed = parse_move(label, self.kit)
        if parsed is None:
            raise RuleBreak(self.turn, start, f"point {index}: {label!r} is not a move of the turning key")
        m, reverse = parsed
        if reverse != (seat.speed == REVERSE):
            raise RuleBreak(self.turn, start, f"point {index}: {label} at speed {seat.speed} (a car moves backward only "
                            "in reverse, \"Cars always move forward unless at speed 0\")")
        if seat.out_of_control and m.kind != "straight":
            raise RuleBreak(self.turn, start, f"point {index}: {label} out of control (\"They must drive straight\")")
        self.spend()
        seat.moves.append(("reverse-" if reverse else "") + m.label)
        seat.hits.append([])
        d = self.drive(start, seat.pose, m, reverse)
        seat.pose = d.pose
        pushing = d.fraction < PUSH_FRACTION and all((start, b) in self.touching for b in d.blockers) and all(
            (start, str(k)) in self.touching for k in d.cars)
        if pushing:  # already touching and moving into it: not a collision (Pushing)
            self.reposition(start, d, dec)
        elif d.blockers or d.cars:
            self.collide(start, d, seat.speed, dec)
        g = self.kit.geometry
        dice = driving_dice(m, seat.speed, g.terrain_level_at(seat.pose), g.hazard_dice_at(seat.pose), self.kit.key)
        skids = dec.skids(self, start, dice) if dice > 0 else 0
        if skids < 0 or skids > dice:
            raise RuleBreak(self.turn, start, f"point {index}: {skids} skids on a driving roll of {dice} dice "
                            "(4B. Drive)")
        seat.dice.append(dice)
        seat.skids.append(skids)
        unpaid = self.pay(start, skids)
        if unpaid > 0 and m.kind in ("slide", "turn"):
            self.spin(start, m, unpaid, dec)
        seat.poses.append([seat.pose.x, seat.pose.y, seat.pose.heading])
        self.refresh_contacts(start)
        if not seat.out:
            self.take_cards(start, index)

    def move(self, start: int, dec: Decisions) -> None:
        """4A. Adjust Speed and 4B. Drive for one car."""
        seat = self.seats[start]
        self.take_cards(start, 0)  # a car that begins its move on its next card takes it
        new = dec.speed(self, start)
        legal = {c.speed: c.hard for c in generate_speed_changes(seat.speed, "flat-out", self.max_speed)}
        if new not in legal:
            raise RuleBreak(self.turn, start, f"speed set from {seat.speed} to {new}: the slider moves one step, two "
                            f"with hard acceleration or braking, within -1..{self.max_speed} (4A. Adjust Speed)")
        seat.hard = legal[new]
        seat.speed = new
        seat.moved_speed = new
        seat.stuck = False
        for _ in range(points(new)):
            if seat.out or seat.stuck:
                break
            self.one_point(start, dec)

    # ------------------------------------------------------------------ the round
    def play_turn(self, dec: Decisions) -> None:
        self.turn += 1
        self.events = []
        if self.first_index < 0:
            self.first_index = dec.first(self)
            if not 0 <= self.first_index < len(self.setup.starts):
                raise RuleBreak(1, self.setup.starts[0], f"no seat {self.first_index + 1} to be the first player")
        table = self.p["control_by_speed"]
        for s in self.seats.values():
            s.moves, s.poses, s.dice, s.skids, s.hits, s.arrivals = [], [], [], [], [], []
            s.order, s.hard, s.out_of_control = 0, False, False
            if not s.out:
                s.control = int(table[min(len(table) - 1, slider(s.speed))])  # 2. Take Control
        try:
            for i, k in enumerate(self.order(), start=1):
                self.seats[k].order = i
                self.move(k, dec)
            live = [s for s in self.seats.values() if not s.out]
            if len(self.seats) > 1 and len(live) <= 1:
                self.ended = "last-standing"
        except GameStopped:
            pass
        finally:
            self.turns.append(self.snapshot())

    def snapshot(self) -> Turn:
        pieces = []
        for s in self.seats.values():
            nxt = s.next_card
            state: dict[str, Any] = {
                "speed": s.moved_speed, "speed_after": s.speed, "hard": s.hard, "order": s.order, "control": s.control,
                "out_of_control": s.out_of_control, "moves": list(s.moves), "poses": [list(p) for p in s.poses],
                "dice": list(s.dice), "skids": list(s.skids), "hits": [list(h) for h in s.hits], "damage": s.damage,
                "cards": s.taken, "next": nxt.id if nxt is not None else None,
                "arrivals": [list(a) for a in s.arrivals],
            }
            pieces.append(PieceState(s.start, s.pose.x, s.pose.y, s.pose.heading, state, out=s.out))
        scores = {k: self.score(k) for k in self.seats}
        return Turn(self.turn, tuple(pieces), tuple(self.events), scores)
