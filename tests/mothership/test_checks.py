"""Setup checks and fairness of a battlefield (engine/mothership/checks.py, fairness.py): each
quiet on the book's battlefield and firing on one broken the way it guards against."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.mothership.checks import (CHECKS, check_all, check_build_squares, check_motherships, check_size,
                                      check_symmetry)
from engine.mothership.fairness import approach, compare
from schema.games.mothership import Analysis, Mothership, MothershipArena, Scenario, Symmetry, default_arena

DEFAULT = default_arena()
M1, M2 = DEFAULT.motherships


def with_ships(*ships: Mothership) -> MothershipArena:
    return replace(DEFAULT, motherships=ships)


@pytest.mark.parametrize("code", sorted(CHECKS))
def test_every_check_is_quiet_on_the_books_battlefield(code: str) -> None:
    assert CHECKS[code](DEFAULT) == []


def test_size_fires_on_holes_and_wrong_sizes() -> None:
    """"The Battlefield (or BF) is 3 x 5 squares." (L1)"""
    holed = replace(DEFAULT, squares=tuple(s for s in DEFAULT.squares if s != (1, 2)))
    (issue,) = check_size(holed)
    assert issue.code == "mg-size" and issue.metrics["missing"] == [[1, 2]] and "3 x 5 squares" in issue.message
    wide = replace(DEFAULT, squares=tuple((x, y) for x in range(4) for y in range(5)))
    assert [i.metrics["expected"] for i in check_size(wide)] == [[3, 5]]
    # the scenario may call for another size ("unless the scenario says otherwise")
    assert check_size(replace(wide, scenario=Scenario(size=(4, 5)))) == []
    # a battlefield lying on its side is still 3 x 5
    assert check_size(replace(DEFAULT, squares=tuple((x, y) for x in range(5) for y in range(3)))) == []
    assert check_size(replace(DEFAULT, squares=()))[0].severity == "error"


def test_motherships_fire_on_count_side_size_and_hp() -> None:
    """"On the shorter side there is your Mothership (your Base) ... The Mothership is NOT
    considered part of the Battlefield." (L6); "The 3 squares of the Mothership share a common
    of 5 HP." (L7)"""
    assert any("two players" in i.message for i in check_motherships(with_ships(M1)))
    assert any("two players" in i.message for i in check_motherships(with_ships(M1, replace(M2, player=1))))
    long_side = replace(M2, squares=((3, 0), (3, 1), (3, 2)))
    assert any("not along a short side" in i.message for i in check_motherships(with_ships(M1, long_side)))
    inside = replace(M2, squares=((0, 4), (1, 4), (2, 4)))
    assert any("covers 3 battlefield square" in i.message for i in check_motherships(with_ships(M1, inside)))
    two = replace(M2, squares=((0, 5), (1, 5)))
    assert any("not three" in i.message for i in check_motherships(with_ships(M1, two)))
    gap = replace(M2, squares=((0, 5), (2, 5), (3, 5)))
    assert any("not along a short side" in i.message for i in check_motherships(with_ships(M1, gap)))
    same_side = replace(M2, squares=M1.squares)
    assert any("opposite short sides" in i.message for i in check_motherships(with_ships(M1, same_side)))
    (hp,) = check_motherships(with_ships(M1, replace(M2, hp=7)))
    assert hp.severity == "warning" and hp.metrics["hp"] == 7


def test_a_larger_scenario_battlefield_keeps_a_three_square_mothership_centred() -> None:
    """On a 5 x 7 battlefield (a scenario size) the 3-square Mothership sits in the middle of
    its short side; off to one end it is flagged."""
    big = replace(DEFAULT, squares=tuple((x, y) for x in range(5) for y in range(7)), scenario=Scenario(size=(5, 7)),
                  motherships=(replace(M1, squares=((1, -1), (2, -1), (3, -1)), build_squares=((1, 0), (2, 0), (3, 0))),
                               replace(M2, squares=((1, 7), (2, 7), (3, 7)), build_squares=((1, 6), (2, 6), (3, 6)))))
    assert check_all(big) == [] and compare(big) == []
    shifted = replace(big, motherships=(replace(big.motherships[0], squares=((0, -1), (1, -1), (2, -1))),
                                        big.motherships[1]))
    assert any("middle of the south side" in i.message for i in check_motherships(shifted))


def test_build_squares_fire_when_not_the_three_next_to_the_mothership() -> None:
    """"Your own Units will be constructed only in the three squares near your own Mothership."
    (L14)"""
    wrong = replace(M1, build_squares=((0, 0), (1, 0), (1, 1)))
    (issue,) = check_build_squares(with_ships(wrong, M2))
    assert issue.elements == ("M1",) and issue.metrics["extra"] == [[1, 1]] and issue.metrics["missing"] == [[2, 0]]
    assert "three squares near your own Mothership" in issue.message
    assert check_build_squares(with_ships(replace(M1, build_squares=()), M2))[0].metrics["missing"] == [[0, 0], [1, 0], [2, 0]]


def test_symmetry_fires_when_the_halves_differ() -> None:
    holed = replace(DEFAULT, squares=tuple(s for s in DEFAULT.squares if s != (0, 1)))
    (issue,) = check_symmetry(holed)
    assert issue.code == "mg-symmetry" and issue.metrics["squares"] == [[0, 3]]
    assert any("HP" in i.message for i in check_symmetry(with_ships(M1, replace(M2, hp=4))))
    # a hole at (0, 1) and one at (2, 3) match by a half turn, not by the mirror
    turned = replace(DEFAULT, squares=tuple(s for s in DEFAULT.squares if s not in ((0, 1), (2, 3))))
    assert check_symmetry(turned) != []
    assert check_symmetry(replace(turned, symmetry=Symmetry("rotational"))) == []


def test_approach_is_equal_on_the_books_battlefield_and_fires_when_not() -> None:
    """Squares (1 AP each, L56) from each build square to the enemy Mothership's adjacent row."""
    assert [(a.player, a.ap, a.rounds) for a in approach(DEFAULT)] == [(1, (4, 4, 4), (1, 1, 1)), (2, (4, 4, 4), (1, 1, 1))]
    assert compare(DEFAULT) == []
    # one hole alone costs both players the same (a way there is a way back); two that don't
    # mirror each other do not
    one = replace(DEFAULT, squares=tuple(s for s in DEFAULT.squares if s != (0, 3)))
    assert compare(one) == []
    holed = replace(DEFAULT, squares=tuple(s for s in DEFAULT.squares if s not in ((0, 1), (1, 3))))
    (issue,) = compare(holed)
    assert issue.code == "mg-approach" and issue.metrics["player1"] == [6, 5, 4] and issue.metrics["player2"] == [5, 5, 4]
    assert compare(replace(holed, scenario=Scenario(analysis=Analysis(approach_tolerance=1)))) == []
    assert compare(replace(holed, scenario=Scenario(analysis=Analysis(disabled=("mg-approach",))))) == []
    cut = replace(DEFAULT, squares=tuple(s for s in DEFAULT.squares if s[1] != 2))
    assert any("cannot reach" in i.message for i in compare(cut))


def test_disabled_checks_do_not_run() -> None:
    holed = replace(DEFAULT, squares=DEFAULT.squares[1:], scenario=Scenario(analysis=Analysis(disabled=("mg-size",))))
    assert "mg-size" not in {i.code for i in check_all(holed)}
