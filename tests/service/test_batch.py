"""Batch validation: the same outcomes, in input order, in this process, on local worker
processes and on a Dask cluster (LocalCluster, 2 worker processes)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.batch import Options, expand, validate_paths
from app.cli.main import load_commands
from app.cli.shared import app

from .conftest import CHEAP, ROOT

OPTIONS = Options(enable=tuple(CHEAP))


@pytest.fixture(scope="module")
def arena_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("arenas")
    shutil.copy(ROOT / "arenas" / "default.yaml", d / "a-default.yaml")
    for p in sorted((ROOT / "arenas" / "examples").glob("*.yaml")):
        shutil.copy(p, d / p.name)
    (d / "notes.txt").write_text("not an arena")
    return d


def docs(outcomes: list) -> list:
    return [(o.source, o.report.to_json() if o.report else None, [str(p) for p in o.problems], o.unknown_validator)
            for o in outcomes]


def test_expand_sorts_directories_and_keeps_files(arena_dir: Path) -> None:
    files = expand([arena_dir / "lopsided.yaml", arena_dir])
    assert files[0].name == "lopsided.yaml"
    assert [f.name for f in files[1:]] == sorted(p.name for p in arena_dir.glob("*.yaml"))


def test_local_processes_match_serial_in_input_order(arena_dir: Path) -> None:
    bad = arena_dir.parent / "bad.yaml"
    bad.write_text("format: arena-studio/1\nname: [unclosed\n")
    paths = [arena_dir, bad, arena_dir / "missing.yaml"]
    serial = validate_paths(paths, OPTIONS)
    seen: list[tuple[int, int]] = []
    parallel = validate_paths(paths, OPTIONS, jobs=2, progress=lambda d, t: seen.append((d, t)))
    assert docs(parallel) == docs(serial)
    n = len(serial)
    assert seen[-1] == (n, n) and len(seen) == n
    assert [o.ok for o in serial[-2:]] == [False, False]
    assert serial[-2].problems[0].line >= 1 and "cannot read" in serial[-1].problems[0].message
    assert all(o.ok for o in serial[:-2]) and serial[0].report is not None


def test_unknown_validator_is_an_outcome(arena_dir: Path) -> None:
    (out,) = validate_paths([arena_dir / "lopsided.yaml"], Options(enable=("no-such",)))
    assert out.unknown_validator == "no-such" and out.report is None


def test_dask_cluster_gives_the_same_reports(arena_dir: Path) -> None:
    distributed = pytest.importorskip("distributed")
    local = validate_paths([arena_dir], OPTIONS, jobs=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        seen: list[int] = []
        remote = validate_paths([arena_dir], OPTIONS, scheduler=cluster.scheduler_address,
                                progress=lambda d, t: seen.append(d))
        assert sorted(seen) == list(range(1, len(local) + 1))
        # and through the CLI
        load_commands()
        args = ["validate", str(arena_dir), "--json", *[f"--enable={c}" for c in CHEAP]]
        serial_cli = CliRunner().invoke(app, args)
        dask_cli = CliRunner().invoke(app, [*args, "--scheduler", cluster.scheduler_address])
    assert docs(remote) == docs(local)
    assert dask_cli.exit_code == serial_cli.exit_code in (0, 1)
    assert json.loads(dask_cli.stdout) == json.loads(serial_cli.stdout)


def test_cli_jobs_output_is_identical(arena_dir: Path) -> None:
    load_commands()
    args = ["validate", str(arena_dir), *[f"--enable={c}" for c in CHEAP]]
    serial = CliRunner().invoke(app, args)
    parallel = CliRunner().invoke(app, [*args, "--jobs", "2"])
    assert parallel.exit_code == serial.exit_code in (0, 1)
    assert parallel.stdout == serial.stdout and "Tri-Crown" in serial.stdout


def test_cli_batch_input_errors_exit_2(arena_dir: Path, tmp_path: Path) -> None:
    load_commands()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": ')
    result = CliRunner().invoke(app, ["validate", str(arena_dir / "lopsided.yaml"), str(bad), "-j", "2",
                                      "--enable=bounds"])
    assert result.exit_code == 2
    result = CliRunner().invoke(app, ["validate", str(bad), "--scheduler", "localhost:1"])
    assert result.exit_code == 2
