"""Square grid maths (engine/grids.py) and the Tiled orthogonal grid (engine/grids_tiled.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import SquareLayout, components, square_distance, square_line, square_neighbours
from engine.grids_tiled import tiled_square_grid

coord = st.integers(min_value=-30, max_value=30)
squares = st.tuples(coord, coord)
PROPS = settings(max_examples=150, deadline=None)


def test_neighbours_and_distances() -> None:
    assert square_neighbours((1, 1)) == ((2, 1), (1, 2), (0, 1), (1, 0))
    assert len(square_neighbours((1, 1), diagonal=True)) == 8
    assert square_distance((0, 0), (2, 3)) == 5
    assert square_distance((0, 0), (2, 3), diagonal=True) == 3


@PROPS
@given(squares, squares, squares, st.booleans())
def test_distances_are_metrics(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int], diagonal: bool) -> None:
    assert square_distance(a, b, diagonal) == square_distance(b, a, diagonal)
    assert (square_distance(a, b, diagonal) == 0) == (a == b)
    assert square_distance(a, c, diagonal) <= square_distance(a, b, diagonal) + square_distance(b, c, diagonal)
    assert all(square_distance(a, n, diagonal) == 1 for n in square_neighbours(a, diagonal))


@PROPS
@given(squares, squares)
def test_line_crosses_square_interiors_only(a: tuple[int, int], b: tuple[int, int]) -> None:
    """Consecutive squares of a line share a side, or only a corner when the line passes
    exactly through that corner; the line is the same both ways."""
    line = square_line(a, b)
    assert line[0] == a and line[-1] == b and len(set(line)) == len(line)
    for p, q in zip(line, line[1:]):
        d = (q[0] - p[0], q[1] - p[1])
        assert max(abs(d[0]), abs(d[1])) == 1
        if abs(d[0]) == abs(d[1]) == 1:  # a corner step: the segment passes through that corner
            cx, cy = max(p[0], q[0]), max(p[1], q[1])
            ax, ay, bx, by = a[0] + 0.5, a[1] + 0.5, b[0] + 0.5, b[1] + 0.5
            assert math.isclose((bx - ax) * (cy - ay), (by - ay) * (cx - ax), abs_tol=1e-9)
    assert sorted(square_line(b, a)) == sorted(line)


def test_layout_geometry() -> None:
    lay = SquareLayout(90.0, (10.0, 20.0))
    assert lay.center((0, 0)) == (55.0, 65.0)
    assert lay.cell_at(*lay.center((2, -1))) == (2, -1)
    assert lay.bounds([(0, 0), (2, 4)]) == (10.0, 20.0, 280.0, 470.0)
    cells = {(x, y) for x in range(3) for y in range(5)}
    edges = SquareLayout().edge_segments(cells)
    assert len(edges) == 16 and sum(math.dist(p, q) for p, q in edges) == pytest.approx(16)
    assert [len(p) for p in components(cells | {(9, 9)}, square_neighbours)] == [15, 1]


@settings(max_examples=60, deadline=None)
@given(st.sets(squares, min_size=1, max_size=30))
def test_tiled_square_grid_round_trips_with_row_zero_at_the_top(cells: set[tuple[int, int]]) -> None:
    g = tiled_square_grid(cells, 64)
    offsets = {g.to_offset(c) for c in cells}
    assert all(g.from_offset(*g.to_offset(c)) == c for c in cells)
    assert min(r for _, r in offsets) == 0 and max(r for _, r in offsets) == g.height - 1
    top = max(y for _, y in cells)
    assert all(g.to_offset(c)[1] == 0 for c in cells if c[1] == top)
    assert g.attributes()["orientation"] == "orthogonal"
