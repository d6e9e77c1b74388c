"""``arena validate FILE...``: fairness and rule checks with a readable report.

Exit codes: 0 nothing at or above ``--fail-on`` found, 1 otherwise, 2 input errors, 4 (no
finding at ``--fail-on`` but) a verdict incomplete - a cap or search limit left something
undecided, which must never read as a pass - unless ``--allow-incomplete``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from engine.budget import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS, Caps
from app.cli.shared import EXIT_INTERNAL, app, fail, printable, terminal_text
from app.cli.validating import EXIT_INCOMPLETE as EXIT_INCOMPLETE
from app.cli.validating import STYLE as STYLE
from app.cli.validating import Consoles, validate_files
from app.cli.validating import exit_status as exit_status
from app.cli.validating import plain_console as plain_console
from app.cli.validating import print_report as print_report
from app.cli.validating import stderr_may_be_a_terminal as stderr_may_be_a_terminal
from validators.options import ANALYSIS_TOLERANCE, Options

if TYPE_CHECKING:  # the rest is imported when a command runs (tests/test_import_weight.py)
    from rich.console import Console

    from validators.run import Report


def parse_budget(text: str | None) -> int | None | str:
    """``None`` -> the arena's own budget; ``unlimited`` -> None; else a non-negative int."""
    if text is None:
        return "arena"
    if text.lower() in ("unlimited", "none", "inf"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a number or 'unlimited'") from None
    if value < 0:
        raise typer.BadParameter("the budget cannot be negative")
    return value


@app.command("validate")
def validate_cmd(
    files: Annotated[Optional[list[Path]], typer.Argument(help="Arena files, or directories (their *.yaml, *.yml, *.json files).",
                                                          show_default=False)] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the installed validators (code, games, severity, title) and exit.")] = False,
    game: Annotated[Optional[str], typer.Option("--game", help="With --list: only the validators for this game (ruleset id).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report document (a list for several files).")] = False,
    fail_on: Annotated[str, typer.Option("--fail-on", help="Exit 1 when a finding at or above this severity exists: error|warning|info.")] = "error",
    enable: Annotated[Optional[list[str]], typer.Option("--enable", help="Run only these validator codes (repeatable).")] = None,
    disable: Annotated[Optional[list[str]], typer.Option("--disable", help="Skip these validator codes (repeatable).")] = None,
    tier: Annotated[Optional[int], typer.Option("--tier", min=1, max=3, help="VP tier analysed (default: the arena's).")] = None,
    players: Annotated[Optional[int], typer.Option("--players", min=1, max=99,
                                                   help="Judge only the start set the scenario declares for this many "
                                                        "players (scenario.start_sets; default: every declared count).")] = None,
    budget: Annotated[Optional[str], typer.Option("--budget", help="Maneuver icons per turn: N or 'unlimited' (default: the arena's).")] = None,
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.001, max=1.0,
                                             help="Position tolerance of travel analysis in lengths (0.01 = the engine's exact setting; slower).")] = ANALYSIS_TOLERANCE,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Validate this many files at once, in worker processes.")] = 1,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Run on a Dask cluster: tcp://HOST:PORT of its scheduler.")] = None,
    robust: Annotated[Optional[int], typer.Option("--robustness", min=1, max=10000,
                                                  help="Tabletop robustness: validate N placements within the scenario's placement tolerance too.")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="With --robustness: the seed of the placements; with --simulate: "
                                                           "the seed of the games.")] = 0,
    simulate_games: Annotated[Optional[int], typer.Option("--simulate", min=1, max=1_000_000, metavar="N", help=(
        "Also play the arena out N times with bots (as arena simulate) and add the result to the report; its "
        "play-balance findings are warnings."))] = None,
    policy: Annotated[Optional[str], typer.Option("--policy", help="With --simulate: the bots' policy (as arena simulate).")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="With --robustness: local worker processes for the placements.")] = 2,
    show_memory: Annotated[bool, typer.Option("--memory", help="With --json: add metrics.memory, the analysis's peak resident "
                                                                "memory per process in MiB (differs run to run).")] = False,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0, envvar="ARENA_TIME_LIMIT", metavar="SECONDS",
                                              help="Stop each arena's analysis after this many seconds; the report is still "
                                                   "written, what was not decided named (0: no cap).")] = DEFAULT_SECONDS,
    memory_limit: Annotated[float, typer.Option("--memory-limit", min=0, envvar="ARENA_MEMORY_LIMIT_MIB", metavar="MIB",
                                                help="Stop each arena's analysis once its processes hold this many MiB; "
                                                     "the report is still written (0: no cap).")] = DEFAULT_MEMORY_MIB,
    allow_incomplete: Annotated[bool, typer.Option("--allow-incomplete",
                                                   help="Exit 0 on a verdict a cap or search limit left incomplete "
                                                        "(default: exit 4, never a silent pass).")] = False,
) -> None:
    """Validate arenas: each game's setup rules and fairness under its movement rules."""
    from app.paths import NoArenaFiles, expand

    if list_:
        _list(game, as_json)
    if not files:
        raise typer.BadParameter("name arena files or directories (or use --list)", param_hint="FILES")
    if fail_on not in ("error", "warning", "info"):
        raise typer.BadParameter("use error, warning or info", param_hint="--fail-on")
    bud = parse_budget(budget)
    out, err = Consoles.stdout(), Consoles.stderr()
    try:
        files = expand(files)
    except NoArenaFiles as exc:
        raise fail(str(exc)) from None
    if scheduler and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise typer.BadParameter("give the scheduler's address, e.g. tcp://10.0.0.5:8786", param_hint="--scheduler")
    limits = Caps(time_limit or None, memory_limit or None)
    options = Options(tuple(enable or ()), tuple(disable or ()), tier, bud, tolerance, limits, players)
    if robust is None and simulate_games is None and (jobs > 1 or scheduler):
        _batch(files, as_json, fail_on, options, jobs, scheduler, out(), err(), show_memory, allow_incomplete)

    def attach(report: Report, path: Path) -> None:
        if robust is not None:
            from app.cli.robustness import run_robustness

            run_robustness(report, robust, seed, options, workers, scheduler, err())
        if simulate_games is not None:
            run_simulation(report, str(path), simulate_games, seed, policy, workers, scheduler, err())

    def print_more(report: Report) -> None:
        if report.robustness is not None:
            from app.cli.robustness import print_robustness

            print_robustness(report.robustness, out())
        if report.simulation is not None:
            from app.cli.simulate import print_simulation_summary

            print_simulation_summary(report.simulation, out())

    extra = robust is not None or simulate_games is not None  # as a plain command line without them
    raise typer.Exit(validate_files(files, as_json=as_json, fail_on=fail_on, enable=enable or [], disable=disable or [],
                                    tier=tier, budget=bud, tolerance=tolerance, limits=limits, players=players,
                                    show_memory=show_memory, allow_incomplete=allow_incomplete, out=out, err=err,
                                    attach=attach if extra else None, print_more=print_more if extra else None))


