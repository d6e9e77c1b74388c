"""Rules tests for the end-of-length events the engine once dropped or misplaced: checks before
a field push, blocked disentanglement, pivots, rams that leave card-given lengths, gates crossed
at a length's end, circles tested exactly, partial sideslips and static targets under a base.
Each test cites the rule it checks."""

from __future__ import annotations

import math

import pytest

from engine.blockers import Blockers
from engine.gravstrike.events import CheckpointTouched, ExclusionDamage, FieldPush, GateCrossed, Ram
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.length import TurnState, apply, apply_pivot
from engine.gravstrike.motion import IllegalManeuver, Maneuver, Pose, move
from engine.gravstrike.targeting import Arc, static_target_number
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import AccelerationField, Arena, Checkpoint, ExclusionField, Gate, StaticTarget, Wall


def arena(**kw: object) -> ArenaGeometry:
    return ArenaGeometry(Arena(name="t", bounds=Rect((0.0, 0.0), (30.0, 30.0)), **kw))  # type: ignore[arg-type]


def test_checkpoint_touched_before_a_field_push_scores() -> None:
    """"Checkpoints": "When a turbine ends a length of movement on a checkpoint, that player
    scores" - even when an acceleration field then pushes it off the checkpoint."""
    g = arena(checkpoints=(Checkpoint("A", "outlying", Circle((1.0, 0.5), 0.3)),),
              acceleration_fields=(AccelerationField("F", Circle((1.0, -0.45), 0.3), 270.0),))
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(2))
    assert r.pose.y == pytest.approx(-1.0)  # pushed one length down, off the checkpoint
    kinds = [type(e) for e in r.events]
    assert CheckpointTouched("A") in r.events
    assert kinds.index(CheckpointTouched) < kinds.index(FieldPush)


def test_checkpoint_touched_after_a_field_push_scores() -> None:
    """"Acceleration Fields": the push is an "immediate length of movement"; where it ends is
    checked like the end of a length."""
    g = arena(checkpoints=(Checkpoint("A", "outlying", Circle((1.0, -1.5), 0.3)),),
              acceleration_fields=(AccelerationField("F", Circle((1.0, -0.3), 0.1), 270.0),))
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(2))
    assert r.events == (FieldPush("F", Pose(1.0, 0.0, 0.0), r.pose), CheckpointTouched("A"))


def test_exclusion_entered_before_a_field_push_costs_one() -> None:
    """"Exclusion Fields": "A turbine that enters an exclusion field by overlapping it after a
    length of movement takes 1 damage" - the push that follows does not undo it."""
    g = arena(exclusion_fields=(ExclusionField("X", Circle((1.5, 0.0), 0.3), active_from_tier=1),),
              acceleration_fields=(AccelerationField("F", Circle((1.0, 0.0), 0.2), 90.0),))
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(2))
    assert ExclusionDamage("X", 1, "entered") in r.events
    assert r.damage == 1
    assert r.pose.y == pytest.approx(1.0)


def test_blocked_disentanglement_backs_up_to_the_point_of_impact() -> None:
    """"Blocked Disentanglement": "back your turbine up along its original direction of travel to
    the point of impact. Then reduce its speed to 0 and deal it a point of damage for each point
    of speed lost in this way." A slot 0.6 wide: no pivot clears, so the turbine backs up until
    its front touches the end wall (x = 3.0), not to where the length began."""
    walls = (Wall("END", Rect((3.5, 0.0), (1.0, 2.0))), Wall("N", Rect((0.0, 0.8), (8.0, 1.0))),
             Wall("S", Rect((0.0, -0.8), (8.0, 1.0))))
    g = arena(walls=walls)
    pose = Pose(1.9, 0.0, 0.0)
    r = apply(g, pose, Maneuver(0), TurnState.start(4))
    ram = r.events[0]
    assert isinstance(ram, Ram) and ram.feature == "END" and not ram.disentangled
    assert ram.damage == 4 + 2  # speed 4, then the remaining 2 speed lost backing up
    assert r.state.speed == 0 and r.state.lengths_left == 0
    assert r.pose.x + 0.5 == pytest.approx(3.0, abs=1e-5)  # front at the wall's face
    assert g.ram_feature(r.pose) is None


def test_blocked_disentanglement_after_a_push_backs_up_along_the_push() -> None:
    """"Blocked Disentanglement": the original direction of travel of a push is the field's."""
    walls = (Wall("END", Rect((1.0, 1.7), (2.0, 1.0))), Wall("W", Rect((0.6, 1.0), (0.2, 4.0))),
             Wall("E", Rect((1.4, 1.0), (0.2, 4.0))))
    g = arena(walls=walls, acceleration_fields=(AccelerationField("F", Circle((1.0, 0.0), 0.2), 90.0),))
    r = apply(g, Pose(1.0, -1.0, 90.0), Maneuver(0), TurnState.start(2))
    assert any(isinstance(e, FieldPush) for e in r.events)
    ram = next(e for e in r.events if isinstance(e, Ram))
    assert not ram.disentangled
    assert r.pose.x == pytest.approx(1.0)
    assert r.pose.y + 0.5 == pytest.approx(1.2, abs=1e-5)  # front touching the end wall
    assert g.ram_feature(r.pose) is None


