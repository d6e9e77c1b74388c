"""Kept travel searches (:mod:`engine.carwars.kept`, issue 13's editor feedback): after a card
drag the kept searches answer exactly what a cold validation answers - time, dice, hard changes,
status, and so every finding's text - and anything that moves a car drops them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from engine.carwars import fairness as fair
from engine.carwars import kept, reserve
from engine.carwars import search as cw_search
from engine.carwars.batch import FIELDS_F, FIELDS_I, Batch
from engine.carwars.heuristic import Distances, ForwardRows, MinRows
from engine.carwars.kept import TravelCache, motion_key
from engine.carwars.planner import Planner
from engine.carwars.symmetry import symmetries
from engine.carwars.travel import Goal, SearchStopped
from schema.games.carwars import CarWarsArena
from schema.io import load

SHIPPED = Path(__file__).parent / "data" / "shipped"


def arena(name: str) -> CarWarsArena:
    a = load(str(SHIPPED / f"{name}.yaml"))
    assert isinstance(a, CarWarsArena)
    return a


def moved(a: CarWarsArena, card: str, dx: float, dy: float, **change: object) -> CarWarsArena:
    cards = tuple(dataclasses.replace(c, position=(c.position[0] + dx, c.position[1] + dy), **change)  # type: ignore[arg-type]
                  if c.id == card else c for c in a.cards)
    return dataclasses.replace(a, cards=cards)


def answers(t: fair.TravelTable) -> dict[tuple[str, str, str], tuple[object, ...]]:
    return {(p, s, g): (r.status, r.key(), r.turns, r.points, r.speed) for p, rows in t.results.items()
            for s, row in rows.items() for g, r in row.items()}


def messages(a: CarWarsArena, t: fair.TravelTable) -> list[str]:
    return [i.message for check in fair.TRAVEL_CHECKS.values() for i in check(a, t)]


def same_as_cold(cache: TravelCache, a: CarWarsArena) -> None:
    got, cold = cache.table(a), fair.travel_table(a)
    assert answers(got) == answers(cold)
    assert messages(a, got) == messages(a, cold)
    assert got.errors == cold.errors


def test_card_drags_answer_as_a_cold_validation() -> None:
    """Drags near and far (the far one needs a longer search than the kept one had done), then
    back: the kept searches are resumed or looked up, never searched anew, and answer exactly."""
    base = arena("twin-pillars-2p")
    cache = TravelCache()
    same_as_cold(cache, base)
    assert cache.stats["searched"] == 4  # two starts, two policies
    for dx, dy in ((0.5, 0.0), (1.0, -0.6), (-20.0, 3.0), (0.0, -18.0)):
        same_as_cold(cache, moved(base, "own-1", dx, dy))
        assert cache.stats["searched"] == 0 and cache.stats["cold"] == 0 and cache.stats["resumed"] > 0
    same_as_cold(cache, moved(base, "own-1", 0.5, 0.0))  # dragged back: a lookup
    assert cache.stats["resumed"] == 0 and cache.stats["lookup"] > 0


def sym_moved(a: CarWarsArena, card: str, dx: float, dy: float) -> CarWarsArena:
    """``card`` moved by (dx, dy) and its images with it, as the editor's symmetry mode does."""
    ops = symmetries(a)
    out = moved(a, card, dx, dy)
    for t in ops:
        x, y = t.point(*out.card(card).position)
        ex, ey = t.point(*a.card(card).position)
        img = t.cards[card]
        out = moved(out, img, x - ex, y - ey)
    assert len(symmetries(out)) == len(ops)
    return out


