"""Glider-Pit scenario settings (issue 39, point 2), each from the book (002_2bb38bd119a25a6d.txt):
teams (Select Teams, L35-L37) with team-aware launch-zone spacing, the Shorter Games FLOOR
(L217) read by the analysis, the other optional rules (L219-L223); the report's ``scenario`` and
headline state them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.gliderpit.checks import check_all, check_floor
from engine.gliderpit.teams import check_team_spacing, check_teams, mode, sides
from engine.gliderpit.travel import SearchLimits, plan
from schema import io as sio
from schema.errors import ArenaError
from schema.games.gliderpit import (GliderPitArena, LaunchZone, OptionalRules, Scenario, default_arena, from_document,
                                    to_document)

BASE = default_arena()  # Z1-Z3 on the left wall (top to bottom), Z4-Z6 on the right, tracks 1-6
ALTERNATE = ((1, "A"), (2, "B"), (3, "A"), (4, "B"), (5, "A"), (6, "B"))
WALLS = ((1, "A"), (2, "A"), (3, "A"), (4, "B"), (5, "B"), (6, "B"))


def teamed(teams: tuple[tuple[int, str], ...], gliders: int = 6) -> GliderPitArena:
    return replace(BASE, scenario=Scenario(gliders=gliders, teams=teams))


def codes(issues) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(i.code, i.severity) for i in issues]


def test_the_settings_round_trip_through_the_file() -> None:
    a = replace(BASE, scenario=Scenario(teams=ALTERNATE, short_game="blitz",
                                        optional_rules=OptionalRules(random_weapon_selection=True)))
    doc = to_document(a)
    assert doc["scenario"]["teams"] == {"track_1": "A", "track_2": "B", "track_3": "A", "track_4": "B",
                                        "track_5": "A", "track_6": "B"}
    assert doc["scenario"]["short_game"] == "blitz"
    assert doc["scenario"]["optional_rules"] == {"random_weapon_selection": True, "random_sequence_chits": False,
                                                 "advanced_maneuvers": False}
    assert list(doc["scenario"]) == ["gliders", "teams", "short_game", "optional_rules", "analysis"]
    assert sio.from_document(doc) == a and from_document(doc) == a
    assert "teams" not in to_document(BASE)["scenario"]  # files saved before save unchanged


@pytest.mark.parametrize("bad", [{"teams": {"track_1": "G"}}, {"teams": {"track_7": "A"}}, {"short_game": "quarter"},
                                 {"optional_rules": {"flaming_nets": True}}])
def test_the_file_refuses_what_the_book_does_not_name(bad: dict[str, object]) -> None:
    doc = to_document(BASE)
    doc["scenario"].update(bad)
    with pytest.raises(ArenaError) as err:
        sio.from_document(doc)
    assert "/scenario/" in str(err.value)


# ------------------------------------------------------------------ teams


def test_the_books_preferred_combinations_are_named() -> None:
    # L37: "It is recommended that each team have an equal number of gladiators ("3 vs. 3" or
    # "2 vs. 2 vs. 2" are the preferred combinations.)"
    assert mode(teamed(ALTERNATE)) == "3 v 3"
    assert mode(teamed(((1, "A"), (4, "A"), (2, "B"), (5, "B"), (3, "C"), (6, "C")))) == "2 v 2 v 2"
    assert check_teams(teamed(ALTERNATE)) == []


def test_unequal_teams_warn_and_the_others_fly_alone() -> None:
    # L35: "Up to six gladiators may compete in a single match, either alone or in teams."
    two = teamed(((1, "A"), (2, "A")))  # six gliders, two in team A: four fly alone
    assert [s.name for s in sides(two)] == ["A", "track 3", "track 4", "track 5", "track 6"]
    assert mode(two) == "2 v 1 v 1 v 1 v 1"
    out = check_teams(two)
    assert codes(out) == [("gp-teams", "warning")] and "equal number of gladiators" in out[0].message
    pairs = teamed(((1, "A"), (4, "A"), (2, "B"), (5, "B")), gliders=4)  # the teams hold every glider
    assert mode(pairs) == "2 v 2" and check_teams(pairs) == []


def test_impossible_teams_are_errors() -> None:
    # L13: "Victory is declared when every glider on the mapsheet is controlled by the same player or team."
    one = check_teams(teamed(((1, "A"), (2, "A")), gliders=2))
    assert codes(one) == [("gp-teams", "error")] and "Victory is declared" in one[0].message
    many = check_teams(teamed(ALTERNATE, gliders=4))
    assert ("gp-teams", "error") in codes(many) and "6 gladiators but the match has 4" in many[0].message
    no_zone = replace(teamed(ALTERNATE), launch_zones=BASE.launch_zones[:5])  # no zone beside track 6
    out = check_teams(no_zone)
    assert codes(out) == [("gp-teams", "error")] and "Track 6" in out[0].message
    assert "gp-teams" in {i.code for i in check_all(no_zone)}


def test_team_spacing_alternating_teams_pass_walls_against_walls_do_not() -> None:
    assert check_team_spacing(teamed(ALTERNATE)) == []
    # Left wall against right wall: the corner zones are 10 hexes from an opponent, the middle ones 16.
    out = check_team_spacing(teamed(WALLS))
    assert codes(out) == [("gp-team-spacing", "warning")]
    assert out[0].metrics["values"] == {"Z1": 10, "Z2": 16, "Z3": 10, "Z4": 10, "Z5": 16, "Z6": 10}
    loose = replace(teamed(WALLS), scenario=replace(teamed(WALLS).scenario,
                                                     analysis=replace(BASE.scenario.analysis, spacing_tolerance=6)))
    assert check_team_spacing(loose) == []


def test_team_spacing_each_team_placed_alike() -> None:
    # 2 v 2 v 2, team B across the middle (16 hexes apart), A and C across the corners (10).
    out = check_team_spacing(teamed(((1, "A"), (4, "A"), (2, "B"), (5, "B"), (3, "C"), (6, "C"))))
    assert codes(out) == [("gp-team-spacing", "warning")] and "not placed alike" in out[0].message
    assert out[0].metrics["mate_distance"] == {"A": 10, "B": 16, "C": 10}
    assert check_team_spacing(BASE) == []  # no teams: nothing to compare


# ------------------------------------------------------------------ the short game


def snake(bends: int) -> GliderPitArena:
    """A one-hex corridor: a launch zone of five hexes, then ``bends`` bends two hexes apart."""
    cells, (q, r) = [(0, 0)], (0, 0)
    for _ in range(4):
        q += 1
        cells.append((q, r))
    for b in range(bends):
        dq, dr = ((1, 0), (0, 1))[(b + 1) % 2]
        for _ in range(2):
            q, r = q + dq, r + dr
            cells.append((q, r))
    return GliderPitArena(name="snake", cells=tuple(cells), launch_zones=(LaunchZone("Z1", 1, tuple(cells[:5])),))


def test_the_short_games_floor_is_the_one_the_analysis_uses() -> None:
    # L217: "For an abbreviated game, set the FLOOR level to 5. For a half-game, set the FLOOR level
    # to 10. For a vastly different feel, try a blitz game using a FLOOR level of 15."
    assert [replace(BASE, scenario=Scenario(short_game=g)).floor_level for g in ("abbreviated", "half-game", "blitz")] \
        == [5, 10, 15]
    # Every bend of the corridor costs a level (L113, a Turn: "the player must reduce either speed
    # or altitude by 1"): six bends fit in the standard game's 20 levels, not in a blitz game's
    # five above FLOOR 15.
    pit = snake(6)
    end = [pit.cells[-1]]
    limits = SearchLimits(max_turns=30)
    assert plan(pit, "Z1", end, limits=limits, path=False).status == "reached"
    blitz = replace(pit, scenario=Scenario(short_game="blitz"))
    assert plan(blitz, "Z1", end, limits=limits, path=False).status == "unreachable"
    assert plan(replace(pit, floor=15), "Z1", end, limits=limits, path=False).status == "unreachable"


def test_a_short_game_over_an_arena_floor_says_which_is_used() -> None:
    assert check_floor(replace(BASE, scenario=Scenario(short_game="half-game"))) == []
    out = check_floor(replace(BASE, floor=8, scenario=Scenario(short_game="half-game")))
    assert codes(out) == [("gp-floor", "warning")]
    assert "FLOOR level to 10" in out[0].message and "8 is not used" in out[0].message


# ------------------------------------------------------------------ the report


def test_the_report_states_the_scenario_and_the_headline_names_it() -> None:
    from validators.game import analysis
    from validators.games.gliderpit.run import validate

    a = replace(teamed(WALLS), scenario=replace(teamed(WALLS).scenario, short_game="half-game",
                                                 optional_rules=OptionalRules(advanced_maneuvers=True)))
    report = validate(a, enable=["gp-teams", "gp-team-spacing", "gp-floor"])
    doc = report.to_json()
    assert doc["scenario"] == {"gliders": 6, "floor": 10, "game": "half-game", "teams": {"A": [1, 2, 3], "B": [4, 5, 6]},
                               "team_mode": "3 v 3", "optional_rules": {"random_weapon_selection": False,
                                                                        "random_sequence_chits": False,
                                                                        "advanced_maneuvers": True}}
    assert [f["code"] for f in doc["findings"]] == ["gp-team-spacing"]
    assert doc["metrics"]["teams"]["Z2"] == {"side": "A", "track": 2, "nearest_opponent": 16,
                                             "nearest_opponent_id": "Z4", "nearest_mate": 2, "nearest_mate_id": "Z1"}
    head = analysis("glider-pit-gladiators").headline(report)
    assert "teams 3 v 3 (A: 1 2 3 | B: 4 5 6) · half-game: FLOOR 10 · advanced maneuvers" in head
    plain = validate(BASE, enable=["gp-teams"])
    assert plain.to_json()["scenario"]["game"] == "standard" and plain.to_json()["scenario"]["team_mode"] is None
    assert analysis("glider-pit-gladiators").headline(plain) == "glider-pit-gladiators · 6 gliders · 1 validator"
