"""What each kind of service job (``POST /v1/jobs?kind=K``, docs/service.md#jobs) computes: the
same as the CLI command it mirrors, byte for byte (JSON kinds: the command's ``--json`` output as
it prints it; file kinds: the bytes it writes).

Every kind runs as :func:`kind_job` - in a service worker process (:mod:`app.service.workers`)
or on a Dask worker (``arena serve --scheduler``) - and returns an :data:`~app.service.jobs.Outcome`:
``("ok", media_type, bytes)`` or ``("problem", problem_document)`` for inputs the kind refuses
(an unknown validator code, a game without a play engine...). Progress is reported through
``progress(done, total, note)`` where the runner has callbacks (validation steps, robustness
placements, simulated games, generation rounds, balance validations, pack arenas).

A job runs in one process: fan-outs (robustness, simulate, generate) run their tasks in it
(``workers=1``); results do not depend on the worker count (each task is seeded by its index).
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from schema import ArenaError
from app.service.jobs import JSON, Outcome, bad_param, invalid_arena, job_budget, parse_arena, too_large
from app.service.problems import problem

#: ``progress(done, total, note)``.
Progress = Callable[[int, "int | None", str], None]
#: The kinds, in the order the documentation lists them.
KINDS = ("validate", "robustness", "balance", "generate", "export", "pack", "simulate", "season", "report", "diff")
HTML = "text/html; charset=utf-8"
ZIP = "application/zip"
YAML = "application/yaml"
#: Media type of each export target's main file (by the output's suffix where it decides).
EXPORT_TYPES = {".dd2vtt": JSON, ".json": JSON, ".tmj": JSON, ".tmx": "application/xml", ".geojson": "application/geo+json",
                ".svg": "image/svg+xml"}


def cli_json(doc: Any, ascii_only: bool = False) -> bytes:
    """A document as the CLI's ``--json`` prints it: indented by 2, a newline at the end
    (``ascii_only``: as ``arena validate`` and ``arena balance``, which keep json.dump's default)."""
    return (json.dumps(doc, indent=2, ensure_ascii=ascii_only) + "\n").encode("utf-8")


def kind_job(kind: str, body: bytes, params: dict[str, Any], progress: Progress | None = None,
             seconds: float | None = None, memory_mib: float | None = None) -> Outcome:
    """Run one job of ``kind`` on ``body`` with its (checked) ``params`` under the analysis caps
    (``seconds`` from now, ``memory_mib``; :func:`app.service.jobs.job_budget`)."""
    start = time.monotonic()
    from engine.budget import active

    report: Progress = progress if progress is not None else (lambda done, total, note: None)
    run = RUNNERS[kind]
    try:
        with active(job_budget(seconds, memory_mib, start)):
            return run(body, params, report)
    except ArenaError as exc:
        return invalid_arena(exc)
    except (OverflowError, MemoryError) as exc:
        return too_large(exc)


def _arena(body: bytes, params: dict[str, Any]) -> Any:
    return parse_arena(body, params.get("fmt", "yaml"), params.get("source") or "request")


def _validate_progress(report: Progress) -> Callable[[str, int, int], None]:
    return lambda step, done, total: report(done, total, step)


def _validated(arena: Any, params: dict[str, Any], report: Progress, tolerance: float | None = None) -> Any:
    """The report of ``arena`` under the job's validate options (``arena validate``'s, which
    passes ``tolerance``; ``arena report`` and ``arena diff`` leave it to the games)."""
    from validators.run import validate

    return validate(arena, source=params.get("source"), enable=params.get("enable", []),
                    disable=params.get("disable", []), tier=params.get("tier"), budget=params.get("budget", "arena"),
                    tolerance=tolerance, parallel=True, players=params.get("players"),
                    progress=_validate_progress(report))


def _validator_problem(exc: Exception, params: dict[str, Any]) -> Outcome:
    from validators.registry import NotForGame

    if isinstance(exc, NotForGame):
        return bad_param("enable", str(exc))
    code = exc.args[0] if exc.args else ""
    return bad_param("enable" if code in params.get("enable", []) else "disable", f"unknown validator code {code!r}")


def validate_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena validate FILE --json``."""
    from validators.registry import NotForGame, UnknownValidator

    from validators.options import ANALYSIS_TOLERANCE

    arena = _arena(body, params)
    try:
        doc = _validated(arena, params, report, ANALYSIS_TOLERANCE)
    except (NotForGame, UnknownValidator) as exc:
        return _validator_problem(exc, params)
    return "ok", JSON, cli_json(doc.to_json(), ascii_only=True)


def robustness_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena validate FILE --robustness N --seed S --json``."""
    from engine.budget import Caps
    from validators.options import ANALYSIS_TOLERANCE, Options
    from validators.registry import NotForGame, UnknownValidator
    from validators.robustness import Settings, robustness

    arena = _arena(body, params)
    try:
        nominal = _validated(arena, params, report, ANALYSIS_TOLERANCE)
    except (NotForGame, UnknownValidator) as exc:
        return _validator_problem(exc, params)
    from engine.budget import DEFAULT_MEMORY_MIB, DEFAULT_SECONDS

    options = Options(tuple(params.get("enable", [])), tuple(params.get("disable", [])), params.get("tier"),
                      params.get("budget", "arena"), ANALYSIS_TOLERANCE, Caps(DEFAULT_SECONDS, DEFAULT_MEMORY_MIB),
                      params.get("players"))
    n = int(params["n"])
    try:
        nominal.robustness = robustness(arena, nominal, Settings(n, int(params.get("seed", 0)), None, options),
                                        workers=1, progress=lambda done, total: report(done, total, "placements"))
    except LookupError as exc:
        return "problem", problem(422, "no-robustness", "No tabletop robustness", str(exc))
    return "ok", JSON, cli_json(nominal.to_json(), ascii_only=True)


def _arena_text(arena: Any, output: str) -> tuple[bytes, str]:
    """The arena as ``save``/``dumps`` writes a file named ``output`` (YAML or JSON by its suffix)."""
    from schema import dumps
    from schema.io import format_of

    fmt = format_of(PurePosixPath(output))
    return dumps(arena, fmt).encode("utf-8"), JSON if fmt == "json" else YAML


def balance_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena balance FILE -o OUTPUT --json``: its document, plus ``arena``: the text of the fixed
    arena the command writes to OUTPUT (null when nothing changed)."""
    from validators.balance import hook_of, propose
    from validators.options import BALANCE_BUDGET, Options
    from validators.registry import default_registry, games_of

    arena = _arena(body, params)
    try:
        hook = hook_of(arena)
    except LookupError as exc:
        return "problem", problem(422, "no-balance", "No proposed fixes", str(exc))
    free = params.get("free")
    kinds = None if free is None else [k.strip() for k in free.split(",") if k.strip()]
    if kinds is not None and (not kinds or any(k not in hook.free for k in kinds)):
        bad = ", ".join(k for k in kinds if k not in hook.free) or repr(free)
        return bad_param("free", f"{bad}: the kinds that may move are {', '.join(hook.free)}")
    code = params.get("code")
    if code is not None:
        registry = default_registry()
        known = [c for c in registry.codes() if str(arena.system) in games_of(registry.get(c))]
        if code not in known:
            return bad_param("code", f"{code!r} is not a validator of {arena.system}: {', '.join(known)}")
    output = params.get("output") or "fixed.yaml"
    proposal = propose(arena, code=code, elements=params.get("element", []), free=kinds,
                       budget=params.get("seconds", BALANCE_BUDGET), options=Options(),
                       severity=params.get("severity", "warning"),
                       progress=lambda s: report(s.validations, None, f"{s.validations} validation(s); {s.doing}"))
    doc = proposal.to_json()
    doc["source"], doc["output"] = params.get("source") or "request", output if proposal.changed else None
    doc["arena"] = _arena_text(proposal.arena, output)[0].decode("utf-8") if proposal.changed else None
    return "ok", JSON, cli_json(doc, ascii_only=True)


def generate_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena generate -o OUTPUT``: the arena file it writes (YAML or JSON by OUTPUT's suffix)."""
    from validators.generate import best_text, generate, hook_of
    from validators.options import GENERATE_BUDGET

    system = params.get("system")
    try:
        if system is None:
            from validators.game import default_system

            system = default_system()
        hook = hook_of(system)
        players = params.get("players")
        plan = hook.plan(None, players if players is not None else hook.default_players, params.get("symmetry"),
                         params.get("size"), params.get("table"))
    except (LookupError, ValueError) as exc:
        return "problem", problem(422, "invalid-parameters", "Invalid request parameters", str(exc))
    budget = float(params.get("seconds", GENERATE_BUDGET))
    outcome = generate(system, plan, int(params.get("seed", 0)), budget=budget, workers=1,
                       fail_on=params.get("fail_on", "warning"),
                       progress=lambda s: report(s.evaluated, None, f"round {s.round + 1}; {best_text(s)}"))
    data, media = _arena_text(outcome.arena, params.get("output") or "arena.yaml")
    return "ok", media, data


def export_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena export FILE --to FORMAT -o OUTPUT``: the file it writes, or - when it writes
    several (Foundry's background image, a grid map's tileset) - a zip of them all, named as it
    names them."""
    from schema.formats import FormatError, get, image_frame
    from schema.formats.foundry import GRID_MIN_SIZE
    from schema.formats.grid_games import is_grid, refuse
    from validators.plugins import NoRenderer, renderer

    arena = _arena(body, params)
    to, px = params["format"], int(params.get("px", 64))
    if to == "foundry" and px < GRID_MIN_SIZE:
        return bad_param("px", f"Foundry grid squares are at least {GRID_MIN_SIZE} px; use px={GRID_MIN_SIZE} or more")
    out = PurePosixPath(params["output"])
    files: list[tuple[str, bytes]] = []
    try:
        if to == "svg":
            files.append((out.name, renderer()(arena, "svg", source=params.get("source") or "request")))
        else:
            fmt = get(to)
            refuse(to, arena)
            image_name = out.with_suffix(".png").name if to == "foundry" else None
            image = None
            if fmt.capabilities.needs_image:
                image = renderer()(arena, "png", view=image_frame(to, arena, px).view, px_per_length=px)
            if image_name is not None and image is not None:
                files.append((image_name, image))
            side = image_name if image_name else (f"{out.stem}.tiles.png" if is_grid(arena) else None)
            result = fmt.write(arena, image_png=image, px_per_length=px, image_name=side, suffix=out.suffix)
            files.insert(0, (out.name, result.data))
            files += list(result.files.items())
    except NoRenderer as exc:
        return "problem", problem(501, "no-renderer", "Rendering not available",
                                  f"{exc}; install the editor package to export {to}")
    except FormatError as exc:
        return "problem", problem(422, "export-refused", "Export refused", str(exc))
    if len(files) == 1:
        return "ok", EXPORT_TYPES.get(out.suffix.lower(), "application/octet-stream"), files[0][1]
    return "ok", ZIP, zipped(files)


def zipped(files: list[tuple[str, bytes]]) -> bytes:
    """A zip of ``files`` with fixed timestamps (the same files give the same bytes)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buf.getvalue()


def pack_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena pack build SOURCE -o OUTPUT``: the pack's bytes (deterministic), the arena named
    in it after SOURCE's file name as the command names it."""
    from schema.packs import SUFFIX, PackError
    from validators.plugins import NoPackBuilder, pack_builder
    from validators.registry import UnknownValidator

    arena = _arena(body, params)
    try:
        build = pack_builder()
    except NoPackBuilder as exc:
        return "problem", problem(501, "packs-unavailable", "Pack building not available",
                                  f"{exc}; install the editor package (its Qt renderer draws the previews)")
    output = params.get("output") or "arena" + SUFFIX
    name = params.get("name") or output.removesuffix(SUFFIX).removesuffix(".zip")
    source = params.get("source") or "arena.yaml"
    report(0, 1, "building the pack")
    try:
        data = build([PurePosixPath(source)], name=name, version=params.get("version", "1.0.0"),
                     author=params.get("author") or arena.author, license=params.get("license") or arena.license,
                     description=params.get("description"), paper=params.get("paper", "a4"),
                     enable=params.get("only") or None, load=lambda _path: arena,
                     progress=lambda path: report(1, 1, f"packed {path.name}"))
    except PackError as exc:
        return "problem", problem(422, "invalid-pack", "Invalid pack", str(exc))
    except UnknownValidator as exc:
        return bad_param("only", f"unknown validator code {exc.args[0] if exc.args else exc!s}")
    return "ok", ZIP, data


def simulate_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena simulate FILE --json``."""
    from validators.simulate import simulate

    arena = _arena(body, params)
    games = int(params.get("games", 100))
    try:
        result = simulate(arena, games, int(params.get("seed", 0)), players=params.get("players"),
                          policy=params.get("policy"), parameters=dict(params.get("param", {})),
                          tolerance=params.get("tolerance"), workers=1,
                          progress=lambda done, total: report(done, total, "games"))
    except LookupError as exc:
        return "problem", problem(422, "no-play-engine", "No play engine", str(exc))
    except ValueError as exc:
        return "problem", problem(422, "invalid-parameters", "Invalid request parameters", str(exc))
    return "ok", JSON, cli_json(result.document)


def season_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena season check FILE --json`` (the body as ``POST /v1/season/check`` takes it; SOURCE
    names the season file in its findings)."""
    from app.service.jobs import season_check_job

    outcome = season_check_job(body, source=params.get("source") or "season")  # under this job's caps
    if outcome[0] != "ok":
        return outcome
    return "ok", JSON, cli_json(json.loads(outcome[2]))


def report_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena report FILE -o OUT.html``: the page (its header names SOURCE's file name, the body's
    checksum and the day, ``SOURCE_DATE_EPOCH``'s when set), with the game's heat maps as the
    CLI's default draws them, computed within the job's caps."""
    from app.cli.report import today
    from validators.heatmaps import report_heat_maps
    from validators.webreport import header_for, render_report

    arena = _arena(body, params)
    source = params.get("source") or "request"
    doc = _validated(arena, {"source": source}, report).to_json()
    report(0, None, "heat maps")
    maps = report_heat_maps(arena)
    page = render_report(doc, arena, header=header_for(PurePosixPath(source).name, body, date=today()), heat_maps=maps)
    return "ok", HTML, page.encode("utf-8")


def diff_kind(body: bytes, params: dict[str, Any], report: Progress) -> Outcome:
    """``arena diff BEFORE AFTER --json`` of ``{"a": TEXT, "b": TEXT}`` (``--no-verdict`` with
    ``verdict=false``)."""
    from validators.arenadiff import diff_arenas

    doc = json.loads(body)  # the endpoint checked its shape
    before, after = params.get("before") or "a.yaml", params.get("after") or "b.yaml"
    a = parse_arena(doc["a"].encode("utf-8"), "yaml", before)
    b = parse_arena(doc["b"].encode("utf-8"), "yaml", after)
    ra = rb = None
    if params.get("verdict", True):
        report(0, 2, f"validating {before}")
        ra = _validated(a, {"source": before}, report).to_json()
        report(1, 2, f"validating {after}")
        rb = _validated(b, {"source": after}, report).to_json()
    return "ok", JSON, cli_json(diff_arenas(a, b, before=before, after=after, report_a=ra, report_b=rb))


RUNNERS: dict[str, Callable[[bytes, dict[str, Any], Progress], Outcome]] = {
    "validate": validate_kind, "robustness": robustness_kind, "balance": balance_kind, "generate": generate_kind,
    "export": export_kind, "pack": pack_kind, "simulate": simulate_kind, "season": season_kind,
    "report": report_kind, "diff": diff_kind}
