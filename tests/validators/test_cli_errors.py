"""Issue 16, items 1, 3 and 7 on the command line: user text is printed as written (never as rich
markup or terminal control sequences), and an unexpected error ends as one line naming the file,
with its own exit status (3) — not 1, which means "the input has problems"."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from schema import loads
from app import batch
from app.cli.shared import EXIT_INTERNAL, terminal_text
from app.cli.validate import print_report
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
HEAD = "format: arena-studio/1\nsystem: gravstrike\n"


def arena_file(tmp_path: Path, name: str, body: str = "") -> Path:
    path = tmp_path / "arena.yaml"
    path.write_text(HEAD + f"name: {name}\n" + body, encoding="utf-8")
    return path


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from app.cli.main import main; main()", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_markup_in_a_name_no_longer_crashes_validate(tmp_path: Path) -> None:
    path = arena_file(tmp_path, '"Fair [/] arena"')
    r = run_cli("validate", str(path), "--enable", "bounds")
    assert r.returncode == 0, r.stderr
    assert "Fair [/] arena" in r.stdout and "Traceback" not in r.stderr


def render(name: str, source: str = "arena.yaml") -> str:
    report = validate(loads(HEAD + f"name: {name}\n"), source=source, enable=["bounds"])
    out = io.StringIO()
    print_report(report, Console(file=out, force_terminal=True, width=200, color_system="truecolor"))
    text = out.getvalue()
    assert "\x1b]8;" not in text  # no terminal hyperlink (OSC 8) was made
    return re.sub(r"\x1b\[[0-9;]*m", "", text)  # colours off: what a reader sees


def test_markup_is_shown_not_rendered() -> None:
    text = render('"[link=file:///etc/passwd]click[/link] [bold red]X"', source="[red]file.yaml")
    assert "[link=file:///etc/passwd]click[/link] [bold red]X" in text
    assert "[red]file.yaml" in text


def test_control_characters_are_shown_escaped() -> None:
    text = render('"clear \\e[2J and\\nnewline \\a"')
    assert "clear \\x1b[2J and\\x0anewline \\x07" in text
    assert "\x1b" not in text and "\x07" not in text


def test_terminal_text() -> None:
    assert terminal_text("Fair [/] arena") == "Fair \\[/] arena"
    assert terminal_text("a\x1bb\x9bc\td") == "a\\x1bb\\x9bc\\x09d"
    assert terminal_text("plain (ok)") == "plain (ok)"


def test_no_free_floor_validates_on_the_command_line(tmp_path: Path) -> None:
    # item 3 through the CLI: a wall equal to the bounds crashed safe-areas
    path = arena_file(tmp_path, "No floor", "bounds: {type: rect, center: [0, 0], size: [10, 10]}\n"
                                            "walls:\n  - {id: W1, shape: {type: rect, center: [0, 0], size: [10, 10]}}\n")
    r = run_cli("validate", str(path), "--enable", "safe-areas", "--enable", "bounds", "--json")
    assert r.returncode == 0, r.stderr
    assert '"samples": 0' in r.stdout


# -- item 7: an unexpected error -> one line naming the file, exit status 3


def main_with(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from app.cli.main import main

    old = sys.argv
    sys.argv = ["arena", *argv]
    try:
        with pytest.raises(SystemExit) as exit_info:
            main()
    finally:
        sys.argv = old
    return int(exit_info.value.code or 0), capsys.readouterr().err


def boom(*args: object, **kwargs: object) -> None:
    raise ValueError("arange: cannot compute length")


def test_unexpected_error_in_validate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    import app.cli.validating as cli_validating

    path = arena_file(tmp_path, "Fine")
    monkeypatch.setattr(cli_validating, "analyse", boom)  # a plain command line's and typer's
    code, err = main_with(["validate", str(path)], capsys)
    assert code == EXIT_INTERNAL == 3
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert str(path) in lines[0] and "ValueError: arange: cannot compute length" in lines[0]


def test_unexpected_error_in_check_names_the_file_being_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    import schema

    good = arena_file(tmp_path, "Fine")
    other = tmp_path / "other.yaml"
    other.write_text(good.read_text())
    calls: list[Path] = []

    def load_second_fails(path: Path) -> object:
        calls.append(path)
        if len(calls) == 2:
            raise RecursionError("maximum recursion depth exceeded")
        return None

    monkeypatch.setattr(schema, "load", load_second_fails)  # arena check imports it when it runs
    code, err = main_with(["check", str(good), str(other)], capsys)
    assert code == 3 and len(err.strip().splitlines()) == 1
    assert f"working on {other}:" in err and "RecursionError" in err


def test_debug_environment_shows_the_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    import app.cli.validating as cli_validating

    monkeypatch.setattr(cli_validating, "analyse", boom)
    monkeypatch.setenv("ARENA_DEBUG", "1")
    code, err = main_with(["validate", str(arena_file(tmp_path, "Fine"))], capsys)
    assert code == 3 and "Traceback" in err


def test_batch_outcome_carries_a_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = arena_file(tmp_path, "Fine")
    monkeypatch.setattr(batch, "validate", boom)
    source, raw, problems = batch.read(path)
    outcome = batch.validate_one(source, raw, problems, batch.Options())
    assert outcome.failure == "ValueError: arange: cannot compute length" and outcome.report is None

    monkeypatch.setattr(batch, "validate_paths", lambda *a, **k: [outcome])  # arena validate -j imports it
    code, err = main_with(["validate", str(path), "--jobs", "2"], capsys)
    assert code == 3 and str(path) in err and "ValueError" in err


# -- issue 36 item 13: bidi controls and other format characters were printed raw

#: Format characters (Unicode category Cf) and separators a name or key may hold: bidi embeddings,
#: overrides and isolates (U+202A-E, U+2066-9), marks (U+200E/F), zero-width ones, a BOM, a tag.
HIDDEN = "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u200d\u2060\ufeff\u061c\U000e0041\u2028"


def test_format_characters_in_a_name_are_shown_escaped() -> None:
    text = render('"Fair \\u202eanera\\u2066 \\U000e0041"', source="ar\u202eena.yaml")
    assert "Fair \\u202eanera\\u2066 \\U000e0041" in text and "ar\\u202eena.yaml" in text
    assert not any(c in text for c in HIDDEN)


def test_printable_escapes_every_format_character() -> None:
    from app.cli.shared import printable

    shown = printable("a" + HIDDEN + "b")
    assert not any(c in shown for c in HIDDEN) and shown.startswith("a\\u202e\\u202a") and shown.endswith("\\u2028b")
    assert "\\U000e0041" in shown and printable("café 🚀 e\u0301 \u00a0") == "café 🚀 e\u0301 \u00a0"  # letters stay


def test_check_and_fail_messages_show_format_characters_escaped(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = arena_file(tmp_path, "Fine", "col\u202eruo: red\n")  # reads "colour" reversed on a terminal
    code, err = main_with(["check", str(path)], capsys)
    assert code == 1 and "/col\\u202eruo: unknown property" in err and "\u202e" not in err
    code, err = main_with(["travel", str(path), "--from", "start:1", "--to", "checkpoint:A"], capsys)
    assert code == 2 and "\\u202e" in err and "\u202e" not in err
    from app.cli.shared import fail

    fail("two lines:\nthe second \u2067here")
    assert capsys.readouterr().err == "error: two lines:\nthe second \\u2067here\n"


def test_every_validator_disabled_says_nothing_was_checked_not_no_problems() -> None:
    """``--disable`` of every code a game has: the report said "no problems found" over 0
    validators, a pass that checked nothing. Now it says nothing was checked; with one left on,
    the usual verdict."""
    from validators.registry import default_registry

    codes = sorted(v.id for v in default_registry().select([], [], game="mothership-grid"))
    off = [a for c in codes for a in ("--disable", c)]
    r = run_cli("validate", *off, "arenas/mothership-grid/battlefield-3x5.yaml")
    assert r.returncode == 0, r.stderr
    assert "0 validators" in r.stdout and "nothing checked: every validator was disabled" in r.stdout
    assert "no problems found" not in r.stdout
    r = run_cli("validate", *off[:-2], "arenas/mothership-grid/battlefield-3x5.yaml")
    assert "· 1 validator\n" in r.stdout
    assert "nothing checked" not in r.stdout
