"""Car Wars setup checks: a firing and a quiet case for each code, the message quoting the
book (Arena Setup, Starting Positions, Components, Terrain and Hazards)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
import shapely

from engine.carwars.checks import (
    check_arena_size,
    check_components,
    check_corner_angle,
    check_own_checkpoints,
    check_start_key,
    check_start_spread,
    check_wall_gap,
    setup_checks,
    start_key,
    start_keys,
)
from engine.carwars.motion import Pose, car_outline
from schema.games.carwars import (
    Analysis,
    Card,
    CarWarsArena,
    Hazard,
    Obstacle,
    Scenario,
    StartPosition,
    Token,
    Wall,
    default_arena,
)
from schema.shapes import Circle, Polygon, Polyline, Rect

BASE = default_arena()


def codes(issues: list) -> list[str]:  # type: ignore[type-arg]
    return [i.code for i in issues]


# ------------------------------------------------------------------ cw-arena-size


def test_arena_size_quiet_for_three_feet_square() -> None:
    assert check_arena_size(BASE) == []
    assert check_arena_size(replace(BASE, bounds=Rect((0.0, 0.0), (38.0, 34.0)))) == []


def test_arena_size_fires_outside_the_tolerance() -> None:
    # Arena Setup: "Designate a flat, smooth, playing area, roughly 3 feet per side"
    out = check_arena_size(replace(BASE, bounds=Rect((0.0, 0.0), (48.0, 30.0))))
    assert codes(out) == ["cw-arena-size"] and out[0].severity == "warning"
    assert "roughly 3 feet per side" in out[0].message and out[0].metrics["sides"] == [30.0, 48.0]
    loose = replace(BASE, bounds=Rect((0.0, 0.0), (48.0, 30.0)),
                    scenario=Scenario(analysis=Analysis(arena_size_tolerance=12.0)))
    assert check_arena_size(loose) == []


# ------------------------------------------------------------------ cw-corner-angle


def test_corner_angle_quiet_for_right_angles_and_spikes() -> None:
    # a rectangle arena, a square wall, a triangular wall: every corner is 90 degrees or more on
    # the side the cars drive (a wall's sharp tip is 300+ degrees from the driving side)
    walls = (Wall("box", Rect((5.0, 5.0), (4.0, 4.0), 30.0)), Wall("spike", Polygon(((-10.0, 0.0), (-2.0, 0.0), (-2.0, 3.0)))))
    assert check_corner_angle(replace(BASE, walls=walls)) == []


def test_corner_angle_fires_for_an_acute_pocket_and_an_acute_arena_corner() -> None:
    # Arena Setup: "Corners of walls must be 90 degrees or more – no acute angles."
    bent = replace(BASE, walls=(Wall("bent", Polyline(((-10.0, 5.0), (0.0, 10.0), (-10.0, 10.0)), 1.0)),))
    out = check_corner_angle(bent)
    assert codes(out) == ["cw-corner-angle"] and out[0].severity == "error" and out[0].elements == ("bent",)
    assert "no acute angles" in out[0].message and out[0].metrics["angle"] < 90
    chamfered = replace(BASE, bounds=Polygon(((-18.0, -18.0), (18.0, -18.0), (18.0, 12.0), (12.0, 18.0), (-18.0, 18.0))))
    assert check_corner_angle(chamfered) == []
    dart = replace(BASE, bounds=Polygon(((-18.0, -18.0), (18.0, -18.0), (-10.0, 18.0))))
    out = check_corner_angle(dart)
    assert out and all(i.elements == ("bounds",) for i in out)


def test_corner_angle_fires_where_a_wall_meets_the_edge_at_an_acute_angle() -> None:
    slant = replace(BASE, walls=(Wall("slant", Polygon(((0.0, -18.0), (2.0, -18.0), (14.0, -10.0), (12.0, -10.0)))),))
    out = check_corner_angle(slant)
    assert out and {"slant", "bounds"} <= set(out[0].elements)


# ------------------------------------------------------------------ cw-wall-gap


def test_wall_gap_quiet_for_wide_gaps_and_touching_walls() -> None:
    wide = replace(BASE, walls=(Wall("A", Rect((-4.0, 0.0), (2.0, 10.0))), Wall("B", Rect((4.1, 0.0), (2.0, 10.0)))))
    assert check_wall_gap(wide) == []  # 6.1 in apart: more than one turning key
    joined = replace(BASE, walls=(Wall("A", Rect((-2.0, 0.0), (2.0, 10.0))), Wall("B", Rect((0.0, 0.0), (2.0, 10.0)))))
    assert check_wall_gap(joined) == []
    flush = replace(BASE, walls=(Wall("E", Rect((0.0, -17.0), (10.0, 2.0))),))
    assert check_wall_gap(flush) == []


def test_wall_gap_fires_between_walls_and_between_a_wall_and_the_edge() -> None:
    # Arena Setup: "Gaps between walls must be at least one turning key (2 car lengths) long."
    narrow = replace(BASE, walls=(Wall("A", Rect((-3.0, 0.0), (2.0, 10.0))), Wall("B", Rect((3.0, 0.0), (2.0, 10.0)))))
    out = check_wall_gap(narrow)
    assert codes(out) == ["cw-wall-gap"] and out[0].severity == "error"
    assert set(out[0].elements) == {"A", "B"} and out[0].metrics["width"] == pytest.approx(4.0, abs=0.05)
    assert "at least one turning key" in out[0].message
    edge = replace(BASE, walls=(Wall("E", Rect((0.0, -14.0), (10.0, 2.0))),))
    out = check_wall_gap(edge)
    assert codes(out) == ["cw-wall-gap"] and set(out[0].elements) == {"E", "bounds"}
    assert out[0].metrics["width"] == pytest.approx(3.0, abs=0.05)


def test_wall_gap_ignores_gaps_no_car_can_reach() -> None:
    # a sliver enclosed by walls is not a gap "a car could enter"
    ring = (Wall("R1", Rect((0.0, -2.0), (8.0, 1.0))), Wall("R2", Rect((0.0, 2.0), (8.0, 1.0))),
            Wall("R3", Rect((-3.5, 0.0), (1.0, 5.0))), Wall("R4", Rect((3.5, 0.0), (1.0, 5.0))))
    assert check_wall_gap(replace(BASE, walls=ring)) == []


def test_wall_gap_takes_the_sample_pairs_a_block_at_a_time_and_minds_the_memory_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 36 point 9: a dense 120 in board held every pair of boundary samples closer than a
    # key at once (about a gigabyte). The pairs are taken a block at a time: tiny blocks give the
    # same gaps as one block, and a block the memory cap has no room for stops the check
    from engine import budget as caps
    from engine.carwars import checks as cw

    walls = (Wall("A", Rect((-3.0, 0.0), (2.0, 10.0))), Wall("B", Rect((3.0, 0.0), (2.0, 10.0))),
             Wall("E", Rect((0.0, -14.0), (10.0, 2.0))))
    arena = replace(BASE, walls=walls)
    whole = cw.wall_gaps(arena)
    assert len(whole) == 2
    monkeypatch.setattr(cw, "PAIR_BLOCK", 500)
    assert cw.wall_gaps(arena) == whole
    held = {"mib": 1000.0}
    budget = caps.Budget(caps.Caps(seconds=None, memory_mib=1024.0), memory=lambda: held["mib"])
    with caps.active(budget), pytest.raises(caps.AnalysisStopped, match="memory limit"):
        monkeypatch.setattr(cw, "PAIR_BLOCK", 1_000_000)  # one block of ~370,000 candidate pairs: ~42 MiB more
        held["mib"] = 1020.0
        cw.wall_gaps(arena)


def test_wall_gap_checks_every_part_of_a_split_arena_whatever_the_order_of_the_starts() -> None:
    # Arena Setup: "Gaps between walls must be at least one turning key (2 car lengths) long." A wall
    # across the arena leaves two parts, one car in each: a narrow gap in player 2's half is an error
    # whether start 1 or start 2 is listed first (it passed when start 1 came first).
    split = Wall("split", Rect((0.0, 0.0), (36.0, 1.0)))
    narrow = (Wall("A", Rect((-3.0, 9.0), (2.0, 3.0))), Wall("B", Rect((3.0, 9.0), (2.0, 3.0))))  # 4 in apart
    one, two = StartPosition(1, (0.0, -15.5), 90.0), StartPosition(2, (0.0, 15.5), 270.0)
    for starts in ((one, two), (two, one)):
        out = check_wall_gap(replace(BASE, walls=(split, *narrow), start_positions=starts))
        assert [(i.code, set(i.elements)) for i in out] == [("cw-wall-gap", {"A", "B"})]
        assert out[0].metrics["width"] == pytest.approx(4.0, abs=0.05)
    # the same walls with no car in player 2's half (both starts below the split) stay quiet
    below = (one, StartPosition(2, (-15.5, -9.0), 0.0))
    assert check_wall_gap(replace(BASE, walls=(split, *narrow), start_positions=below)) == []


# ------------------------------------------------------------------ cw-start-key


def test_start_key_quiet_for_the_default_starts_and_returns_the_key() -> None:
    assert check_start_key(BASE) == []
    keys = start_keys(BASE)
    assert set(keys) == {1, 2, 3, 4}
    key = shapely.Polygon(keys[1].polygon)
    assert key.area == pytest.approx(6.0 * 1.5)  # "2 car-lengths long and 1/2 car-length wide"
    assert key.distance(car_outline(Pose(0.0, -14.75, 90.0), BASE.vehicle)) <= 1e-9
    assert BASE.bounds_geometry().covers(key)


def test_start_key_accepts_a_car_beside_the_key_in_any_orientation() -> None:
    # "position the car in any orientation, so long as some part of the base is touching the turning key"
    side = StartPosition(1, (0.0, -18.0 + 1.5 + 0.75), 0.0)  # parallel to the edge, along the key's inner side
    assert check_start_key(replace(BASE, start_positions=(side,))) == []
    slanted = StartPosition(1, (0.0, -18.0 + 1.5 + 0.75 + 0.3), 20.0)
    k = start_key(replace(BASE, start_positions=(slanted,)), 1)
    assert k.polygon is not None or k.gap > 0


def test_start_key_fires_when_the_car_is_away_from_the_edge() -> None:
    # Starting Positions: "Place the turning key against the arena edge and then position the car ..."
    moved = replace(BASE, start_positions=(StartPosition(1, (0.0, -10.0), 90.0),))
    out = check_start_key(moved)
    assert codes(out) == ["cw-start-key"] and out[0].severity == "error" and "start:1" in out[0].elements
    assert "Place the turning key against the arena edge" in out[0].message
    assert out[0].metrics["gap"] == pytest.approx(4.75, abs=1e-6)


def test_start_key_fires_when_the_car_or_the_key_would_overlap_something() -> None:
    on_obstacle = replace(BASE, obstacles=(Obstacle("O", Rect((0.0, -14.0), (1.0, 1.0))),),
                          start_positions=BASE.start_positions[:1])
    out = check_start_key(on_obstacle)
    assert codes(out) == ["cw-start-key"] and "O" in out[0].elements
    blocked = replace(BASE, tokens=(Token("X", "barrier", (0.0, -17.0), size=(12.0, 1.0), weight="heavy"),),
                      start_positions=BASE.start_positions[:1])
    out = check_start_key(blocked)
    assert codes(out) == ["cw-start-key"]
    flat = replace(BASE, hazards=(Hazard("H", Rect((0.0, -16.0), (2.5, 3.5)), dice=2),), start_positions=BASE.start_positions[:1])
    assert check_start_key(flat) == []  # a hazard card lies flat: the key may lie on it


def _against_the_edge(arena: CarWarsArena, player: int) -> float:
    """Start ``player``'s key: inside the arena, its outer side (the polygon's first two corners)
    resting on the edge at both corners or at a point between them; its gap to the car."""
    k = start_key(arena, player)
    assert k.polygon is not None, k.reason
    bounds = arena.bounds_geometry()
    key = shapely.Polygon(k.polygon)
    assert key.area == pytest.approx(6.0 * 1.5) and bounds.buffer(1e-6).covers(key)
    p, q = shapely.Point(k.polygon[0]), shapely.Point(k.polygon[1])
    corners = max(bounds.exterior.distance(p), bounds.exterior.distance(q))
    assert corners <= 1e-6 or shapely.LineString([k.polygon[0], k.polygon[1]]).distance(bounds.exterior) <= 1e-6
    return key.distance(car_outline(Pose(*arena.start(player).position, arena.start(player).facing), arena.vehicle))


def _edge_below(arena: CarWarsArena, x: float) -> float:
    """Where the arena's edge crosses the vertical line at ``x`` below the centre."""
    cut = arena.bounds_geometry().exterior.intersection(shapely.LineString([(x, -100.0), (x, 0.0)]))
    return float(min(pt.y for pt in shapely.get_parts(cut)))


