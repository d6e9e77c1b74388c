"""``arena simulate`` (issue 40, point 3) in a fresh process, on Tortoise Derby (installed for
this package through PYTHONPATH's .dist-info): its JSON passes schema/simulation.schema.json,
its text shows the starts and the finding, ``--record`` writes records that replay legally, and
a game without a play engine, a bad policy or player count is one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.simulate.conftest import ARENAS, toy

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schema" / "simulation.schema.json").read_text(encoding="utf-8"))


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-c", "from app.cli.main import main; main()", *args]
    return subprocess.run(cmd, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=300)


def test_json_passes_the_schema_and_equals_the_runners(tmp_path: Path) -> None:
    from validators.simulate import simulate

    out = tmp_path / "games.json"
    r = arena("simulate", str(ARENAS / "unfair.yaml"), "--games", "40", "--seed", "3", "--workers", "1", "--json",
              "--record", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert doc == simulate(toy("unfair"), 40, 3, workers=1).document
    assert [f["metrics"]["start"] for f in doc["findings"]] == [1, 2]
    games = json.loads(out.read_text(encoding="utf-8"))
    assert games["format"] == "arena-studio-games/1" and len(games["games"]) == 40
    from validators.simulate import game_seed

    assert [g["seed"] for g in games["games"][:2]] == [game_seed(3, 0), game_seed(3, 1)]
    assert {tuple(g["winners"]) for g in games["games"]} <= {(1,), (2,), (1, 2)}


def test_text_output_has_the_starts_table_and_the_finding() -> None:
    r = arena("simulate", str(ARENAS / "unfair.yaml"), "--games", "30", "--seed", "1", "--workers", "1",
              "--param", "min_speed=0.5")
    assert r.returncode == 0, r.stderr
    assert "Unfair meadow: 30 game(s) of 2 players (seed 1, policy greedy" in r.stdout
    assert "win rate" in r.stdout and "95 % interval" in r.stdout and "mean score" in r.stdout
    assert "warning: play-balance: start 2 wins less often than a fair share" in " ".join(r.stdout.split())


def _arena_without_play() -> Path:
    """A shipped arena whose game has no play engine (the engines land game by game)."""
    from schema import load
    from validators.game import analysis_of

    for path in sorted((ROOT / "arenas").rglob("*.yaml")):
        try:
            if not analysis_of(load(path)).has_play():
                return path
        except Exception:  # noqa: BLE001 - a file that is not an arena
            continue
    pytest.skip("every shipped game has a play engine")


@pytest.mark.parametrize("args, message", [
    (["--policy", "nope"], "unknown policy nope: this game plays greedy, dawdle"),
    (["--players", "3"], "Unfair meadow has 2 tortoises; it cannot seat 3 players"),
    (["--param", "speed=2"], "unknown parameter speed: this game's are min_speed, rams, turn_limit"),
])
def test_what_the_game_refuses_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    r = arena("simulate", str(ARENAS / "unfair.yaml"), "--games", "2", *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == f"error: {ARENAS / 'unfair.yaml'}: {message}"


def test_a_game_without_a_play_engine_is_named_and_exit_2() -> None:
    path = _arena_without_play()
    from schema import load
    from validators.game import analysis_of

    title = analysis_of(load(path)).title
    r = arena("simulate", str(path), "--games", "2")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == f"error: {path}: simulated play is not available for {title} yet"
