"""Arena Rex deployment zones as the cohort uses them (issue 36, item 5): "Players alternate
deploying miniatures along their board edge, in base to base contact with the edge. Find the
center of your board edge, your cohort may be deployed up to 6 inches away from the center in
either direction." (L40).  ``ar-zone-hazard``: a column, wall or other hazard that blocks
movement where bases deploy; ``ar-zone-room``: a zone that cannot hold the cohort's bases side by
side (``scenario.cohort``, default 5; "We recommend 3v3 for novices and 5v5 to 8v8 for seasoned
miniature gamers", L28)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from engine.arenarex import zone_room as room
from engine.arenarex.checks import SETUP_CHECKS
from schema import load, loads
from schema.games.arenarex import DEFAULT_COHORT, Deployment, Hazard, from_document, to_document
from schema.shapes import Rect
from tests.arenarex.util import SHIPPED, circle, column, pit, with_cohort
from validators.games.arenarex.balance import HOOK
from validators.run import validate

R50 = 50 / 25.4 / 2  # a 50 mm base's radius, inches


def square() -> object:
    """The shipped 24 in training square: zones on the bottom and top sides."""
    return load(SHIPPED / "square-24.yaml")


def room_issues(arena) -> list:  # type: ignore[no-untyped-def,type-arg]
    return SETUP_CHECKS["ar-zone-room"](arena)


def hazard_issues(arena) -> list:  # type: ignore[no-untyped-def,type-arg]
    return SETUP_CHECKS["ar-zone-hazard"](arena)


# ------------------------------------------------------------------ ar-zone-room


def test_eight_50_mm_bases_do_not_fit_the_books_zone_seven_do() -> None:
    """The issue's case: eight 50 mm bases side by side take 8 x 50 mm = 15.75 in of edge; with
    every base touching the edge within 6 in of its centre (the 12 in zone), their contact
    points span 7 x 1.97 = 13.78 in: on a straight side seven fit, the eighth does not."""
    a = square()
    assert room_issues(with_cohort(a, 7)) == []  # type: ignore[arg-type]
    issues = room_issues(with_cohort(a, 8))  # type: ignore[arg-type]
    assert [i.elements for i in issues] == [("deploy:1",), ("deploy:2",)]
    i = issues[0]
    assert i.code == "ar-zone-room" and i.severity == "error"
    assert i.metrics == {"cohort": 8, "base_mm": 50, "fits": 7, "zone_length": 12.0, "needed": round(7 * 2 * R50, 4)}
    assert "holds 7 of the cohort's 8 50 mm bases" in i.message and "13.78 in of zone" in i.message
    assert "in base to base contact with the edge" in i.message and "up to 6 inches away" in i.message


def test_a_curved_edge_holds_fewer_bases_than_a_straight_one() -> None:
    """On the 30 in circle the bases stand on the circle of radius 15 - r: two side by side are
    the arc 2 (15 - r) asin(r / (15 - r)) apart, 2.11 in for 50 mm bases against 1.97 on a
    straight edge.  The 12 in arc holds six, not the seven a straight 12 in zone holds."""
    a = circle()
    e = a.edge(a.deployment[0])
    rho = 15.0 - R50
    assert room.spacing(e, R50) == pytest.approx(2 * rho * math.asin(R50 / rho))
    assert room.packed(room.free_spans(a, e, R50), room.spacing(e, R50), e.closed, e.centre_length(R50), 9) == 6
    assert room_issues(with_cohort(a, 6)) == []
    (i, _) = room_issues(with_cohort(a, 7))
    assert i.metrics["fits"] == 6 and i.metrics["needed"] == round(6 * 15.0 * 2 * math.asin(R50 / rho), 4)


def test_a_column_in_the_zone_takes_room_and_is_named() -> None:
    """A column of radius 1.5 in against the middle of the square's bottom side: a 50 mm base's
    centre must stay 2.48 in from the column's, so the contact points left run 3.57 in either
    side of it, two bases each: four in all, and the default cohort of five does not fit."""
    a = replace(square(), hazards=(*square().hazards, column("col", 0.0, -12.0 + 1.5, 1.5)))  # type: ignore[type-var]
    assert room_issues(with_cohort(a, 4)) == []
    (i,) = room_issues(a)
    assert i.elements == ("deploy:1", "col") and i.metrics["fits"] == 4 and "col takes part of it" in i.message


def test_rubble_does_not_take_room() -> None:
    """Rubble that models walk over (blocks_movement false) is no obstacle to deploying."""
    rubble = Hazard("rubble", Rect((0.0, -11.0), (10.0, 2.0)), "rubble", blocks_movement=False, blocks_sight=False)
    a = replace(square(), hazards=(rubble,))  # type: ignore[type-var]
    assert room_issues(with_cohort(a, 7)) == [] and hazard_issues(a) == []


def test_a_short_side_and_its_corners() -> None:
    """An 8 in side: a base touching it may not hang over the sides next to it, so the contact
    points run from one base radius after the corner to one before the next: 8 - 1.97 = 6.03 in,
    room for four 50 mm bases, not the default five."""
    a = replace(square(), bounds=Rect((0.0, 0.0), (8.0, 30.0)), pits=(), spikes=(), hazards=(), symmetry=None,  # type: ignore[type-var]
                deployment=(Deployment(1, side=0), Deployment(2, side=2)))
    issues = room_issues(a)
    assert [i.metrics["fits"] for i in issues] == [4, 4]
    assert "the board's outline takes part of it" in issues[0].message


def test_the_cohort_is_a_scenario_setting_with_a_default() -> None:
    """``scenario.cohort`` is read and written; a file without it gets the default (5) and is
    written without it (the shipped files keep their canonical form)."""
    a = circle()
    assert a.scenario.cohort == DEFAULT_COHORT == 5
    assert "cohort" not in to_document(a)["scenario"]
    doc = to_document(with_cohort(a, 8))
    assert doc["scenario"]["cohort"] == 8 and from_document(doc).scenario.cohort == 8
    text = (SHIPPED / "square-24.yaml").read_text(encoding="utf-8").replace("scenario:\n", "scenario:\n  cohort: 8\n")
    arena = loads(text)
    assert arena.scenario.cohort == 8  # type: ignore[union-attr]
    assert {f.code for f in validate(arena).findings} == {"ar-zone-room"}
    with pytest.raises(Exception, match="cohort"):
        loads(text.replace("cohort: 8", "cohort: 0"))


# ------------------------------------------------------------------ ar-zone-hazard


def test_a_column_where_bases_deploy_is_a_finding_and_one_clear_of_them_is_not() -> None:
    """A 50 mm base touching the bottom side of the square reaches 1.97 in into the board: a
    column whose rim is 1.9 in from the edge overlaps it, one 2 in away is clear, one exactly a
    base's depth away only touches it (a model may stand against a column)."""
    a = square()
    near = replace(a, hazards=(*a.hazards, column("col", 3.0, -12.0 + 1.9 + 1.0)))  # type: ignore[type-var]
    (i,) = hazard_issues(near)
    assert i.code == "ar-zone-hazard" and i.severity == "warning" and i.elements == ("deploy:1", "col")
    assert i.metrics == {"bases_mm": [50], "kind": "column"}
    assert "column col stands in deploy:1's zone" in i.message and "in base to base contact with the edge" in i.message
    clear = replace(a, hazards=(*a.hazards, column("col", 3.0, -12.0 + 2.0 + 1.0)))  # type: ignore[type-var]
    assert hazard_issues(clear) == []
    touching = replace(a, hazards=(*a.hazards, column("col", 3.0, -12.0 + 2 * R50 + 1.0)))  # type: ignore[type-var]
    assert hazard_issues(touching) == []
    deep = replace(a, hazards=(*a.hazards, column("col", 3.0, -12.0 + 1.0)))  # type: ignore[type-var]
    assert hazard_issues(deep)[0].metrics["bases_mm"] == [30, 40, 50]


