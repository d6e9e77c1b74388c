"""Start-up weight: each ``arena`` command imports what it needs when it needs it.

A light command must not load a heavy module: the top-level help none of the format's libraries,
``arena check`` no planner, no scipy and no terminal formatting, a grid arena's validation no
travel planner (nor, on a plain command line, typer, click or rich), and no command Qt, dask or
the HTTP service unless it runs them.  Each case runs the real entry point
(:func:`app.cli.main.main`) in a fresh interpreter and lists the modules it loaded - a count of
imports, not a timing, so the test does not depend on the machine's speed.
Timings against the interpreter's floor are in bench/startup.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Runs ``arena ARGS`` (argv after the script), then prints the loaded modules as JSON on stderr.
PROBE = """
import json, sys
sys.argv = ["arena", *sys.argv[1:]]
from app.cli.main import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""

#: What only the heavy work needs: the travel planners' libraries, parallel computing, Qt, the
#: service and its models (pydantic: typer 0.29 and later coerce every option through it, which
#: is why pyproject.toml keeps typer below 0.29), and the planners.
HEAVY = ("scipy", "numba", "dask", "distributed", "PySide6", "fastapi", "uvicorn", "pydantic",
         "engine.gravstrike.planner", "engine.carwars.planner")
#: What only ``arena validate`` on several files (``--jobs``, ``--scheduler``) or ``--robustness``
#: needs: the batch machinery (worker pools, Dask), the robustness runs, and a progress bar (only
#: drawn on a terminal; these probes write to pipes).
BATCH = ("app.batch", "validators.fanout", "validators.robustness", "app.cli.robustness",
         "rich.progress")
#: The file format's libraries (a command that reads no arena needs none of them).
FORMAT = ("numpy", "shapely", "jsonschema", "yaml")
#: importlib.metadata (with zipfile, email, csv: about a tenth of the floor with its scan): the
#: installed entry points are read by schema.ruleset's own scan.
METADATA = ("importlib.metadata",)


def loaded(*args: str) -> set[str]:
    result = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=600)
    line = next(ln for ln in result.stderr.splitlines() if ln.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def present(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """The names (a package or a module) of which ``modules`` holds the module or a submodule."""
    return [n for n in names if any(m == n or m.startswith(n + ".") for m in modules)]


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["export", "--help"], ["serve", "--help"],
                                  ["travel", "--help"], ["pack", "--help"], ["simulate", "--help"]])
def test_help_loads_no_format_library_nor_heavy_module(args: list[str]) -> None:
    modules = loaded(*args)
    assert "app.cli.shared" in modules  # the probe ran the command line
    assert present(modules, HEAVY + FORMAT) == []


def test_check_loads_the_format_and_nothing_heavy() -> None:
    modules = loaded("check", "arenas/default.yaml", "arenas/car-wars/crossroads-4p.yaml")
    assert present(modules, FORMAT) == list(FORMAT)  # it read the arenas
    assert present(modules, (*HEAVY, *METADATA, "rich", "typer")) == []  # a plain command line: no typer


def test_checking_one_games_arena_imports_only_that_games_format() -> None:
    """The schema gate compiles the game's branch of the dispatcher and the ruleset is loaded by
    name (schema.io._fast_validator, schema.ruleset.ruleset): no other game's package."""
    modules = loaded("check", "arenas/default.yaml")
    assert "schema.games.gravstrike" in modules
    assert present(modules, ("schema.games.carwars", "schema.games.arenarex", "schema.games.gliderpit",
                             "schema.games.mothership")) == []


@pytest.mark.parametrize("arena", ["arenas/mothership-grid/battlefield-3x5.yaml",
                                   "arenas/glider-pit-gladiators/hexagonal-pit.yaml"])
def test_a_grid_arena_validates_without_the_planners(arena: str) -> None:
    modules = loaded("validate", "--json", arena)
    assert "validators.run" in modules
    assert present(modules, HEAVY + BATCH + METADATA) == []


def test_validating_a_gravstrike_arena_loads_its_planner_but_not_qt_dask_or_the_service() -> None:
    modules = loaded("validate", "--json", "arenas/default.yaml")
    assert "engine.gravstrike.planner" in modules
    assert present(modules, ("PySide6", "dask", "distributed", "fastapi", "uvicorn", "engine.carwars.planner",
                             *BATCH)) == []


def test_validating_a_car_wars_arena_loads_no_batch_machinery() -> None:
    modules = loaded("validate", "arenas/car-wars/crossroads-4p.yaml")
    assert "engine.carwars.planner" in modules
    # scipy.spatial (0.15 s of CPU) was for the wall-gap check's neighbours: engine.neighbours
    assert present(modules, ("PySide6", "dask", "distributed", "fastapi", "uvicorn", "engine.gravstrike.planner",
                             "scipy.spatial", *BATCH)) == []


@pytest.mark.parametrize("arena", ["arenas/mothership-grid/battlefield-3x5.yaml",
                                   "arenas/glider-pit-gladiators/hexagonal-pit.yaml"])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_plain_grid_validation_runs_without_the_command_line_library(arena: str, as_json: bool) -> None:
    """A plain ``arena validate FILE`` (app.cli.validating.plain) runs without typer or click,
    and, its report written to a pipe, without rich (app.cli.plaintext writes rich's text)."""
    modules = loaded("validate", arena, *(["--json"] if as_json else []))
    assert "validators.run" in modules
    assert present(modules, ("typer", "click", "rich")) == []


def test_any_other_validate_command_line_falls_back_to_typer() -> None:
    modules = loaded("validate", "arenas/mothership-grid/battlefield-3x5.yaml", "--seed", "0")
    assert "validators.run" in modules and "typer" in modules


@pytest.mark.parametrize("arena", ["arenas/mothership-grid/battlefield-3x5.yaml", "arenas/default.yaml"])
def test_a_validation_printing_json_imports_no_terminal_formatting(arena: str) -> None:
    """rich (0.03 s of CPU) is imported when a report is printed for people, after the analysis
    - for the default arena while the forked helper searches, not before its fork."""
    modules = loaded("validate", "--json", arena)
    assert "validators.run" in modules
    assert present(modules, ("rich",)) == []


def test_a_car_wars_validation_forks_its_worker_without_multiprocessing() -> None:
    """The Car Wars runner's second core is a forked child (validators.parallel.fork_helper), not
    a process pool: no multiprocessing, no concurrent.futures.process (their imports, the pool's
    threads and queues cost more than the lane they run on a two-core machine)."""
    modules = loaded("validate", "--json", "arenas/car-wars/crossroads-4p.yaml")
    assert "validators.parallel" in modules  # the worker was forked
    assert present(modules, ("multiprocessing", "concurrent.futures.process")) == []
