"""The Car Wars search's compiled loops (:mod:`engine.carwars.kernels`, issue 13's editor
feedback) give the numpy path's results bit for bit: each kernel against its numpy twin on the
states of real searches and on random batches, and a whole sequence of card drags searched both
ways - the same answers, the same plans, the same number of states expanded by every search."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from engine.carwars import kernels
from engine.carwars.batch import Batch
from engine.carwars.geometry import COVER_STEP
from engine.carwars.heuristic import Distances
from engine.carwars.kept import TravelCache
from engine.carwars.planner import Planner
from engine.carwars.search import Search
from engine.carwars.rules import REVERSE
from engine.carwars.travel import Goal, StartSource
from engine.keytable import KeyTable
from schema.games.carwars import CarWarsArena
from schema.io import load

pytest.importorskip("numba")

SHIPPED = Path(__file__).parent / "data" / "shipped"


def arena(name: str) -> CarWarsArena:
    a = load(str(SHIPPED / f"{name}.yaml"))
    assert isinstance(a, CarWarsArena)
    return a


@pytest.fixture
def jit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The kernels loaded for the test (numpy again after it)."""
    monkeypatch.setenv("ARENA_STUDIO_JIT", "auto")
    assert kernels.enable()
    yield
    kernels.disable()


def searched(policy: str = "flat-out", player: int = 1) -> Search:
    """A finished cold search of the four-player arena to every card and the centre (its store
    and frontier hold states of every speed, reversing included)."""
    a = arena("crossroads-4p")
    planner = Planner(a, policy)  # type: ignore[arg-type]
    pose, speed = planner.source_state(StartSource(player))
    goals = [Goal("card", c.id) for c in a.cards] + [Goal("centre")]
    search = Search(planner, pose, speed, {g: planner.goal_shape(g) for g in goals}, keep=True)
    search.run()
    return search


def waiting(search: Search) -> Batch:
    return Batch.concat([p for parts in search.buckets.values() for _, p in parts] + search.pruned + search.store)


@pytest.mark.parametrize("policy", ["safe", "flat-out"])
def test_the_compiled_bound_is_the_numpy_bound(policy: str, jit: None) -> None:
    """:func:`kernels.time_bound` (with :func:`kernels.forward_rows` filling a lazy table) gives
    :meth:`Search._f`'s priority for every stored and waiting state of a search."""
    search = searched(policy)
    b = waiting(search)
    assert (b.s == REVERSE).any() or policy == "safe"
    far = Goal("card", "checkpoint-3")  # the search settled its goal: another one is open now
    search.shapes, search.open = {far: search.p.goal_shape(far)}, [far]
    search._heuristic_tables()
    kernels.disable()
    want = search._f(b)
    kernels.enable()
    search.p.distances._tables.clear()
    search._heuristic_tables()  # a fresh lazy table: the kernel fills its rows
    got = search._f(b)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert len(b) > 5000 and (want < (1 << 40)).sum() > 1000


def test_compiled_rows_are_the_lazy_tables_rows(jit: None) -> None:
    planner = Planner(arena("crossroads-4p"), "flat-out")
    shape = planner.goal_shape(Goal("card", "checkpoint-2"))
    headings = np.mod(40.0 + planner.step * np.arange(planner.headings), 360.0)
    whole = Distances(planner.geometry, planner.maneuvers)._table(shape, headings)[0].full()
    lazy, _ = Distances(planner.geometry, planner.maneuvers)._table(shape, headings)
    k = kernels.current()
    assert k is not None
    rng = np.random.default_rng(5)
    for _ in range(4):
        node = rng.integers(0, len(lazy.any), 4000)
        col = rng.integers(0, planner.headings, 4000)
        got = k["forward_rows"](node, col, lazy.rows, lazy.done, lazy.any, lazy.live, lazy.bearing, lazy.slack, lazy.ai,
                                lazy.headings, lazy.table, 0.5)
        assert np.array_equal(got, whole[node, col])
    filled = np.flatnonzero(lazy.done)
    assert 0 < len(filled) < len(lazy.any)
    assert np.array_equal(lazy.rows[filled], whole[filled])


def test_the_compiled_lookup_is_the_key_tables(jit: None) -> None:
    rng = np.random.default_rng(11)
    table = KeyTable(64)
    keys = rng.integers(0, 1 << 50, 5000)
    table.admit(keys, rng.integers(0, 1000, 5000))  # grows several times
    query = np.concatenate([keys[::3], rng.integers(0, 1 << 50, 2000), [-5, -1]])
    k = kernels.current()
    assert k is not None
    got = k["table_get"](table.keys, table.times, query, 65 - len(table.keys).bit_length())
    assert np.array_equal(got, table.get(query))
    assert (got[: len(keys[::3])] >= 0).all() and got[-1] == -1


@pytest.mark.parametrize("step", [0.0, 1.5, COVER_STEP])
def test_the_compiled_disc_test_is_the_numpy_one(step: float, jit: None) -> None:
    """Cars everywhere on and off the four-player arena (inside walls, against them, off the
    table), every maneuver, forward and reversing: the same certainly-free and certainly-blocked."""
    planner = Planner(arena("crossroads-4p"), "flat-out")
    g = planner.geometry
    rng = np.random.default_rng(int(step * 10))
    n = 6000
    x, y = rng.uniform(-3.0, 40.0, n), rng.uniform(-3.0, 40.0, n)
    h = rng.uniform(0.0, 360.0, n)
    sign = np.where(rng.random(n) < 0.3, -1.0, 1.0)
    c, s = np.cos(np.radians(h)) * sign, np.sin(np.radians(h)) * sign
    mi = rng.integers(0, len(planner.maneuvers), n)
    got = g._disc_test(x, y, c, s, mi, planner.maneuvers, step)
    kernels.disable()
    want = g._disc_test(x, y, c, s, mi, planner.maneuvers, step)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert want[0].any() and (~want[0] & ~want[1]).any()
    assert want[1].any() == (step > 0)  # one disc around the whole sweep has no centre inside it


def test_card_drags_search_the_same_with_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight card drags of the four-player arena, numpy then compiled: every answer and plan the
    same, and every kept search expanded exactly as many states (the same search)."""
    base = arena("crossroads-4p")

    def drags() -> list[object]:
        cache, out = TravelCache(), []
        x = y = 0.0
        for i in range(8):
            cards = tuple(dataclasses.replace(c, position=(c.position[0] + x, c.position[1] + y))
                          if c.id == "checkpoint-1" else c for c in base.cards)
            t = cache.table(dataclasses.replace(base, cards=cards))
            out.append(({(p, st, goal): (r.status, r.key(), r.turns, r.points, r.speed, r.path)
                         for p, rows in t.results.items() for st, row in rows.items() for goal, r in row.items()},
                        sorted((k, v.search.expanded) for k, v in cache._kept.items())))
            x += 0.3
            y += 0.2 if i % 2 else -0.35
        return out

    monkeypatch.setenv("ARENA_STUDIO_JIT", "0")
    plain = drags()
    monkeypatch.setenv("ARENA_STUDIO_JIT", "1")
    compiled = drags()
    assert kernels.current() is not None
    assert compiled == plain
