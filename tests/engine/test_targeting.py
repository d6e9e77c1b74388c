"""Range, arcs, target numbers and explosions ("Calculating Target Numbers", "Arcs",
"Explosion", "Area Effects and Line of Sight")."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Point, box

from engine.gravstrike.motion import Pose
from engine.sight import Blockers, NoLineOfSight
from engine.gravstrike.targeting import (
    Arc,
    arc_modifier,
    arcs_of,
    explosion_band_damage,
    explosion_damage,
    footprint_shape,
    measure_range,
    range_modifier,
    round_range,
    static_target_number,
    target_number,
)
from schema.games.gravstrike.model import StaticTarget

OPEN = Blockers.of()
HERE = Pose(0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    "rng, mod",
    [(1, -2), (2, -1), (3, 0), (4, 0), (5, 0), (6, 1), (7, 2), (8, 3), (9, 4), (10, 5), (11, 6), (14, 9)],
)
def test_range_modifier_table(rng: int, mod: int) -> None:
    """Calculating Target Numbers: the range-modifier table, +1 per length beyond 10."""
    assert range_modifier(rng) == mod


def test_range_rounds_up() -> None:
    """Choosing a Target: "measure the range ... in lengths and round up"; touching is range 1."""
    assert [round_range(d) for d in (0.0, 0.3, 1.0, 1.0000001, 2.5, 5.0)] == [1, 1, 1, 2, 3, 5]
    with pytest.raises(ValueError):
        range_modifier(0)


def test_range_between_closest_points() -> None:
    """Where on the Models to Measure From: closest point to closest point when clear."""
    m = measure_range(footprint_shape(HERE), footprint_shape(Pose(3.0, 0.0, 0.0)), OPEN)
    assert m.distance == pytest.approx(2.0) and m.range == 2


def test_blocked_closest_line_uses_shortest_unblocked_range() -> None:
    """Where on the Models to Measure From: the closest line (2.65 -> range 3) is blocked, so
    the shortest unblocked line (3.03 -> range 4) sets the range."""
    target = Pose(3.4, 0.9, 90.0)  # base spans x 3.15..3.65, y 0.4..1.4
    blockers = Blockers.of(box(1.2, -0.6, 2.2, 0.6))
    assert measure_range(footprint_shape(HERE), footprint_shape(target), OPEN).range == 3
    m = measure_range(footprint_shape(HERE), footprint_shape(target), blockers)
    slope = (1.4 - 0.6) / (3.15 - 1.2)
    x0 = 1.2 - (0.6 - 0.25) / slope
    assert m.distance == pytest.approx(math.hypot(3.15 - x0, 1.15), abs=1e-7)
    assert m.range == 4


def test_no_line_of_sight_raises() -> None:
    """Choosing a Target: "you need line of sight to your target"."""
    with pytest.raises(NoLineOfSight):
        target_number(HERE, Pose(5.0, 0.0, 0.0), 3, Blockers.of(box(2, -9, 3, 9)))


@pytest.mark.parametrize(
    "pose, point, arcs",
    [
        (HERE, (3.0, 0.0), {Arc.FRONT}),
        (HERE, (0.0, 3.0), {Arc.LEFT}),
        (HERE, (0.0, -3.0), {Arc.RIGHT}),
        (HERE, (-3.0, 0.0), {Arc.REAR}),
        (HERE, (1.5, 1.25), {Arc.FRONT, Arc.LEFT}),  # on the 45-degree line from the front-left corner
        (HERE, (-1.5, -1.25), {Arc.REAR, Arc.RIGHT}),
        (HERE, (1.5, 1.26), {Arc.LEFT}),
        (Pose(2.0, 2.0, 90.0), (2.0, 5.0), {Arc.FRONT}),
        (Pose(2.0, 2.0, 90.0), (5.0, 2.0), {Arc.RIGHT}),
    ],
)
def test_arcs(pose: Pose, point: tuple[float, float], arcs: set[Arc]) -> None:
    """Arcs: 45-degree lines from the corners divide the arcs; on the line means both."""
    assert arcs_of(pose, Point(point)) == arcs


def test_arc_modifiers_take_the_better_arc() -> None:
    """When Multiple Arc Modifiers Apply: the most favourable one; a target straddling the
    side/rear line is +1, straddling front/side is 0."""
    assert arc_modifier(HERE, Point(3.0, 0.0)) == 0
    assert arc_modifier(HERE, Point(0.0, 3.0)) == 1
    assert arc_modifier(HERE, Point(-3.0, 0.0)) == 2
    assert arc_modifier(HERE, footprint_shape(Pose(-3.0, 2.9, 0.0))) == 1  # rear + left
    assert arc_modifier(HERE, footprint_shape(Pose(3.0, 2.9, 0.0))) == 0  # front + left


def test_arcs_ignore_obstacles() -> None:
    """Ignore Obstacles When Determining the Arc Modifier: a wall across the front doesn't
    change which arc the target is in (the target is still seen past the wall's end)."""
    blockers = Blockers.of(box(1.0, -0.3, 1.5, 9))
    tn = target_number(HERE, Pose(4.0, 0.0, 90.0), 3, blockers)
    assert tn.arcs == {Arc.FRONT} and tn.arc_modifier == 0


def test_target_number_sum_and_floor() -> None:
    """Calculating Target Numbers: TN = speed + range mod + arc mod + others, at least 0."""
    tn = target_number(HERE, Pose(0.0, 4.75, 0.0), 4, OPEN)  # left side, gap 4.25 -> range 5
    assert (tn.range.range, tn.range_modifier, tn.arc_modifier, tn.tn) == (5, 0, 1, 5)
    close = target_number(HERE, Pose(1.5, 0.0, 0.0), 0, OPEN)  # range 1, front
    assert close.raw == -2 and close.tn == 0
    assert target_number(HERE, Pose(0.0, 4.75, 0.0), 4, OPEN, other_modifiers=2).tn == 7


def test_reverse_speed_counts_by_magnitude() -> None:
    """Calculating Target Numbers ("target's speed") with About Distance and Speed: a turbine
    reversing at -4 is shot at TN as if at speed 4 (decision: magnitude)."""
    assert target_number(HERE, Pose(6.0, 0.0, 0.0), -4, OPEN).tn == 4


def test_static_targets() -> None:
    """Static Targets / Small Static Targets: shot as a point at speed 0 plus its TN modifier."""
    t = StaticTarget("T", (3.5, 0.0), tn_modifier=6)
    tn = static_target_number(HERE, t, OPEN)
    assert (tn.range.range, tn.speed, tn.tn) == (3, 0, 6)
    assert static_target_number(HERE, t, OPEN, speed=2).tn == 8


@pytest.mark.parametrize("d, dmg", [(0.0, 4), (1.0, 4), (1.01, 3), (2.0, 3), (2.5, 2), (3.5, 1), (4.0, 1), (4.01, 0)])
def test_explosion_bands(d: float, dmg: int) -> None:
    """Explosion: 4 within 1 length, 3 from 1-2, 2 from 2-3, 1 from 3-4."""
    assert explosion_band_damage(d) == dmg


def test_explosion_needs_line_of_sight() -> None:
    """Explosion / Area Effects and Line of Sight: targets out of sight are unaffected."""
    source = footprint_shape(HERE)
    blockers = Blockers.of(box(1.0, 1.0, 1.2, 9.0))
    targets = {
        "near": Point(1.3, 0.0),  # 0.8 away -> 4
        "mid": footprint_shape(Pose(3.0, 0.0, 0.0)),  # 2.0 away -> 3
        "far": Point(4.0, -0.25),  # 3.5 away -> 1
        "gone": Point(9.0, 0.0),
        "hidden": Point(1.6, 3.0),  # behind the wall
    }
    assert explosion_damage(source, targets, blockers) == {
        "near": 4, "mid": 3, "far": 1, "gone": 0, "hidden": 0,
    }
