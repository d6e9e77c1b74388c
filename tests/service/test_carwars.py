"""The service serves Car Wars arenas (issue 13, "the service ... work[s] for Car Wars"):
validation with the Car Wars validators only, travel under a policy, and the validator list
saying which game each validator checks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.service.app import create_app
from app.service.limits import ServiceConfig

ROOT = Path(__file__).resolve().parents[2]
CW = ROOT / "tests" / "carwars" / "data" / "shipped"
YAML = {"content-type": "application/yaml"}
SETUP = ["cw-arena-size", "cw-corner-angle", "cw-wall-gap", "cw-start-key", "cw-start-spread", "cw-components",
         "cw-own-checkpoint"]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as c:
        yield c


def test_validators_name_their_games(client: TestClient) -> None:
    doc = client.get("/v1/validators").json()
    games = {v["code"]: v["games"] for v in doc}
    assert games["bounds"] == ["gravstrike"] and games["start-checkpoint-access"] == ["gravstrike"]
    assert all(games[c] == ["car-wars-6e"] for c in SETUP + ["cw-card-reach", "cw-sightlines", "cw-exposure"])


def test_flawed_car_wars_arena_is_validated_with_car_wars_checks_only(client: TestClient) -> None:
    body = (CW / "broken-yard-flawed.yaml").read_bytes()
    r = client.post("/v1/validate", content=body, headers=YAML, params={"enable": SETUP})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["system"] == "car-wars-6e" and doc["tier"] is None
    assert [v["code"] for v in doc["validators"]] == SETUP
    assert {f["code"] for f in doc["findings"]} == set(SETUP)
    assert r.headers["Arena-Verdict"] == "fail"


def test_gravstrike_validator_on_a_car_wars_arena_is_refused(client: TestClient) -> None:
    r = client.post("/v1/validate", content=(CW / "twin-pillars-2p.yaml").read_bytes(), headers=YAML,
                    params={"enable": ["bounds"]})
    assert r.status_code == 422 and "does not apply to car-wars-6e" in r.json()["detail"]


def test_car_wars_travel_under_both_policies(client: TestClient) -> None:
    body = (CW / "crossroads-4p.yaml").read_bytes()
    flat = client.post("/v1/travel", content=body, headers=YAML, params={"from": "start:1", "to": "centre"}).json()
    safe = client.post("/v1/travel", content=body, headers=YAML,
                       params={"from": "start:1", "to": "centre", "policy": "safe"}).json()
    assert flat["status"] == safe["status"] == "reached"
    assert flat["policy"] == "flat-out" and safe["policy"] == "safe"
    assert flat["time"] <= safe["time"]  # flat out is never slower
    assert flat["path"][0]["maneuver"] == "speed" and all("dice" in s for s in flat["path"])


def test_car_wars_travel_to_a_missing_card_is_a_located_problem(client: TestClient) -> None:
    r = client.post("/v1/travel", content=(CW / "crossroads-4p.yaml").read_bytes(), headers=YAML,
                    params={"from": "start:1", "to": "card:nowhere"})
    assert r.status_code == 422 and "has no card" in r.json()["detail"] and "Traceback" not in r.text
