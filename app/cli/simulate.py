"""``arena simulate FILE --games N --seed S``: whole games played out by the arena's game's play
engine, and each start's chance to win (:mod:`validators.simulate`; JSON: schema/simulation.schema.json).

Exit codes: 0 the games were played (findings are warnings: read them); 2 usage or I/O errors,
a game without a play engine, a player count or policy the game refuses, an unreachable Dask
scheduler; 4 the time limit stopped the run before every game was played (the result is still
printed, saying so).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from app.cli.shared import app, fail, printable, terminal_text, working_on

if TYPE_CHECKING:  # the rest is imported when the command runs (tests/test_import_weight.py)
    from rich.console import Console

#: Exit status of a run the time limit stopped early.
EXIT_INCOMPLETE = 4


def parse_parameter(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of ``--param``: the value read as JSON (a number, true/false, a list...),
    else kept as text.

    >>> parse_parameter("rams=false"), parse_parameter("deck=standard")
    (('rams', False), ('deck', 'standard'))
    """
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise typer.BadParameter(f"give NAME=VALUE, not {text!r}", param_hint="--param")
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value


@app.command("simulate")
def simulate_command(
    file: Annotated[Path, typer.Argument(help="Arena file (.yaml, .yml or .json).", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=1_000_000, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The run's seed: game i plays with a seed drawn from (SEED, i).")] = 0,
    players: Annotated[Optional[int], typer.Option("--players", min=1, help="Players (default: the scenario's).")] = None,
    policy: Annotated[Optional[str], typer.Option("--policy", help=(
        "The bots' policy (default: the game's first), or several joined by commas, rotated over the seats "
        "game by game."))] = None,
    params: Annotated[Optional[list[str]], typer.Option("--param", help="A play parameter of the game, NAME=VALUE (repeatable).")] = None,
    tolerance: Annotated[Optional[float], typer.Option("--tolerance", min=0.0, max=1.0, help=(
        "Win-rate points a start may differ from 1/K before play-balance (default: the scenario's, else 0.05)."))] = None,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Run on a Dask cluster: tcp://HOST:PORT of its scheduler.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 2,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON (schema/simulation.schema.json).")] = False,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0, metavar="SECONDS", help=(
        "Stop after this many seconds with the games done so far; the result says so (0: no limit)."))] = 0.0,
    record: Annotated[Optional[Path], typer.Option("--record", help="Write every game's record (turns, poses, events, scores) to this JSON file.")] = None,
) -> None:
    """Play the arena's game out GAMES times with bots and report each start's win rate, its 95 %
    interval, mean score, who takes each objective first, where pieces collide, and a
    play-balance finding for each start that wins more or less often than a fair share."""
    from rich.console import Console

    from schema import ArenaError, load

    err = Console(stderr=True, soft_wrap=True)
    if scheduler and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise typer.BadParameter("give the scheduler's address, e.g. tcp://10.0.0.5:8786", param_hint="--scheduler")
    parameters = dict(parse_parameter(p) for p in params or ())
    working_on(file)
    try:
        arena = load(file)
    except ArenaError as exc:
        err.print(printable(str(exc), lines=True), markup=False)
        raise typer.Exit(2) from None
    except OSError as exc:
        raise fail(f"{file}: {exc.strerror or exc}") from None
    from engine.budget import Caps
    from validators.simulate import simulate

    kwargs: dict[str, Any] = dict(players=players, policy=policy, parameters=parameters, scheduler=scheduler,
                                  workers=workers, limits=Caps(time_limit or None, None), tolerance=tolerance,
                                  records=record is not None)
    try:
        if err.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(TextColumn("[bold]playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=err, transient=True) as bar:
                task = bar.add_task("games", total=games)
                result = simulate(arena, games, seed, progress=lambda done, _n: bar.update(task, completed=done),
                                  **kwargs)
        else:
            result = simulate(arena, games, seed, **kwargs)
    except LookupError as exc:  # the game has no play engine
        raise fail(f"{file}: {exc}") from None
    except ValueError as exc:  # a player count, policy or parameter the game refuses
        raise fail(f"{file}: {exc}") from None
    except (OSError, TimeoutError) as exc:
        raise fail(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
    doc = result.document
    if record is not None:
        try:
            record.write_text(json.dumps({"format": "arena-studio-games/1", "seed": seed, "games": result.records},
                                         separators=(",", ":")), encoding="utf-8")
        except OSError as exc:
            raise fail(f"{record}: {exc.strerror or exc}") from None
    if as_json:
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_simulation(doc, Console())
    if not doc["complete"]:
        raise typer.Exit(EXIT_INCOMPLETE)


def _pct(v: float) -> str:
    return f"{v * 100:.1f} %"


def print_simulation(doc: dict[str, Any], console: Console) -> None:
    """The result for people: a table of the starts, the objectives, the contacts and the findings."""
    from rich.table import Table

    name = terminal_text(doc.get("arena") or "arena")
    counted = doc["games_counted"]
    console.print(f"[bold]{name}[/]: {counted} game(s) of {doc['players']} players (seed {doc['seed']}, policy "
                  f"{terminal_text(doc['policy'])}; a fair share is {_pct(doc['fair_share'])} ± "
                  f"{_pct(doc['tolerance'])})", highlight=False)
    if not doc["complete"]:
        console.print(f"[yellow]stopped after {doc['games_played']} of {doc['games']} games[/]: "
                      f"{terminal_text(doc['stopped'])}", highlight=False)
    if doc["incomplete_games"]:
        console.print(f"{doc['incomplete_games']} game(s) stopped at the engine's work limit are not counted",
                      highlight=False)
    table = Table(title="Starts", title_justify="left")
    for title in ("start", "win rate", "95 % interval", "wins", "mean score", "contacts a game"):
        table.add_column(title, justify="right")
    for s in doc["starts"]:
        lo, hi = s["ci"]
        table.add_row(str(s["start"]), _pct(s["win_rate"]), f"{_pct(lo)} – {_pct(hi)}", f"{s['wins']:g}",
                      f"{s['mean_vp']:g}", f"{s['contacts']:g}")
    console.print(table)
    chi = doc.get("chi_square")
    if chi:
        console.print(f"chi-square against equal shares: {chi['statistic']:g} on {chi['dof']} degree(s) of freedom, "
                      f"p = {chi['p_value']:.4g}", highlight=False)
    if doc["objectives"]:
        objectives = Table(title="Who takes each objective first (share of games)", title_justify="left")
        objectives.add_column("objective")
        for s in doc["starts"]:
            objectives.add_column(f"start {s['start']}", justify="right")
        objectives.add_column("nobody", justify="right")
        for o in doc["objectives"]:
            objectives.add_row(terminal_text(o["id"]), *(_pct(o["first"][str(s["start"])]) for s in doc["starts"]),
                               _pct(o["untaken"]))
        console.print(objectives)
    hot = doc["contacts"]["hottest"]
    if hot:
        console.print(f"contacts: {doc['contacts']['total']} in all; the most ({hot['count']}) in the "
                      f"{doc['contacts']['cell']:g}-unit cell around ({hot['x']:g}, {hot['y']:g})", highlight=False)
    for f in doc["findings"]:
        console.print(printable(f"{f['severity']}: {f['code']}: {f['message']}"), markup=False, highlight=False)
    if not doc["findings"]:
        console.print("no start wins more or less often than a fair share beyond the tolerance", highlight=False)


def print_simulation_summary(doc: dict[str, Any], console: Console) -> None:
    """The short form in a validation report (``arena validate --simulate N``): each start's win
    rate and 95 % interval against the fair share; the play-balance findings are the report's."""
    from rich.table import Table

    title = (f"SIMULATED PLAY: {doc['games_counted']} game(s), seed {doc['seed']}, policy "
             f"{terminal_text(doc['policy'])}; fair share {_pct(doc['fair_share'])} ± {_pct(doc['tolerance'])}")
    table = Table(title=title, title_justify="left")
    for name in ("start", "win rate", "95 % interval", "mean score"):
        table.add_column(name, justify="right")
    for s in doc["starts"]:
        lo, hi = s["ci"]
        table.add_row(str(s["start"]), _pct(s["win_rate"]), f"{_pct(lo)} – {_pct(hi)}", f"{s['mean_vp']:g}")
    console.print(table)
    if not doc["complete"]:
        console.print(f"[yellow]stopped after {doc['games_played']} of {doc['games']} games[/]: "
                      f"{terminal_text(doc['stopped'])}", highlight=False)
    n = len(doc["findings"])
    console.print(f"{n} play-balance finding(s) (among the warnings above)" if n else
                  "no start wins more or less often than a fair share beyond the tolerance", highlight=False)
