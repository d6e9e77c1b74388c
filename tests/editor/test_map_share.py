"""The editor's workers share distance maps (:mod:`editor.map_share`): a map one worker made is
taken by the other instead of made again, bit for bit the same; maps of another version of the
arena are never taken; each worker makes the missing ones from its own end of the list; a map is
seen whole or not at all; the folder keeps only the newest maps and an editor that is gone leaves
none behind."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np

from editor import map_share as MS
from engine.gravstrike.planner import Planner
from schema import load
from validators.games.gravstrike.travel_session import TravelSession

ARENA = load("arenas/examples/lopsided.yaml")


def goals(p: Planner) -> list:
    return [g for g in p.goals() if g.kind in ("checkpoint", "start")]


def moved_wall(arena):  # type: ignore[no-untyped-def]
    """W1 (an 8 x 0.6 bar: a length's reach jumps it, so no map sees it) made a 4-length-thick block."""
    w = arena.walls[0]
    return dataclasses.replace(arena, walls=(dataclasses.replace(w, shape=dataclasses.replace(
        w.shape, size=(w.shape.size[0], 4.0))), *arena.walls[1:]))


def test_a_map_one_worker_made_is_taken_by_the_other_bit_for_bit(tmp_path: Path) -> None:
    first, second = Planner(ARENA, minimise="time"), Planner(ARENA, minimise="time")
    first.map_share, second.map_share = MS.MapShare(tmp_path, 0), MS.MapShare(tmp_path, 1)
    made = first.distance_maps(goals(first))
    taken = second.distance_maps(goals(second))
    assert first.map_share.made == len(made) and second.map_share.taken == len(taken) and second.map_share.made == 0
    alone = Planner(ARENA, minimise="time").distance_maps(goals(first))
    for a, b, c in zip(made, taken, alone):
        assert np.array_equal(a.array, c.array) and np.array_equal(b.array, c.array)
        assert np.array_equal(b.grid, c.grid)


def test_another_version_of_the_arena_makes_its_own(tmp_path: Path) -> None:
    first = Planner(ARENA, minimise="time")
    first.map_share = MS.MapShare(tmp_path, 0)
    first.distance_maps(goals(first))
    other = Planner(moved_wall(ARENA), minimise="time")
    other.map_share = MS.MapShare(tmp_path, 1)
    maps = other.distance_maps(goals(other))
    assert other.map_share.taken == 0 and other.map_share.made == len(maps)
    alone = Planner(moved_wall(ARENA), minimise="time").distance_maps(goals(other))
    assert all(np.array_equal(a.array, b.array) for a, b in zip(maps, alone))
    assert any(not np.array_equal(a.array, b.array)
               for a, b in zip(maps, Planner(ARENA, minimise="time").distance_maps(goals(other))))


def test_workers_make_the_missing_maps_from_opposite_ends(tmp_path: Path) -> None:
    keys = ["c", "a", "b"]
    assert MS.MapShare(tmp_path, 0).order(keys) == ["a", "b", "c"]
    assert MS.MapShare(tmp_path, 1).order(keys) == ["c", "b", "a"]


def test_a_map_is_seen_whole_or_not_at_all_and_the_folder_keeps_the_newest(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    share = MS.MapShare(tmp_path, 0)
    (tmp_path / "half.npy").write_bytes(b"\x93NUMPY\x01\x00")  # a torn file: not a map
    assert share.get("half") is None and share.get("missing") is None
    (tmp_path / "half.npy").unlink()
    monkeypatch.setattr(MS, "KEEP", 3)
    for i in range(5):
        share.put(f"k{i}", np.full((2, 2), float(i)))
        os.utime(tmp_path / f"k{i}.npy", ns=(i * 10**9, i * 10**9))
    share.put("k5", np.zeros((2, 2)))
    left = sorted(p.name for p in tmp_path.glob("k*.npy"))
    assert left == ["k3.npy", "k4.npy", "k5.npy"]
    assert not list(tmp_path.glob(".part-*"))
    assert np.array_equal(share.get("k4"), np.full((2, 2), 4.0))


def test_folders_of_editors_that_are_gone_are_removed(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(MS.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(MS.os.path, "isdir", lambda p: False)  # no /dev/shm: the temp folder
    gone = tmp_path / f"{MS.PREFIX}999999999-x"
    gone.mkdir()
    mine = tmp_path / f"{MS.PREFIX}{os.getpid()}-y"
    mine.mkdir()
    made = MS.make_dir()
    assert not gone.exists() and mine.exists() and Path(made).parent == tmp_path


def test_a_session_hands_the_share_to_every_planner_it_makes(tmp_path: Path) -> None:
    session = TravelSession()
    session.map_share = MS.MapShare(tmp_path, 0)
    session.context(ARENA).travel_from("start:1")
    assert session.planner is not None and session.planner.map_share is session.map_share
    assert session.map_share.made > 0
    session.context(moved_wall(ARENA))
    assert session.planner.map_share is session.map_share
