"""The FastAPI application of the validation service (see docs/service.md).

Every job (validation, travel query, render, pack verification) runs in a worker process with a
time limit; bodies are read under a size limit; identical requests are answered from a
content-hash LRU cache; every error is an RFC 9457 problem document.
"""

from __future__ import annotations

import asyncio
import json
import logging
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal, Optional

from fastapi import FastAPI, Path, Query, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response

from schema import arena_schema
from app.service import problems as prob
from app.service.cache import Cached, ResponseCache, cache_key
from app.service.limits import BodyTimeout, BodyTooLarge, ServiceConfig, human_size, read_body
from app.service.openapi import (
    ARENA_BODY,
    ARENA_TYPES,
    PACK_BODY,
    SEASON_BODY,
    SEASON_CHECK_BODY,
    SEASON_CHECK_REQUEST,
    SEASON_CHECK_SCHEMA,
    STANDINGS_SCHEMA,
    components,
    json_response,
    problem_responses,
    ref,
    report_schema,
)
from app.service.workers import JobTimeout, PoolUnavailable, QueueFull, WorkerCrashed, WorkerPool
from app.service import front, jobapi
from app.service.kinds import KINDS
from app.service.longjobs import JobsFull, JobStore

log = logging.getLogger("arena.service")
VERSION = "1"
#: Share of a job's time limit its analysis may use (engine.budget): its searches answer
#: "undecided" then and the report is written, before the worker would be killed (503).
ANALYSIS_SHARE = 0.8

TRAVEL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Gravstrike answers carry lengths, icons and damage; Car Wars answers carry policy, points, "
                   "dice and hard (speed changes); Arena Rex answers carry base_mm, mov, length (inches), moves "
                   "and activations, and a path of points; Glider-Pit answers carry the altitude on arrival, "
                   "turns (Movement Phases) and a path of maneuvers on hexes; Mothership answers carry ap and "
                   "rounds, and a path of squares.",
    "required": ["from", "to", "status", "reason", "at_least", "reachable", "turns", "time", "path"],
    "properties": {
        "from": {"type": "string"}, "to": {"type": "string"},
        "policy": {"type": "string", "enum": ["flat-out", "safe"], "description": "Car Wars: the driving policy."},
        "points": {"type": ["integer", "null"], "description": "Car Wars: movement points driven in the last turn."},
        "dice": {"type": ["integer", "null"], "description": "Car Wars: driving-roll dice rolled on the way."},
        "hard": {"type": ["integer", "null"], "description": "Car Wars: hard speed changes on the way."},
        "status": {"type": "string", "enum": ["reached", "unreachable", "beyond", "undecided"], "description": (
            "reached; unreachable (proven); beyond (not within the turn limit: at least `at_least` turns); "
            "undecided (a search limit - memory, or the service's time limit - stopped it: see `reason`)")},
        "reason": {"type": ["string", "null"]}, "at_least": {"type": ["number", "null"]},
        "reachable": {"type": "boolean"},
        "turns": {"type": ["integer", "null"]}, "lengths": {"type": ["integer", "null"]},
        "time": {"type": ["number", "null"], "description": "turns - 1 + lengths / speed"},
        "icons": {"type": ["integer", "null"]}, "damage": {"type": ["integer", "null"]},
        "base_mm": {"type": "number", "description": "Arena Rex: the base's diameter."},
        "mov": {"type": "number", "description": "Arena Rex: inches per move."},
        "length": {"type": ["number", "null"], "description": "Arena Rex: the shortest walk in inches."},
        "moves": {"type": ["integer", "null"], "description": "Arena Rex: moves of MOV inches it takes."},
        "activations": {"type": ["integer", "null"], "description": "Arena Rex: activations of up to three moves."},
        "altitude": {"type": ["integer", "null"], "description": "Glider-Pit: the altitude on arrival."},
        "ap": {"type": ["integer", "null"], "description": "Mothership: action points from source to goal."},
        "rounds": {"type": ["integer", "null"], "description": "Mothership: rounds at 5 AP for one Unit."},
        "path": {"type": "array", "items": {"type": "object", "properties": {
            "x": {"type": "number"}, "y": {"type": "number"}, "heading": {"type": "number"},
            "speed": {"type": "integer"}, "turn": {"type": "integer"}, "length": {"type": "integer"},
            "maneuver": {"type": "string"}, "pushed_by": {"type": ["string", "null"]}}}},
    },
}
VALIDATORS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {"type": "object", "required": ["code", "title", "severity", "games"], "properties": {
        "code": {"type": "string"}, "title": {"type": "string"},
        "severity": {"type": "string", "enum": ["error", "warning", "info"]},
        "needs_travel": {"type": "boolean"}, "enabled_by_default": {"type": "boolean"},
        "games": {"type": "array", "items": {"type": "string"},
                  "description": "The games (ruleset ids) the validator applies to; it never runs on others."}}},
}
PACK_RESULT_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["verified", "arenas"],
    "properties": {"verified": {"type": "boolean"}, "pack": {"type": "object"}, "files": {"type": "integer"},
                   "arenas": {"type": "array", "items": {"type": "object", "required": ["id", "agrees"], "properties": {
                       "id": {"type": "string"}, "path": {"type": "string"}, "agrees": {"type": "boolean"},
                       "differences": {"type": "array", "items": {"type": "string"}}}}}},
}
HEALTH_SCHEMA: dict[str, Any] = {"type": "object", "required": ["status"], "properties": {
    "status": {"type": "string"}, "workers": {"type": "integer"}, "busy": {"type": "integer"},
    "queue_size": {"type": "integer"},
    "recycled": {"type": "integer", "description": "Workers replaced after their job or memory limit."},
    "replaced": {"type": "integer", "description": "Workers killed (time limit, crash) and replaced."},
    "cache": {"type": "object"},
    "jobs": {"type": "object", "description": "Jobs unfinished (queued or running), kept, and the queue's size."}}}

