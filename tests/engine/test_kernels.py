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
    win, at, pages, missing = kernels.dense_admit(key, tm, bnd, spent, used, pool, np.zeros(0, dtype=np.int64), -1, 1)
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