def test_a_symmetric_card_drag_resumes_each_search_for_one_card() -> None:
    """Crossroads (quarter turns): a card dragged with its three images.  Each kept search is
    resumed for the one card of the orbit it settles - the other three are its images' answers
    carried through the symmetry (``kept.card_plan``) - and the table is exactly the one of a
    cold run planning every start with no symmetry at all."""
    base = arena("crossroads-4p")
    cache = TravelCache()
    cache.table(base)
    starts = [(p, s.player) for p in ("safe", "flat-out") for s in base.start_positions]
    drag = base
    for dx, dy in ((0.6, 0.4), (-1.5, 2.0)):
        drag = sym_moved(drag, "checkpoint-1", dx, dy)
        rows = cache.rows(drag, starts)
        assert rows is not None and cache.stats["searched"] == 0 and cache.stats["resumed"] == 8
        assert {k: sorted(g for g in row if g.startswith("card:")) for k, row in rows.items()} == {
            k: ["card:checkpoint-1"] for k in rows}  # the other cards are the symmetry's
        cold = fair.travel_table(drag, use_symmetry=False)
        got = kept.merged(drag, fair.POLICIES, [rows], cache.plan)
        assert answers(got) == answers(cold)
        assert messages(drag, got) == messages(drag, cold)


def test_what_moves_a_car_drops_the_searches() -> None:
    """A wall removed, a card turned hidden hazard (its dice), a hidden-hazard card dragged: new
    searches, the cold answers."""
    base = arena("twin-pillars-2p")
    cache = TravelCache()
    cache.table(base)
    no_pillar = dataclasses.replace(base, walls=base.walls[:1])
    assert motion_key(no_pillar) != motion_key(base)
    same_as_cold(cache, no_pillar)
    assert cache.stats["searched"] == 4
    hazard = moved(no_pillar, "trigger-1", 0.0, 0.0, role="hidden-hazard", dice=2)
    same_as_cold(cache, hazard)
    assert cache.stats["searched"] == 4
    same_as_cold(cache, moved(hazard, "trigger-1", 1.0, 0.0))
    assert cache.stats["searched"] == 4


def test_an_answer_not_reached_is_the_cold_tables() -> None:
    """The flawed yard has a checkpoint no car reaches: ``unreachable`` depends on what a search
    cut off, so the cold table answers and nothing is kept."""
    flawed = arena("broken-yard-flawed")
    cache = TravelCache()
    same_as_cold(cache, flawed)
    assert cache.stats["cold"] == 1


def test_a_stopped_search_is_resumed_exactly() -> None:
    base = arena("twin-pillars-2p")
    cache = TravelCache()
    cache.table(base)
    drag = moved(base, "own-1", -6.0, 2.0)
    cache.stop = lambda: True
    with pytest.raises(SearchStopped):
        cache.table(drag)
    cache.stop = None
    same_as_cold(cache, drag)


def test_the_reserves_floors_are_under_the_keys() -> None:
    """What makes releasing waiting states by a cheap floor exact (:meth:`Search.floor_keys`):
    no state's floor is above its bucket key under the moved card's bound, and a state the
    floor cuts off is one the key cuts off too.  Checked on every waiting state of every kept
    search after three drags of the four-player arena's card."""
    base = arena("crossroads-4p")
    cache = TravelCache()
    cache.table(base)
    for dx in (0.3, 0.6, -2.0):
        cache.table(moved(base, "checkpoint-1", dx, 0.2))
    card = Goal("card", "checkpoint-1")
    far = moved(base, "checkpoint-1", 3.0, -1.5)
    checked = 0
    for search in (k.search for k in cache._kept.values()):
        assert search.reserve is not None and search.reserve.segments
        search.p.arena = far
        search.shapes, search.open = {card: search.p.goal_shape(card)}, [card]
        search._heuristic_tables()
        for seg in search.reserve.segments:
            floor = search.floor_keys(seg.states, seg.prep)
            exact = search.exact_keys(seg.states, seg.prep)
            assert (floor <= exact).all()
            assert (exact[floor == reserve.NEVER] == reserve.NEVER).all()
            checked += len(floor)
    assert checked > 100_000


def reads_agree(lazy: ForwardRows | MinRows, whole: np.ndarray, seed: int, size: int) -> None:
    """Five batches of random (node, heading column) reads of ``lazy`` give ``whole``'s values."""
    rng = np.random.default_rng(seed)
    for _ in range(5):
        node = rng.integers(0, whole.shape[0], size)
        col = rng.integers(0, whole.shape[1], size)
        assert np.array_equal(lazy[node, col], whole[node, col])


