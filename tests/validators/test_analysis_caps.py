"""The analysis caps (issue 36, point 9) and undecided verdicts (point 6): every analysis of
every game is bounded in time and memory, stops cooperatively at a cap, still writes its report
and names what it did not decide; an undecided search is never a silent pass.

No test here waits for a clock: the budget's clock and memory reading are fakes that jump past
the cap after a number of checks (work units), so the cap paths run the same on any machine."""

from __future__ import annotations

import io
import json
import mmap
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from rich.console import Console

from engine import budget as caps
from engine.budget import AnalysisStopped, Budget, Caps
from validators.findings import Finding, Result
from validators.registry import Registry

ROOT = Path(__file__).resolve().parents[2]
REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8"))


class JumpClock:
    """A clock that reads ``0`` for its first ``n`` readings and ``later`` from then on."""

    def __init__(self, n: int, later: float = 1e9) -> None:
        self.n, self.later, self.calls = n, later, 0

    def __call__(self) -> float:
        self.calls += 1
        return 0.0 if self.calls <= self.n else self.later


class Counter:
    """A clock whose every reading is one unit later: a cap of N seconds is N checks of work."""

    def __init__(self) -> None:
        self.t = -1.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


# ------------------------------------------------------------------ the budget itself

def test_a_clock_that_jumps_past_the_deadline_stops_the_budget_at_that_check_and_for_good() -> None:
    clock = JumpClock(6)
    b = Budget(Caps(seconds=60.0, memory_mib=None), clock=clock)  # the start reads the clock once
    assert [b.check() for _ in range(5)] == [None] * 5
    assert b.check() == "time limit (60 s)"
    reads = clock.calls
    assert b.check() == "time limit (60 s)" and clock.calls == reads  # sticky: no new reading
    assert b.left() == 0.0


def test_memory_is_read_at_most_once_per_interval_and_its_cap_stops_the_budget() -> None:
    readings = iter([100.0, 900.0, 2000.0])
    t = {"now": 0.0}
    b = Budget(Caps(seconds=None, memory_mib=1024.0), clock=lambda: t["now"], memory=lambda: next(readings),
               memory_every=1.0)
    assert b.check() is None  # 100 MiB
    t["now"] = 0.5
    assert b.check() is None  # not read again within the interval
    t["now"] = 1.0
    assert b.check() is None  # 900 MiB
    assert b.reserve(200.0) == "memory limit (1024 MiB)"  # 2000 MiB now, and more to come: over
    assert b.memory_peak == 2000.0


def test_a_reservation_that_would_pass_the_memory_cap_stops_before_the_allocation() -> None:
    b = Budget(Caps(seconds=None, memory_mib=512.0), memory=lambda: 300.0)
    assert b.reserve(100.0) is None
    with caps.active(b):
        with pytest.raises(AnalysisStopped, match="memory limit"):
            caps.reserve(300.0)


def test_searches_get_a_share_of_the_time_and_the_analysis_goes_on_after_it() -> None:
    t = {"now": 0.0}
    b = Budget(Caps(seconds=100.0, memory_mib=None), clock=lambda: t["now"])
    with caps.active(b):
        t["now"] = caps.SEARCH_SHARE * 100.0
        assert caps.exceeded() is not None and "searches" in caps.exceeded()  # type: ignore[operator]
        assert caps.reached() is None  # validators still run
        caps.tick()  # no error: only travel work stops at the share
        with pytest.raises(AnalysisStopped):
            caps.tick(search=True)
        t["now"] = 100.0
        assert caps.reached() == "time limit (100 s)"


def test_without_a_budget_the_checks_do_nothing() -> None:
    assert caps.current() is None and caps.exceeded() is None and caps.reached() is None
    caps.tick()
    caps.reserve(1e12)


# ------------------------------------------------------------------ the runner


def fresh_memory(mib: int) -> mmap.mmap:
    """``mib`` MiB of new pages, written so they are resident (mapped afresh: memory the
    process freed earlier and keeps would not make it grow)."""
    held = mmap.mmap(-1, max(mib, 1) << 20)
    for at in range(0, mib << 20, mmap.PAGESIZE):
        held[at] = 1
    return held