def run_simulation(report: Report, source: str, games: int, seed: int, policy: str | None, workers: int,
                   scheduler: str | None, err: Console) -> None:
    """``--simulate N``: play the report's arena out (:func:`validators.simulate.attach`) into the
    report.  An arena whose game has no play engine keeps its report without it and a warning
    says so on stderr (a directory may mix games); a policy the game does not play exits 2
    naming the file."""
    from validators.game import analysis_of
    from validators.simulate import attach

    game = analysis_of(report.arena)
    if not game.has_play():
        err.print(printable(f"{source}: --simulate skipped: simulated play is not available for {game.title} yet"),
                  markup=False, highlight=False)
        return
    try:
        attach(report, games, seed, policy=policy, workers=workers, scheduler=scheduler)
    except (LookupError, ValueError) as exc:
        err.print(printable(f"{source}: --simulate: {exc}"), markup=False, highlight=False)
        raise typer.Exit(2) from None
    except (OSError, TimeoutError) as exc:
        err.print(printable(f"cannot reach the Dask scheduler {scheduler}: {exc}"), markup=False)
        raise typer.Exit(2) from None


def validator_rows(game: str | None = None) -> list[dict[str, Any]]:
    """The installed validators (for ``--game``: those for that game), in code order."""
    from validators.registry import default_registry, games_of

    registry = default_registry()
    rows = []
    for code in registry.codes():
        v = registry.get(code)
        games = games_of(v)
        if game is None or game in games:
            rows.append({"code": v.id, "games": list(games), "severity": v.severity, "title": v.title,
                         "needs_travel": bool(getattr(v, "needs_travel", False))})
    return rows


