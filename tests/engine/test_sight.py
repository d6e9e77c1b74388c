"""Line of sight ("Line of Sight", "Arena Features", "Area Effects and Line of Sight")."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, given, settings, strategies as st
from shapely.geometry import Point, Polygon, box

from engine.sight import (
    Blockers,
    NoLineOfSight,
    has_line_of_sight,
    require_line_of_sight,
    shortest_clear_segment,
    sight_line,
    visible_region,
)
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, Wall
from tests.engine.los_oracle import blocking_region, sampled_clear_lengths, witness_ok


Y0, Y1 = 2.0123, 3.0431  # the slit's centre line at x = 2 and x = 3 (about 46 degrees)


def slit_walls(width: float) -> Blockers:
    """A wall from x=2 to x=3 cut by a diagonal slit of the given (vertical) width."""
    h = width / 2.0
    return Blockers.of(
        Polygon([(2, -9), (3, -9), (3, Y1 - h), (2, Y0 - h)]),
        Polygon([(2, Y0 + h), (3, Y1 + h), (3, 9), (2, 9)]),
    )


def test_open_arena_uses_closest_points() -> None:
    """Line of Sight: with nothing in between, the closest-points segment is the witness."""
    a, b = box(0, 0, 1, 1), box(3, 0, 4, 1)
    seg = sight_line(a, b, Blockers.of())
    assert seg is not None and seg.length == pytest.approx(2.0)


def test_full_wall_blocks() -> None:
    """Arena Features: features always block line of sight."""
    blockers = Blockers.of(box(2, -9, 3, 9))
    a, b = box(0, 0, 1, 1), box(4, 0, 5, 1)
    assert not has_line_of_sight(a, b, blockers)
    with pytest.raises(NoLineOfSight):
        require_line_of_sight(a, b, blockers)


def test_narrow_diagonal_slit_is_found_exactly() -> None:
    """Line of Sight: "any part ... to any part": a 1e-4-wide diagonal slit is enough.

    The shapes are offset so the closest-points line is blocked and the only clear lines run
    along the slit's diagonal; a sampling approach with step 0.05 finds none of them."""
    a, b = box(-0.4, -0.6, 0.6, 0.4), box(4.6, 4.4, 5.6, 5.4)
    blockers = slit_walls(1e-4)
    seg = sight_line(a, b, blockers)
    assert seg is not None and witness_ok(seg, a, b, blockers)
    dx, dy = seg.end[0] - seg.start[0], seg.end[1] - seg.start[1]
    assert math.atan2(dy, dx) == pytest.approx(math.atan2(Y1 - Y0, 1.0), abs=1e-3)
    assert len(sampled_clear_lengths(a, b, blockers, step=0.05)) == 0  # sampling misses it


def test_closed_slit_blocks() -> None:
    """Arena Features: walls that meet along a line leave no gap to see through."""
    a, b = box(-0.4, -0.6, 0.6, 0.4), box(4.6, 4.4, 5.6, 5.4)
    assert not has_line_of_sight(a, b, slit_walls(0.0))


def test_slit_that_does_not_line_up_blocks() -> None:
    """Line of Sight: the slit exists, but no straight line through it reaches the target."""
    a, b = box(-0.4, -0.6, 0.6, 0.4), box(4.6, 0.0, 5.6, 1.0)
    assert not has_line_of_sight(a, b, slit_walls(1e-3))


def test_grazing_a_corner_is_clear() -> None:
    """Grazing policy: a line touching only a wall corner is not interrupted; two walls that
    meet only at a corner leave a zero-width diagonal sight line through that corner."""
    blockers = Blockers.of(box(1, 1, 2, 2), box(2, 2, 3, 3))
    a, b = Point(1, 3), Point(3, 1)
    assert has_line_of_sight(a, b, blockers)
    # a point a hair away from the diagonal is blocked
    assert not has_line_of_sight(Point(1, 3.001), Point(3, 1.001), blockers)


def test_running_along_a_wall_face_is_clear() -> None:
    """Grazing policy: sliding along a wall face does not interrupt the line."""
    blockers = Blockers.of(box(1, 0, 2, 1))
    seg = shortest_clear_segment(Point(0, 1), Point(3, 1), blockers)
    assert seg is not None and seg.length == pytest.approx(3.0)


