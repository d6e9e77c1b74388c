"""What ``arena validate FILE...`` does without the command-line library: validate each file,
print its report (text or ``--json``), return the exit status (:func:`validate_files`).
:mod:`app.cli.validate` registers the command on the typer app, with every option; a plain
command line - files and the options of :data:`FLAGS` and :data:`VALUED` - is run by
:func:`plain` straight from :func:`app.cli.main.main`, without importing typer (about a tenth of
the interpreter's start-up floor: bench/startup.py), and anything else by typer.  Either way the
same code validates and prints, so the output and the exit status are the same.

A report printed to a file or a pipe is written without rich when rich would write the same
bytes (:func:`show_report`, :mod:`app.cli.plaintext`): a grid game's report, whose text has no
table.  rich is imported only for a terminal (colours, the progress bar) and where the text is
not plain enough to be sure of rich's output.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli import plaintext
from app.cli.guard import printable, terminal_text, working_on

if TYPE_CHECKING:  # the rest is imported when a command runs (tests/test_import_weight.py)
    from rich.console import Console

    from engine.budget import Caps
    from validators.game import TextTable
    from validators.run import Report

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
#: Exit status of a run whose findings pass ``--fail-on`` but whose verdict is incomplete.
EXIT_INCOMPLETE = 4


def exit_status(reports: list[Report], failed: bool, allow_incomplete: bool) -> int:
    """1 when a finding fails ``--fail-on``; else :data:`EXIT_INCOMPLETE` when a report's verdict
    is incomplete (unless allowed); else 0."""
    if failed:
        return 1
    return EXIT_INCOMPLETE if not allow_incomplete and any(r.incomplete for r in reports) else 0


# ------------------------------------------------------------------ consoles


class Consoles:
    """The command's rich consoles, made (and rich imported: 0.03 s of CPU) when first used: a
    validation that prints its report imports rich after the analysis - for the default
    arena or a Car Wars arena while the forked helper still searches, not before the fork -
    and one whose report and messages are written plain (:func:`show_report`, :func:`say`)
    not at all.

    A console that writes no colours (not a terminal) highlights nothing: rich's highlighter
    only adds styles, which such a console drops, and its first use compiles rich's repr
    patterns (about 5 % of the interpreter's start-up floor)."""

    @staticmethod
    def stdout() -> Callable[[], Console]:
        return Consoles._lazy(file=sys.stdout)

    @staticmethod
    def stderr() -> Callable[[], Console]:
        # a path or a message is never broken across lines
        return Consoles._lazy(file=sys.stderr, soft_wrap=True)

    @staticmethod
    def _lazy(**options: Any) -> Callable[[], Console]:
        made: list[Console] = []

        def get() -> Console:
            if not made:
                made.append(plain_console(**options))
            return made[0]

        return get


def plain_console(**options: Any) -> Console:
    """A rich console made with ``options``; one that writes no colours highlights nothing (the
    same text, without compiling rich's highlighter's patterns)."""
    from rich.console import Console

    console = Console(**options)
    if console.color_system is None and "highlight" not in options:
        console = Console(**options, highlight=False)
    return console


def stderr_may_be_a_terminal(environ: dict[str, str] | None = None) -> bool:
    """False when rich's console on stderr is surely not a terminal (``Console.is_terminal``:
    stderr is no TTY and neither ``TTY_COMPATIBLE`` nor ``FORCE_COLOR`` is set), known without
    importing rich."""
    return not plaintext.surely_no_terminal(sys.stderr, environ)


def say(err: Callable[[], Console], text: str, *, highlight: bool | None = None) -> None:
    """Print ``text`` (:func:`printable` already) as one line on stderr, as the stderr console
    prints it with ``markup=False`` - without rich where that is the text as written."""
    if sys.platform != "win32" and not stderr_may_be_a_terminal() and plaintext.shown_as_written(text):
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    else:
        err().print(text, markup=False, highlight=highlight)


# ------------------------------------------------------------------ the text report


class Line:
    """One call of the console in a text report: ``rich`` is what is given to rich (markup,
    unless ``markup`` is False), ``plain`` the text rich prints for it when every piece of
    ``user`` text in it is bare (no ``[``, no backslash: nothing markup could read), None where
    only rich knows; ``rule``: a rule with ``rich`` as its title; ``table``: a table instead."""

    __slots__ = ("end", "highlight", "markup", "plain", "rich", "rule", "table")

    def __init__(self, rich: str, plain: str | None = None, *, user: Sequence[str] = (), markup: bool | None = None,
                 highlight: bool | None = None, end: str = "\n", rule: bool = False,
                 table: TextTable | None = None) -> None:
        self.rich, self.markup, self.highlight, self.end, self.rule, self.table = rich, markup, highlight, end, rule, table
        bare = all("[" not in u and "\\" not in u for u in user)
        self.plain = (rich if markup is False else plain) if bare and table is None else None


def _tier_span(report: Report, tier: int | None) -> str:
    """``tier 3`` (or ``tiers 2-3``, the tiers judged alike) for a finding that does not hold
    in every tier judged; nothing when it does."""
    if tier is None:
        return ""
    tiers = next((t for t in report.tiers if tier in t), (tier,))
    return f"tier {tiers[0]}" if len(tiers) == 1 else f"tiers {tiers[0]}-{tiers[-1]}"


def report_lines(report: Report, escape: Callable[[object], str]) -> list[Line]:
    """The calls of the console that print ``report`` as text; ``escape`` makes user text safe
    in markup (:func:`terminal_text`; :func:`printable` where only ``plain`` is read)."""
    from validators.game import analysis

    arena = report.arena
    name, source = printable(arena.name), printable(report.source)
    game = analysis(report.system)
    headline = game.headline(report)
    lines = [Line(f"[bold]{escape(arena.name)}[/]  ({escape(report.source)})", f"{name}  ({source})",
                  user=(name, source), rule=True),
             Line(escape(headline), printable(headline), user=(printable(headline),))]
    table = game.travel_table(report)
    if table is not None:
        lines.append(Line("", table=table))
    counts = report.counts()
    for severity in ("error", "warning", "info"):
        group = [f for f in report.findings if f.severity == severity]
        if not group:
            continue
        lines.append(Line(f"\n[{STYLE[severity]}]{severity.upper()}S ({len(group)})[/]", f"\n{severity.upper()}S ({len(group)})"))
        for f in group:
            at = f" ({f.players} players)" if f.players is not None else ""
            span = _tier_span(report, f.tier)
            mark, shown = (f" \\[{span}]", f" [{span}]") if span else ("", "")  # an escaped bracket: markup would swallow it
            lines.append(Line(f"  [{STYLE[severity]}]{f.code}[/]{mark}{at}: ", f"  {f.code}{shown}{at}: ", user=(f.code,),
                              end=""))
            lines.append(Line(printable(f.message), markup=False, highlight=False))
    if report.player_counts:
        lines.append(Line("\n[bold]PLAYER COUNTS[/]", "\nPLAYER COUNTS"))
    for row in report.player_counts or ():
        lines.append(Line(printable(f"  {row['players']} players: starts {', '.join(row['elements'])} - "
                                    f"{'the whole arena' if row['whole_arena'] else str(row['findings']) + ' finding(s) of its own'}"),
                          markup=False, highlight=False))
    if report.findings:
        verdict = f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} info"
        lines.append(Line(f"\n{verdict}", f"\n{verdict}"))
    elif not report.validators:  # every validator disabled: nothing was checked, so nothing passed
        lines.append(Line("\n[yellow]nothing checked[/]: every validator was disabled (--disable or the scenario's "
                          "analysis.disabled)", "\nnothing checked: every validator was disabled (--disable or the "
                          "scenario's analysis.disabled)"))
    else:
        lines.append(Line("\n[green]no problems found[/]", "\nno problems found"))
    if report.incomplete:  # never a silent pass: say what the verdict lacks
        why = f"the analysis stopped at its {report.stopped}" if report.stopped else "some questions stayed undecided"
        lines.append(Line(f"[bold yellow]verdict incomplete[/]: {why} (see the findings above)",
                          f"verdict incomplete: {why} (see the findings above)", user=(why,), highlight=False))
    lines.append(Line("", ""))
    return lines


