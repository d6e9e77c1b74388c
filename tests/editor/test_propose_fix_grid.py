"""Propose fix on a Glider-Pit pit: the launch zone and its mirror image slide along the wall,
shown as a ghost of their new hexes, applied as ONE undo step."""

from __future__ import annotations

from tests.balance.arenas import pit_with_drifted_zones
from validators.balance import propose
from validators.run import validate


def test_propose_fix_slides_a_pit_zone_and_applies_one_undo_step(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    arena = pit_with_drifted_zones()
    window.doc.reset(arena, None)
    [f] = validate(arena).findings
    fixes = window.fixes
    assert fixes.start({"code": f.code, "severity": f.severity, "elements": list(f.elements), "message": f.message})
    with qtbot.waitSignal(fixes.proposed, timeout=120_000) as got:
        pass
    result = got.args[0]
    expected = propose(arena, code=f.code, elements=f.elements)
    assert result["arena"] == expected.arena and result["changed"]
    assert fixes.ghost.isVisible() and sorted(new.id for _, new in fixes.ghost.pairs) == ["Z1", "Z4"]
    assert fixes.ghost.grid is not None
    # the ghost frames the zones' new hexes, not the origin
    lay_x = [fixes.ghost._anchor(new, 1)[0] for _, new in fixes.ghost.pairs]
    assert min(lay_x) < -5 and max(lay_x) > 5
    assert "move launch zone" in fixes.bar.text.text() and "along the wall" in fixes.bar.text.text()
    depth = window.doc.undo_stack.count()
    assert fixes.apply()
    assert window.doc.undo_stack.count() == depth + 1
    assert window.doc.arena == expected.arena and validate(window.doc.arena).findings == []
    window.doc.undo()
    assert window.doc.arena == arena
