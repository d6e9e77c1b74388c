"""The service's seasons: ``POST /v1/season/standings`` (as ``arena season standings --json``) and
``POST /v1/season/check`` (as ``arena season check --json``, the arenas sent with the season)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.service.app import create_app
from app.service.limits import ServiceConfig
from validators.season import load, standings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "arenas" / "autumn-league.season.yml"
YAML = {"content-type": "application/yaml"}
TINY = "format: arena-studio/1\nsystem: gravstrike\nname: {name}\nscenario:\n  veteran_limit: 0\n"
SEASON = ("format: arena-studio-season/1\nsystem: gravstrike\nname: Small\nevents:\n"
          "  - {name: One, arena: a.yaml, results: {A: 12, B: 3}}\n"
          "  - {name: Two, arena: a.yaml, scenario: {veteran_limit: 1}, multiplier: 2, results: {B: 12, A: 3}}\n")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServiceConfig(workers=1, timeout=300, pack_timeout=300)),
                    raise_server_exceptions=False) as c:
        yield c


def test_standings_are_the_clis(client: TestClient) -> None:
    r = client.post("/v1/season/standings", content=EXAMPLE.read_bytes(), headers=YAML)
    assert r.status_code == 200, r.text
    assert r.json() == json.loads(json.dumps(standings(load(EXAMPLE)).to_json()))
    assert [s["player"] for s in r.json()["standings"]] == ["Vex", "Kestrel", "Mako", "Orrin"]


def test_a_bad_season_is_a_located_422(client: TestClient) -> None:
    r = client.post("/v1/season/standings?source=s.yaml", content=SEASON.replace("multiplier: 2", "multiplier: 0"),
                    headers=YAML)
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-season")
    assert r.json()["problems"] == [{"file": "s.yaml", "line": 6, "column": 74, "pointer": "/events/1/multiplier",
                                     "message": "0 is less than the minimum of 1"}]
    r = client.post("/v1/season/standings", content=SEASON.replace("gravstrike", "car-wars-6e"), headers=YAML)
    assert r.status_code == 422 and r.json()["type"].endswith("/no-season-play")


def test_check_validates_the_arenas_sent_with_the_season(client: TestClient) -> None:
    body = {"season": SEASON, "arenas": {"a.yaml": TINY.format(name="A")}}
    r = client.post("/v1/season/check", json=body)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert [(e["event"], e["summary"]["error"]) for e in doc["events"]] == [("One", 0), ("Two", 0)]
    assert doc["findings"][0]["pointer"] == "/events" and doc["findings"][0]["severity"] == "warning"  # 2 events: 4-8
    r = client.post("/v1/season/check", json={"season": SEASON, "arenas": {}})
    assert r.status_code == 200 and r.json()["events"][0]["problems"][0]["message"] == \
        "no arena 'a.yaml' was given with the season"
    r = client.post("/v1/season/check", json={"season": SEASON, "arenas": {"a.yaml": 3}})
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-request")
    assert r.json()["problems"][0]["pointer"] == "/arenas/a.yaml"
    r = client.post("/v1/season/check", content=SEASON, headers=YAML)
    assert r.status_code == 415