@dataclass(frozen=True)
class Busy:
    """A validator that works ``units`` units, looking at the caps after each."""

    id: str
    units: int
    games: tuple[str, ...] = ("mothership-grid",)
    title: str = "busy"
    severity: str = "warning"
    needs_travel: bool = False

    #: MiB it holds (written, so resident) while it works.
    holds_mib: int = 0

    def evaluate(self, arena: Any, context: Any) -> Result:
        held = fresh_memory(self.holds_mib)
        for _ in range(self.units):
            caps.tick()
        held.close()
        return Result([Finding(self.id, "info", f"{self.id} done", ())], {self.id: self.units})


def _registry(*validators: Any) -> Registry:
    reg = Registry({}, {})
    for v in validators:
        reg.add(v)
    return reg


def test_a_validator_the_cap_stops_and_those_after_it_are_named_and_the_report_is_still_written() -> None:
    """Three validators of 5, 50 and 5 units under a cap of 20 units: the first is decided,
    the second stopped at its 15th unit, the third never started; one analysis-limit warning
    names both, the summary says the verdict is incomplete and where it stopped."""
    from schema.games.mothership import default_arena
    from app.cli.validate import print_report
    from validators.run import validate

    clock = Counter()
    reg = _registry(Busy("a-first", 5), Busy("b-long", 50), Busy("c-after", 5))
    with caps.active(Budget(Caps(seconds=20.0, memory_mib=None), clock=clock)):
        report = validate(default_arena(), registry=reg)
    assert [f.code for f in report.findings] == ["analysis-limit", "a-first"]
    limit = report.findings[0]
    assert limit.severity == "warning" and "b-long, c-after" in limit.message and "time limit (20 s)" in limit.message
    assert limit.metrics == {"not_decided": ["b-long", "c-after"], "limit": "time limit (20 s)"}
    assert report.metrics == {"a-first": 5}
    doc = report.to_json()
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(doc)
    assert doc["summary"] == {"error": 0, "warning": 1, "info": 1, "incomplete": True, "stopped": "time limit (20 s)"}
    out = io.StringIO()
    print_report(report, Console(file=out, width=200))
    assert "verdict incomplete" in out.getvalue() and "time limit (20 s)" in out.getvalue()


def test_a_complete_report_has_no_incomplete_mark() -> None:
    from schema.games.mothership import default_arena
    from validators.run import validate

    with caps.active(Budget(Caps(seconds=1000.0, memory_mib=None), clock=Counter())):
        report = validate(default_arena(), registry=_registry(Busy("a-first", 5)))
    assert report.to_json()["summary"] == {"error": 0, "warning": 0, "info": 1} and not report.incomplete


def test_the_memory_reading_counts_what_the_analysis_took_on() -> None:
    """:func:`validators.memory.reading` is what the analysis added to the memory its processes
    held when it began: a long-lived process (the editor, a service worker) is not over a cap
    for what it held before."""
    from validators import memory

    read = memory.reading()
    before = read()
    assert before is not None and before < 4.0
    confirmed = memory.reading(confirm_above=1.0)  # over 1 MiB: the proportional sets confirm it
    held = fresh_memory(16)
    after, precise = read(), confirmed()
    assert after is not None and after >= before + 15.0
    assert precise is not None and 15.0 <= precise <= after + 1.0
    held.close()


def test_validate_makes_its_own_budget_from_limits_and_counts_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """``limits``: a budget with the real clock and the memory this process (and its children)
    took on since it began - read at every check here (``memory_every=0``; the default reads
    every 0.1 s of the clock): what the process held before does not count (a 1 MiB cap on a
    validator that holds nothing more), a validator that holds 8 MiB passes it."""
    import functools

    from schema.games.mothership import default_arena
    from validators import run
    from validators.run import validate

    monkeypatch.setattr(run, "Budget", functools.partial(Budget, memory_every=0.0))
    idle = validate(default_arena(), registry=_registry(Busy("a-first", 3)), limits=Caps(None, 1.0))
    assert idle.stopped is None and [f.code for f in idle.findings] == ["a-first"]
    report = validate(default_arena(), registry=_registry(Busy("a-first", 3, holds_mib=8)), limits=Caps(None, 1.0))
    assert report.stopped == "memory limit (1 MiB)"
    assert [f.code for f in report.findings] == ["analysis-limit"]


# ------------------------------------------------------------------ every game's searches


