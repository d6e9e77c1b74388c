"""Glider-Pit Gladiators 2.02 movement and setup rules (engine/gliderpit/rules.py, movement.py).
Each test cites the rule it checks; "L" is the line of the seed text
(/work/shared/seeds/002_2bb38bd119a25a6d.txt)."""

from __future__ import annotations

import pytest

from engine.gliderpit.movement import phase_macros
from engine.gliderpit.rules import (COST, LEDGE, MAX_SPEED, PhaseState, begin_phase, chance_any_marker, current_effect, glide_options,
                                    launch_facings, launch_options, maneuvers, total_chance)
from engine.grids import hex_neighbour


def moves(s: PhaseState, **kw: int) -> dict[str, list[PhaseState]]:
    out: dict[str, list[PhaseState]] = {}
    for name, nxt in maneuvers(s, **kw):
        out.setdefault(name, []).append(nxt)
    return out


def test_forward_moves_one_hex_for_one_point() -> None:
    """Forward: "Costs 1 movement point. To perform, move the glider counter forward one hex."
    (L111)"""
    s = begin_phase((0, 0), 2, 2, 10)
    (f,) = moves(s)["forward"]
    assert f.hex == hex_neighbour((0, 0), 2) and f.facing == 2 and f.mp == 1 and (f.speed, f.altitude) == (2, 10)


def test_first_turn_costs_speed_or_altitude_later_turns_are_free() -> None:
    """Turn: "rotate the glider counter one hexside left or right. If this is the first Turn
    maneuver by the glider in the current Movement Phase, the player must reduce either speed or
    altitude by 1." (L113)"""
    s = begin_phase((0, 0), 0, 2, 10)
    lefts = moves(s)["turn-left"]
    assert {(t.facing, t.speed, t.altitude, t.mp) for t in lefts} == {(1, 1, 10, 1), (1, 2, 9, 1)}
    second = moves(lefts[0])["turn-left"]
    assert [(t.facing, t.speed, t.altitude) for t in second] == [(2, lefts[0].speed, lefts[0].altitude)]


def test_no_turn_first_when_starting_at_speed_three_or_more() -> None:
    """"A glider starting the Movement Phase at speed 3 or greater cannot perform a Turn as its
    first maneuver of the phase." (L113)"""
    assert "turn-left" not in moves(begin_phase((0, 0), 0, 3, 10))
    assert "turn-left" in moves(begin_phase((0, 0), 0, 2, 10))


def test_at_current_speed_three_a_move_comes_before_each_turn() -> None:
    """"When the current speed of the glider is 3 or greater, the player must perform a Forward,
    Climb or Slip maneuver before each Turn maneuver." (L113); summary: "Must perform a Forward,
    Climb or Slip maneuver before a Turn at speeds over 2." (L334)"""
    s = begin_phase((0, 0), 0, 4, 10)
    (f,) = moves(s)["forward"]
    turned = [t for t in moves(f)["turn-left"] if t.altitude == 9]  # keep speed 4
    assert turned and "turn-left" not in moves(turned[0]) and "turn-right" not in moves(turned[0])
    # when the first turn took a speed (current speed 2), a second turn may follow at once
    (f3,) = moves(begin_phase((0, 0), 0, 3, 10))["forward"]
    (slowed,) = [t for t in moves(f3)["turn-left"] if t.speed == 2]
    assert "turn-left" in moves(slowed)


def test_turns_in_one_hex_keep_one_direction() -> None:
    """"Multiple Turn maneuvers performed in a single hex (by gliders with a current speed of 2
    or less) must all be in the same direction." (L113)"""
    s = begin_phase((0, 0), 0, 2, 10)
    left = moves(s)["turn-left"][0]
    assert "turn-right" not in moves(left) and "turn-left" in moves(left)
    # after moving on to another hex, the other direction is open again
    (f,) = moves(begin_phase((0, 0), 0, 4, 10))["forward"]
    (left4,) = [t for t in moves(f)["turn-left"] if t.speed == 4]
    (f2,) = moves(left4)["forward"]
    assert "turn-right" in moves(f2)


def test_turn_after_slip_goes_the_slips_way() -> None:
    """"A Turn maneuver that immediately follows a Slip must be made in the same direction as
    that of the Slip." (L113)"""
    s = begin_phase((0, 0), 0, 3, 10)
    (slip,) = moves(s)["slip-right"]
    after = moves(slip)
    assert "turn-right" in after and "turn-left" not in after


def test_slip_keeps_facing_moves_diagonally_and_costs_two_and_an_altitude() -> None:
    """Slip: "Costs 2 movement points and reduces altitude 1 level ... move the glider diagonally
    forward one hex left or right while maintaining the same facing in the new hex.
    CONDITIONS: May not perform ... when less than 2 Movement Points are available." (L115)"""
    s = begin_phase((0, 0), 0, 2, 10)
    (left,) = moves(s)["slip-left"]
    (right,) = moves(s)["slip-right"]
    assert (left.hex, left.facing, left.mp, left.altitude) == (hex_neighbour((0, 0), 1), 0, 0, 9)
    assert right.hex == hex_neighbour((0, 0), 5)
    assert "slip-left" not in moves(begin_phase((0, 0), 0, 1, 10))
    assert COST["slip"] == 2


