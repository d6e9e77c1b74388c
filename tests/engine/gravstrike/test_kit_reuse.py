"""A worker keeps the arena's kit from chunk to chunk (issue 40's speed goal: "near-linear on two
Dask workers" rests on it): games fanned out in one-game chunks to a Dask worker process (a
LocalCluster, as ``arena simulate --scheduler`` uses) make one kit in that process, not one a
chunk - each chunk gets its own unpickled copy of the arena, and the kit is found by its content."""

from __future__ import annotations

import pytest

from engine.gravstrike.play.kit import kits_made
from tests.engine.gravstrike.test_play import corridor
from validators.simulate import simulate


def test_a_dask_worker_makes_one_kit_for_every_chunk() -> None:
    distributed = pytest.importorskip("distributed")
    arena = corridor()
    local = simulate(arena, 4, 3, workers=1).document
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        dask = simulate(arena, 4, 3, scheduler=cluster.scheduler_address, chunk=1).document
        with distributed.Client(cluster.scheduler_address) as client:
            made = client.run(kits_made)
    assert dask == local and dask["games_counted"] == 4
    assert list(made.values()) == [1], made