def test_start_key_passes_on_a_round_arena_with_the_key_s_corners_on_the_edge() -> None:
    # Starting Positions: "Place the turning key against the arena edge and then position the car
    # in any orientation, so long as some part of the base is touching the turning key." A round
    # edge has no straight stretch a key long: the key lies across it, both corners on the edge.
    round_arena = CarWarsArena(name="round", bounds=Circle((0.0, 0.0), 18.0))
    rim = _edge_below(round_arena, 3.0)  # the key's corners at x = -3 and 3 (a 6 in key)
    facing_in = rim + 1.5 + 0.25 + 1.5 + 0.05  # key, bumper, half the car: 0.05 in off the key
    along = rim + 1.5 + 0.75  # parallel to the edge, its long side on the key
    starts = (StartPosition(1, (0.0, facing_in), 90.0), StartPosition(2, (-facing_in, 0.0), 180.0),
              StartPosition(3, (0.0, -facing_in), 270.0), StartPosition(4, (along, 0.0), 90.0))  # 4: beside the key
    arena = replace(round_arena, start_positions=starts)
    assert check_start_key(arena) == []
    # (the keys are found by placements every 1/60 car length along the edge, so a gap is within
    # 1e-4 in of the exact one)
    for s in starts[:3]:
        assert _against_the_edge(arena, s.player) == pytest.approx(0.05, abs=1e-4)
    assert _against_the_edge(arena, 4) <= 1e-4
    # the same car half an inch further in touches no key: an error, with the gap
    off = replace(round_arena, start_positions=(StartPosition(1, (0.0, facing_in + 0.5), 90.0),))
    out = check_start_key(off)
    assert codes(out) == ["cw-start-key"] and "Place the turning key against the arena edge" in out[0].message
    assert out[0].metrics["gap"] == pytest.approx(0.55, abs=0.01)


