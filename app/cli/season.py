"""``arena season check FILE`` and ``arena season standings FILE``: a season of events
(``arena-studio-season/1``, :mod:`validators.season`).

Exit codes: 0 success; 1 the season file (or an event's arena) has problems, or ``check`` found an
arena that fails; 2 usage or I/O errors, or a game without season play.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from app.cli.shared import app, fail, printable, terminal_text, working_on

if TYPE_CHECKING:  # the rest is imported when a command runs (tests/test_import_weight.py)
    from validators.season import Season

season_app = typer.Typer(name="season", help="Seasons: a series of events on arenas, and their standings.",
                         no_args_is_help=True)
app.add_typer(season_app, name="season")

_FILE = typer.Argument(help="A season file (.yaml, .yml or .json; format arena-studio-season/1).", show_default=False)


def _load(file: Path) -> Season:
    from schema.errors import ArenaIOError
    from validators.season import SeasonError, load

    working_on(file)
    try:
        season = load(file)
    except ArenaIOError as exc:
        raise fail(str(exc), 2) from None
    except SeasonError as exc:
        raise fail(str(exc), 1) from None
    for warning in season.warnings:
        typer.echo(printable(str(warning)), err=True)
    return season


@season_app.command("standings")
def standings_command(
    file: Annotated[Path, _FILE],
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON on stdout.")] = False,
) -> None:
    """The season's standings: each player's placement points, season victory points and kill
    shots after the events played so far, ranked by the game's rules."""
    from validators.season import SeasonError, standings

    season = _load(file)
    try:
        table = standings(season)
    except LookupError as exc:
        raise fail(f"{file}: {exc}", 2) from None
    except SeasonError as exc:
        raise fail(str(exc), 1) from None
    if as_json:
        json.dump(table.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    from rich.console import Console
    from rich.table import Table

    played = [e for e in season.events if e.played]
    grid = Table(title=f"{terminal_text(season.name)}: standings after {len(played)} of {len(season.events)} "
                       "event(s)", title_justify="left")
    for title in ("rank", "player", "placement points", "VP", "kill shots"):
        grid.add_column(title, justify="left" if title == "player" else "right")
    for e in played:
        grid.add_column(terminal_text(e.name) + (f" ×{e.multiplier}" if e.multiplier != 1 else ""), justify="right")
    for row in table.standings:
        cells = [f"{e.placement_points} ({'—' if e.place is None else _ordinal(e.place)})" for e in row.events]
        grid.add_row(str(row.rank), terminal_text(row.player), str(row.placement_points), str(row.victory_points),
                     str(row.kill_shots), *cells)
    out = Console(file=sys.stdout, width=max(100, 24 * (5 + len(played))))
    out.print(grid)
    if table.pending:
        out.print("to play: " + ", ".join(terminal_text(n) for n in table.pending))
    if table.ferocity():
        out.print("most kill shots (ferocity): " + ", ".join(terminal_text(p) for p in table.ferocity()))


def _ordinal(n: int) -> str:
    """>>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st']"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@season_app.command("check")
def check_command(
    file: Annotated[Path, _FILE],
    as_json: Annotated[bool, typer.Option("--json", help="Print the check as JSON on stdout.")] = False,
    root: Annotated[Optional[Path], typer.Option(  # noqa: UP045 - typer reads the annotation
        "--root", help="A folder above the season file's that its arena paths may reach (default: the season "
                       "file's own folder).", file_okay=False, exists=True)] = None,
    fail_on: Annotated[str, typer.Option("--fail-on", help="Exit 1 when an event's arena has a finding of this "
                                                           "severity or worse: error, warning or info.")] = "error",
) -> None:
    """Check a season: every event's arena validated under the event's scenario; events that
    repeat an earlier event's arena and parameters; the game's advice (a championship, the deck
    evolution format)."""
    from validators.season import check

    if fail_on not in ("error", "warning", "info"):
        raise typer.BadParameter("use error, warning or info", param_hint="--fail-on")
    season = _load(file)
    if root is not None and not file.resolve().parent.is_relative_to(root.resolve()):
        raise fail(f"--root {root} does not hold the season file {file}", 2)
    try:
        result = check(season, root=root)
    except LookupError as exc:
        raise fail(f"{file}: {exc}", 2) from None
    if as_json:
        json.dump(result.to_json(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        out = [f"{season.name} ({season.system}): {len(season.events)} event(s); deck evolution: "
               f"{season.deck_evolution or 'not given'}"]
        for n, ev in enumerate(result.events, 1):
            head = f"{n}. {ev.event.name} — {ev.event.arena}" + (f" ×{ev.event.multiplier}"
                                                                    if ev.event.multiplier != 1 else "")
            if ev.event.scenario:
                head += " — scenario " + json.dumps(dict(ev.event.scenario), ensure_ascii=False)
            if ev.report is None:
                out.append(f"{head}: cannot be validated")
                out.extend(f"   {p}" for p in ev.problems)
                continue
            counts = ev.report.counts()
            verdict = "fails" if ev.report.fails(fail_on) else "passes"
            out.append(f"{head}: {verdict} ({counts['error']} error(s), {counts['warning']} warning(s), "
                       f"{counts['info']} info)")
            out.extend(f"   {f.severity} [{f.code}]: {f.message}" for f in ev.report.findings
                       if f.severity in ("error", "warning"))
        out.extend(str(f) for f in result.findings)
        typer.echo(printable("\n".join(out), lines=True))
    if result.failed(fail_on):
        raise typer.Exit(1)
