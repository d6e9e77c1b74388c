"""``/v1/jobs`` (issue 41 point 3): every long task as a job - the same result as the CLI command,
byte for byte, for every kind; the job's life (queued, running, done, failed, cancelled),
progress, 404/409/422/429, the time limit, cancelling a running job; the store's TTL and count on
an injected clock. Small arenas: Glider-Pit's hexagonal pit, Mothership's battlefield."""

from __future__ import annotations

import asyncio
import io
import json
import os
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import load_commands
from app.cli.shared import app as cli
from app.service.app import create_app
from app.service.limits import ServiceConfig
from app.service.longjobs import JobsFull, JobStore

ROOT = Path(__file__).resolve().parents[2]
PIT = Path("arenas/glider-pit-gladiators/hexagonal-pit.yaml")
CROOKED = Path("arenas/glider-pit-gladiators/crooked-pit-unfair.yaml")
FIELD = Path("arenas/mothership-grid/battlefield-3x5.yaml")
REX = Path("arenas/arena-rex/colosseum-30.yaml")
LOPSIDED = Path("arenas/mothership-grid/lopsided-battlefield-unfair.yaml")
YAML = {"content-type": "application/yaml"}
EPOCH = "1767225600"  # 2026-01-01: the report's date, for the job and the CLI alike
TINY = "format: arena-studio/1\nsystem: gravstrike\nname: {name}\nscenario:\n  veteran_limit: 0\n"
#: A Gravstrike arena, which the test plugins' slow validator judges (it sleeps 30 s).
SLOW = TINY.format(name="Slow").encode()
SEASON = ("format: arena-studio-season/1\nsystem: gravstrike\nname: Small\nevents:\n"
          "  - {name: One, arena: a.yaml, results: {A: 12, B: 3}}\n"
          "  - {name: Two, arena: a.yaml, scenario: {veteran_limit: 1}, multiplier: 2, results: {B: 12, A: 3}}\n")


@pytest.fixture(scope="module", autouse=True)
def at_root() -> Iterator[None]:
    """Paths as a user gives them (relative), the report's date fixed, for both sides."""
    before, epoch = Path.cwd(), os.environ.get("SOURCE_DATE_EPOCH")
    os.chdir(ROOT)
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        yield
    finally:
        os.chdir(before)
        if epoch is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = epoch


@pytest.fixture(scope="module")
def client(at_root: None) -> Iterator[TestClient]:
    with TestClient(create_app(ServiceConfig(workers=1, job_timeout=300, job_queue=4,
                                             worker_init="tests.service.helpers:install_test_plugins")),
                    raise_server_exceptions=False) as c:
        yield c


def wait(client: TestClient, job_id: str, states: tuple[str, ...] = ("done", "failed", "cancelled"),
         deadline: float = 240.0) -> dict[str, Any]:
    """Poll the job until it is in one of ``states`` (the deadline only guards a hang)."""
    end = time.monotonic() + deadline
    while True:
        doc: dict[str, Any] = client.get(f"/v1/jobs/{job_id}").json()
        if doc["state"] in states:
            return doc
        assert time.monotonic() < end, f"job {job_id} still {doc['state']}"
        time.sleep(0.05)


def job(client: TestClient, kind: str, query: str = "", body: bytes | None = None,
        headers: dict[str, str] | None = None) -> tuple[dict[str, Any], Any]:
    """Run a job to its end: its document and its result's response."""
    r = client.post(f"/v1/jobs?kind={kind}{query}", content=body, headers=headers or YAML)
    assert r.status_code == 202, r.text
    created = r.json()
    assert created["state"] == "queued" and r.headers["location"] == created["links"]["self"] == f"/v1/jobs/{created['id']}"
    doc = wait(client, created["id"])
    assert doc["state"] == "done", doc
    result = client.get(doc["links"]["result"])
    assert result.status_code == 200
    return doc, result


def run_cli(*args: str) -> bytes:
    load_commands()
    r = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    return r.stdout_bytes


# -- the same results as the CLI, byte for byte ------------------------------------------------