def test_start_key_passes_on_a_many_sided_arena_with_sides_shorter_than_the_key() -> None:
    # a regular 20-gon of radius 18 in: sides 5.63 in, under a turning key (6 in); a vertex at the
    # bottom, the key across it with its corners on the two sides beside it
    ngon = Polygon(tuple((18.0 * math.cos(math.radians(18.0 * i)), 18.0 * math.sin(math.radians(18.0 * i)))
                         for i in range(20)))
    rim = -18.0 + 3.0 * math.tan(math.radians(9.0))
    starts = (StartPosition(1, (0.0, rim + 1.5 + 1.75), 90.0), StartPosition(2, (0.0, -rim - 1.5 - 0.75), 0.0),
              StartPosition(3, (rim + 1.5 + 1.75 + 0.08, 0.0), 0.0),
              StartPosition(4, (-rim - 1.5 - 1.75, 0.0), 180.0))  # 4: at the outline's first vertex
    arena = CarWarsArena(name="20-gon", bounds=ngon, start_positions=starts)
    assert check_start_key(arena) == []
    assert max(_against_the_edge(arena, p) for p in (1, 2, 4)) <= 1e-4
    assert _against_the_edge(arena, 3) == pytest.approx(0.08, abs=1e-4)
    near_the_middle = replace(arena, start_positions=(StartPosition(1, (0.0, -6.0), 90.0),))
    out = check_start_key(near_the_middle)
    assert codes(out) == ["cw-start-key"] and out[0].elements == ("start:1",)


