"""``safe-areas`` after wall edits (issue 20: editor feedback within a second after moving a wall on
a 48-length table).  Each sample's share is memoised on the wall parts within the radius of it
(``validators.games.gravstrike.sight_memo``), so a drag recomputes only the samples near the moved
wall.  The memo must not change the statistic ("Custom Arenas": walls must not give
unsurmountable protection): against the straightforward computation it replaced, kept here as
the reference, the same samples, the same shares to 1e-9 and the same findings and metrics, on
the shipped default arena (which declares a symmetry), generated 24- and 48-length tables and a
sequence of edits - a wall moved a little and far, a wall deleted, a wall added across another
(their union's parts merge) and one across the bounds' edge (it merges with the outside).  The
samples recomputed are swept in batches (``validators.games.gravstrike.sight_sweep``): that sweep is
checked against the engine's ``visible_region`` point by point.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
import shapely.affinity

from engine.sight import Blockers, visible_region
from schema import load
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, Wall
from tests.engine.table_arenas import table_arena
from validators.games.gravstrike import sight_memo, sightlines
from validators.games.gravstrike.sightlines import (
    ARC_SEGMENTS,
    SIMPLIFY,
    STEP,
    SafeAreasValidator,
)

ROOT = Path(__file__).resolve().parents[2]


# -- the reference: safe-areas' samples as computed before the memo, every sample from scratch


def _reference_samples(walls_wkb: bytes, bounds_wkb: bytes, floor_wkb: bytes, width: float,
                       radius: float) -> tuple[tuple[float, float, float], ...]:
    floor = shapely.from_wkb(floor_wkb)
    if floor.is_empty:
        return ()
    walls = shapely.from_wkb(walls_wkb)
    walls = walls.simplify(SIMPLIFY) if not walls.is_empty else shapely.Polygon()
    bounds = shapely.from_wkb(bounds_wkb).simplify(SIMPLIFY)
    minx, miny, maxx, maxy = bounds.bounds
    frame = shapely.box(minx - radius - 2.0, miny - radius - 2.0, maxx + radius + 2.0, maxy + radius + 2.0)
    parts = shapely.get_parts(shapely.union(walls, shapely.difference(frame, bounds)))
    tree = shapely.STRtree(parts)
    room = floor.buffer(-width / 2.0)
    shapely.prepare(room)
    minx, miny, maxx, maxy = floor.bounds
    gx = np.arange(minx + STEP / 2.0, maxx, STEP)
    gy = np.arange(miny + STEP / 2.0, maxy, STEP)
    xs, ys = (a.ravel() for a in np.meshgrid(gx, gy))
    keep = shapely.contains_xy(room, xs, ys)
    xs, ys = xs[keep], ys[keep]
    if not len(xs):
        return ()
    points = shapely.points(xs, ys)
    open_area = _reference_open_areas(points, radius, bounds, walls)
    seen = np.array([visible_region((x, y), radius, _reference_local(parts, tree, x, y, radius),
                                    arc_segments=ARC_SEGMENTS).area for x, y in zip(xs.tolist(), ys.tolist())])
    share = np.where(open_area > 0, np.minimum(seen / np.where(open_area > 0, open_area, 1.0), 1.0), 1.0)
    return tuple(zip(xs.tolist(), ys.tolist(), share.tolist()))


def _reference_local(parts: np.ndarray, tree: Any, x: float, y: float, radius: float) -> Blockers:
    window = shapely.box(x - radius - 1.0, y - radius - 1.0, x + radius + 1.0, y + radius + 1.0)
    near = np.sort(tree.query(window))
    if not len(near):
        return Blockers(walls=shapely.Polygon())
    return Blockers(walls=parts[near[0]] if len(near) == 1 else shapely.multipolygons(parts[near]))


def _reference_open_areas(points: np.ndarray, radius: float, bounds: Any, walls: Any) -> np.ndarray:
    disks = shapely.buffer(points, radius, quad_segs=ARC_SEGMENTS // 4)
    shapely.prepare(bounds)
    area: np.ndarray = shapely.area(disks)
    clipped = ~shapely.contains(bounds, disks)
    area[clipped] = shapely.area(shapely.intersection(disks[clipped], bounds))
    inside_walls = shapely.intersection(walls, bounds) if not walls.is_empty else walls
    for part in getattr(inside_walls, "geoms", [inside_walls]):
        if part.is_empty or part.area <= 0:
            continue
        near = shapely.distance(part, points) < radius
        whole = near & shapely.contains(disks, part)
        area[whole] -= part.area
        partial = near & ~whole
        area[partial] -= shapely.area(shapely.intersection(disks[partial], part))
    return area


_reference = lru_cache(maxsize=None)(_reference_samples)


# -- helpers


def _inputs(arena: Arena) -> tuple[bytes, bytes, bytes, float, float]:
    """What SafeAreasValidator.evaluate hands to ``_samples``."""
    floor = arena.bounds_geometry()
    if arena.walls:
        floor = floor.difference(arena.walls_geometry())
    walls = arena.walls_geometry() if arena.walls else shapely.Polygon()
    return (shapely.to_wkb(walls), shapely.to_wkb(arena.bounds_geometry()), shapely.to_wkb(floor),
            arena.turbine.width, arena.scenario.analysis.safe_area_radius)


@pytest.fixture
def recomputed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The number of samples each run of ``_samples`` recomputed (memo misses), the memo and the
    whole-result cache emptied first."""
    sight_memo.clear()
    sightlines._samples.cache_clear()
    counts: list[int] = []
    real = sight_memo._compute

    def spy(xs: np.ndarray, *args: Any) -> np.ndarray:
        counts[-1] += len(xs)
        return real(xs, *args)

    monkeypatch.setattr(sight_memo, "_compute", spy)
    yield counts
    sight_memo.clear()
    sightlines._samples.cache_clear()


