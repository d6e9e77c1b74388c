"""Car Wars movement rules, each test citing the rule it checks (rulebook seed
001_720c8b844658e4d7.txt; section names as printed)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from engine.carwars.geometry import CarWarsGeometry
from engine.carwars.motion import Pose, apply, car_outline, car_rectangle, local_pose, outline, sweep
from engine.carwars.rules import (
    MAX_SPEED,
    START_SPEED,
    Maneuver,
    driving_dice,
    generate_maneuvers,
    generate_speed_changes,
    heading_step,
    zone_dice,
    zone_of,
)
from schema.games.carwars import CarWarsArena, Hazard, Obstacle, Terrain, Token, TurningKey, Vehicle, Wall
from schema.shapes import Rect

KEY = TurningKey()
CAR = Vehicle()


def arena(**kw: object) -> CarWarsArena:
    return CarWarsArena(name="t", bounds=Rect((0.0, 0.0), (36.0, 36.0)), **kw)  # type: ignore[arg-type]


# ------------------------------------------------------------------ 4A. Adjust Speed


def test_start_speed_and_top_speed() -> None:
    # Sequence of Play: "all players set their speed slider to 2"; Dashboards: "The maximum speed
    # for an undamaged car is 5".
    assert (START_SPEED, MAX_SPEED) == (2, 5)


def test_speed_changes_by_one_or_two_with_hard_acceleration_or_braking() -> None:
    # 4A. Adjust Speed: "Maintain ... Increase their speed by 1 ... Decrease their speed by 1";
    # Hard Acceleration / Hard Braking: "by 1 more" (once per turn).
    flat = {(c.speed, c.hard) for c in generate_speed_changes(3, "flat-out")}
    assert flat == {(1, True), (2, False), (3, False), (4, False), (5, True)}
    assert {(c.speed, c.hard) for c in generate_speed_changes(3, "safe")} == {(2, False), (3, False), (4, False)}


def test_reverse_is_speed_zero_and_one_step_from_one() -> None:
    # "Adjusting speed from reverse to 1 does not require hard accelerating." / "Adjusting speed
    # from 1 to reverse does not require hard braking." / "The minimum possible speed is 0 (or reverse)."
    assert (-1, False) in {(c.speed, c.hard) for c in generate_speed_changes(1, "safe")}
    assert (1, False) in {(c.speed, c.hard) for c in generate_speed_changes(-1, "safe")}
    assert (-1, True) in {(c.speed, c.hard) for c in generate_speed_changes(2, "flat-out")}
    assert all(c.speed >= -1 for c in generate_speed_changes(0, "flat-out"))
    assert -1 not in {c.speed for c in generate_speed_changes(1, "safe", reverse=False)}


def test_top_speed_is_never_exceeded() -> None:
    # Hard Acceleration: "A player may not exceed their maximum speed."
    assert max(c.speed for c in generate_speed_changes(5, "flat-out")) == 5
    assert max(c.speed for c in generate_speed_changes(2, "flat-out", max_speed=3)) == 3


# ------------------------------------------------------------------ Low-Risk Moves and Maneuvers


def test_low_risk_moves_and_maneuvers() -> None:
    # Low-Risk Moves: drive straight, slight turn; Maneuvers: slide, turn (D1 to D4).
    safe = generate_maneuvers(KEY, "safe")
    assert [m.kind for m in safe] == ["straight", "slight", "slight"]
    assert not any(m.is_maneuver for m in safe)
    flat = generate_maneuvers(KEY, "flat-out")
    assert {m.kind for m in flat} == {"straight", "slight", "slide", "turn"}
    assert sorted({m.zone for m in flat if m.kind == "turn"}) == [1, 2, 3, 4]
    assert max(m.angle for m in flat) == 90.0  # "up to 90 degrees"
    assert heading_step(flat) == 18.0


def test_drive_straight_moves_exactly_one_car_length() -> None:
    # Drive Straight: "move the car straight forward exactly 1 car-length".
    p = apply(Pose(1.0, 2.0, 30.0), Maneuver("straight"), CAR, KEY)
    assert math.dist((p.x, p.y), (1.0, 2.0)) == pytest.approx(CAR.length)
    assert p.heading == 30.0


def test_turn_advances_one_length_then_pivots_about_the_inner_rear_corner() -> None:
    # Turn: "Move the car straight forward 1 car-length until the back is aligned with the pivot
    # point, and then pivot the front of the car over the tip of the turning key".
    m = Maneuver("turn", -1, 54.0, 2)
    half = local_pose(m, 0.5, CAR, KEY)
    assert half == (CAR.length, 0.0, 0.0)
    end = apply(Pose(0.0, 0.0, 0.0), m, CAR, KEY)
    assert end.heading == pytest.approx(360.0 - 54.0)
    corner_before = (CAR.length / 2.0, -CAR.width / 2.0)  # rear right corner after the advance
    rect = np.asarray(car_rectangle(end, CAR).exterior.coords)[:-1]
    assert min(math.dist(tuple(c), corner_before) for c in rect) < 1e-9


def test_slide_translates_without_turning() -> None:
    # Slide: "move the car diagonally until that same edge aligns with the other end of the SLIDE zone".
    p = apply(Pose(0.0, 0.0, 90.0), Maneuver("slide", 1), CAR, KEY)
    assert p.heading == 90.0
    assert (p.x, p.y) == pytest.approx((-KEY.slide_lateral * CAR.length, KEY.slide_forward * CAR.length))


def test_reverse_moves_the_back_first() -> None:
    # Hard Braking: "Use the same methods in reverse, but treat the back of the car as though it is the front."
    p = apply(Pose(0.0, 0.0, 0.0), Maneuver("straight"), CAR, KEY, reverse=True)
    assert (p.x, p.y, p.heading) == pytest.approx((-CAR.length, 0.0, 0.0))


# ------------------------------------------------------------------ 4B. Drive: the driving roll


def test_book_example_d3_turn_at_speed_3_rolls_six_dice() -> None:
    # Turn: "The player makes a D3 turn at speed 3. That player takes 1 ace and then rolls six
    # dice: for their current speed, plus for zone D1, plus for zone D2, plus for zone D3."
    assert driving_dice(Maneuver("turn", 1, 54.0, 3), 3, 0, 0, KEY) == 6


def test_slide_adds_speed_dice_only_and_low_risk_moves_none() -> None:
    # Slide: "The player adds dice equal to their speed, but this maneuver does not add any
    # additional dice"; Low-Risk Moves: "Players do not roll dice ... for low-risk moves".
    assert driving_dice(Maneuver("slide", -1), 4, 0, 0, KEY) == 4
    assert driving_dice(Maneuver("straight"), 5, 0, 0, KEY) == 0
    assert driving_dice(Maneuver("slight", 1, 18.0), 5, 0, 0, KEY) == 0


def test_reverse_counts_as_speed_one() -> None:
    # "Reverse is considered to be speed 1".
    assert driving_dice(Maneuver("slide", 1), -1, 0, 0, KEY) == 1


def test_terrain_and_hazards_add_to_every_roll() -> None:
    # Drive: "a number of D equal to the highest terrain level their car is overlapping, plus any
    # dice required by hazards their car is overlapping, plus any dice required by the maneuver";
    # Terrain and Hazards: "Hazards do not negate terrain – they add to it!"
    assert driving_dice(Maneuver("straight"), 3, 2, 2, KEY) == 4
    assert driving_dice(Maneuver("turn", 1, 36.0, 1), 3, 1, 2, KEY) == 3 + 1 + 1 + 2


def test_zones_are_cumulative_and_a_turn_may_stop_on_a_zone_edge() -> None:
    # Turn: "the dice shown on all zones the car is overlapping"; "a player may stop their turn
    # anywhere within a difficulty zone".
    assert [zone_of(a, KEY) for a in (10, 18, 18.5, 36, 54, 72, 90)] == [0, 0, 1, 1, 2, 3, 4]
    assert [zone_dice(z, KEY) for z in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        zone_of(95.0, KEY)


def test_highest_terrain_level_and_every_hazard_overlapped() -> None:
    # Terrain and Hazards: "equal to the highest terrain number you are overlapping"; "A car's
    # movement is affected by all hazards it overlaps."
    a = arena(terrain=(Terrain("T1", Rect((0.0, 0.0), (10.0, 10.0)), level=1), Terrain("T2", Rect((3.0, 0.0), (4.0, 4.0)), level=2)),
              hazards=(Hazard("H1", Rect((1.0, 0.0), (2.5, 3.5)), dice=2), Hazard("H2", Rect((-1.0, 0.0), (2.5, 3.5)), dice=1),
                       Hazard("Mud", Rect((-9.0, 9.0), (2.5, 3.5)), dice=0, effect="adds 1 skid result")))
    g = CarWarsGeometry(a)
    assert g.terrain_level_at(Pose(0.0, 0.0, 0.0)) == 2
    assert g.terrain_level_at(Pose(-3.5, 0.0, 90.0)) == 1
    assert g.hazard_dice_at(Pose(0.0, 0.0, 0.0)) == 3
    assert g.hazard_dice_at(Pose(-9.0, 9.0, 0.0)) == 0  # Mud adds a result, not a die
    # touching an edge is not overlapping: the rectangle ends exactly at x = -5 + 0
    assert g.terrain_level_at(Pose(-5.0 - CAR.length / 2.0, 12.0, 0.0)) == 0


# ------------------------------------------------------------------ Collisions


def test_collision_is_continuous_not_only_at_the_end_of_a_point() -> None:
    # Collisions: "The moment a car touches a heavy obstacle or wall, a collision has occurred";
    # Heavy Obstacles: "the car must stop moving. Any remaining distance ... is lost".
    m = Maneuver("turn", 1, 90.0, 4)
    start = Pose(0.0, 0.0, 0.0)
    ends = [Pose(*local_pose(m, u, CAR, KEY)) for u in (0.0, 0.5, 1.0)]
    only_swept = sweep(m, CAR, KEY).difference(shapely.union_all([car_outline(p, CAR).buffer(0.05) for p in ends]))
    post = only_swept.representative_point()
    g = CarWarsGeometry(arena(walls=(Wall("post", Rect((post.x, post.y), (0.02, 0.02))),)))
    end = apply(start, m, CAR, KEY)
    assert not g.overlaps_blockers(car_outline(end, CAR))  # neither end of the point touches the post
    assert not g.overlaps_blockers(car_outline(start, CAR))
    r = g.drive_point(start, m)
    assert r.collided == ("post",)
    assert 0.5 < r.fraction < 1.0  # during the pivot
    assert not g.free_moves(np.array([0.0]), np.array([0.0]), np.array([0.0]), m)[0]
    far = CarWarsGeometry(arena(walls=(Wall("post", Rect((post.x + 9.0, post.y), (0.02, 0.02))),)))
    assert far.drive_point(start, m).collided == ()


def test_the_rounded_nose_collides_but_flush_contact_does_not() -> None:
    # Car Miniatures and Bases: "The rounded nose and rear of the base are only used to resolve collisions."
    wall = Wall("W", Rect((0.0, 10.0), (6.0, 2.0)))  # face at y = 9
    g = CarWarsGeometry(arena(walls=(wall,)))
    front = CAR.length / 2
    nose_in = Pose(0.0, 9.0 - front - CAR.bumper / 2 - CAR.length, 90.0)  # rectangle clear, nose into the wall after 1 point
    assert g.drive_point(nose_in, Maneuver("straight")).collided == ("W",)
    flush = Pose(0.0, 9.0 - front - CAR.bumper - CAR.length, 90.0)  # the nose ends exactly on the wall
    assert g.drive_point(flush, Maneuver("straight")).collided == ()


def test_light_and_drive_thru_obstacles_do_not_collide_heavy_and_walls_do() -> None:
    # "Obstacles with a drive-thru icon ... do not cause collisions"; Light Obstacles: "it is
    # *not a collision*"; "Any other obstacle ... is considered a heavy obstacle".
    def hit(**kw: object) -> tuple[str, ...]:
        g = CarWarsGeometry(arena(**kw))
        return g.drive_point(Pose(0.0, 0.0, 0.0), Maneuver("straight")).collided

    box = Rect((4.0, 0.0), (1.0, 1.0))
    assert hit(obstacles=(Obstacle("O", box, weight="light"),)) == ()
    assert hit(obstacles=(Obstacle("O", box, weight="drive-thru"),)) == ()
    assert hit(obstacles=(Obstacle("O", box),)) == ("O",)
    assert hit(tokens=(Token("B", "barrel", (4.0, 0.0)),)) == ()
    assert hit(tokens=(Token("X", "barrier", (4.0, 0.0), size=(3.0, 0.75), weight="heavy"),)) == ("X",)
    assert hit(hazards=(Hazard("H", box, dice=2),)) == ()
    assert hit(hazards=(Hazard("H", box, drive_over=False),)) == ("H",)


def test_the_arena_edge_is_a_wall() -> None:
    # Arena Setup: "The outside edges of the arena are walls".
    g = CarWarsGeometry(arena())
    assert g.drive_point(Pose(15.0, 0.0, 0.0), Maneuver("straight")).collided == ("bounds",)


def test_swept_area_covers_every_intermediate_pose() -> None:
    # Collisions are checked "the moment" the car touches: the swept area used contains the base
    # at every fraction of the point.
    for m in generate_maneuvers(KEY, "flat-out"):
        area = sweep(m, CAR, KEY).buffer(1e-9)
        for u in np.linspace(0.0, 1.0, 41):
            x, y, h = local_pose(m, float(u), CAR, KEY)
            assert area.covers(car_outline(Pose(x, y, h), CAR)), (m.label, u)
    assert shapely.Polygon(outline(CAR)).area < CAR.length * CAR.width + 2 * CAR.bumper * CAR.width