def test_car_wars_six_foot_crossroads_start_searches_stopped_at_states_are_a_warning_not_a_pass() -> None:
    """The issue's case: Crossroads doubled to 6 ft reported 0 findings while its four
    start-to-start searches stopped "undecided: states".  (Here the state cap is 20 000, not the
    default 400 000: the same stop, a tenth of the work.)"""
    from engine.carwars.travel import SearchLimits
    from tests.runaway import crossroads_six_feet
    from validators.games.carwars.run import validate

    report = validate(crossroads_six_feet(), limits=SearchLimits(max_states=20_000))
    limit = [f for f in report.findings if f.code == "analysis-limit"]
    assert limit and all(f.severity == "warning" for f in limit)
    pairs = {(q["from"], q["to"], q.get("policy")) for f in limit for q in f.metrics["undecided"]}
    assert {("start:1", "start:3", "flat-out"), ("start:3", "start:1", "flat-out")} <= pairs
    assert any("state limit (20,000 states)" in f.message for f in limit)
    assert report.to_json()["summary"]["incomplete"] is True


def test_car_wars_searches_answer_undecided_at_the_analysis_cap() -> None:
    from engine.carwars.planner import Planner
    from engine.carwars.travel import Goal, StartSource
    from schema import load

    arena = load(ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml")
    planner = Planner(arena)
    with caps.active(Budget(Caps(seconds=5.0, memory_mib=None), clock=JumpClock(3))):
        r = planner.plan(StartSource(1), Goal("card", "checkpoint-3"))
    assert r.status == "undecided" and r.undecided == "time limit (5 s)"


def test_gravstrike_searches_answer_undecided_at_the_analysis_cap() -> None:
    from engine.gravstrike.planner import Goal, Planner, StartSource
    from schema import load

    arena = load(ROOT / "arenas" / "default.yaml")
    planner = Planner(arena, quantum=0.25, minimise="time")
    with caps.active(Budget(Caps(seconds=5.0, memory_mib=None), clock=JumpClock(2))):
        r = planner.plan(StartSource(1), Goal.parse("checkpoint:A"))
    assert r.status == "undecided" and r.undecided is not None and r.undecided.startswith("time limit")


def test_glider_pit_travel_past_the_searches_share_is_an_undecided_finding_naming_the_zones() -> None:
    """The launch zones' fewest turns to the centre, undecided: ``gp-zone-travel`` compares
    nothing and an analysis-limit warning names every zone (it used to read as equal zones)."""
    from schema.games.gliderpit import default_arena
    from validators.run import validate

    t = {"now": 0.0}
    b = Budget(Caps(seconds=100.0, memory_mib=None), clock=lambda: t["now"])
    t["now"] = 80.0  # past the searches' share (75 s), not the cap
    with caps.active(b):
        report = validate(default_arena(), enable=["gp-zone-travel"])
    (limit,) = [f for f in report.findings if f.code == "analysis-limit"]
    assert [q["from"] for q in limit.metrics["undecided"]] == ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6"]
    assert "time limit for searches" in limit.message and report.to_json()["summary"]["incomplete"] is True


def test_glider_pit_tables_a_memory_cap_cannot_hold_are_not_built() -> None:
    from engine.gliderpit import travel
    from engine.gliderpit.travel import plan
    from schema.games.gliderpit import default_arena

    travel._grid.cache_clear()  # tables an earlier test built in this process need no memory now
    with caps.active(Budget(Caps(seconds=None, memory_mib=100.0), memory=lambda: 98.0)):  # its tables: ~9 MiB
        r = plan(default_arena(), "Z2", "centre", path=False)
    assert r.status == "undecided" and r.undecided == "memory limit (100 MiB)"


def test_glider_pit_a_zone_that_can_never_reach_the_centre_is_a_finding() -> None:
    """Unreachable used to drop out of the comparison silently."""
    from engine.gliderpit.fairness import ZoneMetrics, compare
    from schema.games.gliderpit import default_arena

    base = ZoneMetrics("Z1", 1, 5.0, 5, 3, "Z2", 3.0, 3, 3.0, 3, (), (), (), 0.5, 0.5, 0.5, 1, 1, 1.0)
    ms = [replace(base, zone="Z1", travel_turns=2, travel_status="reached"),
          replace(base, zone="Z2", travel_turns=None, travel_status="unreachable")]
    issues = [i for i in compare(default_arena(), ms) if i.code == "gp-zone-travel"]
    assert [(i.severity, i.elements) for i in issues] == [("warning", ("Z2",))]


def test_mothership_a_search_stopped_by_its_state_cap_is_not_reported_as_no_way_through() -> None:
    from engine.mothership.fairness import approach, compare
    from engine.mothership.travel import SearchLimits
    from schema.games.mothership import default_arena

    arena = default_arena()
    aps = approach(arena, SearchLimits(max_states=2))
    assert all(why is not None for a in aps for why in a.undecided)
    assert not [i for i in compare(arena, aps) if "cannot reach" in i.message]


def test_mothership_approach_past_the_searches_share_is_an_undecided_finding() -> None:
    from schema.games.mothership import default_arena
    from validators.run import validate

    t = {"now": 0.0}
    b = Budget(Caps(seconds=100.0, memory_mib=None), clock=lambda: t["now"])
    t["now"] = 90.0
    with caps.active(b):
        report = validate(default_arena(), enable=["mg-approach"])
    (limit,) = [f for f in report.findings if f.code == "analysis-limit"]
    assert len(limit.metrics["undecided"]) == 6 and not [f for f in report.findings if f.code == "mg-approach"]


# ------------------------------------------------------------------ a runaway arena, end to end


@pytest.mark.parametrize("make", ["carwars_sprawl", "gravstrike_sprawl"])
def test_a_runaway_arena_ends_with_a_report_at_a_cap_counted_in_checks(make: str) -> None:
    """The issue's runaway arenas (valid, within the schemas' caps) under a cap of 20 checks of
    the budget - work units, not seconds: the analysis ends, the report is written and valid,
    and it names what it did not decide."""
    from tests import runaway
    from validators.run import validate

    arena = getattr(runaway, make)()
    with caps.active(Budget(Caps(seconds=20.0, memory_mib=None), clock=Counter())):
        report = validate(arena)
    doc = report.to_json()
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(doc)
    assert doc["summary"]["incomplete"] is True and doc["summary"]["stopped"].startswith("time limit")
    limit = [f for f in report.findings if f.code == "analysis-limit"]
    assert limit and all(f.severity == "warning" for f in limit)


def test_arena_validate_takes_its_caps_from_options_and_the_environment() -> None:
    """A memory cap below what the analysis takes on (its planner's tables): the report is still
    printed, says where it stopped, and the exit status is never a pass's: 4 (verdict incomplete) when no finding fails
    ``--fail-on``, 1 when one does (``--fail-on warning``), 0 only with ``--allow-incomplete``;
    0 means no cap."""
    import os
    import subprocess
    import sys

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "app.cli.main", "validate",
                               "arenas/examples/three-player.yaml", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, env={**os.environ, **(env or {})})

    r = run("--json", env={"ARENA_MEMORY_LIMIT_MIB": "1"})
    assert r.returncode == 4, r.stderr  # no finding fails --fail-on, but the verdict is incomplete: not a pass
    doc = json.loads(r.stdout)
    assert doc["summary"]["stopped"] == "memory limit (1 MiB)" and doc["summary"]["incomplete"] is True
    text = run("--memory-limit", "1", "--fail-on", "warning")
    assert text.returncode == 1 and "verdict incomplete" in text.stdout and "analysis-limit" in text.stdout
    assert run("--memory-limit", "1", "--allow-incomplete").returncode == 0
    free = run("--json", "--memory-limit", "0", env={"ARENA_MEMORY_LIMIT_MIB": "1"})  # the option wins
    assert free.returncode == 0
    assert "incomplete" not in json.loads(free.stdout)["summary"]


def test_a_service_validation_runs_under_the_job_budget_and_answers_an_incomplete_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The service's job (as its worker runs it): the memory cap it is given stops the analysis
    and the answer is the report all the same (200), not a killed worker.  (The job's memory
    reading says 2 MiB taken on: in this long-lived test process an analysis may take all it
    needs from memory earlier tests freed, without growing the process at all.)"""
    from validators import memory
    from app.service.jobs import validate_job

    monkeypatch.setattr(memory, "reading", lambda *_a, **_k: lambda: 2.0)
    body = (ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml").read_bytes()
    outcome = validate_job(body, "yaml", "request", [], [], None, "arena", seconds=100.0, memory_mib=1.0)
    assert outcome[0] == "ok"
    doc = json.loads(outcome[2])  # type: ignore[misc]
    assert doc["summary"]["stopped"] == "memory limit (1 MiB)"
    assert caps.current() is None  # the job's budget ends with the job