def test_a_wall_across_a_circle_zone_is_named_on_the_arc() -> None:
    """A wall 0.2 in thick lying 1.9 in inside the 30 in circle's rim below the south zone: the
    50 mm bases (1.97 in deep) standing on the arc reach it."""
    wall = Hazard("wall", Rect((0.0, -15.0 + 1.9 + 0.1), (2.0, 0.2)), "wall")
    a = replace(circle(), hazards=(*circle().hazards, wall))
    (i,) = hazard_issues(a)
    assert i.elements == ("deploy:1", "wall") and i.metrics["bases_mm"] == [50]


def test_the_shipped_arenas_deploy_clear() -> None:
    """The shipped boards that pass every check keep doing so (their columns stand well inside)."""
    for name in ("colosseum-30.yaml", "square-24.yaml"):
        a = load(SHIPPED / name)
        assert hazard_issues(a) == [] and room_issues(a) == []


def test_a_proposed_fix_moves_the_column_off_the_zone() -> None:
    """The balance hook seeds the hazard the finding names, away from the zone."""
    a = replace(square(), hazards=(*square().hazards, column("col", 3.0, -12.0 + 1.9 + 1.0)))  # type: ignore[type-var]
    finding = next(f for f in validate(a).findings if f.code == "ar-zone-hazard")
    seeds = HOOK.seeds(a, finding, validate(a))
    assert seeds and {s.ref for s in seeds} == {"col"}


def test_packing_on_free_stretches() -> None:
    """Bases go down as early as they may: a base must keep ``gap`` from the one before across a
    blocked stretch too; on a whole circle the last keeps its distance from the first."""
    assert room.packed([(0.0, 10.0)], 2.0, False, 10.0, 99) == 6
    assert room.packed([(0.0, 0.5), (1.0, 1.9)], 2.0, False, 1.9, 99) == 1
    assert room.packed([(0.0, 10.0)], 2.0, True, 10.0, 99) == 5
    assert room.packed([(0.0, 10.0)], 2.0, False, 10.0, 3) == 3
    assert room.packed([], 2.0, False, 10.0, 3) == 0
