"""``/v1/jobs``: what each kind takes (query parameters, body), its OpenAPI description, and the
runners that execute jobs - the service's job worker processes or a Dask cluster
(docs/service.md#jobs). The work itself: :mod:`app.service.kinds`."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import PurePosixPath
from typing import Any

from app.service import problems as prob
from app.service.kinds import KINDS
from app.service.longjobs import Job, JobFailed, Progress, Runner
from app.service.openapi import SEASON_CHECK_REQUEST, ref
from app.service.workers import JobTimeout, PoolUnavailable, QueueFull, WorkerCrashed, WorkerPool

log = logging.getLogger("arena.service")

#: The query parameters each kind reads (besides ``kind``), as the CLI command's options.
KIND_PARAMS: dict[str, tuple[str, ...]] = {
    "validate": ("source", "enable", "disable", "tier", "budget", "players"),
    "robustness": ("source", "n", "seed", "enable", "disable", "tier", "budget", "players"),
    "balance": ("source", "free", "code", "element", "seconds", "severity", "output"),
    "generate": ("system", "seed", "players", "symmetry", "size", "table", "seconds", "fail_on", "output"),
    "export": ("source", "format", "px", "output"),
    "pack": ("source", "output", "name", "version", "author", "license", "description", "paper", "only"),
    "simulate": ("source", "games", "seed", "players", "policy", "param", "tolerance"),
    "season": ("source",),
    "report": ("source", "output"),
    "diff": ("before", "after", "verdict"),
}
#: What each kind's body is: an arena (JSON or YAML), none, or a JSON object.
KIND_BODY = {"validate": "arena", "robustness": "arena", "balance": "arena", "generate": "none", "export": "arena",
             "pack": "arena", "simulate": "arena", "season": "season", "report": "arena", "diff": "diff"}
#: The CLI command each kind mirrors (docs and OpenAPI).
KIND_COMMAND = {
    "validate": "arena validate FILE --json", "robustness": "arena validate FILE --robustness N --seed S --json",
    "balance": "arena balance FILE -o OUTPUT --json (plus `arena`: the fixed arena's text)",
    "generate": "arena generate -o OUTPUT (the arena file)", "export": "arena export FILE --to FORMAT -o OUTPUT",
    "pack": "arena pack build SOURCE -o OUTPUT", "simulate": "arena simulate FILE --json",
    "season": "arena season check FILE --json", "report": "arena report FILE -o OUTPUT (the HTML page)",
    "diff": "arena diff BEFORE AFTER --json"}
#: Default file name extension of each export target's main file.
EXPORT_SUFFIX = {"uvtt": ".dd2vtt", "foundry": ".json", "tiled": ".tmx", "geojson": ".geojson", "svg": ".svg"}
ARENA_SUFFIXES = (".yaml", ".yml", ".json")

DIFF_REQUEST: dict[str, Any] = {
    "type": "object", "required": ["a", "b"], "additionalProperties": False,
    "properties": {"a": {"type": "string", "maxLength": 1048576, "description": "The older arena file's text (YAML or JSON)."},
                   "b": {"type": "string", "maxLength": 1048576, "description": "The newer arena file's text."}}}

JOBS_BODY: dict[str, Any] = {
    "requestBody": {
        "required": False,
        "description": (
            "By kind: validate, robustness, balance, export, pack, simulate and report take an arena, as JSON "
            "(`application/json`) or YAML (`application/yaml`, `text/yaml`, `text/plain`; at most 1 MiB) - it is "
            "read when the job is posted (422 `invalid-arena` with every located problem); season takes "
            "`{\"season\": TEXT, \"arenas\": {PATH: TEXT}}` as `POST /v1/season/check` does and diff takes "
            "`{\"a\": TEXT, \"b\": TEXT}`, both `application/json` (at most 20 MiB); generate takes no body."),
        "content": {"application/json": {"schema": {"oneOf": [ref("Arena"), SEASON_CHECK_REQUEST, DIFF_REQUEST]}},
                    "application/yaml": {"schema": ref("Arena")}},
    }
}

_PROBLEM_OR_NULL: dict[str, Any] = {"oneOf": [{"type": "null"}, ref("Problem")]}
JOB_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["id", "kind", "state", "progress", "created", "started", "finished", "result",
                                   "links", "error"],
    "properties": {
        "id": {"type": "string"}, "kind": {"type": "string", "enum": list(KINDS)},
        "state": {"type": "string", "enum": ["queued", "running", "done", "failed", "cancelled"]},
        "progress": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["done", "total", "note"], "properties": {
            "done": {"type": "integer"}, "total": {"type": ["integer", "null"]}, "note": {"type": "string"}}}]},
        "created": {"type": "string", "description": "ISO 8601, UTC."},
        "started": {"type": ["string", "null"]}, "finished": {"type": ["string", "null"]},
        "result": {"description": "The result when the job is done and it is JSON (validate, robustness, balance, "
                                  "simulate, season, diff); else null: fetch it from links.result."},
        "links": {"type": "object", "required": ["self"], "properties": {"self": {"type": "string"},
                                                                         "result": {"type": "string"}}},
        "error": {**_PROBLEM_OR_NULL, "description": "Why the job failed (a problem document), else null."}}}
JOB_CREATED_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["id", "kind", "state", "links"],
    "properties": {"id": {"type": "string"}, "kind": {"type": "string", "enum": list(KINDS)},
                   "state": {"type": "string", "enum": ["queued"]},
                   "links": {"type": "object", "required": ["self"], "properties": {"self": {"type": "string"}}}}}
RESULT_TYPES = ("application/json", "text/html", "application/zip", "application/yaml", "image/svg+xml",
                "application/xml", "application/geo+json")


def kinds_description() -> str:
    lines = ["Start a long task as a job: 202 and the job's id; poll `GET /v1/jobs/{id}`. Each kind's result is "
             "the CLI command's output, byte for byte. Kinds, the command each mirrors and the query parameters "
             "each reads (any other is refused with 422):", ""]
    for kind in KINDS:
        params = ", ".join(f"`{p}`" for p in KIND_PARAMS[kind]) or "none"
        lines.append(f"- `{kind}` ({KIND_BODY[kind]} body): `{KIND_COMMAND[kind]}`; parameters: {params}")
    return "\n".join(lines)


def _refuse(name: str, message: str) -> prob.ProblemError:
    return prob.ProblemError(prob.problem(422, "invalid-parameters", "Invalid request parameters", message,
                                          [prob.param_problem("query", name, message)]))


def parse_parameter(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of simulate's ``param`` (as ``arena simulate --param``): the value read as
    JSON, else kept as text."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise _refuse("param", f"give NAME=VALUE, not {text!r}")
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value


def check_params(kind: str, given: set[str], values: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The parameters a job of ``kind`` runs with (defaults filled), and its result's file name;
    422 for a parameter the kind does not read or a value it refuses."""
    allowed = set(KIND_PARAMS[kind])
    extra = sorted(given - allowed - {"kind"})
    if extra:
        raise _refuse(extra[0], f"the {kind} kind does not read {', '.join(extra)}; it reads "
                                f"{', '.join(KIND_PARAMS[kind]) or 'no parameters'}")
    params = {k: v for k, v in values.items() if k in allowed and v is not None and v != []}
    source = params.get("source")
    stem = PurePosixPath(source).stem if source else "arena"
    budget = params.get("budget")
    if budget is not None:
        if budget != "unlimited" and not budget.isdigit():
            raise _refuse("budget", f"{budget!r}: the Maneuver icons per turn are N or unlimited")
        params["budget"] = None if budget == "unlimited" else int(budget)
    elif kind in ("validate", "robustness"):
        params["budget"] = "arena"
    if kind in ("validate", "robustness"):
        params["enable"] = list(dict.fromkeys(params.get("enable", [])))
        params["disable"] = sorted(set(params.get("disable", [])))
    if kind == "robustness" and "n" not in params:
        raise _refuse("n", "the robustness kind needs n, the placements to validate (as --robustness N)")
    if kind == "generate":
        players = params.get("players")
        if players is not None and not 2 <= players <= 6:
            raise _refuse("players", "generate places 2 to 6 players")
        system = params.get("system")
        if system is not None:
            from schema.ruleset import rulesets

            if system not in rulesets():
                raise _refuse("system", f"unknown game {system!r}; installed: {', '.join(rulesets())}")
        if params.get("seconds", 1.0) < 1.0:
            raise _refuse("seconds", "generate searches for at least 1 second")
    if kind == "simulate":
        params["param"] = dict(parse_parameter(p) for p in params.get("param", []))
    filename = None
    if kind in ("balance", "generate"):
        output = params.setdefault("output", f"{stem}.fixed.yaml" if kind == "balance" else "arena.yaml")
        if PurePosixPath(output).suffix.lower() not in ARENA_SUFFIXES:
            raise _refuse("output", f"{output}: an arena file ends in .yaml, .yml or .json")
        filename = output
    elif kind == "export":
        if "format" not in params:
            raise _refuse("format", f"the export kind needs format: one of {', '.join(EXPORT_SUFFIX)}")
        filename = params.setdefault("output", stem + EXPORT_SUFFIX[params["format"]])
    elif kind == "pack":
        filename = params.setdefault("output", f"{stem}.arenapack.zip")
    elif kind == "report":
        filename = params.setdefault("output", f"{stem}.html")
    return params, filename


