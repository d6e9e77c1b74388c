"""Tabletop robustness (issue 19 part 1): placements within the scenario's placement tolerance,
the same figures for a seed whichever executor validates them, findings at their threshold that
flip and clear ones that never do, the CLI and the report section."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from engine.gravstrike.placement_error import perturb
from engine.placement import Tolerance
from schema import dumps, load, loads
from schema.shapes import Circle
from schema.games.gravstrike.model import Analysis, Scenario
from app.batch import Options
from app.cli.main import load_commands
from app.cli.shared import app
from validators.robustness import Settings, robustness, sample_arena
from validators.run import validate

from .arenas import edge_case_arena

ROOT = Path(__file__).resolve().parents[2]
TRI_CROWN = load(ROOT / "arenas" / "default.yaml")
COLOSSEUM = load(ROOT / "arenas" / "arena-rex" / "colosseum-30.yaml")
REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text(encoding="utf-8"))
CHEAP = ("overlap", "start-spacing")


def _run(arena, n: int, seed: int, codes=CHEAP, **kw):  # noqa: ANN001, ANN202
    nominal = validate(arena, enable=list(codes))
    return robustness(arena, nominal, Settings(n, seed, None, Options(enable=tuple(codes))), **kw)


def test_same_seed_same_figures_on_one_worker_two_workers_and_dask() -> None:
    """Sample k of a seed is the same placement in any process: the section is identical."""
    distributed = pytest.importorskip("distributed")
    arena = edge_case_arena()
    one = _run(arena, 4, 11, workers=1)
    two = _run(arena, 4, 11, workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        dask = _run(arena, 4, 11, scheduler=cluster.scheduler_address)
    assert one == two == dask
    assert one["validated"] == 4 and one["seed"] == 11
    assert one != _run(arena, 4, 12, workers=1)  # another seed, other placements


def test_a_finding_at_its_threshold_flips_and_a_clear_one_never_does() -> None:
    """Checkpoint A just touches wall W1 ("Checkpoints" cannot be scored under a wall: the overlap
    validator warns at any covered area) and start 3's nearest start is exactly the start-spacing
    tolerance (1 length) farther than start 1's: both flip in a sizeable share of placements.
    Checkpoint B, 3 lengths clear, never gets a finding."""
    section = _run(edge_case_arena(), 12, 5)
    by_key = {(f["code"], tuple(f["elements"])): f for f in section["findings"]}
    touching = by_key[("overlap", ("A", "W1"))]
    assert not touching["nominal"] and 0.15 <= touching["flip_share"] <= 0.9
    assert not any("B" in f["elements"] for f in section["findings"])
    spacing = {m["key"]: m for m in section["metrics"]}
    gap = spacing["spacing_gap:start:3"]
    assert gap["nominal"] == 1.0 and gap["min"] < 1.0 < gap["max"]
    assert 0.15 <= gap["share_over"] <= 0.9
    assert spacing["spacing_gap:start:1"]["share_over"] == 0.0
    codes = {c["code"]: c for c in section["codes"]}
    assert codes["overlap"]["share"] >= touching["share"]


def test_zero_tolerance_never_flips() -> None:
    """A scenario that says pieces land exactly where drawn gives the drawn arena's verdict."""
    arena = edge_case_arena()
    exact = dataclasses.replace(arena, scenario=Scenario(players=3, analysis=Analysis(placement_tolerance=0.0,
                                                                                        placement_angle_tolerance=0.0)))
    section = _run(exact, 3, 0, codes=("overlap",))
    assert section["tolerance"] == {"length": 0.0, "angle": 0.0, "unit": "length"}
    assert all(f["flip_share"] == 0.0 for f in section["findings"])