def print_report(report: Report, console: Console) -> None:
    """Print ``report`` as text on a rich ``console``."""
    for line in report_lines(report, terminal_text):
        if line.rule:
            console.rule(line.rich)
        elif line.table is not None:
            from app.cli.travel import rich_table

            console.print(rich_table(line.table))
        elif line.rich == "" and line.end == "\n":
            console.print()
        else:
            console.print(line.rich, markup=line.markup, highlight=line.highlight, end=line.end)


def plain_report(report: Report, width: int) -> str | None:
    """The text a rich console ``width`` cells wide that is no terminal prints for ``report``
    (:func:`print_report`), when it is sure without rich (:mod:`app.cli.plaintext`); else None."""
    out = []
    for line in report_lines(report, printable):
        text = line.plain
        if text is None or not plaintext.simple(text.replace("\n", "")):
            return None
        out.append(plaintext.rule(text, width) if line.rule else plaintext.printed(text, width, line.end))
    return "".join(out)


def show_report(report: Report, out: Callable[[], Console]) -> None:
    """Print ``report`` on stdout: written directly where that is what rich would write (no
    terminal, text plain enough: :func:`plain_report`), else on ``out``'s console."""
    width = plaintext.piped_width(sys.stdout)
    text = plain_report(report, width) if width is not None else None
    if text is None:
        print_report(report, out())
        return
    sys.stdout.write(text)
    sys.stdout.flush()


