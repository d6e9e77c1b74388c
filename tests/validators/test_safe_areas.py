"""``safe-areas``: fires for a walled-in alcove, quiet for open ground (Custom Arenas: walls
must not give unsurmountable protection)."""

from __future__ import annotations

from schema import loads
from validators.games.gravstrike.sightlines import SafeAreasValidator

HEAD = "format: arena-studio/1\nsystem: gravstrike\nname: T\nbounds: {type: rect, center: [0, 0], size: [24, 24]}\n"


def test_alcove_is_a_safe_area() -> None:
    # a 4 x 4 box with a 1-length door facing the corner: inside, the rest of the arena is hidden
    box = ("walls:\n"
           "  - {id: W1, shape: {type: polyline, points: [[-9, -4], [-4, -4], [-4, -9]], thickness: 0.4}}\n"
           "  - {id: W2, shape: {type: polyline, points: [[-9, -4], [-9, -7]], thickness: 0.4}}\n"
           "  - {id: W3, shape: {type: polyline, points: [[-4, -9], [-7, -9]], thickness: 0.4}}\n")
    arena = loads(HEAD + box)
    result = SafeAreasValidator().evaluate(arena, None)
    assert result.findings, result.metrics
    f = result.findings[0]
    assert f.code == "safe-areas" and f.severity == "warning"
    cx, cy = f.metrics["centre"]
    assert -9 < cx < -4 and -9 < cy < -4
    assert set(f.elements) <= {"W1", "W2", "W3"} and f.elements


def test_open_arena_has_none() -> None:
    arena = loads(HEAD + "walls:\n  - {id: W1, shape: {type: rect, center: [0, 0], size: [3, 0.5]}}\n")
    result = SafeAreasValidator().evaluate(arena, None)
    assert result.findings == []
    assert result.metrics["safe_areas"]["min_visible"] > 0.5


def test_a_symmetric_hiding_place_is_reported_at_all_its_places() -> None:
    """Issue 18, point 9: a small alcove drawn in symmetry mode on a dihedral-3 hexagon has six
    images; the square sample grid used to fall inside only one of them, so only one was
    reported. Every symmetric place is reported, each naming its own wall."""
    import math

    from schema.shapes import Polygon, Polyline
    from schema.games.gravstrike.model import Arena, Symmetry, Wall
    from engine.gravstrike.invariance import apply_point, transforms

    hexagon = Polygon(tuple((round(12 * math.cos(math.radians(60 * k)), 4), round(12 * math.sin(math.radians(60 * k)), 4))
                            for k in range(6)))
    u = Polyline(((7.3, 2.2), (5.7, 2.2), (5.7, 3.8), (7.3, 3.8)), 0.4)  # open towards +x
    walls = [Wall("W1", u)] + [
        Wall(f"W{i}", Polyline(tuple(tuple(round(c, 4) for c in apply_point(fn, p, 0.0, 0.0)) for p in u.points), 0.4))
        for i, (_name, fn, _mirror) in enumerate(transforms("dihedral", 3, 0.0), start=2)]
    arena = Arena("six alcoves", hexagon, walls=tuple(walls), symmetry=Symmetry("dihedral", 3, (0.0, 0.0), 0.0))
    result = SafeAreasValidator().evaluate(arena, None)
    assert len(result.findings) == 6
    assert sorted(f.elements for f in result.findings) == [(f"W{i}",) for i in range(1, 7)]
    radii = [math.hypot(*f.metrics["centre"]) for f in result.findings]
    assert max(radii) - min(radii) < 0.5  # the six places are images of each other
    # without the declared symmetry the grid decides alone (what the validator saw before)
    plain = SafeAreasValidator().evaluate(Arena("six alcoves", hexagon, walls=tuple(walls)), None)
    assert len(plain.findings) < 6


# -- issue 16, item 3: a floor with no free space crashed safe-areas (`arange: cannot compute length`)


