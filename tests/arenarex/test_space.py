"""The free space and shortest paths of a round base (engine.arenarex.space): "Move up to the
model's MOV value in inches" (L18), "If any part of a model's base touches a Lethal Hazard ...
that model is destroyed" (L38).  Checked against geometry worked by hand and against the
independent grid search of tests/arenarex/reference.py."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest
from shapely.geometry import LineString

from engine.arenarex.space import Space, segment_clear
from schema.games.arenarex import ArenaRexArena, Hazard, Pit, Spikes
from schema.shapes import Circle, Rect
from tests.arenarex import reference


def board(*pits: Pit, spikes: tuple[Spikes, ...] = (), hazards: tuple[Hazard, ...] = ()) -> ArenaRexArena:
    return ArenaRexArena("t", bounds=Rect((0.0, 0.0), (12.0, 12.0)), pits=pits, spikes=spikes, hazards=hazards)


def test_straight_line_when_nothing_is_in_the_way() -> None:
    sp = Space(board(), 0.5)
    r = sp.route(np.array([[-4.0, 0.0]]), (4.0, 0.0))
    assert r.length == pytest.approx(8.0) and r.points == [(-4.0, 0.0), (4.0, 0.0)]


def test_around_one_pit_matches_the_tangent_and_arc() -> None:
    """A 1 in pit at the origin, a base of radius 0.5 from (-5, 0) to (5, 0): two tangents of
    sqrt(5^2 - 1.5^2) and an arc of 1.5 (pi - 2 acos(1.5 / 5))."""
    sp = Space(board(Pit("p", Circle((0.0, 0.0), 1.0))), 0.5)
    want = 2 * math.sqrt(25 - 2.25) + 1.5 * (math.pi - 2 * math.acos(1.5 / 5))
    got = sp.route(np.array([[-5.0, 0.0]]), (5.0, 0.0))
    assert want <= got.length <= want * 1.01
    # the path never brings the base into the pit: every point and leg at least 1.5 from its centre
    line = np.array(got.points)
    assert all(math.hypot(x, y) >= 1.5 for x, y in line)
    assert all(segment_clear(sp, tuple(a), tuple(b)) for a, b in zip(line, line[1:]))


def test_the_base_radius_closes_a_gap() -> None:
    """Two pits 1.5 in apart: a 30 mm base (0.59 in radius) walks between them, a 50 mm one (0.98)
    goes round."""
    pits = (Pit("a", Circle((0.0, 2.75), 2.0)), Pit("b", Circle((0.0, -2.75), 2.0)))
    small = Space(board(*pits), 30 / 25.4 / 2).route(np.array([[-5.0, 0.0]]), (5.0, 0.0))
    large = Space(board(*pits), 50 / 25.4 / 2).route(np.array([[-5.0, 0.0]]), (5.0, 0.0))
    assert small.length == pytest.approx(10.0)
    assert large.length > 11.0


def test_no_path_through_a_wall_of_hazards() -> None:
    wall = Hazard("w", Rect((0.0, 0.0), (1.0, 12.0)))
    sp = Space(board(hazards=(wall,)), 0.5)
    assert not sp.route(np.array([[-4.0, 0.0]]), (4.0, 0.0)).reachable
    rubble = replace(wall, blocks_movement=False)
    assert Space(board(hazards=(rubble,)), 0.5).route(np.array([[-4.0, 0.0]]), (4.0, 0.0)).length == pytest.approx(8)


def test_field_agrees_with_the_exact_paths() -> None:
    a = board(Pit("p", Circle((0.0, 0.0), 1.5)), spikes=(Spikes("s", Rect((2.0, 3.0), (3.0, 1.0))),))
    sp = Space(a, 0.6, step=0.2)
    src = np.array([[-5.0, -5.0]])
    fld = sp.field(src)
    xs, ys = fld.xy()
    pick = np.argwhere(np.isfinite(fld.dist))[::97]
    targets = np.stack([xs[tuple(pick.T)], ys[tuple(pick.T)]], axis=1)
    exact, _ = sp.paths(src, targets)
    grid = fld.dist[tuple(pick.T)]
    assert np.all(grid >= exact - 1e-6)
    assert np.all(grid <= exact * 1.03 + 0.2)


def test_field_near_a_row_of_sources_is_the_nearest_source() -> None:
    """A zone's base positions 0.5 in apart (a row of sources): a node beside the row is as far
    as the nearest position, not the sum of its links to several positions (a node linked to
    three sources once read about three times the distance)."""
    sp = Space(board(), 0.5, step=0.25)
    src = np.array([[-2.0, 0.0], [-1.5, 0.0], [-1.0, 0.0], [-0.5, 0.0]])
    fld = sp.field(src)
    xs, ys = fld.xy()
    node = np.unravel_index(np.argmin(np.hypot(xs + 1.5, ys - 0.25)), xs.shape)
    assert fld.dist[node] == pytest.approx(0.25)
    far = np.unravel_index(np.argmin(np.hypot(xs - 3.0, ys)), xs.shape)
    assert fld.dist[far] == pytest.approx(3.5, abs=0.02)


@pytest.mark.parametrize("seed", range(3))
def test_zone_walks_on_one_graph_equal_the_separate_searches(seed: int) -> None:
    """:meth:`Space.walks` (every zone to the centre and to each other on one graph, reduced to
    segments tangent at the corners they touch) equals :meth:`Space.paths` run per zone on the
    full visibility graph of every corner pair."""
    rng = random.Random(seed)
    pits = tuple(Pit(f"p{i}", Circle((rng.uniform(-3.5, 3.5), rng.uniform(-3.5, 3.5)), rng.uniform(0.5, 1.5)))
                 for i in range(4))
    sp = Space(board(*pits), 0.6)
    groups = [sp.sample(LineString([(-5.2, -5.0), (-5.2, 5.0)])), sp.sample(LineString([(5.2, -5.0), (5.2, 5.0)])),
              sp.sample(LineString([(-5.0, 5.2), (5.0, 5.2)]))]
    assert all(len(g) > 10 for g in groups)
    target = sp.nearest_free((0.0, 0.0))
    assert target is not None
    routes, gaps = sp.walks(groups, target)
    full = Space(board(*pits), 0.6)
    full._tangent = lambda pts: np.ones((len(pts), len(full.corners)), dtype=bool)  # type: ignore[method-assign]
    for k, g in enumerate(groups):
        d, _ = full.paths(g, np.array([target]))
        assert routes[k].length == pytest.approx(float(d[0]), abs=1e-9)
        for m, h in enumerate(groups):
            if m != k:
                assert gaps[k, m] == pytest.approx(float(full.paths(g, h)[0].min()), abs=1e-9)
    assert all(segment_clear(sp, a, b) for r in routes for a, b in zip(r.points, r.points[1:]))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_shortest_paths_agree_with_the_independent_search(seed: int) -> None:
    rng = random.Random(seed)
    pits = tuple(Pit(f"p{i}", Circle((rng.uniform(-3.5, 3.5), rng.uniform(-3.5, 3.5)), rng.uniform(0.5, 1.5)))
                 for i in range(3))
    spikes = (Spikes("s", Rect((rng.uniform(-3, 3), rng.uniform(-3, 3)), (rng.uniform(1, 3), rng.uniform(0.5, 1.5)),
                              rng.uniform(0, 90))),)
    a = board(*pits, spikes=spikes)
    r = rng.choice([30, 40, 50]) / 25.4 / 2
    sp = Space(a, r)
    src, dst = (-5.0 + r, -5.0 + r), (5.0 - r - 0.01, 5.0 - r - 0.01)
    ref = reference.shortest(a, r, src, dst)
    got = sp.route(np.array([src]), dst).length
    if not math.isfinite(ref):
        assert not math.isfinite(got)
        return
    # the reference's grid walks at most ~2 % long plus a cell; ours bends round polygons that
    # circumscribe the true outlines (at most 2 % longer round a corner)
    assert ref / 1.025 - 0.15 <= got <= ref + 0.15
