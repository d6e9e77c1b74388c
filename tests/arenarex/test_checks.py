"""Arena Rex setup checks, each firing and quiet, citing the book (Arena Rex playtest v0.2,
004_dc762f78e7f2abcd.txt, "Starting a Game", L40, and "Terrain", L38)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.arenarex.checks import SETUP_CHECKS, board_extent
from schema.games.arenarex import Deployment
from schema.shapes import Circle, Polygon, Rect
from schema.shapes import Symmetry
from tests.arenarex.util import circle, pit, spikes, with_analysis


def codes(arena, code: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [i.message for i in SETUP_CHECKS[code](arena) if i.code == code]


def test_the_shipped_circle_passes_every_setup_check() -> None:
    a = circle()
    assert {c: fn(a) for c, fn in SETUP_CHECKS.items()} == {c: [] for c in SETUP_CHECKS}


# ------------------------------------------------------------------ ar-board-size


def test_board_size_quiet_for_the_30_circle_and_24_square() -> None:
    """"We suggest a board at least 24 x 24 for Arena Rex. Our games typically take place on a
    30 diameter circle." """
    assert codes(circle(), "ar-board-size") == []
    assert codes(replace(circle(), bounds=Rect((0.0, 0.0), (24.0, 24.0)), deployment=()), "ar-board-size") == []


@pytest.mark.parametrize("bounds", [Circle((0.0, 0.0), 11.0), Rect((0.0, 0.0), (30.0, 20.0), 30.0),
                                    Polygon(((0.0, 0.0), (23.0, 0.0), (23.0, 40.0), (0.0, 40.0)))])
def test_board_size_warns_below_24_inches_one_way(bounds) -> None:  # type: ignore[no-untyped-def]
    """"We suggest a board at least 24 x 24 for Arena Rex." """
    msgs = codes(replace(circle(), bounds=bounds, deployment=()), "ar-board-size")
    assert len(msgs) == 1 and "We suggest a board at least 24 x 24" in msgs[0]


def test_board_extent_of_a_rotated_rectangle() -> None:
    a = replace(circle(), bounds=Rect((0.0, 0.0), (30.0, 20.0), 30.0))
    assert board_extent(a) == pytest.approx((20.0, 30.0))


# ------------------------------------------------------------------ ar-pits and ar-hazard-mix


def test_pits_warn_below_two_and_quiet_at_two() -> None:
    """"Your board should have at least two pits" """
    a = circle()
    assert codes(a, "ar-pits") == []
    msgs = codes(replace(a, pits=a.pits[:1]), "ar-pits")
    assert len(msgs) == 1 and "at least two pits" in msgs[0] and "1 pit" in msgs[0]


@pytest.mark.parametrize("drop, words", [("spikes", "no spikes"), ("hazards", "no terrain hazards")])
def test_hazard_mix_wants_spikes_and_hazards(drop: str, words: str) -> None:
    """"... and a good mix of spikes and hazards." """
    a = circle()
    assert codes(a, "ar-hazard-mix") == []
    msgs = codes(replace(a, **{drop: ()}), "ar-hazard-mix")
    assert len(msgs) == 1 and words in msgs[0] and "a good mix of spikes and hazards" in msgs[0]


# ------------------------------------------------------------------ ar-deployment


def test_deployment_quiet_on_opposite_arcs_and_opposite_sides() -> None:
    """"Players alternate deploying miniatures along their board edge ... Find the center of your
    board edge, your cohort may be deployed up to 6 inches away from the center" """
    assert codes(circle(), "ar-deployment") == []
    square = replace(circle(), bounds=Rect((0.0, 0.0), (24.0, 24.0)), symmetry=None,
                     deployment=(Deployment(1, side=0), Deployment(2, side=2)))
    assert codes(square, "ar-deployment") == []


def _deps(*deps: Deployment):  # type: ignore[no-untyped-def]
    return replace(circle(), deployment=deps)


