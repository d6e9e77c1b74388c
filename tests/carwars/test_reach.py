"""The reach heat map (engine.carwars.reach): a square's value does not depend on the order the
search meets states in, so an arena's symmetry carries one start's (or card's) map onto its
image's map square by square; a car can hold its speed from turn to turn; and the map from a
card is the map from the car standing on it at every heading it fits at."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engine.carwars.planner import Planner
from engine.carwars.reach import ReachMap, card_poses, reach, reach_from_card, reach_from_poses, reach_with
from engine.carwars.symmetry import Symmetry, symmetries
from engine.carwars.travel import PlanningError, StartSource
from schema import load
from schema.games.carwars import Card, CarWarsArena, Obstacle, default_arena
from schema.shapes import Rect

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml"


def mismatches(a: ReachMap, b: ReachMap, t: Symmetry) -> list[tuple[float, float, float, float]]:
    """The squares of ``a`` whose value differs from ``b``'s at the image of their centre."""
    out = []
    nx, ny = a.times.shape
    for i in range(nx):
        for j in range(ny):
            x, y = a.x0 + (i + 0.5) * a.cell, a.y0 + (j + 0.5) * a.cell
            mine, theirs = float(a.times[i, j]), b.at(*t.point(x, y))
            if not (mine == theirs or (math.isinf(mine) and math.isinf(theirs))):
                out.append((x, y, mine, theirs))
    return out


@pytest.fixture(scope="module")
def crossroads() -> CarWarsArena:
    arena = load(CROSSROADS)
    assert isinstance(arena, CarWarsArena)
    return arena


def test_the_shipped_crossroads_has_quarter_turn_symmetry(crossroads: CarWarsArena) -> None:
    assert sorted(t.angle for t in symmetries(crossroads) if not t.mirror) == [90.0, 180.0, 270.0]


@pytest.mark.parametrize("policy,limit", [("flat-out", 1.5), ("safe", 3.0)])
def test_each_starts_map_is_the_rotated_map_of_start_1_square_by_square(crossroads: CarWarsArena, policy: str,
                                                                        limit: float) -> None:
    """crossroads-4p turns onto itself by quarter turns, start 1 onto 4, 3 and 2: so do the
    heat maps, in every one of the 36 x 36 squares (the search used to keep whichever state
    of a square came first, and the maps differed in about 1 square in 13)."""
    one = reach(crossroads, StartSource(1), limit=limit, policy=policy)  # type: ignore[arg-type]
    assert one.complete and np.isfinite(one.times).sum() > 150
    for t in symmetries(crossroads):
        image = reach(crossroads, StartSource(t.starts[1]), limit=limit, policy=policy)  # type: ignore[arg-type]
        assert mismatches(one, image, t) == [], (t.angle, t.starts[1])


def test_a_mirror_symmetric_arena_gives_a_mirror_symmetric_map() -> None:
    """The default arena is symmetric in the line x = 0 through start 1: start 1's map is its
    own mirror image; and the mirror in y = 0 carries it onto start 3's."""
    a = default_arena()
    m = reach(a, StartSource(1), limit=3.0, policy="safe")
    ops = {(t.angle, t.mirror): t for t in symmetries(a)}
    assert mismatches(m, m, ops[(90.0, True)]) == []
    assert mismatches(m, reach(a, StartSource(3), limit=3.0, policy="safe"), ops[(0.0, True)]) == []
    assert np.array_equal(m.times, m.times[::-1, :])


def test_a_car_holds_its_speed_from_turn_to_turn() -> None:
    """With a top speed of 3 the car, starting at 2 ("all players set their speed slider to
    2"), drives 3 car lengths in each of turns 1 and 2: six lengths straight ahead at 2 turns
    (holding the slider at 3 was once merged away, and the map said 5 lengths)."""
    a = default_arena()
    length = a.vehicle.length
    m = reach_with(Planner(a, "safe", max_speed=3), StartSource(1), limit=2.0)
    x, y = a.start_positions[0].position
    assert [m.at(x, y + k * length) for k in range(7)] == pytest.approx([0, 1 / 3, 2 / 3, 1, 4 / 3, 5 / 3, 2])
    assert math.isinf(m.at(x, y + 7 * length))


def test_the_map_from_a_card_starts_on_the_card_at_every_heading_that_fits(crossroads: CarWarsArena) -> None:
    p = Planner(crossroads, "safe")
    card = crossroads.card("checkpoint-1")
    poses = card_poses(p, "checkpoint-1")
    assert len(poses) == p.headings  # the card lies in the open: every heading fits
    assert {round((q.heading - card.rotation) / p.step, 6) % p.headings for q in poses} == set(range(p.headings))
    m = reach_from_card(crossroads, "checkpoint-1", limit=3.0, policy="safe")
    assert m.at(*card.position) == 0.0
    # the same as the map from those poses, and wider than the map from any one of them
    assert np.array_equal(m.times, reach_from_poses(p, poses, limit=3.0).times)
    for q in poses[:: max(1, len(poses) // 4)]:
        one = reach_from_poses(p, [q], limit=3.0)
        assert np.isfinite(m.times).sum() > np.isfinite(one.times).sum()


def test_card_maps_follow_the_arenas_symmetry(crossroads: CarWarsArena) -> None:
    one = reach_from_card(crossroads, "checkpoint-1", limit=3.0, policy="safe")
    for t in symmetries(crossroads):
        image = reach_from_card(crossroads, t.cards["checkpoint-1"], limit=3.0, policy="safe")
        assert mismatches(one, image, t) == [], t.angle


def test_a_card_no_car_fits_on_is_refused_with_its_name() -> None:
    a = default_arena()
    with pytest.raises(PlanningError, match="no card 'nope'"):
        card_poses(Planner(a, "safe"), "nope")
    # a heavy obstacle 2 in square over the card: the car (3 x 1.5 in) touches it at every heading
    card = Card(id="boxed", number=1, position=(0.0, 0.0))
    boxed = replace(a, cards=(card,), obstacles=(Obstacle(id="block", shape=Rect((0.0, 0.0), (2.0, 2.0))),))
    with pytest.raises(PlanningError, match="no car fits on card boxed"):
        reach_from_card(boxed, "boxed", limit=1.0, policy="safe")
