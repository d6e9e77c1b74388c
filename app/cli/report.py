"""``arena report FILE -o OUT.html``: the validation report as one self-contained HTML page
(:func:`validators.webreport.render_report`) - the arena drawn, every finding (hover: its
elements; click: its path or place), the game's heat maps (``--no-heat-maps``: without), the
metrics, robustness bands, the scenario - and, with
``--against OLD``, what changed since another version (:mod:`validators.arenadiff`).

Exit codes: 0 written, 1 an input is not a valid arena (or report), 2 usage or I/O errors.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from app.cli.shared import app, fail, load_arena, printable, working_on
from engine.budget import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS

if TYPE_CHECKING:
    from schema.ruleset import ArenaModel
    from validators.heatmaps import HeatMap


def today() -> str:
    """The date the page is stamped with: ``SOURCE_DATE_EPOCH``'s when set (reproducible
    builds), else today's (UTC)."""
    from datetime import datetime, timezone

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = datetime.fromtimestamp(int(epoch), timezone.utc) if epoch and epoch.isdigit() else datetime.now(timezone.utc)
    return when.date().isoformat()


def validated(path: Path, arena: ArenaModel, *, robust: int | None = None, seed: int = 0, workers: int = 2,
              time_limit: float = DEFAULT_SECONDS, memory_limit: float = DEFAULT_MEMORY_MIB,
              simulate: int | None = None, policy: str | None = None) -> dict[str, Any]:
    """``arena validate --json``'s document for ``arena`` (with ``--robustness N`` and
    ``--simulate N`` when asked)."""
    from engine.budget import Caps
    from validators.options import ANALYSIS_TOLERANCE, Options
    from validators.registry import NotForGame, UnknownValidator
    from validators.run import validate

    limits = Caps(time_limit or None, memory_limit or None)
    working_on(path)
    try:
        report = validate(arena, source=str(path), parallel=True, limits=limits)
    except (NotForGame, UnknownValidator) as exc:
        raise fail(f"{path}: {exc}") from None
    if robust is not None:
        from app.cli.robustness import run_robustness
        from app.cli.validating import Consoles

        options = Options((), (), None, "arena", ANALYSIS_TOLERANCE, limits)
        run_robustness(report, robust, seed, options, workers, None, Consoles.stderr()())
    if simulate is not None:
        from app.cli.validate import run_simulation
        from app.cli.validating import Consoles

        run_simulation(report, str(path), simulate, seed, policy, workers, None, Consoles.stderr()())
    return report.to_json()


def heat_maps(path: Path, arena: ArenaModel, *, time_limit: float = DEFAULT_SECONDS,
              memory_limit: float = DEFAULT_MEMORY_MIB) -> list[HeatMap]:
    """The arena's heat maps (:func:`validators.heatmaps.report_heat_maps`) under caps of their
    own (as the analysis's: ``--time-limit``, ``--memory-limit``)."""
    from engine.budget import Caps
    from validators.heatmaps import report_heat_maps

    working_on(path)
    return report_heat_maps(arena, caps=Caps(time_limit or None, memory_limit or None))


def read_report(path: Path) -> dict[str, Any]:
    """A saved report (``arena validate --json`` output), checked against its schema."""
    import jsonschema

    working_on(path)
    try:
        doc = json.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise fail(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise fail(f"{path}: not a JSON report: {exc}", 1) from None
    from importlib import resources

    schema = json.loads(resources.files("schema").joinpath("report.schema.json").read_text("utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        pointer = "".join(f"/{p}" for p in e.absolute_path)
        raise fail(f"{path}: {pointer or '/'}: {e.message[:300]} (not an arena-studio-report/1 document)", 1)
    return dict(doc)


@app.command("report")
def report_cmd(
    file: Annotated[Path, typer.Argument(help="Arena file (.yaml, .yml or .json).", show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="The HTML page to write.", show_default=False)],
    against: Annotated[Optional[Path], typer.Option("--against", help="An older version of the arena: add what "
                                                                       "changed since it (as arena diff OLD FILE).",
                                                    show_default=False)] = None,
    saved: Annotated[Optional[Path], typer.Option("--report", help="Use this saved report (arena validate --json) "
                                                                   "instead of validating FILE.", show_default=False)] = None,
    robust: Annotated[Optional[int], typer.Option("--robustness", min=1, max=10000,
                                                  help="Add tabletop robustness: N placements (as arena validate).")] = None,
    simulate_games: Annotated[Optional[int], typer.Option("--simulate", min=1, max=1_000_000, metavar="N", help=(
        "Add simulated play: N games played out by bots (as arena simulate)."))] = None,
    policy: Annotated[Optional[str], typer.Option("--policy", help="With --simulate: the bots' policy (as arena simulate).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="With --robustness: the seed of the placements; with "
                                                           "--simulate: of the games.")] = 0,
    workers: Annotated[int, typer.Option("--workers", min=1, help="With --robustness or --simulate: local worker processes.")] = 2,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0, envvar="ARENA_TIME_LIMIT", metavar="SECONDS",
                                              help="Cap each arena's analysis (0: no cap).")] = DEFAULT_SECONDS,
    memory_limit: Annotated[float, typer.Option("--memory-limit", min=0, envvar="ARENA_MEMORY_LIMIT_MIB", metavar="MIB",
                                                help="Cap each arena's analysis memory (0: no cap).")] = DEFAULT_MEMORY_MIB,
    heat: Annotated[bool, typer.Option("--heat-maps/--no-heat-maps", help=(
        "Add the game's heat maps (travel time or moves from each start to every place; a few seconds a start "
        "for Gravstrike and Car Wars), under the same caps."))] = True,
) -> None:
    """Write the validation report of an arena as one self-contained HTML page."""
    from schema.outputs import OutputError, check_outputs, write_output
    from validators.webreport import header_for, render_report

    inputs = [file] + ([against] if against else []) + ([saved] if saved else [])
    try:
        check_outputs([out], inputs=inputs)
    except OutputError as exc:
        raise fail(str(exc)) from None
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise fail(f"{file}: cannot read: {exc.strerror or exc}") from None
    arena = load_arena(file)
    if saved is not None:
        if robust is not None or simulate_games is not None:
            raise fail("--robustness and --simulate validate the arena: leave out --report, or run them into the saved report")
        report = read_report(saved)
    else:
        report = validated(file, arena, robust=robust, seed=seed, workers=workers, time_limit=time_limit,
                           memory_limit=memory_limit, simulate=simulate_games, policy=policy)
    diff = None
    if against is not None:
        from validators.arenadiff import diff_arenas

        old = load_arena(against)
        old_report = validated(against, old, time_limit=time_limit, memory_limit=memory_limit)
        diff = diff_arenas(old, arena, before=str(against), after=str(file), report_a=old_report, report_b=report)
    maps = heat_maps(file, arena, time_limit=time_limit, memory_limit=memory_limit) if heat else []
    page = render_report(report, arena, header=header_for(file.name, data, date=today()), diff=diff, heat_maps=maps)
    try:
        write_output(out, page.encode("utf-8"), inputs=inputs)
    except OutputError as exc:
        raise fail(str(exc)) from None
    typer.echo(printable(f"wrote {out}"), err=True)
