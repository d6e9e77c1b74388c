"""Rules tests for the motion model and the end-of-length checks (each cites its rule section)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from engine.gravstrike.cspace import CSpace, ZoneSpec
from engine.gravstrike.events import CheckpointTouched, ExclusionDamage, FieldPush, GateCrossed, Ram
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.length import TurnState, apply, apply_pivot
from engine.gravstrike.motion import Footprint, IllegalManeuver, Maneuver, Pose, generate_maneuvers, move
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, ExclusionField, Gate, Wall


def open_arena(**kw: object) -> ArenaGeometry:
    return ArenaGeometry(Arena(name="t", bounds=Rect((0.0, 0.0), (30.0, 30.0)), **kw))  # type: ignore[arg-type]


def test_about_distance_and_speed_straight_length_is_one_base_length() -> None:
    """"About Distance and Speed": a length is the turbine's base, front to back."""
    p = move(Pose(0.0, 0.0, 30.0), Maneuver(0))
    assert math.hypot(p.x, p.y) == pytest.approx(1.0)
    assert p.heading == 30.0


@pytest.mark.parametrize("turn", [30, 60, 90, -30, -60, -90])
def test_maneuvering_turns_follow_an_arc_of_one_length(turn: int) -> None:
    """"Maneuvering" (30/60/90-degree turns): chord 2R sin(a/2), R = 1/a, at heading + a/2."""
    a = math.radians(abs(turn))
    p = move(Pose(0.0, 0.0, 0.0), Maneuver(turn))
    chord = 2 * (1 / a) * math.sin(a / 2)
    assert math.hypot(p.x, p.y) == pytest.approx(chord)
    assert math.degrees(math.atan2(p.y, p.x)) == pytest.approx(turn / 2)
    assert p.heading == turn % 360


def test_maneuvering_sideslip_shifts_one_width_after_the_move() -> None:
    """"Sideslipping": shift one width sideways after the first part of the combination."""
    plain = move(Pose(0.0, 0.0, 0.0), Maneuver(90))
    slipped = move(Pose(0.0, 0.0, 0.0), Maneuver(90, sideslip=1))
    # left of the new heading (90 degrees) is -x
    assert (slipped.x - plain.x, slipped.y - plain.y) == pytest.approx((-0.5, 0.0))


def test_maneuvering_costs() -> None:
    """"Maneuvering": 30/60/90 cost 1/2/3 icons, a sideslip adds 1, straight is free."""
    assert [Maneuver(t).cost for t in (0, 30, 60, 90)] == [0, 1, 2, 3]
    assert Maneuver(-90, 1).cost == 4 and Maneuver(0, -1).cost == 1
    assert {m.cost for m in generate_maneuvers(icons_left=2)} == {0, 1, 2}


def test_about_traveling_in_reverse_moves_backwards_keeping_the_facing() -> None:
    """"About Traveling in Reverse": maneuver from the other end; facing unchanged."""
    g = open_arena()
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(-2))
    assert (r.pose.x, r.pose.y, r.pose.heading) == pytest.approx((-1.0, 0.0, 0.0))


def test_maneuver_phase_unaffordable_maneuver_is_illegal() -> None:
    """"The Maneuver Phase": maneuvers are paid length by length (the engine refuses debt)."""
    g = open_arena()
    with pytest.raises(IllegalManeuver):
        apply(g, Pose(0.0, 0.0, 0.0), Maneuver(90), TurnState.start(3, icons=2))


def test_pivots_only_at_speed_zero() -> None:
    """"Pivots": only at speed 0, about a corner, 1 icon."""
    g = open_arena()
    with pytest.raises(IllegalManeuver):
        apply_pivot(g, Pose(0.0, 0.0, 0.0), 0, 90.0, TurnState.start(1))
    r = apply_pivot(g, Pose(0.0, 0.0, 0.0), 0, 90.0, TurnState.start(0))
    assert r.state.icons_left == 2 and r.pose.heading == 90.0


