"""Generate the shipped arenas in arenas/ from their design rules.

The designs are computed (rotations and mirror images) so their symmetry is exact up to the
4-decimal rounding of coordinates; run this after changing a design. Tests check the
committed files equal what this script writes.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from schema import dumps
from schema.shapes import Circle, Polygon, Polyline, Rect
from schema.games.gravstrike.model import AccelerationField, Analysis, Arena, Checkpoint, ExclusionField, Gate, Scenario, StartPosition, StaticTarget, Symmetry, Variants, Wall

ROOT = Path(__file__).resolve().parent.parent


def r4(v: float) -> float:
    out = round(v, 4)
    return 0.0 if out == 0 else out


def polar(radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return (r4(radius * math.cos(a)), r4(radius * math.sin(a)))


def ang(degrees: float) -> float:
    return r4(degrees % 360.0)


def hexagon(radius: float, first: float = 0.0) -> Polygon:
    return Polygon(points=tuple(polar(radius, first + 60 * k) for k in range(6)))


def default_arena() -> Arena:
    """Six players, a hexagon 24 lengths across, dihedral symmetry of order 3 (axes through
    the outlying checkpoints), so every start sees the same arena up to rotation/mirroring."""
    axes = (0.0, 120.0, 240.0)          # outlying checkpoints A, B, C lie on these axes
    between = (60.0, 180.0, 300.0)      # the other halves of the mirror axes
    walls = []
    for k, d in enumerate(between):
        walls.append(Wall(id=f"W{k + 1}", shape=Rect(center=polar(5.0, d), size=(3.2, 0.6), rotation=ang(d + 90))))
    for k, d in enumerate(axes):
        walls.append(Wall(id=f"W{k + 4}", shape=Circle(center=polar(6.6, d), radius=0.7)))
    checkpoints = [Checkpoint(id=letter, kind="outlying", shape=Circle(center=polar(10.2, d), radius=0.9))
                   for letter, d in zip("ABC", axes)]
    checkpoints.append(Checkpoint(id="M", kind="central", shape=Circle(center=(0.0, 0.0), radius=1.0)))
    fields = []
    n = 1
    for d in between:
        # a mirror pair about the axis at d: each pushes towards the checkpoint on its side,
        # so pushes come in equal and opposite turning pairs (no arena-wide orbit)
        fields.append(AccelerationField(id=f"F{n}", shape=Circle(center=polar(6.6, d - 25), radius=0.75), direction=ang(d - 25 - 90)))
        fields.append(AccelerationField(id=f"F{n + 1}", shape=Circle(center=polar(6.6, d + 25), radius=0.75), direction=ang(d + 25 + 90)))
        n += 2
    exclusions = []
    for k, d in enumerate(between):
        # a hair inside the bounds so 4-decimal rounding never puts a corner outside them
        corner = polar(11.99, d)
        left, right = polar(11.99, d - 60), polar(11.99, d + 60)
        a = tuple(r4(corner[i] + (left[i] - corner[i]) * 3.5 / 12.0) for i in range(2))
        b = tuple(r4(corner[i] + (right[i] - corner[i]) * 3.5 / 12.0) for i in range(2))
        exclusions.append(ExclusionField(id=f"X{k + 1}", shape=Polygon(points=(corner, b, a)), active_from_tier=3))  # type: ignore[arg-type]
    targets = [StaticTarget(id=f"T{k + 1}", position=polar(3.2, d)) for k, d in enumerate(between)]
    starts = [StartPosition(player=k + 1, position=polar(9.0, 30 + 60 * k), facing=ang(30 + 60 * k + 180)) for k in range(6)]
    return Arena(
        name="Tri-Crown (default Gravstrike arena)",
        description=(
            "The default six-player Gravstrike arena: a hexagon 24 lengths across (fits a 3-ft table at 40 mm "
            "per length) with dihedral symmetry of order 3, so every start position sees the same arena up to "
            "rotation or mirroring.\n"
            "Three outlying checkpoints (A, B, C) sit in the corners on the symmetry axes, more than two "
            "flat-out turns apart; one central checkpoint (M) sits in the middle. Three bars shield the centre "
            "from the start pairs and three pillars stand between M and the outlying checkpoints, channelling "
            "traffic without walling anyone in. Six acceleration fields come in mirror pairs that push towards "
            "the outlying checkpoints, half clockwise and half counter-clockwise, so nobody is made to orbit one "
            "way. Exclusion fields fill the three empty corners from tier 3. Three static targets stand inside "
            "the bars. Starts are 60 degrees apart, facing the centre.\n"
        ),
        author="Arena Studio",
        license="CC-BY-4.0",
        tags=("gravstrike", "default", "6-player", "symmetric"),
        bounds=hexagon(12.0),
        symmetry=Symmetry(kind="dihedral", order=3, center=(0.0, 0.0), axis=0.0),
        walls=tuple(walls),
        checkpoints=tuple(checkpoints),
        acceleration_fields=tuple(fields),
        exclusion_fields=tuple(exclusions),
        static_targets=tuple(targets),
        start_positions=tuple(starts),
        # "Three to six is a great range" and starts "spaced as equally from each other as possible"
        # (the book's Custom Arenas): 3 players on alternate starts, 6 on all; 4 and 5 cannot be even
        scenario=Scenario(players=6, start_sets=((3, (1, 3, 5)), (6, (1, 2, 3, 4, 5, 6)))),
    )


def three_player() -> Arena:
    """Three players in a smaller hexagon; starts and checkpoints alternate on the three axes."""
    walls = [Wall(id=f"W{k + 1}", shape=Polyline(points=(polar(4.5, d - 20), polar(5.0, d), polar(4.5, d + 20)), thickness=0.5))
             for k, d in enumerate((30.0, 150.0, 270.0))]
    checkpoints = [Checkpoint(id=letter, kind="outlying", shape=Circle(center=polar(8.0, d), radius=0.9))
                   for letter, d in zip("ABC", (30.0, 150.0, 270.0))]
    checkpoints.append(Checkpoint(id="M", kind="central", shape=Circle(center=(0.0, 0.0), radius=0.9)))
    fields = []
    for k, d in enumerate((90.0, 210.0, 330.0)):
        fields.append(AccelerationField(id=f"F{2 * k + 1}", shape=Circle(center=polar(5.0, d - 30), radius=0.6), direction=ang(d - 30 + 180)))
        fields.append(AccelerationField(id=f"F{2 * k + 2}", shape=Circle(center=polar(5.0, d + 30), radius=0.6), direction=ang(d + 30 + 180)))
    starts = [StartPosition(player=k + 1, position=polar(7.8, d), facing=ang(d + 180)) for k, d in enumerate((90.0, 210.0, 330.0))]
    return Arena(
        name="Triad (3 players)",
        description=(
            "A compact three-player arena, a hexagon 20 lengths across. Starts sit on the three mirror axes facing "
            "the centre; the outlying checkpoints A, B, C sit on the other halves of those axes, behind curved "
            "walls. Acceleration fields point back towards the centre, so pushes pull players into the fight "
            "rather than around the arena.\n"
        ),
        author="Arena Studio",
        license="CC-BY-4.0",
        tags=("gravstrike", "3-player", "symmetric"),
        bounds=hexagon(10.0, first=30.0),
        symmetry=Symmetry(kind="dihedral", order=3, center=(0.0, 0.0), axis=90.0),
        walls=tuple(walls),
        checkpoints=tuple(checkpoints),
        acceleration_fields=tuple(fields),
        exclusion_fields=tuple(ExclusionField(id=f"X{k + 1}", shape=Circle(center=polar(7.0, d), radius=0.8), active_from_tier=3)
                               for k, d in enumerate((0.0, 60.0, 120.0, 180.0, 240.0, 300.0))),
        static_targets=tuple(StaticTarget(id=f"T{k + 1}", position=polar(2.6, d)) for k, d in enumerate((90.0, 210.0, 330.0))),
        start_positions=tuple(starts),
        scenario=Scenario(players=3),
    )


def gates_and_decay() -> Arena:
    """Four players on a rectangle, mirror-symmetric both ways, with gates and decaying checkpoints."""
    def mirror4(x: float, y: float) -> list[tuple[float, float]]:
        return [(x, y), (-x, y), (-x, -y), (x, -y)]

    walls = [Wall(id=f"W{k + 1}", shape=Rect(center=c, size=(0.6, 3.0))) for k, c in enumerate([(-4.0, 0.0), (4.0, 0.0)])]
    walls += [Wall(id=f"W{k + 3}", shape=Rect(center=c, size=(3.0, 0.6))) for k, c in enumerate([(0.0, 4.5), (0.0, -4.5)])]
    checkpoints = [Checkpoint(id=letter, kind="outlying", shape=Circle(center=c, radius=0.9), decaying=True)
                   for letter, c in zip("ABCD", mirror4(7.5, 7.0))]
    checkpoints.append(Checkpoint(id="M", kind="central", shape=Circle(center=(0.0, 0.0), radius=1.0), decaying=True))
    gates = [
        Gate(id="G1", kind="outlying", start=(-1.5, 7.5), end=(1.5, 7.5), one_way=True),
        Gate(id="G2", kind="outlying", start=(1.5, -7.5), end=(-1.5, -7.5), one_way=True),
        Gate(id="G3", kind="outlying", start=(-9.0, -1.2), end=(-9.0, 1.2)),
        Gate(id="G4", kind="outlying", start=(9.0, 1.2), end=(9.0, -1.2)),
    ]
    fields = [
        AccelerationField(id="F1", shape=Rect(center=(-6.5, 3.0), size=(1.4, 1.0)), direction=0.0),
        AccelerationField(id="F2", shape=Rect(center=(6.5, 3.0), size=(1.4, 1.0)), direction=180.0),
        AccelerationField(id="F3", shape=Rect(center=(6.5, -3.0), size=(1.4, 1.0)), direction=180.0),
        AccelerationField(id="F4", shape=Rect(center=(-6.5, -3.0), size=(1.4, 1.0)), direction=0.0),
    ]
    starts = [StartPosition(player=k + 1, position=p, facing=f)
              for k, (p, f) in enumerate(zip(mirror4(10.0, 8.0), (225.0, 315.0, 45.0, 135.0)))]
    return Arena(
        name="Gatehouse (gates and decaying checkpoints)",
        description=(
            "Four players on a 24 x 20 rectangle with mirror symmetry about both axes. Scoring variants: two "
            "one-way gates at the top and bottom (crossed right to left of from->to, i.e. running clockwise), two "
            "two-way outlying gates at the sides (so M stays the one central checkpoint the book advises), every checkpoint decaying (only the first turbine to cross it in "
            "a turn scores), and resilient, exploding static targets with a small-target TN modifier.\n"
        ),
        author="Arena Studio",
        license="CC-BY-4.0",
        tags=("gravstrike", "4-player", "gates", "decaying", "variants"),
        bounds=Rect(center=(0.0, 0.0), size=(24.0, 20.0)),
        symmetry=Symmetry(kind="dihedral", order=2, center=(0.0, 0.0), axis=0.0),
        walls=tuple(walls),
        checkpoints=tuple(checkpoints),
        gates=tuple(gates),
        acceleration_fields=tuple(fields),
        exclusion_fields=(ExclusionField(id="X1", shape=Rect(center=(0.0, 0.0), size=(2.4, 2.4)), active_from_tier=2),),
        static_targets=(StaticTarget(id="T1", position=(0.0, 2.5), tn_modifier=2, capacity=12, exploding=True),
                        StaticTarget(id="T2", position=(0.0, -2.5), tn_modifier=2, capacity=12, exploding=True)),
        start_positions=tuple(starts),
        scenario=Scenario(players=4, variants=Variants(gates=True, decaying_checkpoints=True, small_targets=True,
                                                       resilient_targets=True, exploding_targets=True)),
    )


def lopsided() -> Arena:
    """Deliberately unfair: every flaw the validators look for, listed in the description."""
    return Arena(
        name="Lopsided (deliberately unfair)",
        description=(
            "A teaching arena that breaks the book's Custom Arenas advice on purpose. Its flaws:\n"
            "1. Start positions are bunched: starts 1 and 2 are 2 lengths apart, start 3 is alone in the far corner "
            "(start-spacing).\n"
            "2. Start 1 sits next to checkpoint A while start 3 is three turns from its nearest checkpoint "
            "(start-checkpoint-access).\n"
            "3. Outlying checkpoints A and B are 5 lengths apart, well under two flat-out turns "
            "(checkpoint-spacing).\n"
            "4. Only two outlying checkpoints and three central ones; central checkpoint 'Z' does not follow the "
            "letter convention (checkpoint-mix).\n"
            "5. All four acceleration fields push counter-clockwise around the centre, so everyone orbits one way "
            "(field-orbit).\n"
            "6. Start 3 stands inside an exclusion field active from tier 3 (exclusion-placement).\n"
            "7. The only static target is in sight of starts 1, 2 and 4 but not of start 3, which also needs "
            "3.5 turns more than start 1 to reach it (target-access).\n"
        ),
        author="Arena Studio",
        license="CC-BY-4.0",
        tags=("gravstrike", "example", "unfair"),
        bounds=Rect(center=(0.0, 0.0), size=(24.0, 24.0)),
        walls=(Wall(id="W1", shape=Rect(center=(0.0, -3.0), size=(8.0, 0.6))),
               Wall(id="W2", shape=Polygon(points=((6.0, 5.0), (8.0, 5.0), (8.0, 9.0)))),),
        checkpoints=(
            Checkpoint(id="A", kind="outlying", shape=Circle(center=(-8.0, 8.0), radius=0.9)),
            Checkpoint(id="B", kind="outlying", shape=Circle(center=(-3.0, 8.0), radius=0.9)),
            Checkpoint(id="M", kind="central", shape=Circle(center=(0.0, 0.0), radius=1.0)),
            Checkpoint(id="N", kind="central", shape=Circle(center=(3.0, 3.0), radius=0.8)),
            Checkpoint(id="Z", kind="central", shape=Circle(center=(-3.0, 2.0), radius=0.8)),
        ),
        acceleration_fields=tuple(
            AccelerationField(id=f"F{k + 1}", shape=Circle(center=polar(6.5, a), radius=0.8), direction=ang(a + 90))
            for k, a in enumerate((0.0, 90.0, 180.0, 270.0))
        ),
        exclusion_fields=(ExclusionField(id="X1", shape=Rect(center=(9.5, -9.5), size=(4.0, 4.0)), active_from_tier=3),),
        static_targets=(StaticTarget(id="T1", position=(-9.0, 6.0)),),
        start_positions=(
            StartPosition(player=1, position=(-9.0, 9.5), facing=0.0),
            StartPosition(player=2, position=(-7.0, 9.5), facing=0.0),
            StartPosition(player=3, position=(9.5, -9.5), facing=135.0),
            StartPosition(player=4, position=(10.0, 10.0), facing=225.0),
        ),
        scenario=Scenario(players=4, analysis=Analysis()),
    )


ARENAS = {
    "default.yaml": default_arena,
    "examples/three-player.yaml": three_player,
    "examples/gates-and-decay.yaml": gates_and_decay,
    "examples/lopsided.yaml": lopsided,
}


def main() -> int:
    check = "--check" in sys.argv
    stale = []
    for rel, make in ARENAS.items():
        path = ROOT / "arenas" / rel
        text = dumps(make())
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("out of date: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
