"""Setup checks of a pit (engine/gliderpit/checks.py): each one quiet on the default pit and
firing on a pit broken the way it guards against, with the book's words in the message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.gliderpit.checks import (CHECKS, check_all, check_floor, check_launch_edges, check_launch_facing,
                                     check_launch_zones, check_pit, check_pit_holes, check_rows, check_symmetry, pit_holes)
from schema.games.gliderpit import (Analysis, GliderPitArena, LaunchZone, Row, Scenario, Symmetry, default_arena)

DEFAULT = default_arena()


def codes(issues: list) -> list[str]:  # type: ignore[type-arg]
    return [i.code for i in issues]


def with_zone(arena: GliderPitArena, index: int, zone: LaunchZone) -> GliderPitArena:
    zones = list(arena.launch_zones)
    zones[index] = zone
    return replace(arena, launch_zones=tuple(zones))


@pytest.mark.parametrize("code", sorted(CHECKS))
def test_every_check_is_quiet_on_the_default_pit(code: str) -> None:
    assert CHECKS[code](DEFAULT) == []


# ------------------------------------------------------------------ gp-pit


def test_pit_fires_on_a_stray_hex_and_on_an_empty_pit() -> None:
    stray = replace(DEFAULT, cells=(*DEFAULT.cells, (30, 0)))
    (issue,) = check_pit(stray)
    assert issue.code == "gp-pit" and issue.severity == "error" and issue.metrics["cells"] == [[30, 0]]
    assert "hexagonal grid" in issue.message
    (empty,) = check_pit(replace(DEFAULT, cells=()))
    assert empty.severity == "error"
    (twice,) = check_pit(replace(DEFAULT, cells=(*DEFAULT.cells, DEFAULT.cells[0])))
    assert twice.severity == "warning"


# ------------------------------------------------------------------ gp-rows


def test_rows_fire_when_a_total_has_no_row() -> None:
    """"Roll 2d6. Place any one of the markers on a hex row matching the die roll." (L195): a
    total with no row leaves a marker nowhere to go."""
    rows = tuple(replace(r, label=3) if r.label == 2 else r for r in DEFAULT.rows)
    (issue,) = check_rows(replace(DEFAULT, rows=rows))
    assert issue.code == "gp-rows" and issue.metrics["missing"] == [2]
    assert "matching the die roll" in issue.message


def test_rows_fire_when_the_pit_has_not_19_rows() -> None:
    """"The 19 rows of hexes on the mapsheet are identified by number." (L193)"""
    short = replace(DEFAULT, cells=tuple(c for c in DEFAULT.cells if c[1] != -9),
                    rows=tuple(r for r in DEFAULT.rows if r.line != -9))
    found = check_rows(short)
    assert any(i.metrics.get("rows") == 18 and "19 rows" in i.message for i in found)


def test_rows_fire_on_unnumbered_lines_bad_labels_and_doubles() -> None:
    unnumbered = replace(DEFAULT, rows=DEFAULT.rows[1:])
    assert any(i.metrics.get("rows") == [1] for i in check_rows(unnumbered))
    bad = replace(DEFAULT, rows=(replace(DEFAULT.rows[0], label=13), *DEFAULT.rows[1:]))
    assert any(i.elements == ("R1",) and "2 to 12" in i.message for i in check_rows(bad))
    doubled = replace(DEFAULT, rows=(*DEFAULT.rows, Row("R20", DEFAULT.rows[0].line, 7)))
    assert any(set(i.elements) == {"R1", "R20"} for i in check_rows(doubled))
    off = replace(DEFAULT, rows=(*DEFAULT.rows, Row("R20", 40, 7)))
    (issue,) = check_rows(off)
    assert issue.severity == "warning" and issue.elements == ("R20",)


# ------------------------------------------------------------------ gp-launch-zones


def test_launch_zones_fire_on_count_size_overlap_and_breaks() -> None:
    """"Each launch zone is comprised of a string of five hexes along the wall of the pit. The
    ends of the launch zones are marked by thick black lines." (L55); six Airspeed Tracks
    (L17), one glider each (L45)."""
    five = replace(DEFAULT, launch_zones=DEFAULT.launch_zones[:5])
    assert any("six" in i.message for i in check_launch_zones(five))
    z1 = DEFAULT.launch_zones[0]
    short = with_zone(DEFAULT, 0, replace(z1, cells=z1.cells[:4]))
    assert any(i.elements == ("Z1",) and "4 hexes, not five" in i.message for i in check_launch_zones(short))
    overlap = with_zone(DEFAULT, 1, replace(DEFAULT.launch_zones[1], cells=(z1.cells[-1], *DEFAULT.launch_zones[1].cells[1:])))
    assert any(set(i.elements) == {"Z1", "Z2"} and "share hex" in i.message for i in check_launch_zones(overlap))
    broken = with_zone(DEFAULT, 0, replace(z1, cells=(z1.cells[0], z1.cells[2], z1.cells[1], *z1.cells[3:])))
    assert any("breaks" in i.message for i in check_launch_zones(broken))
    inner = with_zone(DEFAULT, 0, replace(z1, cells=(*z1.cells[:4], (-7, 4))))
    assert any("not on the wall" in i.message for i in check_launch_zones(inner))
    outside = with_zone(DEFAULT, 0, replace(z1, cells=(*z1.cells[:4], (-10, 4))))
    assert any("outside the pit" in i.message for i in check_launch_zones(outside))
    same_track = with_zone(DEFAULT, 1, replace(DEFAULT.launch_zones[1], track=1))
    assert any("Airspeed Track 1 has 2" in i.message for i in check_launch_zones(same_track))


# ------------------------------------------------------------------ gp-launch-edges


def test_launch_edges_quiet_on_the_side_walls_and_firing_on_the_top_row() -> None:
    """"On the long edges of the mapsheet are six Airspeed Tracks" (L17) and "place its counter
    into a launch zone hex located adjacent to the glider's Airspeed Track" (L55): the rows run
    between the long edges, so a zone beside a track is at one end of its rows.  Z4 moved onto
    the top row (four of its hexes in the middle of row 1) is not beside any track."""
    assert check_launch_edges(DEFAULT) == []
    top = with_zone(DEFAULT, 3, replace(DEFAULT.launch_zones[3], cells=((-4, 9), (-3, 9), (-2, 9), (-1, 9), (0, 9))))
    (issue,) = check_launch_edges(top)
    assert issue.code == "gp-launch-edges" and issue.elements == ("Z4",) and issue.severity == "warning"
    assert issue.metrics["cells"] == [[-4, 9], [-3, 9], [-2, 9], [-1, 9]] and issue.metrics["side"] == "end"
    assert "On the long edges of the mapsheet are six Airspeed Tracks" in issue.message
    assert "adjacent to the glider's Airspeed Track" in issue.message


def test_launch_edges_lets_a_zone_turn_a_corner_but_not_lie_along_the_top() -> None:
    """Most of a zone (three of five hexes) must end their rows on one side: round the top-left
    corner with three hexes down the left wall it still lies beside the left track; with two it
    lies along the top row."""
    z1 = DEFAULT.launch_zones[0]
    three = with_zone(DEFAULT, 0, replace(z1, cells=((-7, 9), (-8, 9), (-9, 9), (-9, 8), (-9, 7))))
    assert check_launch_edges(three) == []
    two = with_zone(DEFAULT, 0, replace(z1, cells=((-6, 9), (-7, 9), (-8, 9), (-9, 9), (-9, 8))))
    (issue,) = check_launch_edges(two)
    assert issue.metrics == {"cells": [[-8, 9], [-7, 9], [-6, 9]], "side": "start"}
    assert "3 of its 5 hexes" in issue.message


def test_launch_edges_of_a_flat_pit_are_its_top_and_bottom() -> None:
    """With flat hexes the rows are the lines of constant q (docs/rules-decisions.md), so the
    long edges are where those lines end.  Swapping the axial coordinates (q, r) -> (r, q) is a
    mirror of the hex grid that sends the lines of constant r onto the lines of constant q: the
    default pit mirrored so, with flat hexes, has its zones at the ends of its rows again."""
    flip = {(q, r): (r, q) for q, r in DEFAULT.cells}
    flat = replace(DEFAULT, orientation="flat", cells=tuple(flip[c] for c in DEFAULT.cells),
                   launch_zones=tuple(replace(z, cells=tuple((r, q) for q, r in z.cells)) for z in DEFAULT.launch_zones))
    assert check_launch_edges(flat) == []
    # the same zones on the pointy pit with its axes swapped are along its slanted sides and top:
    # not all at the end of rows of constant r
    pointy = replace(flat, orientation="pointy")
    assert check_launch_edges(pointy) != []


# ------------------------------------------------------------------ gp-pit-holes


def test_pit_holes_fire_on_a_hex_closed_in_by_the_pit() -> None:
    """A pit hex taken out of the middle leaves a hole: wall inside "a deep, sheer-walled pit"
    (L11), which a glider "collides with" (L121)."""
    assert check_pit_holes(DEFAULT) == [] and pit_holes(frozenset(DEFAULT.cells)) == []
    holed = replace(DEFAULT, cells=tuple(c for c in DEFAULT.cells if c not in ((0, 0), (1, 0), (3, 3))))
    (issue,) = check_pit_holes(holed)
    assert issue.code == "gp-pit-holes" and issue.severity == "warning"
    assert issue.metrics == {"holes": 2, "cells": [[0, 0], [1, 0], [3, 3]]}
    assert "a deep, sheer-walled pit" in issue.message


def test_a_notch_in_the_wall_is_not_a_hole() -> None:
    """Hexes cut from the edge inward stay open to the outside: the wall bends, no hole."""
    notch = replace(DEFAULT, cells=tuple(c for c in DEFAULT.cells if c not in ((9, 0), (8, 0), (7, 0))))
    assert check_pit_holes(notch) == []


# ------------------------------------------------------------------ gp-launch-facing


def test_launch_facing_fires_on_a_hex_walled_all_round() -> None:
    """"The glider counter may be launched facing in any direction except toward a hexside that
    contains a pit wall." (L55)"""
    z1 = DEFAULT.launch_zones[0]
    arena = with_zone(replace(DEFAULT, cells=(*DEFAULT.cells, (30, 0))), 0, replace(z1, cells=(*z1.cells[:4], (30, 0))))
    (issue,) = check_launch_facing(arena)
    assert issue.code == "gp-launch-facing" and issue.metrics["cells"] == [[30, 0]]
    assert "except toward a hexside that contains a pit wall" in issue.message