#: A place as a game names it (``start:2``, ``checkpoint:A``, ``x,y,heading``, ``deploy:1@32``,
#: ``centre``, a lettuce's id...): its characters only; the game's travel hook reads it and
#: answers 422 invalid-parameters, located at ``from`` or ``to``, for a place it does not know.
PLACE_PATTERN = r"^[A-Za-z0-9_.:,@+-]{1,100}$"
EnableQ = Annotated[list[str], Query(description=(
    "Run only these validator codes (repeatable). Each must apply to the arena's game (its `games` in "
    "/v1/validators): one for another game is refused with 422 invalid-parameters."))]
DisableQ = Annotated[list[str], Query(description="Skip these validator codes (repeatable).")]
TierQ = Annotated[Optional[int], Query(ge=1, le=3, description="VP tier analysed (default: the arena's).")]
BudgetQ = Annotated[Optional[str], Query(pattern=r"^(\d{1,6}|unlimited)$",
                                         description="Maneuver icons per turn: N or `unlimited` (default: the arena's).")]
SourceQ = Annotated[Optional[str], Query(max_length=200, description="A name for the arena, reported as its file.")]

JobId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The job's id (from POST /v1/jobs).")]


def parse_budget(text: str | None) -> int | None | str:
    """``None`` -> ``"arena"`` (the arena's own), ``unlimited`` -> None, digits -> int."""
    if text is None:
        return "arena"
    return None if text == "unlimited" else int(text)


