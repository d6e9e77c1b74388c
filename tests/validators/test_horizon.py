"""No verdict depends on a turn horizon (issue 20): a horizon bounds the work, never the verdict.

An error "start N cannot reach checkpoint X without ramming" only when no plan can reach it;
a checkpoint farther than the analysis looks (``ANALYSIS_MAX_TURNS``) is "farther than N turns",
a warning.  Rule "Ramming" (a turbine that touches a wall rams it): only walls make a checkpoint
unreachable, never distance - the corridors here have no wall across them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine.gravstrike.heuristic import TimeBound
from engine.gravstrike.planner import Goal, Planner, StartSource
from schema.shapes import Circle
from schema.games.gravstrike.model import Checkpoint
from tests.engine.table_arenas import corridor_arena
from validators.games.gravstrike.context import AnalysisContext
from validators.options import ANALYSIS_MAX_TURNS
from validators.run import validate
from validators.games.gravstrike.travel_session import TravelSession

A = Goal("checkpoint", "A")


def test_a_checkpoint_past_the_horizon_at_the_end_of_a_long_corridor_is_a_warning_not_an_error() -> None:
    """230 lengths of open corridor: about 38 turns flat out.  Its paid distance passed the time
    bound's table (200 lengths), which answered "no time at all reaches it": the search dropped
    the start and reported the checkpoint unreachable - an error, for a checkpoint a longer
    search reaches."""
    arena = corridor_arena(230.0)
    report = validate(arena, source="corridor", parallel=False)
    found = [f for f in report.findings if f.code == "reachability"]
    assert [(f.severity, f.elements) for f in found] == [("warning", ("start:1", "A"))]
    assert f"needs more than {ANALYSIS_MAX_TURNS} turns" in found[0].message
    cell = report.metrics["travel"]["start:1"]["checkpoint:A"]
    assert cell == {"reachable": None, "turns": None, "time": None, "at_least": float(ANALYSIS_MAX_TURNS)}
    # ... and a search that looks far enough reaches it (a coarse tolerance keeps this quick)
    far = Planner(arena, quantum=1.0, minimise="time", max_turns=40, prove=False).plan(StartSource(1), A)
    assert far.status == "reached" and far.time > ANALYSIS_MAX_TURNS


@pytest.mark.parametrize("vectorised", [True, False])
def test_both_searches_say_beyond_not_unreachable_for_a_far_checkpoint(vectorised: bool) -> None:
    """The one-state-at-a-time search (``arena travel``'s full objective) and the vectorised one."""
    arena = corridor_arena(230.0)
    planner = Planner(arena, quantum=0.25, max_turns=6, vectorised=vectorised, prove=False,
                      minimise="time" if vectorised else "time-icons-damage")
    r = planner.plan(StartSource(1), A)
    assert (r.status, r.horizon) == ("beyond", 6.0)


def test_a_resumed_search_says_beyond_for_a_checkpoint_moved_past_the_horizon() -> None:
    """The editor resumes kept searches when a checkpoint moves.  A search that ran to its horizon
    keeps its open states in a reservoir; moving checkpoint B past the horizon left none of
    them queued, and the resumed search answered "unreachable" (a second, finer search hid it from
    the report, at the price of searching again at 0.05)."""
    arena = corridor_arena(150.0)
    a = arena.checkpoints[0]
    near = dataclasses.replace(arena, checkpoints=(a, Checkpoint("B", "outlying", Circle((-60.0, 0.0), 0.5))))
    far = dataclasses.replace(arena, checkpoints=(a, Checkpoint("B", "outlying", Circle((70.0, 0.0), 0.5))))
    session = TravelSession(tolerance=0.1)
    before = session.context(near).travel_from("start:1")
    assert (before["checkpoint:B"].status, before["checkpoint:A"].status) == ("reached", "beyond")
    ctx = session.context(far)
    assert session.last_update == ("retarget", frozenset({Goal("checkpoint", "B")}))
    after = ctx.travel_from("start:1")
    assert (after["checkpoint:B"].status, after["checkpoint:B"].horizon) == ("beyond", float(ANALYSIS_MAX_TURNS))
    # the kept search's own answer (before any second look at "unreachable" ones)
    kept = session.searches["start:1"].results[Goal("checkpoint", "B")]
    assert (kept.status, kept.horizon) == ("beyond", float(ANALYSIS_MAX_TURNS))
    fresh = AnalysisContext(far, tolerance=0.1).travel_from("start:1")
    assert fresh["checkpoint:B"].status == "beyond"


def test_the_time_bound_stays_finite_and_admissible_past_its_table() -> None:
    """Past the table (200 lengths) the bound is looser but finite, never above a real plan's
    time: flat out straight ahead from a standstill (speeds 2, 4, 6, 6, ... under "Speed
    Delta" 2) covers n lengths by the end of turn t."""
    tb = TimeBound(speed_delta=2, max_speed=6, budget=3, scale=60)
    reached, lengths, speed = [], 0, 0
    for turn in range(1, 120):
        speed = min(6, speed + 2)
        for k in range(1, speed + 1):
            reached.append((lengths + k, (turn - 1) * 60 + 60 * k // speed))
        lengths += speed
    bounds = [tb.lower_bound(float(n), speed=0, done=0, icons_left=3) for n, _ in reached]
    assert all(b < 1 << 40 for b in bounds)
    assert all(b <= t for b, (_, t) in zip(bounds, reached))
    assert np.all(np.diff(bounds) >= 0)  # a longer way never needs less time
    assert bounds[-1] > 60 * 60  # and it still grows: 700 lengths take more than 60 turns
