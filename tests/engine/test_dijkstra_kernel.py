"""The compiled multi-source Dijkstra (:func:`engine.gravstrike.kernels_graph.multi_dijkstra`) gives
scipy's distances bit for bit (inf where unreachable) on the heuristic grids of several arenas -
the default one, generated tables, arenas with acceleration fields (tiny jump edges) and one
with a sealed part - for every goal's targets, and :meth:`DistanceGrid.distance_map` gives the
same map with the kernels loaded as without."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.sparse import csr_matrix

from engine.gravstrike import heuristic, kernels
from engine.gravstrike.heuristic import JUMP_WEIGHT
from schema.io import load
from tests.engine.arenas import chain_arena, sealed_arena
from tests.engine.table_arenas import table_arena
from validators.games.gravstrike.context import AnalysisContext

pytest.importorskip("numba")

ARENAS = Path(__file__).resolve().parents[2] / "arenas"
CASES = {
    "default": lambda: load(ARENAS / "default.yaml"),
    "gates-and-decay": lambda: load(ARENAS / "examples" / "gates-and-decay.yaml"),
    "chain": lambda: chain_arena(0),
    "sealed": lambda: sealed_arena((20.0, 10.0), 1.0),  # walls thick enough to cut the grid in two
    "table12": lambda: table_arena(12, 1),
    "table24": lambda: table_arena(24, 2),
    "table48": lambda: table_arena(48, 1),
}


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype == np.float64 and np.array_equal(np.where(np.isinf(a), -1, a), np.where(np.isinf(b), -1, b))


def _maps(planner: Any) -> list[np.ndarray]:
    planner._maps.clear()
    return [planner._distance_map(g).array for g in planner.goals()]


@pytest.mark.parametrize("name", list(CASES))
def test_compiled_dijkstra_equals_scipy(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    planner = AnalysisContext(CASES[name]()).planner
    grid = planner.distance_grid()
    monkeypatch.setenv("ARENA_STUDIO_JIT", "0")  # scipy, its calls' targets recorded
    calls: list[np.ndarray] = []
    scipy_dijkstra = heuristic.dijkstra

    def record(graph: Any, **kw: Any) -> np.ndarray:
        calls.append(kw["indices"])
        out: np.ndarray = scipy_dijkstra(graph, **kw)
        return out

    monkeypatch.setattr(heuristic, "dijkstra", record)
    off = _maps(planner)
    assert calls and len(calls) == len(planner.goals())
    monkeypatch.setattr(heuristic, "dijkstra", scipy_dijkstra)
    r = grid.reverse
    if name in ("default", "chain"):
        assert (r.data == JUMP_WEIGHT).any()  # field jumps are in the graph
    if name == "sealed":
        assert len(grid.parts) > 1
    n = grid.nx * grid.ny
    rng = np.random.default_rng(0)
    nodes = np.flatnonzero(grid.nodes.ravel())
    # every goal's targets, and a few more: repeated targets, one node
    extra = [np.concatenate([calls[0], calls[0][::2]]), nodes[rng.integers(len(nodes), size=1)]]
    monkeypatch.setenv("ARENA_STUDIO_JIT", "1")
    assert kernels.enable()
    run = kernels.current()["multi_dijkstra"]  # type: ignore[index]
    cut = 0  # nodes no target reaches
    for targets in [*calls, *extra]:
        want = scipy_dijkstra(r, directed=True, indices=targets, min_only=True)
        got = run(r.indptr, r.indices, r.data, targets.astype(np.int64), n, grid.cell / 2.0)
        assert _same(got, want)
        assert np.isfinite(got).sum() > len(np.unique(targets))
        cut += int(np.isinf(got[nodes]).sum())
    assert cut == 0  # the grids join across walls: their parts are cut in distance_map, not here
    if name == "sealed":  # a graph in two pieces: the grid without the edges across one column
        col = grid.nx // 2
        src = np.repeat(np.arange(n), np.diff(r.indptr))
        keep = (src // grid.ny < col) == (r.indices // grid.ny < col)
        cut_graph = csr_matrix((r.data[keep], (src[keep], r.indices[keep])), shape=(n, n))
        for targets in calls:
            want = scipy_dijkstra(cut_graph, directed=True, indices=targets, min_only=True)
            got = run(cut_graph.indptr, cut_graph.indices, cut_graph.data, targets.astype(np.int64), n,
                      grid.cell / 2.0)
            assert _same(got, want) and np.isinf(got[nodes]).any()
    # the distance maps: the same with the kernels as without
    on = _maps(planner)
    assert all(_same(a, b) for a, b in zip(on, off, strict=True))


def test_bucket_width_does_not_change_the_distances() -> None:
    """The bucket width only orders the work: far narrower or wider buckets give the same bits."""
    planner = AnalysisContext(CASES["chain"]()).planner
    grid = planner.distance_grid()
    assert kernels.enable()
    run = kernels.current()["multi_dijkstra"]  # type: ignore[index]
    r, n = grid.reverse, grid.nx * grid.ny
    targets = np.flatnonzero(grid.nodes.ravel())[:5]
    want = heuristic.dijkstra(r, directed=True, indices=targets, min_only=True)
    for width in (1e-3, grid.cell / 2.0, 1.0, 100.0):
        assert _same(run(r.indptr, r.indices, r.data, targets, n, width), want)
