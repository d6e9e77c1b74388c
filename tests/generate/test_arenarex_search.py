"""Generated Arena Rex boards, the search (issue 19 part 3): a generated board passes every Arena
Rex validator, holds its symmetry, and is the same for a seed on one worker or two; the CLI
writes it (two players by default: "both players roll a D6") and refuses what the book does not
support, naming it.

Bounded for ``make test``: one seed on each of the book's two boards (the 30 in circle and the
24 in square).  The 20-seed sweep of both is ``bench/generate.py --system arena-rex --sweep
--players 2 --tables circle square`` (docs/cli.md, "Generated arenas", has its numbers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.arenarex.checks import check_symmetry
from schema import dumps, load, loads
from schema.games.arenarex import ArenaRexArena
from app.cli.main import load_commands
from app.cli.shared import app
from validators.generate import generate, hook_of
from validators.run import validate

runner = CliRunner()
HOOK = hook_of("arena-rex")


def _clean(arena: ArenaRexArena) -> list[str]:
    return [f"{f.code}: {f.message}" for f in validate(arena).findings if f.severity in ("error", "warning")]


@pytest.fixture(scope="module")
def circle() -> tuple[str, object]:
    plan = HOOK.plan(None, 2, None, None, "circle")
    two = generate("arena-rex", plan, 4, budget=600, workers=2)
    return dumps(two.arena), two


def test_a_generated_circle_passes_every_validator(circle: tuple[str, object]) -> None:
    """The book's usual board, "a 30 diameter circle", with "at least two pits and a good mix of
    spikes and hazards": every setup check and every zone-fairness check passes."""
    text, outcome = circle
    assert outcome.passed and not outcome.out_of_time  # type: ignore[attr-defined]
    arena = loads(text)
    assert isinstance(arena, ArenaRexArena) and arena.bounds.radius == 15.0  # type: ignore[union-attr]
    assert _clean(arena) == [] and check_symmetry(arena) == []
    assert len(arena.pits) >= 2 and arena.spikes and arena.hazards


def test_the_same_seed_gives_the_same_board_on_one_worker_or_two(circle: tuple[str, object]) -> None:
    text, outcome = circle
    plan = HOOK.plan(None, 2, None, None, "circle")
    one = generate("arena-rex", plan, 4, budget=600, workers=1, max_rounds=outcome.rounds)  # type: ignore[attr-defined]
    assert dumps(one.arena) == text


def test_a_generated_square_under_a_mirror_passes() -> None:
    """"We suggest a board at least 24 x 24 for Arena Rex": the smallest board, mirrored."""
    plan = HOOK.plan(None, 2, "mirror", None, "square")
    outcome = generate("arena-rex", plan, 3, budget=600, workers=1)
    assert outcome.passed
    assert _clean(outcome.arena) == [] and outcome.arena.symmetry.kind == "mirror"


def test_cli_generates_two_players_by_default(tmp_path: Path) -> None:
    load_commands()
    out = tmp_path / "rex.yaml"
    result = runner.invoke(app, ["generate", "--system", "arena-rex", "--table", "square", "--seed", "2", "--workers",
                                 "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 players, rotational:2 symmetry, a 24 in square" in result.output
    assert "passes every validator" in result.output
    arena = load(out)
    assert isinstance(arena, ArenaRexArena) and arena.players == 2 and _clean(arena) == []


@pytest.mark.parametrize(("args", "words"), [
    (["--players", "4"], "Arena Rex is a game for two"),
    (["--symmetry", "rotational:3"], "does not turn one player's edge onto the other's"),
    (["--table", "square", "--size", "18"], "smaller than the book suggests"),
])
def test_cli_refuses_what_the_book_does_not_support(tmp_path: Path, args: list[str], words: str) -> None:
    load_commands()
    result = runner.invoke(app, ["generate", "--system", "arena-rex", *args, "-o", str(tmp_path / "g.yaml")])
    assert result.exit_code == 2 and words in result.output, result.output
    assert not (tmp_path / "g.yaml").exists()


def test_cli_names_the_catalogue_line_and_pointer(tmp_path: Path) -> None:
    load_commands()
    cat = tmp_path / "pieces.yaml"
    cat.write_text("catalogue: arena-rex/1\ncolumns:\n- {radius: 9, count: 2}\n", encoding="utf-8")
    result = runner.invoke(app, ["generate", "--system", "arena-rex", "--catalogue", str(cat), "-o",
                                 str(tmp_path / "g.yaml")])
    assert result.exit_code == 2
    assert f"{cat}:3:12: /columns/0/radius: 9 is greater than the maximum of 6" in result.output
