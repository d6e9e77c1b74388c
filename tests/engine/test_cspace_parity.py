"""Parity of the configuration-space build (:meth:`engine.gravstrike.cspace.CSpace.heading`) with
the plain per-shape, per-zone construction it was sped up from (kept here as the reference):
shapely's hull of each part / edge per call (:func:`_minkowski_reference`), one raster
classification per region (:meth:`Raster.classify`, :meth:`Raster.classify_circle`).  The raster
arrays must be byte-identical and the regions exactly equal (same vertices, same order), at many
random headings on the Gravstrike arenas and on perturbed placements of the default one."""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import (
    GeometryCollection,
    LineString,
    MultiPoint,
    MultiPolygon,
    Point,
    Polygon,
    box,
)
from shapely.geometry.base import BaseGeometry

from engine.gravstrike.cspace import (
    BLOCKED,
    CIRCLE_SLACK,
    FREE,
    MAX_BIT_ZONES,
    MIXED,
    CSpace,
    ZoneSpec,
    rect_offsets,
)
from engine.gravstrike.geometry import TOLERANCE
from engine.gravstrike.msum import Summand, minkowski, minkowski_many
from engine.gravstrike.placement_error import perturb, tolerance
from engine.gravstrike.planner import Planner
from schema import load
from schema.games.gravstrike.model import Arena

ROOT = Path(__file__).resolve().parents[2]
ARENAS = ["arenas/default.yaml", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "arenas" / "examples").glob("*.yaml"))]


def _parts(geom: BaseGeometry) -> list[BaseGeometry]:
    if hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in _parts(g)]
    return [geom]


def _minkowski_reference(geom: BaseGeometry, offsets: list[tuple[float, float]]) -> BaseGeometry:
    """The sum as first written: one multipoint hull per point / convex part / edge, each made
    by its own shapely call, then their union."""
    off = np.asarray(offsets, dtype=float)
    pieces: list[BaseGeometry] = []
    for part in _parts(geom):
        if part.is_empty:
            continue
        if part.geom_type == "Point":
            pieces.append(shapely.convex_hull(shapely.multipoints(np.array([[part.x, part.y]]) + off)))
            continue
        if part.geom_type == "Polygon" and abs(part.convex_hull.area - part.area) <= 1e-9 * max(1.0, part.area):
            pts = np.asarray(part.exterior.coords)[:, None, :] + off[None, :, :]
            pieces.append(shapely.convex_hull(shapely.multipoints(pts.reshape(-1, 2))))
            continue
        rings: list[np.ndarray] = []
        if part.geom_type == "Polygon":
            pieces.append(part)
            rings.append(np.asarray(part.exterior.coords))
            rings.extend(np.asarray(r.coords) for r in part.interiors)
        else:
            rings.append(np.asarray(part.coords))
        for ring in rings:
            ends = np.concatenate([ring[:-1, None, :] + off[None, :, :], ring[1:, None, :] + off[None, :, :]], axis=1)
            pieces.extend(shapely.convex_hull(shapely.multipoints(ends)).tolist())
    if not pieces:
        return Polygon()
    return shapely.union_all(pieces)


def _reference_space(cs: CSpace, key: float) -> dict[str, object]:
    """What a heading space holds, built region by region and zone by zone."""
    hl_s, hw_s = cs.half_length - TOLERANCE, cs.half_width - TOLERANCE
    hl_g, hw_g = cs.half_length + TOLERANCE, cs.half_width + TOLERANCE
    shrunk, grown = rect_offsets(hl_s, hw_s, key), rect_offsets(hl_g, hw_g, key)
    bounds = cs.geometry.bounds
    blocked = shapely.union_all([_minkowski_reference(cs.ring, shrunk), _minkowski_reference(cs.walls, shrunk)])
    base = bounds.difference(blocked)
    free = base if cs.circle_walls is None else bounds.difference(
        shapely.union(blocked, _minkowski_reference(cs.circle_walls, shrunk)))
    zones = [_minkowski_reference(z.geometry, shrunk if z.overlap else grown) for z in cs.zones]
    r = cs.raster
    status = np.full(r.nx * r.ny, BLOCKED, dtype=np.uint8)
    inside, maybe = r.classify(free, slack=CIRCLE_SLACK * max((c[2] for c in cs.wall_circles), default=0.0))
    status[inside], status[maybe] = FREE, MIXED
    sure_bits = np.zeros(r.nx * r.ny, dtype=np.uint64)
    maybe_bits = np.zeros(r.nx * r.ny, dtype=np.uint64)
    extra: dict[int, list[tuple[int, bool]]] = {}
    for z, spec in enumerate(cs.zones):
        if spec.circle is None:
            inside, maybe = r.classify(zones[z])
        else:
            hl, hw = (hl_s, hw_s) if spec.overlap else (hl_g, hw_g)
            inside, maybe = r.classify_circle(spec.circle, hl, hw, key)
        if z < MAX_BIT_ZONES:
            sure_bits[inside] |= np.uint64(1 << z)
            maybe_bits[maybe] |= np.uint64(1 << z)
        else:
            for c in inside.tolist():
                extra.setdefault(c, []).append((z, True))
            for c in maybe.tolist():
                extra.setdefault(c, []).append((z, False))
    return {"status": status, "sure": sure_bits, "maybe": maybe_bits, "free": free, "base": base, "zones": zones,
            "extra": {c: tuple(v) for c, v in extra.items()}}


