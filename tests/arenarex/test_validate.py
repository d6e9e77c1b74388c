"""Arena Rex through the ruleset layer: its validators registered and tagged with the game, the
shipped arenas validating as their descriptions say, arena validate / travel and the service,
reports valid against schema/report.schema.json."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from schema import load
from schema.games.arenarex import SYSTEM
from schema.ruleset import ruleset
from validators.games.arenarex.checks import ALL
from validators.games.arenarex.travel import TravelQueryError, plan
from validators.game import analysis
from validators.registry import NotForGame, default_registry
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "arenas" / "arena-rex"
REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8"))
CODES = sorted(v.id for v in ALL)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from app.cli.main import main; main()", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_every_code_is_one_validator_tagged_with_arena_rex_only() -> None:
    reg = default_registry()
    chosen = reg.select([], [], game=SYSTEM)
    assert sorted(v.id for v in chosen) == CODES and len(CODES) == 15  # + ar-favor, ar-first-player (issue 39)
    assert all(tuple(v.games) == (SYSTEM,) for v in chosen)
    assert type(analysis(SYSTEM)).__module__ == "validators.games.arenarex"  # its analysis runs them
    with pytest.raises(NotForGame):
        reg.select(["cw-wall-gap"], [], game=SYSTEM)


@pytest.mark.parametrize("name", ["colosseum-30.yaml", "square-24.yaml"])
def test_shipped_fair_arenas_validate_clean(name: str) -> None:
    report = validate(load(SHIPPED / name))
    assert report.findings == []
    zones = report.metrics["zones"]
    assert set(zones) == {"deploy:1", "deploy:2"} and set(zones["deploy:1"]) == {"30", "40", "50"}


def test_the_flawed_arena_trips_exactly_the_codes_its_description_lists() -> None:
    a = load(SHIPPED / "lopsided-pit.yaml")
    listed = set(re.findall(r"ar-[a-z-]+", a.description or ""))
    found = {f.code for f in validate(a).findings}
    assert found == listed and len(listed) >= 8


def test_every_finding_quotes_the_book() -> None:
    for f in validate(load(SHIPPED / "lopsided-pit.yaml")).findings:
        assert '"' in f.message, f


def test_disabled_codes_are_skipped() -> None:
    from dataclasses import replace

    from tests.arenarex.util import with_analysis

    a = load(SHIPPED / "lopsided-pit.yaml")
    quiet = with_analysis(a, disabled=("ar-kill-band", "ar-symmetry"))
    codes = {f.code for f in validate(quiet).findings}
    assert "ar-kill-band" not in codes and "ar-symmetry" not in codes and "ar-pits" in codes
    assert replace(a) == a


def test_cli_lists_validates_with_exit_codes_and_a_schema_valid_report() -> None:
    r = cli("validate", "--list", "--json", "--game", SYSTEM)
    assert r.returncode == 0 and [v["code"] for v in json.loads(r.stdout)] == CODES
    r = cli("validate", str(SHIPPED / "colosseum-30.yaml"))
    assert r.returncode == 0 and "no problems found" in r.stdout, r.stderr
    r = cli("validate", "--json", str(SHIPPED / "lopsided-pit.yaml"))
    doc = json.loads(r.stdout)
    assert r.returncode == 1  # ar-deployment is an error
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(doc)
    assert doc["system"] == SYSTEM and doc["arena"]["players"] == 2 and "zones" in doc["metrics"]


def test_travel_plans_a_walk_in_moves() -> None:
    """"Move up to the model's MOV value in inches." (L18)"""
    a = load(SHIPPED / "colosseum-30.yaml")
    r = plan(a, "deploy:1", "centre")
    assert r["reachable"] and r["base_mm"] == 50 and r["moves"] == 3 and 14 <= r["length"] <= 15
    small = plan(a, "deploy:1@30", "pit-east")
    assert small["base_mm"] == 30 and small["length"] < 11
    assert not plan(a, "0,-12", "deploy:2")["path"] == []
    for bad in ("deploy:9", "nowhere", "0,-7@300"):
        with pytest.raises(TravelQueryError):
            plan(a, "deploy:1", bad)
    with pytest.raises(TravelQueryError, match="cannot stand"):
        plan(a, "-7,0", "centre")  # in the west pit


def test_travel_cli() -> None:
    r = cli("travel", str(SHIPPED / "colosseum-30.yaml"), "--from", "deploy:2", "--to", "deploy:1", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["reachable"] and doc["path"][0]["y"] > 12.5 and doc["path"][-1]["y"] < -12.5
    r = cli("travel", str(SHIPPED / "colosseum-30.yaml"), "--from", "deploy:5", "--to", "centre")
    assert r.returncode == 2 and "no zone 'deploy:5'" in r.stderr