def test_no_free_floor_gives_no_samples_not_a_crash() -> None:
    for wall in ("{type: rect, center: [0, 0], size: [24, 24]}",      # equal to the bounds
                 "{type: rect, center: [0, 0], size: [30, 30]}",      # covering them
                 "{type: circle, center: [0, 0], radius: 20}"):
        arena = loads(HEAD + f"walls:\n  - {{id: W1, shape: {wall}}}\n")
        result = SafeAreasValidator().evaluate(arena, None)
        assert result.findings == []
        assert result.metrics["safe_areas"] == {"samples": 0, "radius": 10.0, "min_visible": None, "mean_visible": None}


def test_a_floor_too_narrow_to_stand_on_gives_no_samples() -> None:
    # a 0.3-wide slot: the turbine's centre (half a width from walls) has nowhere to be
    arena = loads(HEAD + "walls:\n  - {id: W1, shape: {type: rect, center: [0, 6.15], size: [24, 11.7]}}\n"
                         "  - {id: W2, shape: {type: rect, center: [0, -6.15], size: [24, 11.7]}}\n")
    assert SafeAreasValidator().evaluate(arena, None).metrics["safe_areas"]["samples"] == 0


def test_angle_culled_ray_cast_gives_the_dense_answer() -> None:
    """engine.visibility.rays_from (used by visible_region; what keeps safe-areas cheap among
    many walls) against engine.blockers.ray_hits on random edges, edges through or ending at the
    origin, and rays aimed exactly at vertices: the same first hit and the same edge."""
    import numpy as np

    from engine import visibility
    from engine.blockers import ray_hits

    rng = np.random.default_rng(16)
    for trial in range(60):
        n, k = int(rng.integers(1, 300)), int(rng.integers(1, 1500))
        origin = rng.uniform(-5, 5, 2)
        p0 = rng.uniform(-10, 10, (n, 2))
        p1 = p0 + rng.normal(0, 2, (n, 2))
        if trial % 3 == 0:
            p0[:5] = origin
            p0[10:15] = origin - (p1[10:15] - origin)
        angles = rng.uniform(-1, 7, k)
        if trial % 4 == 0:
            angles = np.concatenate([np.arctan2(*(p0 - origin)[:, ::-1].T), angles])
        dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        t_dense, hit_dense = ray_hits(np.repeat(origin[None], len(angles), 0), dirs, p0, p1, 1e-12)
        t_fast, hit_fast = visibility.rays_from(origin, angles, p0, p1, 1e-12, dense_pairs=0)
        assert np.array_equal(hit_dense, hit_fast) and np.array_equal(t_dense, t_fast), trial


def test_many_walls_and_a_dense_bounds_are_analysed() -> None:
    """The issue's slow cases (200 small circular walls: 84 s; a 10 000-point bounds: 88 s) now
    answer; bench/hostile.py measures them. Here: they give sane samples and shares."""
    import math

    walls = "".join(f"  - {{id: W{i}, shape: {{type: circle, center: [{-10 + (i % 15) * 1.4:.2f}, {-7 + (i // 15) * 1.1:.2f}], radius: 0.2}}}}\n"
                    for i in range(200))
    result = SafeAreasValidator().evaluate(loads(HEAD + "walls:\n" + walls), None)
    m = result.metrics["safe_areas"]
    assert m["samples"] > 100 and 0 < m["min_visible"] <= m["mean_visible"] <= 1
    pts = ", ".join(f"[{12 * math.cos(2 * math.pi * i / 10000):.6f}, {12 * math.sin(2 * math.pi * i / 10000):.6f}]"
                    for i in range(10000))
    round_arena = loads("format: arena-studio/1\nsystem: gravstrike\nname: T\n" + f"bounds: {{type: polygon, points: [{pts}]}}\n")
    m = SafeAreasValidator().evaluate(round_arena, None).metrics["safe_areas"]
    assert m["samples"] > 150 and m["min_visible"] > 0.9  # an empty round arena: everyone sees nearly all