def test_validate_job_is_arena_validate_json(client: TestClient) -> None:
    doc, result = job(client, "validate", f"&source={PIT}", PIT.read_bytes())
    assert result.headers["content-type"] == "application/json"
    assert result.content == run_cli("validate", str(PIT), "--json")
    assert doc["result"] == json.loads(result.content)  # inline too
    assert doc["progress"]["done"] == doc["progress"]["total"] > 0  # the validation's steps were reported
    assert doc["created"] <= doc["started"] <= doc["finished"] and doc["error"] is None


def test_report_job_is_arena_report(client: TestClient, tmp_path: Path) -> None:
    doc, result = job(client, "report", f"&source={PIT}", PIT.read_bytes())
    out = tmp_path / "pit.html"
    run_cli("report", str(PIT), "-o", str(out))
    assert result.headers["content-type"] == "text/html; charset=utf-8"
    assert result.headers["content-disposition"] == 'inline; filename="hexagonal-pit.html"'
    assert result.content == out.read_bytes() and b"2026-01-01" in result.content
    assert doc["result"] is None  # not JSON: fetched from links.result


def test_simulate_job_is_arena_simulate_json(client: TestClient) -> None:
    doc, result = job(client, "simulate", "&games=6&seed=3", PIT.read_bytes())
    assert result.content == run_cli("simulate", str(PIT), "--games", "6", "--seed", "3", "--json")
    assert doc["progress"] == {"done": 6, "total": 6, "note": "games"}


def test_robustness_job_is_arena_validate_robustness(client: TestClient) -> None:
    _, result = job(client, "robustness", f"&n=2&seed=5&source={REX}", REX.read_bytes())
    assert result.content == run_cli("validate", str(REX), "--robustness", "2", "--seed", "5", "--json")
    assert json.loads(result.content)["robustness"]["validated"] == 2


def test_balance_job_is_arena_balance_json(client: TestClient, tmp_path: Path) -> None:
    _, result = job(client, "balance", f"&source={LOPSIDED}&output=fixed.yaml", LOPSIDED.read_bytes())
    fixed = tmp_path / "fixed.yaml"
    cli_doc = json.loads(run_cli("balance", str(LOPSIDED), "-o", str(fixed), "--json"))
    doc = json.loads(result.content)
    assert doc.pop("arena") == fixed.read_text("utf-8")  # the fixed arena, as the command writes it
    assert cli_doc.pop("output") == str(fixed) and doc.pop("output") == "fixed.yaml"
    assert doc.pop("seconds") >= 0 and cli_doc.pop("seconds") >= 0  # the search's time: the one field that differs
    assert doc == cli_doc and doc["edits"]


def test_generate_job_is_arena_generate(client: TestClient, tmp_path: Path) -> None:
    q = "&system=mothership-grid&seed=0&seconds=60&fail_on=error&output=gen.yaml"
    _, result = job(client, "generate", q)
    out = tmp_path / "gen.yaml"
    run_cli("generate", "-o", str(out), "--system", "mothership-grid", "--seed", "0", "--budget", "60",
            "--fail-on", "error", "--workers", "1")
    assert result.headers["content-type"] == "application/yaml"
    assert result.headers["content-disposition"] == 'attachment; filename="gen.yaml"'
    assert result.content == out.read_bytes()


def test_export_job_is_arena_export(client: TestClient, tmp_path: Path) -> None:
    _, result = job(client, "export", f"&format=geojson&source={PIT}", PIT.read_bytes())
    run_cli("export", str(PIT), "--to", "geojson", "-o", str(tmp_path / "pit.geojson"))
    assert result.headers["content-disposition"] == 'attachment; filename="hexagonal-pit.geojson"'
    assert result.content == (tmp_path / "pit.geojson").read_bytes()
    # a grid map for Tiled is written with its tileset beside it: the job answers a zip of both
    _, result = job(client, "export", "&format=tiled&output=field.tmx", FIELD.read_bytes())
    run_cli("export", str(FIELD), "--to", "tiled", "-o", str(tmp_path / "field.tmx"))
    assert result.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(result.content)) as z:
        assert sorted(z.namelist()) == sorted(p.name for p in tmp_path.glob("field.*")) == ["field.tiles.png", "field.tmx"]
        for name in z.namelist():
            assert z.read(name) == (tmp_path / name).read_bytes()