def _same_geometry(a: BaseGeometry, b: BaseGeometry) -> bool:
    return a.geom_type == b.geom_type and bool(a.equals_exact(b, 0.0)) and shapely.to_wkb(a) == shapely.to_wkb(b)


def _assert_parity(cs: CSpace, headings: list[float]) -> None:
    for h in headings:
        hs = cs.heading(h)
        ref = _reference_space(cs, hs.heading)
        assert hs.status_array.tobytes() == ref["status"].tobytes(), h  # type: ignore[attr-defined]
        assert hs.status == ref["status"].tobytes(), h  # type: ignore[attr-defined]
        assert hs.sure_bits.tobytes() == ref["sure"].tobytes(), h  # type: ignore[attr-defined]
        assert hs.maybe_bits.tobytes() == ref["maybe"].tobytes(), h  # type: ignore[attr-defined]
        assert hs.extra == ref["extra"], h
        assert _same_geometry(hs.free, ref["free"]), h  # type: ignore[arg-type]
        assert _same_geometry(hs.free_base, ref["base"]), h  # type: ignore[arg-type]
        for z, region in enumerate(ref["zones"]):  # type: ignore[arg-type]
            assert _same_geometry(hs.zones[z], region), (h, z)


def _arenas() -> list[tuple[str, Arena]]:
    out = [(name, load(ROOT / name)) for name in ARENAS]
    default = out[0][1]
    out += [(f"default, placement {k}", perturb(default, np.random.default_rng(k), tolerance(default))[0]) for k in range(3)]
    return out


@pytest.mark.parametrize("name, arena", _arenas(), ids=lambda v: v if isinstance(v, str) else "")
def test_heading_spaces_match_the_reference(name: str, arena: Arena) -> None:
    planner = Planner(arena, tier=3)  # exclusion fields active: overlap zones (shrunk footprint)
    assert planner.n_excl or "default" in name
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    headings = [0.0, 30.0, 90.0, 359.9999999, *rng.uniform(0.0, 360.0, 12).round(6).tolist(), *rng.uniform(0.0, 360.0, 4).tolist()]
    _assert_parity(planner.cspace, headings)


def test_lattice_spaces_match_the_reference() -> None:
    """The spaces of lattices (built as a robustness placement builds them) on a perturbed table."""
    default = load(ROOT / "arenas" / "default.yaml")
    arena = perturb(default, np.random.default_rng(11), tolerance(default))[0]
    planner = Planner(arena, minimise="time")
    for base in np.random.default_rng(3).uniform(0.0, 30.0, 3).tolist():
        lat = planner.lattice(base)  # its spaces built together (CSpace.prepare)
        _assert_parity(planner.cspace, lat.headings)
        one_by_one = Planner(arena, minimise="time").cspace
        alone = [one_by_one.heading(h) for h in lat.headings]
        # the same headings share a space (h and h + 180) as when built one by one
        assert [[a is b for b in lat.spaces] for a in lat.spaces] == [[a is b for b in alone] for a in alone]
        assert [hs.heading for hs in lat.spaces] == [hs.heading for hs in alone]
        assert lat.rows == 6
        for k, hs in enumerate(lat.spaces):
            assert lat.status[k % lat.rows].tobytes() == hs.status_array.tobytes()
            assert lat.sure[k % lat.rows].tobytes() == hs.sure_bits.tobytes()


def test_replaced_zone_matches_the_reference() -> None:
    """A zone swapped for another shape is summed from the new shape, at built and new headings."""
    planner = Planner(load(ROOT / "arenas" / "default.yaml"))
    cs = planner.cspace
    _assert_parity(cs, [17.25, 101.5])
    z = next(i for i, spec in enumerate(cs.zones) if spec.circle is None)
    cs.replace_zone(z, ZoneSpec(cs.zones[z].kind, cs.zones[z].id, Polygon([(1, 1), (3, 1.5), (2, 3), (1.5, 2.2)])))
    _assert_parity(cs, [17.25, 101.5, 233.75])