# ------------------------------------------------------------------ validating files


def analyse(arena: Any, source: str, enable: list[str], disable: list[str], tier: int | None, budget: Any,
            tolerance: float, stderr: Callable[[], Console], limits: Caps | None = None,
            players: int | None = None) -> Report:
    """One arena's report, with a progress bar on stderr when it is a terminal."""
    from validators.run import validate

    if not stderr_may_be_a_terminal() or not stderr().is_terminal:
        # no progress bar: rich is not imported before the analysis (and its helper's fork)
        return validate(arena, source=source, enable=enable, disable=disable, tier=tier, budget=budget,
                        tolerance=tolerance, parallel=True, limits=limits, players=players)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # a bar only on a terminal

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.fields[step]}"),
                  TimeElapsedColumn(), console=stderr(), transient=True) as bar:
        task = bar.add_task(terminal_text(Path(source).name), total=None, step="")

        def progress(step: str, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, step=step)

        return validate(arena, source=source, enable=enable, disable=disable, tier=tier, budget=budget,
                        tolerance=tolerance, progress=progress, parallel=True, limits=limits, players=players)


def validate_files(files: Sequence[Path], *, as_json: bool, fail_on: str, enable: list[str], disable: list[str],
                   tier: int | None, budget: Any, tolerance: float, limits: Caps, players: int | None,
                   show_memory: bool, allow_incomplete: bool, out: Callable[[], Console], err: Callable[[], Console],
                   attach: Callable[[Report, Path], None] | None = None,
                   print_more: Callable[[Report], None] | None = None) -> int:
    """Validate ``files`` one after the other, print each report (text; ``as_json``: the report
    documents once all are made) and return the exit status: 2 at the first file that cannot be
    read or names a validator that is not there (its message on stderr), else
    :func:`exit_status`.  ``attach`` adds to each report before it is printed (``--robustness``,
    ``--simulate``), ``print_more`` prints what it added after the report's text."""
    from schema import ArenaError, load
    from validators.registry import NotForGame, UnknownValidator
    from validators.run import analysis_budget

    reports: list[Report] = []
    failed = False
    for path in files:
        working_on(path)
        try:
            with analysis_budget(limits):  # the caps count from the file's reading
                try:
                    arena = load(path)
                except ArenaError as exc:
                    for p in exc.problems:
                        say(err, printable(str(p)), highlight=False)
                    return 2
                report = analyse(arena, str(path), enable, disable, tier, budget, tolerance, err, limits, players)
        except NotForGame as exc:
            say(err, printable(f"{path}: {exc}"))
            return 2
        except UnknownValidator as exc:
            say(err, printable(f"unknown validator code {exc.args[0]!r}"))
            return 2
        if attach is not None:
            attach(report, path)
        reports.append(report)
        failed |= report.fails(fail_on)
        if not as_json:
            show_report(report, out)
            if print_more is not None:
                print_more(report)
    if as_json:
        docs: Any = [r.to_json(resources=show_memory) for r in reports]
        json.dump(docs[0] if len(docs) == 1 else docs, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return exit_status(reports, failed, allow_incomplete)


# ------------------------------------------------------------------ the plain command line

#: The options a plain command line may hold without a value, and their parameters.
FLAGS = {"--json": "as_json", "--allow-incomplete": "allow_incomplete", "--memory": "show_memory"}
#: The options a plain command line may give a value (``--name VALUE`` or ``--name=VALUE``):
#: each value's form, a regular expression (anything else - a sign, an exponent, a number out of
#: range - goes to typer, which says what is wrong; compiled only when the option is given), and
#: the range the command accepts.
_DECIMAL = r"[0-9]+(\.[0-9]+)?"
VALUED: dict[str, tuple[str, str, float | None, float | None]] = {
    "--fail-on": ("fail_on", "error|warning|info", None, None),
    "--enable": ("enable", "[^-].*", None, None),
    "--disable": ("disable", "[^-].*", None, None),
    "--tier": ("tier", "[0-9]+", 1, 3),
    "--players": ("players", "[0-9]+", 1, 99),
    "--budget": ("budget", "[0-9]+|(?i:unlimited|none|inf)", None, None),
    "--tolerance": ("tolerance", _DECIMAL, 0.001, 1.0),
    "--time-limit": ("time_limit", _DECIMAL, 0, None),
    "--memory-limit": ("memory_limit", _DECIMAL, 0, None),
}
#: The options read from the environment when not given (as typer reads them).
ENVIRONMENT = {"--time-limit": "ARENA_TIME_LIMIT", "--memory-limit": "ARENA_MEMORY_LIMIT_MIB"}
_REPEATABLE = frozenset({"--enable", "--disable"})


def parse_plain(argv: Sequence[str], environ: dict[str, str] | None = None) -> dict[str, Any] | None:
    """The parameters of a plain ``arena validate`` command line (``argv`` after the program
    name), as typer would pass them; None for any other (help, another option, a value typer
    would refuse or read otherwise, ``--``, no file).

    >>> parse_plain(["validate", "a.yaml", "--json", "--enable=gp-pit"])["enable"]
    ['gp-pit']
    >>> parse_plain(["validate", "--jobs", "2", "a.yaml"]) is None
    True
    """
    from engine.budget import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS
    from validators.options import ANALYSIS_TOLERANCE

    if len(argv) < 2 or argv[0] != "validate":
        return None
    env = os.environ if environ is None else environ
    given: dict[str, list[str]] = {}
    files: list[str] = []
    flags: set[str] = set()
    words = list(argv[1:])
    while words:
        word = words.pop(0)
        if not word.startswith("-"):
            files.append(word)
            continue
        name, eq, value = word.partition("=")
        if name in FLAGS and not eq:
            flags.add(FLAGS[name])
            continue
        if name not in VALUED:
            return None  # help, another option, "-", "--"
        if not eq:
            if not words or words[0].startswith("-"):
                return None  # no value: typer says so
            value = words.pop(0)
        if name in given and name not in _REPEATABLE:
            return None  # given twice: typer keeps the last
        given.setdefault(name, []).append(value)
    for name, var in ENVIRONMENT.items():
        if name not in given and var in env:
            given[name] = [env[var]]
    if not files:
        return None
    params: dict[str, Any] = {"files": [Path(f) for f in files], "as_json": False, "allow_incomplete": False,
                              "show_memory": False, "fail_on": "error", "enable": [], "disable": [], "tier": None,
                              "players": None, "budget": "arena", "tolerance": ANALYSIS_TOLERANCE,
                              "time_limit": DEFAULT_SECONDS, "memory_limit": DEFAULT_MEMORY_MIB}
    params.update(dict.fromkeys(flags, True))
    for name, values in given.items():
        key, form, low, high = VALUED[name]
        if not all(re.fullmatch(form, v, re.S) for v in values):
            return None
        if name in _REPEATABLE:
            params[key] = values
        elif name == "--fail-on":
            params[key] = values[0]
        elif name == "--budget":
            params[key] = None if values[0].lower() in ("unlimited", "none", "inf") else int(values[0])
        else:
            number = int(values[0]) if form == "[0-9]+" else float(values[0])
            if (low is not None and number < low) or (high is not None and number > high):
                return None
            params[key] = number
    return params


def plain(argv: Sequence[str]) -> int | None:
    """Run ``arena validate`` when ``argv`` (after the program name) is a plain command line
    (:func:`parse_plain`) and return the exit status; None for any other (typer answers)."""
    params = parse_plain(argv)
    if params is None:
        return None
    from app.paths import NoArenaFiles, expand
    from engine.budget import Caps

    limits = Caps(params["time_limit"] or None, params["memory_limit"] or None)
    try:
        return validate_files(expand(params["files"]), as_json=params["as_json"], fail_on=params["fail_on"],
                              enable=params["enable"], disable=params["disable"], tier=params["tier"],
                              budget=params["budget"], tolerance=params["tolerance"], limits=limits,
                              players=params["players"], show_memory=params["show_memory"],
                              allow_incomplete=params["allow_incomplete"], out=Consoles.stdout(), err=Consoles.stderr())
    except NoArenaFiles as exc:  # as typer's command says it (app.cli.shared.fail)
        say(Consoles.stderr(), printable(f"error: {exc}"), highlight=False)
        return 2
    except KeyboardInterrupt:
        return 130  # as typer: Ctrl-C exits 130
    except OSError as exc:  # as typer: the reader went away (`arena validate ... | head`) exits 1
        if exc.errno != errno.EPIPE:
            raise
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces stdout for the exit
        except OSError:
            pass
        return 1
