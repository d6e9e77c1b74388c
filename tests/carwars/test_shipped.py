"""The three candidate shipped Car Wars arenas: the four-player 3 ft arena and the two-player
one pass every setup check and fairness metric; the flawed one trips exactly the codes its
description lists."""

from __future__ import annotations

import re

from engine.carwars.checks import setup_checks, start_keys
from engine.carwars.fairness import fairness_checks
from tests.carwars.util import load


def test_four_player_arena_passes_everything() -> None:
    a = load("shipped/crossroads-4p.yaml")
    assert len(a.start_positions) == 4 and a.box == "4-player"
    assert setup_checks(a) == []
    assert fairness_checks(a) == []
    assert all(k.polygon is not None for k in start_keys(a).values())


def test_two_player_arena_passes_everything() -> None:
    a = load("shipped/twin-pillars-2p.yaml")
    assert len(a.start_positions) == 2 and a.box == "2-player"
    assert setup_checks(a) == [] and fairness_checks(a) == []


def test_flawed_arena_trips_exactly_the_codes_its_description_lists() -> None:
    a = load("shipped/broken-yard-flawed.yaml")
    listed = set(re.findall(r"cw-[a-z-]+", a.description or ""))
    found = {i.code for i in setup_checks(a) + fairness_checks(a)}
    assert listed == found
    assert len(listed) >= 10
