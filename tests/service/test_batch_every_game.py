"""Batch validation of a folder holding every game's shipped arenas (issue 36, item 12): every
validator of every game, in this process, on local worker processes (``arena validate -j 2 DIR``)
and on a Dask cluster, gives the same reports in input order.

``arena validate -j 2 DIR`` did all the work and then exited 3 when the folder held a Car Wars
arena: a report holds its validators, and two Car Wars validators held lambdas, which the
standard pickle of a process pool cannot send back."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from schema.ruleset import rulesets
from app.batch import Outcome, validate_paths
from app.cli.main import load_commands
from app.cli.shared import app
from validators.registry import Registry

from .conftest import ROOT

#: One or two shipped arenas of each game (the cheaper ones: the whole set takes several times
#: as long), a flawed one where a game ships one, so findings cross processes too.
SHIPPED = ("default.yaml", "arena-rex/colosseum-30.yaml", "arena-rex/lopsided-pit.yaml",
           "car-wars/twin-pillars-2p.yaml", "glider-pit-gladiators/crooked-pit-unfair.yaml",
           "glider-pit-gladiators/hexagonal-pit.yaml", "mothership-grid/battlefield-3x5.yaml",
           "mothership-grid/lopsided-battlefield-unfair.yaml")


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("every-game")
    for name in SHIPPED:
        shutil.copy(ROOT / "arenas" / name, d / name.replace("/", "--"))
    return d


@pytest.fixture(scope="module")
def serial(every_game: Path) -> list[Outcome]:
    return validate_paths([every_game])


def docs(outcomes: list[Outcome]) -> list[tuple[str, object, object]]:
    return [(o.source, o.report.to_json() if o.report else None, o.failure) for o in outcomes]


def test_every_registered_validator_pickles_by_reference() -> None:
    # the standard pickle (a process pool's), not cloudpickle: functions go by their importable name
    registry = Registry.discover()
    for code in registry.codes():
        validator = registry.get(code)
        assert type(pickle.loads(pickle.dumps(validator))) is type(validator), code


def test_the_folder_holds_every_game_and_validates_serially(serial: list[Outcome]) -> None:
    assert all(o.ok and o.failure is None for o in serial), [(o.source, o.failure, o.problems) for o in serial]
    assert {o.report.system for o in serial if o.report} == set(rulesets())
    assert any(o.report and o.report.findings for o in serial)


def test_cli_jobs_2_on_every_game_gives_the_serial_reports(every_game: Path, serial: list[Outcome]) -> None:
    load_commands()
    result = CliRunner().invoke(app, ["validate", str(every_game), "--json", "-j", "2"])
    assert result.exit_code == 1, result.output  # the flawed arenas have errors; 3 was the pickling failure
    assert json.loads(result.stdout) == [d for _, d, _ in docs(serial)]


def test_dask_cluster_on_every_game_gives_the_serial_reports(every_game: Path, serial: list[Outcome]) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        remote = validate_paths([every_game], scheduler=cluster.scheduler_address)
    assert docs(remote) == docs(serial)
