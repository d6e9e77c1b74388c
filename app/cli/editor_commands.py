"""CLI commands that need Qt, registered on the ``arena`` app through the
``arena_studio.commands`` entry point: ``arena render``, ``arena print`` and ``arena pack build``.

Qt is imported inside the commands only, so ``arena check`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from schema.outputs import OutputError, check_outputs, write_output
from app.cli.shared import fail, load_arena
from editor.pack_build import build_pack_bytes, build_season_pack_bytes


_fail = fail
_load = load_arena


def _check(out: Path, inputs: list[Path]) -> None:
    """Refuse, before any work, an output that is a symlink or one of the inputs (exit 2)."""
    try:
        check_outputs([out], inputs)
    except OutputError as exc:
        raise _fail(str(exc)) from None


def _write(out: Path, data: bytes, inputs: list[Path]) -> None:
    """Write atomically (temporary file beside it, fsync, rename), or exit 2 naming the file."""
    try:
        write_output(out, data, inputs)
    except OutputError as exc:
        raise _fail(str(exc)) from None


def render_command(
    file: Annotated[Path, typer.Argument(help="Arena file.", show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="OUT.svg, OUT.png or OUT.pdf.", show_default=False)],
    overlay: Annotated[Optional[list[str]], typer.Option("--overlay", help="los, paths or heatmap:start:N (repeatable).")] = None,
    width: Annotated[int, typer.Option("--width", help="Page width in pixels (PNG) / units (SVG, PDF at 96 dpi).")] = 1400,
) -> None:
    """Render an arena with legend, scale bar (lengths and cm) and title block."""
    from editor.export_render import RenderError, render_bytes

    fmt = out.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png", "pdf"):
        raise _fail(f"{out}: the output must end in .svg, .png or .pdf")
    _check(out, [file])
    arena: Any = _load(file)  # the editor's render and print functions still name Gravstrike's Arena
    try:
        data = render_bytes(arena, fmt, overlays=overlay or (), width=float(width), source=str(file))
    except RenderError as exc:
        raise _fail(str(exc)) from None
    _write(out, data, [file])
    typer.echo(f"wrote {out}", err=True)


def print_command(
    file: Annotated[Path, typer.Argument(help="Arena file.", show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="OUT.pdf", show_default=False)],
    paper: Annotated[str, typer.Option("--paper", help="a4, letter, a3, tabloid or legal.")] = "a4",
    cell_mm: Annotated[Optional[float], typer.Option(
        "--cell-mm", help="Grid arenas: print each hex (across the flats) or square this many mm "
                          "(default: the arena's units.hex_mm / units.square_mm).")] = None,
) -> None:
    """Printable 1:1 PDF tiled over pages, with assembly map and measuring aids.

    The arena at true size (units.length_mm per length; a grid arena's hex_mm or square_mm per
    cell, or --cell-mm), pages coordinated like B3, overlap strips with alignment marks, a ruler
    and the 30/60/90 degree turning arcs."""
    from editor.print_pdf import PAPERS, layout, print_pdf

    if paper not in PAPERS:
        raise _fail(f"--paper must be one of {', '.join(PAPERS)}")
    _check(out, [file])
    arena: Any = _load(file)  # the editor's render and print functions still name Gravstrike's Arena
    if cell_mm is not None:
        from editor.grid_render import is_grid, with_cell_mm

        if not is_grid(arena):
            raise _fail(f"{file}: --cell-mm is for grid arenas (hexes or squares); this is a "
                        f"{arena.system} arena")
        try:
            arena = with_cell_mm(arena, cell_mm)
        except ValueError as exc:
            raise _fail(f"--cell-mm: {exc}") from None
    _write(out, print_pdf(arena, paper), [file])
    lay = layout(arena, paper)
    from editor.print_pdf import unit_name
    from schema.formats.systems import units_mm

    typer.echo(f"wrote {out}: {len(lay.tiles)} tile pages (of a {lay.cols} x {lay.rows} grid) + assembly map + "
               f"measuring aids, 1 {unit_name(arena)} = {units_mm(arena):g} mm", err=True)


#: ``arena pack build --help``; one line per paragraph (rich keeps a docstring's line breaks).
PACK_BUILD_HELP = (
    "Build an arena pack: canonical arenas, validation reports, PNG/SVG previews, printable PDFs and a "
    "checksummed manifest.\n\n"
    "Deterministic: the same arena files and options give the same bytes in any process, with the same "
    "Arena Studio, Qt and fonts (the PDFs embed subsets of the installed fonts and name Qt's version). "
    "Entries are sorted, with fixed timestamps and permissions; arenas, reports and manifest are canonical "
    "JSON, the reports without timings; previews and PDFs hold no date or random value (PDF dates fixed, "
    "document ID from the title, fonts embedded in a fixed order with subset tags derived from the subsets)."
)


def pack_build_command(
    inputs: Annotated[list[Path], typer.Argument(help="Arena files or directories of them.", show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="NAME.arenapack.zip", show_default=False)],
    name: Annotated[Optional[str], typer.Option("--name", help="Pack name (default: from the output file).")] = None,
    version: Annotated[str, typer.Option("--version", help="Pack version.")] = "1.0.0",
    author: Annotated[Optional[str], typer.Option("--author", help="Pack author (default: the arenas' common author).")] = None,
    license: Annotated[Optional[str], typer.Option("--license", help="Pack licence (default: the arenas' common licence).")] = None,
    description: Annotated[Optional[str], typer.Option("--description", help="What the pack is for.")] = None,
    paper: Annotated[str, typer.Option("--paper", help="Paper of the printable PDFs: a4, letter, a3, tabloid or legal.")] = "a4",
    only: Annotated[Optional[list[str]], typer.Option("--only", help="Run only these validator codes (repeatable).")] = None,
    simulate: Annotated[Optional[int], typer.Option("--simulate", min=1, max=1_000_000, metavar="N", help=(
        "Also play each arena out N times with bots (as arena simulate): its report holds the summary and the "
        "manifest notes it (arenas whose game has no play engine are packed without)."))] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="With --simulate: the seed of the games (same seed, same pack).")] = 0,
    policy: Annotated[Optional[str], typer.Option("--policy", help="With --simulate: the bots' policy (as arena simulate).")] = None,
) -> None:
    """``arena pack build`` (help: :data:`PACK_BUILD_HELP`)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    from app.paths import NoArenaFiles, expand
    from schema.packs import SUFFIX, PackError

    try:
        files = expand(inputs)
    except NoArenaFiles as exc:
        raise _fail(str(exc)) from None
    if not files:
        raise _fail("no arena files given")
    _check(out, files)
    arenas = [_load(f) for f in files]
    def common(attr: str) -> str | None:
        """The arenas' shared ``author``/``license``, or None when they differ."""
        values = {getattr(a, attr) for a in arenas}
        return values.pop() if len(values) == 1 else None

    pack_name = name or out.name.removesuffix(SUFFIX).removesuffix(".zip")
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("building pack", total=len(files))
        try:
            data = build_pack_bytes(files, name=pack_name, version=version, author=author or common("author"),
                                    license=license or common("license"), description=description, paper=paper,
                                    enable=only, simulate=simulate, seed=seed, policy=policy,
                                    warn=lambda text: console.print(text, markup=False, highlight=False, soft_wrap=True),
                                    progress=lambda p: progress.update(task, advance=1, description=f"packed {p.name}"))
        except PackError as exc:
            raise _fail(str(exc), 1) from None
        except KeyError as exc:  # UnknownValidator
            raise _fail(f"unknown validator {exc}") from None
    _write(out, data, files)
    typer.echo(f"wrote {out}: {len(files)} arena(s), {len(data)} bytes", err=True)


