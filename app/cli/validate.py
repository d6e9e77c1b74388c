"""``arena validate FILE...``: fairness and rule checks with a readable report.

Exit codes: 0 nothing at or above ``--fail-on`` found, 1 otherwise, 2 input errors, 4 (no
finding at ``--fail-on`` but) a verdict incomplete - a cap or search limit left something
undecided, which must never read as a pass - unless ``--allow-incomplete``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from engine.budget import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS, Caps
from app.cli.shared import EXIT_INTERNAL, app, printable, terminal_text, working_on
from validators.options import ANALYSIS_TOLERANCE, Options

if TYPE_CHECKING:  # the rest is imported when a command runs (tests/test_import_weight.py)
    from rich.console import Console
    from rich.table import Table

    from validators.run import Report

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


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
    from schema import ArenaError, load
    from app.paths import expand
    from validators.registry import NotForGame, UnknownValidator
    from validators.run import analysis_budget

    if list_:
        _list(game, as_json)
    if not files:
        raise typer.BadParameter("name arena files or directories (or use --list)", param_hint="FILES")
    if fail_on not in ("error", "warning", "info"):
        raise typer.BadParameter("use error, warning or info", param_hint="--fail-on")
    bud = parse_budget(budget)
    out, err = _Consoles.stdout(), _Consoles.stderr()
    files = expand(files)
    if scheduler and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise typer.BadParameter("give the scheduler's address, e.g. tcp://10.0.0.5:8786", param_hint="--scheduler")
    limits = Caps(time_limit or None, memory_limit or None)
    options = Options(tuple(enable or ()), tuple(disable or ()), tier, bud, tolerance, limits, players)
    if robust is None and simulate_games is None and (jobs > 1 or scheduler):
        _batch(files, as_json, fail_on, options, jobs, scheduler, out(), err(), show_memory, allow_incomplete)
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
                        err().print(printable(str(p)), markup=False, highlight=False)
                    raise typer.Exit(2) from None
                report = _run(arena, str(path), enable or [], disable or [], tier, bud, tolerance, err, limits, players)
        except NotForGame as exc:
            err().print(printable(f"{path}: {exc}"), markup=False)
            raise typer.Exit(2) from None
        except UnknownValidator as exc:
            err().print(printable(f"unknown validator code {exc.args[0]!r}"), markup=False)
            raise typer.Exit(2) from None
        if robust is not None:
            from app.cli.robustness import run_robustness

            run_robustness(report, robust, seed, options, workers, scheduler, err())
        if simulate_games is not None:
            run_simulation(report, str(path), simulate_games, seed, policy, workers, scheduler, err())
        reports.append(report)
        failed |= report.fails(fail_on)
        if not as_json:
            print_report(report, out())
            if report.robustness is not None:
                from app.cli.robustness import print_robustness

                print_robustness(report.robustness, out())
            if report.simulation is not None:
                from app.cli.simulate import print_simulation_summary

                print_simulation_summary(report.simulation, out())
    if as_json:
        docs: Any = [r.to_json(resources=show_memory) for r in reports]
        json.dump(docs[0] if len(docs) == 1 else docs, sys.stdout, indent=2)
        sys.stdout.write("\n")
    raise typer.Exit(exit_status(reports, failed, allow_incomplete))


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


#: Exit status of a run whose findings pass ``--fail-on`` but whose verdict is incomplete.
EXIT_INCOMPLETE = 4


def exit_status(reports: list[Report], failed: bool, allow_incomplete: bool) -> int:
    """1 when a finding fails ``--fail-on``; else :data:`EXIT_INCOMPLETE` when a report's verdict
    is incomplete (unless allowed); else 0."""
    if failed:
        return 1
    return EXIT_INCOMPLETE if not allow_incomplete and any(r.incomplete for r in reports) else 0


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


class _Consoles:
    """The command's rich consoles, made (and rich imported: 0.03 s of CPU) when first used: a
    validation that prints its report imports rich after the analysis - for the default
    arena or a Car Wars arena while the forked helper still searches, not before the fork.

    A console that writes no colours (not a terminal) highlights nothing: rich's highlighter
    only adds styles, which such a console drops, and its first use compiles rich's repr
    patterns (about 5 % of the interpreter's start-up floor)."""

    @staticmethod
    def stdout() -> Callable[[], Console]:
        return _Consoles._lazy(file=sys.stdout)

    @staticmethod
    def stderr() -> Callable[[], Console]:
        # a path or a message is never broken across lines
        return _Consoles._lazy(file=sys.stderr, soft_wrap=True)

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


def stderr_may_be_a_terminal(environ: Mapping[str, str] | None = None) -> bool:
    """False when rich's console on stderr is surely not a terminal (``Console.is_terminal``:
    stderr is no TTY and neither ``TTY_COMPATIBLE`` nor ``FORCE_COLOR`` is set), known without
    importing rich."""
    env = os.environ if environ is None else environ
    if "TTY_COMPATIBLE" in env or "FORCE_COLOR" in env:
        return True
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def _run(arena: Any, source: str, enable: list[str], disable: list[str], tier: int | None, budget: Any,
         tolerance: float, stderr: Callable[[], Console], limits: Caps | None = None,
         players: int | None = None) -> Report:
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


def _tier_mark(report: Report, tier: int | None) -> str:
    """`` [tier 3]`` (or `` [tiers 2-3]``, the tiers judged alike) after a finding's code when it
    does not hold in every tier judged; nothing when it does."""
    if tier is None:
        return ""
    tiers = next((t for t in report.tiers if tier in t), (tier,))
    span = f"tier {tiers[0]}" if len(tiers) == 1 else f"tiers {tiers[0]}-{tiers[-1]}"
    return f" \\[{span}]"  # an escaped bracket: rich markup would swallow it


def print_report(report: Report, console: Console) -> None:
    arena = report.arena
    console.rule(f"[bold]{terminal_text(arena.name)}[/]  ({terminal_text(report.source)})")
    from app.cli.travel import rich_table
    from validators.game import analysis

    game = analysis(report.system)
    console.print(terminal_text(game.headline(report)))
    table = game.travel_table(report)
    if table is not None:
        console.print(rich_table(table))
    counts = report.counts()
    for severity in ("error", "warning", "info"):
        group = [f for f in report.findings if f.severity == severity]
        if not group:
            continue
        console.print(f"\n[{STYLE[severity]}]{severity.upper()}S ({len(group)})[/]")
        for f in group:
            at = f" ({f.players} players)" if f.players is not None else ""
            console.print(f"  [{STYLE[severity]}]{f.code}[/]{_tier_mark(report, f.tier)}{at}: ", end="")
            console.print(printable(f.message), markup=False, highlight=False)
    if report.player_counts:
        console.print("\n[bold]PLAYER COUNTS[/]")
    for row in report.player_counts or ():
        console.print(printable(f"  {row['players']} players: starts {', '.join(row['elements'])} - "
                                f"{'the whole arena' if row['whole_arena'] else str(row['findings']) + ' finding(s) of its own'}"),
                      markup=False, highlight=False)
    verdict = "[green]no problems found[/]" if not report.findings else \
        f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} info"
    console.print(f"\n{verdict}")
    if report.incomplete:  # never a silent pass: say what the verdict lacks
        why = f"the analysis stopped at its {report.stopped}" if report.stopped else "some questions stayed undecided"
        console.print(f"[bold yellow]verdict incomplete[/]: {why} (see the findings above)", highlight=False)
    console.print()
