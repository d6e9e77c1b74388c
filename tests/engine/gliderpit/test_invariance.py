"""Which symmetry operations a pit really has under the game's rules, and each zone's frame
(engine.gliderpit.invariance): the frames simulated play decides in (docs/rules-decisions.md,
"Simulated play: Glider-Pit")."""

from __future__ import annotations

from dataclasses import replace

from engine.gliderpit.invariance import pit_symmetries, zone_frames
from engine.grids import HEX_DIRECTIONS, HexLayout, hex_map, reflection, rotation
from schema import load
from schema.games.gliderpit import GliderPitArena

HEXAGONAL = "arenas/glider-pit-gladiators/hexagonal-pit.yaml"


def pit(path: str = HEXAGONAL) -> GliderPitArena:
    arena = load(path)
    assert isinstance(arena, GliderPitArena)
    return arena


def test_hex_maps_are_exact_lattice_symmetries() -> None:
    lay = HexLayout("pointy")
    for tf in (reflection((0.0, 0.0), 90.0), reflection((0.0, 0.0), 30.0), rotation((0.0, 0.0), 60.0),
               rotation((0.0, 0.0), 180.0)):
        m = hex_map(lay, tf)
        assert m is not None
        for h in [(0, 0), (3, -1), (-4, 7)]:
            x, y = tf(lay.center(h))
            cx, cy = lay.center(m.cell(h))
            assert abs(cx - x) < 1e-9 and abs(cy - y) < 1e-9
            assert m.inverse().cell(m.cell(h)) == h
        for d in range(6):  # a direction goes where its neighbour goes
            n = (HEX_DIRECTIONS[d][0], HEX_DIRECTIONS[d][1])
            assert m.cell(n) == (m.cell((0, 0))[0] + HEX_DIRECTIONS[m.facing(d)][0],
                                 m.cell((0, 0))[1] + HEX_DIRECTIONS[m.facing(d)][1])
    assert hex_map(lay, rotation((0.0, 0.0), 45.0)) is None  # not a symmetry of the grid


def test_the_hexagonal_pits_mirror_pairs_its_zones() -> None:
    frames = zone_frames(pit())
    assert {k: f.first for k, f in frames.items()} == {1: 1, 2: 2, 3: 3, 4: 1, 5: 2, 6: 3}
    assert [frames[k].op is None for k in range(1, 7)] == [True] * 3 + [False] * 3


def test_a_declared_symmetry_that_does_not_hold_gives_no_frames() -> None:
    # the crooked pit declares the same mirror, but its stray hex and lopsided shape break it
    assert pit_symmetries(pit("arenas/glider-pit-gladiators/crooked-pit-unfair.yaml")) == ()
    arena = pit()
    # a zone whose image is not a zone
    zones = tuple(replace(z, cells=z.cells[:4]) if z.id == "Z6" else z for z in arena.launch_zones)
    assert pit_symmetries(replace(arena, launch_zones=zones)) == ()
    assert all(f.op is None for f in zone_frames(replace(arena, launch_zones=zones)).values())


def test_rows_must_map_onto_rows_of_an_equally_likely_total() -> None:
    # Declared dihedral (the vertical mirror, the half-turn and the horizontal mirror), the pit
    # holds all three: the half-turn sends row r onto row -r, whose 2d6 total is 14 minus r's
    # (8 -> 6, 5 -> 9, ..., 7 -> 7: as likely, the editor's rule), and Z1, Z3, Z4, Z6 form one orbit.
    sym = pit().symmetry
    assert sym is not None
    arena = replace(pit(), symmetry=replace(sym, kind="dihedral", order=2))
    assert [op.reflects for op in pit_symmetries(arena)] == [False, True, True]
    assert {k: f.first for k, f in zone_frames(arena).items()} == {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1}
    # row R3 (line 7) carrying 3 instead of 6: its image under the half-turn (R17, 8) is neither 3
    # nor 11, so only the vertical mirror (every row its own image) still holds
    rows = tuple(replace(r, label=3) if r.id == "R3" else r for r in arena.rows)
    [op] = pit_symmetries(replace(arena, rows=rows))
    assert op.reflects and op.cell((-9, 8)) == (1, 8)
