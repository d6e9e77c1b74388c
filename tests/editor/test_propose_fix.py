"""The Validation panel's "Propose fix": computed in the background (cancellable), shown as a
ghost on the canvas, applied as ONE undo step that undo/redo restore exactly.

The searches run without a time budget (``UNTIMED``): bounded by their own steps, they give the
same proposal on a loaded machine (issue 36, point 15); the waits are safety nets only."""

from __future__ import annotations

import math
import time
from typing import Any

import pytest
from PySide6.QtCore import QPoint

import editor.balance
from editor.balance import ApplyFix
from editor.snapping import snap_checked
from tests.balance.arenas import mirrored_by_walls
from validators.balance import propose
from validators.run import validate
from engine.gravstrike.invariance import invariances

#: The budget of the searches started here: none (they end when their steps do).
UNTIMED = math.inf
#: Longest wait for a proposal (a safety net: a search takes seconds).
WAIT_MS = 600_000


def _finding(code: str) -> dict:  # type: ignore[type-arg]
    f = next(f for f in validate(mirrored_by_walls()).findings if f.code == code)
    return {"code": f.code, "severity": f.severity, "elements": list(f.elements), "message": f.message}


def test_propose_shows_a_ghost_and_applies_one_undo_step(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    arena = mirrored_by_walls()
    window.doc.reset(arena, None)
    fixes = window.fixes
    assert fixes.start(_finding("overlap"), budget=UNTIMED)
    assert fixes.dialog is not None  # the UI goes on: the search runs in a child process
    with qtbot.waitSignal(fixes.proposed, timeout=WAIT_MS) as got:
        pass
    result = got.args[0]
    expected = propose(arena, code="overlap", elements=("A", "W1"), budget=UNTIMED)
    assert result["arena"] == expected.arena and result["changed"]
    assert window.doc.arena == arena  # nothing applied yet
    assert fixes.ghost.isVisible() and [new.id for _, new in fixes.ghost.pairs] == ["A", "B"]
    assert fixes.ghost.boundingRect().contains(*expected.arena.checkpoints[0].shape.center)  # type: ignore[union-attr]
    assert fixes.bar.apply.isVisible() and "move checkpoint A by" in fixes.bar.text.text()
    # what Apply puts in: the fix with its moved elements on the window's snap grid (issue 42, point 9)
    fixed = snap_checked(expected.arena, ["A", "B"], window.view.snap_step).arena
    assert result["applied"] == fixed
    depth = window.doc.undo_stack.count()
    assert fixes.apply()
    assert window.doc.undo_stack.count() == depth + 1
    assert window.doc.arena == fixed and len(invariances(window.doc.arena)) == 1
    assert not fixes.ghost.isVisible() and not fixes.bar.isVisible()
    window.doc.undo()
    assert window.doc.arena == arena
    window.doc.redo()
    assert window.doc.arena == fixed
    window.doc.undo()
    assert window.doc.arena == arena


def _never_proposes(*args: Any) -> dict[str, Any]:  # pragma: no cover - the child process
    """A search that does not end (an hour): only killing its process stops it."""
    time.sleep(3600)
    return {}


def test_cancel_kills_the_search_and_an_edit_discards_a_proposal(window, qtbot,  # type: ignore[no-untyped-def]
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    window.doc.reset(mirrored_by_walls(), None)
    fixes = window.fixes
    monkeypatch.setattr(editor.balance, "propose_for", _never_proposes)
    assert fixes.start(_finding("checkpoint-spacing"))  # a search that would run for an hour
    fixes.dialog.canceled.emit()  # the dialog's Cancel button
    assert not fixes.running and fixes.dialog is None
    assert fixes.pool.waitForDone(WAIT_MS)  # the child was killed, not waited for
    assert fixes.proposal is None
    monkeypatch.undo()
    assert fixes.start(_finding("overlap"), budget=UNTIMED)
    with qtbot.waitSignal(fixes.proposed, timeout=WAIT_MS):
        pass
    assert fixes.ghost.isVisible()
    window.doc.set_selection(["M"])
    window.nudge(0.5, 0.0)
    assert fixes.proposal is None and not fixes.ghost.isVisible() and not fixes.apply()


def test_the_panel_context_menu_and_button_start_a_search(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.doc.reset(mirrored_by_walls(), None)
    panel = window.validation
    panel.show_findings([_finding("overlap")])
    item = panel.tree.topLevelItem(0)
    panel.tree.setCurrentItem(item)
    started: list[dict] = []  # type: ignore[type-arg]
    window.fixes.start = lambda f, budget=0: started.append(f) or True  # type: ignore[method-assign]
    window.fixes.bar.propose.click()
    assert started and started[0]["code"] == "overlap"
    menu = window.fixes._menu(QPoint(panel.tree.visualItemRect(item).center()))
    [act] = menu.actions()
    assert act.text() == "Propose fix"
    act.trigger()
    assert len(started) == 2 and started[1]["elements"] == ["A", "W1"]
    menu.close()


def test_apply_fix_refuses_a_no_op(window) -> None:  # type: ignore[no-untyped-def]
    import pytest

    window.doc.reset(mirrored_by_walls(), None)
    with pytest.raises(ValueError, match="nothing changes"):
        ApplyFix(window.doc, window.doc.arena, [], "Fix")


def test_arena_rex_fix_in_the_editor_undoes_exactly(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The same action for another game on the ruleset layer: the pits pulled onto the
    deployment edges move off them with their half-turn image, in one undo step."""
    from tests.balance.arenas import rex_pits_at_the_edges

    arena = rex_pits_at_the_edges()
    window.doc.reset(arena, None)
    f = next(f for f in validate(arena).findings if f.code == "ar-deployment")
    assert window.fixes.start({"code": f.code, "elements": list(f.elements)}, budget=UNTIMED)
    with qtbot.waitSignal(window.fixes.proposed, timeout=WAIT_MS) as got:
        pass
    assert got.args[0]["refs"] == ["pit-west", "pit-east"] and window.fixes.ghost.isVisible()
    assert window.fixes.apply()
    fixed = window.doc.arena
    assert fixed != arena and not [x for x in validate(fixed).findings if x.code == "ar-deployment"]
    window.doc.undo()
    assert window.doc.arena == arena
    window.doc.redo()
    assert window.doc.arena == fixed


def test_car_wars_fix_in_the_editor_undoes_exactly(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Car Wars: the pillar walls too near the edges ("Gaps between walls must be at least one
    turning key") move in with their half-turn image, in one undo step."""
    from engine.carwars.symmetry import symmetries
    from tests.balance.arenas import cw_pillars_at_the_edges

    arena = cw_pillars_at_the_edges()
    window.doc.reset(arena, None)
    f = next(f for f in validate(arena).findings if f.code == "cw-wall-gap")
    assert window.fixes.start({"code": f.code, "elements": list(f.elements)}, budget=UNTIMED)
    with qtbot.waitSignal(window.fixes.proposed, timeout=WAIT_MS) as got:
        pass
    assert sorted(got.args[0]["refs"]) == ["pillar-E", "pillar-W"] and window.fixes.ghost.isVisible()
    assert window.fixes.apply()
    fixed = window.doc.arena
    assert fixed != arena and not validate(fixed).findings and len(symmetries(fixed)) == 1
    window.doc.undo()
    assert window.doc.arena == arena
    window.doc.redo()
    assert window.doc.arena == fixed
