"""Proposed fixes (issue 19 part 2): "For a finding with a geometric cause, the studio proposes an
edit that removes it while keeping the declared symmetry and changing as little as possible ...
checked by re-validating before it is offered"."""

from __future__ import annotations

import math

import pytest

from engine.placement import Offset, replace_pieces
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, StartPosition, Symmetry
from validators.balance import finding_key, propose
from validators.games.gravstrike.balance import HOOK
from validators.run import validate
from engine.gravstrike.invariance import invariances

from .arenas import cornered_checkpoints, four_in_fields, mirrored_by_walls, orbiting_fields


def _keys(arena: Arena, code: str) -> set[tuple[str, tuple[str, ...]]]:
    return {finding_key(f) for f in validate(arena).findings if f.code == code}


def test_four_player_rotational_fix_moves_every_start_alike_and_keeps_the_symmetry() -> None:
    """Each start stands in an exclusion field: one move of start 1, carried to its three images
    by the quarter turns, clears all four, and the arena keeps its three symmetry operations."""
    arena = four_in_fields()
    assert len(_keys(arena, "exclusion-placement")) == 4
    p = propose(arena, code="exclusion-placement")
    assert [f.status for f in p.fixes] == ["fixed"] * 4
    [edit] = p.edits
    assert edit.ref == "start:1" and set(edit.images) == {"start:2", "start:3", "start:4"}
    assert not _keys(p.arena, "exclusion-placement")
    assert len(invariances(p.arena)) == len(invariances(arena)) == 3
    assert not [f for f in validate(p.arena).findings if f.code == "symmetry"]
    moved = [math.dist(a.position, b.position) for a, b in zip(arena.start_positions, p.arena.start_positions)]
    assert max(moved) - min(moved) < 1e-9 and moved[0] > 0
    assert [s.player for s in p.arena.start_positions] == [1, 2, 3, 4]
    assert p.arena.exclusion_fields == arena.exclusion_fields  # only what it names moves
    assert not [f for f in p.after.findings if f.severity == "error"]


def test_checkpoints_too_close_move_apart_together() -> None:
    """Outlying checkpoints under two flat-out turns apart ("Checkpoints" advice): the four move
    out together, the smallest step that clears them after halving."""
    arena = four_in_fields()
    p = propose(arena, code="checkpoint-spacing")
    assert all(f.status == "fixed" for f in p.fixes)
    assert not _keys(p.arena, "checkpoint-spacing")
    radii = [math.hypot(*c.shape.center) for c in p.arena.checkpoints if c.kind == "outlying"]  # type: ignore[union-attr]
    assert max(radii) - min(radii) < 1e-6
    assert len(invariances(p.arena)) == 3


def test_checkpoints_no_single_move_can_part_move_together() -> None:
    """Checkpoint A in a corner, B beside it, under the two flat-out turns the "Checkpoints"
    advice asks: no move of one of them (up to 8 lengths, on the table) parts them enough, so the
    fix moves both - B away from A along its edge, A square to the line down its own - and
    neither of its two moves alone would do."""
    arena = cornered_checkpoints()
    assert _keys(arena, "checkpoint-spacing") == {("checkpoint-spacing", ("A", "B"))}
    p = propose(arena, code="checkpoint-spacing", budget=120)
    assert [f.status for f in p.fixes] == ["fixed"]
    first, second = p.edits
    assert {first.ref, second.ref} == {"A", "B"}
    assert "away from checkpoint A" in first.words("lengths") and "square to the line" in second.words("lengths")
    assert not _keys(p.arena, "checkpoint-spacing")
    assert not [f for f in p.after.findings if f.severity == "error"]
    for edit in p.edits:  # each move on its own leaves the checkpoints too close
        alone = replace_pieces(arena, ("checkpoints",), {edit.ref: HOOK.moved(arena, edit.ref, Offset(edit.dx, edit.dy, 0.0))})
        assert _keys(alone, "checkpoint-spacing")


def test_mirrored_overlap_moves_the_checkpoint_and_its_mirror_image() -> None:
    arena = mirrored_by_walls()
    p = propose(arena, code="overlap")
    assert [f.status for f in p.fixes] == ["fixed", "fixed"]
    [edit] = p.edits
    assert edit.ref == "A" and edit.images == ("B",) and "away from wall W1" in edit.words("lengths")
    a, b = p.arena.checkpoints[0].shape.center, p.arena.checkpoints[1].shape.center  # type: ignore[union-attr]
    assert a[0] == pytest.approx(-b[0]) and a[1] == pytest.approx(b[1])
    assert not _keys(p.arena, "overlap")
    assert len(invariances(p.arena)) == 1
    # as little as possible: the halving leaves it under one step (0.25) beyond the last that failed
    assert 0.0 < math.hypot(edit.dx, edit.dy) <= 0.5