def arena_format(request: Request) -> str:
    """``json`` or ``yaml`` from the Content-Type (none: YAML, which also reads JSON); else 415."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if not ctype:
        return "yaml"
    for fmt, types in ARENA_TYPES.items():
        if ctype in types or (fmt == "json" and ctype.endswith("+json")):
            return fmt
    raise prob.ProblemError.of(415, "unsupported-media-type", "Unsupported media type",
                               f"send the arena as application/json or application/yaml, not {ctype}")


def create_app(config: ServiceConfig | None = None, clock: Callable[[], float] = time.time) -> FastAPI:
    """The service under ``config``; ``clock``: the jobs' wall clock (their times and TTL)."""
    cfg = config or ServiceConfig()
    temp = tempfile.TemporaryDirectory(prefix="arena-service-", dir=cfg.temp_dir)
    pool = WorkerPool(cfg.workers, queue_size=cfg.queue_size, timeout=cfg.timeout, init=cfg.worker_init,
                      startup_timeout=cfg.startup_timeout, temp_dir=temp.name, max_jobs=cfg.worker_max_jobs,
                      max_rss_mib=cfg.worker_max_rss_mib)
    cache = ResponseCache(cfg.cache_size)
    #: The jobs' own workers (forked from the same preloader), so that long jobs never hold the
    #: request workers; started with the first job.
    job_pool = WorkerPool(cfg.job_workers, queue_size=cfg.job_queue, timeout=cfg.job_timeout, init=cfg.worker_init,
                          startup_timeout=cfg.startup_timeout, temp_dir=temp.name, max_jobs=cfg.worker_max_jobs,
                          max_rss_mib=cfg.worker_max_rss_mib, preloader=pool.preloader)
    job_memory = cfg.analysis_memory_mib or None
    dask = (jobapi.DaskRunner(cfg.scheduler, cfg.job_timeout, ANALYSIS_SHARE * cfg.job_timeout, job_memory)
            if cfg.scheduler else None)
    runner = dask or jobapi.pool_runner(job_pool, cfg.job_timeout, ANALYSIS_SHARE * cfg.job_timeout, job_memory)
    store = JobStore(runner, queue=cfg.job_queue, concurrency=cfg.job_workers, ttl=cfg.job_ttl, keep=cfg.job_keep,
                     clock=clock)
    #: Requests being answered, by cache key: identical requests arriving meanwhile wait for the
    #: same answer instead of queueing the same work again (a burst of 50 identical validations
    #: costs one).
    inflight: dict[str, asyncio.Future[Cached]] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await pool.start()
        try:
            yield
        finally:
            await store.close()
            if dask is not None:
                await dask.close()
            await job_pool.close()
            await pool.close()
            temp.cleanup()

    app = FastAPI(title="Arena Studio validation service", version=VERSION, lifespan=lifespan,
                  description="Validate arenas (Gravstrike, Car Wars and every installed ruleset), query travel times, render and verify packs. "
                              "Errors are RFC 9457 problem documents.")
    app.state.config, app.state.pool, app.state.cache = cfg, pool, cache
    app.state.jobs, app.state.job_pool = store, job_pool
    prob.install(app)

    async def body_of(request: Request, limit: int) -> bytes:
        try:
            return await read_body(request, limit, cfg.body_timeout)
        except BodyTooLarge as exc:
            raise prob.ProblemError.of(413, "body-too-large", "Request body too large",
                                       f"the request body exceeds the {human_size(exc.limit)} limit") from None
        except BodyTimeout as exc:
            raise prob.ProblemError.of(408, "request-timeout", "Request timeout",
                                       f"the request body took longer than {exc.seconds:g} s to arrive",
                                       headers={"Connection": "close"}) from None

    async def dispatch(request: Request, job: str, body: bytes, params: dict[str, Any],
                       timeout: float | None = None, **extra: Any) -> Response:
        nocache = "no-cache" in request.headers.get("cache-control", "").lower() or \
            "no-store" in request.headers.get("cache-control", "").lower()
        key = cache_key(job, params, body)
        hit = None if nocache else cache.get(key)
        if hit is not None:
            return _respond(hit, "hit")
        running = None if nocache else inflight.get(key)
        if running is not None:  # the same request is being answered: share its answer
            return _respond(await asyncio.shield(running), "coalesced")
        if nocache:
            return _respond(await answer(job, key, body, params, timeout, extra, store=False), "bypass")
        future: asyncio.Future[Cached] = asyncio.get_running_loop().create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved even with no waiter
        inflight[key] = future
        try:
            item = await answer(job, key, body, params, timeout, extra, store=True)
        except BaseException as exc:
            future.set_exception(exc)
            raise
        else:
            future.set_result(item)
        finally:
            inflight.pop(key, None)
        return _respond(item, "miss")

    async def answer(job: str, key: str, body: bytes, params: dict[str, Any], timeout: float | None,
                     extra: dict[str, Any], store: bool) -> Cached:
        """Run the job in a worker; the response (cached when deterministic and ``store``)."""
        try:
            outcome = await pool.run(job, timeout=timeout, body=body, **params, **extra)
        except QueueFull:
            raise prob.ProblemError.of(429, "busy", "Too many requests",
                                       f"all {pool.size} workers are busy and {pool.queue_size} requests are "
                                       "already waiting; retry shortly", headers={"Retry-After": "1"}) from None
        except JobTimeout as exc:
            raise prob.ProblemError.of(503, "timeout", "Time limit exceeded",
                                       f"the {job} job took longer than the {exc.seconds:g} s limit and was "
                                       "stopped; simplify the arena or run it locally with the arena CLI",
                                       headers={"Retry-After": "5"}) from None
        except WorkerCrashed:
            raise prob.ProblemError.of(500, "worker-crashed", "Worker crashed",
                                       f"the worker running the {job} job died; it was replaced") from None
        except PoolUnavailable as exc:
            raise prob.ProblemError.of(503, "unavailable", "Service unavailable", str(exc)) from None
        if outcome[0] == "ok":
            item = Cached(200, outcome[1], outcome[2])
        else:
            doc = outcome[1]
            item = Cached(doc["status"], prob.MEDIA_TYPE, json.dumps(doc).encode())
        if store and item.status in (200, 422):
            cache.put(key, item)
        return item

    @app.post("/v1/validate", tags=["arenas"], response_class=Response, openapi_extra=ARENA_BODY,
              summary="Validate an arena",
              responses={**json_response(ref("Report"), "The report document (as `arena validate --json`), "
                                                        "whether or not there are findings."),
                         **problem_responses(408, 413, 415, 422, 429, 500, 503)})
    async def validate(request: Request, enable: EnableQ = [], disable: DisableQ = [],  # noqa: B006
                       tier: TierQ = None,
                       fail_on: Annotated[Literal["error", "warning", "info"], Query(
                           description="Severity at which the `Arena-Verdict` header says `fail`.")] = "error",
                       budget: BudgetQ = None, source: SourceQ = None,
                       players: Annotated[Optional[int], Query(ge=1, le=99, description=(
                           "Judge only the start set the arena's scenario declares for this many players "
                           "(`scenario.start_sets`; as `arena validate --players`). Default: the arena as it "
                           "stands and every declared count."))] = None) -> Response:
        fmt = arena_format(request)
        body = await body_of(request, cfg.max_body)
        params = {"fmt": fmt, "source": source or "request", "enable": list(dict.fromkeys(enable)),
                  "disable": sorted(set(disable)), "tier": tier, "budget": parse_budget(budget),
                  "report_source": source}
        if players is not None:  # (absent: the cache keys of requests without it stay as they were)
            params["players"] = players
        response = await dispatch(request, "validate", body, params, seconds=ANALYSIS_SHARE * cfg.timeout,
                                  memory_mib=cfg.analysis_memory_mib or None)
        if response.status_code == 200:
            response.headers["Arena-Verdict"] = _verdict(response.body, fail_on)
        return response

    @app.post("/v1/travel", tags=["arenas"], response_class=Response, openapi_extra=ARENA_BODY,
              summary="Least travel time between two places (as `arena travel --json`)",
              responses={**json_response(TRAVEL_SCHEMA, "The travel result and its path."),
                         **problem_responses(408, 413, 415, 422, 429, 500, 503)})
    async def travel(request: Request,
                     from_: Annotated[str, Query(alias="from", max_length=100, pattern=PLACE_PATTERN, description=(
                         "Where from, in the game's words (its travel hook reads it): e.g. start:N, checkpoint:ID "
                         "(Gravstrike), card:ID (Car Wars) or x,y,heading[,speed]; Arena Rex: deploy:N or x,y, "
                         "optionally @MM (base diameter); Glider-Pit: a launch zone's id or q,r,facing,speed,altitude; "
                         "Mothership: build:P, approach:P or x,y"))],
                     to: Annotated[str, Query(max_length=100, pattern=PLACE_PATTERN, description=(
                         "Gravstrike: checkpoint:ID, gate:ID, start:N or target:ID; Car Wars: card:ID, centre or "
                         "start:N; Arena Rex: centre, deploy:N, a hazard's id or x,y; Glider-Pit: centre, a launch "
                         "zone's id or q,r; Mothership: build:P, approach:P or x,y"))],
                     tier: TierQ = None, budget: BudgetQ = None,
                     exclusions: Annotated[Literal["pay", "avoid"], Query(
                         description="Exclusion fields active at the tier: pay their damage or avoid them.")] = "pay",
                     tolerance: Annotated[float, Query(ge=0.01, le=1.0, description=(
                         "Position tolerance in lengths (positions closer than this merge, sideslips are tried "
                         "in steps no larger): 0.25, the validators' setting, answers far goals on big arenas "
                         "within the time limit; 0.1 is finer and slower."))] = 0.25,
                     fewest_icons: Annotated[bool, Query(description=(
                         "Among the fastest plans, the one with fewest Maneuver icons, then least damage "
                         "(a slower search); by default any fastest plan."))] = False,
                     policy: Annotated[Literal["flat-out", "safe"], Query(description=(
                         "Car Wars: flat-out (fewest turns, driving-roll dice counted) or safe (no maneuver "
                         "dice). Ignored for Gravstrike."))] = "flat-out",
                     source: SourceQ = None) -> Response:
        fmt = arena_format(request)
        body = await body_of(request, cfg.max_body)
        params = {"fmt": fmt, "source": source or "request", "origin": from_, "goal": to, "tier": tier,
                  "budget": parse_budget(budget), "exclusions": exclusions, "tolerance": tolerance,
                  "fewest_icons": fewest_icons, "policy": policy}
        return await dispatch(request, "travel", body, params, seconds=ANALYSIS_SHARE * cfg.timeout,
                              memory_mib=cfg.analysis_memory_mib or None)

    @app.post("/v1/render", tags=["arenas"], response_class=Response, openapi_extra=ARENA_BODY,
              summary="Render an arena as SVG or PNG",
              responses={200: {"description": "The picture.",
                               "content": {"image/svg+xml": {"schema": {"type": "string"}},
                                           "image/png": {"schema": {"type": "string", "format": "binary"}}}},
                         **problem_responses(408, 413, 415, 422, 429, 500, 501, 503)})
    async def render(request: Request,
                     format: Annotated[Literal["svg", "png"], Query(description="Picture format.")] = "svg",
                     source: SourceQ = None) -> Response:
        fmt = arena_format(request)
        body = await body_of(request, cfg.max_body)
        params = {"fmt": fmt, "source": source or "request", "image": format}
        return await dispatch(request, "render", body, params)

    @app.post("/v1/packs/verify", tags=["packs"], response_class=Response, openapi_extra=PACK_BODY,
              summary="Verify an arena pack (as `arena pack verify`)",
              responses={**json_response(PACK_RESULT_SCHEMA, "The pack is intact; `verified` tells whether every "
                                                             "stored report agrees with a fresh validation."),
                         **problem_responses(408, 413, 422, 429, 500, 501, 503)})
    async def verify_pack(request: Request) -> Response:
        body = await body_of(request, cfg.max_pack_body)
        return await dispatch(request, "pack", body, {}, timeout=cfg.pack_timeout)

    @app.post("/v1/season/standings", tags=["seasons"], response_class=Response, openapi_extra=SEASON_BODY,
              summary="A season's standings (as `arena season standings --json`)",
              responses={**json_response(STANDINGS_SCHEMA, "Each player's placement points, season VP and kill "
                                                            "shots, ranked by the game's rules."),
                         **problem_responses(408, 413, 415, 422, 429, 500, 503)})
    async def season_standings(request: Request, source: SourceQ = None) -> Response:
        fmt = arena_format(request)
        body = await body_of(request, cfg.max_body)
        return await dispatch(request, "season-standings", body, {"fmt": fmt, "source": source or "request"})

    @app.post("/v1/season/check", tags=["seasons"], response_class=Response, openapi_extra=SEASON_CHECK_BODY,
              summary="Check a season: every event's arena validated under its scenario (as `arena season check "
                      "--json`)",
              responses={**json_response(SEASON_CHECK_SCHEMA, "Each event's report summary (or why its arena could "
                                                               "not be validated) and the season's findings."),
                         **problem_responses(408, 413, 415, 422, 429, 500, 503)})
    async def season_check(request: Request) -> Response:
        if arena_format(request) != "json":
            raise prob.ProblemError.of(415, "unsupported-media-type", "Unsupported media type",
                                       "send the season and its arenas as one application/json object")
        body = await body_of(request, cfg.max_pack_body)
        check_season_request(body)
        return await dispatch(request, "season-check", body, {}, timeout=cfg.pack_timeout,
                              seconds=ANALYSIS_SHARE * cfg.pack_timeout, memory_mib=cfg.analysis_memory_mib or None)

    @app.post("/v1/jobs", tags=["jobs"], response_class=Response, openapi_extra=jobapi.JOBS_BODY,
              summary="Start a job: validate, robustness, balance, generate, export, pack, simulate, season, "
                      "report or diff", description=jobapi.kinds_description(), status_code=202,
              responses={202: {"description": "The job is queued; poll its `links.self` (also the `Location` "
                                              "header).",
                               "content": {"application/json": {"schema": jobapi.JOB_CREATED_SCHEMA}}},
                         **problem_responses(408, 413, 415, 422, 429)})
    async def post_job(
        request: Request,
        kind: Annotated[Literal[KINDS], Query(description="What to run (see above).")],  # type: ignore[valid-type]
        source: SourceQ = None, enable: EnableQ = [], disable: DisableQ = [],  # noqa: B006
        tier: TierQ = None,
        budget: Annotated[Optional[str], Query(pattern=r"^(\d{1,6}|unlimited)$", description=(
            "validate, robustness: Maneuver icons per turn, N or `unlimited` (default: the arena's)."))] = None,
        players: Annotated[Optional[int], Query(ge=1, le=99, description=(
            "validate, robustness: judge only the start set declared for this many players; simulate: players "
            "(default: the scenario's); generate: players, 2 to 6 (default: the game's count)."))] = None,
        n: Annotated[Optional[int], Query(ge=1, le=10000, description="robustness: placements to validate "
                                                                        "(`--robustness N`; required).")] = None,
        seed: Annotated[Optional[int], Query(ge=0, le=2**32 - 1, description="robustness, generate, simulate: "
                                                                             "the seed (default 0).")] = None,
        free: Annotated[Optional[str], Query(max_length=200, pattern=r"^[a-z0-9_,-]+$", description=(
            "balance: comma-separated kinds that may move (default: every kind the game knows)."))] = None,
        code: Annotated[Optional[str], Query(max_length=100, description="balance: fix only this validator's "
                                                                        "findings.")] = None,
        element: Annotated[list[str], Query(description="balance: fix only findings naming this element "
                                                        "(repeatable).")] = [],  # noqa: B006
        seconds: Annotated[Optional[float], Query(ge=0, le=86400, description=(
            "balance, generate: seconds the search may take (the command's `--budget`; default 30 and 120)."))] = None,
        severity: Annotated[Optional[Literal["error", "warning", "info"]], Query(description=(
            "balance: fix findings at or above this severity (default warning)."))] = None,
        fail_on: Annotated[Optional[Literal["error", "warning", "info"]], Query(description=(
            "generate: a pass has no finding at or above this severity (default warning)."))] = None,
        output: Annotated[Optional[str], Query(max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", description=(
            "balance, generate, export, pack, report: the output file's name, as `-o` (its suffix picks YAML or "
            "JSON, or .tmx/.tmj for tiled; it names the result's download)."))] = None,
        system: Annotated[Optional[str], Query(max_length=100, description="generate: the game (ruleset id; "
                                                                           "default Gravstrike).")] = None,
        symmetry: Annotated[Optional[str], Query(max_length=40, description="generate: rotational:N, mirror or "
                                                                            "dihedral:N.")] = None,
        size: Annotated[Optional[float], Query(gt=0, le=1000, description="generate: table size across, in the "
                                                                          "game's units.")] = None,
        table: Annotated[Optional[str], Query(max_length=40, description="generate: the table's shape "
                                                                         "(square, polygon, circle or WxH).")] = None,
        format: Annotated[Optional[Literal["foundry", "geojson", "tiled", "uvtt", "svg"]], Query(
            description="export: the target (required).")] = None,
        px: Annotated[Optional[int], Query(ge=4, le=512, description="export: pixels per length for the "
                                                                     "pixel-based targets (default 64).")] = None,
        name: Annotated[Optional[str], Query(max_length=200, description="pack: the pack's name (default: from "
                                                                         "output).")] = None,
        version: Annotated[Optional[str], Query(max_length=50, description="pack: its version (default "
                                                                           "1.0.0).")] = None,
        author: Annotated[Optional[str], Query(max_length=200, description="pack: its author.")] = None,
        license: Annotated[Optional[str], Query(max_length=200, description="pack: its licence.")] = None,
        description: Annotated[Optional[str], Query(max_length=2000, description="pack: what it is for.")] = None,
        paper: Annotated[Optional[Literal["a4", "letter", "a3", "tabloid", "legal"]], Query(
            description="pack: paper of the printable PDFs (default a4).")] = None,
        only: Annotated[list[str], Query(description="pack: run only these validator codes "
                                                     "(repeatable).")] = [],  # noqa: B006
        games: Annotated[Optional[int], Query(ge=1, le=1_000_000, description="simulate: games to play "
                                                                              "(default 100).")] = None,
        policy: Annotated[Optional[str], Query(max_length=200, description="simulate: the bots' policy, or several "
                                                                           "joined by commas.")] = None,
        param: Annotated[list[str], Query(description="simulate: a play parameter, NAME=VALUE "
                                                      "(repeatable).")] = [],  # noqa: B006
        tolerance: Annotated[Optional[float], Query(ge=0, le=1, description="simulate: win-rate points a start may "
                                                                            "differ from 1/K.")] = None,
        before: Annotated[Optional[str], Query(max_length=200, description="diff: the name of arena a "
                                                                           "(default a.yaml).")] = None,
        after: Annotated[Optional[str], Query(max_length=200, description="diff: the name of arena b "
                                                                          "(default b.yaml).")] = None,
        verdict: Annotated[Optional[bool], Query(description="diff: validate both to compare their verdicts "
                                                             "(default true).")] = None,
    ) -> Response:
        values = {"source": source, "enable": enable, "disable": disable, "tier": tier, "budget": budget,
                  "players": players, "n": n, "seed": seed, "free": free, "code": code, "element": element,
                  "seconds": seconds, "severity": severity, "fail_on": fail_on, "output": output, "system": system,
                  "symmetry": symmetry, "size": size, "table": table, "format": format, "px": px, "name": name,
                  "version": version, "author": author, "license": license, "description": description,
                  "paper": paper, "only": only, "games": games, "policy": policy, "param": param,
                  "tolerance": tolerance, "before": before, "after": after, "verdict": verdict}
        params, filename = jobapi.check_params(kind, set(request.query_params.keys()), values)
        if store.unfinished() >= store.queue:  # before the body is read
            raise _jobs_full(store.queue)
        what = jobapi.KIND_BODY[kind]
        body = b""
        if what == "arena":
            fmt = arena_format(request)
            body = await body_of(request, cfg.max_body)
            params["fmt"] = fmt
            await _parsed(body, fmt, params.get("source") or "request")
        elif what in ("season", "diff"):
            if arena_format(request) != "json":
                raise prob.ProblemError.of(415, "unsupported-media-type", "Unsupported media type",
                                           f"send the {kind} job's body as one application/json object")
            body = await body_of(request, cfg.max_pack_body)
            if what == "season":
                check_season_request(body)
            else:
                await _diff_request(body, params)
        try:
            job = store.submit(kind, body, params, filename)
        except JobsFull:
            raise _jobs_full(store.queue) from None
        return JSONResponse({"id": job.id, "kind": job.kind, "state": job.state, "links": {"self": job.path}},
                            status_code=202, headers={"Location": job.path})

    def job_of(job_id: str) -> Any:
        job = store.get(job_id)
        if job is None:
            raise prob.ProblemError.of(404, "no-such-job", "Not found",
                                       f"no job {job_id} (never created, or forgotten: finished jobs are kept "
                                       f"{cfg.job_ttl:g} s, at most {cfg.job_keep})")
        return job

    @app.get("/v1/jobs/{job_id}", tags=["jobs"], summary="A job's state, progress and result",
             responses={**json_response(jobapi.JOB_SCHEMA, "The job (`result` inline when it is JSON)."),
                        **problem_responses(404)})
    async def get_job(job_id: JobId) -> JSONResponse:
        return JSONResponse(job_of(job_id).to_json())

    @app.get("/v1/jobs/{job_id}/result", tags=["jobs"], response_class=Response,
             summary="A finished job's result, with its content type",
             responses={200: {"description": "The result: JSON (a report, a simulation, a diff...), the HTML "
                                             "report, a pack or export file (a zip of several), an arena file.",
                              "content": {t: {"schema": {}} for t in jobapi.RESULT_TYPES}},
                        **problem_responses(404, 409)})
    async def get_job_result(job_id: JobId) -> Response:
        job = job_of(job_id)
        if job.state != "done" or job.result is None:
            raise prob.ProblemError.of(409, "job-not-done", "Job not done",
                                       f"the job is {job.state}" + ("; see its error" if job.state == "failed" else ""))
        headers = {"X-Content-Type-Options": "nosniff"}
        filename = jobapi.result_name(job)
        if filename is not None:
            how = "inline" if job.media_type.startswith("text/html") else "attachment"
            headers["Content-Disposition"] = f'{how}; filename="{filename}"'
        return Response(job.result, media_type=job.media_type, headers=headers)

    @app.delete("/v1/jobs/{job_id}", tags=["jobs"], status_code=204, response_class=Response,
                summary="Cancel a job (a running one is stopped), or forget a finished one",
                responses={204: {"description": "Cancelled (its state is now `cancelled`) or forgotten."},
                           **problem_responses(404)})
    async def delete_job(job_id: JobId) -> Response:
        job_of(job_id)
        store.cancel(job_id)
        return Response(status_code=204)

    @app.get("/", include_in_schema=False)
    async def front_page() -> Response:
        """The browser front page (docs/service.md#the-front-page)."""
        return Response(front.page(cfg.max_body), media_type="text/html; charset=utf-8", headers=front.HEADERS)

    @app.get("/front/{name}", include_in_schema=False)
    async def front_asset(name: Annotated[str, Path(max_length=20)]) -> Response:
        text = front.asset(name)
        if text is None:
            raise prob.ProblemError.of(404, "not-found", "Not found", f"the front page has no file {name}")
        return Response(text, media_type=front.ASSETS[name], headers=front.HEADERS)

    @app.get("/v1/schema/arena", tags=["schemas"], summary="The arena file JSON schema",
             responses=json_response({"type": "object"}, "JSON Schema (2020-12)."))
    async def get_arena_schema() -> JSONResponse:
        return JSONResponse(arena_schema())

    @app.get("/v1/schema/report", tags=["schemas"], summary="The report document JSON schema",
             responses=json_response({"type": "object"}, "JSON Schema (2020-12)."))
    async def get_report_schema() -> JSONResponse:
        return JSONResponse(report_schema())

    @app.get("/v1/validators", tags=["validators"], summary="Installed validators",
             responses=json_response(VALIDATORS_SCHEMA, "Codes, titles and default severities."))
    async def list_validators() -> JSONResponse:
        return JSONResponse(_validators())

    @app.get("/healthz", tags=["service"], summary="Liveness and load",
             responses=json_response(HEALTH_SCHEMA, "The service is up."))
    async def healthz() -> JSONResponse:
        return JSONResponse({"status": "ok", "workers": pool.size, "busy": pool.busy, "queue_size": pool.queue_size,
                             "recycled": pool.recycled, "replaced": pool.replaced,
                             "cache": {"entries": len(cache), "hits": cache.hits, "misses": cache.misses},
                             "jobs": {"unfinished": store.unfinished(), "kept": len(store), "queue": store.queue}})

    def custom_openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            doc.setdefault("components", {}).setdefault("schemas", {}).update(components(arena_schema()))
            codes = [v["code"] for v in _validators()]
            for param in doc["paths"]["/v1/validate"]["post"].get("parameters", []):
                if param["name"] in ("enable", "disable"):  # only installed codes are accepted
                    param["schema"]["items"] = {"type": "string", "enum": codes}
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = custom_openapi  # type: ignore[method-assign]
    return app


