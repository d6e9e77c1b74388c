"""The service's ``players`` parameter on ``/v1/validate`` (issue 39, point 1): the report judges
the start set declared for that count, as ``arena validate --players``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.service.app import create_app
from app.service.limits import ServiceConfig

ROOT = Path(__file__).resolve().parents[2]
YAML = {"content-type": "application/yaml"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as c:
        yield c


def test_players_reaches_the_validation(client: TestClient) -> None:
    body = (ROOT / "arenas" / "default.yaml").read_bytes()
    r = client.post("/v1/validate?enable=bounds&players=4&fail_on=error", content=body, headers=YAML)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert [(f["code"], f["players"]) for f in doc["findings"]] == [("start-set-missing", 4)]
    assert r.headers["arena-verdict"] == "fail"
    three = client.post("/v1/validate?enable=bounds&players=3", content=body, headers=YAML).json()
    assert three["arena"]["players"] == 3 and three["player_counts"][0]["starts"] == [1, 3, 5]
    assert client.post("/v1/validate?players=0", content=body, headers=YAML).status_code == 422
