"""``arena generate``: search for an arena that passes every validator (:mod:`validators.generate`).

Exit codes: 0 the arena written passes at ``--fail-on``; 1 the budget ran out (the best arena so
far is written and what still fails is listed); 2 bad parameters or catalogue.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from app.cli.shared import app, fail, printable, working_on
from validators.options import GENERATE_BUDGET, GENERATE_WORKERS

if TYPE_CHECKING:  # the rest is imported when the command runs (tests/test_import_weight.py)
    from rich.console import Console

    from validators.generate import Outcome, Progress as Step
    from validators.generate_hooks import Hook as GeneratorHook


def default_players(hook: GeneratorHook, players: int | None) -> int:
    """``players``, or when not given the hook's ``default_players``."""
    return players if players is not None else hook.default_players


@app.command("generate")
def generate_cmd(
    output: Annotated[Path, typer.Option("-o", "--output", help="Write the arena here (YAML or JSON by extension).")],
    system: Annotated[Optional[str], typer.Option("--system", help="The game (ruleset id; default: the studio's "
                                                  "default game, Gravstrike).", show_default=False)] = None,
    players: Annotated[Optional[int], typer.Option("--players", min=2, max=6, help="Players (2 to 6; default: the "
                                                   "game's own count, 4 for Gravstrike).")] = None,
    symmetry: Annotated[Optional[str], typer.Option("--symmetry", help="rotational:N, mirror or dihedral:N (default: "
                                                    "rotational:PLAYERS; dihedral:3 for six).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The seed: the same seed gives the same arena.")] = 0,
    catalogue: Annotated[Optional[Path], typer.Option("--catalogue", help="A catalogue of pieces (YAML/JSON); default: "
                                                      "the shipped one.")] = None,
    size: Annotated[Optional[float], typer.Option("--size", help="Table size across, in the game's units (Gravstrike: "
                                                  "lengths, default 24, 28 for five or six players; Arena Rex: inches, "
                                                  "30 for a circle, 24 for a square).")] = None,
    table: Annotated[Optional[str], typer.Option("--table", help="Gravstrike: square, polygon or WIDTHxHEIGHT (default: "
                                                 "a square if it has the symmetry, else a regular polygon); Arena Rex: "
                                                 "circle (default), square or WIDTHxHEIGHT.")] = None,
    budget: Annotated[float, typer.Option("--budget", min=1.0, help="Seconds to search before keeping the best so far.")]
    = GENERATE_BUDGET,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Local worker processes scoring candidates.")]
    = GENERATE_WORKERS,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Score on a Dask cluster: tcp://HOST:PORT.")]
    = None,
    fail_on: Annotated[str, typer.Option("--fail-on", help="A pass has no finding at or above this severity: "
                                         "error|warning|info.")] = "warning",
) -> None:
    """Generate an arena that passes every validator: pieces from a catalogue placed in one
    sector of the symmetry and copied by it, scored by the validators."""
    from rich.console import Console

    from schema import ArenaError, save
    from validators.generate import hook_of

    err = Console(file=sys.stderr, soft_wrap=True)
    if fail_on not in ("error", "warning", "info"):
        raise typer.BadParameter("use error, warning or info", param_hint="--fail-on")
    if scheduler and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise typer.BadParameter("give the scheduler's address, e.g. tcp://10.0.0.5:8786", param_hint="--scheduler")
    if catalogue is not None:
        working_on(catalogue)
    try:
        if system is None:
            from validators.game import default_system

            system = default_system()
        hook = hook_of(system)
        plan = hook.plan(None if catalogue is None else str(catalogue), default_players(hook, players), symmetry, size,
                         table)
    except ArenaError as exc:
        for p in exc.problems:
            err.print(printable(str(p)), markup=False, highlight=False)
        raise typer.Exit(2) from None
    except (LookupError, ValueError) as exc:
        raise fail(printable(exc)) from None
    err.print(f"generating: {hook.describe(plan)} (seed {seed}, budget {budget:g} s)", markup=False, highlight=False)
    try:
        outcome = _run(system, plan, seed, budget, workers, scheduler, fail_on, err)
    except (OSError, TimeoutError) as exc:
        raise fail(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    working_on(output)
    try:
        save(outcome.arena, output)
    except OSError as exc:
        raise fail(f"cannot write {output}: {exc.strerror or exc}") from None
    _summary(outcome, output, err)
    raise typer.Exit(0 if outcome.passed else 1)


def _run(system: str, plan: object, seed: int, budget: float, workers: int, scheduler: str | None, fail_on: str,
         err: Console) -> Outcome:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from validators.generate import generate

    if not err.is_terminal:
        return generate(system, plan, seed, budget=budget, workers=workers, scheduler=scheduler, fail_on=fail_on)
    with Progress(TextColumn("[bold]generating"), BarColumn(), TextColumn("{task.fields[what]}"), TimeElapsedColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("generate", total=budget, what="starting workers")

        from validators.generate import best_text

        def show(step: Step) -> None:
            bar.update(task, completed=min(step.elapsed, budget),
                       what=f"round {step.round + 1}, {step.evaluated} candidates; {best_text(step)}")

        return generate(system, plan, seed, budget=budget, workers=workers, scheduler=scheduler, fail_on=fail_on,
                        progress=show)


def _summary(outcome: Outcome, output: Path, err: Console) -> None:
    b = outcome.best
    how = f"{outcome.evaluated} candidates in {outcome.rounds} round(s), {outcome.seconds:.1f} s"
    if outcome.passed:
        err.print(f"wrote {printable(output)}: passes every validator ({how}; design quality {b.quality:g})",
                  markup=False, highlight=False)
        return
    why = "the budget ran out" if outcome.out_of_time else "the search stopped"
    err.print(f"wrote {printable(output)}: {why} before an arena passed ({how}); the best so far still has "
              f"{len(b.failing)} finding(s):", markup=False, highlight=False)
    for severity, code, message in b.failing[:12]:
        err.print(f"  {severity} {code}: {printable(message)}", markup=False, highlight=False)
    if b.stage != "full":
        err.print("  (the travel validators did not run on it: it failed the cheaper checks first)", markup=False,
                  highlight=False)