def _angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def _mean(points) -> tuple[float, float]:  # noqa: ANN001
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.floats(0.0, 0.6), angle=st.floats(0.0, 15.0))
def test_every_piece_stays_within_the_tolerance_and_on_the_table(seed: int, length: float, angle: float) -> None:
    arena = TRI_CROWN
    moved, _ = perturb(arena, np.random.default_rng(seed), Tolerance(length, angle))
    eps = 1e-9
    table = arena.bounds_geometry().buffer(1e-6)
    for a, b in zip(arena.elements(), moved.elements(), strict=True):
        assert a.id == b.id
        if hasattr(a, "position"):
            assert abs(a.position[0] - b.position[0]) <= length + eps and abs(a.position[1] - b.position[1]) <= length + eps
            assert table.contains(b.to_shapely() if hasattr(b, "to_shapely") else _point(b.position))
        if hasattr(a, "facing"):
            assert _angle_diff(a.facing, b.facing) <= angle + eps
        if hasattr(a, "direction"):
            assert _angle_diff(a.direction, b.direction) <= angle + eps
        if hasattr(a, "shape"):
            sa, sb = a.shape, b.shape
            ca = sa.center if hasattr(sa, "center") else _mean(sa.points)
            cb = sb.center if hasattr(sb, "center") else _mean(sb.points)
            assert abs(ca[0] - cb[0]) <= length + eps and abs(ca[1] - cb[1]) <= length + eps
            assert math.isclose(sa.to_shapely().area, sb.to_shapely().area, rel_tol=1e-6)  # moved, not reshaped
            if hasattr(sa, "rotation"):
                assert _angle_diff(sa.rotation, sb.rotation) <= angle + eps
            if isinstance(sa, Circle):
                assert sa.radius == sb.radius
            if table.covers(sa.to_shapely()):
                assert table.covers(sb.to_shapely())


def _point(p):  # noqa: ANN001, ANN202
    from shapely.geometry import Point

    return Point(p)


def test_sample_k_is_the_same_arena_whatever_came_before() -> None:
    arena = TRI_CROWN
    tol = Tolerance(0.25, 5.0)
    third, _ = sample_arena(arena, 7, 3, tol)
    sample_arena(arena, 7, 0, tol)
    again, _ = sample_arena(arena, 7, 3, tol)
    assert third == again and third != arena and third != sample_arena(arena, 7, 2, tol)[0]


def test_placement_tolerances_are_scenario_settings() -> None:
    """Written only when not the defaults (0.25 lengths, 5°); the schema takes them."""
    text = dumps(edge_case_arena())
    assert "placement_tolerance" not in text
    arena = edge_case_arena()
    loose = dataclasses.replace(arena, scenario=Scenario(players=3, analysis=Analysis(placement_tolerance=0.5,
                                                                                        placement_angle_tolerance=10)))
    back = loads(dumps(loose))
    assert back.scenario.analysis.placement_tolerance == 0.5
    assert back.scenario.analysis.placement_angle_tolerance == 10
    from validators.games.gravstrike.robustness import HOOK

    assert HOOK.tolerance(back) == Tolerance(0.5, 10.0)


def test_cli_robustness_json_and_text(tmp_path: Path) -> None:
    load_commands()
    path = tmp_path / "edge.yaml"
    path.write_text(dumps(edge_case_arena()), encoding="utf-8")
    args = ["validate", str(path), "--robustness", "3", "--seed", "5", "--workers", "1", "--enable", "overlap"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, REPORT_SCHEMA)
    section = doc["robustness"]
    assert section["samples"] == 3 and section["seed"] == 5 and section["not_run"] == ["symmetry"]
    assert section["tolerance"] == {"length": 0.25, "angle": 5.0, "unit": "length"}
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0
    assert "Tabletop robustness" in text.stdout and "3 placements within ±0.25 length and ±5°" in text.stdout
    assert "Findings under table error" in text.stdout and "overlap" in text.stdout  # A touches W1: it flips
    # same seed, same JSON
    assert json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)["robustness"] == section


def test_cli_robustness_for_a_game_without_a_hook_exits_2() -> None:
    load_commands()
    path = ROOT / "arenas" / "mothership-grid" / "battlefield-3x5.yaml"
    result = CliRunner().invoke(app, ["validate", str(path), "--robustness", "2"])
    assert result.exit_code == 2
    assert "tabletop robustness does not apply to" in result.output and "grid" in result.output


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_arena_rex_terrain_moves_within_its_tolerance(seed: int) -> None:
    """Arena Rex: pits, spikes and hazards shift by at most the scenario's inches (default 0.25)
    and keep their shape; the board's deployment edges do not move."""
    from engine.arenarex.placement_error import perturb as perturb_rex, tolerance

    arena = COLOSSEUM
    tol = tolerance(arena)
    assert tol == Tolerance(0.25, 5.0)
    moved, _ = perturb_rex(arena, np.random.default_rng(seed), tol)
    assert moved.deployment == arena.deployment and moved.bounds == arena.bounds
    for kind in ("pits", "spikes", "hazards"):
        for a, b in zip(getattr(arena, kind), getattr(moved, kind), strict=True):
            ga, gb = a.shape.to_shapely(), b.shape.to_shapely()
            ca = a.shape.center if hasattr(a.shape, "center") else _mean(a.shape.points)
            cb = b.shape.center if hasattr(b.shape, "center") else _mean(b.shape.points)
            assert abs(ca[0] - cb[0]) <= tol.length + 1e-9 and abs(ca[1] - cb[1]) <= tol.length + 1e-9
            assert math.isclose(ga.area, gb.area, rel_tol=1e-6)


