"""The simulated-play runner (validators/simulate.py, issue 40 points 3 and 4) on Tortoise Derby's
real (toy) play engine: determinism across executors, split ties, the Wilson interval, the
time budget on an injected clock, the play-balance finding, incomplete games, mixed policies and
the contact heat map.  Every result is checked against schema/simulation.schema.json."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.budget import Caps
from tests.clocks import CountingClock
from tests.simulate.conftest import toy
from validators.simulate import game_seed, simulate, wilson

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "simulation.schema.json").read_text(encoding="utf-8"))


def valid(doc: dict[str, Any]) -> dict[str, Any]:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    return doc


def run(name: str, games: int, seed: int, **kw: Any) -> dict[str, Any]:
    kw.setdefault("workers", 1)
    return valid(simulate(toy(name), games, seed, **kw).document)


def test_same_seed_same_json_on_one_process_two_workers_and_a_dask_cluster() -> None:
    """Game i's seed depends on (seed, i) only and the figures are summed in game order: the
    chunks differ (6 games a chunk on one worker, 3 on two) and the JSON does not."""
    distributed = pytest.importorskip("distributed")
    arena = toy("unfair")
    one = simulate(arena, 24, 5, workers=1).document
    two = simulate(arena, 24, 5, workers=2).document
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        dask = simulate(arena, 24, 5, scheduler=cluster.scheduler_address, chunk=5).document
    assert json.dumps(one) == json.dumps(two) == json.dumps(dask)
    assert valid(one)["games_counted"] == 24 and one["complete"]
    assert json.dumps(simulate(arena, 24, 6, workers=1).document) != json.dumps(one)  # another seed, other games
    assert game_seed(5, 3) == game_seed(5, 3) != game_seed(5, 4) != game_seed(6, 3)


def test_a_tie_for_first_splits_the_win(tmp_path: Path) -> None:
    """Three tortoises 10 in from the lettuce, always crawling a full 4 in stride, shells passing
    freely (rams off): all three reach it on turn 3 of every game, each win is split three ways."""
    (tmp_path / "three.yaml").write_text(
        "format: arena-studio/1\nsystem: tortoise-derby\nname: Three ways\n"
        "bounds: {type: rect, center: [0, 0], size: [24, 24], rotation: 0}\n"
        "tortoises:\n- {player: 1, position: [-10, 0]}\n- {player: 2, position: [5, 8.660254]}\n"
        "- {player: 3, position: [5, -8.660254]}\nlettuces:\n- {id: L1, position: [0, 0]}\n", encoding="utf-8")
    from schema import load

    doc = valid(simulate(load(tmp_path / "three.yaml"), 12, 1, workers=1,
                         parameters={"min_speed": 1.0, "rams": False}).document)
    assert [(s["start"], s["wins"], s["win_rate"]) for s in doc["starts"]] == [(1, 4.0, 0.3333), (2, 4.0, 0.3333),
                                                                              (3, 4.0, 0.3333)]
    assert doc["turns"] == {"mean": 3.0, "max": 3} and doc["findings"] == []
    assert doc["chi_square"]["statistic"] == 0.0 and doc["chi_square"]["p_value"] == 1.0
    # the same arena with rams: the first mover of turn 3 reaches it, the others bump into it
    rams = valid(simulate(load(tmp_path / "three.yaml"), 12, 1, workers=1, parameters={"min_speed": 1.0}).document)
    assert sum(s["wins"] for s in rams["starts"]) == 12 and all(s["wins"] == int(s["wins"]) for s in rams["starts"])


def test_wilson_interval_against_hand_computed_values_and_scipy() -> None:
    """8 wins of 10, z = 1.96: centre (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.71674, half-width
    1.96 / 1.38415 · sqrt(0.8·0.2/10 + 1.96²/400) = 0.22656 -> [0.4902, 0.9433] (worked by hand).
    For whole counts scipy's binomtest(...).proportion_ci(method="wilson") agrees."""
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    from scipy.stats import binomtest

    for k, n in ((8, 10), (0, 25), (25, 25), (13, 40), (1, 3)):
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-9)
    assert wilson(0, 0) == (0.0, 1.0)
    doc = run("unfair", 30, 2)
    for s in doc["starts"]:
        assert s["ci"] == [round(v, 4) for v in wilson(s["wins"], doc["games_counted"])]
        assert s["ci"][0] <= s["win_rate"] <= s["ci"][1]


