"""Lookup tables of the travel search made faster at table scale (issue 20), checked against what
they stand for: the distance bound's graph (:class:`engine.gravstrike.heuristic.DistanceGrid`),
built without sorting the 16-neighbour steps (one edge per pair of cells by construction), is
the graph the lightest-of-parallel-edges rule gives - a field's free jump ("Acceleration
Fields": the push moves the turbine one length, no movement paid) standing for a step it
doubles; and the raster cells of circular zones, classified from the exact distance, agree with
the exact test everywhere."""

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


@pytest.mark.parametrize("base", [0.0, 7.3])
def test_circular_zone_cells_agree_with_the_exact_test(base: float) -> None:
    """The raster's cells of a circular zone (checkpoints, circular fields: "Checkpoints", "the
    turbine touches the checkpoint") come from the exact footprint-to-circle distance: every
    centre the raster settles without a test is settled as the exact test would, so a lookup
    (:meth:`~engine.gravstrike.lattice.HeadingLattice.probe`) is the exact test, at any heading."""
    from pathlib import Path

    from engine.gravstrike.planner import Planner
    from schema import load

    arena = load(Path(__file__).resolve().parents[2] / "arenas" / "default.yaml")
    planner = Planner(arena, minimise="time", quantum=0.25)
    lat = planner.lattice(base)
    rng = np.random.default_rng(3)
    checked = 0
    for z, zone in enumerate(planner.cspace.zones):
        if zone.circle is None:
            continue
        cx, cy, r = zone.circle
        ang, rad = rng.uniform(0, 2 * np.pi, 40_000), r + rng.uniform(-0.9, 0.9, 40_000)
        x, y, hk = cx + rad * np.cos(ang), cy + rad * np.sin(ang), rng.integers(0, 12, 40_000)
        free, zones = lat.probe(x, y, hk)
        hit = (zones & np.uint64(1 << z)) != 0
        for k in range(12):
            m = free & (hk == k)
            assert np.array_equal(hit[m], lat.spaces[k].zone_exact(z, x[m], y[m])), (z, k)
            checked += int(m.sum())
    assert checked > 200_000


def test_confirm_searches_with_one_fine_planner_sharing_the_coarse_ones_tables() -> None:
    """``Planner.confirm`` (a coarse "unreachable" or "beyond" searched again at 0.05) makes its
    fine planner once and shares the configuration space, the distance grid and its maps (they
    don't depend on the tolerance): the answers are a fresh fine planner's, paths included."""
    from engine.gravstrike.planner import Planner, StartSource, TravelResult
    from tests.engine.arenas import small_arena

    arena, turns = small_arena(2)
    planner = Planner(arena, quantum=0.25, max_turns=turns, minimise="time")
    goals = planner.goals()
    planner.plan_from(StartSource(1))  # the coarse planner's tables are made
    answers = []
    for player in (1, 2):
        doubtful = {g: TravelResult(g, False) for g in goals}  # as if the coarse search found nothing
        answers.append(planner.confirm(StartSource(player), doubtful, set()))
        fine = planner._fine
        assert fine is not None and fine.cspace is planner.cspace and fine._maps is planner._maps
    assert planner._fine is fine  # one fine planner for both sources
    for player, got in zip((1, 2), answers):
        fresh = Planner(arena, quantum=0.05, max_turns=turns, minimise="time", prove=False)
        assert got == fresh.plan_from(StartSource(player), goals)
    assert any(r.reachable for r in answers[0].values())
    from tests.engine.test_frontier import _moved

    assert planner.retarget(_moved(arena, 0.5, 0.0)) and planner._fine is None  # the old arena's: made again when needed