def test_outside_of_bounds_blocks() -> None:
    """Arena Features: the arena's edge bounds sight -- an L-shaped arena hides its arms."""
    l_shape = Polygon([(0, 0), (10, 0), (10, 2), (2, 2), (2, 10), (0, 10)])
    blockers = Blockers.of(bounds=l_shape)
    a, b = box(8, 0.5, 9, 1.5), box(0.5, 8, 1.5, 9)
    assert not has_line_of_sight(a, b, blockers)
    assert has_line_of_sight(a, box(0.5, 0.5, 1.5, 1.5), blockers)


def test_from_arena_schema_shapes() -> None:
    """Arena Features: walls of every schema shape, and the bounds, block sight."""
    arena = Arena(
        name="t",
        bounds=Rect((0.0, 0.0), (20.0, 20.0)),
        walls=(Wall("W", Circle((0.0, 0.0), 2.0)),),
    )
    blockers = Blockers.from_arena(arena)
    assert not has_line_of_sight(Point(-5, 0), Point(5, 0), blockers)
    assert has_line_of_sight(Point(-5, 0), Point(0, 5), blockers)
    assert not has_line_of_sight(Point(-5, 0), Point(15, 0), blockers)  # outside the bounds


def test_shortest_unblocked_segment_pinned_at_a_corner() -> None:
    """Where to Measure From: closest points are blocked, so the shortest unblocked line is
    used -- here it runs from the attacker's corner past the wall corner to the target."""
    a = box(-0.5, -0.25, 0.5, 0.25)
    b = box(3.15, 0.4, 3.65, 1.4)
    blockers = Blockers.of(box(1.2, -0.6, 2.2, 0.6))
    seg = shortest_clear_segment(a, b, blockers)
    assert seg is not None and witness_ok(seg, a, b, blockers)
    # analytic optimum: a line through the wall corner (1.2, 0.6) ending on b's top-left corner
    slope = (1.4 - 0.6) / (3.15 - 1.2)
    x0 = 1.2 - (0.6 - 0.25) / slope
    expected = math.hypot(3.15 - x0, 1.4 - 0.25)
    assert seg.length == pytest.approx(expected, abs=1e-7)  # EPS-level tolerance
    assert seg.length > shapely.distance(a, b) + 0.3
    assert seg.length <= sampled_clear_lengths(a, b, blockers, step=0.02).min() + 1e-9


def test_shortest_unblocked_segment_pinned_inside_an_edge() -> None:
    """Where to Measure From: an optimum touching one wall corner with both ends in the middle
    of model edges (found by the pencil search, not by any vertex pair)."""
    a = Polygon([(0, -2), (1, -2), (1.5, 2), (0, 2)])
    b = Polygon([(4, 2), (4.5, -2), (5.5, -2), (5.5, 2)])
    blockers = Blockers.of(Polygon([(2.75, 1.0), (3.5, 10), (2.0, 10)]))  # apex pointing down
    seg = shortest_clear_segment(a, b, blockers)
    assert seg is not None and witness_ok(seg, a, b, blockers)
    # by symmetry the optimum is horizontal through the apex: from x=1.375 to x=4.125
    assert seg.length == pytest.approx(2.75, abs=1e-7)
    assert seg.start[1] == pytest.approx(1.0, abs=1e-6)
    assert seg.length <= sampled_clear_lengths(a, b, blockers, step=0.02).min() + 1e-9


polys = st.builds(
    lambda x, y, w, h, rot: shapely.affinity.rotate(box(x, y, x + w, y + h), rot),
    st.floats(-4, 4), st.floats(-4, 4), st.floats(0.2, 2.5), st.floats(0.1, 2.5), st.floats(0, 180),
)  # random walls for the visible-region test