def test_pack_job_is_arena_pack_build(client: TestClient, tmp_path: Path) -> None:
    _, result = job(client, "pack", f"&source={PIT}&output=pit.arenapack.zip", PIT.read_bytes())
    out = tmp_path / "pit.arenapack.zip"
    run_cli("pack", "build", str(PIT), "-o", str(out))
    assert result.headers["content-type"] == "application/zip"
    assert result.content == out.read_bytes()


def test_season_job_is_arena_season_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (a service of its own: the test plugins' validators would judge the season's Gravstrike arena)
    (tmp_path / "s.yaml").write_text(SEASON)
    (tmp_path / "a.yaml").write_text(TINY.format(name="A"))
    body = json.dumps({"season": SEASON, "arenas": {"a.yaml": TINY.format(name="A")}}).encode()
    with TestClient(create_app(ServiceConfig(workers=1))) as client:
        _, result = job(client, "season", "&source=s.yaml", body, {"content-type": "application/json"})
    monkeypatch.chdir(tmp_path)
    cli_out = run_cli("season", "check", "s.yaml", "--json")
    # the one difference: an event's `file` is the arena's path on disk for the CLI, the path the
    # season writes for the service (which has no disk)
    assert str(tmp_path).encode() in cli_out
    assert result.content == cli_out.replace(str(tmp_path.resolve()).encode() + b"/", b"")


def test_diff_job_is_arena_diff_json(client: TestClient) -> None:
    body = json.dumps({"a": PIT.read_text("utf-8"), "b": CROOKED.read_text("utf-8")}).encode()
    _, result = job(client, "diff", f"&before={PIT}&after={CROOKED}", body, {"content-type": "application/json"})
    assert result.content == run_cli("diff", str(PIT), str(CROOKED), "--json")
    assert json.loads(result.content)["verdict"] is not None


# -- the job's life ----------------------------------------------------------------------------

def test_bad_requests_are_located_422s(client: TestClient) -> None:
    r = client.post("/v1/jobs?kind=juggle", content=PIT.read_bytes(), headers=YAML)
    assert r.status_code == 422 and "validate" in r.text and "diff" in r.text  # names the kinds
    r = client.post("/v1/jobs?kind=validate&games=3", content=PIT.read_bytes(), headers=YAML)
    assert r.status_code == 422 and r.json()["problems"][0]["pointer"] == "/games"
    r = client.post("/v1/jobs?kind=robustness", content=PIT.read_bytes(), headers=YAML)
    assert r.status_code == 422 and r.json()["problems"][0]["pointer"] == "/n"
    r = client.post("/v1/jobs?kind=validate&source=bad.yaml", content=b"format: arena-studio/1\nsystem: 7\n",
                    headers=YAML)
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-arena")
    assert r.json()["problems"][0]["file"] == "bad.yaml" and r.json()["problems"][0]["line"] >= 1
    r = client.post("/v1/jobs?kind=diff", json={"a": "x"})
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-request")
    # an option the kind's runner refuses: the job fails with the problem
    r = client.post("/v1/jobs?kind=validate&enable=nonesuch", content=PIT.read_bytes(), headers=YAML)
    doc = wait(client, r.json()["id"])
    assert doc["state"] == "failed" and doc["error"]["status"] == 422 and "nonesuch" in doc["error"]["detail"]
    assert doc["result"] is None and "result" not in doc["links"]
    assert client.get(doc["links"]["self"] + "/result").status_code == 409


def test_unknown_jobs_are_404(client: TestClient) -> None:
    for r in (client.get("/v1/jobs/" + "0" * 32), client.get("/v1/jobs/" + "0" * 32 + "/result"),
              client.delete("/v1/jobs/" + "0" * 32)):
        assert r.status_code == 404 and r.json()["type"].endswith("/no-such-job")


