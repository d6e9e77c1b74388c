"""Arena Rex fairness: the deployment zones side by side (engine.arenarex.fairness), each code
firing and quiet.  The book's words: "MOVE ... Move up to the model's MOV value in inches." (L18),
"Models have a simple 1 melee range." (L20), "The defending model is pushed 1 directly away from
the attacking model." (L24), "If any part of a model's base touches a Lethal Hazard (pit, most
likely), that model is destroyed." (L38)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from engine.arenarex import fairness as fair
from engine.arenarex.space import Space, segment_clear
from schema.games.arenarex import ArenaRexArena, Deployment, Hazard
from schema.shapes import Rect
from tests.arenarex.util import circle, column, pit, with_analysis


def codes(arena: ArenaRexArena) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for i in fair.compare(arena, fair.zone_metrics(arena)):
        out.setdefault(i.code, []).append(i.message)
    return out


def test_the_shipped_circle_is_fair_and_its_zones_mirror_each_other() -> None:
    a = circle()
    m = fair.zone_metrics(a)
    assert set(m) == {30.0, 40.0, 50.0}
    assert fair.compare(a, m) == []
    for ms in m.values():
        one, two = ms
        assert one.centre == pytest.approx(two.centre, abs=1e-6)
        assert one.kill_band == pytest.approx(two.kill_band)
        assert one.nearest == pytest.approx(two.nearest)
        assert one.hazards["pit-west"] == pytest.approx(two.hazards["pit-east"], abs=1e-6)


def test_centre_walks_are_at_least_the_straight_line_and_moves_count_mov() -> None:
    """"Move up to the model's MOV value in inches": moves = ceil(walk / MOV)."""
    a = circle()
    for m in fair.zone_metrics(a)[30.0]:
        assert 14.0 <= m.centre <= 16.0
        assert m.centre_moves == math.ceil(m.centre / a.scenario.analysis.mov)
    assert fair.moves_for(10.0, 5.0) == 2 and fair.moves_for(10.01, 5.0) == 3 and fair.moves_for(math.inf, 5) is None


def test_centre_access_fires_for_a_wall_in_front_of_one_zone() -> None:
    a = replace(circle(), hazards=(*circle().hazards, Hazard("wall", Rect((0.0, -9.0), (12.0, 1.0)), "wall")))
    assert "ar-centre-access" in codes(a)
    assert "deploy:1 walks" in codes(a)["ar-centre-access"][0]
    # a looser tolerance (in inches and in moves) quiets it
    assert "ar-centre-access" not in codes(with_analysis(a, path_tolerance=10.0, moves_tolerance=2))


def test_hazard_access_and_kill_band_fire_for_a_pit_near_one_zone() -> None:
    """A pit 4 in in front of player 1's zone: player 1's models stand next to it, player 2's walk
    the board; and only player 1 reaches, in one activation, ground from which pushes of 1 in put
    a model into it."""
    a = replace(circle(), pits=(*circle().pits, pit("pit-south", 0.0, -9.0, 1.5)))
    found = codes(a)
    assert any("the nearest pit" in m for m in found["ar-hazard-access"])
    assert any("1 push(es)" in m and m.startswith("deploy:1 reaches") for m in found["ar-kill-band"])
    quiet = with_analysis(a, path_tolerance=100.0, kill_band_tolerance=1000.0)
    assert {"ar-hazard-access", "ar-kill-band"}.isdisjoint(codes(quiet))


def test_kill_band_grows_with_the_pushes_and_is_empty_without_pits() -> None:
    a = circle()
    m = fair.zone_metrics(a)[40.0][0]
    assert 0 < m.kill_band[1] < m.kill_band[2]
    bare = fair.zone_metrics(replace(a, pits=()))[40.0][0]
    assert bare.kill_band == {1: 0.0, 2: 0.0}


def test_kill_band_is_the_ring_within_reach() -> None:
    """With a long MOV every cell of the ring 0 < gap <= 1 in around a pit counts: its area is
    pi ((R + r + 1)^2 - (R + r)^2) for a pit of radius R and a base of radius r (on the grid)."""
    a = with_analysis(replace(circle(), pits=(pit("p", 0.0, 8.0, 1.5),), spikes=(), hazards=(), symmetry=None),
                      mov=50.0)
    r = 30 / 25.4 / 2
    band = fair.zone_metrics(a)[30.0][0].kill_band[1]
    want = math.pi * ((1.5 + r + 1) ** 2 - (1.5 + r) ** 2)
    assert band == pytest.approx(want, rel=0.05)


def _three(a: ArenaRexArena, third: tuple[float, float]) -> ArenaRexArena:
    return replace(a, symmetry=None, deployment=(Deployment(1, arc=(240.0, 300.0)), Deployment(2, arc=(0.0, 60.0)),
                                                 Deployment(3, arc=third)))


def test_zone_access_with_three_players() -> None:
    bare = replace(circle(), pits=(), spikes=(), hazards=())
    assert "ar-zone-access" not in codes(_three(bare, (120.0, 180.0)))
    found = codes(_three(bare, (80.0, 140.0)))
    assert "ar-zone-access" in found and "nearest other zone" in found["ar-zone-access"][0]


def test_sightlines_with_three_players() -> None:
    """The game has no line of sight ("Line-of-sight rules aren t necessary", L20): a product
    metric, terrain hazards that block sight hiding one zone's positions from another's."""
    bare = replace(circle(), pits=(), spikes=(), hazards=())
    assert "ar-sightlines" not in codes(_three(bare, (120.0, 180.0)))
    screen = Hazard("screen", Rect((6.5, -4.0), (1.0, 6.0), 30.0), "wall")
    found = codes(_three(replace(bare, hazards=(screen,)), (120.0, 180.0)))
    assert "ar-sightlines" in found
    see_through = replace(screen, blocks_sight=False)
    assert "ar-sightlines" not in codes(_three(replace(bare, hazards=(see_through,)), (120.0, 180.0)))


def test_reach_is_an_error_when_a_wall_cuts_the_board() -> None:
    wall = Hazard("wall", Rect((0.0, 0.0), (30.0, 1.0)), "wall")
    found = codes(replace(circle(), pits=(), spikes=(), hazards=(wall,)))
    assert "ar-reach" in found and "cannot walk to" in found["ar-reach"][0]
    rubble = replace(wall, blocks_movement=False)
    assert "ar-reach" not in codes(replace(circle(), pits=(), spikes=(), hazards=(rubble,)))


def test_heat_map_counts_moves() -> None:
    a = circle()
    fld, moves = fair.heat_map(a, 1, 40.0)
    xs, ys = fld.xy()
    mov = a.scenario.analysis.mov
    reached = moves >= 0
    assert reached.any() and (~reached).any()  # pits and columns are out of reach
    assert np.all(moves[reached] * mov >= fld.dist[reached] - 1e-9)
    assert np.all((moves[reached] - 1) * mov < fld.dist[reached] + 1e-9)
    near = reached & (ys < -13.5)
    assert moves[near].max() <= 1
    with pytest.raises(KeyError):
        fair.heat_map(a, 9)


def test_path_goes_round_and_stays_clear() -> None:
    a = circle()
    r = fair.path(a, 1, (-7.0, 4.0), 50.0)  # just north of the west pit
    assert r.reachable and r.points[-1] == (-7.0, 4.0)
    sp = Space(a, 50 / 25.4 / 2)
    assert all(segment_clear(sp, p, q) for p, q in zip(r.points, r.points[1:]))
    assert r.length >= math.dist(r.points[0], r.points[-1])
    inside = fair.path(a, 1, (-7.0, 0.0), 50.0)  # the pit's centre: the nearest safe point instead
    assert inside.reachable and math.dist(inside.points[-1], (-7.0, 0.0)) > 2.0


def test_unequal_columns_are_not_fairness_issues_without_movement_effect() -> None:
    a = replace(circle(), hazards=(*circle().hazards, column("extra", 12.0, 8.0, 0.5)))
    assert "ar-centre-access" not in codes(a)
