"""Glider-Pit's play engine (issue 40): whole matches by the book's Turn Sequence.

Book lines cited ("L" = line of /work/shared/seeds/002_2bb38bd119a25a6d.txt): Object (L10: the
last glider airborne wins), Launch (L53-L59), Movement Phase (L107-L117: the allowance spent by
exact count), Glide Phase (L131-L137), Stacking (L75-L79), air currents (L193-L211).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.gliderpit.play import ENGINE
from engine.gliderpit.travel import plan
from engine.play import GameRecord, PieceState, PlaySetup, Turn
from schema import load
from schema.games.gliderpit import GliderPitArena
from validators.simulate import simulate

HEXAGONAL = "arenas/glider-pit-gladiators/hexagonal-pit.yaml"
CROOKED = "arenas/glider-pit-gladiators/crooked-pit-unfair.yaml"
#: The lone-glider check: no air currents and the deceleration die read as the travel model
#: reads it ("never"), so nothing but the glider's own moves changes its state.
QUIET = {"air_currents": False, "deceleration": "never"}


def pit(path: str = HEXAGONAL) -> GliderPitArena:
    arena = load(path)
    assert isinstance(arena, GliderPitArena)
    return arena


def centre_turn(record: GameRecord, start: int) -> int | None:
    for turn in record.turns:
        if any(e.kind == "centre" and e.start == start and e.other == "centre" for e in turn.events):
            return turn.number
    return None


@pytest.mark.parametrize("track", [1, 2, 3, 4, 5, 6])
def test_lone_glider_reaches_the_centre_in_travel_time(track: int) -> None:
    # issue 40's first check: a lone glider's greedy record reaches the pit centre (ends a
    # Movement Phase on it) in exactly the travel search's fewest turns (gp-zone-travel's plan)
    arena = pit()
    zone = next(z.id for z in arena.launch_zones if z.track == track)
    want = plan(arena, zone, "centre").turns
    record = ENGINE.play(arena, PlaySetup((track,), ("greedy",), seed=track, parameters=QUIET, max_turns=6))
    assert want is not None and centre_turn(record, track) == want
    assert ENGINE.replay(arena, record) == []


def test_same_setup_same_record() -> None:
    arena = pit()
    setup = PlaySetup((1, 2, 3, 4, 5, 6), ("greedy", "lookahead") * 3, seed=11, max_turns=12)
    first = ENGINE.play(arena, setup).to_json()
    assert first == ENGINE.play(arena, setup).to_json()
    assert first != ENGINE.play(arena, replace(setup, seed=12)).to_json()


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_records_replay_clean(policy: str) -> None:
    # every launch (L55-L59), maneuver (L107-L117), dive (L133), die and marker (L195) replayed
    arena = pit()
    record = ENGINE.play(arena, PlaySetup((1, 2, 3, 4, 5, 6), (policy,) * 6, seed=4, max_turns=15))
    assert sum(len(p.state["moves"]) for t in record.turns for p in t.pieces) > 100
    assert any(e.kind == "contact" for t in record.turns for e in t.events)
    assert any(p.state.get("currents") for t in record.turns for p in t.pieces)
    assert ENGINE.replay(arena, record) == []


def _tamper(record: GameRecord, number: int, start: int, **changes: object) -> GameRecord:
    turns = []
    for t in record.turns:
        if t.number == number:
            pieces = []
            for p in t.pieces:
                if p.start == start:
                    p = PieceState(p.start, p.x, p.y, p.heading, {**p.state, **changes}, p.out)
                pieces.append(p)
            t = Turn(t.number, tuple(pieces), t.events, t.scores)
        turns.append(t)
    return replace(record, turns=tuple(turns))


def test_tampered_records_are_refused_naming_turn_and_seat() -> None:
    arena = pit()
    record = ENGINE.play(arena, PlaySetup((1, 2, 3, 4, 5, 6), ("greedy",) * 6, seed=2, max_turns=8))
    # a glider that moves one maneuver short of its allowance (L107: spent by exact count)
    number, piece = next((t.number, p) for t in record.turns[2:] for p in t.pieces if len(p.state["moves"]) > 1)
    bad = ENGINE.replay(arena, _tamper(record, number, piece.start, moves=piece.state["moves"][:-1]))
    assert [(m.turn, m.start) for m in bad] == [(number, piece.start)] and "exact count" in bad[0].reason
    # a glider recorded a level higher than the rules leave it
    piece = next(p for p in record.turns[2].pieces if p.start == 5)
    bad = ENGINE.replay(arena, _tamper(record, 3, 5, altitude=piece.state["altitude"] + 1))
    assert [(m.turn, m.start) for m in bad] == [(3, 5)] and "rules put it" in bad[0].reason
    # a launch from another zone's hex (L55: "a launch zone hex located adjacent to the glider's
    # Airspeed Track")
    piece = next(p for p in record.turns[0].pieces if p.start == 1)
    other = next(z for z in arena.launch_zones if z.track == 4).cells[2]
    bad = ENGINE.replay(arena, _tamper(record, 1, 1, launch=[other[0], other[1], *piece.state["launch"][2:]]))
    assert [(m.turn, m.start) for m in bad] == [(1, 1)] and "launch zone Z1" in bad[0].reason


def test_work_limit_stops_the_game() -> None:
    arena = pit()
    record = ENGINE.play(arena, PlaySetup((1, 2), ("greedy", "greedy"), seed=1, max_work=300))
    assert record.ended == "work-limit" and record.work > 300
    assert ENGINE.replay(arena, record) == []


def test_last_glider_airborne_wins() -> None:
    # Object (L10): the game ends when one side is left; its glider has the best score
    arena = pit()
    record = ENGINE.play(arena, PlaySetup((2, 5), ("greedy", "greedy"), seed=3, max_turns=80))
    assert record.ended == "last-standing"
    last = record.turns[-1]
    flying = [p.start for p in last.pieces if not p.out]
    assert len(flying) <= 1 and (not flying or record.winners == tuple(flying))


def test_symmetric_pit_rates_consistent_with_equal_shares() -> None:
    # issue 40: the shipped hexagonal pit, played for survival by the lookahead policy, does not
    # reject 1/6 each (chi-square at 5 %, seed 1, 24 games of at most 12 turns: bounded work)
    arena = pit()
    doc = simulate(arena, 24, 1, policy="lookahead", max_turns=12, workers=1).document
    assert doc["games_counted"] == 24 and doc["chi_square"]["p_value"] > 0.05
    assert not doc["findings"]


def test_crooked_pit_disadvantaged_zone_is_found() -> None:
    # the unfair pit's Z6 ends on a stray hex cut off from the pit (its description): the
    # greedy racers' games flag Airspeed Track 6 as winning less than a fair share
    arena = pit(CROOKED)
    doc = simulate(arena, 60, 1, policy="greedy", workers=1).document
    low = [f for f in doc["findings"] if f["code"] == "play-balance" and "less often" in f["message"]]
    assert [f["metrics"]["start"] for f in low] == [6]


def test_seats_objectives_and_hook() -> None:
    from validators.games.gliderpit import ANALYSIS

    arena = pit()
    assert ENGINE.seats(arena, None) == (1, 2, 3, 4, 5, 6) and ENGINE.seats(arena, 2) == (1, 2)
    with pytest.raises(ValueError, match="cannot seat 7 gliders"):
        ENGINE.seats(arena, 7)
    assert ENGINE.objectives(arena) == ("centre",)
    assert ANALYSIS.has_play() and ANALYSIS.play_hook() is ENGINE
