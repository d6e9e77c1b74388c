"""The dice floor's batched parts (issue 38, start-up: the flat-out search's longest part) give
the very numbers of the per-goal and per-point code they replaced."""

from __future__ import annotations

import numpy as np

from engine.carwars.heuristic import GoalShape
from engine.carwars.planner import Planner
from engine.carwars.search import UNITS, ending_by
from schema.games.carwars import default_arena


def test_ahead_of_several_goals_is_each_goals_ahead_bit_for_bit() -> None:
    rng = np.random.default_rng(38)
    goals = [GoalShape(0.0, 0.0, 0.0, 0.0), GoalShape(3.5, -2.0, 1.5, 0.75, 30.0),
             GoalShape(-7.25, 4.0, 0.5, 2.0, 137.5), GoalShape(1.0, 1.0, 3.0, 3.0, -90.0)]
    x, y = rng.uniform(-12, 12, 5000), rng.uniform(-12, 12, 5000)
    h = rng.uniform(-180, 180, 5000)
    x[:50], y[:50] = 3.5, -2.0  # inside a goal: any heading
    dist, delta = GoalShape.ahead_of(goals, x, y, h)
    for row, g in enumerate(goals):
        d1, a1 = g.ahead(x, y, h)
        assert np.array_equal(dist[row], d1) and np.array_equal(delta[row], a1)


def test_points_ending_by_a_time_counted_at_once_as_one_by_one() -> None:
    rng = np.random.default_rng(6)
    pts, k = rng.integers(-1, 25, 20_000), rng.integers(0, 25, 20_000)
    within = rng.integers(-2 * UNITS, 3 * UNITS, 20_000)
    want = np.zeros(len(pts), dtype=np.int64)
    for j in range(1, int(pts.max()) + 1):  # the loop engine.carwars.search used
        want += (j > k) & (j <= pts) & (j * UNITS // np.maximum(pts, 1) <= within)
    assert np.array_equal(ending_by(pts, k, within), want)


def test_the_cell_major_table_holds_the_same_rows() -> None:
    floor = Planner(default_arena(), "flat-out").dice_floor
    assert floor is not None
    rng = np.random.default_rng(1)
    n = rng.integers(0, floor.n_max + 1, (300, 4))
    cell = rng.integers(0, floor.cells, 300)
    assert np.array_equal(floor.by_cell[cell[:, None], n], floor.reach[n, :, cell[:, None]])