# ------------------------------------------------------------------ gp-floor


@pytest.mark.parametrize("floor", [0, 5, 10, 15])
def test_floor_is_quiet_on_the_book_levels(floor: int) -> None:
    """"set the FLOOR level to 5 ... 10 ... a blitz game using a FLOOR level of 15" (L217)"""
    assert check_floor(replace(DEFAULT, floor=floor)) == []


def test_floor_warns_on_house_levels_and_refuses_no_room_to_launch() -> None:
    (warn,) = check_floor(replace(DEFAULT, floor=8))
    assert warn.severity == "warning" and "blitz game" in warn.message
    # a FLOOR the launch itself reaches ("Move the glider's altitude marker down 1 level", L57,
    # from LEDGE to 20) leaves no game; the schema allows only 1-19, a built arena may hold more
    (err,) = check_floor(replace(DEFAULT, floor=20))
    assert err.severity == "error" and err.metrics["launch_altitude"] == 20


@pytest.mark.parametrize("floor, dive", [(17, 3), (18, 2), (19, 1)])
def test_floor_17_to_19_is_a_warning_because_the_launch_dive_is_optional(floor: int, dive: int) -> None:
    """"A player may choose to dive an additional 1 to 3 levels at this time." (L59): the dive is
    a choice, so a FLOOR at 17-19 only forbids the deeper dives; the launch to 20 (L57) stays
    legal.  Before issue 36 these were errors ("leaves no room to launch")."""
    (issue,) = check_floor(replace(DEFAULT, floor=floor))
    assert issue.code == "gp-floor" and issue.severity == "warning"
    assert f"a launch dive of {dive} or more levels would reach it" in issue.message
    assert "A player may choose to dive an additional 1 to 3 levels at this time." in issue.message
    assert issue.metrics["dive_max"] == dive - 1


