"""Car Wars fairness metrics: firing and quiet cases for every code, and the symmetry
shortcut agreeing with planning every start."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.carwars.fairness import (
    check_card_reach,
    check_centre_access,
    check_exposure,
    check_sightlines,
    check_start_access,
    check_start_spacing,
    exposure,
    fairness_checks,
    sightlines,
    start_metrics,
    travel_table,
)
from engine.carwars.symmetry import symmetries
from schema.games.carwars import Analysis, Card, Hazard, Scenario, StartPosition, Terrain, Wall, default_arena
from schema.shapes import Rect
from tests.carwars.util import load

BASE = default_arena()
SOUTH_NORTH = (StartPosition(1, (0.0, -14.75), 90.0), StartPosition(2, (0.0, 14.75), 270.0))


def codes(issues: list) -> set[str]:  # type: ignore[type-arg]
    return {i.code for i in issues}


def test_start_access_quiet_when_checkpoints_are_symmetric() -> None:
    cards = (Card("A", 0, (10.0, 0.0), rotation=90.0), Card("B", 1, (-10.0, 0.0), rotation=90.0))
    a = replace(BASE, start_positions=SOUTH_NORTH, cards=cards)
    assert check_start_access(a, travel_table(a)) == []


def test_start_access_fires_when_one_start_is_nearer_the_checkpoints() -> None:
    cards = (Card("A", 0, (0.0, -8.0)), Card("B", 1, (6.0, -8.0)))
    a = replace(BASE, start_positions=SOUTH_NORTH, cards=cards)
    table = travel_table(a)
    out = check_start_access(a, table)
    assert codes(out) == {"cw-start-access"} and all(i.severity == "warning" for i in out)
    assert any("start:2 needs" in i.message and "nearest checkpoint" in i.message for i in out)
    m = start_metrics(a, table)
    assert m["start:1"]["flat-out"]["nearest_time"] < m["start:2"]["flat-out"]["nearest_time"]


def test_own_checkpoint_access_compares_each_player_with_their_own() -> None:
    fair = (Card("A", 0, (8.0, -10.0), owner=1), Card("B", 1, (-8.0, 10.0), owner=2))
    a = replace(BASE, start_positions=SOUTH_NORTH, cards=fair)
    assert check_start_access(a, travel_table(a)) == []
    unfair = (Card("A", 0, (8.0, -10.0), owner=1), Card("B", 1, (8.0, -6.0), owner=2))
    a = replace(BASE, start_positions=SOUTH_NORTH, cards=unfair)
    out = check_start_access(a, travel_table(a))
    assert any("own-colour checkpoint" in i.message for i in out)


def test_centre_access_quiet_and_firing() -> None:
    assert check_centre_access(BASE, travel_table(BASE)) == []
    away = replace(BASE, start_positions=(StartPosition(1, (0.0, -14.75), 90.0), StartPosition(2, (0.0, 15.5), 0.0)))
    out = check_centre_access(away, travel_table(away))
    assert codes(out) == {"cw-centre-access"} and any("start:2 needs" in i.message for i in out)


def test_start_spacing_quiet_and_firing() -> None:
    assert check_start_spacing(BASE, travel_table(BASE, policies=("flat-out",))) == []
    lopsided = replace(BASE, start_positions=(StartPosition(1, (-8.0, -14.75), 90.0), StartPosition(2, (8.0, -14.75), 90.0),
                                              StartPosition(3, (0.0, 14.75), 270.0)))
    out = check_start_spacing(lopsided, travel_table(lopsided, policies=("flat-out",)))
    assert codes(out) == {"cw-start-spacing"} and out[0].elements[0] == "start:3"


def test_card_reach_fires_for_a_walled_in_card_and_is_quiet_otherwise() -> None:
    pen = (Wall("N", Rect((7.0, 12.5), (8.0, 1.0))), Wall("S", Rect((7.0, 1.5), (8.0, 1.0))),
           Wall("E", Rect((10.5, 7.0), (1.0, 11.0))), Wall("W", Rect((3.5, 7.0), (1.0, 11.0))))
    open_ = replace(BASE, cards=(Card("C", 0, (7.0, 7.0)),))
    assert check_card_reach(open_, travel_table(open_, policies=("flat-out",))) == []
    closed = replace(open_, walls=pen)
    out = check_card_reach(closed, travel_table(closed, policies=("flat-out",)))
    assert codes(out) == {"cw-card-reach"} and all(i.severity == "error" for i in out) and len(out) == 4


def test_card_reach_reports_beyond_the_horizon_as_info() -> None:
    far = replace(BASE, cards=(Card("C", 0, (0.0, 12.0)),), scenario=Scenario(analysis=Analysis(max_turns=1)))
    out = check_card_reach(far, travel_table(far, policies=("flat-out",)))
    assert out and all(i.severity == "info" and "beyond" in i.message for i in out)


def test_exposure_quiet_and_firing() -> None:
    # Terrain and Hazards: a start beside clay and rough ground meets more dice than the others
    even = replace(BASE, hazards=tuple(Hazard(f"H{k}", Rect(p, (2.5, 3.5)), dice=2) for k, p in
                                       enumerate([(6.0, -12.0), (-12.0, -6.0), (-6.0, 12.0), (12.0, 6.0)])))
    assert check_exposure(even) == []
    one = replace(BASE, hazards=(Hazard("H", Rect((5.0, -14.0), (2.5, 3.5)), dice=2),),
                  terrain=(Terrain("T", Rect((-5.0, -14.0), (8.0, 4.0)), level=3),))
    out = check_exposure(one)
    assert codes(out) == {"cw-exposure"} and len(out) == 2
    ex = exposure(one)
    assert ex["start:1"]["hazard_dice"] == 2 and ex["start:3"]["hazard_dice"] == 0 and ex["start:1"]["terrain"] > 0


def test_sightlines_quiet_and_firing() -> None:
    # Cover: "If a sightline *cannot* be drawn without crossing a full-cover obstacle, the
    # attacker cannot attack that target."
    assert check_sightlines(BASE) == []
    screen = replace(BASE, walls=(Wall("screen", Rect((-8.0, -8.0), (12.0, 1.0), 45.0)),))
    sl = sightlines(screen)
    assert "start:2" not in sl["start:1"]["sees"] and "start:3" in sl["start:1"]["sees"]
    out = check_sightlines(screen)
    assert "cw-sightlines" in codes(out)
    assert check_sightlines(replace(screen, scenario=Scenario(analysis=Analysis(sight_tolerance=1)))) == []


def test_starting_cars_give_partial_cover() -> None:
    # Partial Cover: "Cars and any obstacles with this icon provide partial cover."
    sl = sightlines(BASE)
    assert sl["start:1"]["cover"]["start:3"] == []
    line = replace(BASE, start_positions=(StartPosition(1, (0.0, -14.75), 90.0), StartPosition(2, (0.0, 0.0), 0.0),
                                          StartPosition(3, (0.0, 14.75), 270.0)))
    assert sightlines(line)["start:1"]["cover"]["start:3"] == ["start:2"]


def test_symmetry_shortcut_gives_the_same_table() -> None:
    a = load("shipped/twin-pillars-2p.yaml")
    assert [s.angle for s in symmetries(a)] == [180.0]
    fast = travel_table(a)
    slow = travel_table(a, use_symmetry=False)
    for policy in ("safe", "flat-out"):
        for sid, row in slow.results[policy].items():
            for ref, r in row.items():
                f = fast.results[policy][sid][ref]
                assert (f.status, f.time, f.dice, f.hard) == (r.status, r.time, r.dice, r.hard), (policy, sid, ref)
    # a mapped path is the representative's turned half round: it ends where a real plan ends
    r2 = fast.results["flat-out"]["start:2"]["centre"]
    r1 = fast.results["flat-out"]["start:1"]["centre"]
    assert (r2.path[-1].x, r2.path[-1].y) == pytest.approx((-r1.path[-1].x, -r1.path[-1].y))


def test_fairness_checks_honour_disabled_codes() -> None:
    one = replace(BASE, hazards=(Hazard("H", Rect((5.0, -14.0), (2.5, 3.5)), dice=2),))
    assert "cw-exposure" in codes(fairness_checks(one))
    off = replace(one, scenario=Scenario(analysis=Analysis(disabled=("cw-exposure",))))
    assert "cw-exposure" not in codes(fairness_checks(off))
