"""Every endpoint of the service through FastAPI's TestClient (one app, one worker process)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import yaml
from fastapi.testclient import TestClient

from engine.gravstrike.planner import Goal, Planner, StartSource
from schema import arena_schema, loads
from validators.run import validate
from app.service import jobs
from app.service.app import create_app
from app.service.limits import ServiceConfig

from .conftest import CHEAP

YAML = {"content-type": "application/yaml"}
JSONCT = {"content-type": "application/json"}
Q = "?" + "&".join(f"enable={c}" for c in CHEAP)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # the jobs' time limit is a safety net here (a default-arena validation takes a few seconds, and
    # several times that on a loaded machine): no test of this module relies on reaching it
    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as c:
        yield c


def is_problem(r, status: int) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    doc = r.json()
    assert doc["status"] == status and doc["type"].startswith("https://") and doc["title"] and doc["detail"]
    assert "Traceback" not in r.text
    return doc


def test_validate_yaml_gives_the_cli_report(client: TestClient, default_yaml: bytes) -> None:
    r = client.post("/v1/validate" + Q, content=default_yaml, headers=YAML)
    assert r.status_code == 200, r.text
    expected = validate(loads(default_yaml, fmt="yaml"), enable=CHEAP).to_json()
    assert r.json() == json.loads(json.dumps(expected))
    assert [v["code"] for v in r.json()["validators"]] == CHEAP
    assert r.headers["arena-verdict"] in ("pass", "fail")


def test_validate_json_body_same_report_as_yaml(client: TestClient, default_yaml: bytes, default_json: bytes) -> None:
    a = client.post("/v1/validate" + Q + "&source=tri.yaml", content=default_yaml, headers=YAML)
    b = client.post("/v1/validate" + Q + "&source=tri.yaml", content=default_json, headers=JSONCT)
    assert a.status_code == b.status_code == 200
    assert a.json() == b.json()
    assert a.json()["arena"]["file"] == "tri.yaml"


def test_validate_options_reach_the_validators(client: TestClient, default_yaml: bytes) -> None:
    r = client.post("/v1/validate?enable=bounds&enable=symmetry&disable=symmetry&tier=3&budget=unlimited",
                    content=default_yaml, headers=YAML)
    doc = r.json()
    assert [v["code"] for v in doc["validators"]] == ["bounds"]
    assert doc["tier"] == 3 and doc["budget"] is None


def test_fail_on_sets_the_verdict_header_only(client: TestClient, default_yaml: bytes) -> None:
    strict = client.post("/v1/validate" + Q + "&fail_on=info", content=default_yaml, headers=YAML)
    lax = client.post("/v1/validate" + Q + "&fail_on=error", content=default_yaml, headers=YAML)
    assert strict.status_code == lax.status_code == 200
    assert strict.json() == lax.json()
    findings = strict.json()["findings"]
    assert strict.headers["arena-verdict"] == ("fail" if findings else "pass")
    if not any(f["severity"] == "error" for f in findings):
        assert lax.headers["arena-verdict"] == "pass"


def test_invalid_arena_gives_located_problems(client: TestClient, default_yaml: bytes) -> None:
    text = default_yaml.decode()
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.strip().startswith("radius:"))
    indent = lines[n][: len(lines[n]) - len(lines[n].lstrip())]
    lines[n] = f"{indent}radius: -5"
    r = client.post("/v1/validate?source=bad.yaml", content="\n".join(lines).encode(), headers=YAML)
    doc = is_problem(r, 422)
    assert doc["type"].endswith("/invalid-arena")
    hit = [p for p in doc["problems"] if p["pointer"].endswith("/radius")]
    assert hit, doc
    assert hit[0]["file"] == "bad.yaml" and hit[0]["line"] == n + 1 and hit[0]["column"] > 0


def test_malformed_json_and_yaml(client: TestClient) -> None:
    doc = is_problem(client.post("/v1/validate", content=b'{"name": ', headers=JSONCT), 422)
    assert doc["problems"][0]["line"] >= 1
    is_problem(client.post("/v1/validate", content=b"\xff\xfe\x00bad", headers=YAML), 422)
    is_problem(client.post("/v1/validate", content=b"", headers=YAML), 422)


def test_unknown_validator_and_bad_parameters(client: TestClient, default_yaml: bytes) -> None:
    doc = is_problem(client.post("/v1/validate?enable=no-such-check", content=default_yaml, headers=YAML), 422)
    assert doc["problems"] == [{"in": "query", "pointer": "/enable", "message": "unknown validator code 'no-such-check'"}]
    doc = is_problem(client.post("/v1/validate?tier=7&budget=lots", content=default_yaml, headers=YAML), 422)
    assert {p["pointer"] for p in doc["problems"]} == {"/tier", "/budget"}
    assert all(p["in"] == "query" for p in doc["problems"])


def test_unsupported_media_type(client: TestClient, default_yaml: bytes) -> None:
    doc = is_problem(client.post("/v1/validate", content=default_yaml, headers={"content-type": "image/png"}), 415)
    assert "application/json" in doc["detail"]


def test_unknown_route_and_method_are_problems(client: TestClient) -> None:
    is_problem(client.get("/v1/nope"), 404)
    is_problem(client.get("/v1/validate"), 405)


def test_cache_serves_identical_requests(client: TestClient, default_yaml: bytes) -> None:
    q1 = "/v1/validate?enable=symmetry&enable=bounds&tier=2"
    q2 = "/v1/validate?enable=symmetry&tier=2&enable=bounds"  # same query, parameters in another order
    first = client.post(q1, content=default_yaml + b"\n# cache test\n", headers=YAML)
    again = client.post(q2, content=default_yaml + b"\n# cache test\n", headers=YAML)
    fresh = client.post(q1, content=default_yaml + b"\n# cache test\n", headers={**YAML, "cache-control": "no-cache"})
    other = client.post(q1 + "&budget=2", content=default_yaml + b"\n# cache test\n", headers=YAML)
    assert first.headers["x-cache"] == "miss" and again.headers["x-cache"] == "hit"
    assert fresh.headers["x-cache"] == "bypass" and other.headers["x-cache"] == "miss"
    assert first.content == again.content == fresh.content


def test_identical_requests_in_flight_share_one_validation(client: TestClient, default_yaml: bytes) -> None:
    """A burst of identical requests on a cold cache costs one validation: the first runs, the
    others wait for its answer (X-Cache: coalesced) or find it cached (hit)."""
    from concurrent.futures import ThreadPoolExecutor

    body = default_yaml + b"\n# burst test\n"
    url = "/v1/validate?enable=reachability&enable=symmetry"  # travel: long enough to overlap
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: client.post(url, content=body, headers=YAML), range(6)))
    states = sorted(r.headers["x-cache"] for r in answers)
    assert all(r.status_code == 200 for r in answers)
    assert states.count("miss") == 1 and set(states) <= {"miss", "coalesced", "hit"}
    assert "coalesced" in states
    assert len({r.content for r in answers}) == 1


def test_travel_matches_the_planner(client: TestClient, default_yaml: bytes) -> None:
    r = client.post("/v1/travel?from=start:1&to=checkpoint:A&fewest_icons=true", content=default_yaml, headers=YAML)
    assert r.status_code == 200, r.text
    doc = r.json()
    expected = Planner(loads(default_yaml), quantum=0.25).plan(StartSource(1), Goal.parse("checkpoint:A"))
    assert doc["reachable"] is expected.reachable is True
    assert doc["turns"] == expected.turns and doc["icons"] == expected.icons
    assert doc["time"] == pytest.approx(expected.time)
    assert len(doc["path"]) == len(expected.path) and doc["path"][-1]["turn"] == expected.turns
    assert doc["from"] == "start:1" and doc["to"] == "checkpoint:A"


def test_travel_bad_queries(client: TestClient, default_yaml: bytes) -> None:
    doc = is_problem(client.post("/v1/travel?from=start:99&to=checkpoint:A", content=default_yaml, headers=YAML), 422)
    assert doc["problems"][0]["pointer"] == "/from"  # players are 1-6: the OpenAPI pattern says so
    doc = is_problem(client.post("/v1/travel?from=start:1&to=checkpoint:Z", content=default_yaml, headers=YAML), 422)
    assert doc["type"].endswith("/travel-query") and "Z" in doc["detail"]  # names what the arena lacks
    doc = is_problem(client.post("/v1/travel?from=nowhere&to=checkpoint:A", content=default_yaml, headers=YAML), 422)
    assert doc["problems"][0]["pointer"] == "/from"
    doc = is_problem(client.post("/v1/travel?from=start:1&to=moon:1", content=default_yaml, headers=YAML), 422)
    assert doc["problems"][0]["pointer"] == "/to"
    is_problem(client.post("/v1/travel?from=start:1", content=default_yaml, headers=YAML), 422)


def test_parse_source_forms() -> None:
    """Gravstrike's sources as its travel hook reads them (the service's and ``arena travel``'s)."""
    from validators.games.gravstrike.travel_query import parse_source

    assert parse_source("start:2").player == 2  # type: ignore[union-attr]
    assert parse_source("checkpoint:B").checkpoint == "B"  # type: ignore[union-attr]
    p = parse_source("1.5,-2,90,3")
    assert (p.pose.x, p.pose.y, p.pose.heading, p.speed) == (1.5, -2.0, 90.0, 3)  # type: ignore[union-attr]
    for bad in ("start:x", "1,2", "nan,1,2", "1,inf,0", "gate:A"):
        with pytest.raises(Exception):
            parse_source(bad)


