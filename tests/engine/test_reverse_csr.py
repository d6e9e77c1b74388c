"""The distance grid's reversed graph is built in place (:func:`engine.gravstrike.heuristic.
reverse_csr`): it must be scipy's conversion of the edge list entry for entry - the free field
jumps first (each pair once), then one edge per 16-neighbour offset from every node whose
neighbour is a node, a jump doubling a step standing for it - on arenas with and without fields,
so every distance map (and every bound the search reads) stays bit for bit what it was."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import shapely
from scipy.sparse import csr_matrix

from engine.gravstrike.heuristic import JUMP_WEIGHT, OFFSETS, DistanceGrid
from engine.gravstrike.planner import Planner, StartSource
from schema import load
from tests.engine.table_arenas import table_arena


def edge_list_csr(g: DistanceGrid, jumps: list[tuple[Any, float, float]]) -> csr_matrix:
    """The reference: the edge list, converted by scipy."""
    nx, ny, cell, n = g.nx, g.ny, g.cell, g.nx * g.ny
    src, dst, wts = [], [], []

    def link(mask: np.ndarray, di: int, dj: int, w: float) -> None:
        a = np.zeros((nx, ny), dtype=bool)
        a[max(0, -di):min(nx, nx - di), max(0, -dj):min(ny, ny - dj)] = True
        ci, cj = np.nonzero(a & mask)
        ok = g.nodes[ci + di, cj + dj]
        ci, cj = ci[ok], cj[ok]
        src.append(ci * ny + cj)
        dst.append((ci + di) * ny + cj + dj)
        wts.append(np.full(len(ci), w))

    doubled: dict[tuple[int, int], np.ndarray] = {}
    for trigger, jx, jy in jumps:
        tg = trigger.buffer(g.hd)
        mask = shapely.contains_xy(tg, g.xs, g.ys).reshape(nx, ny) & g.nodes
        r = 2.0 * g.hd
        for di in range(math.floor((jx - r) / cell), math.ceil((jx + r) / cell) + 1):
            for dj in range(math.floor((jy - r) / cell), math.ceil((jy + r) / cell) + 1):
                if math.hypot(di * cell - jx, dj * cell - jy) <= r:
                    link(mask, di, dj, JUMP_WEIGHT)
                    if (di, dj) in OFFSETS:
                        doubled[di, dj] = doubled[di, dj] | mask if (di, dj) in doubled else mask
    if src:
        pair = np.unique(np.concatenate(src) * n + np.concatenate(dst))
        src, dst, wts = [pair // n], [pair % n], [np.full(len(pair), JUMP_WEIGHT)]
    for di, dj in OFFSETS:
        link(g.nodes & ~doubled[di, dj] if (di, dj) in doubled else g.nodes, di, dj, cell * math.hypot(di, dj))
    return csr_matrix((np.concatenate(wts), (np.concatenate(dst), np.concatenate(src))), shape=(n, n))


CASES = {
    "default (six fields)": lambda: load("arenas/default.yaml"),
    "gates-and-decay": lambda: load("arenas/examples/gates-and-decay.yaml"),
    "three-player": lambda: load("arenas/examples/three-player.yaml"),
    "generated 24-length table": lambda: table_arena(24, 3),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_graph_is_scipys_conversion_entry_for_entry(name: str) -> None:
    planner = Planner(CASES[name](), minimise="time")
    grid = planner.distance_grid()
    want = edge_list_csr(grid, grid.jumps)
    got = grid.reverse
    assert np.array_equal(got.indptr, want.indptr)
    assert np.array_equal(got.indices, want.indices)
    assert np.array_equal(got.data, want.data)
    assert got.indptr.dtype == want.indptr.dtype and got.indices.dtype == want.indices.dtype
    if "default" in name:
        assert (got.data == JUMP_WEIGHT).sum() > 0  # the fields' jumps are there


def test_an_analysis_frees_the_graph_once_every_goal_has_its_map() -> None:
    """Issue 38, goal 3 (memory): ``arena validate``'s planner drops the graph (about 20 MB on a
    48-length table) once every goal of the arena has its distance map - no search of the
    analysis needs it after that - and a map asked for later gets it built again, the same arrays
    and the same map; a map keeps only the bound the searches read, not also the grid distances
    it came from.  A planner whose goals may move (the editor's) keeps both."""
    from validators.games.gravstrike.context import AnalysisContext

    arena = table_arena(12, 2)
    ctx = AnalysisContext(arena)
    ctx.travel_from("start:1")
    grid = ctx.planner.distance_grid()
    assert not grid.holds_graph
    kept = Planner(arena, quantum=ctx.tolerance, minimise="time")
    kept.plan_from(StartSource(1))
    assert kept.distance_grid().holds_graph
    want = kept.distance_grid().reverse
    got = grid.reverse  # made again
    assert grid.holds_graph
    assert np.array_equal(got.indptr, want.indptr) and np.array_equal(got.indices, want.indices)
    assert np.array_equal(got.data, want.data)
    goal = kept.goals()[0]
    again = ctx.planner._maps.pop(goal)
    with pytest.raises(ValueError):
        again.grid  # noqa: B018 - its grid distances not kept: the bound is what the searches read
    assert np.array_equal(ctx.planner.distance_maps([goal])[0].array, again.array)
    assert np.array_equal(again.array, kept.distance_maps([goal])[0].array)
