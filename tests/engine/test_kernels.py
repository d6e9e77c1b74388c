"""The compiled inner loops of the vectorised search (:mod:`engine.gravstrike.kernels`, issue 20) give
the numpy path's answers exactly: the same times, turns, icons, damage and paths, length by
length, on the oracle arenas (fields, exclusion fields avoided or paid, gates, pivots, fine
sideslips), on generated tables at the analysis tolerance, and with a paged key table whose
pool grows many times.  The rules behind the answers are checked in test_planner_oracle.py and
test_frontier.py against the reference search; this file checks that the two paths are one."""

from __future__ import annotations

import numpy as np
import pytest

import engine.gravstrike.frontier as frontier
from engine.gravstrike import kernels
from engine.gravstrike.planner import CheckpointSource, Planner, Source, StartSource
from tests.engine.arenas import small_arena
from tests.engine.table_arenas import table_arena

pytest.importorskip("numba")


def _both(monkeypatch: pytest.MonkeyPatch, make: object, source: Source) -> tuple[dict, dict]:
    """The answers of a fresh planner from ``make()`` with numpy, then with the kernels."""
    out = []
    for jit in ("0", "1"):
        monkeypatch.setenv("ARENA_STUDIO_JIT", jit)
        planner = make()  # type: ignore[operator]
        out.append(planner.plan_from(source))
    assert kernels.current() is not None  # the second run did use the kernels
    return out[0], out[1]