def _jobs_full(queue: int) -> prob.ProblemError:
    return prob.ProblemError.of(429, "busy", "Too many requests",
                                f"{queue} jobs are already queued or running; retry when one has finished",
                                headers={"Retry-After": "5"})


async def _parsed(body: bytes, fmt: str, source: str) -> None:
    """Refuse (422 invalid-arena, every problem located) an arena the format layer refuses; read
    on a thread, off the event loop."""
    from schema import ArenaError

    from app.service.jobs import invalid_arena, parse_arena

    try:
        await asyncio.to_thread(parse_arena, body, fmt, source)
    except ArenaError as exc:
        raise prob.ProblemError(invalid_arena(exc)[1]) from None


async def _diff_request(body: bytes, params: dict[str, Any]) -> None:
    """Refuse (422) a diff body that is not ``{"a": TEXT, "b": TEXT}`` or holds an invalid arena."""
    import jsonschema

    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        raise prob.ProblemError.of(422, "invalid-request", "Invalid request body",
                                   'the body is not a JSON object {"a": TEXT, "b": TEXT}') from None
    errors = list(jsonschema.Draft202012Validator(jobapi.DIFF_REQUEST).iter_errors(doc))
    if errors:
        items = [prob.param_problem("body", "/".join(map(str, e.absolute_path)), e.message[:300]) for e in errors[:20]]
        raise prob.ProblemError(prob.problem(422, "invalid-request", "Invalid request body",
                                             f"the body has {len(errors)} problem(s)", items))
    await _parsed(doc["a"].encode("utf-8"), "yaml", params.get("before") or "a.yaml")
    await _parsed(doc["b"].encode("utf-8"), "yaml", params.get("after") or "b.yaml")


