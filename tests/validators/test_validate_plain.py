"""``arena validate``'s plain command line (issue 38, start-up): files and the common options are
run without typer (:func:`app.cli.validating.plain`), with the parameters typer would pass, the
same output and the same exit status; anything else - help, another option, a value typer would
refuse - falls back to typer."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import app.cli.validate as cli_validate
import app.cli.validating as validating
from app.cli.main import load_commands
from app.cli.shared import app

ROOT = Path(__file__).resolve().parents[2]
PIT = "arenas/glider-pit-gladiators/crooked-pit-unfair.yaml"
BATTLEFIELD = "arenas/mothership-grid/battlefield-3x5.yaml"
runner = CliRunner()
load_commands(["validate"])

#: Command lines (after ``arena``) both ways accept.
PLAIN = [
    ["validate", PIT],
    ["validate", "--json", PIT, BATTLEFIELD],
    ["validate", PIT, "--fail-on", "warning", "--allow-incomplete", "--memory"],
    ["validate", "--enable", "gp-pit", PIT, "--enable=gp-rows", "--disable", "gp-floor"],
    ["validate", PIT, "--tier", "2", "--players", "6", "--budget", "UNLIMITED", "--tolerance", "0.5"],
    ["validate", PIT, "--budget=3", "--time-limit", "2.5", "--memory-limit=0"],
    ["validate", "arenas/mothership-grid"],
]
#: Command lines the plain path leaves to typer.
TYPER = [
    ["validate"], ["validate", "--help"], ["validate", "--list"], ["validate", PIT, "--jobs", "1"], ["validate", PIT, "-j", "1"],
    ["validate", PIT, "--seed", "0"], ["validate", PIT, "--tier", "5"], ["validate", PIT, "--tier", "+2"],
    ["validate", PIT, "--tier", "2", "--tier", "3"], ["validate", PIT, "--tolerance", "0"], ["validate", PIT, "--fail-on"],
    ["validate", PIT, "--fail-on", "fatal"], ["validate", PIT, "--enable", "-x"], ["validate", PIT, "--json=1"],
    ["validate", PIT, "--"], ["validate", "-", PIT], ["validate", PIT, "--budget", "-1"], ["validate", PIT, "--time-limit", "1e3"],
    ["check", PIT], ["--help"],
]


def recorded(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def record(files: list[Path], **kwargs: Any) -> int:
        calls.append({"files": list(files), **{k: v for k, v in kwargs.items()
                                              if k not in ("out", "err", "attach", "print_more")}})
        return 0

    monkeypatch.setattr(module, "validate_files", record)
    return calls


@pytest.mark.parametrize("argv", PLAIN)
def test_a_plain_command_line_gets_what_typer_passes(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    monkeypatch.chdir(ROOT)
    for name in validating.ENVIRONMENT.values():
        monkeypatch.delenv(name, raising=False)
    by_typer, plain = recorded(monkeypatch, cli_validate), recorded(monkeypatch, validating)
    assert runner.invoke(app, argv).exit_code == 0
    assert validating.plain(argv) == 0
    assert len(by_typer) == len(plain) == 1 and plain == by_typer


def test_the_limits_from_the_environment_as_typer_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("ARENA_TIME_LIMIT", "7")
    monkeypatch.setenv("ARENA_MEMORY_LIMIT_MIB", "300.5")
    by_typer, plain = recorded(monkeypatch, cli_validate), recorded(monkeypatch, validating)
    assert runner.invoke(app, ["validate", PIT]).exit_code == 0 and validating.plain(["validate", PIT]) == 0
    assert plain == by_typer and plain[0]["limits"].describe() == "7 s, 300.5 MiB"
    assert validating.parse_plain(["validate", PIT, "--time-limit", "1"])["time_limit"] == 1.0  # the option wins
    monkeypatch.setenv("ARENA_TIME_LIMIT", "soon")
    assert validating.parse_plain(["validate", PIT]) is None  # typer says what is wrong


@pytest.mark.parametrize("argv", TYPER)
def test_any_other_command_line_is_left_to_typer(argv: list[str]) -> None:
    assert validating.parse_plain(argv) is None


def test_ctrl_c_and_a_closed_pipe_exit_as_under_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for error, status in ((KeyboardInterrupt(), 130), (BrokenPipeError(errno.EPIPE, "Broken pipe"), 1)):
        def fail(*args: object, **kwargs: object) -> int:
            raise error

        monkeypatch.setattr(validating, "validate_files", fail)
        monkeypatch.setattr(cli_validate, "validate_files", fail)
        monkeypatch.setattr(sys, "stdout", sys.stdout)  # plain() replaces it after a closed pipe
        assert validating.plain(["validate", PIT]) == status
        monkeypatch.setattr(sys, "stdout", sys.stdout)
        with pytest.raises(SystemExit) as typer_exit:
            app(["validate", PIT], standalone_mode=True)
        assert typer_exit.value.code == status


def arena(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE")}
    return subprocess.run([sys.executable, "-c", "from app.cli.main import main; main()", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**environ, **(env or {})})


@pytest.mark.parametrize("args", [[PIT], [BATTLEFIELD, "--json"], [PIT, "--enable", "mg-size"], [PIT, "--enable", "nope"],
                                  ["no-such.yaml"], [BATTLEFIELD, "arenas/glider-pit-gladiators/hexagonal-pit.yaml"]])
def test_the_same_output_and_status_either_way(args: list[str], tmp_path: Path) -> None:
    """``--seed 0`` (the default; only read with --robustness or --simulate) sends the same
    command line to typer."""
    plain, by_typer = arena("validate", *args, env={"COLUMNS": "72"}), arena("validate", *args, "--seed", "0",
                                                                           env={"COLUMNS": "72"})
    assert (plain.returncode, plain.stdout, plain.stderr) == (by_typer.returncode, by_typer.stdout, by_typer.stderr)
    assert "Traceback" not in plain.stderr


def test_a_bad_file_is_named_with_its_line_and_pointer_either_way(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: arena-studio/1\nsystem: glider-pit-gladiators\nname: Bad\npit: 7\n", encoding="utf-8")
    plain, by_typer = arena("validate", str(bad)), arena("validate", str(bad), "--seed", "0")
    assert plain.returncode == by_typer.returncode == 2 and plain.stderr == by_typer.stderr and plain.stdout == ""
    assert plain.stderr.startswith(f"{bad}:") and "/pit" in plain.stderr and "Traceback" not in plain.stderr


def test_help_and_usage_errors_are_typers() -> None:
    r = arena("validate", "--help")
    assert r.returncode == 0 and "--fail-on" in r.stdout and "--robustness" in r.stdout
    r = arena("validate", PIT, "--tier", "5")
    assert r.returncode == 2 and "--tier" in r.stderr and "Traceback" not in r.stderr
    r = arena("validate")
    assert r.returncode == 2 and "name arena files" in r.stderr
