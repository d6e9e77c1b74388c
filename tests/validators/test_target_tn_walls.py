"""target-access's TN from each start at each static target is remembered by the walls that can
block a line between the two (issue 38, goal 4): dragging a wall works out again only the pairs it
comes near, and every TN is the one the whole arena's walls give.  Work is counted in TN
computations, never in seconds."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine.gravstrike.motion import Pose
from engine.gravstrike.targeting import static_target_number
from engine.gravstrike.variants import as_played
from engine.sight import Blockers, NoLineOfSight
from schema import load
from schema.games.gravstrike.model import Arena
from validators.games.gravstrike import targets

ROOT = Path(__file__).resolve().parents[2]


def _moved(a: Arena, i: int, dx: float, dy: float) -> Arena:
    w = a.walls[i]
    c = w.shape.center  # type: ignore[union-attr]
    walls = list(a.walls)
    walls[i] = dataclasses.replace(w, shape=dataclasses.replace(w.shape, center=(c[0] + dx, c[1] + dy)))
    return dataclasses.replace(a, walls=tuple(walls))


def _all_pairs(a: Arena) -> dict[tuple[str, int], int | None]:
    return {(t.id, s.player): targets._tn_from_start(a, s, as_played(t, a.scenario.variants))
            for t in a.static_targets for s in a.start_positions}


def _with_every_wall(a: Arena) -> dict[tuple[str, int], int | None]:
    blockers = Blockers.from_arena(a)
    out: dict[tuple[str, int], int | None] = {}
    for t in a.static_targets:
        for s in a.start_positions:
            try:
                out[(t.id, s.player)] = static_target_number(Pose(s.position[0], s.position[1], s.facing),
                                                             as_played(t, a.scenario.variants), blockers, turbine=a.turbine).tn
            except NoLineOfSight:
                out[(t.id, s.player)] = None
    return out


def test_a_wall_drag_works_out_only_the_tns_it_comes_near(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default arena's 18 start/target pairs; W1 dragged 0.1: before, every pair was worked
    out again (the cache was keyed by every wall)."""
    calls: list[Any] = []
    real = targets.static_target_number

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(args)
        return real(*args, **kw)

    monkeypatch.setattr(targets, "static_target_number", counted)
    monkeypatch.setattr(targets, "_TN_CACHE", {})
    a = load(ROOT / "arenas" / "default.yaml")
    _all_pairs(a)
    assert len(calls) == 18
    calls.clear()
    _all_pairs(_moved(a, 0, 0.1, 0.0))
    assert len(calls) <= 12, len(calls)  # 11: the pairs whose box (grown by 1.5) W1 meets


def test_the_tns_are_those_every_wall_gives() -> None:
    """On the default arena and on its walls dragged about (each wall in turn, up to 2 lengths),
    the TN from the walls near a pair is the TN from every wall."""
    a = load(ROOT / "arenas" / "default.yaml")
    for arena in [a] + [_moved(a, i, dx, dy) for i in range(len(a.walls)) for dx, dy in ((1.5, -0.5), (-2.0, 1.0))]:
        assert _all_pairs(arena) == _with_every_wall(arena)
