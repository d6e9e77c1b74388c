"""The generated arenas of the golden travel table (issue 36: "Keep a golden table of travel times
on generated arenas (walls, fields, reverse, pivots) that a change may only improve").

Each case is an arena and the sources searched from it (every goal of the arena is answered by
one search per source).  Seeded: the same case always builds the same arena, and the table keeps
a digest of each arena, so an edited generator is told apart from a changed search.  Small
arenas (a few square lengths of floor per goal): the whole table is about 2.5 M states at the
analysis tolerance.

Families:

* ``detour`` - one to three bars across the way from the starts to the checkpoints, so a wall
  forces a detour (the issue's case is ``reported detour``: 3.167 turns at the analysis
  tolerance where ``arena travel --tolerance 0.1`` - the default before 2026-11-23 - printed a
  legal 3.000);
* ``fields`` - acceleration fields on the way, a wall in the middle, a central checkpoint;
* ``reverse`` - a dead-end channel only reverse gets out of (:func:`tests.engine.arenas.reverse_arena`),
  and pose sources moving in reverse on the detour arenas;
* ``pivot`` - a start boxed in on three sides, facing a wall: only a pivot at speed 0 turns it
  to the open side;
* ``jog`` - a partial sideslip is the only way (:func:`tests.engine.arenas.jog_arena`: the
  analysis tolerance's half widths miss it, the confirming search finds it), ``chain`` - a chain
  of fields carries the turbine, ``corridor`` - baffles from alternate sides, ``table`` - a 12-length
  table with four starts, five checkpoints and scattered walls (:mod:`tests.engine.table_arenas`),
  and a checkpoint sealed in walls (proven unreachable: :func:`tests.engine.arenas.sealed_arena`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.motion import Pose
from engine.gravstrike.planner import CheckpointSource, PoseSource, Source, StartSource
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, StartPosition, Wall
from tests.engine.arenas import chain_arena, jog_arena, reverse_arena, sealed_arena
from tests.engine.table_arenas import corridor_arena, table_arena


def _r(v: float) -> float:
    return round(v, 3)


def _starts_clear(arena: Arena) -> bool:
    g = ArenaGeometry(arena)
    return all(g.ram_feature(Pose(s.position[0], s.position[1], s.facing)) is None for s in arena.start_positions)


def reported_detour() -> Arena:
    """The issue's case: a wall between start 1 and checkpoint A.  At the analysis tolerance the
    turbine goes round the wall's far end (3.167 turns); round its near end is 3.000 turns, a legal
    path the finer searches find (merging states closer than 0.25 length keeps another state of
    the same arrival time in the cell the faster path passes through)."""
    return Arena(name="reported detour", bounds=Rect((0.0, 0.0), (13.55, 12.11)),
                 walls=(Wall("W", Rect((1.05, -1.75), (0.73, 6.75))),),
                 checkpoints=(Checkpoint("A", "outlying", Circle((4.78, -3.91), 0.82)),),
                 start_positions=(StartPosition(1, (-5.28, 1.28), 60.0),))


def detour_arena(seed: int) -> Arena:
    """A 12-18 × 8-14 table, one to three bars (the first across the middle), two starts on the
    west side and two checkpoints east of the first bar."""
    rnd = random.Random(seed)
    while True:
        w, h = rnd.uniform(12, 18), rnd.uniform(8, 14)
        walls = []
        for i in range(rnd.randint(1, 3)):
            length = rnd.uniform(3, h * 0.7)
            x = rnd.uniform(-w / 4, w / 4) if i else rnd.uniform(-1.5, 1.5)
            y = rnd.choice([-1, 1]) * (h / 2 - length / 2) * rnd.uniform(0, 1)
            walls.append(Wall(f"W{i + 1}", Rect((_r(x), _r(y)), (_r(rnd.uniform(0.3, 0.8)), _r(length)),
                                                float(rnd.choice([0, 0, 15, -15, 30, 90])))))
        starts = (StartPosition(1, (_r(-w / 2 + 1.5), _r(rnd.uniform(-h / 2 + 1.5, h / 2 - 1.5))),
                                float(rnd.choice(range(0, 360, 30)) + rnd.choice([0, 0, 17]))),
                  StartPosition(2, (_r(rnd.uniform(-w / 2 + 1.5, -w / 4)), _r(rnd.uniform(-h / 2 + 1.5, h / 2 - 1.5))),
                                float(rnd.choice(range(0, 360, 30)))))
        cps = (Checkpoint("A", "outlying", Circle((_r(w / 2 - 2), _r(rnd.uniform(-h / 2 + 1.5, h / 2 - 1.5))),
                                                  _r(rnd.uniform(0.4, 0.9)))),
               Checkpoint("B", "outlying", Circle((_r(rnd.uniform(0, w / 2 - 2)), _r(rnd.uniform(-h / 2 + 1.5, h / 2 - 1.5))),
                                                  _r(rnd.uniform(0.4, 0.9)))))
        arena = Arena(name=f"detour {seed}", bounds=Rect((0.0, 0.0), (_r(w), _r(h))), walls=tuple(walls),
                      checkpoints=cps, start_positions=starts)
        if _starts_clear(arena):
            return arena


def field_arena(seed: int) -> Arena:
    """A 12-16 × 9-13 table with two to four acceleration fields (any direction), a bar in the
    middle, a start on the west side, checkpoint A on the east side and central checkpoint M."""
    rnd = random.Random(1000 + seed)
    while True:
        w, h = rnd.uniform(12, 16), rnd.uniform(9, 13)
        fields = tuple(AccelerationField(f"F{i + 1}", Circle((_r(rnd.uniform(-w / 2 + 2, w / 2 - 2)), _r(rnd.uniform(-h / 2 + 2, h / 2 - 2))),
                                                             _r(rnd.uniform(0.4, 0.9))), float(rnd.choice(range(0, 360, 15))))
                       for i in range(rnd.randint(2, 4)))
        walls = (Wall("W1", Rect((_r(rnd.uniform(-1.5, 1.5)), _r(rnd.uniform(-2, 2))), (0.5, _r(rnd.uniform(3, 6))),
                                 float(rnd.choice([0, 30, 60, 90])))),)
        starts = (StartPosition(1, (_r(-w / 2 + 1.5), _r(rnd.uniform(-h / 2 + 1.5, h / 2 - 1.5))), float(rnd.choice(range(0, 360, 30)))),)
        cps = (Checkpoint("A", "outlying", Circle((_r(w / 2 - 2), _r(rnd.uniform(-h / 2 + 1.5, h / 2 - 1.5))), 0.6)),
               Checkpoint("M", "central", Circle((_r(rnd.uniform(-2, 2)), _r(rnd.uniform(-h / 2 + 1.5, h / 2 - 1.5))), 0.6)))
        arena = Arena(name=f"fields {seed}", bounds=Rect((0.0, 0.0), (_r(w), _r(h))), walls=walls, acceleration_fields=fields,
                      checkpoints=cps, start_positions=starts)
        if _starts_clear(arena):
            return arena


def pivot_arena(seed: int) -> Arena:
    """Start 1 in a box of walls a little wider than the turbine's diagonal, open on one side and
    facing a closed one: no length fits (forwards or in reverse) until a pivot at speed 0 turns it
    towards the opening.  Checkpoint A beyond the opening, B elsewhere on the table."""
    rnd = random.Random(2000 + seed)
    inner, t = _r(rnd.uniform(1.15, 1.4)), 0.5
    half = inner / 2.0
    walls = (Wall("E", Rect((_r(half + t / 2), 0.0), (t, _r(inner + 2 * t)))),
             Wall("W", Rect((_r(-half - t / 2), 0.0), (t, _r(inner + 2 * t)))),
             Wall("S", Rect((0.0, _r(-half - t / 2)), (_r(inner + 2 * t), t))))
    return Arena(name=f"pivot {seed}", bounds=Rect((0.0, 0.0), (12.0, 10.0)), walls=walls,
                 checkpoints=(Checkpoint("A", "outlying", Circle((_r(rnd.uniform(-3, 3)), _r(rnd.uniform(2.5, 4))), 0.5)),
                              Checkpoint("B", "outlying", Circle((_r(rnd.uniform(3, 5)), _r(rnd.uniform(-4, -2))), 0.5))),
                 start_positions=(StartPosition(1, (0.0, 0.0), rnd.choice([0.0, 180.0])),))


@dataclass(frozen=True)
class Case:
    """One arena of the table and the sources searched from it (``start:N``, ``checkpoint:ID`` or
    ``x,y,heading,speed`` - a negative speed moving in reverse)."""

    family: str
    build: Callable[[], Arena]
    sources: tuple[str, ...]

    @property
    def name(self) -> str:
        """The case's name in the table: its family and its arena's name."""
        return f"{self.family}: {self.build().name}"


def parse_source(text: str) -> Source:
    kind, _, ident = text.partition(":")
    if kind == "start":
        return StartSource(int(ident))
    if kind == "checkpoint":
        return CheckpointSource(ident)
    x, y, heading, speed = text.split(",")
    return PoseSource(Pose(float(x), float(y), float(heading)), int(speed))


def _bind(fn: Callable[[int], Arena], seed: int) -> Callable[[], Arena]:
    return lambda: fn(seed)


def _reverse_source(arena: Arena) -> str:
    """Start 1's place, facing away from the way it should go, moving backwards at speed 2."""
    st = arena.start_positions[0]
    return f"{st.position[0]},{st.position[1]},{(st.facing + 180.0) % 360.0:g},-2"


CASES: tuple[Case, ...] = (
    Case("walls", reported_detour, ("start:1",)),
    *(Case("walls", _bind(detour_arena, s), ("start:1", "start:2")) for s in range(8)),
    *(Case("reverse", _bind(detour_arena, s), (_reverse_source(detour_arena(s)),)) for s in (0, 2)),
    *(Case("walls", _bind(lambda s: corridor_arena(12 + 2 * s, 3.0, 2 + s), s), ("start:1",)) for s in range(2)),
    Case("walls", _bind(lambda s: table_arena(12, s), 1), ("start:1", "start:2", "start:3", "start:4", "checkpoint:A")),
    Case("walls", sealed_arena, ("start:1",)),
    *(Case("fields", _bind(field_arena, s), ("start:1", "checkpoint:A")) for s in range(4)),
    *(Case("fields", _bind(chain_arena, s), ("start:1",)) for s in range(3)),
    *(Case("reverse", _bind(reverse_arena, s), ("start:1",)) for s in range(4)),
    *(Case("pivots", _bind(pivot_arena, s), ("start:1",)) for s in range(4)),
    *(Case("sideslips", _bind(lambda s: jog_arena(s)[0], s), ("start:1",)) for s in range(3)),
)
