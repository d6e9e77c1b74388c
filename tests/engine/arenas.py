"""Small generated arenas for the planner-vs-oracle tests (bounded so the oracle stays quick)."""

from __future__ import annotations

import random

from engine.geometry import ArenaGeometry
from engine.motion import Pose
from schema.model import (
    AccelerationField,
    Arena,
    Checkpoint,
    Circle,
    ExclusionField,
    Gate,
    Rect,
    StartPosition,
    StaticTarget,
    Turbine,
    Wall,
)


def small_arena(seed: int) -> tuple[Arena, int]:
    """A random small arena and the number of turns the comparison should search."""
    rnd = random.Random(seed)
    w, h = rnd.uniform(7.0, 10.0), rnd.uniform(5.0, 8.0)
    profile = seed % 3
    if profile == 0:
        turbine, turns = Turbine(speed_delta=1, max_speed=3, icons_per_turn=rnd.choice([1, 2, 3])), 3
    elif profile == 1:
        turbine, turns = Turbine(speed_delta=2, max_speed=4, icons_per_turn=rnd.choice([1, 2])), 2
    else:
        budget = rnd.choice([2, None])
        turbine, turns = Turbine(speed_delta=1, max_speed=2, icons_per_turn=budget), (3 if budget else 2)

    def pt(margin: float = 1.0) -> tuple[float, float]:
        return (rnd.uniform(-w / 2 + margin, w / 2 - margin), rnd.uniform(-h / 2 + margin, h / 2 - margin))

    walls = []
    for i in range(rnd.randint(0, 3)):
        if rnd.random() < 0.6:
            walls.append(Wall(f"W{i}", Rect(pt(), (rnd.uniform(0.2, 2.5), rnd.uniform(0.2, 1.0)), rnd.uniform(0, 180))))
        else:
            walls.append(Wall(f"W{i}", Circle(pt(), rnd.uniform(0.2, 0.8))))
    fields = tuple(
        AccelerationField(f"F{i}", Circle(pt(), rnd.uniform(0.2, 0.6)), float(rnd.choice(range(0, 360, 15))))
        for i in range(rnd.randint(0, 2))
    )
    excl = tuple(
        ExclusionField(f"X{i}", Rect(pt(), (rnd.uniform(0.5, 2.0), rnd.uniform(0.5, 2.0)), rnd.uniform(0, 90)), rnd.choice([1, 3]))
        for i in range(rnd.randint(0, 1))
    )
    cps = tuple(Checkpoint(c, "outlying", Circle(pt(), rnd.uniform(0.3, 0.8))) for c in "AB"[: rnd.randint(1, 2)])
    gates = ()
    if rnd.random() < 0.5:
        a = pt()
        gates = (Gate("G", "outlying", a, (a[0] + rnd.uniform(-2, 2), a[1] + rnd.uniform(-2, 2)), rnd.random() < 0.5),)
    targets = (StaticTarget("T", pt()),) if rnd.random() < 0.4 else ()
    base = Arena(name=f"gen{seed}", bounds=Rect((0.0, 0.0), (w, h)), turbine=turbine, walls=tuple(walls))
    g = ArenaGeometry(base)
    starts: list[StartPosition] = []
    while len(starts) < 2:
        p = pt(0.8)
        facing = float(rnd.choice(range(0, 360, 30))) + rnd.choice([0.0, 0.0, 17.0])
        if g.ram_feature(Pose(p[0], p[1], facing)) is None:
            starts.append(StartPosition(len(starts) + 1, p, facing))
    arena = Arena(
        name=f"gen{seed}",
        bounds=Rect((0.0, 0.0), (w, h)),
        turbine=turbine,
        walls=tuple(walls),
        checkpoints=cps,
        gates=gates,
        acceleration_fields=fields,
        exclusion_fields=excl,
        static_targets=targets,
        start_positions=tuple(starts),
    )
    return arena, turns