def test_speed_change_in_maneuver_phase_redline_runner_example() -> None:
    """"Speed Change in the Maneuver Phase" (Redline Runner): speed 6, eight lengths, ram on
    the 4th length -> speed 4 and two more lengths.  Ram damage = speed ("Resolving a Ram")."""
    g = open_arena(walls=(Wall("W", Rect((4.8, 0.0), (1.0, 6.0))),))
    pose, state = Pose(0.0, 0.0, 0.0), TurnState.start(6, lengths=8)
    for _ in range(3):
        r = apply(g, pose, Maneuver(0), state)
        assert not r.events
        pose, state = r.pose, r.state
    r = apply(g, pose, Maneuver(0), state)
    ram = r.events[0]
    assert isinstance(ram, Ram) and ram.damage == 6 and ram.speed_after == 4
    assert r.state.speed == 4 and r.state.lengths_left == 2
    assert g.ram_feature(r.pose) is None  # disentangled by a pivot


def test_ramming_the_bounds() -> None:
    """"Ramming": the arena's edge is an arena feature."""
    g = open_arena()
    r = apply(g, Pose(14.0, 0.0, 0.0), Maneuver(0), TurnState.start(1))
    assert isinstance(r.events[0], Ram) and r.events[0].feature == "bounds"


def test_in_the_middle_of_a_length_nothing_is_checked() -> None:
    """"In the Middle of a Length of Movement...": a thin wall crossed mid-length is no ram
    when the length ends clear of it (only possible for sideways-thin gaps; here a zero-area
    sliver the footprint jumps over)."""
    g = open_arena(walls=(Wall("W", Rect((0.75, 0.0), (0.0001, 0.2))),), checkpoints=(Checkpoint("A", "outlying", Circle((2.0, 0.0), 0.3)),))
    r = apply(g, Pose(0.0, 0.0, 90.0), Maneuver(0), TurnState.start(1))
    assert not r.events


def test_acceleration_field_pushes_once_per_turn_without_using_a_length() -> None:
    """"Acceleration Fields": touching the activation area moves one length along the field,
    orientation unchanged, doesn't use up a length; once per field per turn."""
    g = open_arena(acceleration_fields=(AccelerationField("F", Circle((1.8, 0.0), 0.4), 90.0),))
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(3))
    push = r.events[0]
    assert isinstance(push, FieldPush) and push.field == "F"
    assert (r.pose.x, r.pose.y, r.pose.heading) == pytest.approx((1.0, 1.0, 0.0))
    assert r.state.lengths_left == 2 and r.state.fields_used == frozenset({"F"})
    back = apply(g, r.pose, Maneuver(-90), r.state)  # swings back over the field: no second push
    assert not any(isinstance(e, FieldPush) for e in back.events)


def test_field_push_into_a_wall_is_a_ram() -> None:
    """"Acceleration Fields" + "Ramming": the checks repeat after a push."""
    g = open_arena(
        acceleration_fields=(AccelerationField("F", Circle((1.8, 0.0), 0.4), 90.0),),
        walls=(Wall("W", Rect((1.0, 1.2), (3.0, 0.4))),),
    )
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(3))
    assert [type(e).__name__ for e in r.events][:2] == ["FieldPush", "Ram"]


def test_checkpoints_touched_at_the_end_of_a_length() -> None:
    """"Checkpoints": ending a length on (touching) the checkpoint."""
    g = open_arena(checkpoints=(Checkpoint("A", "outlying", Circle((2.0, 0.0), 0.5)),))
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(2))
    assert r.events == (CheckpointTouched("A"),)


def test_scoring_variants_one_way_gate() -> None:
    """"Scoring Variants" (gates): one-way gates score only in their direction."""
    gate = Gate("G", "outlying", (0.5, -1.0), (0.5, 1.0), one_way=True)  # left normal = -x
    g = open_arena(gates=(gate,))
    fwd = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(1))
    back = apply(g, Pose(1.0, 0.0, 180.0), Maneuver(0), TurnState.start(1))
    assert GateCrossed("G") not in fwd.events and GateCrossed("G") in back.events


