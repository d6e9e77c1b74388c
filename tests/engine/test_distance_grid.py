"""The distance bound's graph (:class:`engine.gravstrike.heuristic.DistanceGrid`, issue 20): built
without sorting the 16-neighbour steps (one edge per pair of cells by construction), it is the
graph the lightest-of-parallel-edges rule gives - a field's free jump ("Acceleration Fields":
the push moves the turbine one length, no movement paid) standing for a step it doubles."""

from __future__ import annotations

import math

import numpy as np
import pytest
from shapely.geometry import Point, box

from engine.gravstrike.heuristic import JUMP_WEIGHT, OFFSETS, DistanceGrid


def _lightest_edges(grid: DistanceGrid, jumps: list[tuple[object, float, float]]) -> dict[tuple[int, int], float]:
    """(source, target) -> weight, the lightest of every edge the grid's rules make, cell by cell."""
    import shapely

    nx, ny, cell = grid.nx, grid.ny, grid.cell
    edges: dict[tuple[int, int], float] = {}

    def add(i: int, j: int, di: int, dj: int, w: float) -> None:
        if 0 <= i + di < nx and 0 <= j + dj < ny and grid.nodes[i + di, j + dj]:
            key = (i * ny + j, (i + di) * ny + j + dj)
            edges[key] = min(w, edges.get(key, math.inf))

    for i, j in zip(*np.nonzero(grid.nodes)):
        for di, dj in OFFSETS:
            add(int(i), int(j), di, dj, cell * math.hypot(di, dj))
    for trigger, jx, jy in jumps:
        inside = shapely.contains_xy(trigger.buffer(grid.hd), grid.xs, grid.ys).reshape(nx, ny) & grid.nodes  # type: ignore[attr-defined]
        r = 2.0 * grid.hd
        for i, j in zip(*np.nonzero(inside)):
            for di in range(math.floor((jx - r) / cell), math.ceil((jx + r) / cell) + 1):
                for dj in range(math.floor((jy - r) / cell), math.ceil((jy + r) / cell) + 1):
                    if math.hypot(di * cell - jx, dj * cell - jy) <= r:
                        add(int(i), int(j), di, dj, JUMP_WEIGHT)
    return edges


@pytest.mark.parametrize("pushes", [[(0.5, 0.0)], [(0.5, 0.0), (0.25, 0.25)], [(1.0, 0.5), (-0.5, 0.0)]])
def test_grid_edges_are_the_lightest_of_parallel_edges(pushes: list[tuple[float, float]]) -> None:
    bounds = box(-4.0, -3.0, 4.0, 3.0)
    free = bounds.buffer(-0.25).difference(box(-0.5, -3.0, 0.0, 1.0))
    # overlapping triggers: their jumps double each other and the one-cell steps
    jumps = [(Point(-1.0 + k, 0.5).buffer(1.2), dx, dy) for k, (dx, dy) in enumerate(pushes)]
    grid = DistanceGrid(bounds, free, 1.0, jumps, cell=0.25)
    want = _lightest_edges(grid, jumps)
    rev = grid.reverse.tocoo()
    got = {(int(s), int(d)): float(w) for d, s, w in zip(rev.row, rev.col, rev.data)}
    assert len(got) == rev.nnz  # no parallel edges left in the matrix
    assert got == want
    assert sum(w == JUMP_WEIGHT for w in want.values()) > 0
