"""Tortoise Derby through the HTTP service (issue 37, point 4): its validators are listed, its
arenas validated with its checks only (the verdict header follows its severities), a bad file is
a located 422, and its pictures render."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.service.app import create_app
from app.service.limits import ServiceConfig
from tests.plugin_game.conftest import ARENAS

YAML = {"content-type": "application/yaml"}


@pytest.fixture(scope="module")
def client(tortoise_derby: object) -> Iterator[TestClient]:
    with TestClient(create_app(ServiceConfig(workers=1, timeout=120)), raise_server_exceptions=False) as c:
        yield c


def test_its_validators_are_listed_for_its_game(client: TestClient) -> None:
    games = {v["code"]: v["games"] for v in client.get("/v1/validators").json()}
    assert {code: games[code] for code in ("td-placement", "td-reach", "td-fair-start")} == {
        "td-placement": ["tortoise-derby"], "td-reach": ["tortoise-derby"], "td-fair-start": ["tortoise-derby"]}


def test_validate_runs_its_checks_and_gives_the_verdict(client: TestClient) -> None:
    r = client.post("/v1/validate", content=(ARENAS / "walled.yaml").read_bytes(), headers=YAML)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["system"] == "tortoise-derby" and [v["code"] for v in doc["validators"]] == [
        "td-fair-start", "td-placement", "td-reach"]
    assert sorted(f["code"] for f in doc["findings"]) == ["td-placement", "td-reach"]
    assert r.headers["Arena-Verdict"] == "fail"
    unfair = (ARENAS / "unfair.yaml").read_bytes()
    r = client.post("/v1/validate", content=unfair, headers=YAML)
    assert [f["code"] for f in r.json()["findings"]] == ["td-fair-start"] and r.headers["Arena-Verdict"] == "pass"
    r = client.post("/v1/validate", content=unfair, headers=YAML, params={"fail_on": "warning"})
    assert r.headers["Arena-Verdict"] == "fail"
    r = client.post("/v1/validate", content=(ARENAS / "meadow.yaml").read_bytes(), headers=YAML,
                    params={"enable": "ar-pits"})
    assert r.status_code == 422 and "does not apply to tortoise-derby" in r.text


def test_a_bad_arena_is_a_located_problem(client: TestClient) -> None:
    body = b"format: arena-studio/1\nsystem: tortoise-derby\nname: Bad\nlettuces:\n- {id: L1, position: [0]}\n"
    r = client.post("/v1/validate", content=body, headers=YAML, params={"source": "bad.yaml"})
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-arena")
    assert [(p["file"], p["line"], p["column"], p["pointer"]) for p in r.json()["problems"]] == [
        ("bad.yaml", 5, 22, "/lettuces/0/position")]


@pytest.mark.parametrize("image,magic", [("svg", b"<?xml"), ("png", b"\x89PNG")])
def test_render_gives_its_picture(client: TestClient, image: str, magic: bytes) -> None:
    r = client.post("/v1/render", content=(ARENAS / "meadow.yaml").read_bytes(), headers=YAML,
                    params={"format": image})
    assert r.status_code == 200, r.text[:300]
    assert r.content.startswith(magic)


def test_travel_answers_with_its_movement(client: TestClient) -> None:
    r = client.post("/v1/travel", content=(ARENAS / "unfair.yaml").read_bytes(), headers=YAML,
                    params={"from": "tortoise:2", "to": "L1"})
    assert r.status_code == 200, r.text
    assert r.json()["reachable"] and r.json()["turns"] == 4
