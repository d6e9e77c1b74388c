"""The work the service's worker processes do. Each job takes plain data (the request body's
bytes and parsed parameters) and returns an :data:`Outcome`: ``("ok", media_type, payload)`` or
``("problem", problem_document)``. Jobs never raise for bad input; an unexpected exception is
turned into a 500 problem by the worker loop.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Literal, Union

from schema import ArenaError, loads
from app.service.problems import param_problem, problem

Outcome = Union[tuple[Literal["ok"], str, bytes], tuple[Literal["problem"], dict[str, Any]]]
JSON = "application/json"


def _json(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False, allow_nan=False).encode()


def invalid_arena(exc: ArenaError) -> tuple[Literal["problem"], dict[str, Any]]:
    items = [p.to_json() for p in exc.problems]
    return "problem", problem(422, "invalid-arena", "Invalid arena",
                              f"the arena has {len(items)} problem(s)", items)


def bad_param(name: str, message: str) -> tuple[Literal["problem"], dict[str, Any]]:
    return "problem", problem(422, "invalid-parameters", "Invalid request parameters", message,
                              [param_problem("query", name, message)])


def too_large(exc: Exception) -> tuple[Literal["problem"], dict[str, Any]]:
    """Schema-valid coordinates so large that the analysis overflows (e.g. 1e300)."""
    return "problem", problem(422, "arena-too-large", "Arena cannot be analysed",
                              f"the arena's coordinates are too large to analyse ({exc})")


def parse_arena(body: bytes, fmt: str, source: str) -> Any:
    """The arena in a request body (``fmt`` ``json`` or ``yaml``); raises ArenaError. The format
    layer's limits are the service's: every number within ±10 000 (the schema says so), the
    bounds at most 100 lengths across, the reading limits (depth, values, number length)."""
    return loads(body, source=source, fmt="json" if fmt == "json" else "yaml")


def job_budget(seconds: float | None, memory_mib: float | None = None, start: float | None = None) -> Any:
    """The caps of one job's analysis (:class:`engine.budget.Budget`): its searches and
    validators stop ``seconds`` after ``start`` (the job's own start, so parsing the arena and
    importing the engine count against the limit; default now) or once the worker and the
    processes it started hold ``memory_mib`` MiB, answering undecided - before the worker would
    be killed (503)."""
    import os

    from engine.budget import Budget, Caps
    from validators.memory import reading

    return Budget(Caps(seconds, memory_mib), memory=reading(os.getpid(), memory_mib), start=start)


def validate_job(body: bytes, fmt: str, source: str, enable: list[str], disable: list[str],
                 tier: int | None, budget: int | None | str, report_source: str | None = None,
                 seconds: float | None = None, memory_mib: float | None = None,
                 players: int | None = None) -> Outcome:
    start = time.monotonic()
    from engine.budget import active
    from validators.registry import NotForGame, UnknownValidator
    from validators.run import validate

    try:
        arena = parse_arena(body, fmt, source)
    except ArenaError as exc:
        return invalid_arena(exc)
    try:
        with active(job_budget(seconds, memory_mib, start)):
            report = validate(arena, source=report_source, enable=enable, disable=disable, tier=tier, budget=budget,
                              players=players)
    except NotForGame as exc:
        return bad_param("enable", str(exc))
    except UnknownValidator as exc:
        code = exc.args[0]
        name = "enable" if code in enable else "disable"
        return bad_param(name, f"unknown validator code {code!r}")
    except (OverflowError, MemoryError) as exc:
        return too_large(exc)
    except ImportError as exc:  # a registered validator whose module is missing: the server's fault
        return "problem", problem(500, "validator-unavailable", "Validator unavailable",
                                  f"an installed validator could not be loaded ({exc}); "
                                  "select validators with enable/disable or fix the installation")
    return "ok", JSON, _json(report.to_json())


def travel_job(body: bytes, fmt: str, source: str, origin: str, goal: str, tier: int | None,
               budget: int | None | str, exclusions: str, tolerance: float = 0.25,
               seconds: float | None = None, fewest_icons: bool = False, policy: str = "flat-out",
               memory_mib: float | None = None) -> Outcome:
    from engine.budget import active

    with active(job_budget(seconds, memory_mib)):
        return _travel(body, fmt, source, origin, goal, tier, budget, exclusions, tolerance, fewest_icons, policy)


def _travel(body: bytes, fmt: str, source: str, origin: str, goal: str, tier: int | None, budget: int | None | str,
            exclusions: str, tolerance: float, fewest_icons: bool, policy: str) -> Outcome:
    """One travel query, answered by the arena's game's travel hook
    (:meth:`validators.game.GameAnalysis.travel`)."""
    from validators.game import NoTravel, TravelQuery, TravelQueryError, analysis_of

    try:
        arena = parse_arena(body, fmt, source)
    except ArenaError as exc:
        return invalid_arena(exc)
    query = TravelQuery(origin, goal, tier=tier, budget="default" if budget == "arena" else budget,  # type: ignore[arg-type]
                        exclusions="avoid" if exclusions == "avoid" else "pay", tolerance=tolerance,
                        fewest_icons=fewest_icons, policy=policy)
    try:
        answer = analysis_of(arena).travel(arena, query)
    except NoTravel as exc:
        return "problem", problem(422, "travel-query", "Impossible travel query", f"the service has {exc}")
    except TravelQueryError as exc:
        if exc.param is not None:
            return bad_param(exc.param, str(exc))
        return "problem", problem(422, "travel-query", "Impossible travel query", str(exc))
    except (OverflowError, MemoryError) as exc:
        return too_large(exc)
    return "ok", JSON, _json(answer.document)


IMAGE_TYPES = {"svg": "image/svg+xml", "png": "image/png"}


def render_job(body: bytes, fmt: str, source: str, image: str) -> Outcome:
    from validators import plugins

    try:
        arena = parse_arena(body, fmt, source)
    except ArenaError as exc:
        return invalid_arena(exc)
    try:
        render = plugins.renderer()
    except plugins.NoRenderer as exc:
        return "problem", problem(501, "no-renderer", "Rendering not available",
                                  f"{exc}; install the editor package (arena-studio with its Qt renderer)")
    try:
        data = render(arena, image)
    except (OverflowError, MemoryError) as exc:
        return too_large(exc)
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"the renderer returned {type(data).__name__}, not bytes")
    return "ok", IMAGE_TYPES[image], bytes(data)


def pack_job(body: bytes) -> Outcome:
    """Verify a pack as ``arena pack verify`` does: integrity (entry names, sizes, CRCs, manifest
    schema, SHA-256 of every file, every arena's schema) via :func:`schema.packs.read_pack`, then
    :func:`app.cli.export.revalidate_report` for every arena. Integrity failures are 422;
    disagreements are listed (200, ``verified: false``)."""
    try:
        from schema import packs
    except ImportError:
        return "problem", problem(501, "packs-unavailable", "Pack verification not available",
                                  "this build has no pack support (schema.packs)")
    from app.cli.export import revalidate_report

    try:
        pack = packs.read_pack(body, label="upload")
        arenas = pack.arenas()
    except packs.PackError as exc:
        entry = exc.entry or ""
        return "problem", problem(422, "invalid-pack", "Invalid pack", str(exc),
                                  [{"file": "upload", "pointer": "/" + entry if entry else "", "message": exc.message}])
    results = []
    for listed, arena, stored in arenas:
        diffs = revalidate_report(arena, listed["path"], stored)
        results.append({"id": listed["id"], "path": listed["path"], "agrees": not diffs,
                        "summary": stored.get("summary") if isinstance(stored, dict) else None, "differences": diffs})
    manifest = pack.manifest
    doc = {"verified": all(r["agrees"] for r in results),
           "pack": {k: manifest.get(k) for k in ("name", "version", "author", "license") if k in manifest},
           "files": len(pack.files), "arenas": results}
    return "ok", JSON, _json(doc)


def invalid_season(exc: ArenaError, what: str = "season") -> tuple[Literal["problem"], dict[str, Any]]:
    items = [p.to_json() for p in exc.problems]
    return "problem", problem(422, "invalid-season", "Invalid season", f"the {what} has {len(items)} problem(s)", items)


def no_season_play(exc: LookupError) -> tuple[Literal["problem"], dict[str, Any]]:
    return "problem", problem(422, "no-season-play", "No season play", str(exc.args[0] if exc.args else exc))


def season_standings_job(body: bytes, fmt: str, source: str) -> Outcome:
    """A season file's standings, as ``arena season standings --json``."""
    from validators.season import SeasonError, loads as load_season, standings

    try:
        table = standings(load_season(body, source=source, fmt="json" if fmt == "json" else "yaml"))
    except SeasonError as exc:
        return invalid_season(exc)
    except LookupError as exc:
        return no_season_play(exc)
    return "ok", JSON, _json(table.to_json())


def season_check_job(body: bytes, seconds: float | None = None, memory_mib: float | None = None,
                     source: str = "season") -> Outcome:
    """``arena season check --json`` of a season and its arenas, sent as one JSON object:
    ``{"season": TEXT, "arenas": {PATH: TEXT}}`` - each file's text (YAML or JSON), so that its
    problems are located by line and column; PATH as the season's events write it."""
    start = time.monotonic()
    from engine.budget import active
    from validators.game import analysis
    from validators.season import SeasonError, check, loads as load_season

    doc = json.loads(body)  # the endpoint checked its shape
    try:
        season = load_season(doc["season"].encode(), source=source)
    except SeasonError as exc:
        return invalid_season(exc)
    arenas = {str(k): str(v).encode() for k, v in doc.get("arenas", {}).items()}
    try:
        game = analysis(season.system)
        game.season_scoring()
    except LookupError as exc:
        return no_season_play(exc)
    try:
        with active(job_budget(seconds, memory_mib, start)):
            result = check(season, arenas=arenas, validate=lambda arena, src: game.validate(arena, source=src))
    except (OverflowError, MemoryError) as exc:
        return too_large(exc)
    return "ok", JSON, _json(result.to_json())


def service_job(**kwargs: Any) -> Outcome:
    """A job of ``POST /v1/jobs`` (:func:`app.service.kinds.kind_job`)."""
    from app.service.kinds import kind_job

    return kind_job(**kwargs)


JOBS: dict[str, Callable[..., Any]] = {"validate": validate_job, "travel": travel_job, "render": render_job,
                                       "pack": pack_job, "season-standings": season_standings_job,
                                       "season-check": season_check_job, "job": service_job}


#: The pid of the process that ran :func:`warm_up` (the service's preloader, whose workers are
#: forked warm; a spawned worker's own), None before.
WARMED_IN: int | None = None
#: What the travel queries and pack verification import besides each game's analysis.
JOB_MODULES = ("app.cli.travel", "validators.game", "schema.packs", "app.cli.export", "validators.plugins",
               "validators.season", "app.service.kinds", "validators.arenadiff", "validators.webreport",
               "validators.players")


def warm_up() -> None:
    """Import what jobs need, so that no job pays for it: every installed game's analysis (its
    runner, engine and travel model: :meth:`validators.game.GameAnalysis.warm`) and validators,
    the travel queries' and pack verification's modules (:data:`JOB_MODULES`), every game's schema and the format layer's compiled validator (each
    game's new arena is read once). Run once in the service's preloader, which every worker is
    forked from (:mod:`app.service.prefork`). What fails to import is left to the job
    that needs it (answered 500 or 422 then, not at start-up). The editor's renderer (Qt) is
    not imported: a render job loads it."""
    import importlib
    import os

    import validators.run  # noqa: F401
    from schema.io import dumps, schema_registry
    from schema.ruleset import rulesets
    from validators.game import analysis
    from validators.registry import default_registry

    global WARMED_IN
    schema_registry()
    for rs in rulesets().values():  # every game's model and schema, so the first arena read doesn't load them
        try:
            analysis(rs.id).warm()
        except Exception:  # noqa: BLE001 - a broken game answers when used
            pass
        try:  # the format layer's validators compiled, the reading path taken once
            loads(dumps(rs.default_arena(), fmt="json"), source="<warm-up>", fmt="json")
        except Exception:  # noqa: BLE001
            pass
    for module in JOB_MODULES:
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 - e.g. a build without pack support: the job says so
            pass
    registry = default_registry()
    for code in registry.codes():
        try:
            registry.get(code)
        except Exception:  # a broken plugin answers when used, as a 500/422, not at start-up
            pass
    WARMED_IN = os.getpid()
