"""``arena travel FILE --from SOURCE --to GOAL``: least-time travel for the reference turbine
(Gravstrike) or the car (Car Wars: see :mod:`validators.games.carwars.travel` for its sources, goals
and ``--policy``).

Gravstrike sources: ``start:N``, ``checkpoint:ID`` (its centre at max speed, best of 12 headings) or
``x,y,heading[,speed]`` (a negative speed travels in reverse).  Goals: ``checkpoint:ID``,
``gate:ID``, ``start:N``, ``target:ID``.  Exit codes: 0 reachable, 1 not reachable (proven, or
not within the turn limit), 3 undecided (the search reached its memory or time limit first),
2 errors (bad references, unreadable file).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from app.cli.shared import app, printable, terminal_text, working_on

if TYPE_CHECKING:  # the rest is imported when the command runs (tests/test_import_weight.py)
    from rich.console import Console

    from engine.gravstrike.planner import Planner, Source, TravelResult

#: Exit status when a search stopped at a limit before deciding.
EXIT_UNDECIDED = 3


def parse_source(text: str) -> Source:
    """``start:N``, ``checkpoint:ID`` or ``x,y,heading[,speed]``."""
    from engine.gravstrike.motion import EngineError, Pose
    from engine.gravstrike.planner import CheckpointSource, PoseSource, StartSource

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


def parse_size(text: str) -> int:
    """Bytes from ``512M``, ``2G``, ``1.5GiB`` or a plain number of bytes.

    >>> parse_size("512M"), parse_size("1G") == 1 << 30
    (536870912, True)
    """
    from engine.gravstrike.motion import EngineError

    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([KMGT]?)(i?B)?\s*", text, re.IGNORECASE)
    if not m:
        raise EngineError(f"a memory size is a number with K, M or G (e.g. 512M, 2G), not {text!r}")
    return int(float(m.group(1)) * 1024 ** "_KMGT".index(m.group(2).upper() or "_"))


def result_json(source: str, goal: str, r: TravelResult) -> dict[str, Any]:
    return {
        "from": source,
        "to": goal,
        "status": r.status,
        "reason": r.undecided,
        "at_least": r.horizon if r.status in ("beyond", "undecided") else None,
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
    source: Annotated[str, typer.Option("--from", help="start:N, checkpoint:ID or x,y,heading[,speed] (negative speed: in reverse).")],
    goal: Annotated[str, typer.Option("--to", help="checkpoint:ID, gate:ID, start:N or target:ID.")],
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
    """Least time from a source to a goal: the reference turbine flat out (Gravstrike), or the car
    under --policy (Car Wars: sources start:N, a card or x,y,heading[,speed]; goals a card,
    centre or start:N)."""
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
    if arena.system == "car-wars-6e":
        _carwars(arena, source, goal, policy, as_json, max_seconds, err)
    elif arena.system == "arena-rex":
        _arenarex(arena, source, goal, as_json, err)
    elif arena.system != "gravstrike":
        err.print(f"arena travel: no travel model for {arena.system} arenas yet", markup=False)
        raise typer.Exit(2)
    from engine.gravstrike.motion import EngineError
    from engine.gravstrike.planner import Goal, Planner
    from engine.gravstrike.travel_types import DEFAULT_MAX_BYTES, SearchLimits

    show = err.is_terminal if progress is None else progress
    status = err.status("searching ...") if show else None
    started = time.monotonic()

    def report(states: int, bound: float) -> None:
        if status is not None and time.monotonic() - started > 1.0:
            status.update(f"searching: {states:,} states kept, the goal is at least {bound:.2f} turns away")
            status.start()

    try:
        src = parse_source(source)
        dst = Goal.parse(goal)
        limits = SearchLimits(max_bytes=parse_size(max_memory) if max_memory else DEFAULT_MAX_BYTES,
                              max_seconds=max_seconds, progress=report)
        b: int | None | str = "default"
        if budget is not None:
            b = None if budget == "unlimited" else int(budget)
            if b is not None and b < 0:
                raise EngineError("--budget must be >= 0 or 'unlimited'")
        planner = Planner(arena, tier=tier, budget=b, exclusions="avoid" if avoid_exclusions else "pay",  # type: ignore[arg-type]
                          quantum=tolerance, limits=limits,
                          minimise="time-icons-damage" if fewest_icons else "time")
        result = planner.plan(src, dst)
    except (EngineError, ValueError) as exc:
        err.print(printable(f"arena travel: {exc}"), markup=False)
        raise typer.Exit(2) from None
    finally:
        if status is not None:
            status.stop()
    if as_json:
        typer.echo(json.dumps(result_json(source, goal, result), indent=2))
    else:
        _print(source, goal, result, planner)
    raise typer.Exit({"reached": 0, "undecided": EXIT_UNDECIDED}.get(result.status, 1))


def _carwars(arena: Any, source: str, goal: str, policy: str, as_json: bool, max_seconds: float | None,
             err: Console) -> None:
    from rich.console import Console
    from rich.table import Table

    from engine.carwars.travel import PlanningError
    from engine.carwars.travel import SearchLimits as CarLimits
    from validators.games.carwars.travel import plan, result_json

    try:
        result = plan(arena, source, goal, policy, CarLimits(max_seconds=max_seconds))
    except PlanningError as exc:
        err.print(printable(f"arena travel: {exc}"), markup=False)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(result_json(source, goal, policy, result), indent=2))
    else:
        out = Console()
        src, dst = printable(source), printable(goal)
        if result.status == "reached":
            out.print(f"{src} -> {dst} ({policy}): turn {result.turns}, movement point {result.points} at speed "
                      f"{result.speed} (time {result.time:.3f} turns), {result.dice} dice, {result.hard} hard speed "
                      "change(s)", markup=False, emoji=False)
            table = Table("turn", "point", "maneuver", "x", "y", "heading", "speed", "dice")
            for st in result.path:
                table.add_row(str(st.turn), str(st.point), terminal_text(st.maneuver), f"{st.x:.2f}", f"{st.y:.2f}",
                              f"{st.heading:g}", str(st.speed), str(st.dice))
            out.print(table)
        elif result.status == "unreachable":
            out.print(f"{dst} is not reachable from {src} without a collision.", markup=False, emoji=False)
        elif result.status == "beyond":
            out.print(f"{dst} is not reachable from {src} within {result.horizon:g} turns.", markup=False, emoji=False)
        else:
            out.print(f"undecided: the search stopped at its {result.undecided}; raise --max-seconds.",
                      markup=False, emoji=False)
    raise typer.Exit({"reached": 0, "undecided": EXIT_UNDECIDED}.get(result.status, 1))


def _arenarex(arena: Any, source: str, goal: str, as_json: bool, err: Console) -> None:
    from rich.console import Console
    from rich.table import Table

    from validators.games.arenarex.travel import TravelQueryError, plan

    try:
        result = plan(arena, source, goal)
    except TravelQueryError as exc:
        err.print(printable(f"arena travel: {exc}"), markup=False)
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        out = Console()
        src, dst = printable(source), printable(goal)
        if result["reachable"]:
            out.print(f"{src} -> {dst} ({result['base_mm']:g} mm base): {result['length']:.2f} in, "
                      f"{result['moves']} move(s) at MOV {result['mov']:g}", markup=False, emoji=False)
            table = Table("x", "y")
            for st in result["path"]:
                table.add_row(f"{st['x']:.2f}", f"{st['y']:.2f}")
            out.print(table)
        else:
            out.print(f"{dst} is not reachable from {src} without touching a pit, spikes or a blocking hazard.",
                      markup=False, emoji=False)
    raise typer.Exit(0 if result["reachable"] else 1)


def _print(source: str, goal: str, result: TravelResult, planner: Planner) -> None:
    from rich.console import Console
    from rich.table import Table

    out = Console()
    source, goal = printable(source), printable(goal)
    if result.status == "unreachable":
        out.print(f"{goal} is not reachable from {source} without ramming.", markup=False, emoji=False)
    elif result.status == "beyond":
        out.print(f"{goal} is not reachable from {source} within {result.horizon:g} turns.", markup=False, emoji=False)
    elif result.status == "undecided":
        out.print(f"undecided: the search stopped at its {result.undecided}; {goal} is at least "
                  f"{result.horizon:.2f} turns from {source}. Raise --max-memory or --max-seconds, or try a "
                  f"coarser --tolerance (now {planner.quantum:g}).", markup=False, emoji=False)
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
