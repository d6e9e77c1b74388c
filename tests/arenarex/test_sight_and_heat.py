"""The board seen from a zone (engine.arenarex.sight, the sight overlay) and the heat map's moves
(engine.arenarex.fairness.heat_map, the moves overlay).  Arena Rex needs no line of sight ("Line-of-
sight rules aren t necessary because there are no ranged attacks", L20): sight is the product
metric of ``ar-sightlines``, terrain hazards that block sight blocking.  Moves: "MOVE ... Move up to
the model's MOV value in inches." (L18)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from engine.arenarex import fairness as fair
from engine.arenarex.sight import MAX_CELLS, MAX_VIEWPOINTS, sight_grid, viewpoints
from schema.games.arenarex import ArenaRexArena, Deployment
from tests.arenarex.util import circle, column


def open_circle(**kw: object) -> ArenaRexArena:
    """The shipped circle with nothing on it (and ``kw`` replaced)."""
    fields: dict[str, object] = {"pits": (), "spikes": (), "hazards": (), "symmetry": None, **kw}
    return replace(circle(), **fields)  # type: ignore[arg-type]


def test_no_blockers_everything_on_the_board_is_seen() -> None:
    g = sight_grid(open_circle(), 1)
    assert g.board.any() and np.array_equal(g.seen, g.board) and g.share() == 1.0
    assert g.at(0.0, 0.0) is True and g.at(0.0, 14.5) is True and g.at(14.9, 14.9) is None  # off the circle


def test_a_blocking_column_hides_the_cells_behind_it() -> None:
    """A column in front of the middle of the south arc: from every base position of the arc, the
    cells right behind it (north, next to it) are hidden; cells beside it and in front are seen;
    the same column that does not block sight hides nothing."""
    a = open_circle(deployment=(Deployment(1, arc=(260.0, 280.0)), Deployment(2, arc=(80.0, 100.0))),
                    hazards=(column("col", 0.0, -9.0, r=2.0),))
    g = sight_grid(a, 1)
    eyes = viewpoints(a, 1)
    assert len(eyes) >= 3 and all(np.hypot(*e) > 13.0 and e[1] < 0 for e in eyes)
    assert g.at(0.0, -9.0) is None  # inside the column
    assert g.at(0.0, -6.25) is False and g.at(0.25, -5.75) is False  # just behind it
    assert g.at(0.0, -12.0) is True  # between the zone and the column
    assert g.at(8.0, -6.0) is True and g.at(0.0, 10.0) is True  # beside it, far behind its shadow
    # the shadow holds exactly the cells every sightline to which crosses the column
    import shapely

    wall = shapely.Point(0.0, -9.0).buffer(2.0, quad_segs=16)
    nx, ny = g.board.shape
    for i in range(0, nx, 3):
        for j in range(0, ny, 3):
            if not g.board[i, j]:
                continue
            c = (g.x0 + (i + 0.5) * g.cell, g.y0 + (j + 0.5) * g.cell)
            hidden = all(shapely.LineString([tuple(e), c]).intersects(wall) for e in eyes)
            assert bool(g.seen[i, j]) == (not hidden), c
    clear = sight_grid(replace(a, hazards=(column("col", 0.0, -9.0, r=2.0, blocks_sight=False),)), 1)
    assert clear.share() == 1.0 and clear.at(0.0, -9.0) is True


def test_sight_work_is_bounded() -> None:
    g = sight_grid(circle(), 2, cell=0.01)
    assert g.board.size <= MAX_CELLS and g.cell > 0.01
    assert len(viewpoints(open_circle(deployment=(Deployment(1, arc=(0.0, 350.0)),)), 1)) <= MAX_VIEWPOINTS


def test_sight_of_a_zone_that_does_not_fit_is_an_error() -> None:
    with pytest.raises(KeyError, match="deploy:3"):
        sight_grid(circle(), 3)


def _node(fld: fair.Field, x: float, y: float) -> tuple[int, int]:
    return int(round((x - fld.x0) / fld.step)), int(round((y - fld.y0) / fld.step))


def test_heat_map_moves_are_the_walk_in_mov_inch_moves() -> None:
    """"Move up to the model's MOV value in inches" (L18): on an open board a node at walking
    distance d from the zone takes ceil(d / MOV) moves; the straight walk from the south arc's
    middle north to (0, y) is (R - r) + y inches long.  The nodes are mid-band (d = 2, 7.5,
    12.5, 17.5 in at MOV 5): 1, 2, 3 (one activation) and 4 moves."""
    a = open_circle(deployment=(Deployment(1, arc=(260.0, 280.0)),))
    mov = a.scenario.analysis.mov
    assert mov == 5
    fld, moves = fair.heat_map(a, 1, 50.0)
    edge = 15.0 - 50.0 / 25.4 / 2.0  # where the base's centre stands, its rim on the arc
    for d, expect in ((2.0, 1), (7.5, 2), (12.5, 3), (17.5, 4)):
        ij = _node(fld, 0.0, d - edge)
        assert moves[ij] == expect == math.ceil(d / mov), d
        assert moves[ij] == math.ceil(fld.dist[ij] / mov - 1e-9)
    assert (moves[np.isinf(fld.dist)] == -1).all() and moves.max() >= 4
    # a node where the base overhangs the board's rim: out of reach
    assert moves[_node(fld, 0.0, 14.75)] == -1


def test_heat_map_distance_near_the_zone_is_the_exact_walk() -> None:
    """The walk from a zone's nearest base position (the field once summed a node's links to
    neighbouring positions and read ~0.3-0.7 in long near a zone)."""
    a = open_circle(deployment=(Deployment(1, arc=(260.0, 280.0)),))
    fld, _ = fair.heat_map(a, 1, 50.0)
    edge = 15.0 - 50.0 / 25.4 / 2.0
    for y in (-12.0, -4.0, 0.0):
        assert fld.dist[_node(fld, 0.0, y)] == pytest.approx(edge + y, rel=0.02, abs=fld.step)
