"""Shipped arenas load, round-trip byte-identically, and are what their generator writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from schema import dumps, load, loads, save

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "arenas").rglob("*.yaml"))


def test_arenas_are_shipped() -> None:
    names = {p.relative_to(ROOT / "arenas").as_posix() for p in SHIPPED}
    assert {"default.yaml", "examples/lopsided.yaml", "examples/three-player.yaml",
            "examples/gates-and-decay.yaml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_round_trips_byte_identically(path: Path, tmp_path: Path) -> None:
    arena = load(path)
    out = tmp_path / path.name
    save(arena, out)
    assert out.read_bytes() == path.read_bytes()
    assert load(out) == arena


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_json_round_trip(path: Path, tmp_path: Path) -> None:
    arena = load(path)
    out = tmp_path / (path.stem + ".json")
    save(arena, out)
    again = load(out)
    assert again == arena
    save(again, tmp_path / "second.json")
    assert (tmp_path / "second.json").read_bytes() == out.read_bytes()


def test_default_arena_matches_the_brief() -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    assert arena.players == 6 and len(arena.start_positions) == 6
    minx, miny, maxx, maxy = arena.bounds_geometry().bounds
    assert 20 <= maxx - minx <= 26 and 20 <= maxy - miny <= 26
    kinds = [c.kind for c in arena.checkpoints]
    assert kinds.count("outlying") >= 3 and 1 <= kinds.count("central") <= 2
    assert all(x.active_from_tier == 3 for x in arena.exclusion_fields) and arena.exclusion_fields
    assert arena.static_targets and arena.walls and arena.acceleration_fields
    bounds = arena.bounds_geometry()
    for el in (*arena.walls, *arena.checkpoints, *arena.acceleration_fields, *arena.exclusion_fields):
        assert bounds.covers(el.shape.to_shapely()), el.id


def test_lopsided_lists_its_flaws() -> None:
    arena = load(ROOT / "arenas" / "examples" / "lopsided.yaml")
    assert arena.description is not None
    for code in ("start-spacing", "start-checkpoint-access", "checkpoint-spacing", "checkpoint-mix",
                 "field-orbit", "exclusion-placement"):
        assert code in arena.description


def test_generator_is_up_to_date() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_arenas.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dumps_is_a_fixed_point() -> None:
    arena = load(ROOT / "arenas" / "default.yaml")
    text = dumps(arena)
    assert dumps(loads(text)) == text
    assert dumps(loads(dumps(arena, "json"), fmt="json"), "json") == dumps(arena, "json")
