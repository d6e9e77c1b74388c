"""Car Wars sightlines, cover and range (Cover, Range), checked against the book's words."""

from __future__ import annotations

from engine.carwars.motion import Pose
from engine.carwars.sight import Car, Point, SightModel, line_of_sight
from schema.games.carwars import CarWarsArena, Hazard, Obstacle, Token, Wall
from schema.shapes import Rect


def arena(**kw: object) -> CarWarsArena:
    return CarWarsArena(name="t", bounds=Rect((0.0, 0.0), (36.0, 36.0)), **kw)  # type: ignore[arg-type]


def test_full_cover_blocks_only_when_no_sightline_avoids_it() -> None:
    # Full Cover: "If a sightline *cannot* be drawn without crossing a full-cover obstacle, the
    # attacker cannot attack that target. If a sightline *can* be drawn ... that target can be attacked."
    a = arena(walls=(Wall("W", Rect((0.0, 0.0), (2.0, 10.0))),))
    assert not line_of_sight(a, Point(-6.0, 0.0), Point(6.0, 0.0)).visible
    s = line_of_sight(a, Point(-6.0, 0.0), Point(6.0, 12.0))
    assert s.visible and s.segment is not None
    # cars see with any part of their rectangle: a car poking out past the wall's end is seen
    s = line_of_sight(a, Car(Pose(-6.0, 4.0, 90.0)), Car(Pose(6.0, 4.0, 90.0)))
    assert s.visible and "W" in s.full  # some sightlines cross the wall: its cover counts


def test_partial_cover_counts_every_crossable_obstacle() -> None:
    # Partial Cover: "the target gets [a bonus] for each partial-cover obstacle that can be crossed
    # by sightlines"; "Multiple sightlines may be drawn to maximize the defense bonus."
    a = arena(obstacles=(Obstacle("O1", Rect((0.0, 0.5), (1.0, 1.0))), Obstacle("O2", Rect((0.0, -3.0), (1.0, 1.0))),
                         Obstacle("none", Rect((0.0, 6.0), (1.0, 1.0)), cover="none")),
              tokens=(Token("B", "barrel", (2.0, 0.0)),))
    s = line_of_sight(a, Car(Pose(-6.0, 0.0, 90.0)), Car(Pose(6.0, 0.0, 90.0)))
    assert s.visible and set(s.partial) == {"O1", "B"}  # O2 lies beyond every sightline; "none" gives no cover


def test_no_cover_and_drive_over_hazards_do_not_block() -> None:
    # No Cover: "An obstacle with this icon does not provide a defense bonus."; Clay: "does not
    # offer any protection from attacks".
    a = arena(hazards=(Hazard("clay", Rect((0.0, 0.0), (2.5, 3.5)), dice=2),))
    s = line_of_sight(a, Point(-6.0, 0.0), Point(6.0, 0.0))
    assert s.visible and s.partial == () and s.full == ()


def test_cars_give_partial_cover_and_the_shooters_give_none() -> None:
    # Partial Cover: "Cars and any obstacles with this icon provide partial cover."
    m = SightModel(arena(), cars=(("start:1", Pose(-6.0, 0.0, 0.0)), ("start:2", Pose(0.0, 0.0, 90.0)),
                                  ("start:3", Pose(6.0, 0.0, 0.0))))
    s = m.look(Car(Pose(-6.0, 0.0, 0.0)), Car(Pose(6.0, 0.0, 0.0)), exclude=("start:1", "start:3"))
    assert s.visible and s.partial == ("start:2",)


def test_the_arena_edge_blocks_sight() -> None:
    # "The outside edges of the arena are walls": a sightline may not leave a notched arena.
    from schema.shapes import Polygon
    notched = CarWarsArena(name="n", bounds=Polygon(((-18.0, -18.0), (18.0, -18.0), (18.0, 18.0), (2.0, 18.0), (2.0, -10.0),
                                                      (-2.0, -10.0), (-2.0, 18.0), (-18.0, 18.0))))
    assert not line_of_sight(notched, Point(-10.0, 10.0), Point(10.0, 10.0)).visible
    assert line_of_sight(notched, Point(-10.0, -14.0), Point(10.0, -14.0)).visible


def test_range_rerolls_count_full_turning_key_lengths() -> None:
    # Range: "The target gets one defense re-roll for each full turning key length between the
    # attacker and the target" (a key is 2 car lengths: 6 in).
    m = SightModel(arena())
    assert m.range_rerolls(Point(0.0, 0.0), Point(5.9, 0.0)) == 0
    assert m.range_rerolls(Point(0.0, 0.0), Point(6.0, 0.0)) == 1
    assert m.range_rerolls(Car(Pose(-8.0, 0.0, 0.0)), Car(Pose(8.0, 0.0, 0.0))) == 2  # 13 in between rectangles
    walled = SightModel(arena(walls=(Wall("W", Rect((0.0, 0.0), (2.0, 40.0))),)))
    assert walled.range_rerolls(Point(-5.0, 0.0), Point(5.0, 0.0)) is None
