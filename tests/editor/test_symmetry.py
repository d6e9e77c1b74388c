"""Pure transforms (no Qt): mirror/rotate/align/distribute and symmetry-mode propagation."""

from __future__ import annotations

import dataclasses
import math

import pytest

from editor import arrange as A
from editor import symmetry as S
from schema import dumps, loads
from schema.shapes import Circle, Polygon, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, Gate, StartPosition, StaticTarget, Symmetry, Wall

BOX = Polygon(((-12.0, -12.0), (12.0, -12.0), (12.0, 12.0), (-12.0, 12.0)))


def arena(**kw) -> Arena:  # type: ignore[no-untyped-def]
    return Arena("sym", BOX, **kw)


def signed_area(pts) -> float:  # type: ignore[no-untyped-def]
    return sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts))) / 2


def test_mirror_reflects_directions_and_keeps_polygon_orientation() -> None:
    f = AccelerationField("F1", Circle((2.0, 1.0), 1.0), 30.0)
    s = StartPosition(1, (4.0, 1.0), 10.0)
    poly = Wall("W1", Polygon(((0.0, 0.0), (2.0, 0.0), (0.0, 3.0))))
    out = A.mirrored([f, s, poly], "horizontal")  # about the vertical axis through the centre
    cx = A.selection_center([f, s, poly])[0]
    assert out[0].direction == 150.0 and out[1].facing == 170.0
    assert out[1].position == (pytest.approx(2 * cx - 4.0), 1.0)
    assert signed_area(poly.shape.points) > 0 and signed_area(out[2].shape.points) > 0
    v = A.mirrored([f], "vertical")[0]
    assert v.direction == 330.0  # θ -> −θ
    assert A.mirrored(A.mirrored([poly], "vertical"), "vertical")[0] == poly


def test_mirror_swaps_gate_ends_so_one_way_scoring_is_mirrored() -> None:
    g = Gate("G1", "outlying", (0.0, 0.0), (0.0, 2.0), one_way=True)  # scores towards −x
    m = A.mirrored([g], "horizontal")[0]
    normal = (-(m.end[1] - m.start[1]), m.end[0] - m.start[0])  # left-hand normal: scoring side
    assert normal[0] > 0 and {m.start, m.end} == {(0.0, 0.0), (0.0, 2.0)}


def test_rotate_selection_turns_rects_and_facings() -> None:
    r = Wall("W1", Rect((3.0, 0.0), (2.0, 1.0), 10.0))
    s = StartPosition(1, (-3.0, 0.0), 0.0)
    out = A.rotated([r, s], 90.0, (0.0, 0.0))
    assert out[0].shape == Rect((0.0, 3.0), (2.0, 1.0), 100.0)
    assert out[1].position == (0.0, -3.0) and out[1].facing == 90.0
    assert A.rotated(out, -90.0, (0.0, 0.0)) == [r, s]


def test_align_and_distribute() -> None:
    els = [StaticTarget("T1", (0.0, 0.0)), StaticTarget("T2", (5.0, 2.0)), StaticTarget("T3", (1.0, 7.0))]
    assert [e.position[0] for e in A.aligned(els, "left")] == [0.0, 0.0, 0.0]
    assert [e.position[1] for e in A.aligned(els, "top")] == [7.0, 7.0, 7.0]
    assert [e.position[0] for e in A.aligned(els, "centre")] == [2.5, 2.5, 2.5]
    d = A.distributed(els, "horizontal")
    assert sorted(e.position[0] for e in d) == [0.0, 2.5, 5.0]
    assert d[1].position == (5.0, 2.0)  # outermost stay put
    with pytest.raises(ValueError):
        A.distributed(els[:2], "vertical")


def test_rotational_order_6_places_six_starts() -> None:
    sym = Symmetry("rotational", 6)
    before = arena(symmetry=sym)
    after = S.propagate(before, dataclasses.replace(before, start_positions=(StartPosition(1, (8.0, 0.0), 180.0),)), sym)
    starts = after.start_positions
    assert [s.player for s in starts] == [1, 2, 3, 4, 5, 6]
    for k, s in enumerate(starts):
        a = math.radians(60 * k)
        assert math.dist(s.position, (8 * math.cos(a), 8 * math.sin(a))) < 1e-9
        assert s.facing == pytest.approx((180 + 60 * k) % 360)
    loads(dumps(after))  # still a valid file


def test_dihedral_3_generic_point_gives_six_axis_point_gives_three() -> None:
    sym = Symmetry("dihedral", 3, (0.0, 0.0), 90.0)
    before = arena(symmetry=sym)
    generic = S.propagate(before, dataclasses.replace(before, static_targets=(StaticTarget("T1", (2.0, 5.0)),)), sym)
    assert len(generic.static_targets) == 6
    assert len({t.id for t in generic.static_targets}) == 6
    on_axis = S.propagate(before, dataclasses.replace(before, static_targets=(StaticTarget("T1", (0.0, 5.0)),)), sym)
    assert len(on_axis.static_targets) == 3
    centre = S.propagate(before, dataclasses.replace(before, checkpoints=(Checkpoint("M", "central", Circle((0.0, 0.0), 1.0)),)), sym)
    assert len(centre.checkpoints) == 1