def test_field_orbit_is_fixed_by_turning_a_field() -> None:
    arena = orbiting_fields()
    p = propose(arena, code="field-orbit")
    assert [f.status for f in p.fixes] == ["fixed"]
    [edit] = p.edits
    assert edit.dx == edit.dy == 0 and edit.dtheta != 0
    assert "turn field F1 by" in edit.words("lengths")
    assert [f.shape for f in p.arena.acceleration_fields] == [f.shape for f in arena.acceleration_fields]
    assert not _keys(p.arena, "field-orbit")


def test_the_same_arena_gives_the_same_proposal() -> None:
    a = propose(mirrored_by_walls(), code="overlap")
    b = propose(mirrored_by_walls(), code="overlap")
    assert a.arena == b.arena and a.edits == b.edits


def test_only_the_free_kinds_move() -> None:
    arena = four_in_fields()
    p = propose(arena, code="exclusion-placement", free=["checkpoints"])
    assert {f.status for f in p.fixes} == {"no-move"} and p.arena == arena and not p.changed
    p = propose(arena, code="exclusion-placement", free=["fields"])
    assert p.fixes[0].status == "fixed" and p.arena.start_positions == arena.start_positions
    with pytest.raises(ValueError, match="kinds that may move are"):
        propose(arena, free=["pillars"])


def test_an_exhausted_budget_says_so_and_changes_nothing() -> None:
    arena = mirrored_by_walls()
    p = propose(arena, code="overlap", budget=0.0)
    assert p.stopped_early and {f.status for f in p.fixes} == {"stopped"}
    assert p.arena == arena and p.validations == 1


def test_a_start_on_a_mirror_axis_slides_along_it_and_does_not_turn() -> None:
    """A move is averaged over the operations that fix the element: off the axis it would break
    the symmetry."""
    arena = Arena("axis", Rect(center=(0.0, 0.0), size=(10.0, 10.0)), symmetry=Symmetry("mirror", 1, (0.0, 0.0), 90.0),
                  checkpoints=(), start_positions=(StartPosition(1, (0.0, -3.0), 90.0),))
    offsets = HOOK.images(arena, "start:1", Offset(1.0, 0.5, 10.0))
    assert list(offsets) == ["start:1"]
    o = offsets["start:1"]
    assert (o.dx, o.dy, o.dtheta) == pytest.approx((0.0, 0.5, 0.0))
    assert HOOK.images(arena, "start:1", Offset(1.0, 0.0, 0.0)) == {}  # all across the axis: nothing left


def test_images_of_a_rotated_field_turn_the_same_way_and_mirrored_ones_the_other() -> None:
    arena = four_in_fields()
    off = HOOK.images(arena, "start:1", Offset(-1.0, 0.0, 20.0))
    assert (off["start:2"].dx, off["start:2"].dy, off["start:2"].dtheta) == pytest.approx((0.0, -1.0, 20.0))
    mirrored = mirrored_by_walls()
    off = HOOK.images(mirrored, "A", Offset(0.5, 0.25, 20.0))
    assert (off["B"].dx, off["B"].dy, off["B"].dtheta) == pytest.approx((-0.5, 0.25, -20.0))


def test_a_game_without_a_hook_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every built-in game has a balance hook now: a game installed without one (Gravstrike's
    analysis with its hook taken away, as a third party's might come) is named, not a traceback."""
    from schema.ruleset import ruleset
    from validators.game import GameAnalysis, analysis

    monkeypatch.setattr(type(analysis("gravstrike")), "balance_hook", GameAnalysis.balance_hook)
    bare = ruleset("gravstrike")
    with pytest.raises(LookupError, match=f"not available for {bare.game}"):
        propose(bare.default_arena())


def test_the_circle_centre_is_kept_when_only_turning() -> None:
    arena = orbiting_fields()
    moved = HOOK.moved(arena, "F1", Offset(0.0, 0.0, 45.0))
    assert moved.shape == Circle((3.0, 0.0), 0.75) and moved.direction == 135.0
