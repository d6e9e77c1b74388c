"""Generated Car Wars test arenas for the planner-vs-reference tests.

Each family is built so that one rarer move is the only fast way to the goal card ``C``:

* ``slide_arena``: the driving area is just the sweep of a slide (plus a little room), the card
  at the slide's end;
* ``hard_turn_arena``: the area is the sweep of a 90-degree D4 turn, the card in front of the
  car only after the whole turn;
* ``brake_arena``: the car faces a wall too close to drive at any forward speed, the card
  behind it: only hard braking into reverse reaches it;
* ``accelerate_arena``: the card four car lengths ahead: only hard acceleration reaches it in
  the first turn;
* ``hazard_arena``: two equally fast ways round a block, one over a hazard card (the dice decide);
* ``random_arena``: a small arena with random walls, terrain and hazards.

Every scene is turned by a seeded random angle (and the start heading with it).
"""

from __future__ import annotations

import math
import random

import shapely
from shapely import affinity

from engine.carwars.motion import Pose, sweep
from engine.carwars.rules import Maneuver
from schema.games.carwars import Card, CarWarsArena, Hazard, Terrain, TurningKey, Vehicle, Wall
from schema.shapes import Polygon, Rect

KEY = TurningKey()
CAR = Vehicle()


def _turned(poly: shapely.Polygon, angle: float) -> Polygon:
    p = affinity.rotate(poly, angle, origin=(0, 0))
    return Polygon(tuple((round(x, 9), round(y, 9)) for x, y in list(p.exterior.coords)[:-1]))


def _rot(x: float, y: float, angle: float) -> tuple[float, float]:
    a = math.radians(angle)
    return (round(x * math.cos(a) - y * math.sin(a), 9), round(x * math.sin(a) + y * math.cos(a), 9))


def _scene(name: str, area: shapely.Polygon, card_at: tuple[float, float], angle: float,
           card_size: tuple[float, float] = (0.3, 0.3), **extra: object) -> tuple[CarWarsArena, Pose]:
    area = shapely.simplify(area, 0.01).convex_hull if area.geom_type != "Polygon" else area
    arena = CarWarsArena(name=name, bounds=_turned(area, angle),
                         cards=(Card("C", 1, _rot(*card_at, angle), size=card_size, rotation=angle),), **extra)  # type: ignore[arg-type]
    return arena, Pose(0.0, 0.0, angle % 360.0)


def slide_arena(seed: int) -> tuple[CarWarsArena, Pose]:
    rng = random.Random(seed)
    side = rng.choice((1, -1))
    m = Maneuver("slide", side)
    area = sweep(m, CAR, KEY).buffer(0.05, join_style="mitre").convex_hull
    x, y = KEY.slide_forward * CAR.length, side * KEY.slide_lateral * CAR.length
    card = (x + CAR.length / 2 + 0.15, y + side * 0.4)
    return _scene(f"slide-{seed}", area, card, rng.uniform(0, 360))


def hard_turn_arena(seed: int) -> tuple[CarWarsArena, Pose]:
    rng = random.Random(seed)
    side = rng.choice((1, -1))
    m = Maneuver("turn", side, 90.0, 4)
    area = sweep(m, CAR, KEY).buffer(0.05, join_style="mitre")
    # after the turn the car's centre is (L/2 + W/2, +-(W/2 + L/2)) heading +-90: the card is just past its front
    cx, cy = CAR.length / 2 + CAR.width / 2, side * (CAR.width / 2 + CAR.length / 2)
    card = (cx, cy + side * (CAR.length / 2 + 0.15))
    return _scene(f"turn-{seed}", area, card, rng.uniform(0, 360))


def brake_arena(seed: int) -> tuple[CarWarsArena, Pose]:
    rng = random.Random(seed)
    gap = rng.uniform(0.3, 0.9)  # wall this far past the nose: no forward point fits
    front = CAR.length / 2 + CAR.bumper + gap
    area = shapely.box(-CAR.length * 2.2, -CAR.width, front, CAR.width)
    card = (-CAR.length / 2 - CAR.length + rng.uniform(-0.5, 0.1), 0.0)
    return _scene(f"brake-{seed}", area, card, rng.uniform(0, 360), card_size=(0.3, 1.0))


def accelerate_arena(seed: int) -> tuple[CarWarsArena, Pose]:
    rng = random.Random(seed)
    area = shapely.box(-3.0, -CAR.width / 2 - 0.15, 16.0, CAR.width / 2 + 0.15)  # a lane: straight on only
    card = (4 * CAR.length + CAR.length / 2 + 0.1 + rng.uniform(0.0, 0.05), 0.0)
    return _scene(f"accelerate-{seed}", area, card, rng.uniform(0, 360), card_size=(0.3, 1.0))


def hazard_arena(seed: int) -> tuple[CarWarsArena, Pose]:
    """A wide card two car lengths ahead; a hazard card covers the straight way and one side:
    the least-dice way swerves round the other side in the same time."""
    rng = random.Random(seed)
    angle = rng.uniform(0, 360)
    side = rng.choice((1, -1))
    area = shapely.box(-3.0, -8.0, 14.0, 8.0)
    lo, hi = sorted((-side * 0.1, side * 5.0))
    hazard = shapely.box(1.5, lo, 6.5, hi)
    arena, pose = _scene(f"hazard-{seed}", area, (7.65, 0.0), angle, card_size=(0.5, 6.0))
    arena = CarWarsArena(name=arena.name, bounds=arena.bounds, cards=arena.cards,
                         hazards=(Hazard("H", _turned(hazard, angle), dice=2),))
    return arena, pose


def random_arena(seed: int) -> tuple[CarWarsArena, Pose]:
    rng = random.Random(seed)
    w, h = rng.uniform(12, 16), rng.uniform(10, 13)
    walls, terrain, hazards = [], [], []
    for i in range(rng.randint(1, 3)):
        cx, cy = rng.uniform(-w / 2 + 3, w / 2), rng.uniform(-h / 2 + 1, h / 2 - 1)
        if abs(cx) < 3 and abs(cy) < 2.5:
            cx += 5
        walls.append(Wall(f"W{i}", Rect((cx, cy), (rng.uniform(0.5, 3), rng.uniform(0.5, 3)), rng.uniform(0, 90))))
    terrain.append(Terrain("T", Rect((rng.uniform(0, 6), rng.uniform(-4, 4)), (3.0, 3.0)), level=rng.randint(1, 3)))
    hazards.append(Hazard("H", Rect((rng.uniform(0, 6), rng.uniform(-4, 4)), (2.5, 3.5), rng.uniform(0, 90)), dice=2))
    arena = CarWarsArena(name=f"random-{seed}", bounds=Rect((w / 2 - 4, 0.0), (w, h)), walls=tuple(walls),
                         terrain=tuple(terrain), hazards=tuple(hazards),
                         cards=(Card("C", 1, (rng.uniform(3, w - 5), rng.uniform(-h / 2 + 1.5, h / 2 - 1.5)), size=(1.0, 1.0)),))
    return arena, Pose(0.0, 0.0, rng.choice((0.0, 0.0, 18.0, 90.0)))