def test_mirror_symmetry_field_direction_is_mirrored() -> None:
    sym = Symmetry("mirror", 1, (0.0, 0.0), 90.0)
    before = arena(symmetry=sym)
    f = AccelerationField("F1", Rect((4.0, 1.0), (2.0, 1.0)), 30.0)
    after = S.propagate(before, dataclasses.replace(before, acceleration_fields=(f,)), sym)
    assert [(x.id, x.shape.center, x.direction) for x in after.acceleration_fields] == [
        ("F1", (4.0, 1.0), 30.0), ("F2", (-4.0, 1.0), 150.0)]


def test_moving_and_deleting_one_edits_its_images() -> None:
    sym = Symmetry("rotational", 4)
    base = arena(symmetry=sym)
    placed = S.propagate(base, dataclasses.replace(base, walls=(Wall("W1", Rect((5.0, 0.0), (1.0, 2.0))),)), sym)
    assert len(placed.walls) == 4
    moved_w1 = Wall("W1", Rect((6.0, 1.0), (1.0, 2.0)))
    moved = S.propagate(placed, dataclasses.replace(placed, walls=(moved_w1, *placed.walls[1:])), sym)
    assert [w.id for w in moved.walls] == ["W1", "W2", "W3", "W4"]
    w2 = next(w for w in moved.walls if w.id == "W2")
    assert w2.shape.center == (-1.0, 6.0) and w2.shape.rotation == 90.0
    deleted = S.propagate(moved, dataclasses.replace(moved, walls=moved.walls[1:]), sym)
    assert deleted.walls == ()


def test_operations_match_the_group_size() -> None:
    assert len(S.operations(Symmetry("rotational", 6))) == 5
    assert len(S.operations(Symmetry("dihedral", 3))) == 5
    assert len(S.operations(Symmetry("mirror", 1))) == 1
    with pytest.raises(ValueError):
        S.check(Symmetry("rotational", 13))


def _cards(a):  # type: ignore[no-untyped-def]
    return {c.id: c for c in a.cards}


def test_dragging_a_car_wars_card_moves_its_images_and_keeps_their_numbers_and_owners() -> None:
    """Symmetry mode on crossroads-4p (dihedral order 4): dragging checkpoint-1 moves the other
    three checkpoints to its images, each keeping its own number ("four cards numbered 0
    through 3") and owner (one own-colour checkpoint per player); changing a card's dice
    changes its images' dice."""
    from pathlib import Path

    from schema.io import load

    base = load(str(Path(__file__).resolve().parents[2] / "arenas" / "car-wars" / "crossroads-4p.yaml"))
    sym = base.symmetry
    before = _cards(base)
    one = dataclasses.replace(before["checkpoint-1"], position=(-8.0, -11.0))
    moved = S.propagate(base, dataclasses.replace(base, cards=tuple(one if c.id == one.id else c for c in base.cards)), sym)
    after = _cards(moved)
    assert {k: (c.number, c.owner) for k, c in after.items()} == {k: (c.number, c.owner) for k, c in before.items()}
    spots = {tuple(round(v, 6) for v in c.position) for k, c in after.items() if k.startswith("checkpoint")}
    assert spots == {(-8.0, -11.0), (-11.0, 8.0), (8.0, 11.0), (11.0, -8.0)}  # the quarter turns of (-8, -11)
    assert all(after[k].rotation == before[k].rotation for k in after)
    dice = dataclasses.replace(after["checkpoint-1"], dice=2)
    both = S.propagate(moved, dataclasses.replace(moved, cards=tuple(dice if c.id == dice.id else c for c in moved.cards)), sym)
    assert {k: c.dice for k, c in _cards(both).items() if k.startswith("checkpoint")} == {
        "checkpoint-1": 2, "checkpoint-2": 2, "checkpoint-3": 2, "checkpoint-4": 2}
    assert [c.number for c in both.cards] == [c.number for c in base.cards]


@dataclasses.dataclass(frozen=True)
class Rail:
    """A third-party game's segment kind: its own class with ``start`` and ``end``."""

    id: str
    start: tuple[float, float]
    end: tuple[float, float]


def test_a_segment_of_any_game_is_in_place_whichever_end_is_its_start() -> None:
    """Symmetry mode reads a segment by its fields (issue 37), as it reads a gate: a rail is its own
    image under a mirror across its perpendicular bisector (its ends swapped), and it has a place."""
    rail = Rail("R1", (-2.0, 3.0), (2.0, 3.0))
    assert S.placed(rail) and S.same_place(rail, Rail("R2", (2.0, 3.0), (-2.0, 3.0)))
    assert not S.same_place(rail, Rail("R3", (2.0, -3.0), (-2.0, -3.0)))