def test_render_answers_a_picture_or_501(client: TestClient, default_yaml: bytes) -> None:
    r = client.post("/v1/render?format=svg", content=default_yaml, headers=YAML)
    if r.status_code == 200:  # a renderer (the editor's) is installed
        assert r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content
    else:
        doc = is_problem(r, 501)
        assert doc["type"].endswith("/no-renderer")


def test_render_without_renderer_is_501(monkeypatch: pytest.MonkeyPatch, default_yaml: bytes) -> None:
    from validators import plugins

    def none(name: str | None = None) -> None:
        raise plugins.NoRenderer("no arena renderer is installed")

    monkeypatch.setattr(plugins, "renderer", none)
    kind, doc = jobs.render_job(default_yaml, "yaml", "request", "png")
    assert kind == "problem" and doc["status"] == 501


def test_schemas(client: TestClient) -> None:
    assert client.get("/v1/schema/arena").json() == arena_schema()
    report = client.get("/v1/schema/report").json()
    assert report["properties"]["format"]["const"] == "arena-studio-report/1"


def test_validators_list(client: TestClient) -> None:
    doc = client.get("/v1/validators").json()
    codes = [v["code"] for v in doc]
    assert set(CHEAP) <= set(codes)
    bounds = next(v for v in doc if v["code"] == "bounds")
    assert bounds["severity"] == "error" and bounds["title"] and bounds["enabled_by_default"] is True


