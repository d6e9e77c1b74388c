"""Turn structure ("Distributing Initiative Tokens", "The Attack Phase", "Bonus Cards For
Slow-moving Turbines", "Damage from Excessive Speed Change")."""

from __future__ import annotations

import random

import pytest

from engine.gravstrike.turns import (
    attack_order,
    bonus_cards,
    initiative_order,
    initiative_tokens,
    speed_change_damage,
)

EXAMPLE = {1: 6, 2: 5, 3: 5, 4: 2, 5: -5}


def test_initiative_book_example() -> None:
    """Distributing Initiative Tokens, the book's example (speeds 6, 5, 5, 2, -5): speed 6 takes
    #1, the three at absolute speed 5 draw #2-#4 among themselves, speed 2 takes #5."""
    seen = set()
    for seed in range(60):
        order = initiative_order(EXAMPLE, random.Random(seed))
        assert order[0] == 1 and order[4] == 4
        assert set(order[1:4]) == {2, 3, 5}
        seen.add(order[1:4])
    assert len(seen) == 6  # the tied block really is drawn at random


def test_initiative_is_deterministic_with_a_seed() -> None:
    """Distributing Initiative Tokens: the random draw comes from the injected generator."""
    a = initiative_order(EXAMPLE, random.Random(42))
    b = initiative_order(dict(reversed(list(EXAMPLE.items()))), random.Random(42))
    assert a == b
    assert initiative_tokens(EXAMPLE, random.Random(42)) == {p: k + 1 for k, p in enumerate(a)}


def test_absolute_speed_orders_initiative() -> None:
    """Distributing Initiative Tokens: "Speed -4 is a higher absolute speed than speed 2"."""
    assert initiative_order({1: 2, 2: -4, 3: 0}, random.Random(0)) == (2, 1, 3)


def test_attack_order_is_reversed() -> None:
    """The Attack Phase: the highest initiative number attacks first, #1 last."""
    assert attack_order((3, 1, 2)) == (2, 1, 3)


@pytest.mark.parametrize(
    "speed, cards", [(0, 3), (1, 2), (-1, 2), (2, 2), (-2, 2), (3, 1), (-3, 1), (4, 0), (-6, 0), (6, 0)]
)
def test_bonus_cards(speed: int, cards: int) -> None:
    """Bonus Cards For Slow-moving Turbines: 3/-3: 1, 1-2 either way: 2, 0: 3."""
    assert bonus_cards(speed) == cards


def test_speed_change_book_example() -> None:
    """Damage from Excessive Speed Change, the book's example: speed 6, Speed Delta 3, dial -1:
    4 damage (three Protect icons would leave 1)."""
    dmg = speed_change_damage(6, -1, speed_delta=3)
    assert dmg == 4 and dmg - 3 == 1


def test_speed_change_rules() -> None:
    """Damage from Excessive Speed Change / Going From Forward to Reverse: either direction
    counts; cards add to the legal change; -1 to 1 with delta 2 is legal without stopping."""
    assert speed_change_damage(0, 5, speed_delta=2) == 3
    assert speed_change_damage(5, 0, speed_delta=2) == 3
    assert speed_change_damage(0, 5, speed_delta=2, extra_change=3) == 0
    assert speed_change_damage(-1, 1, speed_delta=2) == 0
    assert speed_change_damage(4, 4, speed_delta=0) == 0
    with pytest.raises(ValueError):
        speed_change_damage(6, 7, speed_delta=2)  # "can't have a speed faster than 6"
