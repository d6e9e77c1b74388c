"""engine.neighbours answers what scipy.spatial.cKDTree answered for the Car Wars wall-gap check
(the same pairs, in the same order) without importing scipy.spatial at start-up (issue 38)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from engine.neighbours import RadiusIndex


def _clouds() -> list[tuple[np.ndarray, float]]:
    rng = np.random.default_rng(38)
    out = []
    for k in range(12):
        n = int(rng.integers(1, 600))
        pts = rng.random((n, 2)) * float(rng.uniform(1.0, 40.0)) - 5.0
        if k % 3 == 0:  # points on a quarter-inch lattice: many pairs exactly r apart
            pts = np.round(pts * 4.0) / 4.0
        out.append((pts, 0.5 if k % 3 == 0 else float(rng.uniform(0.2, 4.0))))
    return out


@pytest.mark.parametrize("k", range(12))
def test_counts_and_pairs_are_the_trees(k: int) -> None:
    pts, r = _clouds()[k]
    tree = cKDTree(pts)
    index = RadiusIndex(pts, r)
    assert index.counts(block=300).tolist() == np.asarray(tree.query_ball_point(pts, r, return_length=True)).tolist()
    queries = np.arange(len(pts) // 3, len(pts), dtype=np.int64)
    i, j = index.pairs(queries)
    near = tree.query_ball_point(pts[queries], r)  # each query's neighbours, ascending
    assert i.tolist() == [q for q, row in zip(queries.tolist(), near) for _ in row]
    assert j.tolist() == [x for row in near for x in row]


@pytest.mark.parametrize("k", range(0, 12, 2))
def test_pairs_below_in_four_dimensions_are_the_trees_pairs(k: int) -> None:
    pts, r = _clouds()[k]
    quad = np.hstack([pts, pts[::-1] * 0.5])  # wall-gap's pairs of pairs: 4 coordinates
    want = {tuple(p) for p in cKDTree(quad).query_pairs(r, output_type="ndarray").tolist()}
    got = RadiusIndex(quad, r).pairs_below()
    assert {tuple(p) for p in got.tolist()} == want and len(got) == len(want)


def test_blocks_cover_every_point_once() -> None:
    pts, r = _clouds()[1]
    index = RadiusIndex(pts, r)
    blocks = list(index.blocks(50))
    assert blocks[0][0] == 0 and blocks[-1][1] == len(pts)
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(blocks, blocks[1:]))


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="n x d"):
        RadiusIndex(np.zeros(3), 1.0)
    with pytest.raises(ValueError, match="positive"):
        RadiusIndex(np.zeros((3, 2)), 0.0)
    assert RadiusIndex(np.zeros((0, 2)), 1.0).pairs_below().shape == (0, 2)


def test_pairs_of_pairs_sharing_an_end_are_found_cell_by_cell() -> None:
    """Wall-gap's pairs of pairs: one sample with many partners puts many points in one 4-D
    cell row (a 2-D grid over the first end would have compared them all with each other)."""
    rng = np.random.default_rng(5)
    ends = np.round(rng.random((60, 2)) * 8.0, 1)
    lo = np.repeat(ends[:6], 40, axis=0)  # six samples, forty partners each
    hi = ends[rng.integers(0, 60, len(lo))] + rng.normal(0.0, 0.05, (len(lo), 2))
    quad = np.hstack([lo, hi])
    r = 2.0 * 0.1 * np.sqrt(2.0) + 1e-9
    want = {tuple(p) for p in cKDTree(quad).query_pairs(r, output_type="ndarray").tolist()}
    got = RadiusIndex(quad, r).pairs_below()
    assert {tuple(p) for p in got.tolist()} == want and len(got) == len(want)
