"""Arena Rex's scenario settings (issue 39, point 2), each with its book line
(shared/seeds/004_dc762f78e7f2abcd.txt):

* starting Favor - L28: "Each player begins the game with 3 Favor in their pool."
  (``scenario.starting_favor``, a deployment's ``favor``, ``scenario.handicap``; ``ar-favor``);
* who goes first - L40: "At the beginning of a game, both players roll a D6. The one with the
  higher result gets to decide who will go first. The first player deploys first, and activates
  first." (``scenario.first_player``; ``ar-first-player``);
* the cohort (L28: "We recommend 3v3 for novices and 5v5 to 8v8") as the report states it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from schema.games.arenarex import ArenaRexArena, from_document, to_document
from schema.io import loads
from tests.arenarex.util import SHIPPED, circle
from validators.game import analysis
from validators.games.arenarex.scenario import FAVOR, FIRST_PLAYER
from validators.report import Report


def _favor(arena: ArenaRexArena, player: int, favor: int) -> ArenaRexArena:
    deps = tuple(replace(d, favor=favor) if d.player == player else d for d in arena.deployment)
    return replace(arena, deployment=deps)


def _scenario(arena: ArenaRexArena, **kw: object) -> ArenaRexArena:
    return replace(arena, scenario=replace(arena.scenario, **kw))  # type: ignore[arg-type]


def _lopsided() -> ArenaRexArena:
    from schema.io import load

    a = load(SHIPPED / "lopsided-pit.yaml")
    assert isinstance(a, ArenaRexArena)
    return a


def test_the_settings_are_read_and_written_with_the_books_defaults() -> None:
    """Each player begins with 3 Favor (L28) and the first player is rolled off for (L40) unless
    the scenario says otherwise; files without the settings keep their canonical form."""
    a = circle()
    assert a.scenario.starting_favor == 3 and a.scenario.first_player == "roll-off" and not a.scenario.handicap
    assert a.starting_favor() == {1: 3, 2: 3}
    doc = to_document(a)
    assert not {"starting_favor", "handicap", "first_player"} & set(doc["scenario"])
    assert all("favor" not in d for d in doc["deployment"])
    b = _scenario(_favor(a, 2, 5), starting_favor=4, handicap=True, first_player=2)
    doc = to_document(b)
    assert doc["scenario"]["starting_favor"] == 4 and doc["scenario"]["handicap"] is True
    assert doc["scenario"]["first_player"] == 2 and doc["deployment"][1]["favor"] == 5
    assert from_document(doc) == b and b.starting_favor() == {1: 4, 2: 5}
    text = (SHIPPED / "square-24.yaml").read_text(encoding="utf-8").replace(
        "scenario:\n", "scenario:\n  starting_favor: 2\n  first_player: 1\n")
    got = loads(text)
    assert isinstance(got, ArenaRexArena)
    assert got.scenario.starting_favor == 2 and got.scenario.first_player == 1
    with pytest.raises(Exception, match="first_player"):
        loads(text.replace("first_player: 1", "first_player: coin"))
    with pytest.raises(Exception, match="starting_favor"):
        loads(text.replace("starting_favor: 2", "starting_favor: -1"))


def test_players_beginning_with_different_favor_are_warned_about_unless_a_handicap() -> None:
    """L28: "Each player begins the game with 3 Favor in their pool." Equal Favor (3 or not)
    says nothing; player 2 starting with 5 is a warning naming both; declared as a handicap it is
    stated as info."""
    a = circle()
    assert FAVOR.evaluate(a, None).findings == []
    assert FAVOR.evaluate(_scenario(a, starting_favor=5), None).findings == []
    (f,) = FAVOR.evaluate(_favor(a, 2, 5), None).findings
    assert f.severity == "warning" and f.elements == ("deploy:1", "deploy:2")
    assert "player 1 3, player 2 5" in f.message and "2 Favor ahead" in f.message
    assert "Each player begins the game with 3 Favor in their pool." in f.message
    assert f.metrics["starting_favor"] == {"1": 3, "2": 5}
    (g,) = FAVOR.evaluate(_scenario(_favor(a, 2, 5), handicap=True), None).findings
    assert g.severity == "info" and "handicap" in g.message


def test_a_named_first_player_is_weighed_against_the_walk_to_the_centre() -> None:
    """L40: "The first player deploys first, and activates first." The book's roll-off says
    nothing; a player without a zone is an error; on the lopsided pit deploy:2 walks 14.0-14.4 in
    (3 moves) to the centre and deploy:1 16.5 in (4 moves): naming player 2 first stacks both
    advantages (warning), naming player 1 is stated (info)."""
    a = _lopsided()
    assert FIRST_PLAYER.evaluate(a, None).findings == []
    (e,) = FIRST_PLAYER.evaluate(_scenario(a, first_player=3), None).findings
    assert e.severity == "error" and "player 3" in e.message and "no deployment zone" in e.message
    (w,) = FIRST_PLAYER.evaluate(_scenario(a, first_player=2), None).findings
    assert w.severity == "warning" and w.elements == ("deploy:2", "deploy:1")
    assert w.metrics["moves"] == {"deploy:2": 3, "deploy:1": 4}
    assert "The first player deploys first, and activates first." in w.message
    (i,) = FIRST_PLAYER.evaluate(_scenario(a, first_player=1), None).findings
    assert i.severity == "info" and "no nearer the centre" in i.message
    (s,) = FIRST_PLAYER.evaluate(_scenario(circle(), first_player=1), None).findings
    assert s.severity == "info"


def test_the_report_states_the_settings() -> None:
    """The headline and the JSON report's ``scenario`` give the cohort, each player's Favor and
    who goes first."""
    game = analysis("arena-rex")
    a = _scenario(_favor(circle(), 2, 5), first_player=2, cohort=6)
    report = Report(a, None, None, None, [], [], {}, system="arena-rex")
    assert game.headline(report) == ("arena-rex · 2 players · cohort 6 · Favor 3/5 (players 1/2) · player 2 goes "
                                     "first · 0 validators")
    assert report.to_json()["scenario"] == {"cohort": 6, "starting_favor": {"1": 3, "2": 5}, "handicap": False,
                                            "first_player": 2}
    plain = Report(circle(), None, None, None, [], [], {}, system="arena-rex")
    assert "cohort 5 · 3 Favor each · first player by roll-off" in game.headline(plain)