def test_exclusion_fields_entering_and_ending_inside() -> None:
    """"Exclusion Fields": 1 damage for entering; 2 more for ending the phase with 2+ corners in."""
    g = open_arena(exclusion_fields=(ExclusionField("X", Rect((3.0, 0.0), (2.0, 2.0)), active_from_tier=3),))
    st = TurnState.start(3, tier=3)
    pose = Pose(0.0, 0.0, 0.0)
    dmg = []
    for _ in range(3):
        r = apply(g, pose, Maneuver(0), st)
        dmg.append([(e.damage, e.reason) for e in r.events if isinstance(e, ExclusionDamage)])
        pose, st = r.pose, r.state
    assert dmg == [[], [(1, "entered")], [(2, "ended")]]
    quiet = apply(g, Pose(1.0, 0.0, 0.0), Maneuver(0), TurnState.start(1, tier=2))
    assert not quiet.events  # inactive before its tier


@settings(max_examples=150, deadline=None)
@given(
    x=st.floats(-6, 6), y=st.floats(-6, 6), k=st.integers(0, 11), off=st.sampled_from([0.0, 17.0])
)
def test_configuration_space_agrees_with_footprints(x: float, y: float, k: int, off: float) -> None:
    """The planner's per-heading point tests agree with exact footprint tests."""
    arena = Arena(
        name="t", bounds=Rect((0.0, 0.0), (12.0, 10.0)),
        walls=(Wall("W", Rect((1.0, 1.0), (2.0, 0.4), 25.0)), Wall("C", Circle((-2.5, -2.0), 0.8))),
        checkpoints=(Checkpoint("A", "outlying", Circle((3.0, -2.0), 0.7)),),
    )
    g = ArenaGeometry(arena)
    cs = CSpace(g, [ZoneSpec("checkpoint", "A", g.checkpoints[0].geometry)])
    pose = Pose(x, y, (30 * k + off) % 360)
    fp = Footprint.of(pose)
    hs = cs.heading(pose.heading)
    near_wall = any(w.distance(fp.to_shapely()) < 1e-6 and not w.intersects(fp.to_shapely(-1e-6)) for _, w in g.walls)
    if not near_wall:
        assert hs.is_free(x, y) == (g.ram_feature(pose) is None)
    assert (0 in hs.zones_at(x, y)) == bool(g.touching(g.checkpoints, pose)) or abs(
        g.checkpoints[0].geometry.distance(fp.to_shapely())) < 1e-6


@pytest.mark.parametrize("tilt", [0.0, 0.005, -0.005])
def test_disentangling_ties_are_the_players_to_settle(tilt: float) -> None:
    """"Resolving a Ram Against an Arena Feature", step 4: pivot "around its corner furthest from
    the point of contact ... in the direction that will cause the least rotation".  A head-on ram
    leaves two corners equally far: the rule does not choose, the player does (TurnState.hand),
    and a wall turned a few thousandths of a degree - the error of coordinates written to four
    decimals - must not choose for them.  The two hands settle it as mirror images."""
    g = ArenaGeometry(Arena(name="t", bounds=Rect((0.0, 0.0), (30.0, 30.0)),
                            walls=(Wall("W", Rect((1.5, 0.0), (1.0, 6.0), tilt)),)))
    one, other = (apply(g, Pose(0.3, 0.0, 0.0), Maneuver(0), TurnState.start(1, hand=h)) for h in (1, -1))
    ram = one.events[0]
    assert len(one.events) == 1 and isinstance(ram, Ram) and ram.disentangled
    assert (one.pose.x, one.pose.y, one.pose.heading) == pytest.approx((0.650, -0.289, 281.0), abs=2e-3)
    assert (other.pose.x, other.pose.y, other.pose.heading) == pytest.approx(
        (one.pose.x, -one.pose.y, 360.0 - one.pose.heading), abs=2e-3)