def test_the_time_budget_stops_with_the_games_done_so_far_and_says_so() -> None:
    """A clock that moves 1 s a reading and a 3.5 s limit: the budget is read at its start and
    before each chunk of 2 games (one process), so three chunks run - 6 games - and the result
    says it is incomplete.  Its figures are exactly a 6-game run's."""
    clock = CountingClock(1.0)
    doc = run("meadow", 20, 4, chunk=2, limits=Caps(3.5, None), clock=clock)
    assert (doc["complete"], doc["games"], doc["games_played"], doc["games_counted"]) == (False, 20, 6, 6)
    assert doc["stopped"] == "time limit (3.5 s)"
    six = run("meadow", 6, 4)
    assert six["complete"] and six["stopped"] is None
    for key in ("starts", "objectives", "contacts", "findings", "chi_square", "turns", "ended"):
        assert doc[key] == six[key], key
    # a frozen clock never runs out
    assert run("meadow", 6, 4, chunk=2, limits=Caps(3.5, None), clock=CountingClock(0.0))["complete"]


def test_play_balance_is_found_on_the_biased_arena_and_not_on_the_fair_one() -> None:
    """Seed 7, 200 games each.  Unfair meadow: a rock across start 2's straight line makes its
    crawl 12.6 in against start 1's 10 - start 2 is found, the cause being the lettuce it
    reaches first too seldom.  Meadow (half-turn symmetric): no finding, and the chi-square
    test of the win counts against 1/2 each does not reject equal shares at 5 %."""
    unfair = run("unfair", 200, 7)
    by_start = {f["metrics"]["start"]: f for f in unfair["findings"]}
    assert set(by_start) == {1, 2}
    low = by_start[2]
    assert low["code"] == "play-balance" and low["severity"] == "warning" and low["elements"] == ["start:2", "L1"]
    assert "start 2 wins less often" in low["message"] and "first L1 contested" in low["message"]
    assert low["metrics"]["causes"][0]["kind"] == "first-objective"
    assert low["metrics"]["ci"][1] < 0.5 - 0.05
    assert unfair["chi_square"]["p_value"] < 0.001
    fair = run("meadow", 200, 7)
    assert fair["findings"] == []
    assert fair["chi_square"]["p_value"] > 0.05
    for s in fair["starts"]:
        assert s["ci"][0] <= 0.5 + 0.05 and s["ci"][1] >= 0.5 - 0.05
    # the tolerance is the scenario's (the engine's balance_tolerance), or the caller's
    assert fair["tolerance"] == 0.05 and run("meadow", 20, 7, tolerance=0.2)["tolerance"] == 0.2


def test_games_stopped_by_the_engines_work_bound_are_incomplete_not_results() -> None:
    """At most 7 moves a game: a race that needs more ends ``work-limit`` and is left out."""
    result = simulate(toy("meadow"), 30, 3, workers=1, max_work=7, records=True)
    doc = valid(result.document)
    assert result.records is not None and len(result.records) == 30
    stopped = sum(1 for r in result.records if r["ended"] == "work-limit")
    assert 0 < stopped < 30
    assert (doc["incomplete_games"], doc["games_counted"], doc["games_played"]) == (stopped, 30 - stopped, 30)
    assert doc["complete"] and doc["ended"]["work-limit"] == stopped
    assert sum(s["wins"] for s in doc["starts"]) == pytest.approx(30 - stopped)


def test_mixed_policies_rotate_over_the_seats_game_by_game() -> None:
    """greedy,dawdle: seat j of game i plays policy (i + j) mod 2, so each start dawdles in half
    the games and the symmetric meadow stays fair; one policy for every seat is the default."""
    result = simulate(toy("meadow"), 40, 9, workers=1, policy="greedy,dawdle", records=True)
    doc = valid(result.document)
    assert doc["policy"] == "greedy,dawdle" and doc["findings"] == []
    assert result.records is not None
    assert [r["policies"] for r in result.records[:3]] == [["greedy", "dawdle"], ["dawdle", "greedy"],
                                                            ["greedy", "dawdle"]]
    plain = simulate(toy("meadow"), 2, 9, workers=1, records=True)
    assert plain.document["policy"] == "greedy" and plain.records is not None
    assert all(r["policies"] == ["greedy", "greedy"] for r in plain.records)
    with pytest.raises(ValueError, match="unknown policy rollout: this game plays greedy, dawdle"):
        simulate(toy("meadow"), 2, 9, policy="greedy,rollout")
    with pytest.raises(ValueError, match="cannot seat 3 players"):
        simulate(toy("meadow"), 2, 9, players=3)


