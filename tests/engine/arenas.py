"""Small generated arenas for the planner-vs-oracle tests (bounded so the oracle stays quick)."""

from __future__ import annotations

import math
import random

from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.motion import Pose
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, ExclusionField, Gate, Scenario, StartPosition, StaticTarget, Turbine, Variants, Wall


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
        scenario=Scenario(variants=Variants(gates=bool(gates))),  # a gate is analysed only when it scores
    )
    return arena, turns


def _channel_walls(x0: float, x1: float, y: float, width: float, tag: str) -> list[Wall]:
    """The two walls (0.5 thick) of a straight channel along x from x0 to x1, centred on y."""
    mid, length = (x0 + x1) / 2.0, x1 - x0
    return [Wall(f"{tag}N", Rect((mid, y + width / 2.0 + 0.25), (length, 0.5))),
            Wall(f"{tag}S", Rect((mid, y - width / 2.0 - 0.25), (length, 0.5)))]


def reverse_arena(seed: int) -> Arena:
    """A dead-end channel too narrow to turn or pivot in (no heading but along it fits), the
    start facing the dead end and checkpoint A out of the other end: only reverse gets there."""
    rnd = random.Random(seed)
    width = rnd.uniform(0.6, 0.85)
    end = rnd.uniform(3.0, 4.5)
    walls = _channel_walls(-2.5, end, 0.0, width, "C") + [Wall("END", Rect((end + 0.25, 0.0), (0.5, width + 1.0)))]
    delta, top = rnd.choice([(1, 2), (2, 2), (1, 3), (2, 4)])
    turbine = Turbine(speed_delta=delta, max_speed=top, icons_per_turn=rnd.choice([1, 3]))
    return Arena(
        name=f"reverse{seed}", bounds=Rect((0.0, 0.0), (13.0, 5.0)), turbine=turbine, walls=tuple(walls),
        checkpoints=(Checkpoint("A", "outlying", Circle((rnd.uniform(-5.5, -4.0), rnd.uniform(-1.0, 1.0)), 0.5)),),
        start_positions=(StartPosition(1, (rnd.uniform(0.0, end - 1.0), 0.0), 0.0),),
    )


def jog_arena(seed: int) -> tuple[Arena, float]:
    """Two channels a hair wider than the turbine, the second offset sideways by a quarter or three
    quarters of a width, joined by a pocket just wide enough for both: no heading but along them
    fits, and getting from one channel's line to the other's takes a length whose sideslip is
    that fraction (give or take the clearance).  Returns the arena and the sideslip (in widths)."""
    rnd = random.Random(seed)
    turbine = Turbine(speed_delta=rnd.choice([1, 2]), max_speed=rnd.choice([2, 3]), icons_per_turn=rnd.choice([1, 2, None]))
    clearance = rnd.uniform(0.02, 0.035)
    width = turbine.width + 2.0 * clearance
    fraction = rnd.choice([0.25, 0.75]) * rnd.choice([1, -1])
    shift = fraction * turbine.width
    joint = rnd.uniform(-1.0, 0.5)
    pocket = 1.2
    top, bottom = max(0.0, shift) + width / 2.0, min(0.0, shift) - width / 2.0
    walls = (_channel_walls(-6.0, joint - pocket, 0.0, width, "W") + _channel_walls(joint, 6.0, shift, width, "E")
             + [Wall("PN", Rect((joint - pocket / 2.0, top + 0.25), (pocket, 0.5))),
                Wall("PS", Rect((joint - pocket / 2.0, bottom - 0.25), (pocket, 0.5)))])
    return Arena(
        name=f"jog{seed}", bounds=Rect((0.0, 0.0), (12.0, 4.0)), turbine=turbine, walls=tuple(walls),
        checkpoints=(Checkpoint("A", "outlying", Circle((rnd.uniform(joint + 1.6, 4.0), shift), 0.2)),),
        start_positions=(StartPosition(1, (rnd.uniform(-5.0, joint - pocket - 1.6), 0.0), 0.0),),
    ), fraction


