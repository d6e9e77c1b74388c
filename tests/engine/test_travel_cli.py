"""``arena travel``: the planner from the command line — JSON shape, exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from schema import save
from schema.shapes import Circle, Polyline, Rect
from schema.games.gravstrike.model import Arena, Checkpoint, StartPosition, Wall
from app.cli.main import load_commands, app

load_commands()


def _arena(tmp_path: Path, caged: bool = False) -> Path:
    walls = (Wall("W1", Polyline(((2.0, -3.0), (8.0, -3.0), (8.0, 3.0), (2.0, 3.0), (2.0, -3.0)), 1.5)),) if caged else ()
    arena = Arena(name="t", bounds=Rect((0.0, 0.0), (18.0, 10.0)), walls=walls,
                  checkpoints=(Checkpoint("A", "outlying", Circle((5.0, 0.0), 0.5)),),
                  start_positions=(StartPosition(1, (-5.0, 0.0), 0.0),))
    path = tmp_path / ("caged.yaml" if caged else "open.yaml")
    save(arena, path)
    return path


def test_reachable_goal_prints_the_plan_as_json_and_exits_0(tmp_path: Path) -> None:
    """Straight line from rest: speeds 2, 4 then the checkpoint (9.5 lengths away, touching at
    radius 0.5 + half a length) on turn 3 ("Distance and Speed")."""
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "start:1", "--to", "checkpoint:A", "--json",
                                 "--fewest-icons"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert set(doc) >= {"from", "to", "reachable", "turns", "lengths", "time", "icons", "damage", "path"}
    assert doc["reachable"] and doc["turns"] == 3 and doc["icons"] == 0
    assert doc["time"] == 2 + doc["lengths"] / doc["path"][-1]["speed"]
    assert set(doc["path"][0]) >= {"x", "y", "heading", "speed", "turn", "length", "pushed_by"}


def test_pose_source_and_tolerance_option(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "-5,0,0,2", "--to", "checkpoint:A",
                                 "--tolerance", "0.25", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["turns"] == 2  # already at speed 2: 4 then 6 lengths


def test_unreachable_goal_exits_1_and_bad_queries_exit_2(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path, caged=True)), "--from", "start:1", "--to", "checkpoint:A"])
    assert r.exit_code == 1
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "start:1", "--to", "checkpoint:Q"])
    assert r.exit_code == 2 and "no checkpoint 'Q'" in r.output
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "start:9", "--to", "checkpoint:A"])
    assert r.exit_code == 2


def test_reverse_pose_source_is_accepted(tmp_path: Path) -> None:
    """"Turbines can travel in reverse": a pose source may already be moving backwards; facing
    away from the checkpoint at speed -2 it gets there in reverse sooner than by turning round."""
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "7,0,0,-2", "--to", "checkpoint:A", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["status"] == "reached"
    assert all(step["speed"] < 0 for step in doc["path"])


def test_a_search_stopped_by_its_memory_limit_exits_3_and_says_so(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "start:1", "--to", "checkpoint:A",
                                 "--max-memory", "64K", "--json"])
    assert r.exit_code == 3, r.output
    doc = json.loads(r.output)
    assert doc["status"] == "undecided" and "memory limit (64 KiB)" in doc["reason"]
    assert doc["at_least"] is not None and not doc["reachable"]
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "start:1", "--to", "checkpoint:A",
                                 "--max-memory", "64K"])
    assert r.exit_code == 3 and "undecided" in r.output and "--max-memory" in r.output
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "start:1", "--to", "checkpoint:A",
                                 "--max-memory", "lots"])
    assert r.exit_code == 2 and "memory size" in r.output


def test_progress_option_keeps_stdout_clean(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["travel", str(_arena(tmp_path)), "--from", "start:1", "--to", "checkpoint:A",
                                 "--progress", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["status"] == "reached"
