"""Answers carried over a wall drag (issue 38, goal 4): the editor's first findings after a wall
moves come from the last exact answers whose plans still hold (:func:`validators.games.gravstrike.travel_session.carry_travel`),
plans the moved wall now blocks mended from the end of a turn before the block
(:meth:`validators.games.gravstrike.travel_session.TravelSession.mend`), instead of every source searched again.

Work is counted in states the searches store (``FrontierSearch.store.n`` after a run), never in
seconds.  The arena is the kept-travel walks' (tests/editor/test_kept_travel_exact.py) without its
declared symmetry, so that every source is searched on its own as after a real drag.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from engine.gravstrike.frontier import FrontierSearch
from engine.gravstrike.geometry import ArenaGeometry
from engine.gravstrike.motion import Pose
from schema.shapes import Circle, Rect
from schema.games.gravstrike.model import Arena, Checkpoint, StartPosition, Wall
from tests.editor.test_kept_travel_exact import gravstrike_arena
from validators.games.gravstrike.context import AnalysisContext, travel_sources
from validators.games.gravstrike.travel_session import MEND_TURNS, TravelSession, carry_travel, walls_only

#: A length's time at the top speed: the most a provisional answer may differ from a new search's
#: (the analysis tolerance's merging: see validators.games.gravstrike.travel_session).
LENGTH_TIME = 1.0 / 6.0


@pytest.fixture
def states(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """States stored by every vectorised search run while the test runs (one counter)."""
    count = [0]
    run = FrontierSearch.run

    def counted(self: FrontierSearch) -> Any:
        out = run(self)
        count[0] += self.store.n
        return out

    monkeypatch.setattr(FrontierSearch, "run", counted)
    yield count


def arena() -> Arena:
    return dataclasses.replace(gravstrike_arena(), symmetry=None)


def wall_moved(a: Arena, dx: float, dy: float) -> Arena:
    w = a.walls[0]
    c = w.shape.center  # type: ignore[union-attr]
    return dataclasses.replace(a, walls=(dataclasses.replace(w, shape=dataclasses.replace(w.shape, center=(c[0] + dx, c[1] + dy))),
                                         *a.walls[1:]))


def cold(a: Arena) -> dict[str, dict[str, Any]]:
    ctx = AnalysisContext(a)
    return {s: ctx.travel_from(s) for s in travel_sources(a)}


def provisional(basis: tuple[Arena, dict[str, dict[str, Any]]], a: Arena) -> dict[str, dict[str, Any]]:
    """What a worker answers first after the wall edit from ``basis`` to ``a``."""
    kept = carry_travel(basis[0], basis[1], a)
    session = TravelSession()
    ctx = session.context(a)
    return {s: session.carried(ctx, s, kept[s]) if s in kept else ctx.travel_from(s) for s in travel_sources(a)}


def legal(a: Arena, r: Any) -> bool:
    """Every pose the plan ends a length in (and its source's) is clear of ``a``'s walls and bounds."""
    g = ArenaGeometry(a)
    return all(g.ram_feature(Pose(p.x, p.y, p.heading)) is None for p in r.path)


def test_only_a_wall_edit_carries_answers() -> None:
    a = arena()
    moved = wall_moved(a, 0.1, 0.0)
    assert walls_only(a, moved) and not walls_only(a, a)
    c = a.checkpoints[0]
    both = dataclasses.replace(moved, checkpoints=(dataclasses.replace(c, shape=Circle((4.0, 3.0), 0.6)), *moved.checkpoints[1:]))
    assert not walls_only(a, both)
    assert carry_travel(a, {"start:1": {}}, both) == {}


def test_a_wall_drag_no_plan_comes_near_is_answered_without_searching(states: list[int]) -> None:
    """W1 moved 0.1 to the right: no plan passes within a footprint of where it now stands, so
    every answer is carried and nothing is searched (a new search of every source stores about
    75 000 states); the answers are the new searches' (the same plans, still the fastest)."""
    a = arena()
    basis = (a, cold(a))
    moved = wall_moved(a, 0.1, 0.0)
    states[0] = 0
    got = provisional(basis, moved)
    assert states[0] == 0
    assert got == cold(moved)


def test_plans_a_dragged_wall_blocks_are_mended_at_a_fraction_of_the_work(states: list[int]) -> None:
    """W1 dragged on from there in four steps, each moving it into plans (one or two starts'):
    those plans are mended (kept up to the end of a turn before the block, searched on from there
    for their goal alone); the first answers store at most a quarter of the states a new search
    of every source does (7 000 - 11 000 of 76 000 - 83 000 measured), every one is a legal plan
    in the moved arena, and none is more than a length's time from a new search's (on these drags
    they are equal)."""
    a = wall_moved(arena(), 0.1, 0.0)
    basis = (a, cold(a))
    for dx, dy in [(0.1, 0.05), (-0.25, 0.0), (0.0, 0.25), (0.5, 0.0)]:
        a = wall_moved(a, dx, dy)
        kept = carry_travel(basis[0], basis[1], a)
        assert any(c.broken for c in kept.values()), (dx, dy)  # the drag breaks plans: there is mending to do
        states[0] = 0
        new = cold(a)
        full = states[0]
        states[0] = 0
        got = provisional(basis, a)
        assert 0 < states[0] <= full / 4, (dx, dy, states[0], full)
        for s, row in got.items():
            for ref, r in row.items():
                assert r.status == new[s][ref].status, (s, ref)
                if r.reachable:
                    assert legal(a, r), (s, ref)
                    assert abs(r.time - new[s][ref].time) <= LENGTH_TIME + 1e-9, (s, ref, r.time, new[s][ref].time)
        basis = (a, new)


def test_a_mended_plan_keeps_the_old_one_up_to_a_turn_end_before_the_block() -> None:
    a = wall_moved(arena(), 0.1, 0.0)
    old = cold(a)
    moved = wall_moved(a, 0.1, 0.05)
    kept = carry_travel(a, old, moved)
    assert kept["start:1"].broken
    session = TravelSession()
    ctx = session.context(moved)
    for s, c in kept.items():
        src, goals, horizon = ctx.query(s)
        for ref, (r, bad) in c.broken.items():
            mended = session.mend(r, bad, horizon)
            assert mended is not None and mended.goal == r.goal and legal(moved, mended)
            # kept up to the end of a turn before the block's at least (one or two before)
            j = sum(1 for p in r.path if p.turn <= r.path[bad].turn - max(MEND_TURNS))
            assert mended.path[:j] == r.path[:j]
            assert bad >= len(mended.path) or mended.path[bad] != r.path[bad]


def corridor() -> Arena:
    """A long corridor: the two outlying checkpoints lie farther apart than any plan goes in the
    analysis's two turns, whatever the walls; a pillar between them."""
    return Arena(name="corridor", bounds=Rect((0.0, 0.0), (44.0, 8.0)),
                 walls=(Wall("W1", Circle((0.0, 2.0), 0.6)),),
                 checkpoints=(Checkpoint("A", "outlying", Circle((-19.0, 0.0), 0.6)),
                              Checkpoint("B", "outlying", Circle((19.0, 0.0), 0.6))),
                 start_positions=(StartPosition(1, (-8.0, -2.0), 0.0), StartPosition(2, (8.0, -2.0), 180.0)))


def test_beyond_the_horizon_whatever_the_walls_is_carried_exactly(states: list[int]) -> None:
    """From checkpoint A, B is "beyond" the checkpoint-spacing horizon (2 turns): 38 lengths away,
    where two turns at the top speed, every length at its longest, go under 16.  That holds
    whatever the walls, so the answer is carried (no search) - and it is what a new search says."""
    a = corridor()
    basis = (a, cold(a))
    assert basis[1]["checkpoint:A"]["checkpoint:B"].status == "beyond"
    moved = wall_moved(a, 0.3, 0.3)
    kept = carry_travel(a, basis[1], moved)
    assert set(kept["checkpoint:A"].kept) == {"checkpoint:A", "checkpoint:B"}
    session = TravelSession()
    ctx = session.context(moved)
    states[0] = 0
    got = session.carried(ctx, "checkpoint:A", kept["checkpoint:A"])
    assert states[0] == 0
    assert got == cold(moved)["checkpoint:A"]


def test_an_unreached_answer_near_the_source_makes_it_search_again() -> None:
    """An answer "beyond" the horizon (one turn) for a checkpoint 8 lengths away - which a turn
    at the top speed with its longest lengths could cover - is not carried: a moved wall could
    open the way, and the source is searched again (exactly)."""
    a = dataclasses.replace(corridor(), checkpoints=(Checkpoint("A", "outlying", Circle((-4.0, 0.0), 0.6)),
                                                     Checkpoint("B", "outlying", Circle((4.0, 0.0), 0.6))),
                            scenario=dataclasses.replace(corridor().scenario, analysis=dataclasses.replace(
                                corridor().scenario.analysis, checkpoint_min_turns=1.0)))
    old = cold(a)
    assert old["checkpoint:A"]["checkpoint:B"].status == "beyond"
    assert "checkpoint:A" not in carry_travel(a, old, wall_moved(a, 0.3, 0.0))
