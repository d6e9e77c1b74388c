"""Car Wars' game size and damage deck as scenario settings (issue 39, point 2): the budgets the
book names (Game Size, 001_720c8b844658e4d7.txt L384-L396), the deck they call for, the check
that refuses a deck the build points rule out, the report's ``scenario`` and its headline."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.carwars.checks import check_game_size, setup_checks
from schema import io as sio
from schema.errors import ArenaError
from schema.games.carwars import GameSize, Scenario, default_arena, from_document, to_document

BASE = default_arena()


def arena(game_size: GameSize | None = None, deck: str | None = None):  # type: ignore[no-untyped-def]
    return replace(BASE, scenario=Scenario(game_size=game_size, damage_deck=deck))  # type: ignore[arg-type]


def test_the_books_first_games_round_trip_through_the_file() -> None:
    # L394 "We suggest 4 AP, 16 BP, and 4 CP for your first small game."
    # L396 "We suggest 9 AP, 36 BP, and 9 CP for your first large game."
    for gs, deck in ((GameSize(4, 16, 4), "A"), (GameSize(9, 36, 9), "B")):
        a = arena(gs, deck)
        doc = to_document(a)
        assert doc["scenario"]["game_size"] == {"armor_points": gs.armor_points, "build_points": gs.build_points,
                                                "crew_points": gs.crew_points}
        assert doc["scenario"]["damage_deck"] == deck
        assert list(doc["scenario"]) == ["game_size", "damage_deck", "analysis"]
        assert from_document(doc) == a
        assert sio.from_document(doc) == a  # the schema accepts it


def test_the_deck_follows_the_build_points() -> None:
    # L394 "For a small game using 24 BP or less, use damage deck A and return deck B to the box"
    # L396 "For a large game using 25 BP or more, use damage deck B, and return deck A to the box"
    assert arena(GameSize(4, 24, 4)).damage_deck == "A"
    assert arena(GameSize(4, 25, 4)).damage_deck == "B"
    assert arena(GameSize(4, 25, 4)).scenario.game_size.size == "large"  # type: ignore[union-attr]
    assert arena().damage_deck is None and arena(deck="B").damage_deck == "B"


@pytest.mark.parametrize(("bp", "deck"), [(36, "A"), (25, "A"), (24, "B"), (16, "B")])
def test_a_deck_the_build_points_rule_out_is_an_error(bp: int, deck: str) -> None:
    out = check_game_size(arena(GameSize(9, bp, 9), deck))
    assert [(i.code, i.severity) for i in out] == [("cw-game-size", "error")]
    assert "use damage deck" in out[0].message and str(bp) in out[0].message
    assert out[0].metrics["expected"] == ("A" if bp <= 24 else "B")


def test_the_deck_the_build_points_call_for_passes() -> None:
    assert check_game_size(arena(GameSize(4, 16, 4), "A")) == []
    assert check_game_size(arena(GameSize(9, 36, 9), "B")) == []
    assert check_game_size(arena(deck="A")) == [] and check_game_size(arena()) == []


def test_a_game_size_that_leaves_a_budget_undecided_warns() -> None:
    # L384 "Players must decide how many armor points (AP), build points (BP), and crew points (CP) will be used."
    out = check_game_size(arena(GameSize(build_points=16)))
    assert [(i.code, i.severity) for i in out] == [("cw-game-size", "warning")]
    assert "armor points (AP) or crew points (CP)" in out[0].message and "Players must decide" in out[0].message
    assert "cw-game-size" in {i.code for i in setup_checks(arena(GameSize(build_points=16)))}


def test_the_file_refuses_a_deck_c_and_negative_budgets() -> None:
    for bad in ({"damage_deck": "C"}, {"game_size": {"build_points": -1}}, {"game_size": {"hit_points": 3}}):
        doc = to_document(BASE)
        doc["scenario"].update(bad)
        with pytest.raises(ArenaError) as err:
            sio.from_document(doc)
        assert "/scenario/" in str(err.value)


def test_the_report_states_the_game_size_and_the_headline_names_it() -> None:
    from validators.game import analysis
    from validators.games.carwars.run import validate

    report = validate(arena(GameSize(9, 36, 9)), enable=["cw-game-size"])
    doc = report.to_json()
    assert doc["scenario"] == {"players": 4, "box": "4-player",
                               "game_size": {"armor_points": 9, "build_points": 36, "crew_points": 9, "size": "large"},
                               "damage_deck": "B", "damage_deck_from": "build points"}
    assert doc["findings"] == []
    head = analysis("car-wars-6e").headline(report)
    assert "large game: 9 AP, 36 BP, 9 CP · damage deck B" in head and "4 players" in head
    bad = validate(arena(GameSize(4, 16, 4), "B"), enable=["cw-game-size"])
    assert [f.code for f in bad.findings] == ["cw-game-size"] and bad.fails("error")
    assert bad.to_json()["scenario"]["damage_deck_from"] == "scenario"
    plain = validate(arena(), enable=["cw-game-size"])
    assert plain.to_json()["scenario"]["game_size"] is None
    assert analysis("car-wars-6e").headline(plain) == "car-wars-6e · 4 players · 1 validator"