@pytest.mark.parametrize("arena, words", [
    (_deps(Deployment(1, arc=(225.0, 315.0))), "1 deployment edge(s)"),
    (_deps(Deployment(1, arc=(225.0, 315.0)), Deployment(2, arc=(300.0, 350.0))), "the same board edge"),
    (replace(_deps(Deployment(1, side=0, center=(10.0, -12.0)), Deployment(2, side=1, center=(12.0, -10.0))),
             bounds=Rect((0.0, 0.0), (24.0, 24.0))), "overlap"),
    (_deps(Deployment(1, arc=(225.0, 315.0), center=(5.0, -14.0)), Deployment(2, arc=(45.0, 135.0))),
     "Find the center of your board edge"),
    (_deps(Deployment(1, arc=(225.0, 315.0), center=(0.0, -13.0)), Deployment(2, arc=(45.0, 135.0))),
     "off its board edge"),
    (_deps(Deployment(1, side=0), Deployment(2, arc=(45.0, 135.0))), "a circle board has no sides"),
])
def test_deployment_errors(arena, words: str) -> None:  # type: ignore[no-untyped-def]
    msgs = codes(arena, "ar-deployment")
    assert any(words in m for m in msgs), msgs
    assert all('"' in m for m in msgs)  # every message quotes the book


def test_deployment_reach_beyond_six_inches() -> None:
    """"... up to 6 inches away from the center in either direction." """
    msgs = codes(with_analysis(circle(), deployment_reach=7.0), "ar-deployment")
    assert any("up to 6 inches away from the center" in m for m in msgs)


def test_short_edge_warns() -> None:
    a = replace(circle(), bounds=Rect((0.0, 0.0), (8.0, 30.0)), symmetry=None,
                deployment=(Deployment(1, side=0), Deployment(2, side=2)))
    issues = [i for i in SETUP_CHECKS["ar-deployment"](a)]
    assert {i.severity for i in issues} == {"warning"} and len(issues) == 2
    assert "8 in long" in issues[0].message


def test_a_pit_in_reach_of_a_deployed_base_is_an_error_and_one_beyond_is_quiet() -> None:
    """"If any part of a model's base touches a Lethal Hazard (pit, most likely), that model is
    destroyed." (L38): a 50 mm base (1.97 in) in the zone on the rim at y = -15 reaches y = -13.03."""
    near = replace(circle(), pits=(*circle().pits, pit("pit-rim", 0.0, -11.6, 1.5)))  # down to -13.1
    msgs = codes(near, "ar-deployment")
    assert len(msgs) == 1 and "pit pit-rim" in msgs[0] and "a 50 mm base" in msgs[0] and "Lethal Hazard" in msgs[0]
    assert [i.metrics["bases_mm"] for i in SETUP_CHECKS["ar-deployment"](near)] == [[50]]
    clear = replace(circle(), pits=(*circle().pits, pit("pit-rim", 0.0, -11.0, 1.5)))  # reaches -12.5
    assert codes(clear, "ar-deployment") == []


def test_spikes_in_the_zone_are_an_error() -> None:
    """"The first time during each attack a model is pushed into a wounding hazard, it suffers 3
    damage." (L38)"""
    a = replace(circle(), spikes=(*circle().spikes, spikes("rim-spikes", 0.0, 13.8, 2.0, 0.5)))
    msgs = codes(a, "ar-deployment")
    assert len(msgs) == 1 and "spikes rim-spikes" in msgs[0] and "wounding hazard" in msgs[0]


# ------------------------------------------------------------------ ar-symmetry


def test_symmetry_quiet_when_zones_pits_and_spikes_turn_onto_each_other() -> None:
    assert codes(circle(), "ar-symmetry") == []
    assert codes(replace(circle(), symmetry=None, pits=circle().pits[:1]), "ar-symmetry") == []


def test_symmetry_names_each_element_without_a_counterpart() -> None:
    a = replace(circle(), pits=(pit("pit-west", -7.0, 0.0), pit("pit-east", 7.0, 1.0)))
    msgs = codes(a, "ar-symmetry")
    assert len(msgs) == 2 and any("pit pit-west" in m for m in msgs) and "rotation by 180 degrees" in msgs[0]


def test_symmetry_moves_zones_too() -> None:
    a = replace(circle(), deployment=(Deployment(1, arc=(225.0, 315.0)), Deployment(2, arc=(0.0, 90.0))))
    msgs = codes(a, "ar-symmetry")
    assert any("deployment zone deploy:1" in m for m in msgs) and any("deployment zone deploy:2" in m for m in msgs)


def test_mirror_symmetry_of_the_circle_fails_for_offset_spikes() -> None:
    a = replace(circle(), symmetry=Symmetry("mirror", 1, (0.0, 0.0), 90.0))
    msgs = codes(a, "ar-symmetry")
    # the zones (south and north arcs) and the pits (at x = -7 and 7) mirror in the y axis
    assert {m.split(" has")[0] for m in msgs} == {"spikes spikes-north", "spikes spikes-south"}
