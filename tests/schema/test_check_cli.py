"""`arena check`: exit codes 0 (all valid), 1 (some invalid), 2 (usage or I/O errors)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from app.cli.main import load_commands
from app.cli.shared import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
load_commands()

BAD = "format: arena-studio/1\nsystem: gravstrike\nname: Bad\nwalls:\n  - id: W1\n    shape: {type: circle, center: [0, 0], radius: -1}\n"


def test_valid_files_exit_0() -> None:
    files = [str(p) for p in sorted((ROOT / "arenas").rglob("*.yaml"))]
    result = runner.invoke(app, ["check", *files])
    assert result.exit_code == 0, result.output
    assert f"{len(files)} of {len(files)} file(s) valid" in result.output


def test_invalid_file_exits_1_with_located_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    result = runner.invoke(app, ["check", str(ROOT / "arenas" / "default.yaml"), str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:6:51: /walls/0/shape/radius: -1 is less than the minimum of 0.001" in result.output


def test_json_output_lists_problems(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    result = runner.invoke(app, ["check", "--json", str(bad)])
    assert result.exit_code == 1
    problems = json.loads(result.stdout)
    assert problems == [{"file": str(bad), "line": 6, "column": 51, "pointer": "/walls/0/shape/radius",
                         "message": "-1 is less than the minimum of 0.001"}]


def test_json_output_is_empty_list_when_valid() -> None:
    result = runner.invoke(app, ["check", "--json", str(ROOT / "arenas" / "default.yaml")])
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2
    assert "cannot read file" in result.output


def test_usage_error_exits_2() -> None:
    assert runner.invoke(app, ["check"]).exit_code == 2
    assert runner.invoke(app, ["check", "--bogus", "x.yaml"]).exit_code == 2


def test_console_script_runs() -> None:
    exe = Path(sys.executable).with_name("arena")
    result = subprocess.run([str(exe), "check", str(ROOT / "arenas" / "default.yaml")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_summary_goes_to_stdout_and_problems_to_stderr(tmp_path: Path) -> None:
    """Issue 18, point 11: ``arena check a.yaml > report.txt`` keeps the summary."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    exe = Path(sys.executable).with_name("arena")
    result = subprocess.run([str(exe), "check", str(ROOT / "arenas" / "default.yaml"), str(bad)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stdout.strip() == "1 of 2 file(s) valid; 1 problem(s) in 1 file(s)"
    assert "/walls/0/shape/radius" in result.stderr and "file(s) valid" not in result.stderr


#: The typer app run as app.cli.main runs it, without the plain command line's shortcut.
_TYPER = ("import sys; from app.cli.main import load_commands; from app.cli.shared import app, run_guarded; "
          "load_commands(sys.argv[1:]); run_guarded(app)")
_PLAIN = "from app.cli.main import main; main()"


def _run(code: str, args: list[str]) -> tuple[int, str, str]:
    r = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def test_a_plain_command_line_is_answered_without_typer_as_typer_answers_it(tmp_path: Path) -> None:
    """``arena check FILE... [--json]`` runs app.cli.checking.plain (no typer imported: issue 38,
    start-up); its exit status, stdout and stderr are the typer command's."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD)
    odd = tmp_path / "odd\x1b[2J\u202ename.yaml"  # a name printed escaped
    odd.write_text(BAD)
    default = str(ROOT / "arenas" / "default.yaml")
    lines = [["check", default], ["check", default, str(bad)], ["check", str(bad), str(tmp_path / "nope.yaml")],
             ["check", str(tmp_path)], ["check", "--json", str(bad)], ["check", default, "--json"],
             ["check", str(odd), default], ["check", "--json", str(odd), "--json"]]
    for args in lines:
        plain = _run(_PLAIN, args)
        assert plain == _run(_TYPER, args), args
        assert plain[0] in (0, 1, 2) and (plain[1] or plain[2])
    assert "\\x1b[2J\\u202ename.yaml" in _run(_PLAIN, ["check", str(odd)])[2]


def test_other_command_lines_go_to_typer() -> None:
    from app.cli.checking import plain

    for args in (["check"], ["check", "--help"], ["check", "--", "a.yaml"], ["check", "-x", "a.yaml"],
                 ["validate", "a.yaml"], ["check", "--json"], []):
        assert plain(args) is None


def test_help_gives_each_summary_and_paragraph_as_one_line_not_broken_mid_sentence() -> None:
    """``arena --help`` on a wide terminal: every command's summary on one line, in full - typer
    kept the docstrings' line breaks, so travel's, balance's, generate's and simulate's were cut
    mid-sentence onto several lines; each command's own --help is unchanged."""
    arena = str(Path(sys.executable).with_name("arena"))
    env = {**os.environ, "COLUMNS": "400", "TERM": "dumb"}
    listing = subprocess.run([arena, "--help"], capture_output=True, text=True, env=env, check=True).stdout
    rows = [line.strip("│ ").split(None, 1) for line in listing.splitlines() if line.startswith("│ ")]
    summaries = {r[0]: r[1].strip() for r in rows if len(r) == 2}
    assert summaries["travel"].startswith("Least time from a source to a goal") and summaries["travel"].endswith("fewest AP (Mothership).")
    assert summaries["simulate"].endswith("than a fair share.")
    assert all(s.endswith((".", ")")) for s in summaries.values()), summaries
    own = subprocess.run([arena, "travel", "--help"], capture_output=True, text=True, env=env, check=True).stdout
    assert "Least time from a source to a goal" in own
    # a command's own page: its paragraphs wrap at the terminal's width, not at the docstring's
    page = subprocess.run([arena, "export", "--help"], capture_output=True, text=True, env=env, check=True).stdout
    assert "svg: picture via the installed renderer." in page
