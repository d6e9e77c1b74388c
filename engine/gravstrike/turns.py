"""Turn structure: initiative, bonus cards and excessive speed change (book: "Distributing
Initiative Tokens", "Bonus Cards For Slow-moving Turbines", "Damage from Excessive Speed
Change", "The Attack Phase").

>>> import random
>>> initiative_order({1: 6, 2: 5, 3: 5, 4: 2, 5: -5}, random.Random(0))[0]
1
>>> bonus_cards(-2), speed_change_damage(6, -1, speed_delta=3)
(2, 4)
"""

from __future__ import annotations

import random
from itertools import groupby
from typing import Mapping, Sequence

MAX_SPEED = 6

#: Speed -> bonus cards, from the speed dial.
BONUS_CARDS: Mapping[int, int] = {3: 1, -3: 1, 2: 2, 1: 2, -1: 2, -2: 2, 0: 3}


def initiative_order(speeds: Mapping[int, int], rng: random.Random) -> tuple[int, ...]:
    """Players in initiative-token order (#1 first) from their speeds this turn.

    Highest absolute speed first; players with tied absolute speeds randomly draw among
    themselves the next block of tokens (a shuffle with ``rng``, after sorting by player so
    that a seeded ``rng`` gives the same result whatever the mapping's order).
    """
    players = sorted(speeds, key=lambda p: (-abs(speeds[p]), p))
    order: list[int] = []
    for _, group in groupby(players, key=lambda p: abs(speeds[p])):
        block = list(group)
        if len(block) > 1:
            rng.shuffle(block)
        order.extend(block)
    return tuple(order)


def initiative_tokens(speeds: Mapping[int, int], rng: random.Random) -> dict[int, int]:
    """Player -> initiative token number (1-based)."""
    return {p: k for k, p in enumerate(initiative_order(speeds, rng), start=1)}


def attack_order(initiative: Sequence[int]) -> tuple[int, ...]:
    """The attack phase runs in reverse token order: the highest number attacks first."""
    return tuple(reversed(initiative))


def bonus_cards(speed: int) -> int:
    """Extra cards drawn after speeds are revealed (0 at absolute speed 4 or more)."""
    check_speed(speed)
    return BONUS_CARDS.get(speed, 0)


def check_speed(speed: int, max_speed: int = MAX_SPEED) -> None:
    if not -max_speed <= speed <= max_speed:
        raise ValueError(f"speed must be between -{max_speed} and {max_speed}, not {speed}")


def max_legal_change(speed_delta: int, extra_change: int = 0) -> int:
    """How far a speed may change this acceleration phase: Speed Delta plus what cards and
    fixtures add (``extra_change``)."""
    if speed_delta < 0 or extra_change < 0:
        raise ValueError("speed delta and extra change are non-negative")
    return speed_delta + extra_change


def speed_change_damage(
    old: int, new: int, speed_delta: int, extra_change: int = 0, max_speed: int = MAX_SPEED
) -> int:
    """Damage for an excessive speed change: how far the actual change exceeds the maximum
    legal change, in either direction (0 for a legal change).  Going from forward to reverse
    needs no stop at 0, so the change is simply ``|new - old|``.  Protect icons that reduce
    this damage are the caller's business.  Speeds beyond +/-``max_speed`` are not allowed
    at all and raise ``ValueError``."""
    check_speed(old, max_speed)
    check_speed(new, max_speed)
    return max(0, abs(new - old) - max_legal_change(speed_delta, extra_change))
