"""``arena validate``'s text written without rich (issue 38, start-up): :mod:`app.cli.plaintext`
and :func:`app.cli.validating.plain_report` give rich's very bytes - checked against rich itself
on the shipped grid arenas' reports at several widths, on reports made hostile (markup, emoji
codes, wide and control characters, long names and words), and on random text - or give None,
and rich prints."""

from __future__ import annotations

import dataclasses
import io
import random
import sys
from pathlib import Path

import pytest
from rich.console import Console

from app.cli import plaintext
from app.cli.validating import plain_report, print_report, say
from schema import load, loads
from validators.run import Report, validate

ROOT = Path(__file__).resolve().parents[2]
GRID_ARENAS = sorted(str(p.relative_to(ROOT)) for d in ("glider-pit-gladiators", "mothership-grid")
                     for p in (ROOT / "arenas" / d).glob("*.yaml"))
WIDTHS = (20, 37, 80, 133)


@pytest.fixture(autouse=True)
def _no_forced_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def rich_report(report: Report, width: int) -> str:
    out = io.StringIO()
    print_report(report, Console(file=out, width=width))
    return out.getvalue()


@pytest.fixture(scope="module")
def reports() -> dict[str, Report]:
    return {a: validate(load(ROOT / a), source=a) for a in GRID_ARENAS}


def test_every_shipped_grid_report_is_written_plain_as_rich_writes_it(reports: dict[str, Report]) -> None:
    assert len(reports) == 4
    for arena, report in reports.items():
        for width in WIDTHS:
            text = plain_report(report, width)
            assert text is not None, (arena, width)  # the start-up's path: no rich
            assert text == rich_report(report, width), (arena, width)


def _finding(report: Report, **changes: object) -> Report:
    return dataclasses.replace(report, findings=[dataclasses.replace(f, **changes) for f in report.findings])  # type: ignore[arg-type]


