"""Hex grid maths (engine/grids.py): distance, neighbours, lines, rotation, cell geometry, the
pit wall's hexsides and symmetry images — fixed cases and bounded property tests."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import (HEX_DIRECTIONS, SQRT3, HexLayout, components, hex_direction, hex_disc, hex_distance,
                          hex_line, hex_neighbour, hex_neighbours, hex_ring, hex_rotate, hex_round, open_hexsides,
                          reflection, rotation, straight_run, symmetry_transforms, wall_cells, wall_hexsides)

coord = st.integers(min_value=-40, max_value=40)
hexes = st.tuples(coord, coord)
orientations = st.sampled_from(["pointy", "flat"])
PROPS = settings(max_examples=150, deadline=None)


def test_distance_fixed_cases() -> None:
    assert hex_distance((0, 0), (0, 0)) == 0
    assert hex_distance((0, 0), (3, 0)) == 3
    assert hex_distance((0, 0), (2, -1)) == 2
    assert hex_distance((0, 0), (-3, 3)) == 3
    assert hex_distance((1, -2), (-2, 3)) == 5  # dq -3, dr 5, ds -2


def test_neighbours_are_the_six_steps_in_direction_order() -> None:
    assert hex_neighbours((2, -1)) == ((3, -1), (2, 0), (1, 0), (1, -1), (2, -2), (3, -2))
    assert [hex_direction((2, -1), n) for n in hex_neighbours((2, -1))] == [0, 1, 2, 3, 4, 5]
    assert hex_neighbour((0, 0), 7) == hex_neighbour((0, 0), 1)


@PROPS
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> None:
    assert hex_distance(a, b) == hex_distance(b, a) >= 0
    assert (hex_distance(a, b) == 0) == (a == b)
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@PROPS
@given(hexes)
def test_neighbours_are_one_step_and_distinct(h: tuple[int, int]) -> None:
    ns = hex_neighbours(h)
    assert len(set(ns)) == 6 and all(hex_distance(h, n) == 1 for n in ns)
    assert [hex_direction(h, n) for n in ns] == list(range(6))


@PROPS
@given(hexes, hexes)
def test_line_walks_neighbour_by_neighbour(a: tuple[int, int], b: tuple[int, int]) -> None:
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(hex_distance(p, q) == 1 for p, q in zip(line, line[1:]))


@PROPS
@given(hexes, st.integers(0, 11))
def test_rotation_keeps_length_and_six_turns_are_identity(v: tuple[int, int], k: int) -> None:
    assert hex_distance((0, 0), hex_rotate(v, k)) == hex_distance((0, 0), v)
    assert hex_rotate(hex_rotate(v, k), 6 - k % 6) == v
    assert hex_rotate(HEX_DIRECTIONS[0], k) == HEX_DIRECTIONS[k % 6]


@PROPS
@given(hexes, orientations)
def test_centre_and_cell_at_round_trip(h: tuple[int, int], orientation: str) -> None:
    lay = HexLayout(orientation, origin=(3.5, -2.0))  # type: ignore[arg-type]
    x, y = lay.center(h)
    assert lay.cell_at(x, y) == h
    # a point just inside any corner still belongs to the cell
    for cx, cy in lay.corners(h):
        assert lay.cell_at(x + 0.98 * (cx - x), y + 0.98 * (cy - y)) == h


@PROPS
@given(hexes, st.integers(0, 5), orientations)
def test_neighbour_centres_are_one_flat_apart_in_the_direction_angle(h: tuple[int, int], d: int, orientation: str) -> None:
    lay = HexLayout(orientation)  # type: ignore[arg-type]
    (x0, y0), (x1, y1) = lay.center(h), lay.center(hex_neighbour(h, d))
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(1.0)
    assert math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360 == pytest.approx(lay.direction_angle(d) % 360, abs=1e-9)
    # the shared hexside is the same segment seen from both cells
    a, b = lay.hexside(h, d)
    c, e = lay.hexside(hex_neighbour(h, d), d + 3)
    assert {tuple(round(v, 9) for v in p) for p in (a, b)} == {tuple(round(v, 9) for v in p) for p in (c, e)}


def test_printed_hex_size_is_across_the_flats() -> None:
    lay = HexLayout.across_flats("pointy", 25.4)
    xs = [x for x, _ in lay.corners((0, 0))]
    ys = [y for _, y in lay.corners((0, 0))]
    assert max(xs) - min(xs) == pytest.approx(25.4)  # pointy: flats are left and right
    assert max(ys) - min(ys) == pytest.approx(2 * 25.4 / SQRT3)  # corner to corner
    flat = HexLayout.across_flats("flat", 25.4)
    assert max(y for _, y in flat.corners((0, 0))) - min(y for _, y in flat.corners((0, 0))) == pytest.approx(25.4)
    assert flat.bounds([(0, 0), (1, 0)])[2] - flat.bounds([(0, 0), (1, 0)])[0] == pytest.approx(3.5 * 25.4 / SQRT3)  # centres 1.5 radii apart + a full width


def test_pointy_rows_are_straight_lines_of_constant_r_and_flat_columns_of_constant_q() -> None:
    pointy, flat = HexLayout("pointy"), HexLayout("flat")
    assert len({round(pointy.center((q, 4))[1], 9) for q in range(-5, 6)}) == 1
    assert len({round(flat.center((4, r))[0], 9) for r in range(-5, 6)}) == 1


def test_disc_ring_and_round() -> None:
    assert len(hex_disc((0, 0), 9)) == 271
    assert sorted(hex_disc((2, 1), 1)) == sorted([(2, 1), *hex_neighbours((2, 1))])
    assert len(hex_ring((0, 0), 3)) == 18 and all(hex_distance((0, 0), h) == 3 for h in hex_ring((0, 0), 3))
    assert hex_round(0.4, 0.4) == (0, 1) or hex_round(0.4, 0.4) == (1, 0) or hex_round(0.4, 0.4) == (0, 0)
    assert hex_round(2.1, -0.9) == (2, -1)


def test_wall_hexsides_face_outside_the_cell_set() -> None:
    pit = set(hex_disc((0, 0), 2))
    assert wall_hexsides(pit, (0, 0)) == ()
    assert wall_hexsides(pit, (2, 0)) == (0, 1, 5)  # a corner of the hexagon: three wall sides
    assert wall_hexsides(pit, (1, 1)) == (0, 1)  # the middle of a side: two
    assert open_hexsides(pit, (2, 0)) == (2, 3, 4)
    assert wall_cells(pit) == set(hex_ring((0, 0), 2))
    assert wall_hexsides({(5, 5)}, (5, 5)) == (0, 1, 2, 3, 4, 5)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=40))
def test_wall_segments_are_the_outline(cells: set[tuple[int, int]]) -> None:
    """Each wall hexside is a boundary edge: shared by no other cell of the set, and the total
    wall length equals the outline length of the union of the cells' polygons."""
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    lay = HexLayout("pointy")
    walls = lay.wall_segments(cells)
    assert len(walls) == sum(len(wall_hexsides(cells, h)) for h in cells)
    # a hair of buffer closes the float gaps between touching hexes
    union = unary_union([Polygon(lay.corners(h)).buffer(1e-7) for h in cells])
    assert sum(math.dist(a, b) for a, b in walls) == pytest.approx(union.boundary.length, rel=1e-4)


def test_straight_run_and_components() -> None:
    pit = set(hex_disc((0, 0), 3))
    assert straight_run(pit, (0, 0), 0) == 3
    assert straight_run(pit, (-3, 0), 0) == 6
    assert straight_run(pit, (-3, 0), 0, cap=4) == 4
    parts = components(pit | {(10, 10), (11, 10)}, hex_neighbours)
    assert [len(p) for p in parts] == [37, 2]


def test_symmetry_images_of_a_hexagon() -> None:
    lay = HexLayout("pointy")
    pit = set(hex_disc((0, 0), 4))
    centre = lay.centroid(pit)
    for tf in symmetry_transforms("dihedral", 6, centre, 90.0):
        assert {lay.image(h, tf) for h in pit} == pit
    # a mirror across the vertical axis keeps pointy rows: (q, r) -> (-q - r, r)
    mirror = reflection((0.0, 0.0), 90.0)
    assert lay.image((3, 1), mirror) == (-4, 1)
    # a rotation by 45 degrees is no symmetry of the grid
    assert lay.image((2, 0), rotation((0.0, 0.0), 45.0)) is None