def test_start_key_passes_against_an_inward_corner_of_the_edge() -> None:
    # the bottom edge bulges in to a point 2 in high: a key lying on that point (tangent to the
    # edge there) touches a car whose rear bumper is 0.5 in over it, none lying flush does
    bump = Polygon(((-18.0, -18.0), (-2.0, -18.0), (0.0, -16.0), (2.0, -18.0), (18.0, -18.0), (18.0, 18.0), (-18.0, 18.0)))
    on_the_point = CarWarsArena(name="bump", bounds=bump, start_positions=(StartPosition(1, (0.0, -12.75), 90.0),))
    assert check_start_key(on_the_point) == [] and _against_the_edge(on_the_point, 1) <= 1e-4
    far = replace(on_the_point, start_positions=(StartPosition(1, (0.0, -9.0), 90.0),))
    out = check_start_key(far)
    assert codes(out) == ["cw-start-key"] and 1.5 < out[0].metrics["gap"] < 2.5


def test_start_key_lies_across_an_octagon_s_corner_but_not_a_square_s() -> None:
    # "against the arena edge" (L417): a key across a corner where the edge turns 45 degrees (a
    # regular octagon, sides 5.36 in, shorter than the key) rests on the edge; across a square's
    # 90-degree corner it would touch the walls at its two corners only (CHORD_MAX_TURN,
    # docs/rules-decisions.md "cw-start-key")
    octagon = Polygon(tuple((7.0 * math.cos(math.radians(45.0 * i)), 7.0 * math.sin(math.radians(45.0 * i)))
                            for i in range(8)))  # a vertex at the bottom, (0, -7)
    rim = -7.0 + 3.0 * math.tan(math.radians(22.5))  # the key's corners at x = -3 and 3
    on_the_vertex = CarWarsArena(name="octagon", bounds=octagon,
                                 start_positions=(StartPosition(1, (0.0, rim + 1.5 + 0.25 + 1.5 + 0.05), 90.0),))
    assert check_start_key(on_the_vertex) == []
    assert _against_the_edge(on_the_vertex, 1) == pytest.approx(0.05, abs=1e-4)
    # BASE's square corner (-18, -18): the car on the diagonal, 0.05 in off a key whose corners
    # would sit on both walls 4.24 in from the corner; no flush key comes within 1 in of it
    d = 3.0 + 1.5 + 0.25 + 1.5 + 0.05
    in_the_corner = replace(BASE, start_positions=(StartPosition(1, (-18.0 + d / math.sqrt(2.0),) * 2, 45.0),))
    out = check_start_key(in_the_corner)
    assert codes(out) == ["cw-start-key"] and out[0].metrics["gap"] > 1.0


