"""Propose fix on the grid games: a Glider-Pit launch zone and its mirror image slide along the
wall, a Mothership along its short side, shown as a ghost of their new cells, applied as ONE
undo step.  The searches run without a time budget (bounded by their own steps: the same proposal on
a loaded machine); the waits are safety nets only."""

from __future__ import annotations

import math

from schema import load
from tests.balance.arenas import ROOT, pit_with_drifted_zones
from validators.balance import propose
from validators.run import validate

UNTIMED = math.inf
WAIT_MS = 600_000


def test_propose_fix_slides_a_pit_zone_and_applies_one_undo_step(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    arena = pit_with_drifted_zones()
    window.doc.reset(arena, None)
    [f] = validate(arena).findings
    fixes = window.fixes
    assert fixes.start({"code": f.code, "severity": f.severity, "elements": list(f.elements), "message": f.message},
                        budget=UNTIMED)
    with qtbot.waitSignal(fixes.proposed, timeout=WAIT_MS) as got:
        pass
    result = got.args[0]
    expected = propose(arena, code=f.code, elements=f.elements, budget=UNTIMED)
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


def test_propose_fix_slides_a_mothership(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    arena = load(ROOT / "arenas" / "mothership-grid" / "lopsided-battlefield-unfair.yaml")
    window.doc.reset(arena, None)
    f = next(f for f in validate(arena).findings if f.code == "mg-build-squares")
    fixes = window.fixes
    assert fixes.start({"code": f.code, "severity": f.severity, "elements": list(f.elements), "message": f.message},
                        budget=UNTIMED)
    with qtbot.waitSignal(fixes.proposed, timeout=WAIT_MS):
        pass
    assert [new.id for _, new in fixes.ghost.pairs] == ["M1"] and fixes.ghost.grid is not None
    old, new = fixes.ghost.pairs[0]
    assert fixes.ghost._anchor(new, 1)[0] < fixes.ghost._anchor(old, 0)[0]  # the ghost sits west of M1
    assert "move Mothership M1 (player 1) by 1 square west" in fixes.bar.text.text()
    assert fixes.apply()
    assert next(m for m in window.doc.arena.motherships if m.id == "M1").squares == ((0, -1), (1, -1), (2, -1))
    window.doc.undo()
    assert window.doc.arena == arena
