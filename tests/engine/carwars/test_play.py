"""Car Wars' play engine (issue 40): races for the numbered checkpoint cards by the book's round.

Book lines cited (/work/shared/seeds/001_720c8b844658e4d7.txt, "L" = line): Sequence of Play
(L435-L541: speed 2 at the start, L437; each car adjusts speed then drives all its points before
the next, L469/L507; the first-player marker passes on, L541), 4A Adjust Speed (L473-L497), 4B
Drive and the driving roll (L511-L517), Maneuvering Results and Out of Control (L608-L616),
Collisions (L668-L701: "The moment a car touches a heavy obstacle, the car must stop moving"; "If
the collision was with another car, the player controlling the other car also pays 1"), the
numbered cards as checkpoints (L214).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from engine.carwars.motion import Pose
from engine.carwars.planner import Planner
from engine.carwars.rules import points
from engine.carwars.travel import Goal, PoseSource, StartSource
from engine.carwars.play import ENGINE
from engine.play import GameRecord, PieceState, PlaySetup, Turn
from schema import load
from schema.games.carwars import Card, CarWarsArena, Scenario, StartPosition
from schema.games.gravstrike.model import Rect
from validators.simulate import simulate

CROSSROADS = "arenas/car-wars/crossroads-4p.yaml"
TWIN = "arenas/car-wars/twin-pillars-2p.yaml"
BROKEN = "arenas/car-wars/broken-yard-flawed.yaml"
NO_SKIDS = {"skid_chance": 0.0}


def _arena(path: str) -> CarWarsArena:
    a = load(path)
    assert isinstance(a, CarWarsArena)
    return a


def leg_times(arena: CarWarsArena, record: GameRecord, start: int) -> list[tuple[str, float, float]]:
    """(card, the record's time, arena travel's time) for each card a lone car takes on a plan:
    the first card from the start (``arena travel start:N``), each next one from the pose and
    speed at the end of the turn of the previous arrival (``--from x,y,heading,speed``)."""
    planner = Planner(arena, "flat-out")
    out = []
    plan_turn, source = 1, None
    for turn in record.turns:
        piece = next(p for p in turn.pieces if p.start == start)
        arrivals = piece.state["arrivals"]
        if arrivals:
            card, point = arrivals[0]
            got = turn.number - plan_turn + point / points(int(piece.state["speed"]))
            src = StartSource(start) if source is None else source
            out.append((card, got, planner.plan(src, Goal("card", card)).time))
            plan_turn = turn.number + 1
            source = PoseSource(Pose(piece.x, piece.y, float(piece.heading or 0.0)), int(piece.state["speed_after"]))
    return out


@pytest.mark.parametrize("path,start", [(CROSSROADS, 1), (TWIN, 2)])
def test_lone_car_takes_each_card_in_arena_travel_time(path: str, start: int) -> None:
    # issue 40's first check: the greedy policy follows `arena travel`'s least-time plans (speed 2 at
    # the start, L437), so a lone car's record takes each card in exactly travel's time from where it
    # planned; the dice are off (skid_chance 0) so no driving roll throws it off its plan (L616)
    arena = _arena(path)
    record = ENGINE.play(arena, PlaySetup((start,), ("greedy",), seed=5, parameters=NO_SKIDS))
    legs = leg_times(arena, record, start)
    assert record.ended == "target" and len(legs) == len(ENGINE.objectives(arena))
    for card, got, want in legs:
        assert math.isclose(got, want, abs_tol=1e-9), (card, got, want)


def test_lone_car_with_dice_matches_travel_until_it_loses_control() -> None:
    # with the driving roll's dice on, the first card is still travel's time unless the car ran out of
    # CONTROL on the way (L616: it must then drive straight)
    arena = _arena(CROSSROADS)
    record = ENGINE.play(arena, PlaySetup((1,), ("greedy",), seed=1))
    legs = leg_times(arena, record, 1)
    thrown = any(e.kind in ("out-of-control", "spin") for e in record.turns[0].events)
    assert not thrown and math.isclose(legs[0][1], legs[0][2], abs_tol=1e-9)


def corridor() -> CarWarsArena:
    """A 40 x 4 in lane, two cars facing each other in it, each one's first card behind the other:
    there is no room to pass."""
    return CarWarsArena(
        name="corridor", bounds=Rect((0.0, 0.0), (40.0, 4.0)),
        cards=(Card("east", 0, (18.0, 0.0), owner=1, size=(2.0, 3.0)),
               Card("west", 1, (-18.0, 0.0), owner=2, size=(2.0, 3.0))),
        start_positions=(StartPosition(1, (-10.0, 0.0), 0.0), StartPosition(2, (10.0, 0.0), 180.0)),
        scenario=Scenario(players=2),
    )


def test_two_cars_collide_head_on() -> None:
    # "The moment a car touches a heavy obstacle, the car must stop moving" (L682) - cars are heavy
    # obstacles (L222); the mover and the other car each pay 1 CONTROL (L688-L689); one contact event
    # per meeting, by the car that moved into it, naming the other (engine.play.Event)
    arena = corridor()
    record = ENGINE.play(arena, PlaySetup((1, 2), ("greedy", "greedy"), seed=2, parameters=NO_SKIDS, max_turns=6))
    rams = [(t.number, e) for t in record.turns for e in t.events if e.kind == "ram"]
    assert rams, "the cars drive straight at each other"
    turn, first = rams[0]
    assert first.other == str(3 - first.start)
    a, b = (next(p for p in record.turns[turn - 1].pieces if p.start == k) for k in (1, 2))
    assert a.x < b.x  # neither passed through the other
    assert b.x - a.x >= arena.vehicle.length - 1e-6
    mover = a if first.start == 1 else b
    assert mover.state["damage"] >= 0 and mover.state["hits"]
    assert ENGINE.replay(arena, record) == []


def test_same_setup_same_record() -> None:
    arena = _arena(TWIN)
    setup = PlaySetup((1, 2), ("greedy", "lookahead"), seed=11, max_turns=8)
    assert ENGINE.play(arena, setup).to_json() == ENGINE.play(arena, setup).to_json()


def test_work_limit_stops_the_game() -> None:
    record = ENGINE.play(_arena(TWIN), PlaySetup((1, 2), ("greedy", "greedy"), seed=1, max_work=20))
    assert record.ended == "work-limit" and record.work > 20


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_records_replay_clean(policy: str) -> None:
    arena = _arena(CROSSROADS)
    for seed in (3,):
        record = ENGINE.play(arena, PlaySetup((1, 2, 3, 4), (policy,) * 4, seed=seed, max_turns=8))
        assert ENGINE.replay(arena, record) == [], (policy, seed)


def _tamper(record: GameRecord, turn: int, start: int, **changes: object) -> GameRecord:
    turns = []
    for t in record.turns:
        if t.number == turn:
            pieces = tuple(PieceState(p.start, p.x, p.y, p.heading, {**p.state, **changes}, p.out)
                           if p.start == start else p for p in t.pieces)
            t = Turn(t.number, pieces, t.events, t.scores)
        turns.append(t)
    return replace(record, turns=tuple(turns))


def test_tampered_records_are_refused_naming_turn_and_seat() -> None:
    arena = _arena(CROSSROADS)
    record = ENGINE.play(arena, PlaySetup((1, 2, 3, 4), ("greedy",) * 4, seed=3, max_turns=4))
    piece = next(p for p in record.turns[1].pieces if p.start == 3)
    # a speed from 2 to 5 in one round: more than hard acceleration allows (4A, L473-L485)
    bad = _tamper(record, 1, 3, speed=5)
    [illegal] = ENGINE.replay(arena, bad)
    assert (illegal.turn, illegal.start) == (1, 3) and "Adjust Speed" in illegal.reason
    # a point's pose moved 2 inches: not where the turning key puts it
    poses = [list(p) for p in piece.state["poses"]]
    poses[0][0] += 2.0
    [illegal] = ENGINE.replay(arena, _tamper(record, 2, 3, poses=poses))
    assert (illegal.turn, illegal.start) == (2, 3) and "motion model" in illegal.reason
    # fewer skids than rolled is a legal roll, more skids than dice is not (4B, L513-L517)
    skids = list(piece.state["skids"])
    dice = list(piece.state["dice"])
    i = max(range(len(dice)), key=lambda j: dice[j])
    skids[i] = dice[i] + 1
    [illegal] = ENGINE.replay(arena, _tamper(record, 2, 3, skids=skids))
    assert (illegal.turn, illegal.start) == (2, 3)
    # a move the turning key has not
    moves = list(piece.state["moves"])
    moves[0] = "turn-left-100-D5"
    [illegal] = ENGINE.replay(arena, _tamper(record, 2, 3, moves=moves))
    assert (illegal.turn, illegal.start) == (2, 3) and "turning key" in illegal.reason


def test_driving_through_a_wall_is_refused() -> None:
    # the corridor's cars meet head on; a record that moves car 1 on as if car 2 were not there is refused
    arena = corridor()
    record = ENGINE.play(arena, PlaySetup((1, 2), ("greedy", "greedy"), seed=2, parameters=NO_SKIDS, max_turns=6))
    turn = next(t for t in record.turns if any(e.kind == "ram" for e in t.events))
    mover = next(e.start for e in turn.events if e.kind == "ram")
    piece = next(p for p in turn.pieces if p.start == mover)
    through = replace(record, turns=tuple(
        Turn(t.number, tuple(PieceState(p.start, p.x + (6.0 if p.start == 1 else -6.0), p.y, p.heading, p.state, p.out)
                             if t.number == turn.number and p.start == mover else p for p in t.pieces),
             t.events, t.scores) if t.number == turn.number else t for t in record.turns))
    [illegal] = ENGINE.replay(arena, through)
    assert (illegal.turn, illegal.start) == (turn.number, mover)
    assert piece.state["moves"]


def test_seats_objectives_and_the_hook() -> None:
    from validators.games.carwars import ANALYSIS

    arena = _arena(CROSSROADS)
    assert ENGINE.seats(arena, None) == (1, 2, 3, 4)
    assert ENGINE.objectives(arena) == ("checkpoint-1", "checkpoint-2", "checkpoint-3", "checkpoint-4")
    assert ANALYSIS.has_play() and ANALYSIS.play_hook() is ENGINE
    with pytest.raises(ValueError, match="cannot seat 5"):
        ENGINE.seats(arena, 5)


# -- statistics (bounded game counts: each game is a few planner searches, ~0.1 s each) ----------

@pytest.mark.parametrize("path,games", [(TWIN, 16), (CROSSROADS, 8)])
def test_symmetric_arenas_give_rates_consistent_with_equal_shares(path: str, games: int) -> None:
    # the shipped symmetric arenas (half and quarter turns): a chi-square test of the win counts
    # against 1/K each does not reject equal shares at 5 % (seed 1; a bounded game count,
    # docs/rules-decisions.md "Simulated play: Car Wars")
    doc = simulate(_arena(path), games, 1, workers=1).document
    assert doc["chi_square"]["p_value"] > 0.05, doc["starts"]
    assert not [f for f in doc["findings"] if f["code"] == "play-balance"]


def test_broken_yard_disadvantaged_start_is_found() -> None:
    # the deliberately unfair yard: start 2 begins beside the first card (cw-start-access); its card
    # 'lost' is walled in (cw-card-reach) and left out of the race
    arena = _arena(BROKEN)
    assert ENGINE.objectives(arena) == ("own-1", "own-1b", "lost")
    doc = simulate(arena, 12, 1, workers=1).document
    flagged = [f["metrics"]["start"] for f in doc["findings"] if f["code"] == "play-balance"]
    assert 1 in flagged, doc["starts"]
    rates = {s["start"]: s["win_rate"] for s in doc["starts"]}
    assert rates[1] < rates[2]
