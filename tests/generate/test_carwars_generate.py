"""Generated Car Wars arenas (issue 19 part 3): a "roughly 3 feet per side" square whose outside
edges are walls, walls a turning key apart, each start's car touching a turning key flush against
the edge (001_720c8b844658e4d7.txt L192-L194, L417), symmetric by construction; it passes every
validator and is the same for a seed on one worker or two.

Bounded for ``make test``: one seed per player count (2 and 4).  The 20-seed sweep is
``bench/generate.py --system car-wars-6e --sweep --players 4 2`` (docs/performance.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from engine.carwars.generate import build, load_catalogue, make_plan, place, precheck
from engine.carwars.generate_plan import GenerateError
from engine.carwars.symmetry import symmetries
from schema import dumps, load, loads
from app.cli.main import load_commands
from app.cli.shared import app
from validators.generate import generate, hook_of
from validators.run import validate

SYSTEM = "car-wars-6e"
HOOK = hook_of(SYSTEM)
runner = CliRunner()


@pytest.fixture(scope="module")
def two_players() -> tuple[str, object]:
    plan = HOOK.plan(None, 2, None, None, None)
    outcome = generate(SYSTEM, plan, 2, budget=600, workers=2)
    return dumps(outcome.arena), outcome


def test_a_generated_two_player_arena_passes_every_validator(two_players: tuple[str, object]) -> None:
    text, outcome = two_players
    assert outcome.passed  # type: ignore[attr-defined]
    arena = loads(text)
    assert [f for f in validate(arena).findings if f.severity in ("error", "warning")] == []
    assert [round(t.angle) for t in symmetries(arena)] == [180]
    owners = sorted(c.owner for c in arena.cards if c.owner is not None)
    assert owners == [1, 2] and sorted(c.number for c in arena.cards) == [0, 1, 2, 3]


def test_the_same_seed_gives_the_same_arena_on_one_worker_or_two(two_players: tuple[str, object]) -> None:
    text, outcome = two_players
    plan = HOOK.plan(None, 2, None, None, None)
    one = generate(SYSTEM, plan, 2, budget=600, workers=1, max_rounds=outcome.rounds)  # type: ignore[attr-defined]
    assert dumps(one.arena) == text


def test_a_generated_four_player_arena_passes_every_validator() -> None:
    plan = HOOK.plan(None, 4, None, None, None)
    outcome = generate(SYSTEM, plan, 2, budget=600, workers=2)
    assert outcome.passed
    assert [f for f in validate(outcome.arena).findings if f.severity in ("error", "warning")] == []
    assert len(symmetries(outcome.arena)) == 3  # the quarter, half and three-quarter turns
    assert sorted(c.owner for c in outcome.arena.cards) == [1, 2, 3, 4]  # one own-colour checkpoint each


def test_placed_pieces_keep_a_turning_key_from_the_edge_and_each_other() -> None:
    """"Gaps between walls must be at least one turning key (2 car lengths) long" (L194)."""
    plan = make_plan(load_catalogue(None), players=4)
    arena = build(plan, place(plan, np.random.default_rng(5)), seed=5)
    assert precheck(arena) == []
    edge = arena.bounds_geometry().exterior
    walls = [w.shape.to_shapely() for w in arena.walls]
    assert min(edge.distance(w) for w in walls) >= 6.0
    assert min(a.distance(b) for i, a in enumerate(walls) for b in walls[i + 1:]) >= 6.0


@pytest.mark.parametrize(("players", "symmetry", "words"), [
    (3, None, "2 or 4 car bases"),
    (4, "rotational:2", "4 players cannot share rotational:2 symmetry"),
    (2, "rotational:3", "the square Car Wars arena has"),
])
def test_the_plan_refuses_what_the_box_or_the_square_cannot_do(players: int, symmetry: str | None, words: str) -> None:
    with pytest.raises(GenerateError, match=words):
        make_plan(load_catalogue(None), players=players, symmetry=symmetry)


def test_cli_names_the_catalogue_line_and_pointer_and_refuses_five_numbered_cards(tmp_path: Path) -> None:
    load_commands()
    cat = tmp_path / "pieces.yaml"
    cat.write_text("catalogue: car-wars-6e/1\nwalls:\n- {length: 8, count: lots}\n", encoding="utf-8")
    out = tmp_path / "g.yaml"
    result = runner.invoke(app, ["generate", "--system", SYSTEM, "--catalogue", str(cat), "-o", str(out)])
    assert result.exit_code == 2 and f"{cat}:3:22: /walls/0/count: 'lots' is not of type 'integer'" in result.output
    cat.write_text("catalogue: car-wars-6e/1\ncards: {checkpoints: 3, triggers: 2}\n", encoding="utf-8")
    result = runner.invoke(app, ["generate", "--system", SYSTEM, "--catalogue", str(cat), "-o", str(out)])
    assert result.exit_code == 2 and "four cards numbered 0 through 3" in result.output and not out.exists()


def test_cli_writes_a_car_wars_arena(tmp_path: Path) -> None:
    load_commands()
    out = tmp_path / "g.yaml"
    result = runner.invoke(app, ["generate", "--system", SYSTEM, "--players", "2", "--seed", "2", "--workers", "1",
                                 "--budget", "1", "--fail-on", "error", "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    arena = load(out)
    assert arena.system == SYSTEM and len(arena.start_positions) == 2 and arena.bounds.size == (36.0, 36.0)