def chain_arena(seed: int) -> Arena:
    """Acceleration fields one length apart in a row, each pushing on to the next: a length that
    ends on the first is carried down the whole chain (rule "Acceleration Fields": each field
    once a turn, pushes repeat the end-of-length checks)."""
    rnd = random.Random(seed)
    heading = float(rnd.choice(range(0, 360, 30)))
    a = math.radians(heading)
    n = rnd.randint(2, 3)
    fields = tuple(AccelerationField(f"F{i}", Circle((1.5 * math.cos(a) + i * math.cos(a), 1.5 * math.sin(a) + i * math.sin(a)), 0.2),
                                     heading + rnd.choice([0.0, 0.0, 15.0, -15.0])) for i in range(n))
    far = 1.5 + n + rnd.uniform(1.0, 2.5)
    turbine = Turbine(speed_delta=1, max_speed=2, icons_per_turn=rnd.choice([1, 2]))
    return Arena(
        name=f"chain{seed}", bounds=Rect((0.0, 0.0), (16.0, 16.0)), turbine=turbine, acceleration_fields=fields,
        checkpoints=(Checkpoint("A", "outlying", Circle((far * math.cos(a), far * math.sin(a)), 0.4)),),
        start_positions=(StartPosition(1, (0.0, 0.0), heading),),
    )


def sealed_arena(size: tuple[float, float] = (20.0, 10.0), thickness: float = 0.5) -> Arena:
    """Checkpoint A inside four walls of ``thickness`` that meet at the corners."""
    w, h = size
    cx, cy, half = w / 2 - 4.0, 0.0, 1.5
    walls = (Wall("N", Rect((cx, cy + half), (2 * half + thickness, thickness))),
             Wall("S", Rect((cx, cy - half), (2 * half + thickness, thickness))),
             Wall("E", Rect((cx + half, cy), (thickness, 2 * half + thickness))),
             Wall("W", Rect((cx - half, cy), (thickness, 2 * half + thickness))))
    return Arena(name="sealed", bounds=Rect((0.0, 0.0), size), walls=walls,
                 checkpoints=(Checkpoint("A", "outlying", Circle((cx, cy), 0.5)),
                              Checkpoint("B", "outlying", Circle((-w / 2 + 3.0, 0.0), 0.5))),
                 start_positions=(StartPosition(1, (-w / 2 + 1.5, -h / 2 + 1.5), 0.0),))


def wall_box(centre: tuple[float, float], half: float = 1.0, thickness: float = 0.5, prefix: str = "Box") -> tuple[Wall, ...]:
    """Four walls of ``thickness`` on the sides of a square ``2 * half`` across, meeting at the corners."""
    cx, cy = centre
    return (Wall(f"{prefix}N", Rect((cx, cy + half), (2 * half + thickness, thickness))),
            Wall(f"{prefix}S", Rect((cx, cy - half), (2 * half + thickness, thickness))),
            Wall(f"{prefix}E", Rect((cx + half, cy), (thickness, 2 * half + thickness))),
            Wall(f"{prefix}W", Rect((cx - half, cy), (thickness, 2 * half + thickness))))


def boxed_gate(centre: tuple[float, float], one_way: bool = False, reverse: bool = False) -> Gate:
    """Gate G, 0.6 lengths long, across the middle of a :func:`wall_box` at ``centre``."""
    cx, cy = centre
    a, b = (cx - 0.3, cy), (cx + 0.3, cy)
    return Gate("G", "outlying", b if reverse else a, a if reverse else b, one_way)


def boxed_gate_arena(thickness: float = 0.5, one_way: bool = False, reverse: bool = False) -> Arena:
    """Gate G in a 2 x 2 wall box (the box of :func:`sealed_arena`, smaller), checkpoint B in the open."""
    centre = (6.0, 0.0)
    return Arena(name="boxed gate", bounds=Rect((0.0, 0.0), (20.0, 10.0)), walls=wall_box(centre, 1.0, thickness),
                 gates=(boxed_gate(centre, one_way, reverse),),
                 checkpoints=(Checkpoint("B", "outlying", Circle((-7.0, 0.0), 0.5)),),
                 start_positions=(StartPosition(1, (-8.5, -3.5), 0.0),),
                 scenario=Scenario(variants=Variants(gates=True)))


def avoid_arena() -> Arena:
    """Checkpoint A behind an exclusion-field band across the whole arena (active from tier 1):
    reachable when its damage is paid, unreachable when exclusion fields are avoided."""
    band = ExclusionField("X", Rect((4.0, 0.0), (1.5, 24.0)), active_from_tier=1)
    return Arena(name="x", bounds=Rect((0.0, 0.0), (24.0, 24.0)), exclusion_fields=(band,),
                 checkpoints=(Checkpoint("A", "outlying", Circle((6.5, 0.0), 0.5)),),
                 start_positions=(StartPosition(1, (-6.0, 0.0), 0.0),))
