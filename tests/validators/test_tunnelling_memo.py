"""``wall-tunnelling`` keeps each thin wall's witness search (:func:`validators.games.gravstrike.
tunnelling._wall_witness`) keyed on the wall and the walls near it, so a drag tests again only
the thin walls near the dragged one.  The verdicts must be those of a cold run after every edit,
and an edit next to a thin wall must reach it: here a wall pushed against a thin one takes the
first way through away, and pulled back gives it again."""

from __future__ import annotations

import dataclasses

from schema.shapes import Rect
from schema.games.gravstrike.model import Arena, Wall
from validators.games.gravstrike import tunnelling as T


def arena(neighbour_x: float, far_x: float = 8.0) -> Arena:
    return Arena(name="t", bounds=Rect((0.0, 0.0), (24.0, 12.0)),
                 walls=(Wall("T", Rect((0.0, 0.0), (0.1, 12.0))),
                        Wall("N", Rect((neighbour_x, 0.0), (1.5, 12.0))),
                        Wall("F", Rect((far_x, 0.0), (1.0, 1.0)))))


def cold(a: Arena) -> object:
    T._wall_witness.cache_clear()
    T._evaluate.cache_clear()
    return T.WallTunnellingValidator().evaluate(a, None)


def test_verdicts_after_edits_are_those_of_a_cold_run() -> None:
    edits = [arena(6.0), arena(6.0, far_x=8.5), arena(0.8), arena(0.8, far_x=9.0), arena(6.0, far_x=9.0), arena(6.0)]
    want = [cold(a) for a in edits]
    T._wall_witness.cache_clear()
    T._evaluate.cache_clear()
    got = [T.WallTunnellingValidator().evaluate(a, None) for a in edits]
    assert got == want
    # the neighbour backing the thin wall takes the first way through away (that length would
    # end in it), so the witness differs: a memo that missed the neighbour would keep the old one
    paths = [[f.path for f in r.findings] for r in want]
    assert paths[0] and paths[2] and paths[0] != paths[2] and paths[4] == paths[0]


def test_a_far_drag_reuses_the_thin_walls_search() -> None:
    T._wall_witness.cache_clear()
    T._evaluate.cache_clear()
    T.WallTunnellingValidator().evaluate(arena(6.0), None)
    misses = T._wall_witness.cache_info().misses
    moved = dataclasses.replace(arena(6.0, far_x=8.5))
    T.WallTunnellingValidator().evaluate(moved, None)
    assert T._wall_witness.cache_info().misses == misses  # F is farther than a length from T