def boxes(xlo: float, xhi: float) -> st.SearchStrategy[Polygon]:
    """Random rotated boxes clipped to the band xlo <= x <= xhi."""
    band = box(xlo, -6, xhi, 6)
    return st.builds(
        lambda x, y, w, h, rot: shapely.intersection(
            shapely.affinity.rotate(box(x, y, x + w, y + h), rot), band
        ),
        st.floats(xlo, xhi), st.floats(-4, 4), st.floats(0.05, 2.0), st.floats(0.3, 4.0),
        st.floats(0, 180),
    )


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walls=st.lists(boxes(-2.0, 2.0), min_size=1, max_size=5), a=boxes(-6, -3), b=boxes(3, 6))
def test_against_brute_force_oracle(walls: list[Polygon], a: Polygon, b: Polygon) -> None:
    """Line of Sight vs a brute-force oracle: models left and right, random walls between.
    Every sampled clear segment implies sight; every witness is genuinely clear; the shortest
    unblocked segment is no longer than any sampled one."""
    if a.geom_type != "Polygon" or b.geom_type != "Polygon" or a.area < 1e-3 or b.area < 1e-3:
        return
    blockers = Blockers.of(*walls)
    sampled = sampled_clear_lengths(a, b, blockers, step=0.1)
    seg = shortest_clear_segment(a, b, blockers)
    if len(sampled):
        assert seg is not None
    if seg is not None:
        assert witness_ok(seg, a, b, blockers)
        assert has_line_of_sight(a, b, blockers)
        if len(sampled):
            assert seg.length <= sampled.min() + 1e-9
    else:
        assert not has_line_of_sight(a, b, blockers)


def visible_by_oracle(origin: tuple[float, float], q: np.ndarray, region: shapely.Geometry) -> np.ndarray:
    lines = shapely.linestrings(np.stack([np.repeat([origin], len(q), axis=0), q], axis=1))
    out: np.ndarray = ~shapely.intersects(lines, region.buffer(-1e-9))
    return out


def test_visible_region_matches_segment_oracle() -> None:
    """Line of Sight as an area (safe areas, LOS overlay): a point is in the region iff the
    segment to it is clear."""
    blockers = Blockers.of(box(2, -1, 3, 1), Point(-3, 2).buffer(1), bounds=box(-8, -8, 8, 5))
    vr = visible_region((0.0, 0.0), 6.0, blockers)
    assert vr.is_valid and vr.geom_type == "Polygon"
    rng = np.random.default_rng(7)
    q = rng.uniform(-6, 6, (4000, 2))
    q = q[np.hypot(q[:, 0], q[:, 1]) < 5.95]
    q = q[shapely.distance(vr.boundary, shapely.points(q)) > 1e-6]
    region = blocking_region(blockers, Point(-7, -7), Point(7, 7))
    assert (shapely.contains_xy(vr, q[:, 0], q[:, 1]) == visible_by_oracle((0.0, 0.0), q, region)).all()
    # its vertices are exact: the shadow edge passes through the wall corner (2, 1)
    assert shapely.dwithin(vr.boundary, Point(2, 1), 1e-12)


def test_visible_region_open_and_inside_wall() -> None:
    """Line of Sight: unobstructed, the region is the disc; from inside a wall, nothing."""
    open_vr = visible_region((0.0, 0.0), 3.0, Blockers.of())
    assert open_vr.area == pytest.approx(Point(0, 0).buffer(3.0, quad_segs=32).area, rel=1e-9)
    assert visible_region((0.0, 0.0), 3.0, Blockers.of(box(-1, -1, 1, 1))).is_empty


@settings(max_examples=15, deadline=None)
@given(walls=st.lists(polys, min_size=1, max_size=4))
def test_visible_region_random(walls: list[Polygon]) -> None:
    """Line of Sight as an area, random walls: region membership equals segment clearance."""
    blockers = Blockers.of(*walls)
    origin = (6.5, 6.5)
    region = blocking_region(blockers, Point(-3, -3), Point(16, 16))
    if region.contains(Point(origin)):
        return
    vr = visible_region(origin, 9.0, blockers)
    rng = np.random.default_rng(1)
    q = rng.uniform(-2.5, 15.5, (1500, 2))
    q = q[np.hypot(q[:, 0] - 6.5, q[:, 1] - 6.5) < 8.95]
    q = q[shapely.distance(vr.boundary, shapely.points(q)) > 1e-6]
    assert (shapely.contains_xy(vr, q[:, 0], q[:, 1]) == visible_by_oracle(origin, q, region)).all()
