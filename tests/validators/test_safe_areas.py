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