def test_climb_trades_speed_for_altitude_but_never_to_ledge() -> None:
    """Climb: "Costs 1 movement point. Reduces speed by 1 and increases altitude 1 level. To
    perform, move the glider forward one hex ... May not climb to LEDGE level or higher."
    (L117); the track runs LEDGE, 20, 19 ... (L363-373)"""
    (c,) = moves(begin_phase((0, 0), 0, 3, 10))["climb"]
    assert (c.hex, c.speed, c.altitude, c.mp, c.climbed) == ((1, 0), 2, 11, 2, True)
    assert LEDGE == 21
    assert "climb" not in moves(begin_phase((0, 0), 0, 3, 20))
    assert "climb" in moves(begin_phase((0, 0), 0, 3, 19))


def test_maneuvers_that_reach_the_floor_are_left_out() -> None:
    """"Any time a glider reaches the FLOOR level or lower, the glider has been eliminated"
    (L67): a planner never slips or pays a Turn in altitude down to it."""
    s = begin_phase((0, 0), 0, 2, 6)
    assert "slip-left" not in moves(s, floor=5)
    assert {t.altitude for t in moves(s, floor=5)["turn-left"]} == {6}


def test_every_phase_spends_the_whole_allowance() -> None:
    """"a player must expend his glider's entire Movement Point Allowance by exact count. The
    Movement Point Allowance is equal to the speed of the glider at the start of the current
    Movement Phase." (L107)"""
    names = {"forward": "forward", "climb": "climb", "turn-left": "turn", "turn-right": "turn",
             "slip-left": "slip", "slip-right": "slip"}
    for speed in range(1, MAX_SPEED + 1):
        ms = phase_macros(speed)
        assert ms
        for m in ms:
            assert sum(COST[names[st.maneuver]] for st in m.steps) == speed
    assert phase_macros(0) == ()  # a glider that begins at speed 0 Spins (L119)


def test_glide_phase_dives_and_deceleration() -> None:
    """Diving: "dive his glider 1 to 3 levels in this phase if it did not climb in the preceding
    Movement phase ... reduce the glider's altitude by 1 and increase its speed by 1" (L133);
    "No glider may exceed speed 5" (L71); "A glider that does not dive must check for
    deceleration. Roll 1d6. On a 1 or 2, deceleration occurs" (L135)."""
    opts = glide_options(2, 10, climbed=False)
    assert [(g.dive, g.speed, g.altitude) for g in opts] == [(0, 2, 10), (1, 3, 9), (2, 4, 8), (3, 5, 7)]
    assert [g.dive for g in glide_options(4, 10, climbed=False)] == [0, 1]  # no dive past speed 5
    assert [g.dive for g in glide_options(2, 10, climbed=True)] == [0]  # no dive after a climb
    assert [(g.dive, g.speed) for g in glide_options(2, 10, climbed=True, deceleration="always")] == [(0, 1)]
    # speed 0 without a dive means a Spin next phase (L119, L137): not offered
    assert [g.dive for g in glide_options(0, 10, climbed=False)] == [1, 2, 3]
    assert glide_options(0, 10, climbed=True) == []
    assert [g.dive for g in glide_options(2, 7, climbed=False, floor=5)] == [0, 1]  # never dive to the FLOOR


def test_launch() -> None:
    """"The glider counter may be launched facing in any direction except toward a hexside that
    contains a pit wall. Move the glider's altitude marker down 1 level and increase its speed
    marker to 1. A player may choose to dive an additional 1 to 3 levels" (L55-59)."""
    assert launch_options() == [(0, 1, 20), (1, 2, 19), (2, 3, 18), (3, 4, 17)]
    assert launch_facings((0, 1, 5)) == (2, 3, 4)
    assert launch_facings(range(6)) == ()


def test_air_current_chances() -> None:
    """"Take the four air current markers. Roll 2d6. Place any one of the markers on a hex row
    matching the die roll." (L195) "Roll the dice three more times" (L199): a total k comes up
    with chance (6 - |k - 7|) / 36."""
    assert sum(total_chance(k) for k in range(2, 13)) == pytest.approx(1.0)
    assert total_chance(7) == pytest.approx(6 / 36) and total_chance(2) == pytest.approx(1 / 36)
    assert total_chance(13) == 0
    assert chance_any_marker([7]) == pytest.approx(1 - (30 / 36) ** 4)
    assert chance_any_marker([2, 12, 2]) == pytest.approx(1 - (34 / 36) ** 4)  # repeats count once
    assert chance_any_marker(range(2, 13)) == pytest.approx(1.0)
    assert chance_any_marker([]) == 0.0


def test_air_current_effects() -> None:
    """"pair up any two opposing markers in the row and remove them" (L201); one updraft marker
    "increase the glider's altitude by 1", two "by 2" (L203-205); downdrafts "in the same
    manner" (L207); "A glider will not be moved to FLOOR level by a downdraft. Any gliders at
    altitude level 1 are not affected by downdrafts and gliders at altitude level 2 will only be
    moved to level 1" (L209)."""
    assert [current_effect(10, u, d) for u, d in ((1, 0), (2, 0), (0, 1), (0, 2), (1, 1), (2, 1), (1, 2), (2, 2))] == \
        [11, 12, 9, 8, 10, 11, 9, 10]
    assert (current_effect(1, 0, 2), current_effect(2, 0, 2), current_effect(3, 0, 2)) == (1, 1, 1)
    assert current_effect(20, 2, 0) == 20 and current_effect(19, 2, 0) == 20  # never up to LEDGE (L67)
    assert (current_effect(16, 0, 2, floor=15), current_effect(17, 0, 2, floor=15)) == (16, 16)
    with pytest.raises(ValueError):
        current_effect(10, 3, 0)  # there are two UP DRAFT markers (L358-359)