def test_cli_robustness_for_arena_rex_inches() -> None:
    load_commands()
    path = ROOT / "arenas" / "arena-rex" / "lopsided-pit.yaml"
    result = CliRunner().invoke(app, ["validate", str(path), "--robustness", "3", "--workers", "1", "--json"])
    assert result.exit_code == 1, result.output  # the pit is lopsided on purpose: errors
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, REPORT_SCHEMA)
    section = doc["robustness"]
    assert section["tolerance"] == {"length": 0.25, "angle": 5.0, "unit": "in"} and section["not_run"] == ["ar-symmetry"]
    keys = {m["key"] for m in section["metrics"]}
    assert "centre_gap:deploy:1:30" in keys
    deployment = next(f for f in section["findings"] if f["code"] == "ar-deployment")
    assert deployment["nominal"] and deployment["share"] == 1.0  # a zone rule, not moved by terrain


def test_travel_bands_are_the_placements_own_travel_tables() -> None:
    """The section's travel band of each start and checkpoint is the least / median / most of
    the turns the placements' own reports give (what the editor's travel table shows)."""
    import statistics

    from validators.games.gravstrike.robustness import travel
    from validators.robustness import sample_arena

    arena = edge_case_arena()
    section = robustness(arena, validate(arena), Settings(3, 5), workers=1)
    tol = Tolerance(arena.scenario.analysis.placement_tolerance, arena.scenario.analysis.placement_angle_tolerance)
    tables = [travel(validate(sample_arena(arena, 5, k, tol)[0])) for k in range(3)]
    assert section["travel"].keys() == travel(validate(arena)).keys()
    for start, row in section["travel"].items():
        for goal, band in row.items():
            times = sorted(t[start][goal] for t in tables if t[start][goal] is not None)
            assert (band["min"], band["max"]) == (round(times[0], 3), round(times[-1], 3))
            assert band["median"] == round(statistics.median(times), 3)


def _sample_in_fresh_process(warm: bool) -> tuple[object, int]:
    from engine.gravstrike import kernels
    from validators.robustness import run_sample

    sample = run_sample(TRI_CROWN, 5, 1, Tolerance(0.25, 5.0), Options(enable=("reachability",)), warm)
    assert kernels.current() is not None  # a placement's searches earn them either way
    return sample, kernels._state["made"]  # children made with numpy before they were loaded


def test_a_warm_worker_searches_with_the_kernels_and_finds_the_same() -> None:
    """A worker with several placements to do loads Gravstrike's compiled search kernels before
    its first search (``warm``); otherwise the searches start with numpy and switch once they
    have made enough children.  The same sample either way."""
    import os
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    if os.environ.get("ARENA_STUDIO_JIT", "auto") != "auto":
        pytest.skip("ARENA_STUDIO_JIT decides for every process")
    got = {}
    for warm in (False, True):
        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:  # a process of its own
            got[warm] = pool.submit(_sample_in_fresh_process, warm).result()
    assert got[False][1] > 0 and got[True][1] == 0
    assert got[False][0] == got[True][0]
    assert got[True][0].travel["start:1"]["checkpoint:M"] is not None  # it searched


def test_workers_warm_from_three_placements_each(monkeypatch: pytest.MonkeyPatch) -> None:
    import validators.robustness as rob

    seen: list[bool] = []

    def fan(fn, tasks, **kw):  # type: ignore[no-untyped-def]
        seen.append(tasks[0][-1])
        return [rob.Sample(t[2], skipped=True) for t in tasks]

    monkeypatch.setattr(rob, "fan_out", fan)
    nominal = validate(TRI_CROWN, enable=["overlap"])
    for n, workers in ((6, 2), (5, 2), (3, 1), (2, 1)):
        rob.robustness(TRI_CROWN, nominal, Settings(n, 0, None, Options(enable=("overlap",))), workers=workers)
    assert seen == [True, False, True, False]