def result_name(job: Job) -> str | None:
    """The result's file name: the kind's output (an export of several files: a zip named after it)."""
    if job.filename is None:
        return None
    if job.kind == "export" and job.media_type == "application/zip":
        return PurePosixPath(job.filename).stem + ".zip"
    return job.filename


def _timeout_problem(kind: str, seconds: float) -> dict[str, Any]:
    return prob.problem(503, "timeout", "Time limit exceeded",
                        f"the {kind} job took longer than the {seconds:g} s job limit and was stopped")


def pool_runner(pool: WorkerPool, timeout: float, seconds: float, memory_mib: float | None) -> Runner:
    """Jobs on the service's job worker processes (progress reported; cancelling kills the worker)."""

    async def run(job: Job, progress: Progress) -> Any:
        try:
            return await pool.run("job", timeout=timeout, progress=progress, kind=job.kind, body=job.body,
                                  params=job.params, seconds=seconds, memory_mib=memory_mib)
        except JobTimeout:
            raise JobFailed(_timeout_problem(job.kind, timeout)) from None
        except WorkerCrashed:
            raise JobFailed(prob.problem(500, "worker-crashed", "Worker crashed",
                                         f"the worker running the {job.kind} job died; it was replaced")) from None
        except (PoolUnavailable, QueueFull) as exc:
            raise JobFailed(prob.problem(503, "unavailable", "Service unavailable", str(exc) or "no worker")) from None

    return run