def _check(arena: Arena, counts: list[int], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The validator on ``arena`` against the reference: the same samples, shares within 1e-9,
    the same findings and metrics.  Returns (samples, samples recomputed)."""
    counts.append(0)
    result = SafeAreasValidator().evaluate(arena, None)
    got = sightlines._samples(*_inputs(arena))  # the run's own result (whole-result cache)
    ref = _reference(*_inputs(arena))
    assert [s[:2] for s in got] == [s[:2] for s in ref]
    if ref:
        assert max(abs(a[2] - b[2]) for a, b in zip(got, ref)) <= 1e-9
    with monkeypatch.context() as m:
        m.setattr(sightlines, "_samples", _reference)
        expected = SafeAreasValidator().evaluate(arena, None)
    assert result.findings == expected.findings
    assert result.metrics == expected.metrics
    return len(ref), counts[-1]


def _with_walls(arena: Arena, walls: list[Wall]) -> Arena:
    return dataclasses.replace(arena, walls=tuple(walls))


def _moved(wall: Wall, dx: float, dy: float) -> Wall:
    shape: Any = wall.shape
    x, y = shape.center
    return dataclasses.replace(wall, shape=dataclasses.replace(shape, center=(x + dx, y + dy)))


# -- the tests


def test_memo_gives_the_reference_on_the_default_arena_and_a_48_table_after_a_wall_drag(
        recomputed: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Cold, then wall W1 moved 0.1 length (the editor's drag): the same report, and on the
    48-length table only the samples within the radius of W1 are recomputed."""
    default = load(ROOT / "arenas" / "default.yaml")
    assert default.symmetry is not None
    n, again = _check(default, recomputed, monkeypatch)
    assert n and again == n
    _check(_with_walls(default, [_moved(default.walls[0], 0.1, 0.0), *default.walls[1:]]), recomputed, monkeypatch)
    table = table_arena(48, 1)
    n, again = _check(table, recomputed, monkeypatch)
    assert again == n
    n, again = _check(_with_walls(table, [_moved(table.walls[0], 0.1, 0.0), *table.walls[1:]]), recomputed, monkeypatch)
    assert 0 < again < n / 5


def test_memo_gives_the_reference_through_a_sequence_of_wall_edits(recomputed: list[int],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 24-length table (W1 and W12 overlap: one part): W1 moved a little, then far; W2
    deleted; a bar added across W4 (their parts merge); a bar across the bounds' east edge (it
    merges with the outside), then moved a little; a checkpoint moved (no wall: nothing is
    recomputed)."""
    arena = table_arena(24, 1)
    walls = list(arena.walls)
    assert walls[0].shape.to_shapely().intersects(walls[11].shape.to_shapely())
    n, again = _check(arena, recomputed, monkeypatch)
    assert again == n
    steps = []
    walls[0] = _moved(walls[0], 0.1, 0.0)
    steps.append(list(walls))
    walls[0] = _moved(walls[0], -11.0, -4.0)
    steps.append(list(walls))
    del walls[1]
    steps.append(list(walls))
    assert walls[2].id == "W4"
    walls.append(Wall("W21", Rect((-4.2, -3.522), (2.2, 0.4))))
    assert walls[-1].shape.to_shapely().intersects(walls[2].shape.to_shapely())
    steps.append(list(walls))
    walls.append(Wall("W22", Rect((11.8, -8.0), (2.0, 0.5), 30.0)))
    steps.append(list(walls))
    walls[-1] = _moved(walls[-1], 0.0, 0.1)
    steps.append(list(walls))
    walls.append(Wall("W23", Circle((0.0, 0.0), 0.6)))
    steps.append(list(walls))
    for step in steps:
        arena = _with_walls(arena, step)
        _, again = _check(arena, recomputed, monkeypatch)
        assert again > 0
    cp = arena.checkpoints[0]
    cp_shape: Any = cp.shape
    moved_cp = dataclasses.replace(cp, shape=dataclasses.replace(cp_shape, center=(0.5, 0.5)))
    _, again = _check(dataclasses.replace(arena, checkpoints=(moved_cp, *arena.checkpoints[1:])), recomputed, monkeypatch)
    assert again == 0


def test_memo_is_bounded() -> None:
    """The memo keeps at most CACHE_ENTRIES shares, dropping the least recently used."""
    sight_memo.clear()
    xs = np.arange(0.0, 40.0, 1.0) - 19.5
    bounds = shapely.box(-20, -20, 20, 20)
    try:
        old = sight_memo.CACHE_ENTRIES
        sight_memo.CACHE_ENTRIES = 25
        sight_memo.shares(xs, np.zeros(len(xs)), 10.0, shapely.Polygon(), bounds, ARC_SEGMENTS)
        assert len(sight_memo._cache) == 25
        assert min(k[0] for k in sight_memo._cache) == xs[-25]  # the last 25 computed stay
    finally:
        sight_memo.CACHE_ENTRIES = old
        sight_memo.clear()


def _random_walls(rng: np.random.Generator, count: int) -> Any:
    shapes = []
    for _ in range(count):
        x, y = rng.uniform(-13, 13, 2)
        kind = rng.integers(3)
        if kind == 0:  # a bar at any angle
            bar = shapely.box(-rng.uniform(0.5, 2.5), -0.2, rng.uniform(0.5, 2.5), 0.2)
            shapes.append(shapely.affinity.translate(shapely.affinity.rotate(bar, rng.uniform(0, 180)), x, y))
        elif kind == 1:  # a circle, as the schema polygonises it
            shapes.append(shapely.Point(x, y).buffer(rng.uniform(0.2, 1.2)))
        else:  # a concave L with a hole
            ell = shapely.Polygon([(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)],
                                  [[(0.2, 0.2), (0.6, 0.2), (0.6, 0.6), (0.2, 0.6)]])
            shapes.append(shapely.affinity.translate(shapely.affinity.rotate(ell, rng.uniform(0, 360)), x, y))
    return shapely.union_all(shapes)


def test_batched_sweep_gives_the_engine_area() -> None:
    """validators.games.gravstrike.sight_sweep.visible_areas (the batched sweep safe-areas uses for the
    points clear of every feature) against engine.visibility.visible_region point by point: random
    bars, circles and holed concave walls in a square or a hexagon, and points with a vertex
    straight along one of the circle's even directions, on the line of an edge, and a wall
    grazing the circle."""
    from engine.blockers import edges
    from validators.games.gravstrike.sight_sweep import visible_areas

    rng = np.random.default_rng(20)
    radius = 10.0
    hexagon = shapely.Polygon([(14 * np.cos(k * np.pi / 3), 14 * np.sin(k * np.pi / 3)) for k in range(6)])
    for trial in range(8):
        bounds = shapely.box(-15, -15, 15, 15) if trial % 2 else hexagon
        walls = _random_walls(rng, 12).intersection(bounds.buffer(2.0))
        if trial == 0:  # a vertex due east of (0, 0); an edge whose line passes through it; a grazing wall
            walls = shapely.union_all([shapely.box(-1, -6, 1, -4), shapely.box(5, 0, 6, 1), shapely.box(-9, 1, -7, 2),
                                       shapely.box(-2, radius, 2, radius + 1)])
        frame = shapely.difference(shapely.box(-40, -40, 40, 40), bounds)
        p0, p1 = edges(shapely.union(walls, frame))
        free = shapely.difference(bounds, walls.buffer(0.05))
        xs, ys = rng.uniform(-14, 14, 200), rng.uniform(-14, 14, 200)
        inside = shapely.contains_xy(free, xs, ys)
        origins = np.stack([xs[inside][:25], ys[inside][:25]], axis=1)
        if trial == 0:
            origins = np.vstack([[[0.0, 0.0], [-3.0, 1.0], [0.0, 0.5]], origins])
        m = len(origins)
        owner = np.repeat(np.arange(m), len(p0))
        got = visible_areas(origins, radius, np.tile(p0, (m, 1)), np.tile(p1, (m, 1)), owner, ARC_SEGMENTS)
        for (x, y), area in zip(origins.tolist(), got.tolist()):
            ref = visible_region((x, y), radius, Blockers(walls=walls, bounds=bounds), arc_segments=ARC_SEGMENTS).area
            assert abs(area - ref) <= 1e-9 * max(1.0, ref), (trial, x, y)


def test_points_on_or_in_a_feature_get_the_engine_answer() -> None:
    """Points that the batched sweep leaves to the engine - on a wall's edge, inside a wall,
    1e-6 or 5e-8 from one, outside the bounds - get what the reference computes for them, as do their
    neighbours in the open."""
    walls = shapely.union_all([shapely.box(-1, -1, 1, 1), shapely.Point(5, 5).buffer(1.0)])
    bounds = shapely.box(-12, -12, 12, 12)
    xs = np.array([1.0, 0.0, 1.0 + 1e-6, 1.0 + 5e-8, -12.5, 3.0, -6.0, 11.99])
    ys = np.array([0.3, 0.0, 0.0, 0.0, 0.0, 3.0, -6.0, -11.99])
    got = sight_memo.shares(xs, ys, 10.0, walls, bounds, ARC_SEGMENTS, cache=False)
    open_area = _reference_open_areas(shapely.points(xs, ys), 10.0, bounds, walls)
    for i, (x, y) in enumerate(zip(xs.tolist(), ys.tolist())):
        seen = visible_region((x, y), 10.0, Blockers(walls=walls, bounds=bounds), arc_segments=ARC_SEGMENTS).area
        expected = min(seen / open_area[i], 1.0) if open_area[i] > 0 else 1.0
        assert abs(got[i] - expected) <= 1e-9, (x, y, got[i], expected)
    assert got[1] == 0.0 and got[4] == 0.0  # inside a wall, outside the bounds: sees nothing