def test_a_running_job_is_cancelled_and_its_worker_stopped(client: TestClient) -> None:
    pool = client.app.state.job_pool  # type: ignore[attr-defined]
    replaced = pool.replaced
    r = client.post("/v1/jobs?kind=validate&enable=slow", content=SLOW, headers=YAML)
    job_id = r.json()["id"]
    wait(client, job_id, ("running",))
    assert client.get(f"/v1/jobs/{job_id}/result").status_code == 409  # not done
    assert client.delete(f"/v1/jobs/{job_id}").status_code == 204
    assert client.get(f"/v1/jobs/{job_id}").json()["state"] == "cancelled"
    end = time.monotonic() + 60
    while pool.replaced == replaced:  # the worker running it was killed and replaced
        assert time.monotonic() < end
        time.sleep(0.05)
    _, result = job(client, "validate", f"&source={PIT}", PIT.read_bytes())  # the next job runs
    assert result.status_code == 200


def test_a_full_queue_is_429_and_queued_jobs_cancel(client: TestClient) -> None:
    ids = []
    for _ in range(4):  # job_queue=4: one runs (sleeps), three wait
        r = client.post("/v1/jobs?kind=validate&enable=slow", content=SLOW, headers=YAML)
        assert r.status_code == 202
        ids.append(r.json()["id"])
    r = client.post("/v1/jobs?kind=validate", content=PIT.read_bytes(), headers=YAML)
    assert r.status_code == 429 and r.headers["retry-after"] and r.json()["type"].endswith("/busy")
    assert client.get(f"/v1/jobs/{ids[-1]}").json()["state"] == "queued"
    for job_id in reversed(ids):
        assert client.delete(f"/v1/jobs/{job_id}").status_code == 204
    assert {client.get(f"/v1/jobs/{i}").json()["state"] for i in ids} == {"cancelled"}
    assert client.post("/v1/jobs?kind=validate", content=PIT.read_bytes(), headers=YAML).status_code == 202


def test_a_job_past_its_time_limit_fails() -> None:
    config = ServiceConfig(workers=1, job_timeout=2, worker_init="tests.service.helpers:install_test_plugins")
    with TestClient(create_app(config)) as c:
        r = c.post("/v1/jobs?kind=validate&enable=slow", content=SLOW, headers=YAML)
        doc = wait(c, r.json()["id"])  # the validator sleeps 30 s
        assert doc["state"] == "failed" and doc["error"]["status"] == 503 and doc["error"]["type"].endswith("/timeout")


# -- the store: queue, TTL and count on an injected clock --------------------------------------

def test_the_store_keeps_results_for_a_ttl_and_a_count() -> None:
    now = [1000.0]

    async def runner(job: Any, progress: Any) -> Any:
        progress(1, 1, "x")
        return "ok", "application/json", b"{}"

    async def scenario() -> None:
        store = JobStore(runner, queue=2, concurrency=1, ttl=60, keep=2, clock=lambda: now[0])
        a = store.submit("validate", b"", {})
        b = store.submit("validate", b"", {})
        with pytest.raises(JobsFull):
            store.submit("validate", b"", {})
        await asyncio.gather(*(j.task for j in (a, b) if j.task is not None))
        assert a.state == b.state == "done" and a.to_json()["result"] == {} and a.progress == {"done": 1, "total": 1, "note": "x"}
        now[0] += 30
        c = store.submit("validate", b"", {})
        assert c.task is not None
        await c.task
        assert store.get(a.id) is None and store.get(b.id) is b and store.get(c.id) is c  # keep=2: the oldest goes
        now[0] += 59
        assert store.get(b.id) is None and store.get(c.id) is c  # b: 89 s old; c: 59 s
        now[0] += 1
        assert store.get(c.id) is None and len(store) == 0

    asyncio.run(scenario())


def test_jobs_run_on_a_dask_cluster_with_the_same_results() -> None:
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        with TestClient(create_app(ServiceConfig(workers=1, scheduler=cluster.scheduler_address))) as c:
            _, result = job(c, "validate", f"&source={FIELD}", FIELD.read_bytes())
            assert result.content == run_cli("validate", str(FIELD), "--json")
            _, result = job(c, "simulate", "&games=3", PIT.read_bytes())
            assert result.content == run_cli("simulate", str(PIT), "--games", "3", "--json")
            assert c.app.state.job_pool.busy == 0  # type: ignore[attr-defined]  # (the cluster ran them)