_SHAPES = [
    Polygon([(0, 0), (4, 0), (4, 1), (1, 1), (1, 3), (0, 3)]),  # non-convex
    Polygon([(0, 0), (6, 0), (6, 6), (0, 6)], [[(2, 2), (4, 2), (4, 4), (2, 4)]]),  # a hole
    MultiPolygon([box(0, 0, 1, 1), Polygon([(3, 0), (5, 0), (4, 0.5), (5, 2), (3, 2)])]),
    LineString([(0, 0), (2, 1), (3, 3)]),
    Point(1.5, -2.0),
    MultiPoint([(0, 0), (1, 1), (1, 1)]),
    GeometryCollection([Point(4, 4), box(0, 0, 1, 2), LineString([(5, 5), (6, 5)])]),
    Polygon(),
    shapely.Point(0, 0).buffer(1.3, quad_segs=32),
]


@pytest.mark.parametrize("shape", _SHAPES, ids=lambda g: g.geom_type)
def test_minkowski_matches_the_reference(shape: BaseGeometry) -> None:
    rng = np.random.default_rng(7)
    for h in rng.uniform(0.0, 360.0, 6).tolist():
        for offsets in (rect_offsets(0.5, 0.25, h), rect_offsets(1.0 + 1e-6, 0.25, h), [(0.0, 0.0)],
                        [(0.3, 0.0), (-0.3, 0.0)], [(0.4, 0.1), (-0.2, 0.3), (-0.1, -0.4)]):
            assert _same_geometry(minkowski(shape, offsets), _minkowski_reference(shape, offsets))
    # many shapes summed together: each as it would be alone
    offs = [rect_offsets(0.5, 0.25, 10.0 * k) for k in range(len(_SHAPES))]
    got = minkowski_many([(Summand(g), o) for g, o in zip(_SHAPES, offs)])
    for g, o, m in zip(_SHAPES, offs, got):
        assert _same_geometry(m, _minkowski_reference(g, o))


class _Bounds:
    def __init__(self, minx: float, miny: float, maxx: float, maxy: float) -> None:
        self.bounds = box(minx, miny, maxx, maxy)


def _random_polygon(rng: np.random.Generator) -> BaseGeometry:
    cx, cy = rng.uniform(-9.5, 9.5, 2)  # some reach past the table: their boxes are clipped to the grid
    n = int(rng.integers(3, 12))
    angles = np.sort(rng.uniform(0.0, 2.0 * np.pi, n))
    radius = rng.uniform(0.05, 4.0) * rng.uniform(0.3, 1.0, n)  # long edges are cut into pieces
    poly = Polygon(np.stack([cx + radius * np.cos(angles), cy + radius * np.sin(angles)], axis=1))
    if rng.random() < 0.3:
        poly = poly.difference(shapely.Point(cx, cy).buffer(radius.min() * 0.4))  # a hole
    return shapely.make_valid(poly) if not poly.is_valid else poly


def test_batched_classification_matches_one_at_a_time() -> None:
    """:meth:`Raster.classify_polygons` and :meth:`Raster.classify_circles` give each region the
    cells :meth:`Raster.classify` and :meth:`Raster.classify_circle` give it alone."""
    from engine.gravstrike.raster import Raster

    raster = Raster(_Bounds(-10.0, -8.0, 10.0, 8.0), margin=1.0)  # type: ignore[arg-type]
    rng = np.random.default_rng(5)
    for _ in range(20):
        polys = [p for p in (_random_polygon(rng) for _ in range(int(rng.integers(1, 9))))
                 if p.geom_type == "Polygon" and not p.is_empty]
        polys.append(box(*rng.uniform(-3, 3, 2), *rng.uniform(3.5, 6, 2)))  # axis-parallel edges
        for got, poly in zip(raster.classify_polygons(polys), polys):
            want = raster.classify(poly)
            assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
        heading = float(rng.uniform(0.0, 360.0))
        specs = [((*rng.uniform(-10.5, 10.5, 2).tolist(), float(rng.uniform(0.05, 2.0))), *rng.uniform(0.2, 0.6, 2).tolist())
                 for _ in range(int(rng.integers(1, 8)))]
        for got, (circle, hl, hw) in zip(raster.classify_circles(specs, heading), specs):
            want = raster.classify_circle(circle, hl, hw, heading)
            assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
        # several spaces' zones at once: polygons, circles (not read), other shapes (alone)
        regions = [*polys[:2], LineString([(0, 0), (2, 1)]), Polygon(), MultiPolygon([box(0, 0, 1, 1), box(3, 3, 4, 5)])]
        items = [([*regions, Point(0, 0)], {len(regions): specs[0]}, heading), (regions[::-1], {}, 0.0)]
        for (zones, circles, h), row in zip(items, raster.classify_regions(items)):
            for z, got in enumerate(row):
                want = raster.classify_circle(*circles[z], h) if z in circles else raster.classify(zones[z])
                assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()