def test_forward_rows_filled_on_demand_are_the_whole_tables() -> None:
    """A resumed search fills its goal's forward table row by row (:class:`ForwardRows`): the
    rows are bit for bit those of the table computed at once."""
    a = arena("crossroads-4p")
    planner = Planner(a, "flat-out")
    shape = planner.goal_shape(Goal("card", "checkpoint-1"))
    headings = np.mod(17.0 + planner.step * np.arange(planner.headings), 360.0)
    whole = Distances(planner.geometry, planner.maneuvers)._table(shape, headings)[0].full()
    lazy, _ = Distances(planner.geometry, planner.maneuvers)._table(shape, headings)
    reads_agree(lazy, whole, seed=3, size=3000)
    assert 0 < lazy.done.sum() < len(lazy.any)
    assert np.array_equal(lazy.full(), whole)


def _states(xs: np.ndarray) -> Batch:
    return Batch(**{c: xs for c in FIELDS_F + FIELDS_I})


def test_merged_reserve_segments_keep_what_was_released() -> None:
    """Past :data:`reserve.MAX_SEGMENTS` segments the reserve merges neighbours; a state released
    before the merge stays released (a merged segment used to take every state back as waiting,
    and the search then met each released one a second time)."""
    r = reserve.Reserve()

    def add(i: int) -> None:
        xs = np.arange(10 * i, 10 * i + 10)
        r.add(_states(xs), (np.zeros(10, dtype=np.int64), xs))

    def key(states: Batch, prep: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        x = prep[1]
        return np.where(x % 10 == 0, x, 100_000 + x)  # one state a segment keyed low

    for i in range(reserve.MAX_SEGMENTS):
        add(i)
    r.keys(key, key)
    first = r.take(1000)
    assert sorted(x for b in first for x in b.x.tolist()) == list(range(0, 10 * reserve.MAX_SEGMENTS, 10))
    for i in range(reserve.MAX_SEGMENTS, 12):
        add(i)
    r.keys(key, key)  # twelve segments, eight of them a tenth released (not compacted): merged
    assert len(r.segments) <= reserve.MAX_SEGMENTS
    rest = r.take(10**9)
    assert sorted(x for b in rest for x in b.x.tolist()) == [x for x in range(120)
                                                               if x % 10 or x >= 10 * reserve.MAX_SEGMENTS]
    assert len(r) == 0


def test_the_stored_states_are_kept_in_a_few_parts_in_order() -> None:
    """A resumed search offers every stored state to the new goal by parts (:func:`engine.carwars.search._tiers`):
    the same states in the same order (ids count on from one part to the next), in a few parts,
    the big ones not copied again."""
    sizes = [5000, 40, 3, 3, 700, 1, 1, 1, 90, 2]
    parts, at = [], 0
    for n in sizes:
        parts.append(_states(np.arange(at, at + n, dtype=np.float64)))
        at += n
    got = cw_search._tiers(parts)
    assert np.array_equal(np.concatenate([p.x for p in got]), np.arange(at))
    assert len(got) <= 4 and got[0] is parts[0]
    assert cw_search._tiers(got + [_states(np.array([float(at)]))])[0] is parts[0]


def test_the_least_of_several_goals_rows_is_the_least_of_their_whole_tables() -> None:
    """A search towards several goals reads the least of their forward tables row by row
    (:class:`MinRows`): bit for bit the least of the whole tables, with only the rows read
    filled (in the goals' tables too)."""
    a = arena("crossroads-4p")
    planner = Planner(a, "flat-out")
    goals = [Goal("card", "checkpoint-1"), Goal("card", "checkpoint-3"), Goal("centre")]
    headings = np.mod(17.0 + planner.step * np.arange(planner.headings), 360.0)
    whole = np.min([Distances(planner.geometry, planner.maneuvers)._table(planner.goal_shape(g), headings)[0].full()
                    for g in goals], axis=0)
    d = Distances(planner.geometry, planner.maneuvers)
    parts = [d._table(planner.goal_shape(g), headings)[0] for g in goals]
    least = MinRows(parts)
    reads_agree(least, whole, seed=4, size=2500)
    assert 0 < least.done.sum() < len(least.done)
    assert all(np.array_equal(p.done, least.done) for p in parts)
    every = np.arange(len(least.done))
    assert np.array_equal(least[every[:, None], np.arange(planner.headings)[None, :]], whole)