# ------------------------------------------------------------------ cw-start-spread


def test_start_spread_quiet_for_even_starts() -> None:
    assert check_start_spread(BASE) == []
    two = replace(BASE, start_positions=(BASE.start_positions[0], BASE.start_positions[2]))
    assert check_start_spread(two) == []


def test_start_spread_fires_for_bunched_starts() -> None:
    # "Players should be positioned evenly around the arena"
    bunched = replace(BASE, start_positions=(BASE.start_positions[0], BASE.start_positions[1],
                                             StartPosition(3, (-14.75, -10.0), 0.0), BASE.start_positions[3]))
    out = check_start_spread(bunched)
    assert set(codes(out)) == {"cw-start-spread"} and all(i.severity == "warning" for i in out)
    assert any("degrees apart" in i.message for i in out) and any("nearest other start" in i.message for i in out)
    assert all("positioned evenly" in i.message for i in out)


# ------------------------------------------------------------------ component counts


def test_components_quiet_within_the_box() -> None:
    tokens = tuple(Token(f"b{i}", "barrel", (float(i * 3), 5.0)) for i in range(4))
    assert check_components(replace(BASE, tokens=tokens)) == []  # the 4-player set has "4 barrel tokens"


def test_components_fire_beyond_the_box() -> None:
    # Components: "2-PLAYER SET ... 2 barrel tokens ... 14 hazard cards"; "four cards numbered 0 through 3"
    two = replace(BASE, start_positions=BASE.start_positions[:2],
                  tokens=tuple(Token(f"b{i}", "barrel", (float(i * 3), 5.0)) for i in range(3)),
                  hazards=tuple(Hazard(f"h{i}", Rect((float(i), 0.0), (2.5, 3.5))) for i in range(15)),
                  cards=(Card("c1", 1, (0.0, 0.0)), Card("c2", 1, (5.0, 0.0))))
    out = check_components(two)
    assert codes(out) == ["cw-components"] * 3
    assert "2 barrel tokens" in out[0].message and "14 hazard cards" in out[1].message
    assert "numbered 0 through 3" in out[2].message and set(out[2].elements) == {"c1", "c2"}
    five = replace(BASE, scenario=Scenario(players=5))
    assert "car bases" in check_components(five)[0].message


# ------------------------------------------------------------------ own-colour checkpoints


def test_own_checkpoints_quiet_once_per_player() -> None:
    cards = tuple(Card(f"c{p}", p - 1, (float(p * 4), 0.0), owner=p) for p in (1, 2, 3, 4))
    assert check_own_checkpoints(replace(BASE, cards=cards)) == []
    assert check_own_checkpoints(replace(BASE, cards=(Card("c", 0, (0.0, 0.0)),))) == []


def test_own_checkpoints_fire_for_doubles_strangers_and_gaps() -> None:
    # Terrain and Hazards: "you can't fire a weapon until you cross the checkpoint of your own color"
    cards = (Card("a", 0, (0.0, 0.0), owner=1), Card("b", 1, (4.0, 0.0), owner=1), Card("c", 2, (8.0, 0.0), owner=7),
             Card("d", 3, (12.0, 0.0), role="trigger", owner=2))
    out = check_own_checkpoints(replace(BASE, cards=cards))
    assert set(codes(out)) == {"cw-own-checkpoint"}
    text = " | ".join(i.message for i in out)
    assert "player 1 has 2" in text and "player 7, who is not in the game" in text and "is a trigger" in text
    assert "no own-colour checkpoint" in text and all("your own color" in i.message for i in out)


# ------------------------------------------------------------------ all together


def test_setup_checks_honour_disabled_codes() -> None:
    bad = replace(BASE, bounds=Rect((0.0, 0.0), (48.0, 30.0)), start_positions=())
    assert codes(setup_checks(bad)) == ["cw-arena-size"]
    off = replace(bad, scenario=Scenario(analysis=Analysis(disabled=("cw-arena-size",))))
    assert setup_checks(off) == []