# ------------------------------------------------------------------ gp-symmetry


def test_symmetry_fires_when_the_declared_mirror_is_broken() -> None:
    lopsided = replace(DEFAULT, cells=tuple(c for c in DEFAULT.cells if c != (4, 5)))
    assert codes(check_symmetry(lopsided)) == ["gp-symmetry"]
    moved = with_zone(DEFAULT, 3, replace(DEFAULT.launch_zones[3], cells=DEFAULT.launch_zones[3].cells[1:] + ((0, 9),)))
    assert sorted(i.elements for i in check_symmetry(moved)) == [("Z1",), ("Z4",)]
    # a half turn maps row r onto row -r, which carries 14 - k where r carries k: a roll of k and
    # of 14 - k are as likely on 2d6 (rule "Determine Location and Effect of Air Currents"), so
    # the default pit is half-turn symmetric too - as the editor's symmetry mode labels images
    half_turn = replace(DEFAULT, symmetry=Symmetry("rotational", 2))
    assert check_symmetry(half_turn) == []
    # ... unless one row breaks that: only the pair it belongs to is named, once
    rows = list(DEFAULT.rows)
    rows[0] = replace(rows[0], label=rows[0].label + 1)
    broken = check_symmetry(replace(half_turn, rows=tuple(rows)))
    assert [sorted(i.elements) for i in broken] == [[rows[0].id, "R19"]]
    # the same total is also as likely, but not mixed with 14 - k: a roll's rows must map to one roll's
    assert check_symmetry(replace(DEFAULT, rows=tuple(rows))) == []  # the mirror keeps R1 on its line
    currents = list(DEFAULT.rows)
    currents[0] = replace(currents[0], current="updraft")
    assert [sorted(i.elements) for i in check_symmetry(replace(half_turn, rows=tuple(currents)))] == [["R1", "R19"]]
    assert check_symmetry(replace(DEFAULT, symmetry=None)) == []


def test_disabled_checks_do_not_run() -> None:
    broken = replace(DEFAULT, floor=8, scenario=Scenario(analysis=Analysis(disabled=("gp-floor",))))
    assert "gp-floor" not in codes(check_all(broken))
    assert "gp-floor" in codes(check_all(replace(broken, scenario=Scenario())))