def test_healthz_and_docs(client: TestClient) -> None:
    h = client.get("/healthz").json()
    assert h["status"] == "ok" and h["workers"] == 1
    spec = client.get("/openapi.json").json()
    assert {"/v1/validate", "/v1/travel", "/v1/render", "/v1/packs/verify", "/v1/schema/arena",
            "/v1/schema/report", "/v1/validators", "/healthz"} <= set(spec["paths"])
    assert "Arena" in spec["components"]["schemas"] and "Report_severity" in spec["components"]["schemas"]
    assert "swagger" in client.get("/docs").text.lower()


def _pack(default_yaml: bytes, tamper: bool = False) -> bytes:
    from schema.packs import PackArena, PackInfo, build_pack

    arena = loads(default_yaml)
    report = validate(arena, source="arenas/tri-crown.json", enable=CHEAP).to_json()
    report = json.loads(json.dumps(report))
    if tamper:
        report["summary"] = {**report["summary"], "error": report["summary"]["error"] + 1}
    return build_pack(PackInfo("Test pack"), [PackArena("tri-crown", arena, report, b"png", b"<svg/>", b"%PDF")])


def test_pack_verify(client: TestClient, default_yaml: bytes) -> None:
    pytest.importorskip("schema.packs")
    good = client.post("/v1/packs/verify", content=_pack(default_yaml), headers={"content-type": "application/zip"})
    assert good.status_code == 200, good.text
    doc = good.json()
    assert doc["verified"] is True and doc["pack"]["name"] == "Test pack"
    assert [a["id"] for a in doc["arenas"]] == ["tri-crown"]
    bad = client.post("/v1/packs/verify", content=_pack(default_yaml, tamper=True), headers={"content-type": "application/zip"})
    assert bad.status_code == 200
    result = bad.json()["arenas"][0]
    assert bad.json()["verified"] is False and not result["agrees"] and result["differences"]


