"""The compiled exact tests (:func:`engine.gravstrike.kernels.resolve_exact`, issues 19 and 20) decide
what the raster can't - a centre on a mixed cell, a zone a cell only maybe meets - as GEOS does:
on the cells where the exact test matters (every mixed cell and every cell with a possible zone bit
of the lattice, at every heading), random centres get the same free flag and the same zone bits
from the kernel as from :meth:`engine.gravstrike.lattice.HeadingLattice.resolve`'s shapely tests.
Arenas: a placement of the default arena (circular walls, circular fields, polygonal start zones),
a generated table, and oracle arenas (polygonal fields and exclusion fields)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from engine.gravstrike import kernels
from engine.gravstrike.cspace import MIXED
from engine.gravstrike.planner import Planner
from engine.gravstrike.strips import StripIndex, inside
from schema import load
from tests.engine.arenas import small_arena
from tests.engine.table_arenas import table_arena
from validators.robustness import hook_of, sample_arena

pytest.importorskip("numba")


def _placement() -> object:
    arena = load("arenas/default.yaml")
    hook = hook_of(arena)
    return sample_arena(arena, 0, 3, hook.tolerance(arena))[0]


def _centres(lat: object, k: int, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Random centres on the mixed cells and the cells with possible zone bits of heading ``k``."""
    row = k % lat.rows  # type: ignore[attr-defined]
    r = lat.raster  # type: ignore[attr-defined]
    cells = np.flatnonzero((lat.status[row] == MIXED) | (lat.maybe[row] != 0))  # type: ignore[attr-defined]
    pick = rng.choice(cells, size=min(n, len(cells)), replace=False)
    x = r.x0 + (pick // r.ny + rng.random(len(pick))) * r.cell
    y = r.y0 + (pick % r.ny + rng.random(len(pick))) * r.cell
    return x, y


@pytest.mark.parametrize("which", ["placement", "table", "oracle-3", "oracle-7", "oracle-10"])
def test_compiled_exact_tests_decide_as_geos(which: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if which == "placement":
        arena, base, tier = _placement(), None, 1
    elif which == "table":
        arena, base, tier = table_arena(20, 3), None, 1
    else:
        arena, base, tier = small_arena(int(which.split("-")[1]))[0], None, 3
    planner = Planner(arena, tier=tier, quantum=0.25, minimise="time")  # type: ignore[arg-type]
    heading = base if base is not None else arena.start_positions[0].facing  # type: ignore[attr-defined]
    lat = planner.lattice(heading)
    rng = np.random.default_rng(7)
    xs, ys, hks = [], [], []
    for k in range(12):
        x, y = _centres(lat, k, rng, 600)
        xs.append(x)
        ys.append(y)
        hks.append(np.full(len(x), k, dtype=np.int64))
    x, y, hk = np.concatenate(xs), np.concatenate(ys), np.concatenate(hks)
    monkeypatch.setenv("ARENA_STUDIO_JIT", "0")
    free_geos, zones_geos = lat.probe(x, y, hk)
    monkeypatch.setenv("ARENA_STUDIO_JIT", "1")
    assert kernels.active(1) is not None
    free_kern, zones_kern = lat.probe(x, y, hk)
    assert np.array_equal(free_kern, free_geos)
    assert np.array_equal(zones_kern, zones_geos)
    # the sample does test both ways: mixed centres found free and blocked, possible bits met and not
    c, _ = lat.cells(x, y)
    mixed = lat.status[hk % lat.rows, c] == MIXED
    assert free_geos[mixed].any() and not free_geos[mixed].all()
    maybe = lat.maybe[hk % lat.rows, c] & np.where(free_geos, ~np.uint64(0), np.uint64(0))
    decided = maybe & zones_geos
    assert (decided != 0).any() and (decided != maybe).any()


def test_strip_index_counts_crossings_as_geos_on_random_polygons() -> None:
    """Even-odd ray tests through the strips agree with ``shapely.contains_xy`` on polygons with
    holes and multipolygons, points below and above every strip included."""
    rng = np.random.default_rng(11)
    regions = []
    for _ in range(6):
        blobs = [shapely.Point(rng.uniform(-5, 5, 2)).buffer(rng.uniform(0.5, 3), quad_segs=3) for _ in range(4)]
        shape = shapely.union_all(blobs).difference(shapely.Point(rng.uniform(-3, 3, 2)).buffer(0.8))
        regions.append(shape)
    idx = StripIndex(regions, y0=-4.0, height=0.3, count=20)  # the strips stop short of the shapes' extent
    px, py = rng.uniform(-9, 9, 3000), rng.uniform(-9, 9, 3000)
    for r, shape in enumerate(regions):
        want = shapely.contains_xy(shape, px, py)
        got = np.array([inside(idx.edges, idx.offsets, idx.order, r, idx.y0, idx.height, a, b) for a, b in zip(px, py)])
        assert np.array_equal(got, want)


def test_a_moved_start_zone_is_tested_where_it_now_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """After :meth:`Planner.retarget` moves a start (a polygonal zone), the kernel's regions are
    made again: its zone bit is decided as GEOS decides it at the new place, not the old."""
    import dataclasses

    monkeypatch.setenv("ARENA_STUDIO_JIT", "1")
    assert kernels.active(1) is not None
    arena = _placement()
    planner = Planner(arena, quantum=0.25, minimise="time")  # type: ignore[arg-type]
    lat = planner.lattice(arena.start_positions[0].facing)  # type: ignore[attr-defined]
    rng = np.random.default_rng(3)
    x, y = _centres(lat, 0, rng, 3000)
    hk = np.zeros(len(x), dtype=np.int64)
    lat.probe(x, y, hk)  # the kernel's regions made for the old place
    moved = dataclasses.replace(arena, start_positions=tuple(  # type: ignore[arg-type]
        dataclasses.replace(s, position=(s.position[0] + 0.7, s.position[1] - 0.4)) if s.player == 1 else s
        for s in arena.start_positions))  # type: ignore[attr-defined]
    assert planner.retarget(moved)
    x, y = _centres(lat, 0, rng, 3000)
    _, zones_kern = lat.probe(x, y, hk)
    monkeypatch.setenv("ARENA_STUDIO_JIT", "0")
    _, zones_geos = lat.probe(x, y, hk)
    assert np.array_equal(zones_kern, zones_geos)
    bit = np.uint64(1 << planner.goal_zone[next(g for g in planner.goal_zone if g.kind == "start" and g.id.endswith("1"))])
    assert ((zones_geos & bit) != 0).sum() > 20
