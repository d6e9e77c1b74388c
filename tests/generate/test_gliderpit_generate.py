"""Generated Glider-Pit pits: what the book fixes ("The 19 rows of hexes on the mapsheet are
identified by number", L193; six launch zones, "a string of five hexes along the wall of the
pit", L55) every draw has; the mirror holds by construction; a generated pit passes every
validator for 6 and 2 gliders (one seed each: the 20-seed sweep is ``bench/generate.py --system
glider-pit-gladiators --sweep``); the same seed gives the same pit on one worker or two; bad
catalogues and parameters are refused in words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.gliderpit.checks import check_symmetry
from engine.gliderpit.generate import GenerateError, build, fresh, load_catalogue, make_plan, precheck, vary
from engine.gliderpit.pit import pit_of
from schema import ArenaError, dumps, load
from app.cli.main import load_commands
from app.cli.shared import app
from validators.generate import generate, hook_of
from validators.run import validate

SYSTEM = "glider-pit-gladiators"
HOOK = hook_of(SYSTEM)


def test_every_draw_has_the_books_rows_and_zones_and_its_mirror() -> None:
    plan = make_plan(load_catalogue(None), gliders=6)
    for k in range(12):
        rng = np.random.default_rng([5, k])
        genome = fresh(plan, rng)
        for g in (genome, vary(plan, genome, rng)):
            arena = build(plan, g, seed=k)
            pit = pit_of(arena)
            assert len(pit.lines) == 19 and len(arena.rows) == 19
            assert {r.label for r in arena.rows} == set(range(2, 13))
            assert len(arena.launch_zones) == 6 and [z.track for z in arena.launch_zones] == [1, 2, 3, 4, 5, 6]
            assert all(set(z.cells) <= set(pit.wall) for z in arena.launch_zones)
            assert not check_symmetry(arena), k
            assert abs(pit.centre[0]) < 1e-9  # the mirror axis runs through the centroid


@pytest.mark.parametrize(("gliders", "seed"), [(6, 1), (2, 4)])
def test_a_generated_pit_passes_every_validator(gliders: int, seed: int) -> None:
    plan = HOOK.plan(None, gliders, None, None, None)
    outcome = generate(SYSTEM, plan, seed, budget=600, workers=1)
    assert outcome.passed and not outcome.out_of_time
    arena = load_text(dumps(outcome.arena))
    report = validate(arena)
    assert [f for f in report.findings if f.severity in ("error", "warning")] == []
    assert report.players == gliders and not check_symmetry(arena)


def test_the_same_seed_gives_the_same_pit_on_one_worker_or_two() -> None:
    plan = HOOK.plan(None, 6, "mirror", None, None)
    one = generate(SYSTEM, plan, 2, budget=600, workers=1, max_rounds=3)
    two = generate(SYSTEM, plan, 2, budget=600, workers=2, max_rounds=3)
    assert dumps(one.arena) == dumps(two.arena) and one.evaluated == two.evaluated


def test_the_cheap_checks_catch_crowded_zones() -> None:
    plan = make_plan(load_catalogue(None), gliders=6)
    genome = fresh(plan, np.random.default_rng(0))
    arena = build(plan, genome, seed=0)
    assert precheck(arena) == []
    z1, z2 = arena.launch_zones[:2]
    crowded = dataclasses.replace(arena, launch_zones=(z1, dataclasses.replace(z2, cells=z1.cells[1:] + z2.cells[:1]),
                                                       *arena.launch_zones[2:]))
    assert any("Z1 and Z2 are 0 hexes apart along the wall" in p for p in precheck(crowded))
    spread = build(plan, type(genome)(genome.widths, (0.5, 0.5, 0.5), genome.labels, genome.floor), seed=0)
    assert precheck(spread) == []  # places that coincide are pushed apart along the wall


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"symmetry": "rotational:2"}, "sends row r onto row -r, which the generator does not"),
    ({"gliders": 7}, "two to six"),
    ({"table": "square"}, "hex grid"),
])
def test_parameters_it_cannot_honour_are_refused_in_words(kwargs: dict[str, object], words: str) -> None:
    args: dict[str, object] = {"gliders": 6, **kwargs}
    with pytest.raises(GenerateError, match=words):
        make_plan(load_catalogue(None), **args)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "where"), [
    ("catalogue: glider-pit/1\npit: {min_width: 3}\n", ":2:18: /pit/min_width: 3 is less than the minimum of 6"),
    ("catalogue: glider-pit/1\npit: {max_step: 2}\n", ":2:17: /pit/max_step: max_step 2 is even"),
    ("catalogue: glider-pit/1\nfloors: [8]\n", ":2:10: /floors/0: 8 is not one of"),
])
def test_bad_catalogues_name_the_file_line_and_pointer(tmp_path: Path, text: str, where: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ArenaError) as got:
        load_catalogue(bad)
    assert where in str(got.value), str(got.value)


def test_cli_generates_a_pit(tmp_path: Path) -> None:
    load_commands()
    out = tmp_path / "pit.yaml"
    result = CliRunner().invoke(app, ["generate", "--system", SYSTEM, "--players", "6", "--seed", "1", "-o", str(out),
                                      "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "passes every validator" in result.output and load(out).system == SYSTEM
    bad = CliRunner().invoke(app, ["generate", "--system", SYSTEM, "--symmetry", "dihedral:2", "-o", str(out)])
    assert bad.exit_code == 2 and "mirror" in bad.output


def load_text(text: str):  # noqa: ANN201
    from schema import loads

    return loads(text)
