"""The Mothership card game's grid rules (engine/mothership/rules.py); "L" is the line of
/work/shared/seeds/003_07d353598ccfefe1.txt."""

from __future__ import annotations

from engine.mothership import rules


def test_the_books_figures() -> None:
    """"The Battlefield (or BF) is 3 x 5 squares." (L1); "The 3 squares of the Mothership share a
    common of 5 HP." (L7); "6 APs (Action Point), of which a maximum of 5 are utilizable by 1
    single Unit." (L53); "For every square in which the Units move, they spend 1 AP." (L56)"""
    assert rules.BATTLEFIELD_SIZE == (3, 5)
    assert (rules.MOTHERSHIP_SQUARES, rules.MOTHERSHIP_HP, rules.BUILD_SQUARES) == (3, 5, 3)
    assert (rules.AP_PER_ROUND, rules.AP_PER_UNIT, rules.AP_PER_SQUARE) == (6, 5, 1)
    assert (rules.SIDESTEP_AP, rules.SWITCH_AP, rules.MAX_TEAM_VALUE, rules.CONSTRUCTION_POINTS) == (1, 2, 3, 3)


def test_diagonal_lines_of_fire_count_two() -> None:
    """"Diagonal lines of fire are considered 2 squares away." (L84)"""
    assert rules.fire_range((1, 1), (2, 2)) == 2
    assert rules.fire_range((0, 0), (0, 3)) == 3
    assert rules.near((1, 1), (1, 2)) and not rules.near((1, 1), (2, 2))
    assert set(rules.move_neighbours((1, 1))) == {(2, 1), (0, 1), (1, 2), (1, 0)}


def test_line_of_fire_runs_centre_to_centre_and_corners_do_not_obstruct() -> None:
    """"The center of the square with the Unit who attacks must connect with the center of the
    square with the Unit attacked without any obstructions. Example: a diagonal R2 won't have any
    obstructions." (L86); "With an attack R3 sometimes it can happen that there are even two
    obstructing Units." (L90)"""
    assert rules.line_of_fire((0, 0), (1, 1)) == []
    assert rules.line_of_fire((0, 0), (0, 3)) == [(0, 1), (0, 2)]
    assert rules.line_of_fire((0, 0), (2, 1)) == [(1, 0), (1, 1)]  # R3 off the axis: two squares in the way
    assert rules.line_of_fire((0, 0), (2, 2)) == [(1, 1)]