class DaskRunner:
    """Jobs on a Dask distributed cluster (``arena serve --scheduler ADDR``): each job is one task
    (:func:`app.service.kinds.kind_job`; the cluster's workers need Arena Studio installed).
    The job's time limit is kept here (the task is cancelled past it) and its analysis caps there;
    progress is not reported from the cluster (``progress`` stays null until the job ends)."""

    def __init__(self, address: str, timeout: float, seconds: float, memory_mib: float | None) -> None:
        self.address, self.timeout, self.seconds, self.memory_mib = address, timeout, seconds, memory_mib
        self._client: Any = None
        self._lock = asyncio.Lock()

    async def client(self) -> Any:
        async with self._lock:
            if self._client is None:
                from distributed import Client

                from validators.fanout import CONNECT_TIMEOUT

                self._client = await Client(self.address, asynchronous=True, timeout=CONNECT_TIMEOUT)
            return self._client

    async def __call__(self, job: Job, progress: Progress) -> Any:
        from app.service.kinds import kind_job

        try:
            client = await self.client()
        except (OSError, TimeoutError) as exc:
            raise JobFailed(prob.problem(503, "unavailable", "Service unavailable",
                                         f"cannot reach the Dask scheduler {self.address}: {exc}")) from None
        future = client.submit(kind_job, job.kind, job.body, job.params, None, self.seconds, self.memory_mib,
                               pure=False, key=f"arena-job-{job.kind}-{job.id}")
        try:
            return await asyncio.wait_for(future, self.timeout)
        except asyncio.TimeoutError:
            await future.cancel()
            raise JobFailed(_timeout_problem(job.kind, self.timeout)) from None
        except asyncio.CancelledError:
            await future.cancel()
            raise

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