@pytest.mark.parametrize("seed", range(0, 36, 2))
def test_kernels_match_numpy_on_the_oracle_arenas(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    arena, turns = small_arena(seed)
    tier = 3 if seed % 2 else 1
    exclusions = "avoid" if seed % 5 == 0 else "pay"
    pivots = seed % 6 == 1
    source: Source = [StartSource(1), StartSource(2), CheckpointSource("A")][seed % 3]

    def make() -> Planner:
        return Planner(arena, tier=tier, exclusions=exclusions, quantum=0.05, max_turns=turns,  # type: ignore[arg-type]
                       pivots=pivots, minimise="time", slip_steps=2 if seed % 4 == 1 else 1)

    numpy_path, compiled = _both(monkeypatch, make, source)
    assert compiled == numpy_path
    assert any(r.reachable and r.path for r in numpy_path.values())


@pytest.mark.parametrize("size, seed", [(16, 1), (20, 3)])
def test_kernels_match_numpy_on_generated_tables(size: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the validators' tolerance (0.25), where merged states make the answer depend on the
    order children are admitted in: the kernels keep that order."""
    arena = table_arena(size, seed)
    numpy_path, compiled = _both(monkeypatch, lambda: Planner(arena, quantum=0.25, minimise="time"), StartSource(2))
    assert compiled == numpy_path
    assert sum(r.reachable for r in numpy_path.values()) >= 3


def test_kernels_match_numpy_with_a_paged_table_that_grows(monkeypatch: pytest.MonkeyPatch) -> None:
    arena, turns = small_arena(4)
    monkeypatch.setattr(frontier, "DENSE_LIMIT", 0)
    monkeypatch.setattr(frontier, "PAGE_BITS", 6)
    numpy_path, compiled = _both(monkeypatch, lambda: Planner(arena, quantum=0.1, max_turns=turns, minimise="time"),
                                 StartSource(1))
    assert compiled == numpy_path


def test_dense_admit_keeps_the_first_of_the_earliest_per_key() -> None:
    """The table's policy on one batch: per key the earliest child, the first of equals, when
    earlier than the table; within a turn also earlier than a key with fewer icons spent."""
    pool = np.full(16, 100, dtype=np.int16)
    pool[4] = 7
    key = np.array([9, 9, 9, 3, 5, 5], dtype=np.int64)
    tm = np.array([6, 4, 4, 8, 8, 7], dtype=np.int64)
    bnd = np.array([True, True, True, True, False, False])
    spent = np.array([0, 0, 0, 0, 1, 0], dtype=np.int64)  # key 5 with 1 icon spent: key 4 (0 spent) holds 7
    used = np.zeros(6, dtype=np.int64)
    # stride 1: the key of the same state with one icon fewer spent is the key below
    win, at, pages, missing = kernels.dense_admit(key, tm, bnd, spent, used, pool, np.zeros(0, dtype=np.int64), -1, 1, 1)
    assert win.tolist() == [1, 3, 5] and at.tolist() == [9, 3, 5] and missing == 0
    assert pool[[9, 3, 5]].tolist() == [4, 8, 7]


def test_without_numba_the_numpy_path_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine where numba can't load (or can't cache) searches with numpy: same answers, slower."""
    import sys

    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    monkeypatch.setattr(kernels, "_state", {"made": 0, "kernels": None, "failed": False})
    monkeypatch.setenv("ARENA_STUDIO_JIT", "1")
    assert kernels.active(10) is None and kernels.current() is None
    arena, turns = small_arena(0)
    assert Planner(arena, quantum=0.1, max_turns=turns, minimise="time").plan_from(StartSource(1))


def test_pruning_drops_only_children_the_table_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``prune``, ``move_children`` makes, in order, a part of what it makes without (the
    same positions), leaving out those the key table already beats - about a third of them here.
    With the tests above (the answers and paths equal the numpy path's) this shows that what it
    drops was never going to be kept."""
    monkeypatch.setenv("ARENA_STUDIO_JIT", "1")
    kern = kernels.active(1)
    assert kern is not None
    move = kern["move_children"]
    counts = {"unblocked": 0, "live": 0}

    def check(*args: object) -> tuple[np.ndarray, ...]:
        assert args[17] is True  # this search prunes
        got = move(*args)
        every = move(*args[:17], False, *args[18:])
        assert not (every[5] == 0).any()  # cspace.BLOCKED: never made
        count = args[5].shape[1]  # type: ignore[attr-defined]
        made = every[0] * count + every[1]
        kept = got[0] * count + got[1]
        at = np.searchsorted(made, kept)
        assert np.all(np.diff(kept) > 0) and np.array_equal(made[at], kept)
        assert np.array_equal(every[2][at], got[2]) and np.array_equal(every[3][at], got[3])
        counts["unblocked"] += len(made)
        counts["live"] += len(kept)
        return got

    monkeypatch.setitem(kern, "move_children", check)
    answers = Planner(table_arena(16, 1), quantum=0.25, minimise="time").plan_from(StartSource(2))
    assert sum(r.reachable for r in answers.values()) >= 3
    assert 0 < counts["live"] < 0.8 * counts["unblocked"]


def test_pruning_keeps_a_beaten_child_that_may_meet_an_open_goal_or_field() -> None:
    """A child whose key the table already holds as early is dropped - unless its cell may meet
    a zone the search still wants (an open goal: its arrival is recorded before admission; a
    field not used this turn: the push moves it to another key).  One state, one maneuver."""
    f64, i64, u64 = np.float64, np.int64, np.uint64
    state = (np.array([0.5]), np.array([0.5]), np.array([0], dtype=i64), np.array([0], dtype=i64), -1)
    moves = (np.ones((12, 1)), np.zeros((12, 1)), np.zeros((12, 1), dtype=i64), np.ones(1, dtype=i64))
    slot = np.full((2, 2), -1, dtype=i64)
    keyspec = (1.0, 0, 0, 4, 2, 1, 2, 16, slot)  # quantum, qi0, qj0, nqj, sb, sd, blk, plane (4 x 4), slot
    key = kernels.state_keys(np.array([1.5]), np.array([0.5]), np.zeros(1, dtype=i64), np.ones(1, dtype=i64),
                             np.ones(1, dtype=i64), np.zeros(1, dtype=i64), np.zeros(1, dtype=u64), True,
                             *keyspec)[0][0]

    def made(pool_time: int, sure_bits: int, keep: int, fields: int) -> int:
        sure = np.full((1, 16), sure_bits, dtype=u64)
        maybe = np.zeros((1, 16), dtype=u64)
        status = kernels.zone_flagged(np.ones((1, 16), dtype=np.uint8), sure, maybe)  # every cell free
        pool = np.full(12 * 2 * 16, 100, dtype=np.int16)
        pool[key] = pool_time
        raster = (0.0, 0.0, 1.0, 4, 4, status, sure, maybe)
        parent = (np.ones(1, dtype=i64), np.zeros(1, dtype=i64), np.ones(1, dtype=i64), np.zeros(1, dtype=u64), 1)
        out = kernels.move_children(*state, *moves, *raster, True, *parent, u64(keep), u64(fields), *keyspec, pool,
                                    np.zeros(0, dtype=i64), -1)
        assert out[2].dtype == f64
        return len(out[0])

    assert made(pool_time=5, sure_bits=0, keep=0, fields=0) == 1  # the child (time 1) beats the table
    assert made(pool_time=1, sure_bits=0, keep=0, fields=0) == 0  # the table holds it as early: dropped
    assert made(pool_time=1, sure_bits=0b01, keep=0b01, fields=0) == 1  # its cell may meet an open goal
    assert made(pool_time=1, sure_bits=0b10, keep=0b01, fields=0b10) == 1  # ... or an unused field
    assert made(pool_time=1, sure_bits=0b10, keep=0b01, fields=0) == 0  # a zone nobody wants: dropped
