"""Start sets share travel (issue 38, goal 1): judging an arena at every declared player count
validates the arena and each start set's arena, and the sets share the whole arena's planners
and the searches that answer alike in every set (validators/games/gravstrike/share.py).  Work is
counted in planner searches and planners built, not seconds; the reports are the ones each set
gets alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.gravstrike.planner import Planner, StartSource
from schema import load
from schema.ruleset import ruleset_of
from validators import run as runner
from validators.games.gravstrike.context import AnalysisContext
from validators.players import judge
from validators.report import Report

ROOT = Path(__file__).resolve().parents[2]


def _count(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts every planner made and every search a planner runs (the confirming planner's too)."""
    counts = {"planners": 0, "searches": 0}
    make, search = Planner.__init__, Planner.plan_from

    def counted_init(self: Planner, *args: Any, **kwargs: Any) -> None:
        counts["planners"] += 1
        make(self, *args, **kwargs)

    def counted_search(self: Planner, *args: Any, **kwargs: Any) -> Any:
        counts["searches"] += 1
        return search(self, *args, **kwargs)

    monkeypatch.setattr(Planner, "__init__", counted_init)
    monkeypatch.setattr(Planner, "plan_from", counted_search)
    return counts


def _alone(arena: Any) -> Report:
    """Every declared player count judged with nothing shared between the sets."""

    def run(judged: Any) -> Report:
        return runner._validate(judged, source=None, enable=(), disable=(), tier=None, budget="arena",
                                registry=None, progress=None, context=None, tolerance=None, parallel=False)

    return judge(arena, None, run)


@pytest.mark.parametrize(("name", "searches", "planners"), [
    # the whole arena: start 1 (the others its images) and checkpoint A (B and C its images);
    # the three-player set: start 1 again - its goals are other starts - but not A's search;
    # one planner at tier 1, one at tier 3 (every tier-3 answer reused from tier 1)
    ("default.yaml", 3, 2),
    # and the four-player set [1, 2, 3, 5] (mirror-free): its four starts, checkpoints B and C
    ("examples/crowded-four.yaml", 9, 2),
])
def test_start_sets_share_the_planner_and_the_checkpoint_searches(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                   searches: int, planners: int) -> None:
    """Before sharing: the default arena made 4 searches on 4 planners (each set its own
    planners, its own search from checkpoint A), crowded-four 11 on 6.  The report is the one the
    sets give alone, byte for byte."""
    arena = load(ROOT / "arenas" / name)
    alone = _alone(arena).to_json()
    counts = _count(monkeypatch)
    shared = runner.validate(arena)
    assert counts == {"planners": planners, "searches": searches}
    assert shared.to_json() == alone
    assert len(shared.player_counts) >= 2


def test_the_helper_runs_the_later_start_sets_searches_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    """On two cores the first set's helper takes the three-player set's start search too (the
    whole arena's and the three-player set's run side by side): the later set's validation
    searches nothing and forks nothing, and the report is the one-core report."""
    arena = load(ROOT / "arenas" / "default.yaml")
    one = runner.validate(arena).to_json()
    reports: list[Report] = []
    validate_one = runner._validate

    def keep(judged: Any, **kwargs: Any) -> Report:
        reports.append(validate_one(judged, **kwargs))
        return reports[-1]

    monkeypatch.setattr(runner, "_validate", keep)
    two = runner.validate(arena, parallel=True)
    assert two.to_json() == one
    whole, three = reports
    assert whole.work == {"travel searches": 2, "travel reused": 2}
    # the three-player set: start 1's search and A's, both found in the share (2 tiers' contexts
    # reuse the first's as before)
    assert three.work == {"travel searches": 0, "travel reused": 2, "travel shared": 2}
    assert "(travel, helper)" not in three.timings  # no helper forked for it


@pytest.mark.parametrize(("name", "players", "start"), [("default.yaml", 3, "start:1"),
                                                        ("examples/crowded-four.yaml", 4, "start:2")])
def test_the_whole_arenas_planner_answers_a_start_set_as_its_own_planner(name: str, players: int,
                                                                         start: str) -> None:
    """What sharing rests on: the starts a set leaves out are goal zones no query of the set asks
    for, and such a zone changes nothing in a search - the whole arena's planner gives a set's
    query (its own goals) the answers, paths included, of the set's own planner."""
    whole = load(ROOT / "arenas" / name)
    slots = ruleset_of(whole).starts()
    assert slots is not None
    sub = slots.subset(whole, slots.declared(whole)[players], players)
    own = AnalysisContext(sub)
    src, goals, horizon = own.query(start)
    assert {g.kind for g in goals} >= {"start", "checkpoint", "target"}
    assert len(own.planner.goals()) < len(AnalysisContext(whole).planner.goals())
    big = Planner(whole, tier=own.tier, budget=own.budget, quantum=own.tolerance, minimise="time",
                  max_turns=own.max_turns)
    assert isinstance(src, StartSource)
    assert big.plan_from(src, goals, max_time=horizon) == own.planner.plan_from(src, goals, max_time=horizon)


def test_no_planner_is_shared_past_the_vectorised_searchs_zones() -> None:
    """Past :data:`engine.gravstrike.cspace.MAX_BIT_ZONES` zones a planner searches one state at
    a time: where the whole arena's extra starts take it there while a set's own planner stays
    under, the set keeps its own planner (and shares no search)."""
    import dataclasses

    from engine.gravstrike.cspace import MAX_BIT_ZONES
    from schema.games.gravstrike.model import StaticTarget
    from validators.games.gravstrike.share import TravelShare

    arena = load(ROOT / "arenas" / "default.yaml")
    zones = len(AnalysisContext(arena).planner.cspace.zones)  # fields, checkpoints, starts, targets
    extra = MAX_BIT_ZONES - zones + 1  # the whole arena one zone past, a three-player set under
    whole = dataclasses.replace(arena, static_targets=(*arena.static_targets, *(
        StaticTarget(f"X{i}", (-8.0 + 0.25 * i, 0.5)) for i in range(extra))))
    slots = ruleset_of(whole).starts()
    assert slots is not None
    three = slots.subset(whole, (1, 3, 5), 3)
    share = TravelShare([whole, three])
    assert share.serves(whole) and share.serves(three)
    ctx = AnalysisContext(three, share=share)
    assert len(ctx.planner.cspace.zones) == MAX_BIT_ZONES - 2  # its own planner, vectorised
    assert ctx.planner.arena is three and not share.holds(ctx.planner)
    assert ctx.share_key("checkpoint:A") is None