def test_pivot_only_once_per_phase_and_at_most_360_degrees() -> None:
    """"Pivots": "rotate your turbine around any of its corners ... by any amount up to 360
    degrees" - one pivot, so its end-of-phase damage is charged once."""
    g = arena(exclusion_fields=(ExclusionField("X", Rect((0.0, 0.0), (4.0, 4.0)), active_from_tier=1),))
    r = apply_pivot(g, Pose(0.0, 0.0, 0.0), 0, 90.0, TurnState.start(0))
    assert r.damage == 2
    with pytest.raises(IllegalManeuver, match="once"):
        apply_pivot(g, r.pose, 0, 90.0, r.state)
    with pytest.raises(IllegalManeuver, match="360"):
        apply_pivot(g, Pose(0.0, 0.0, 0.0), 0, 400.0, TurnState.start(0))
    assert apply_pivot(g, Pose(0.0, 0.0, 0.0), 1, -360.0, TurnState.start(0)).pose.heading == 0.0


def test_pivot_into_a_wall_is_a_zero_damage_ram_resolved_by_disentangling() -> None:
    """"Modified Ramming Damage": "0 damage rams (such as when a pivoting turbine rams
    something)"; "Resolving a Ram Against an Arena Feature" step 4: disentangle by pivoting
    about the corner furthest from the contact - the pivot is not simply undone."""
    g = arena(walls=(Wall("W", Rect((0.0, 1.2), (4.0, 1.0))),))
    start = Pose(0.0, 0.0, 0.0)
    r = apply_pivot(g, start, 1, 90.0, TurnState.start(0))  # about the rear-left corner, into the wall
    ram = r.events[0]
    assert isinstance(ram, Ram) and ram.damage == 0 and ram.disentangled
    assert g.ram_feature(r.pose) is None
    assert r.pose != start and r.pose.heading != 0.0


def test_ram_to_speed_zero_with_card_lengths_left_moves_on() -> None:
    """"Speed Change in the Maneuver Phase": a ram's speed loss takes as many lengths away; what
    is left (here from a card giving extra lengths) is still moved."""
    g = arena(walls=(Wall("W", Rect((1.4, 0.0), (0.4, 4.0))),))
    state = TurnState.start(2, lengths=4)
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), state)
    assert isinstance(r.events[0], Ram) and r.state.speed == 0 and r.state.lengths_left == 1
    r2 = apply(g, r.pose, Maneuver(30), r.state)
    assert r2.state.lengths_left == 0


def test_reverse_ram_keeps_moving_backwards() -> None:
    """"About Traveling in Reverse": a turbine in reverse keeps maneuvering from its other end
    after a ram leaves it at speed 0 with lengths to move."""
    g = arena(walls=(Wall("W", Rect((-1.4, 0.0), (0.4, 4.0))),))
    r = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), TurnState.start(-2, lengths=4))
    assert r.state.speed == 0 and r.state.reverse
    r2 = apply(g, r.pose, Maneuver(0), r.state, resolve_rams=False)
    (x0, y0), (x1, y1) = r2.path[0], r2.path[1]
    h = math.radians(r.pose.heading)
    assert (x1 - x0) * math.cos(h) + (y1 - y0) * math.sin(h) == pytest.approx(-1.0)  # one length backwards


def test_two_way_gate_crossed_once_when_a_length_ends_on_its_line() -> None:
    """Scoring variant "Gates": a gate is scored by passing over its line - once, even when one
    length ends exactly on the line and the next goes on."""
    g = arena(gates=(Gate("G", "outlying", (1.0, -2.0), (1.0, 2.0), one_way=False),))
    state = TurnState.start(2)
    r1 = apply(g, Pose(0.0, 0.0, 0.0), Maneuver(0), state)
    r2 = apply(g, r1.pose, Maneuver(0), r1.state)
    crossings = [e for e in r1.events + r2.events if isinstance(e, GateCrossed)]
    assert crossings == [GateCrossed("G")]


def test_circular_wall_is_tested_against_the_true_circle() -> None:
    """"Resolving a Ram Against an Arena Feature": a footprint reaching 1e-4 into a circular wall
    rams it (shapely draws circles as polygons whose edges lie up to 3e-4 r inside)."""
    g = arena(walls=(Wall("C", Circle((0.0, 0.0), 2.0)),))
    # the rear edge 1e-4 inside the circle, between two of the polygon's vertices
    h = 360.0 / 128 / 2
    d = 2.0 - 1e-4 + 0.5
    pose = Pose(d * math.cos(math.radians(h)), d * math.sin(math.radians(h)), h)
    assert g.ram_feature(pose) == "C"
    far = Pose((d + 2e-4) * math.cos(math.radians(h)), (d + 2e-4) * math.sin(math.radians(h)), h)
    assert g.ram_feature(far) is None


def test_partial_sideslip_shifts_up_to_one_width() -> None:
    """"Sideslipping": "shift the turbine sideways up to one width in either direction", for one
    icon whatever the amount."""
    p = move(Pose(0.0, 0.0, 90.0), Maneuver(0, sideslip=-0.25))
    assert (p.x, p.y) == pytest.approx((0.125, 1.0))
    assert Maneuver(0, 0.25).cost == Maneuver(0, 1).cost == 1
    with pytest.raises(IllegalManeuver):
        Maneuver(0, 1.01)


def test_static_target_under_the_shooters_base() -> None:
    """"Calculating Target Numbers": a static target under the attacker's base is at range 1 and
    in every arc (the attacker takes the best modifier) - not a crash."""
    tn = static_target_number(Pose(0.0, 0.0, 0.0), StaticTarget("T", (0.1, 0.05)), Blockers.of())
    assert tn.range.range == 1 and tn.arcs == frozenset(Arc)
    assert tn.tn == 0
