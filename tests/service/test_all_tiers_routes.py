"""The report of every tier (issue 39, point 3) is the same from ``arena validate``, its worker
processes (``--jobs``) and the service's ``POST /v1/validate``: an exclusion field from tier 2 on
start 1's way ("Exclusion Field Activation") gives findings naming tier 2 on every path."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from app.batch import Options, validate_paths
from app.service.app import create_app
from app.service.limits import ServiceConfig
from schema import loads
from tests.validators.test_all_tiers import BLOCKED
from validators.run import validate


def test_the_cli_workers_and_the_service_give_the_same_report_of_every_tier(tmp_path: Path) -> None:
    path = tmp_path / "blocked.yaml"
    path.write_text(BLOCKED, encoding="utf-8")
    here = validate(loads(BLOCKED), source=str(path)).to_json()
    assert [t["tiers"] for t in here["tiers"]] == [[1], [2, 3]]
    assert {f.get("tier") for f in here["findings"] if f["code"] == "start-checkpoint-access"} == {2}
    (worker,) = validate_paths([path, path], Options(), jobs=2)[:1]
    assert worker.report is not None and worker.report.to_json() == here
    with TestClient(create_app(ServiceConfig(workers=1, timeout=300)), raise_server_exceptions=False) as client:
        r = client.post("/v1/validate", content=BLOCKED.encode(), headers={"content-type": "application/yaml"})
    assert r.status_code == 200
    served = r.json()
    assert served["tiers"] == here["tiers"] and served["findings"] == here["findings"]
    assert json.dumps(served["metrics"], sort_keys=True) == json.dumps(here["metrics"], sort_keys=True)
