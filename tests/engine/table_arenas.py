"""Generated arenas at table scale (issue 20): square tables 12 to 96 lengths across with four
starts, five checkpoints and scattered walls, no symmetry to reuse; and long corridors whose
checkpoint lies farther than the analysis horizon.  Seeded: the same arguments give the same
arena.  Used by the scale tests and by ``bench/scale.py``."""

from __future__ import annotations

import math
import random

from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.motion import Pose
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, Checkpoint, StartPosition, Wall


def table_arena(size: float, seed: int = 1, walls: int | None = None) -> Arena:
    """A ``size`` × ``size`` table: four starts facing in from the middle of each edge (jittered),
    four outlying checkpoints near the corners and a central one, ``walls`` bars and pillars
    (default 5 per 6 lengths across: 40 on a 48-length table) clear of the starts and checkpoints
    (as many as fit: a 12-length table holds fewer)."""
    rnd = random.Random(seed * 1000 + int(size * 4))
    half = size / 2.0
    count = int(size * 5 / 6) if walls is None else walls
    starts = []
    for i, (ax, ay, facing) in enumerate(((-1, 0, 0.0), (0, -1, 90.0), (1, 0, 180.0), (0, 1, 270.0))):
        along = rnd.uniform(-0.3, 0.3) * size
        x = ax * (half - 1.5) + (0 if ax else along)
        y = ay * (half - 1.5) + (0 if ay else along)
        starts.append(StartPosition(i + 1, (round(x, 3), round(y, 3)), facing + rnd.choice([0.0, 0.0, 17.0])))
    corner = half * 0.7
    cps = [Checkpoint(c, "outlying", Circle((round(sx * corner + rnd.uniform(-1, 1), 3), round(sy * corner + rnd.uniform(-1, 1), 3)), 0.5))
           for c, (sx, sy) in zip("ABCD", ((1, 1), (-1, 1), (-1, -1), (1, -1)))]
    cps.append(Checkpoint("M", "central", Circle((round(rnd.uniform(-1, 1), 3), round(rnd.uniform(-1, 1), 3)), 0.6)))
    keep = [s.position for s in starts] + [c.shape.center for c in cps]  # type: ignore[attr-defined]
    longest = min(4.0, size / 6.0)  # bars up to 4 lengths (2 on a 12-length table)
    clear = longest / 2.0 + 2.0  # a wall's nearest point stays 1.5 lengths from a start's centre
    placed: list[Wall] = []
    for _ in range(200 * count):  # a small table may hold fewer walls than asked
        if len(placed) == count:
            break
        x, y = rnd.uniform(-half + 1.0, half - 1.0), rnd.uniform(-half + 1.0, half - 1.0)
        if min(math.dist((x, y), k) for k in keep) < clear:
            continue
        wid = f"W{len(placed) + 1}"
        if rnd.random() < 0.7:
            placed.append(Wall(wid, Rect((round(x, 3), round(y, 3)), (round(rnd.uniform(1.0, longest), 2), round(rnd.uniform(0.3, 0.8), 2)),
                                         float(rnd.choice(range(0, 180, 15))))))
        else:
            placed.append(Wall(wid, Circle((round(x, 3), round(y, 3)), round(rnd.uniform(0.3, 1.0), 2))))
    arena = Arena(name=f"table {size:g} #{seed}", bounds=Rect((0.0, 0.0), (size, size)), walls=tuple(placed),
                  checkpoints=tuple(cps), start_positions=tuple(starts))
    geometry = ArenaGeometry(arena)
    for s in starts:  # the generator keeps walls 4 lengths away: a start never rams
        assert geometry.ram_feature(Pose(s.position[0], s.position[1], s.facing)) is None
    return arena


def corridor_arena(length: float, width: float = 3.0, baffles: int = 0) -> Arena:
    """A corridor ``length`` × ``width``: start 1 at the west end facing east, checkpoint A at
    the east end; ``baffles`` walls from alternate sides (each leaves a gap of 1.6 lengths) make
    the way longer and slower."""
    half = length / 2.0
    walls = []
    for i in range(baffles):
        x = -half + length * (i + 1) / (baffles + 1)
        side = 1 if i % 2 == 0 else -1
        walls.append(Wall(f"B{i + 1}", Rect((round(x, 3), side * 0.8), (0.4, width - 1.6))))
    return Arena(name=f"corridor {length:g}", bounds=Rect((0.0, 0.0), (length, width)), walls=tuple(walls),
                 checkpoints=(Checkpoint("A", "outlying", Circle((half - 1.5, 0.0), 0.5)),),
                 start_positions=(StartPosition(1, (-half + 1.5, 0.0), 0.0),))
