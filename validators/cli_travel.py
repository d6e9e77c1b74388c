"""``arena travel FILE --from SOURCE --to GOAL``: least-time travel for the reference turbine.

Sources: ``start:N``, ``checkpoint:ID`` (its centre at max speed, best of 12 headings) or
``x,y,heading[,speed]``.  Goals: ``checkpoint:ID``, ``gate:ID``, ``start:N``, ``target:ID``.
Exit codes: 0 reachable, 1 not reachable, 2 errors (bad references, unreadable file).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from engine.motion import EngineError, Pose
from engine.planner import CheckpointSource, Goal, Planner, PoseSource, Source, StartSource, TravelResult
from schema import ArenaError, load
from validators.cli_app import app, terminal_text, working_on


def parse_source(text: str) -> Source:
    """``start:N``, ``checkpoint:ID`` or ``x,y,heading[,speed]``."""
    kind, _, ident = text.partition(":")
    if kind == "start" and ident:
        try:
            return StartSource(int(ident))
        except ValueError:
            raise EngineError(f"a start is start:N, not {text!r}") from None
    if kind == "checkpoint" and ident:
        return CheckpointSource(ident)
    parts = text.split(",")
    if len(parts) in (3, 4):
        try:
            x, y, h = (float(v) for v in parts[:3])
            speed = int(parts[3]) if len(parts) == 4 else 0
        except ValueError:
            raise EngineError(f"a pose source is x,y,heading[,speed], not {text!r}") from None
        return PoseSource(Pose(x, y, h), speed)
    raise EngineError(f"a source is start:N, checkpoint:ID or x,y,heading[,speed], not {text!r}")


def result_json(source: str, goal: str, r: TravelResult) -> dict[str, Any]:
    return {
        "from": source,
        "to": goal,
        "reachable": r.reachable,
        "turns": r.turns if r.reachable else None,
        "lengths": r.lengths if r.reachable else None,
        "time": round(r.time, 6) if r.reachable else None,
        "icons": r.icons if r.reachable else None,
        "damage": r.damage if r.reachable else None,
        "path": [
            {"x": round(s.x, 4), "y": round(s.y, 4), "heading": round(s.heading, 3), "speed": s.speed,
             "turn": s.turn, "length": s.length, "maneuver": s.maneuver, "pushed_by": s.pushed_by}
            for s in r.path
        ],
    }


@app.command("travel")
def travel(
    file: Annotated[Path, typer.Argument(help="Arena file (.yaml, .yml or .json).", show_default=False)],
    source: Annotated[str, typer.Option("--from", help="start:N, checkpoint:ID or x,y,heading[,speed].")],
    goal: Annotated[str, typer.Option("--to", help="checkpoint:ID, gate:ID, start:N or target:ID.")],
    tier: Annotated[int | None, typer.Option("--tier", help="Tier analysed (default: the arena's analysis tier).")] = None,
    budget: Annotated[str | None, typer.Option("--budget", help="Icons per turn: N or 'unlimited' (default: the turbine's).")] = None,
    avoid_exclusions: Annotated[bool, typer.Option("--avoid-exclusions", help="Never enter active exclusion fields.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    tolerance: Annotated[float, typer.Option("--tolerance", min=0.001, max=1.0, help=(
        "Position tolerance in lengths: 0.01 is exact for the model (far goals on big arenas take "
        "a minute or more); 0.25 is the validators' setting."))] = 0.01,
) -> None:
    """Least time for the reference turbine, flat out, from a source to a goal."""
    err = Console(stderr=True)
    working_on(file)
    try:
        arena = load(file)
    except ArenaError as exc:
        err.print(str(exc), markup=False)
        raise typer.Exit(2) from None
    except OSError as exc:
        err.print(f"{file}: {exc.strerror or exc}", markup=False)
        raise typer.Exit(2) from None
    try:
        src = parse_source(source)
        dst = Goal.parse(goal)
        if budget is None:
            planner = Planner(arena, tier=tier, exclusions="avoid" if avoid_exclusions else "pay", quantum=tolerance)
        else:
            b = None if budget == "unlimited" else int(budget)
            if b is not None and b < 0:
                raise EngineError("--budget must be >= 0 or 'unlimited'")
            planner = Planner(arena, tier=tier, budget=b, exclusions="avoid" if avoid_exclusions else "pay",
                              quantum=tolerance)
        result = planner.plan(src, dst)
    except (EngineError, ValueError) as exc:
        err.print(f"arena travel: {exc}", markup=False)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(result_json(source, goal, result), indent=2))
    else:
        out = Console()
        if not result.reachable:
            out.print(f"{goal} is not reachable from {source}.", markup=False, emoji=False)
        else:
            out.print(
                f"{source} -> {goal}: turn {result.turns}, length {result.lengths} at speed {result.speed} "
                f"(time {result.time:.3f} turns), {result.icons} icons, {result.damage} damage",
                markup=False, emoji=False,
            )
            table = Table("turn", "length", "maneuver", "x", "y", "heading", "speed", "pushed by")
            for s in result.path:
                table.add_row(str(s.turn), str(s.length), terminal_text(s.maneuver), f"{s.x:.2f}", f"{s.y:.2f}",
                              f"{s.heading:g}", str(s.speed), terminal_text(s.pushed_by or ""))
            out.print(table)
    raise typer.Exit(0 if result.reachable else 1)
