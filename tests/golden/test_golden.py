"""Answers are unchanged by moves of code (issue 13, then issue 37: "before moving, extend
tests/golden to every shipped arena of all five games ... after the move they are
byte-identical"): the validation reports, travel answers and exports of every shipped arena equal
the golden files committed before the move."""

from __future__ import annotations

import pytest

from tests.golden.golden import DATA, outputs


@pytest.fixture(scope="module")
def now() -> dict[str, str]:
    return outputs()


def test_every_golden_file_is_made_and_nothing_else(now: dict[str, str]) -> None:
    kept = sorted(str(p.relative_to(DATA)) for p in DATA.rglob("*") if p.is_file())
    assert kept == sorted(now)


def test_outputs_match_the_golden_files_byte_for_byte(now: dict[str, str]) -> None:
    changed = [name for name, text in now.items() if (DATA / name).read_text(encoding="utf-8") != text]
    assert not changed, f"changed since the golden files were made: {changed}"


def test_golden_files_hold_real_answers() -> None:
    """The goldens are not empty or error output: reports, plans and exports."""
    import json

    report = json.loads((DATA / "validate/default.json").read_text(encoding="utf-8"))
    assert report["format"] == "arena-studio-report/1" and report["metrics"]["travel"]
    plan = json.loads((DATA / "travel/lopsided--start-2--checkpoint-A.json").read_text(encoding="utf-8"))
    assert plan["status"] == "reached" and plan["path"]
    assert (DATA / "export/default-tiled.tmx").read_text(encoding="utf-8").startswith("<?xml")
