"""Tabletop robustness for Car Wars (issue 19, part 1): the arena's pieces put down by hand within
the scenario's inches, the headline metrics held to the tolerances the fairness checks use."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import jsonschema
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from engine.carwars.placement_error import perturb, tolerance
from engine.placement import Tolerance
from schema import dumps, load, loads
from app.batch import Options
from validators.games.carwars.robustness import HOOK
from app.cli.main import load_commands
from app.cli.shared import app
from validators.robustness import Settings, robustness
from validators.run import validate

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = load(ROOT / "arenas" / "car-wars" / "crossroads-4p.yaml")
FLAWED = load(ROOT / "arenas" / "car-wars" / "broken-yard-flawed.yaml")
REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8"))
#: Checks with no travel search: cheap enough to run on many placements in a test.
CHEAP = ("cw-exposure", "cw-sightlines")


def _centre(piece: object) -> tuple[float, float]:
    if hasattr(piece, "position"):
        return piece.position  # type: ignore[no-any-return]
    shape = piece.shape  # type: ignore[attr-defined]
    if hasattr(shape, "center"):
        return shape.center  # type: ignore[no-any-return]
    pts = shape.points
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_pieces_move_within_the_inches_and_cars_stay_on_their_spots(seed: int) -> None:
    """Walls, obstacles, terrain, hazards, cards and tokens shift by at most the scenario's
    inches (default 0.25) and turn by at most its degrees (default 5), keeping their size; the
    cars stay where the turning key puts them ("The outside edges of the arena are walls": the
    bounds are the table and do not move)."""
    arena = CROSSROADS
    tol = tolerance(arena)
    assert tol == Tolerance(0.25, 5.0)
    moved, _ = perturb(arena, np.random.default_rng(seed), tol)
    assert moved.start_positions == arena.start_positions and moved.bounds == arena.bounds
    assert moved.vehicle == arena.vehicle and moved.turning_key == arena.turning_key
    for kind in ("walls", "obstacles", "terrain", "hazards", "cards", "tokens"):
        for a, b in zip(getattr(arena, kind), getattr(moved, kind), strict=True):
            assert a.id == b.id
            ca, cb = _centre(a), _centre(b)
            assert abs(ca[0] - cb[0]) <= tol.length + 1e-9 and abs(ca[1] - cb[1]) <= tol.length + 1e-9
            if hasattr(a, "rotation"):
                assert abs((b.rotation - a.rotation + 180.0) % 360.0 - 180.0) <= tol.angle + 1e-9
            if hasattr(a, "shape"):
                assert math.isclose(a.shape.to_shapely().area, b.shape.to_shapely().area, rel_tol=1e-6)


def test_the_placement_tolerance_is_a_scenario_setting_written_only_when_set() -> None:
    """A file saved before the setting existed saves unchanged; a set tolerance round-trips and
    is what the hook uses."""
    doc = dumps(CROSSROADS)
    assert "placement_tolerance" not in doc
    an = dataclasses.replace(CROSSROADS.scenario.analysis, placement_tolerance=0.5, placement_angle_tolerance=10.0)
    arena = dataclasses.replace(CROSSROADS, scenario=dataclasses.replace(CROSSROADS.scenario, analysis=an))
    again = loads(dumps(arena))
    assert HOOK.tolerance(again) == Tolerance(0.5, 10.0)


def test_headlines_are_the_gaps_the_fairness_checks_compare() -> None:
    """On the deliberately flawed arena every ``cw-start-access`` and ``cw-centre-access`` time
    finding carries its difference; the slower start's headline gap is that difference, over the
    same tolerance (``travel_time_tolerance``)."""
    report = validate(FLAWED)
    heads = {h.key: h for h in HOOK.headlines(report)}
    checked = 0
    for f in report.findings:
        if f.code not in ("cw-start-access", "cw-centre-access") or "turns" not in f.message:
            continue
        slow = f.elements[0]
        policy = "flat-out" if "(flat-out)" in f.message else "safe"
        what = ("centre_gap" if f.code == "cw-centre-access" else "access_gap" if "nearest checkpoint" in f.message
                else "mean_access_gap" if "on average" in f.message else "own_gap")
        h = heads[f"{what}:{policy}:{slow}"]
        assert h.beyond() and h.tolerance == FLAWED.scenario.analysis.travel_time_tolerance
        assert h.value is not None and abs(h.value - f.metrics["difference"]) <= 1e-3
        checked += 1
    assert checked >= 2


def test_same_seed_same_figures_on_one_worker_and_two() -> None:
    opts = Options(enable=CHEAP)
    nominal = validate(CROSSROADS, enable=list(CHEAP))
    one = robustness(CROSSROADS, nominal, Settings(2, 5, None, opts), workers=1)
    two = robustness(CROSSROADS, nominal, Settings(2, 5, None, opts), workers=2)
    assert one == two and one["validated"] == 2 and one["tolerance"]["unit"] == "in"
    assert {m["key"] for m in one["metrics"]} >= {"hazard_gap:start:1", "sight_gap:start:4", "cover_gap:start:2"}


def test_cli_robustness_for_car_wars() -> None:
    """``arena validate --robustness`` on a Car Wars arena, every check: the section validates
    against the report schema and holds the travel headlines of both policies."""
    load_commands()
    path = ROOT / "arenas" / "car-wars" / "twin-pillars-2p.yaml"
    # in process: the memory cap would measure this test worker's whole life (every test before
    # it), not the analysis; the analysis stays bounded by its state caps
    result = CliRunner().invoke(app, ["validate", str(path), "--robustness", "1", "--workers", "1", "--json",
                                      "--memory-limit", "0"])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, REPORT_SCHEMA)
    section = doc["robustness"]
    assert section["tolerance"] == {"length": 0.25, "angle": 5.0, "unit": "in"} and section["validated"] == 1
    keys = {m["key"] for m in section["metrics"]}
    assert {"access_gap:flat-out:start:1", "centre_gap:safe:start:2", "spacing_gap:start:1"} <= keys
