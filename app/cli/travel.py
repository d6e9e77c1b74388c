"""``arena travel FILE --from SOURCE --to GOAL``: least-time travel, as the arena's game models
it (its analysis's travel hook, :meth:`validators.game.GameAnalysis.travel`: e.g. Gravstrike's
reference turbine, :mod:`validators.games.gravstrike.travel_query`; the Car Wars car under
``--policy``, :mod:`validators.games.carwars.travel`; an Arena Rex base's walk).  Each game's
sources and goals are its own; the options a game does not read are ignored.  Exit codes: 0
reachable, 1 not reachable (proven, or not within the turn limit), 3 undecided (the search
reached its memory or time limit first), 2 errors (bad references, unreadable file, a game
without travel).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from app.cli.shared import app, printable, terminal_text, working_on

if TYPE_CHECKING:  # the rest is imported when the command runs (tests/test_import_weight.py)
    from rich.console import Console

    from validators.game import TextTable

#: Exit status when a search stopped at a limit before deciding.
EXIT_UNDECIDED = 3


def parse_size(text: str) -> int:
    """Bytes from ``512M``, ``2G``, ``1.5GiB`` or a plain number of bytes.

    >>> parse_size("512M"), parse_size("1G") == 1 << 30
    (536870912, True)
    """
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([KMGT]?)(i?B)?\s*", text, re.IGNORECASE)
    if not m:
        raise ValueError(f"a memory size is a number with K, M or G (e.g. 512M, 2G), not {text!r}")
    return int(float(m.group(1)) * 1024 ** "_KMGT".index(m.group(2).upper() or "_"))


@app.command("travel")
def travel(
    file: Annotated[Path, typer.Argument(help="Arena file (.yaml, .yml or .json).", show_default=False)],
    source: Annotated[str, typer.Option("--from", help=(
        "Gravstrike: start:N, checkpoint:ID or x,y,heading[,speed] (negative speed: in reverse); Car Wars: start:N, "
        "a card or x,y,heading[,speed]; Arena Rex: deploy:N or x,y (@MM: the base); Glider-Pit: a launch zone (Z1) "
        "or q,r,facing,speed,altitude; Mothership: build:P, approach:P or x,y."))],
    goal: Annotated[str, typer.Option("--to", help=(
        "Gravstrike: checkpoint:ID, gate:ID, start:N or target:ID; Car Wars: a card, centre or start:N; Arena Rex: "
        "centre, deploy:N, a hazard's id or x,y; Glider-Pit: centre, a launch zone or q,r; Mothership: build:P, "
        "approach:P or x,y."))],
    tier: Annotated[int | None, typer.Option("--tier", help="Tier analysed (default: the arena's analysis tier).")] = None,
    budget: Annotated[str | None, typer.Option("--budget", help="Icons per turn: N or 'unlimited' (default: the turbine's).")] = None,
    avoid_exclusions: Annotated[bool, typer.Option("--avoid-exclusions", help="Never enter active exclusion fields.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.01, max=1.0, help=(
        "Position tolerance in lengths: positions closer than this merge and sideslips are tried in "
        "steps no larger than it. 0.25 (default) is the validators' setting; 0.1 is finer and slower; "
        "0.01 is the finest and far goals may reach the memory limit."))] = 0.25,
    fewest_icons: Annotated[bool, typer.Option("--fewest-icons", help=(
        "Among the fastest plans, the one with fewest Maneuver icons, then least damage (a slower "
        "search, one state at a time); by default any fastest plan."))] = False,
    max_memory: Annotated[str, typer.Option("--max-memory", help="Memory the search may use (e.g. 512M, 2G).")] = "1G",
    max_seconds: Annotated[float | None, typer.Option("--max-seconds", min=0.1, help="Stop the search after this many seconds.")] = None,
    progress: Annotated[bool | None, typer.Option("--progress/--no-progress", help=(
        "Show the search's progress on stderr (default: when stderr is a terminal)."))] = None,
    policy: Annotated[str, typer.Option("--policy", help=(
        "Car Wars: flat-out (fewest turns, driving-roll dice counted) or safe (no maneuver dice)."))] = "flat-out",
) -> None:
    """Least time from a source to a goal under the game's movement rules: the reference turbine
    flat out (Gravstrike), the car under --policy (Car Wars), a base's walk (Arena Rex), a glider's
    fewest turns (Glider-Pit), a Unit's fewest AP (Mothership)."""
    from rich.console import Console

    from schema import ArenaError, load

    err = Console(stderr=True, soft_wrap=True)  # a path or a message is never broken across lines
    working_on(file)
    try:
        arena = load(file)
    except ArenaError as exc:
        err.print(printable(str(exc), lines=True), markup=False)
        raise typer.Exit(2) from None
    except OSError as exc:
        err.print(printable(f"{file}: {exc.strerror or exc}"), markup=False)
        raise typer.Exit(2) from None
    from validators.game import NoTravel, TravelQuery, TravelQueryError, analysis_of

    show = err.is_terminal if progress is None else progress
    status = err.status("searching ...") if show else None
    started = time.monotonic()

    def report(message: str) -> None:
        if status is not None and time.monotonic() - started > 1.0:
            status.update(message)
            status.start()

    try:
        b: int | None | Literal["default"] = "default"
        if budget is not None:
            b = None if budget == "unlimited" else int(budget)
            if b is not None and b < 0:
                raise ValueError("--budget must be >= 0 or 'unlimited'")
        query = TravelQuery(source, goal, tier=tier, budget=b, exclusions="avoid" if avoid_exclusions else "pay",
                            tolerance=tolerance, fewest_icons=fewest_icons, policy=policy,
                            max_bytes=parse_size(max_memory) if max_memory else None, max_seconds=max_seconds,
                            progress=report)
        answer = analysis_of(arena).travel(arena, query)
    except NoTravel as exc:
        err.print(printable(f"arena travel: {exc}"), markup=False)
        raise typer.Exit(2) from None
    except (TravelQueryError, ValueError) as exc:
        err.print(printable(f"arena travel: {exc}"), markup=False)
        raise typer.Exit(2) from None
    finally:
        if status is not None:
            status.stop()
    if as_json:
        typer.echo(json.dumps(answer.document, indent=2))
    else:
        out = Console()
        out.print(printable(answer.summary), markup=False, emoji=False)
        if answer.table is not None:
            out.print(rich_table(answer.table))
    raise typer.Exit(answer.exit_code)


def rich_table(table: TextTable) -> Any:
    """A :class:`validators.game.TextTable` as rich draws it (every cell shown as written)."""
    from rich.table import Table

    out = Table(title=None if table.title is None else terminal_text(table.title),
                title_justify="left" if table.title is not None else "center")
    for c in table.columns:
        out.add_column(terminal_text(c.title), justify="right" if c.right else "left")
    for row in table.rows:
        out.add_row(*(terminal_text(cell) for cell in row))
    return out
