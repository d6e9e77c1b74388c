"""Generated arenas, the search (issue 19 part 3): a generated arena passes every validator,
holds its symmetry, and is the same for a seed on one worker or two; the CLI writes it
atomically and exits 0, refuses bad parameters and catalogues naming them, and exits 1 saying
what still fails when the budget runs out.

Bounded for ``make test``: one seed per player count (4 and 2).  The 20-seed sweep over two
player counts is ``bench/generate.py --sweep`` (docs/performance.md has its numbers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from schema import dumps, load
from app.cli.main import load_commands
from app.cli.shared import app
from validators.generate import generate, hook_of
from validators.run import validate
from engine.gravstrike.invariance import invariances

runner = CliRunner()
HOOK = hook_of("gravstrike")
#: A built-in game without a generator, if any is left.


@pytest.fixture(scope="module")
def four_players() -> tuple[str, object]:
    plan = HOOK.plan(None, 4, "rotational:4", None, None)
    two = generate("gravstrike", plan, 7, budget=600, workers=2)
    return dumps(two.arena), two


def test_a_generated_four_player_arena_passes_every_validator(four_players: tuple[str, object]) -> None:
    text, outcome = four_players
    assert outcome.passed and not outcome.out_of_time  # type: ignore[attr-defined]
    arena = load_text(text)
    report = validate(arena)
    assert [f for f in report.findings if f.severity in ("error", "warning")] == []
    assert len(invariances(arena, tol=1e-3)) == 3  # rotations by 90, 180 and 270 degrees


def test_the_same_seed_gives_the_same_arena_on_one_worker_or_two(four_players: tuple[str, object]) -> None:
    text, outcome = four_players
    plan = HOOK.plan(None, 4, "rotational:4", None, None)
    one = generate("gravstrike", plan, 7, budget=600, workers=1, max_rounds=outcome.rounds)  # type: ignore[attr-defined]
    assert dumps(one.arena) == text


def test_a_generated_two_player_arena_passes() -> None:
    plan = HOOK.plan(None, 2, "mirror", None, None)
    outcome = generate("gravstrike", plan, 3, budget=600, workers=2)
    assert outcome.passed
    report = validate(outcome.arena)
    assert [f for f in report.findings if f.severity in ("error", "warning")] == []
    assert len(invariances(outcome.arena, tol=1e-3)) == 1


def load_text(text: str):  # noqa: ANN201
    from schema import loads

    return loads(text)


def test_cli_out_of_budget_writes_the_best_so_far_and_says_what_fails(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget runs out after the first candidate (a clock that jumps past the deadline once
    the search has started: with warm caches a real second can be enough to find a passing arena)."""
    import time as real_time
    import types

    import validators.generate as gen

    calls = {"n": 0}

    def monotonic() -> float:
        calls["n"] += 1
        return 0.0 if calls["n"] <= 2 else 100.0  # the start and the check before the first candidate

    monkeypatch.setattr(gen, "time", types.SimpleNamespace(monotonic=monotonic, perf_counter=real_time.perf_counter))
    load_commands()
    out = tmp_path / "g.yaml"
    result = runner.invoke(app, ["generate", "--players", "4", "--seed", "1", "--budget", "1", "--workers", "1",
                                 "--fail-on", "info", "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "before an arena passed" in result.output and "finding(s)" in result.output
    assert load(out).players == 4


@pytest.mark.parametrize(("args", "words"), [
    (["--players", "4", "--symmetry", "rotational:3"], "4 players cannot share rotational:3 symmetry"),
    (["--system", "gravstrike", "--players", "4"], "arena generation is not available for Gravstrike"),
    (["--players", "4", "--table", "30x20"], "does not have rotational:4"),
])
def test_cli_refuses_parameters_in_words(tmp_path: Path, args: list[str], words: str,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    if "not available" in words:  # every built-in game has a generator: one installed without
        from validators.game import GameAnalysis, analysis

        monkeypatch.setattr(type(analysis("gravstrike")), "generator_hook", GameAnalysis.generator_hook)
    load_commands()
    result = runner.invoke(app, ["generate", *args, "-o", str(tmp_path / "g.yaml")])
    assert result.exit_code == 2 and words in result.output, result.output
    assert not (tmp_path / "g.yaml").exists()


def test_cli_names_the_catalogue_line_and_pointer(tmp_path: Path) -> None:
    load_commands()
    cat = tmp_path / "pieces.yaml"
    cat.write_text("catalogue: gravstrike/1\nwalls:\n- {length: 3, count: many}\n", encoding="utf-8")
    result = runner.invoke(app, ["generate", "--catalogue", str(cat), "-o", str(tmp_path / "g.yaml")])
    assert result.exit_code == 2
    assert f"{cat}:3:22: /walls/0/count: 'many' is not of type 'integer'" in result.output
