"""``arena serve``: the validation service (FastAPI under uvicorn). See docs/service.md."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from app.cli.shared import app
from app.service.limits import MiB, ServiceConfig


@app.command("serve")
def serve_cmd(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8765,
    workers: Annotated[Optional[int], typer.Option("--workers", min=1, max=64, help="Validation worker processes (default: cores, at most 4).")] = None,
    queue: Annotated[int, typer.Option("--queue", min=0, help="Requests that may wait for a worker; more get 429.")] = 64,
    timeout: Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds one job may run (503 past it).")] = 10.0,
    max_body: Annotated[float, typer.Option("--max-body-mib", min=0.001, help="Largest arena request body, MiB.")] = 1.0,
    max_pack: Annotated[float, typer.Option("--max-pack-mib", min=0.001, help="Largest pack upload, MiB.")] = 20.0,
    cache: Annotated[int, typer.Option("--cache", min=0, help="Responses kept in the content-hash cache (0: off).")] = 256,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level.")] = "info",
    header_timeout: Annotated[float, typer.Option("--header-timeout", min=0.1, help="Seconds a client may take to send a request's headers (then 408 and closed).")] = 10.0,
    worker_max_jobs: Annotated[int, typer.Option("--worker-max-jobs", min=0, help="Replace a worker after this many jobs (0: never).")] = 500,
    worker_max_rss: Annotated[int, typer.Option("--worker-max-rss-mib", min=0, help="Replace a worker whose resident memory passes this many MiB (0: never).")] = 512,
    analysis_memory: Annotated[float, typer.Option("--analysis-memory-mib", min=0, envvar="ARENA_MEMORY_LIMIT_MIB",
                                                   help="Memory one validation or travel query may hold, MiB; past it the analysis stops and answers undecided (0: no cap).")] = 1024.0,
    job_timeout: Annotated[float, typer.Option("--job-timeout", min=1, help="Seconds one job (POST /v1/jobs) may run; then it is stopped and fails.")] = 600.0,
    job_queue: Annotated[int, typer.Option("--job-queue", min=1, help="Jobs that may be queued or running at once; more get 429.")] = 16,
    job_workers: Annotated[int, typer.Option("--job-workers", min=1, max=64, help="Worker processes running jobs (jobs run at once).")] = 1,
    job_ttl: Annotated[float, typer.Option("--job-ttl", min=1, help="Seconds a finished job and its result are kept.")] = 3600.0,
    job_keep: Annotated[int, typer.Option("--job-keep", min=1, help="Finished jobs kept at most (the oldest go first).")] = 100,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Run jobs on a Dask cluster: tcp://HOST:PORT of its scheduler.")] = None,
) -> None:
    """Serve the HTTP validation API (OpenAPI at /openapi.json, docs at /docs)."""
    from app.service.app import create_app
    from app.service.server import run

    if scheduler and not scheduler.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise typer.BadParameter("give the scheduler's address, e.g. tcp://10.0.0.5:8786", param_hint="--scheduler")
    defaults = ServiceConfig()
    config = ServiceConfig(workers=workers or defaults.workers, queue_size=queue, timeout=timeout,
                           max_body=int(max_body * MiB), max_pack_body=int(max_pack * MiB), cache_size=cache,
                           header_timeout=header_timeout, worker_max_jobs=worker_max_jobs,
                           worker_max_rss_mib=worker_max_rss, analysis_memory_mib=analysis_memory,
                           job_timeout=job_timeout, job_queue=job_queue, job_workers=job_workers, job_ttl=job_ttl,
                           job_keep=job_keep, scheduler=scheduler)
    run(create_app(config), config, host=host, port=port, log_level=log_level)