def check_season_request(body: bytes) -> None:
    """Refuse (422 invalid-request, located) a season-check body that is not the documented object."""
    import jsonschema

    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        raise prob.ProblemError.of(422, "invalid-request", "Invalid request body",
                                   "the body is not a JSON object {\"season\": TEXT, \"arenas\": {PATH: TEXT}}") from None
    errors = list(jsonschema.Draft202012Validator(SEASON_CHECK_REQUEST).iter_errors(doc))
    if errors:
        items = [prob.param_problem("body", "/".join(map(str, e.absolute_path)), e.message[:300])
                 for e in errors[:20]]
        raise prob.ProblemError(prob.problem(422, "invalid-request", "Invalid request body",
                                             f"the body has {len(errors)} problem(s)", items))


def _respond(item: Cached, cache_state: str) -> Response:
    return Response(item.body, status_code=item.status, media_type=item.media_type, headers={"X-Cache": cache_state})


def _verdict(body: bytes | memoryview, fail_on: str) -> str:
    from validators.findings import at_least

    doc = json.loads(bytes(body))
    return "fail" if any(at_least(f["severity"], fail_on) for f in doc.get("findings", [])) else "pass"


def _validators() -> list[dict[str, Any]]:
    from validators.registry import default_registry, games_of

    registry = default_registry()
    out = []
    for code in registry.codes():
        try:
            v = registry.get(code)
        except Exception:
            log.warning("validator %r could not be loaded", code, exc_info=log.isEnabledFor(logging.DEBUG))
            continue
        out.append({"code": v.id, "title": v.title, "severity": v.severity,
                    "needs_travel": bool(getattr(v, "needs_travel", False)), "enabled_by_default": True,
                    "games": list(games_of(v))})
    return out
