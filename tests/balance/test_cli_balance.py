"""``arena balance FILE -o FIXED``: the fixed arena written atomically, the edits in words and the
before/after tables; clear errors (exit 2) for bad input; exit 1 when a finding stays."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from schema import load, save
from app.cli.main import load_commands
from app.cli.shared import app
from validators.run import validate
from engine.gravstrike.invariance import invariances

from .arenas import mirrored_by_walls

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str):  # noqa: ANN202
    load_commands()
    return CliRunner().invoke(app, ["balance", *args])


def test_end_to_end_writes_the_fixed_arena_and_says_what_moved(tmp_path: Path) -> None:
    src, out = tmp_path / "pillars.yaml", tmp_path / "fixed.yaml"
    save(mirrored_by_walls(), src)
    result = _run(str(src), "-o", str(out), "--code", "overlap")
    assert result.exit_code == 0, result.output
    assert "move checkpoint A by" in result.stdout and "away from wall W1" in result.stdout
    assert "Findings before and after" in result.stdout and "gone" in result.stdout
    fixed = load(out)
    assert not [f for f in validate(fixed).findings if f.code == "overlap"]
    assert len(invariances(fixed)) == 1
    assert load(src) == mirrored_by_walls()  # the input is untouched
    doc = json.loads(_run(str(src), "-o", str(tmp_path / "again.json"), "--code", "overlap", "--json").stdout)
    assert [f["status"] for f in doc["fixes"]] == ["fixed", "fixed"]
    assert doc["edits"][0]["element"] == "A" and doc["edits"][0]["images"] == ["B"]
    assert doc["output"].endswith("again.json") and load(tmp_path / "again.json") == fixed
    assert {f["code"] for f in doc["before"]} - {f["code"] for f in doc["after"]} == {"overlap"}


def test_a_finding_nothing_free_can_fix_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    src, out = tmp_path / "pillars.yaml", tmp_path / "fixed.yaml"
    save(mirrored_by_walls(), src)
    result = _run(str(src), "-o", str(out), "--code", "overlap", "--free", "starts")
    assert result.exit_code == 1
    assert "nothing to move" in result.stdout and "not written" in result.stdout and not out.exists()


def test_an_exhausted_budget_says_so(tmp_path: Path) -> None:
    src = tmp_path / "pillars.yaml"
    save(mirrored_by_walls(), src)
    result = _run(str(src), "-o", str(tmp_path / "f.yaml"), "--code", "overlap", "--budget", "0")
    assert result.exit_code == 1
    assert "budget ran out" in result.stdout and "stopped early" in result.stdout


def test_bad_input_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    src = tmp_path / "pillars.yaml"
    save(mirrored_by_walls(), src)
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: arena-studio/1\nsystem: gravstrike\nname: [unclosed\n", encoding="utf-8")
    cases = [
        ([str(broken), "-o", str(tmp_path / "o.yaml")], "broken.yaml:"),
        ([str(tmp_path / "missing.yaml"), "-o", str(tmp_path / "o.yaml")], "missing.yaml"),
        ([str(src), "-o", str(src)], "refusing to overwrite it"),
        ([str(src), "-o", str(tmp_path / "o.yaml"), "--free", "starts,pillars"], "pillars: the kinds that may move"),
        ([str(src), "-o", str(tmp_path / "o.yaml"), "--code", "nope"], "is not a validator of gravstrike"),
        ([str(src), "-o", str(tmp_path / "o.yaml"), "--severity", "fatal"], "use error, warning or info"),
    ]
    from schema.ruleset import rulesets
    from validators.game import analysis

    without = [rs for rs in rulesets().values() if not _has_balance(analysis(rs.id))]  # a game without fixes yet
    if without:
        save(without[0].default_arena(), tmp_path / "other.yaml")
        cases.append(([str(tmp_path / "other.yaml"), "-o", str(tmp_path / "o.yaml")], "proposed fixes are not available for"))
    for args, words in cases:
        result = _run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert words in re.sub(r"[│╭╮╰╯─\s]+", " ", result.output), args
        assert "Traceback" not in result.output
    assert not (tmp_path / "o.yaml").exists()


def _has_balance(game: object) -> bool:
    try:
        game.balance_hook()  # type: ignore[attr-defined]
    except LookupError:
        return False
    return True


def test_findings_that_read_alike_and_came_out_alike_are_one_line_with_their_count() -> None:
    """Arena Rex's kill band is one finding per base size and push count on the same two zones:
    the shipped lopsided pit printed "no fix found ar-kill-band (deploy:2, deploy:1): ..." six
    times over. Now once, with the count; a finding naming no element has no empty brackets."""
    import io

    from rich.console import Console

    from app.cli.balance import print_proposal
    from validators.balance import Fix, Proposal
    from validators.findings import Finding

    arena = load(ROOT / "arenas" / "arena-rex" / "lopsided-pit.yaml")
    report = validate(arena, enable=["ar-board-size"])
    note = "no move of up to 8 in removes it without a new error"
    band = [Fix(Finding("ar-kill-band", "warning", f"band {i}", ("deploy:2", "deploy:1")), "no-fix", note=note)
            for i in range(6)]
    other = Fix(Finding("ar-kill-band", "warning", "band", ("deploy:1", "deploy:2")), "no-fix", note=note)
    mix = Fix(Finding("ar-hazard-mix", "info", "mix", ()), "no-move", note="nothing may move")
    out = io.StringIO()
    print_proposal(Proposal(arena, report, report, [*band, other, mix], "in", 30.0), "a.yaml", "b.yaml",
                   Console(file=out, width=400, color_system=None))
    lines = out.getvalue().splitlines()
    assert lines[:3] == [f"no fix found ar-kill-band (deploy:2, deploy:1), 6 findings alike: {note}",
                         f"no fix found ar-kill-band (deploy:1, deploy:2): {note}",
                         "nothing to move ar-hazard-mix: nothing may move"]
