"""Car Wars setup and fairness checks as registered validators (issue 13 section 2): tagged with
the game, run only on Car Wars arenas, each firing on the flawed shipped arena and quiet on the
fair ones, every message quoting the book (001_720c8b844658e4d7.txt), and the CLI's --list,
validate and travel for Car Wars."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from schema import load
from validators.games.carwars.checks import ALL, BOOK
from validators.registry import NotForGame, default_registry, games_of
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "tests" / "carwars" / "data" / "shipped"
BOOK_TEXT = (Path("/work/shared/seeds/001_720c8b844658e4d7.txt"))
CODES = sorted(v.id for v in ALL)


def _arena(name: str):  # noqa: ANN202 - a CarWarsArena
    return load(SHIPPED / name)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from app.cli.main import main; main()", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_car_wars_validators_are_registered_for_car_wars_only() -> None:
    reg = default_registry()
    assert reg.for_game("car-wars-6e") == CODES and len(CODES) == 14
    assert all(games_of(reg.get(c)) == ("gravstrike",) for c in reg.for_game("gravstrike"))
    assert not set(CODES) & set(reg.for_game("gravstrike"))
    with pytest.raises(NotForGame, match="does not apply to gravstrike"):
        reg.select(["cw-wall-gap"], game="gravstrike")


@pytest.fixture(scope="module")
def flawed():  # noqa: ANN201
    return validate(_arena("broken-yard-flawed.yaml"))


def test_flawed_arena_trips_the_codes_its_description_lists(flawed) -> None:  # noqa: ANN001
    listed = set(re.findall(r"cw-[a-z-]+", flawed.arena.description or ""))
    assert {f.code for f in flawed.findings} == listed and len(listed) >= 10
    assert flawed.fails("error")


def test_every_message_quotes_the_book(flawed) -> None:  # noqa: ANN001
    book = " ".join(BOOK_TEXT.read_text(encoding="utf-8").replace("*", "").split()) if BOOK_TEXT.exists() else None
    for f in flawed.findings:
        quotes = re.findall(r'"([^"]+)"', f.message)
        assert quotes, f.message
        if book is not None and f.code != "cw-components":  # that one quotes the box's contents list
            for words in quotes:
                assert words.rstrip(".") in book, (f.code, words)
    for code, quotes in BOOK.items():
        assert book is None or all(" ".join(w.split()) in book for w in quotes), code


def test_report_conforms_to_the_report_schema_and_has_overlay_metrics(flawed) -> None:  # noqa: ANN001
    doc = flawed.to_json()
    schema = json.loads((ROOT / "schema" / "report.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(doc)
    json.dumps(doc, allow_nan=False)  # no Infinity: every unreachable time is null
    assert doc["system"] == "car-wars-6e" and "tolerance" not in doc
    assert {"travel", "travel_safe", "starts", "exposure", "sightlines"} <= set(doc["metrics"])
    assert doc["metrics"]["travel"]["start:1"]["card:lost"]["reachable"] is False


@pytest.mark.parametrize("name", ["crossroads-4p.yaml", "twin-pillars-2p.yaml"])
def test_fair_shipped_arenas_are_quiet(name: str) -> None:
    report = validate(_arena(name))
    assert report.findings == [] and [v.id for v in report.validators] == CODES


def test_scenario_disabled_and_cli_style_enable_disable() -> None:
    a = _arena("broken-yard-flawed.yaml")
    r = validate(a, enable=["cw-wall-gap", "cw-corner-angle"])
    assert {f.code for f in r.findings} == {"cw-wall-gap", "cw-corner-angle"}
    r = validate(a, disable=[c for c in CODES if c != "cw-components"])
    assert [f.code for f in r.findings] == ["cw-components"]
    with pytest.raises(NotForGame):
        validate(a, enable=["bounds"])


def test_cli_list_validate_and_travel_for_car_wars() -> None:
    r = cli("validate", "--list", "--json", "--game", "car-wars-6e")
    assert [v["code"] for v in json.loads(r.stdout)] == CODES
    r = cli("validate", "--list")
    assert r.returncode == 0 and "games" in r.stdout and "car-wars-6e" in r.stdout and "gravstrike" in r.stdout
    r = cli("validate", "--json", "--enable", "cw-start-key", str(SHIPPED / "broken-yard-flawed.yaml"))
    assert r.returncode == 1 and [f["code"] for f in json.loads(r.stdout)["findings"]] == ["cw-start-key"]
    r = cli("validate", "--enable", "bounds", str(SHIPPED / "twin-pillars-2p.yaml"))
    assert r.returncode == 2 and "does not apply to car-wars-6e" in r.stderr and "Traceback" not in r.stderr
    r = cli("travel", str(SHIPPED / "crossroads-4p.yaml"), "--from", "start:1", "--to", "centre", "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["status"] == "reached" and doc["policy"] == "flat-out"
    assert doc["turns"] >= 1 and doc["dice"] >= 0 and doc["path"][-1]["turn"] == doc["turns"]
    r = cli("travel", str(SHIPPED / "broken-yard-flawed.yaml"), "--from", "start:1", "--to", "lost", "--policy", "safe")
    assert r.returncode == 1 and "not reachable" in r.stdout
    r = cli("travel", str(SHIPPED / "crossroads-4p.yaml"), "--from", "start:1", "--to", "card:nowhere")
    assert r.returncode == 2 and "has no card" in r.stderr and "Traceback" not in r.stderr


def test_a_travel_table_nobody_asks_for_stops_its_forked_worker() -> None:
    """The runner forks its worker when the context is made (the searches run while the checks
    that need no travel do); a context closed before anyone asked for the table stops and reaps
    it (validators.parallel.Helper.cancel) - no orphan left searching."""
    import os

    from validators.games.carwars.context import CarWarsContext

    ctx = CarWarsContext(_arena("crossroads-4p.yaml"), workers=2)
    assert ctx._started is not None
    helper = ctx._started[1][0]
    assert helper is not None
    ctx.close()
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(helper.pid, 0)


def test_a_worker_that_dies_leaves_its_lane_to_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked worker that ends without an answer (killed, crashed) costs the time, not the
    report: its lane's searches run here, and the table is the one-core table."""
    import os

    from validators.games.carwars import context as ctx_mod
    from validators.parallel import fork_helper

    arena = _arena("crossroads-4p.yaml")
    one = ctx_mod.CarWarsContext(arena, workers=1).travel_metrics()
    monkeypatch.setattr(ctx_mod, "fork_helper", lambda fn: fork_helper(lambda: os._exit(0)))
    ctx = ctx_mod.CarWarsContext(arena, workers=2)
    assert ctx._started is not None and all(h is not None for h in ctx._started[1])
    assert ctx.travel_metrics() == one
