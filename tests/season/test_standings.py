"""Season standings (validators/season.py) under Gravstrike's scoring
(validators/games/gravstrike/season.py), against the book's "Season Records" to "The Season's End"
(/work/shared/seeds/000_bb67baed89c8981a.txt, lines 882-917)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from validators.games.gravstrike.season import SCORING
from validators.season import SeasonError, load, loads, standings


def _season(events: str, extra: str = "", system: str = "gravstrike") -> str:
    return (f"format: arena-studio-season/1\nsystem: {system}\nname: Test League\n{extra}events:\n"
            + textwrap.indent(textwrap.dedent(events), "  "))


def _points(results: dict[str, int], players: list[str] | None = None, **options: object) -> dict[str, int]:
    placed = SCORING.place(results, players or list(results), {"first_place_tie": "share", "absent_points": 0,
                                                              **options})
    return {p: at.points for p, at in placed.items()}


def test_the_books_tie_example() -> None:
    # Line 899: "In a four-player game where two players tie for second place, those two each score
    # 4 placement points and the fourth player takes the 2-point fourth place reward."
    assert _points({"P1": 12, "P2": 8, "P3": 8, "P4": 3}) == {"P1": 5, "P2": 4, "P3": 4, "P4": 2}


def test_places_five_four_three_two_then_one_for_fifth_or_worse() -> None:
    # Lines 888-893: First 5, Second 4, Third 3, Fourth 2, Fifth or Worse 1.
    assert _points({"A": 12, "B": 10, "C": 8, "D": 6, "E": 4, "F": 2}) == {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1,
                                                                          "F": 1}
    # A tie for third eliminates fourth: 5, 4, 3, 3, 1.
    assert _points({"A": 12, "B": 10, "C": 8, "D": 8, "E": 4}) == {"A": 5, "B": 4, "C": 3, "D": 3, "E": 1}


def test_a_tie_for_first_is_shared_or_refused_as_the_season_says() -> None:
    # Line 897 leaves first out of the tie rule ("other than first, of course": the first to 12 VP
    # wins); docs/rules-decisions.md: shared by default, trailing places eliminated.
    assert _points({"A": 12, "B": 12, "C": 5}) == {"A": 5, "B": 5, "C": 3}
    text = _season("""\
        - {name: One, arena: a.yaml, results: {A: 12, B: 12, C: 5}}
        """, "scoring: {first_place_tie: refuse}\n")
    with pytest.raises(SeasonError) as err:
        standings(loads(text, source="s.yaml"))
    assert str(err.value).startswith("s.yaml:6:41: /events/0/results: A, B tie for first place with 12 VP")


def test_a_player_who_missed_an_event_scores_absent_points_for_it() -> None:
    assert _points({"A": 12, "B": 3}, ["A", "B", "C"]) == {"A": 5, "B": 4, "C": 0}
    assert _points({"A": 12, "B": 3}, ["A", "B", "C"], absent_points=1)["C"] == 1


def test_a_three_event_season_with_a_championship_checked_by_hand() -> None:
    text = _season("""\
        - name: Opening night
          arena: a.yaml
          results: {A: 12, B: 9, C: 9, D: 4}
          kill_shots: {A: 2}
        - name: Midseason
          arena: b.yaml
          results: {D: 12, B: 10, A: 6}
          kill_shots: {D: 3}
        - name: Championship
          arena: c.yaml
          multiplier: 2
          results: {C: 12, A: 11, B: 11, D: 3}
          kill_shots: {C: 1, B: 1}
        """)
    got = standings(loads(text, source="s.yaml")).to_json()
    # By hand:
    #   Opening night (x1): A first 5; B, C tie for second 4 each; D fourth (third eliminated) 2.
    #   Midseason (x1): D 5, B 4, A 3; C missed it: 0.
    #   Championship (x2, line 907 "placement points are doubled"): C 5x2 = 10; A, B tie for
    #   second 4x2 = 8 each; D fourth 2x2 = 4.
    #   Placement points: A 5+3+8 = 16, B 4+4+8 = 16, C 4+0+10 = 14, D 2+5+4 = 11.
    #   Season VP: A 12+6+11 = 29, B 9+10+11 = 30, C 9+12 = 21, D 4+12+3 = 19.
    #   A and B tie on 16: line 913 breaks it by season VP, so B (30) ranks above A (29).
    table = [(s["rank"], s["player"], s["placement_points"], s["victory_points"], s["kill_shots"])
             for s in got["standings"]]
    assert table == [(1, "B", 16, 30, 1), (2, "A", 16, 29, 2), (3, "C", 14, 21, 1), (4, "D", 11, 19, 3)]
    assert [(e["event"], e["place"], e["placement_points"]) for e in got["standings"][2]["events"]] == [
        ("Opening night", 2, 4), ("Midseason", None, 0), ("Championship", 1, 10)]
    assert got["standings"][0]["events"][2] == {"event": "Championship", "place": 2, "victory_points": 11,
                                                "kill_shots": 1, "multiplier": 2, "placement_points": 8}
    assert got["ferocity"] == ["D"]  # line 917: the most kill shots over the season
    assert got["pending"] == []


def test_players_equal_on_points_and_vp_share_a_rank_and_unplayed_events_are_pending() -> None:
    text = _season("""\
        - {name: One, arena: a.yaml, results: {A: 12, B: 8, C: 8}}
        - {name: Two, arena: a.yaml, results: {A: 12, C: 9, B: 9}}
        - {name: Three, arena: b.yaml}
        """)
    got = standings(loads(text)).to_json()
    assert [(s["rank"], s["player"]) for s in got["standings"]] == [(1, "A"), (2, "B"), (2, "C")]
    assert got["pending"] == ["Three"] and got["ferocity"] == []


def test_a_game_without_season_play_is_refused_by_name() -> None:
    text = _season("- {name: One, arena: a.yaml, results: {A: 3}}\n", system="car-wars-6e")
    with pytest.raises(LookupError, match=r"Car Wars.*\(car-wars-6e\) has no season play"):
        standings(loads(text))


@pytest.mark.parametrize(("text", "expected"), [
    ("format: arena-studio-season/2\nsystem: gravstrike\nname: X\nevents: []\n",
     ["s.yaml:1:9: /format: 'arena-studio-season/2' is not a supported format; expected 'arena-studio-season/1'",
      "s.yaml:4:9: /events: [] should be non-empty"]),
    (_season("- {name: One, arena: a.yaml, multiplier: 0, result: {A: 1}}\n"),
     ["s.yaml:5:44: /events/0/multiplier: 0 is less than the minimum of 1",
      "s.yaml:5:47: /events/0/result: unknown property 'result' (did you mean 'results'?)"]),
    (_season("- {name: One, arena: a.yaml, results: {A: 5}, kill_shots: {B: 1}}\n"),
     ["s.yaml:5:62: /events/0/kill_shots/B: 'B' has kill shots but no result in this event"]),
    (_season("- {name: One, arena: a.yaml, kill_shots: {B: 1}}\n"),
     ["s.yaml:5:44: /events/0/kill_shots: kill shots of an event with no results; give the event's results too"]),
    (_season("- {name: One, arena: /etc/passwd}\n"),
     ["s.yaml:5:24: /events/0/arena: '/etc/passwd' is not a relative path; arena paths are relative to the season "
      "file, with '/' between folders"]),
    (_season("- {name: One, arena: a.yaml, results: {A: 1.5}}\n"),
     ["s.yaml:5:45: /events/0/results/A: 1.5 is not of type 'integer'"]),
    ("format: arena-studio-season/1\nname: [unclosed\n", None),
])
def test_malformed_season_files_give_located_errors(text: str, expected: list[str] | None) -> None:
    with pytest.raises(SeasonError) as err:
        loads(text, source="s.yaml")
    lines = str(err.value).splitlines()
    if expected is None:  # a YAML syntax error: located where the parser stopped
        assert len(lines) == 1 and lines[0].startswith("s.yaml:3:1: "), lines
    else:
        assert lines == expected


def test_a_bad_scoring_option_is_located() -> None:
    text = _season("- {name: One, arena: a.yaml, results: {A: 1}}\n", "scoring: {first_place_tie: coin-toss, "
                                                                    "absentee: 1}\n")
    with pytest.raises(SeasonError) as err:
        standings(loads(text, source="s.yaml"))
    assert str(err.value).splitlines() == [
        "s.yaml:4:28: /scoring/first_place_tie: 'coin-toss' is not one of ['share', 'refuse']",
        "s.yaml:4:39: /scoring/absentee: unknown property 'absentee'"]


def test_an_event_count_outside_four_to_eight_is_a_warning_and_files_are_read(tmp_path: Path) -> None:
    # Line 862: "A season consists of 4-8 games".
    path = tmp_path / "s.json"
    path.write_text('{"format": "arena-studio-season/1", "system": "gravstrike", "name": "X",\n'
                    ' "events": [{"name": "One", "arena": "a.yaml"}]}\n', encoding="utf-8")
    season = load(path)
    assert [str(w) for w in season.warnings] == [f"warning: {path}:2:12: /events: 1 events; a season has 4 to 8"]
    assert season.base == tmp_path
    (tmp_path / "bad.yaml").write_bytes(b"format: arena-studio-season/1\nname: \xff\n")
    with pytest.raises(SeasonError, match=r"bad.yaml:2:7: /: file is not UTF-8 text"):
        load(tmp_path / "bad.yaml")


def test_an_unknown_game_is_located_at_system() -> None:
    with pytest.raises(SeasonError, match=r"^s.yaml:2:9: /system: unknown system 'chess'"):
        loads(_season("- {name: One, arena: a.yaml}\n", system="chess"), source="s.yaml")
