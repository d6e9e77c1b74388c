"""Glider-Pit Gladiators through the proposed-fix search: a launch zone slides along the pit wall
a whole hex at a time ("a string of five hexes along the wall of the pit", L55) with its mirror
image; the pit's hexes, rows and FLOOR stay."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.gliderpit.checks import check_symmetry
from engine.gliderpit.pit import pit_of
from engine.gliderpit.wall import anchor, slid, stretch_at, wall_ring
from engine.placement import Offset
from schema import load, save
from schema.games.gliderpit import default_arena
from validators.balance import propose
from app.cli.main import load_commands
from app.cli.shared import app
from validators.games.gliderpit.balance import HOOK, ccw_tangent
from validators.run import validate

from .arenas import ROOT, pit_with_drifted_zones

CROOKED = ROOT / "arenas" / "glider-pit-gladiators" / "crooked-pit-unfair.yaml"


def test_the_wall_ring_goes_round_the_pit_once_and_zones_are_stretches_of_it() -> None:
    arena = default_arena()
    ring = wall_ring(frozenset(arena.cells))
    assert len(ring) == len(set(ring)) == len(pit_of(arena).wall) == 54
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[0] + a[1] - b[0] - b[1]) == 2
               for a, b in zip(ring, ring[1:] + ring[:1]))  # neighbours all the way round
    assert all(stretch_at(ring, z.cells) is not None for z in arena.launch_zones)
    z1 = arena.launch_zones[0].cells
    assert slid(ring, slid(ring, z1, 3) or (), -3) == z1


def test_drifted_zones_slide_back_with_their_mirror_image() -> None:
    """``gp-zone-spacing``: Z1 and its mirror image Z4 slide together, the same number of wall
    hexes opposite ways round; the mirror holds and no finding is left."""
    arena = pit_with_drifted_zones()
    before = validate(arena)
    assert [(f.code, f.severity) for f in before.findings] == [("gp-zone-spacing", "warning")]
    p = propose(arena)
    assert [f.status for f in p.fixes] == ["fixed"]
    [edit] = p.edits
    assert {edit.ref, *edit.images} == {"Z1", "Z4"}
    assert "along the wall" in edit.words(p.unit) and edit.words(p.unit).startswith("move launch zone")
    assert validate(p.arena).findings == []
    assert not check_symmetry(p.arena) and not check_symmetry(arena)
    ring = wall_ring(frozenset(arena.cells))
    moved = {z.id: z.cells for z in p.arena.launch_zones}
    for z in arena.launch_zones:
        if z.id in ("Z1", "Z4"):
            assert moved[z.id] != z.cells and set(moved[z.id]) <= set(ring) and len(moved[z.id]) == 5
        else:
            assert moved[z.id] == z.cells
    assert p.arena.cells == arena.cells and p.arena.rows == arena.rows and p.arena.floor == arena.floor


def test_a_mirror_turns_a_counter_clockwise_slide_clockwise() -> None:
    arena = default_arena()
    t1 = ccw_tangent(arena, arena.launch_zones[0])
    assert t1 is not None
    off = HOOK.images(arena, "Z1", Offset(2 * t1[0], 2 * t1[1], 0.0))
    assert set(off) == {"Z1", "Z4"}
    z4 = HOOK.moved(arena, "Z4", off["Z4"])
    ring = wall_ring(frozenset(arena.cells))
    assert z4.cells == slid(ring, arena.launch_zones[3].cells, -2)


def test_zones_crossing_on_the_crooked_pit_are_pulled_apart() -> None:
    """The shipped crooked pit: "Launch zones Z3 and Z4 share hex [6, 6]" (an error) is fixed by
    sliding one of them along the wall; no new error, and its other errors stay as they were
    (the stray hex and the missing row number are not the zones' to fix)."""
    arena = load(CROOKED)
    before = validate(arena)
    p = propose(arena, code="gp-launch-zones", elements=("Z3", "Z4"))
    assert [f.status for f in p.fixes] == ["fixed"]
    after = validate(p.arena)
    shared = [f for f in after.findings if f.code == "gp-launch-zones" and set(f.elements) == {"Z3", "Z4"}]
    assert not shared
    errors = lambda r: sorted((f.code, f.message) for f in r.findings if f.severity == "error")  # noqa: E731
    assert set(errors(after)) < set(errors(before))
    assert len(check_symmetry(p.arena)) <= len(check_symmetry(arena))


def test_a_zone_broken_off_the_wall_is_laid_back_along_it() -> None:
    """The crooked pit's Z6 runs four hexes down the wall and ends on a stray hex walled on every
    side ("breaks after hex 4"; gp-launch-facing).  It was not a stretch of the wall, so no move
    was seeded for it and the zone `arena simulate` flags (track 6) could not move at all; now it
    is read by its unbroken run and laid along the wall from there, a hex either way, the stray
    hex dropped: five wall hexes, each touching the next (L55)."""
    arena = load(CROOKED)
    ring = wall_ring(frozenset(arena.cells))
    z6 = next(z for z in arena.launch_zones if z.id == "Z6")
    assert stretch_at(ring, z6.cells) is None and anchor(ring, z6.cells) is not None
    before = validate(arena)
    [facing] = [f for f in before.findings if f.code == "gp-launch-facing"]
    seeds = HOOK.seeds(arena, facing, before)
    assert {s.ref for s in seeds} == {"Z6"} and len(seeds) == 2
    kept = []
    for seed in seeds:
        moved = HOOK.moved(arena, "Z6", Offset(seed.direction[0], seed.direction[1], 0.0))
        assert len(moved.cells) == 5 and set(moved.cells) <= set(ring) and stretch_at(ring, moved.cells) is not None
        kept.append(len(set(moved.cells) & set(z6.cells)))
    # one hex on down the wall keeps three of its wall hexes, one hex back up keeps all four
    assert sorted(kept) == [3, 4]
    p = propose(arena, code="gp-launch-facing", elements=("Z6",))
    assert [f.status for f in p.fixes] == ["fixed"]
    after = validate(p.arena)
    assert not [f for f in after.findings if "Z6" in f.elements and f.code in ("gp-launch-facing", "gp-launch-zones")]


def test_cli_balances_a_pit_file(tmp_path: Path) -> None:
    load_commands()
    src, out = tmp_path / "drifted.yaml", tmp_path / "fixed.yaml"
    save(pit_with_drifted_zones(), src)
    result = CliRunner().invoke(app, ["balance", str(src), "-o", str(out), "--free", "launch_zones"])
    assert result.exit_code == 0, result.output
    assert "move launch zone" in result.stdout and "along the wall" in result.stdout
    assert validate(load(out)).findings == []