def _list(game: str | None, as_json: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    from schema.ruleset import rulesets

    if game is not None and game not in rulesets():
        raise typer.BadParameter(f"unknown game {game!r}; installed: {', '.join(rulesets())}", param_hint="--game")
    rows = validator_rows(game)
    if as_json:
        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
        raise typer.Exit(0)
    table = Table(title=f"Validators for {game}" if game else "Installed validators", title_justify="left")
    for name in ("code", "games", "severity", "title"):
        table.add_column(name)
    for r in rows:
        table.add_row(terminal_text(r["code"]), terminal_text(", ".join(r["games"])), r["severity"], terminal_text(r["title"]))
    Console(file=sys.stdout, width=200).print(table)
    raise typer.Exit(0)


def _batch(files: list[Path], as_json: bool, fail_on: str, options: Options, jobs: int, scheduler: str | None,
           out: Console, err: Console, show_memory: bool = False, allow_incomplete: bool = False) -> None:
    """The ``--jobs``/``--scheduler`` path: same output and exit codes as one file at a time."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from app.batch import validate_paths

    try:
        if err.is_terminal:
            with Progress(TextColumn("[bold]validating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=err, transient=True) as bar:
                task = bar.add_task("batch", total=len(files))
                outcomes = validate_paths(files, options, jobs=jobs, scheduler=scheduler,
                                          progress=lambda done, total: bar.update(task, completed=done))
        else:
            outcomes = validate_paths(files, options, jobs=jobs, scheduler=scheduler)
    except (OSError, TimeoutError) as exc:  # the scheduler could not be reached
        err.print(f"cannot reach the Dask scheduler {scheduler}: {exc}", markup=False)
        raise typer.Exit(2) from None
    reports: list[Report] = []
    failed = False
    for outcome in outcomes:
        if outcome.problems:
            for p in outcome.problems:
                err.print(printable(str(p)), markup=False, highlight=False)
            raise typer.Exit(2)
        if outcome.not_for_game is not None:
            err.print(printable(f"{outcome.source}: {outcome.not_for_game}"), markup=False)
            raise typer.Exit(2)
        if outcome.unknown_validator is not None:
            err.print(printable(f"unknown validator code {outcome.unknown_validator!r}"), markup=False)
            raise typer.Exit(2)
        if outcome.failure is not None:
            err.print(printable(f"arena: internal error while working on {outcome.source}: {outcome.failure} "
                                "(a bug in Arena Studio; please report it with that file)"), markup=False, highlight=False)
            raise typer.Exit(EXIT_INTERNAL)
        assert outcome.report is not None
        reports.append(outcome.report)
        failed |= outcome.report.fails(fail_on)
        if not as_json:
            print_report(outcome.report, out)
    if as_json:
        docs: Any = [r.to_json(resources=show_memory) for r in reports]
        json.dump(docs[0] if len(docs) == 1 else docs, sys.stdout, indent=2)
        sys.stdout.write("\n")
    raise typer.Exit(exit_status(reports, failed, allow_incomplete))