def test_objectives_and_the_contact_heat_map_match_the_records() -> None:
    """Who took L1 first and where the tortoises bumped, counted back from the records: the
    heat map's cells are 2 in (24 in over 12 cells) from the paddock's corner (-12, -12)."""
    result = simulate(toy("meadow"), 40, 11, workers=1, records=True)
    doc = valid(result.document)
    assert result.records is not None
    firsts = [next((e["start"] for t in r["turns"] for e in t["events"] if e["other"] == "L1"), None)
              for r in result.records]
    assert doc["objectives"] == [{"id": "L1", "first": {"1": firsts.count(1) / 40, "2": firsts.count(2) / 40},
                                  "untaken": firsts.count(None) / 40}]
    rams = [(e["x"], e["y"]) for r in result.records for t in r["turns"] for e in t["events"] if e["kind"] == "ram"]
    heat = doc["contacts"]
    assert heat["total"] == len(rams) > 0
    assert (heat["cell"], heat["origin"], heat["columns"], heat["rows"]) == (2.0, [-12.0, -12.0], 12, 12)
    assert sum(map(sum, heat["counts"])) == len(rams)
    hot = heat["hottest"]
    assert hot["count"] == max(map(max, heat["counts"])) == heat["counts"][hot["row"]][hot["column"]]
    assert math.dist((hot["x"], hot["y"]), (0, 0)) < 2  # they meet at the lettuce
    expected = sum(1 for x, y in rams if math.floor((x + 12) / 2) == hot["column"] and math.floor((y + 12) / 2) == hot["row"])
    assert expected == hot["count"]


def test_every_recorded_move_is_legal_and_progress_reaches_the_end() -> None:
    """Each record replays clean through the engine's own checks (and a forged move does not);
    the progress callback counts games up to the total."""
    from engine.play import GameRecord, PieceState, Turn
    from validators.simulate import engine_of

    arena = toy("unfair")
    seen: list[tuple[int, int]] = []
    result = simulate(arena, 10, 1, workers=1, chunk=3, progress=lambda d, n: seen.append((d, n)))
    assert seen == [(3, 10), (6, 10), (9, 10), (10, 10)]
    engine = engine_of(arena)
    from engine.play import PlaySetup

    record = engine.play(arena, PlaySetup((1, 2), ("greedy", "greedy"), game_seed(1, 0)))
    assert engine.replay(arena, record) == []
    first = record.turns[0]
    jump = Turn(1, (PieceState(1, 3.0, 0.0), *first.pieces[1:]), first.events, first.scores)
    forged = GameRecord(record.setup, (jump, *record.turns[1:]), record.ended, record.winners, record.work)
    illegal = engine.replay(arena, forged)
    assert (illegal[0].turn, illegal[0].start) == (1, 1) and "more than a stride" in illegal[0].reason
    assert result.records is None


def test_a_start_slowed_by_rams_is_named_with_its_hot_spot(tmp_path: Path) -> None:
    """Starts 1 and 2 set off side by side, their shells overlapping, 10 in west of the lettuce;
    start 3 alone 10 in east.  The two bump each other on their way (the bumper crawls half its
    step), so start 3 wins more often: with a 0.02 tolerance it is flagged and so is a jostled
    start (at seed 2, start 1), its causes naming the lettuce they seldom reach first and then the cell where they bump (they
    are in twice as many rams as start 3, which meets them only at the lettuce)."""
    (tmp_path / "jostle.yaml").write_text(
        "format: arena-studio/1\nsystem: tortoise-derby\nname: Jostle\n"
        "bounds: {type: rect, center: [0, 0], size: [24, 24], rotation: 0}\n"
        "tortoises:\n- {player: 1, position: [-10, 0.5]}\n- {player: 2, position: [-10, -0.5]}\n"
        "- {player: 3, position: [10, 0]}\nlettuces:\n- {id: L1, position: [0, 0]}\n", encoding="utf-8")
    from schema import load

    doc = valid(simulate(load(tmp_path / "jostle.yaml"), 200, 2, workers=1, tolerance=0.02).document)
    flagged = {f["metrics"]["start"]: f for f in doc["findings"]}
    assert 3 in flagged and "start 3 wins more often" in flagged[3]["message"]
    assert {1, 2} & set(flagged)
    for s in {1, 2} & set(flagged):
        kinds = [c["kind"] for c in flagged[s]["metrics"]["causes"]]
        assert kinds == ["first-objective", "contact-hot-spot"], kinds
        spot = flagged[s]["metrics"]["causes"][1]
        assert spot["text"].startswith(f"ram hot spot: start {s} meets another piece")
        assert -12 < spot["x"] < 0  # on their way in from the west
    contacts = [s["contacts"] for s in doc["starts"]]
    assert contacts[2] < min(contacts[:2]) / 1.5


def test_the_heat_map_of_an_arena_without_bounds_is_framed_by_the_pieces() -> None:
    """A grid game's arena has no bounds shape: the frame is the box of the positions seen,
    its longer side over 12 cells."""
    from types import SimpleNamespace

    from validators.simulate import heat_frame

    assert heat_frame(SimpleNamespace(), [(0.0, 0.0, 6.0, 3.0), (-6.0, 1.0, 0.0, 2.0)]) == (-6.0, 0.0, 1.0, 12, 3)
    assert heat_frame(SimpleNamespace(), []) is None
    assert heat_frame(toy("meadow"), []) == (-12.0, -12.0, 2.0, 12, 12)