HOSTILE = {  # a report changed so; whether it is still written plain
    "tiers": (lambda r: dataclasses.replace(_finding(r, tier=2), tiers=[(1,), (2, 3)]), True),
    "players": (lambda r: _finding(r, players=4), True),
    "player counts": (lambda r: dataclasses.replace(r, player_counts=[
        {"players": 2, "elements": ["Z1", "Z4"], "whole_arena": False, "findings": 3},
        {"players": 6, "elements": ["Z1", "Z2", "Z3", "Z4", "Z5", "Z6"], "whole_arena": True, "findings": 0}]), True),
    "stopped": (lambda r: dataclasses.replace(r, stopped="time limit"), True),
    "long source": (lambda r: dataclasses.replace(r, source="arenas/" + "very-long-folder/" * 12 + "pit.yaml"), True),
    "long word": (lambda r: _finding(r, message="x" * 300 + " and   spaced    words  " + "y" * 90), True),
    "no findings": (lambda r: dataclasses.replace(r, findings=[]), True),
    "markup in the source": (lambda r: dataclasses.replace(r, source="[red]pit.yaml"), False),
    "backslash in the source": (lambda r: dataclasses.replace(r, source="C:\\pits\\"), False),
    "markup in a code": (lambda r: _finding(r, code="gp-[bold]x"), False),
    "emoji code": (lambda r: _finding(r, message="a :smile: here"), False),
    "wide characters": (lambda r: _finding(r, message="漢字 " * 40), False),
    "control characters": (lambda r: _finding(r, message="bell \x07 and \x1b[2J"), True),  # printable() escapes them
    "bidi override": (lambda r: _finding(r, message="zone \u202eZ1"), True),
    "bidi override in the source": (lambda r: dataclasses.replace(r, source="pit\u202e.yaml"), False),  # escaped: "\u202e"
    "markup in a message": (lambda r: _finding(r, message="[bold]not bold[/] \\[x]"), True),  # printed without markup
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_changed_report_is_written_plain_only_as_rich_writes_it(reports: dict[str, Report], case: str) -> None:
    change, plain = HOSTILE[case]
    report = change(reports["arenas/glider-pit-gladiators/crooked-pit-unfair.yaml"])
    for width in WIDTHS:
        text = plain_report(report, width)
        assert (text is not None) == plain, width
        if text is not None:
            assert text == rich_report(report, width), width


@pytest.mark.parametrize("name", ["Pit [/] of doom", "Pit of :smile: doom", "Pit of " + "doom " * 30, "Pit \\", "Pit · ×"])
def test_an_arena_name_is_written_plain_only_as_rich_writes_it(name: str) -> None:
    text = (ROOT / "arenas/mothership-grid/battlefield-3x5.yaml").read_text(encoding="utf-8")
    lines = [f"name: {name!r}" if ln.startswith("name:") else ln for ln in text.splitlines()]
    report = validate(loads("\n".join(lines) + "\n"), source="bf.yaml")
    for width in WIDTHS:
        plain = plain_report(report, width)
        assert (plain is not None) == ("[" not in name and "\\" not in name and ":" not in name), width
        if plain is not None:
            assert plain == rich_report(report, width)


# -- the pieces, on made-up text

ALPHABET = "abcdefghij XYZ 0123 .,;-()'\"/ ·×\u00a0αβ─  "


def rich_print(text: str, width: int, end: str = "\n") -> str:
    out = io.StringIO()
    Console(file=out, width=width).print(text, markup=False, end=end)
    return out.getvalue()


def test_wrapping_random_text_as_rich_does() -> None:
    rng = random.Random(38)
    checked = 0
    for _ in range(600):
        width = rng.randint(plaintext.MIN_WIDTH, 90)
        words = ["".join(rng.choice(ALPHABET) for _ in range(rng.choice((1, 3, 8, 15, width - 1, width, width + 3, 2 * width))))
                 for _ in range(rng.randint(0, 25))]
        text = rng.choice((" ", "  ", " \u00a0", ": ")).join(words)
        if not plaintext.simple(text):
            continue
        checked += 1
        end = rng.choice(("\n", ""))
        assert plaintext.printed(text, width, end) == rich_print(text, width, end), (text, width)
    assert checked > 400


def test_a_rule_as_rich_draws_it() -> None:
    for width in range(plaintext.MIN_WIDTH, 90, 7):
        for length in range(1, width + 12):
            title = ("ab cd·" * 40)[:length]
            out = io.StringIO()
            Console(file=out, width=width).rule(title)
            assert plaintext.rule(title, width) == out.getvalue(), (width, length)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("environ", [{}, {"COLUMNS": "100"}, {"COLUMNS": "abc"}, {"COLUMNS": "0"}, {"COLUMNS": "15"},
                                     {"COLUMNS": "300", "LINES": "10"}, {"FORCE_COLOR": ""}, {"TTY_COMPATIBLE": "0"}])
def test_the_width_is_riches_or_none(environ: dict[str, str]) -> None:
    stream = io.StringIO()
    width = plaintext.piped_width(stream, environ)
    assert width is None or width == Console(file=stream, _environ=environ).width
    if not environ:
        assert width is not None


def test_no_width_for_a_terminal_or_another_encoding() -> None:
    assert plaintext.piped_width(_Tty(), {}) is None
    assert plaintext.piped_width(io.StringIO(), {"FORCE_COLOR": "1"}) is None
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert plaintext.piped_width(latin, {}) is None  # rich draws its rules in ASCII there


@pytest.mark.parametrize("text", ["bad.yaml:3:5: /pit: 7 is not of type 'array'", "unknown validator code 'x'",
                                  "a :smile: b", "tab\there", "pit\u202e.yaml", "[red]x[/] " * 30])
def test_a_message_on_stderr_as_rich_prints_it(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    out, rich_out = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", out)
    made: list[Console] = []

    def err() -> Console:  # the console say() falls back on
        made.append(Console(file=out, soft_wrap=True, highlight=False))
        return made[-1]

    say(err, text, highlight=False)
    Console(file=rich_out, soft_wrap=True, highlight=False).print(text, markup=False, highlight=False)
    assert out.getvalue() == rich_out.getvalue()
    assert bool(made) == (not plaintext.shown_as_written(text))
