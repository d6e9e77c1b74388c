"""Travel answers must not get slower between versions (issue 36): every goal of the generated
arenas of :mod:`tests.golden.travel_arenas` is answered at least as fast as the golden table
``travel_times.json`` says, by the validators' search (and ``arena travel``'s default).  A faster
answer fails too, asking for the table to be updated, so that the improvement is kept.

Work is bounded by states (:data:`tests.golden.travel_table.MAX_BYTES` a search; about 2 M states
in all), not by seconds."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from schema import save
from tests.golden.travel_arenas import CASES, Case, pivot_arena, reported_detour
from tests.golden.travel_table import UPDATE, Answer, answers, bound, compare, digest, load_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def table() -> dict[str, Any]:
    return load_table()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_no_travel_answer_is_slower_than_the_golden_table(case: Case, table: dict[str, Any]) -> None:
    now, _ = answers(case)
    problems, improved = compare(case, now, table)
    assert not problems, ("travel answers may only get faster (issue 36); slower than the golden table "
                          "tests/golden/travel_times.json:\n  " + "\n  ".join(problems))
    assert not improved, (f"faster than the golden table (good): record it with `{UPDATE}` (review the diff of "
                          "tests/golden/travel_times.json) so that no later change loses it:\n  " + "\n  ".join(improved))


def _table_of(case: Case, got: dict[tuple[str, str], Answer]) -> dict[str, Any]:
    return {"rows": [{"case": case.name, "arena": digest(case), "source": s, "goal": g, "answer": a.to_json()}
                     for (s, g), a in got.items()]}


def test_the_comparison_tells_slower_from_faster_and_a_changed_arena() -> None:
    """The check itself: a table one sixtieth faster than today makes today's answer a problem,
    one slower makes it an improvement to record, a table made on another arena is refused."""
    case = next(c for c in CASES if c.family == "pivots")
    now, _ = answers(case)
    goal = next(k for k, a in now.items() if a.time is not None)
    a = now[goal]
    assert a.time is not None
    assert compare(case, now, _table_of(case, now)) == ([], [])
    faster = {**now, goal: Answer("reached", a.time - Fraction(1, 60))}
    problems, improved = compare(case, now, _table_of(case, faster))
    assert len(problems) == 1 and "slower than the table's" in problems[0] and not improved
    slower = {**now, goal: Answer("reached", a.time + Fraction(1, 60))}
    problems, improved = compare(case, now, _table_of(case, slower))
    assert not problems and len(improved) == 1 and "better than the table's" in improved[0]
    lost = {**now, goal: a}
    problems, _ = compare(case, {**now, goal: Answer("undecided")}, _table_of(case, lost))
    assert problems and "undecided, slower" in problems[0]
    other = Case(case.family, lambda: pivot_arena(99), case.sources)
    stale = _table_of(case, now)
    for row in stale["rows"]:
        row["case"] = other.name
    assert "not the one the table was made on" in compare(other, now, stale)[0][0]


def test_the_table_catches_the_change_that_made_the_reported_detour_slower() -> None:
    """The issue's regression as the table sees it: before 2026-11-23 ``arena travel`` searched at
    0.1 by default and printed 3.000 turns for the reported detour; a table made then fails the
    answers of the default since (0.25: 3.167), naming the goal."""
    from engine.gravstrike.planner import Planner

    case = next(c for c in CASES if c.name == "walls: reported detour")
    earlier, _ = answers(case, Planner(case.build(), quantum=0.1, minimise="time", max_turns=12))
    today, _ = answers(case)
    problems, _ = compare(case, today, _table_of(case, earlier))
    assert problems == ["walls: reported detour start:1 -> checkpoint:A: 3.167 turns (19/6), slower than the "
                        "table's 3.000 turns (3)"]


def test_arena_travel_default_answers_the_reported_detour_as_the_table(table: dict[str, Any], tmp_path: Path) -> None:
    """The issue's case through ``arena travel`` with its default tolerance (the validators'):
    never slower than the table; the table's reference (a finer search) is the legal 3.000 turns
    an earlier version printed."""
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    path = tmp_path / "detour.yaml"
    save(reported_detour(), path)
    result = CliRunner().invoke(app, ["travel", str(path), "--from", "start:1", "--to", "checkpoint:A", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    [row] = [r for r in table["rows"] if r["case"] == "walls: reported detour" and r["goal"] == "checkpoint:A"]
    kept = Answer.from_json(row["answer"])
    assert kept.time is not None and Fraction(doc["time"]).limit_denominator(60) <= kept.time
    assert Answer.from_json(row["finest"]).time == 3  # the legal path the coarser search misses
    fine = CliRunner().invoke(app, ["travel", str(path), "--from", "start:1", "--to", "checkpoint:A", "--json",
                                    "--tolerance", "0.1"])
    assert json.loads(fine.stdout)["time"] == 3.0


def test_the_documented_bound_is_the_tables(table: dict[str, Any]) -> None:
    """docs/motion-model.md and docs/cli.md (``arena travel``) quote the table's measured error of the analysis
    tolerance against the finest search (regenerate with ``--finest`` and update both)."""
    worst, slower, both = bound(table)
    lacking = [(r["case"], r["source"], r["goal"]) for r in table["rows"] if "finest" not in r]
    assert not lacking, f"rows without a reference answer (run `{UPDATE} --finest-missing`): {lacking[:5]}"
    assert table["bound"] == {"worst": str(worst), "worst_turns": round(float(worst), 3), "slower": slower,
                              "compared": both}
    assert both >= 150 and slower > 0
    words = f"{slower} of {both} goals"
    for doc in ("docs/motion-model.md", "docs/cli.md"):
        text = re.sub(r"\s+", " ", (ROOT / doc).read_text(encoding="utf-8"))
        assert words in text and f"{float(worst):.3f} turn" in text, (doc, words, float(worst))
