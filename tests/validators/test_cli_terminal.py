"""``arena validate`` knows without importing rich when rich would not call stderr a terminal
(no TTY, neither ``TTY_COMPATIBLE`` nor ``FORCE_COLOR``): then no progress bar, and rich only
when the report is printed (issue 38, start-up)."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from app.cli.validate import stderr_may_be_a_terminal


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream", [io.StringIO(), _Tty()])
@pytest.mark.parametrize("environ", [{}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": ""}, {"TTY_COMPATIBLE": "1"},
                                     {"TTY_COMPATIBLE": "0"}, {"TERM": "dumb"}])
def test_false_only_where_rich_says_no_terminal(monkeypatch: pytest.MonkeyPatch, stream: io.StringIO,
                                                environ: dict[str, str]) -> None:
    monkeypatch.setattr(sys, "stderr", stream)
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TERM", "TTY_INTERACTIVE", "JUPYTER_COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    rich_says = Console(file=sys.stderr).is_terminal
    if not stderr_may_be_a_terminal():
        assert not rich_says
    assert stderr_may_be_a_terminal() == (isinstance(stream, _Tty) or bool(environ.keys() & {"FORCE_COLOR", "TTY_COMPATIBLE"}))


def test_a_stream_without_isatty_or_closed_is_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setattr(sys, "stderr", object())
    assert stderr_may_be_a_terminal() is False
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    assert stderr_may_be_a_terminal() is False


@pytest.mark.parametrize("arena", ["arenas/glider-pit-gladiators/crooked-pit-unfair.yaml",
                                   "arenas/mothership-grid/lopsided-battlefield-unfair.yaml"])
def test_a_console_without_colours_highlights_nothing_and_prints_the_same(monkeypatch: pytest.MonkeyPatch,
                                                                          arena: str) -> None:
    """The report's consoles: where they write no colours, no highlighting (whose first use
    compiles rich's repr patterns), and the very text a highlighting console prints."""
    from app.cli.validate import plain_console, print_report
    from schema import load
    from validators.run import validate

    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    report = validate(load(arena))
    plain, highlighting = io.StringIO(), io.StringIO()
    console = plain_console(file=plain)
    assert console.color_system is None and console._highlight is False
    print_report(report, console)
    print_report(report, Console(file=highlighting))
    assert plain.getvalue() == highlighting.getvalue() and "error(s)" in plain.getvalue()
    coloured = plain_console(file=_Tty(), force_terminal=True, color_system="truecolor")
    assert coloured._highlight is True  # a terminal keeps rich's highlighting
