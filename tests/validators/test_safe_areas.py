"""``safe-areas``: fires for a walled-in alcove, quiet for open ground (Custom Arenas: walls
must not give unsurmountable protection)."""

from __future__ import annotations

from schema import loads
from validators.builtin.sightlines import SafeAreasValidator

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

    from schema.model import Arena, Polygon, Polyline, Symmetry, Wall
    from validators.symmetry import apply_point, transforms

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