def test_pack_verify_rejects_broken_packs(client: TestClient, default_yaml: bytes) -> None:
    pytest.importorskip("schema.packs")
    doc = is_problem(client.post("/v1/packs/verify", content=b"not a zip at all"), 422)
    assert "zip" in doc["detail"]
    data = bytearray(_pack(default_yaml))
    data[60] ^= 0xFF  # flip a byte inside the first entry's compressed data
    is_problem(client.post("/v1/packs/verify", content=bytes(data)), 422)


def test_yaml_bomb_is_bounded(client: TestClient) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    r = client.post("/v1/validate", content=bomb.encode(), headers=YAML)
    assert r.status_code in (422, 503), r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    yaml.safe_load("a: 1")  # the test process itself never parsed the bomb


def test_absurd_coordinates_are_refused_not_crashed(client: TestClient, default_json: bytes) -> None:
    doc = json.loads(default_json)
    doc["walls"][0]["shape"]["center"] = [1.5e300, 0]
    for path in ("/v1/validate?enable=bounds", "/v1/travel?from=start:1&to=checkpoint:A", "/v1/render"):
        r = client.post(path, content=json.dumps(doc).encode(), headers=JSONCT)
        problem = is_problem(r, 422)
        assert problem["problems"][0]["pointer"] == "/walls/0/shape/center/0"


def test_a_travel_search_longer_than_the_time_limit_answers_undecided_in_time(default_yaml: bytes) -> None:
    """A search the job's time limit cuts off (the far checkpoint at the finest tolerance: about a
    minute) stops at its share of the limit, counted from the job's start, and answers "undecided"
    (200), not a killed worker (503).  The worker's clock counts readings (5 s each:
    tests.service.helpers.install_coarse_counting_clock; the job's caps read it too), so the
    searches' share of the limit (75 % of 80 % of 600 s) passes after 72 readings - the planner's
    set-up takes 15 to 18 of them, the search the rest, between its batches - the same work on any
    machine; the pool's real 600 s is only a safety net (the 72 readings' work took over 120 s on
    a 2-core machine at load 15)."""
    cfg = ServiceConfig(workers=1, timeout=600, worker_init="tests.service.helpers:install_coarse_counting_clock")
    with TestClient(create_app(cfg), raise_server_exceptions=False) as c:
        r = c.post("/v1/travel?from=start:1&to=checkpoint:C&tolerance=0.01", content=default_yaml, headers=YAML)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["status"] == "undecided" and doc["reason"].startswith("time limit") and doc["at_least"] > 0
    assert doc["reason"] != "time limit reached after 0 states"  # the search ran until its deadline
