"""The raster's polygon classification (:meth:`engine.gravstrike.raster.Raster.classify`) is exact
for the cell centres: a cell is certainly inside when its centre lies inside the region and
farther than the half diagonal from its boundary, maybe when not that and inside or within the
half diagonal (and the slack) of the boundary - checked against shapely's own point-in-polygon
and point-to-boundary distance on every centre of the box, on random polygons and on the free and
zone regions of the default arena's heading spaces."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, MultiPolygon, Polygon, box
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.raster import Raster

#: Cells whose centre's distance lies this close to a threshold are left out of the comparison.
EPS = 1e-9


class _Bounds:
    def __init__(self, minx: float, miny: float, maxx: float, maxy: float) -> None:
        self.bounds = box(minx, miny, maxx, maxy)


def _raster(size: float = 10.0) -> Raster:
    return Raster(_Bounds(-size, -size, size, size), margin=1.0)  # type: ignore[arg-type]


def _reference(raster: Raster, geom: BaseGeometry, box_: tuple[float, float, float, float] | None,
               slack: float) -> tuple[set[int], set[int], set[int]]:
    """(certain, maybe, doubtful) cells of ``box_`` (``classify``'s default box without one),
    from shapely: ``contains_xy`` and the distance to the boundary of every centre."""
    if box_ is None:
        b = geom.bounds
        m = raster.cell + slack
        box_ = (b[0] - m, b[1] - m, b[2] + m, b[3] + m)
    idx, xs, ys = raster.centres(box_)
    inside = shapely.contains_xy(geom, xs, ys)
    d = shapely.distance(geom.boundary, shapely.points(xs, ys))
    hd = raster.half_diagonal
    certain = inside & (d > hd)
    maybe = ~certain & (inside | (d <= hd + slack))
    doubt = (np.abs(d - hd) <= EPS) | (np.abs(d - hd - slack) <= EPS)
    return set(idx[certain].tolist()), set(idx[maybe].tolist()), set(idx[doubt].tolist())


def _check(raster: Raster, geom: BaseGeometry, box_: tuple[float, float, float, float] | None = None,
           slack: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    inside, maybe = raster.classify(geom, box_, slack)
    for got in (inside, maybe):
        assert got.dtype == np.int64
        assert np.all(np.diff(got) > 0)  # ascending, no repeats
    want_in, want_maybe, doubt = _reference(raster, geom, box_, slack)
    assert set(inside.tolist()) - doubt == want_in - doubt
    assert set(maybe.tolist()) - doubt == want_maybe - doubt
    return inside, maybe


def _star(rng: np.random.Generator, cx: float, cy: float, r: float, n: int, snap: Raster | None = None) -> Polygon:
    """A random star-shaped (non-convex) polygon; ``snap``: its vertices on the raster's cell
    centres and corners (edges through centres, vertices on the columns' x)."""
    ang = np.sort(rng.uniform(0.0, 2.0 * np.pi, n))
    rad = r * rng.uniform(0.3, 1.0, n)
    x, y = cx + rad * np.cos(ang), cy + rad * np.sin(ang)
    if snap is not None:
        h = snap.cell / 2.0
        x = snap.x0 + np.round((x - snap.x0) / h) * h
        y = snap.y0 + np.round((y - snap.y0) / h) * h
    return shapely.make_valid(Polygon(np.column_stack([x, y])))  # type: ignore[no-any-return]


def _random_geometry(seed: int, raster: Raster) -> BaseGeometry:
    rng = np.random.default_rng(seed)
    kind = seed % 6
    cx, cy = rng.uniform(-3.0, 3.0, 2)
    if kind == 0:  # convex
        return shapely.convex_hull(shapely.multipoints(rng.uniform(-2.0, 2.0, (12, 2)) + (cx, cy)))
    if kind == 1:  # non-convex
        return _star(rng, cx, cy, 3.0, int(rng.integers(5, 40)))
    if kind == 2:  # with holes
        outer = _star(rng, cx, cy, 4.0, 30)
        holes = [_star(rng, cx + dx, cy + dy, 0.8, 8) for dx, dy in rng.uniform(-1.5, 1.5, (3, 2))]
        return outer.difference(shapely.union_all(holes))
    if kind == 3:  # multipolygon, one part with a hole
        a = _star(rng, cx - 2.5, cy, 2.0, 15)
        b = box(cx + 0.5, cy - 2.0, cx + 3.0, cy + 2.0).difference(_star(rng, cx + 1.7, cy, 0.7, 7))
        return shapely.union(a, b)
    if kind == 4:  # vertices on cell centres and corners, edges along centre lines
        return shapely.union(_star(rng, cx, cy, 3.0, 20, snap=raster),
                             box(raster.x0 + 40 * raster.cell, raster.y0 + 50.5 * raster.cell,
                                 raster.x0 + 60.5 * raster.cell, raster.y0 + 70 * raster.cell))
    # round offsets: many short edges, reflex corners
    return _star(rng, cx, cy, 3.0, 10).buffer(float(rng.uniform(0.05, 0.4))).difference(
        _star(rng, cx, cy, 1.0, 6).buffer(0.1))


@pytest.mark.parametrize("seed", range(30))
def test_random_polygons_match_shapely(seed: int) -> None:
    raster = _raster()
    geom = _random_geometry(seed, raster)
    assert not geom.is_empty and geom.geom_type in ("Polygon", "MultiPolygon")
    slack = (0.0, 2e-4, 0.05, 0.3)[seed % 4]
    inside, maybe = _check(raster, geom, slack=slack)
    assert len(inside) > 0 and len(maybe) > 0
    b = geom.bounds  # a box cutting through the region
    _check(raster, geom, (b[0] + 0.7, b[1] - 0.2, (b[0] + b[2]) / 2.0, b[3] - 0.9), slack)


def test_multipolygon_line_and_point_parts() -> None:
    raster = _raster()
    geom = MultiPolygon([box(0.03, 0.04, 1.57, 0.98), box(2.0, -1.0, 2.6, 2.0)])
    _check(raster, geom)
    inside, maybe = raster.classify(LineString([(0.0, 0.0), (1.234, 0.77)]))  # a line is all boundary
    idx, xs, ys = raster.centres()
    d = shapely.distance(LineString([(0.0, 0.0), (1.234, 0.77)]), shapely.points(xs, ys))
    assert len(inside) == 0 and set(maybe.tolist()) == set(idx[d <= raster.half_diagonal].tolist())
    assert [len(a) for a in raster.classify(Polygon())] == [0, 0]


def test_certain_cells_lie_inside_whole() -> None:
    """A certainly-inside cell needs no exact test: its four corners (and the whole square) lie
    in the region, reflex corners included (which buffered polygons only approximated)."""
    raster = _raster()
    rng = np.random.default_rng(11)
    for seed in range(30):
        geom = _random_geometry(seed, raster)
        inside, _ = raster.classify(geom)
        cells = rng.choice(inside, min(len(inside), 300), replace=False)
        i, j = cells // raster.ny, cells % raster.ny
        x0, y0 = raster.x0 + i * raster.cell, raster.y0 + j * raster.cell
        for dx in (0.0, raster.cell):
            for dy in (0.0, raster.cell):
                assert shapely.contains_xy(geom, x0 + dx, y0 + dy).all(), seed
        assert shapely.contains(geom, shapely.box(x0, y0, x0 + raster.cell, y0 + raster.cell)).all(), seed


@pytest.fixture(scope="module")
def default_spaces() -> list[tuple[Raster, BaseGeometry, float]]:
    """(raster, region, slack) of the free and zone regions of the default arena's heading spaces."""
    from engine.gravstrike.cspace import CIRCLE_SLACK
    from engine.gravstrike.planner import Planner
    from schema import load

    arena = load(Path(__file__).resolve().parents[2] / "arenas" / "default.yaml")
    planner = Planner(arena, minimise="time", quantum=0.25)
    out: list[tuple[Raster, BaseGeometry, float]] = []
    seen: set[int] = set()
    for base in (0.0, 7.3):
        for hs in planner.lattice(base).spaces:
            if id(hs) in seen:
                continue
            seen.add(id(hs))
            slack = CIRCLE_SLACK * max((c[2] for c in hs.wall_circles), default=0.0)
            out.append((hs.raster, hs.free, slack))
            out.extend((hs.raster, z, 0.0) for z in hs.zones)
    return out


def test_default_arena_regions_match_shapely(default_spaces: list[tuple[Raster, BaseGeometry, float]]) -> None:
    assert len(default_spaces) > 20
    for raster, geom, slack in default_spaces:
        _check(raster, geom, slack=slack)
    free = [(r, g, s) for r, g, s in default_spaces if s > 0.0]
    assert free and all(math.isfinite(s) for _, _, s in free)
