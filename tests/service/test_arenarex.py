"""The service serves Arena Rex arenas: validation with the Arena Rex validators only (issue 14,
"the service ... work[s] for Arena Rex") and travel for a round base."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.service.app import create_app
from app.service.limits import ServiceConfig

ROOT = Path(__file__).resolve().parents[2]
AR = ROOT / "arenas" / "arena-rex"
YAML = {"content-type": "application/yaml"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as c:
        yield c


def test_validators_name_arena_rex(client: TestClient) -> None:
    games = {v["code"]: v["games"] for v in client.get("/v1/validators").json()}
    assert games["ar-kill-band"] == ["arena-rex"] and games["ar-deployment"] == ["arena-rex"]


def test_flawed_arena_validated_with_arena_rex_checks(client: TestClient) -> None:
    r = client.post("/v1/validate", content=(AR / "lopsided-pit.yaml").read_bytes(), headers=YAML)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["system"] == "arena-rex" and "ar-kill-band" in {f["code"] for f in doc["findings"]}
    assert all(v["code"].startswith("ar-") for v in doc["validators"])
    assert r.headers["Arena-Verdict"] == "fail"
    ok = client.post("/v1/validate", content=(AR / "colosseum-30.yaml").read_bytes(), headers=YAML)
    assert ok.status_code == 200 and ok.json()["findings"] == []


def test_arena_rex_travel(client: TestClient) -> None:
    body = (AR / "colosseum-30.yaml").read_bytes()
    r = client.post("/v1/travel", content=body, headers=YAML, params={"from": "deploy:1", "to": "centre"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "reached" and r.json()["moves"] == 3
    bad = client.post("/v1/travel", content=body, headers=YAML, params={"from": "deploy:4", "to": "centre"})
    assert bad.status_code == 422 and "no zone" in bad.json()["detail"]
