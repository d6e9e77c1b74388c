"""Qt-free export commands: ``arena export``, ``arena import``, ``arena pack verify`` and
``arena pack extract``.  (``arena render``, ``arena print`` and ``arena pack build`` need Qt and
come from the editor package through the ``arena_studio.commands`` entry point.)

Exit codes: 0 success, 1 the input is invalid (or a pack disagrees with its reports), 2 usage
or I/O errors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from app.cli.shared import app, fail, load_arena, printable, working_on

if TYPE_CHECKING:  # the rest is imported when a command runs (tests/test_import_weight.py)
    from validators.registry import Registry

pack_app = typer.Typer(name="pack", help="Arena packs: build (with the editor installed), verify, extract.",
                       no_args_is_help=True)
app.add_typer(pack_app, name="pack")

#: The export targets: the formats of :data:`schema.formats.FORMATS` (named here so that the help
#: is shown without loading them; tests/packs/test_formats.py keeps the two lists equal) and svg.
TARGETS = ("foundry", "geojson", "tiled", "uvtt", "svg")


_fail = fail
_load = load_arena


@app.command("export")
def export(
    file: Annotated[Path, typer.Argument(help="Arena file (.yaml, .yml or .json).", show_default=False)],
    to: Annotated[str, typer.Option("--to", help=f"Target: {', '.join(TARGETS)}.", show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="Output file.", show_default=False)],
    px: Annotated[int, typer.Option("--px", help="Pixels per length (grid cell) for the pixel-based targets.")] = 64,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print the loss report.")] = False,
) -> None:
    """Export an arena for another tool, printing what the target cannot represent.

    uvtt: Universal VTT .dd2vtt (image + line-of-sight walls); foundry: Foundry VTT scene JSON
    (plus OUT.png, its background image, beside it); tiled: Tiled map, .tmx (XML) or .tmj
    (JSON) by the output's extension; geojson: GeoJSON FeatureCollection; svg: picture via the
    installed renderer.  Outputs are written atomically, never through a symbolic link and
    never over the input.
    """
    from schema.formats import FormatError, get, image_frame
    from schema.formats.foundry import GRID_MIN_SIZE
    from schema.formats.grid_games import is_grid, refuse
    from schema.outputs import OutputError, check_outputs, write_outputs
    from validators.plugins import NoRenderer, renderer

    if to not in TARGETS:
        raise _fail(f"unknown target {to!r}; use one of {', '.join(TARGETS)}")
    if px < 4 or px > 512:
        raise _fail("--px must be between 4 and 512")
    if to == "foundry" and px < GRID_MIN_SIZE:
        raise _fail(f"--px {px}: Foundry grid squares are at least {GRID_MIN_SIZE} px; use --px {GRID_MIN_SIZE} or more")
    image_path = out.with_suffix(".png") if to == "foundry" else None
    try:
        check_outputs([out] + ([image_path] if image_path else []), inputs=[file])
    except OutputError as exc:
        raise _fail(str(exc)) from None
    arena = _load(file)
    files: list[tuple[Path, bytes]] = []
    losses: list[str] = []
    try:
        if to == "svg":
            files.append((out, renderer()(arena, "svg", source=str(file))))
        else:
            fmt = get(to)
            refuse(to, arena)
            image = None
            if fmt.capabilities.needs_image:
                image = renderer()(arena, "png", view=image_frame(to, arena, px).view, px_per_length=px)
            if image_path is not None and image is not None:
                files.append((image_path, image))
            side_name = image_path.name if image_path else (f"{out.stem}.tiles.png" if is_grid(arena) else None)
            result = fmt.write(arena, image_png=image, px_per_length=px, image_name=side_name, suffix=out.suffix)
            files.insert(0, (out, result.data))
            files += [(out.with_name(name), data) for name, data in result.files.items()]
            losses = result.losses
    except NoRenderer as exc:
        raise _fail(f"{exc}: install the editor package to export {to}") from None
    except FormatError as exc:
        raise _fail(str(exc)) from None
    try:
        write_outputs(files, inputs=[file])
    except OutputError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"wrote {out}", err=True)
    for extra, _ in files[1:]:
        what = "the scene's background image, named in background.src" if to == "foundry" else "the map's tileset image"
        typer.echo(f"also wrote {extra} ({what})", err=True)
    if not quiet and losses:
        typer.echo(f"{to} cannot represent:", err=True)
        for loss in losses:
            typer.echo(f"  - {printable(loss)}", err=True)


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="Tiled .tmx/.tmj/.json map or GeoJSON .geojson/.json file.",
                                         show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="Arena file to write (.yaml, .yml or .json).",
                                      show_default=False)],
    game: Annotated[Optional[str], typer.Option(
        "--game", help="GeoJSON only: the game (its ruleset id, as an arena file's system: names it) of a file "
                       "that names none; "
                       "a file that names another game is refused.", show_default=False)] = None,
) -> None:
    """Import a Tiled map or a GeoJSON collection into an arena file.

    Files written by arena export come back exactly; maps drawn in Tiled and collections
    rewritten by GIS tools (ogr2ogr, QGIS) are read too, and every object skipped or value
    reinterpreted is listed as a warning.  Exit 1 when the file cannot become a valid arena."""
    from schema import ArenaError
    from schema.formats import FormatError, for_import
    from schema.formats.geojson import GeoJSONFormat, games as geojson_games
    from schema.io import dumps, format_of
    from schema.outputs import OutputError, check_outputs, write_output

    if game is not None and game not in geojson_games():
        raise _fail(f"--game {game!r}: unknown game; use one of {', '.join(geojson_games())}")
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise _fail(f"{file}: cannot read: {exc.strerror or exc}") from None
    try:
        fmt = for_import(str(file), data)
        check_outputs([out], inputs=[file])
    except (FormatError, OutputError) as exc:
        raise _fail(str(exc)) from None
    if game is not None and not isinstance(fmt, GeoJSONFormat):
        raise _fail(f"--game is for GeoJSON files; {file} is a {fmt.name} file, which names its game itself "
                    "(a hand-drawn Tiled map: the map property json:arena with system)")
    warnings: list[str] = []
    try:
        arena = (fmt.read(data, source=str(file), warnings=warnings, game=game) if isinstance(fmt, GeoJSONFormat)
                 else fmt.read(data, source=str(file), warnings=warnings))
    except (FormatError, ArenaError) as exc:
        for w in warnings:
            typer.echo(f"warning: {printable(w)}", err=True)
        raise _fail(str(exc), 1) from None
    for w in warnings:
        typer.echo(f"warning: {printable(w)}", err=True)
    try:
        write_output(out, dumps(arena, format_of(out)).encode("utf-8"), inputs=[file])
    except OutputError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"wrote {out} ({arena.name!r}, {len(arena.elements())} elements"
               + (f", {len(warnings)} warning(s)" if warnings else "") + ")", err=True)


def report_differences(stored: Any, fresh: Any, path: str = "") -> list[str]:
    """Paths where two report documents differ (``/findings``, ``/metrics/x``...)."""
    if isinstance(stored, dict) and isinstance(fresh, dict):
        out = []
        for key in sorted(set(stored) | set(fresh)):
            if key not in stored:
                out.append(f"{path}/{key}: missing from the stored report")
            elif key not in fresh:
                out.append(f"{path}/{key}: no longer produced by validation")
            else:
                out.extend(report_differences(stored[key], fresh[key], f"{path}/{key}"))
        return out
    if stored != fresh:
        return [f"{path or '/'}: stored {json.dumps(stored)[:80]} but validation now gives {json.dumps(fresh)[:80]}"]
    return []


def revalidate_report(arena: Any, source: str, stored: Any, registry: Registry | None = None) -> list[str]:
    """Re-run the validators the stored report lists (and, when it holds simulated play, the
    same games: its games, seed, policy, players and tolerance); return every disagreement."""
    from validators.registry import UnknownValidator
    from validators.run import validate

    codes = [str(v.get("code")) for v in stored.get("validators", []) if isinstance(v, dict)] if isinstance(stored, dict) else []
    if not codes:
        return ["/validators: the stored report lists no validators"]
    try:
        report = validate(arena, source=source, enable=codes, registry=registry)
    except UnknownValidator as exc:
        return [f"/validators: validator {exc} of the stored report is not installed"]
    sim = stored.get("simulation")
    if isinstance(sim, dict):
        from validators.simulate import attach

        try:
            attach(report, int(sim["games"]), int(sim["seed"]), policy=str(sim["policy"]), players=int(sim["players"]),
                   tolerance=float(sim["tolerance"]))
        except (KeyError, TypeError, LookupError, ValueError) as exc:
            return [f"/simulation: cannot replay the stored simulated play: {exc}"]
    fresh = report.to_json()
    return report_differences(stored, fresh)


def _progress() -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    console = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    console=console, transient=True, disable=not console.is_terminal)


@pack_app.command("verify")
def pack_verify(
    pack: Annotated[Path, typer.Argument(help="An .arenapack.zip file.", show_default=False)],
    revalidate: Annotated[bool, typer.Option("--revalidate/--no-revalidate",
                                             help="Re-run validation and compare with the stored reports.")] = True,
) -> None:
    """Check a pack: safe entries, manifest schema, every checksum, every arena file, and that
    validation today agrees with the stored reports (the same validators are re-run)."""
    from schema.packs import PackError, read_pack

    registry = None
    working_on(pack)
    try:
        p = read_pack(pack)
        arenas = p.arenas()
    except PackError as exc:
        raise _fail(str(exc), 1) from None
    typer.echo(f"{pack}: {len(p.files)} files, checksums and schemas OK", err=True)
    disagreements = 0
    if revalidate:
        with _progress() as progress:
            task = progress.add_task("re-validating", total=len(arenas))
            for entry, arena, stored in arenas:
                diffs = revalidate_report(arena, entry["path"], stored, registry)
                for d in diffs:
                    typer.echo(printable(f"{pack}: {entry['report']}{d}"), err=True)
                disagreements += len(diffs)
                progress.advance(task)
        if disagreements:
            raise _fail(f"{disagreements} disagreement(s) between the stored reports and validation now", 1)
        typer.echo(f"{len(arenas)} arena(s): validation agrees with the stored reports", err=True)


@pack_app.command("extract")
def pack_extract(
    pack: Annotated[Path, typer.Argument(help="An .arenapack.zip file.", show_default=False)],
    out: Annotated[Path, typer.Option("-o", "--output", help="Directory to extract into.", show_default=False)],
) -> None:
    """Verify a pack, then extract it safely into a directory."""
    from schema.packs import PackError, extract_pack

    working_on(pack)
    try:
        written = extract_pack(pack, out)
    except PackError as exc:
        raise _fail(str(exc), 1) from None
    typer.echo(f"extracted {len(written)} files into {out}", err=True)

