"""Small Gravstrike arenas with findings a move can remove, for the proposed-fix tests."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from schema import load
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, ExclusionField, Scenario, StartPosition, Symmetry, Wall

ROOT = Path(__file__).resolve().parents[2]


def four_in_fields() -> Arena:
    """A 16 x 16 table with rotational symmetry of order 4: each of the four starts stands in the
    middle of an exclusion field active from tier 3 (``exclusion-placement`` warns four times);
    a central checkpoint and four outlying ones in the corners."""
    starts = ((5.0, 0.0, 180.0), (0.0, 5.0, 270.0), (-5.0, 0.0, 0.0), (0.0, -5.0, 90.0))
    return Arena(
        name="Four in fields",
        bounds=Rect(center=(0.0, 0.0), size=(16.0, 16.0)),
        symmetry=Symmetry("rotational", 4),
        checkpoints=(Checkpoint("A", "outlying", Circle((6.0, 6.0), 0.8)),
                     Checkpoint("B", "outlying", Circle((-6.0, 6.0), 0.8)),
                     Checkpoint("C", "outlying", Circle((-6.0, -6.0), 0.8)),
                     Checkpoint("D", "outlying", Circle((6.0, -6.0), 0.8)),
                     Checkpoint("M", "central", Circle((0.0, 0.0), 1.0))),
        exclusion_fields=tuple(ExclusionField(f"X{i + 1}", Circle((x, y), 1.0)) for i, (x, y, _) in enumerate(starts)),
        start_positions=tuple(StartPosition(i + 1, (x, y), f) for i, (x, y, f) in enumerate(starts)),
        scenario=Scenario(players=4),
    )


def cornered_checkpoints() -> Arena:
    """A 14 x 14 table without declared symmetry: outlying checkpoint A in the north-west corner
    and B three lengths east of it, under two flat-out turns apart (``checkpoint-spacing``).  A can
    only slide down the west edge and B along the north edge, and neither gets far enough alone:
    both must move."""
    return Arena(
        name="Cornered checkpoints",
        bounds=Rect(center=(0.0, 0.0), size=(14.0, 14.0)),
        checkpoints=(Checkpoint("A", "outlying", Circle((-5.6, 5.6), 0.8)),
                     Checkpoint("B", "outlying", Circle((-2.6, 5.6), 0.8)),
                     Checkpoint("M", "central", Circle((0.0, 0.0), 1.0))),
        start_positions=(StartPosition(1, (5.6, -3.6), 90.0), StartPosition(2, (3.6, -5.6), 0.0)),
        scenario=Scenario(players=2),
    )


def mirrored_by_walls() -> Arena:
    """A 14 x 10 table mirrored about the vertical axis: checkpoints A and B are each a quarter
    under a pillar (``overlap`` warns twice); two starts face each other."""
    return Arena(
        name="Mirrored pillars",
        bounds=Rect(center=(0.0, 0.0), size=(14.0, 10.0)),
        symmetry=Symmetry("mirror", 1, (0.0, 0.0), 90.0),
        walls=(Wall("W1", Circle((3.0, 2.0), 0.7)), Wall("W2", Circle((-3.0, 2.0), 0.7))),
        checkpoints=(Checkpoint("A", "outlying", Circle((3.0, 3.2), 0.8)),
                     Checkpoint("B", "outlying", Circle((-3.0, 3.2), 0.8)),
                     Checkpoint("M", "central", Circle((0.0, -1.0), 1.0))),
        start_positions=(StartPosition(1, (5.0, -3.0), 180.0), StartPosition(2, (-5.0, -3.0), 0.0)),
        scenario=Scenario(players=2),
    )


def orbiting_fields() -> Arena:
    """A 12 x 12 table without declared symmetry whose two acceleration fields both push
    counter-clockwise around the centre (``field-orbit``)."""
    return Arena(
        name="Orbiting fields",
        bounds=Rect(center=(0.0, 0.0), size=(12.0, 12.0)),
        acceleration_fields=(AccelerationField("F1", Circle((3.0, 0.0), 0.75), 90.0),
                             AccelerationField("F2", Circle((-3.0, 0.0), 0.75), 270.0)),
        checkpoints=(Checkpoint("A", "outlying", Circle((4.0, 4.0), 0.8)),
                     Checkpoint("B", "outlying", Circle((-4.0, -4.0), 0.8))),
        start_positions=(StartPosition(1, (0.0, 4.5), 270.0), StartPosition(2, (0.0, -4.5), 90.0)),
        scenario=Scenario(players=2),
    )


def rex_pits_at_the_edges() -> Any:
    """The shipped Arena Rex training square (half-turn symmetry) with its two pits pulled onto
    the deployment edges: a base deployed in either zone touches a pit (``ar-deployment``
    errors, "Find the center of your board edge" ... a base touching a pit is lost)."""
    arena = load(ROOT / "arenas" / "arena-rex" / "square-24.yaml")
    west, east = arena.pits
    return dataclasses.replace(arena, name="Pits at the edges", pits=(
        dataclasses.replace(west, shape=dataclasses.replace(west.shape, center=(-3.0, -10.0))),
        dataclasses.replace(east, shape=dataclasses.replace(east.shape, center=(3.0, 10.0)))))


def cw_pillars_at_the_edges() -> Any:
    """The shipped Car Wars Twin Pillars (half-turn symmetry) with its two pillar walls pulled out
    to 3 in from the east and west edges: "Gaps between walls must be at least one turning key
    (2 car lengths) long" (``cw-wall-gap`` errors on both sides)."""
    arena = load(ROOT / "arenas" / "car-wars" / "twin-pillars-2p.yaml")
    west, east = arena.walls
    return dataclasses.replace(arena, name="Pillars at the edges", walls=(
        dataclasses.replace(west, shape=dataclasses.replace(west.shape, center=(-14.0, 0.0))),
        dataclasses.replace(east, shape=dataclasses.replace(east.shape, center=(14.0, 0.0)))))


def pit_with_drifted_zones(steps: int = -2) -> Any:
    """The default Glider-Pit pit (mirror about the vertical axis) with launch zone Z1 slid
    ``steps`` wall hexes (negative: clockwise, up into the top-left corner) and its mirror image
    Z4 the other way: the mirror still holds, but Z1 and Z4 now lie 4 hexes from the nearest
    zone while the others lie 2 (``gp-zone-spacing``)."""
    from engine.gliderpit.wall import slid, wall_ring
    from schema.games.gliderpit import LaunchZone, default_arena

    arena = default_arena()
    ring = wall_ring(frozenset(arena.cells))
    zones = list(arena.launch_zones)
    for i, way in ((0, 1), (3, -1)):
        z = zones[i]
        cells = slid(ring, z.cells, way * steps)
        assert cells is not None
        zones[i] = LaunchZone(z.id, z.track, cells)
    return dataclasses.replace(arena, name="Drifted zones", launch_zones=tuple(zones))