def season_pack_command(
    file: Annotated[Path, typer.Argument(help="A season file (format arena-studio-season/1).", show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="NAME.arenapack.zip", show_default=False)],
    root: Annotated[Optional[Path], typer.Option(  # noqa: UP045
        "--root", help="A folder above the season file's that its arena paths may reach.", file_okay=False,
        exists=True)] = None,
    version: Annotated[str, typer.Option("--version", help="Pack version.")] = "1.0.0",
    author: Annotated[Optional[str], typer.Option("--author", help="Pack author.")] = None,  # noqa: UP045
    license: Annotated[Optional[str], typer.Option("--license", help="Pack licence.")] = None,  # noqa: UP045
    paper: Annotated[str, typer.Option("--paper", help="Paper of the printable PDFs: a4, letter, a3, tabloid or legal.")] = "a4",
) -> None:
    """One pack for a season: every event's arena under its scenario, with its report, previews
    and print, and the season file and its standings (season.json, standings.json)."""
    from schema.errors import ArenaIOError
    from schema.packs import PackError
    from validators.season import SeasonError, load

    try:
        season = load(file)
    except ArenaIOError as exc:
        raise _fail(str(exc)) from None
    except SeasonError as exc:
        raise _fail(str(exc), 1) from None
    _check(out, [file])
    try:
        data = build_season_pack_bytes(season, root=root, version=version, author=author, license=license,
                                       paper=paper)
    except SeasonError as exc:
        raise _fail(str(exc), 1) from None
    except PackError as exc:
        raise _fail(str(exc), 1) from None
    except LookupError as exc:
        raise _fail(f"{file}: {exc}") from None
    _write(out, data, [file])
    typer.echo(f"wrote {out}: {len(season.events)} event(s), {len(data)} bytes", err=True)


def register(app: Any) -> None:
    """Add ``render``, ``print``, ``pack build`` and ``season pack`` to the ``arena`` app."""
    app.command("render")(render_command)
    app.command("print")(print_command)
    from app.cli.export import pack_app
    from app.cli.season import season_app

    pack_app.command("build", help=PACK_BUILD_HELP)(pack_build_command)
    season_app.command("pack")(season_pack_command)
