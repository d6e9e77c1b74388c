"""Valid arenas within the schemas' caps whose analysis ran away before the analysis caps
(issue 36, points 6 and 9), generated (seeded: the same arguments give the same arena):

* :func:`carwars_sprawl` - a 120 in Car Wars board with 1,500 walls and 1,500 obstacles
  (no answer in 7 min, 3.5 GB);
* :func:`gravstrike_sprawl` - a 99 x 99 Gravstrike table with 1,000 walls, 26 checkpoints and
  six starts (no answer in 7 min, 1.6 GB);
* :func:`gliderpit_sprawl` - a hexagonal Glider-Pit pit of 18,961 hexes (965 MB);
* :func:`crossroads_six_feet` - the shipped Crossroads scaled to 6 ft (its layout doubled, the
  car and the pieces kept, the starts against the new edges), whose start-to-start searches
  stop "undecided: states" while the report said nothing.

Used by ``tests/validators/test_analysis_caps.py`` and ``bench/runaway.py``."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def carwars_sprawl(walls: int = 1500, obstacles: int = 1500, size: float = 120.0, seed: int = 1) -> Any:
    """A ``size`` in square Car Wars board, four starts against the middle of its edges, four
    checkpoints, and ``walls`` short barriers and ``obstacles`` tyre stacks scattered clear of
    the starts."""
    from schema.games.carwars import Card, CarWarsArena, Obstacle, StartPosition, Wall
    from schema.shapes import Circle, Rect

    rnd = random.Random(seed)
    half = size / 2.0
    inset = half - 2.5  # key, bumper, half the car (engine default vehicle)
    starts = tuple(StartPosition(i + 1, (round(inset * math.cos(math.radians(a)), 6) + 0.0,
                                         round(inset * math.sin(math.radians(a)), 6) + 0.0), (a + 180.0) % 360.0)
                   for i, a in enumerate((270.0, 180.0, 90.0, 0.0)))
    corner = half * 0.6
    cards = tuple(Card(f"checkpoint-{i + 1}", i, (sx * corner, sy * corner), role="checkpoint", owner=i + 1)
                  for i, (sx, sy) in enumerate(((-1, -1), (-1, 1), (1, 1), (1, -1))))
    keep = [s.position for s in starts] + [c.position for c in cards]

    def spot() -> tuple[float, float]:
        while True:
            x, y = rnd.uniform(-half + 2, half - 2), rnd.uniform(-half + 2, half - 2)
            if min(math.dist((x, y), k) for k in keep) > 8.0:
                return round(x, 3), round(y, 3)

    wall_list = tuple(Wall(f"W{i + 1}", Rect(spot(), (round(rnd.uniform(1.0, 3.0), 2), 0.5),
                                              float(rnd.choice(range(0, 180, 15))))) for i in range(walls))
    obstacle_list = tuple(Obstacle(f"O{i + 1}", Circle(spot(), 0.5)) for i in range(obstacles))
    arena = CarWarsArena(name=f"Car Wars sprawl {walls}+{obstacles}", bounds=Rect((0.0, 0.0), (size, size)),
                         walls=wall_list, obstacles=obstacle_list, cards=cards, start_positions=starts)
    return replace(arena, scenario=replace(arena.scenario, analysis=replace(
        arena.scenario.analysis, arena_size=size, arena_size_tolerance=size)))


def gravstrike_sprawl(walls: int = 1000, checkpoints: int = 26, starts: int = 6, size: float = 99.0,
                      seed: int = 1) -> Any:
    """A ``size`` x ``size`` Gravstrike table: ``starts`` starts on a ring facing in,
    ``checkpoints`` checkpoints (A-Y outlying, Z central... as many letters as asked) spread over
    it, and ``walls`` bars and pillars clear of both."""
    from schema.shapes import Circle, Rect
    from schema.games.gravstrike.model import Arena, Checkpoint, StartPosition, Wall

    rnd = random.Random(seed)
    half = size / 2.0
    ring = half - 3.0
    start_list = tuple(StartPosition(i + 1, (round(ring * math.cos(2 * math.pi * i / starts), 3),
                                             round(ring * math.sin(2 * math.pi * i / starts), 3)),
                                     (360.0 * i / starts + 180.0) % 360.0) for i in range(starts))
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:checkpoints]
    cps = []
    for n, c in enumerate(letters):
        angle, r = 2 * math.pi * n / checkpoints, (0.2 + 0.6 * (n % 3) / 2) * half
        cps.append(Checkpoint(c, "central" if c == "M" else "outlying",
                              Circle((round(r * math.cos(angle), 3), round(r * math.sin(angle), 3)), 0.6)))
    keep = [s.position for s in start_list] + [c.shape.center for c in cps]  # type: ignore[attr-defined]
    placed = []
    while len(placed) < walls:
        x, y = rnd.uniform(-half + 1.0, half - 1.0), rnd.uniform(-half + 1.0, half - 1.0)
        if min(math.dist((x, y), k) for k in keep) < 4.0:
            continue
        wid = f"W{len(placed) + 1}"
        if rnd.random() < 0.7:
            placed.append(Wall(wid, Rect((round(x, 3), round(y, 3)), (round(rnd.uniform(1.0, 3.0), 2), 0.5),
                                         float(rnd.choice(range(0, 180, 15))))))
        else:
            placed.append(Wall(wid, Circle((round(x, 3), round(y, 3)), round(rnd.uniform(0.3, 0.8), 2))))
    return Arena(name=f"Gravstrike sprawl {walls} walls", bounds=Rect((0.0, 0.0), (size, size)),
                 walls=tuple(placed), checkpoints=tuple(cps), start_positions=start_list)


def gliderpit_sprawl(radius: int = 79) -> Any:
    """A hexagonal pit of ``radius`` hexes around the centre (79: 3r² + 3r + 1 = 18,961 hexes),
    a launch zone of five wall hexes in the middle of each of its six sides, and 100 numbered
    rows across its middle (the schema's most; labels 2-12 in turn)."""
    from schema.games.gliderpit import GliderPitArena, LaunchZone, Row

    R = radius
    cells = tuple(sorted(((q, r) for q in range(-R, R + 1) for r in range(-R, R + 1) if abs(q + r) <= R),
                         key=lambda c: (-c[1], c[0])))
    h = R // 2
    middles = [[(R, -h + k) for k in range(-2, 3)], [(-R, h + k) for k in range(-2, 3)],
               [(-h + k, R) for k in range(-2, 3)], [(h + k, -R) for k in range(-2, 3)],
               [(-h + k, -R + h - k) for k in range(-2, 3)], [(h + k, R - h - k) for k in range(-2, 3)]]
    zones = tuple(LaunchZone(f"Z{i + 1}", i + 1, tuple(z)) for i, z in enumerate(middles))
    rows = tuple(Row(f"R{n + 1}", line, 2 + n % 11) for n, line in enumerate(range(-49, 51)))
    return GliderPitArena(name=f"Glider-Pit sprawl r{radius}", cells=cells, rows=rows, launch_zones=zones)


def crossroads_six_feet() -> Any:
    """The shipped Crossroads doubled to 6 ft: every piece's centre scaled by 2 (sizes kept),
    the starts moved out to the new edges (the same distance from the edge as before)."""
    return crossroads_scaled(6.0)


def crossroads_scaled(feet: float) -> Any:
    """The shipped Crossroads (a 3 ft square) scaled to a ``feet`` ft table about its centre:
    the bounds, every wall's, obstacle's, terrain's, hazard's, card's and token's centre scaled
    by ``feet / 3`` (their sizes, and the car's, kept), the starts moved out to the new edges
    (the same distance from the edge as on the 3 ft table, the same facing), the scenario's
    ``arena_size`` with them.  ``feet`` 3 gives the shipped arena's pieces unchanged (issue 38,
    goal 2: the 4.5 ft and 6 ft tables of ``bench/carwars.py --tables``)."""
    from schema import load

    a = load(ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml")
    k = feet * 12.0 / a.bounds.size[0]

    def moved(e: Any) -> Any:
        x, y = e.shape.center
        return replace(e, shape=replace(e.shape, center=(k * x, k * y)))

    half = a.bounds.size[0] / 2.0
    starts = []
    for s in a.start_positions:
        x, y = s.position
        out = max(abs(x), abs(y))
        m = (k * half - (half - out)) / out
        starts.append(replace(s, position=(x * m, y * m)))
    label = f"{feet:g} ft"
    return replace(
        a, name=f"Crossroads ({label})", bounds=replace(a.bounds, size=(k * a.bounds.size[0], k * a.bounds.size[1])),
        walls=tuple(map(moved, a.walls)), obstacles=tuple(map(moved, a.obstacles)),
        terrain=tuple(map(moved, a.terrain)), hazards=tuple(map(moved, a.hazards)),
        cards=tuple(replace(c, position=(k * c.position[0], k * c.position[1])) for c in a.cards),
        tokens=tuple(replace(t, position=(k * t.position[0], k * t.position[1])) for t in a.tokens),
        start_positions=tuple(starts),
        scenario=replace(a.scenario, analysis=replace(a.scenario.analysis, arena_size=k * a.scenario.analysis.arena_size)))
