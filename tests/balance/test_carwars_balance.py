"""Car Wars through the proposed-fix search (issue 19 part 2): "Gaps between walls must be at
least one turning key (2 car lengths) long" (001_720c8b844658e4d7.txt L194) - a wall too near the
edge moves out with its half-turn image; the shipped flawed arena's gap between two blocks and
its clay card beside one start are fixed too."""

from __future__ import annotations

import math
import re
from pathlib import Path

from typer.testing import CliRunner

from engine.carwars.symmetry import symmetries
from engine.placement import Offset
from schema import load, save
from validators.balance import propose
from validators.games.carwars.balance import HOOK
from app.cli.main import load_commands
from app.cli.shared import app
from validators.run import validate

from .arenas import ROOT, cw_pillars_at_the_edges

FLAWED = ROOT / "arenas" / "car-wars" / "broken-yard-flawed.yaml"


def test_pillars_at_the_edges_move_in_together_and_keep_the_half_turn() -> None:
    arena = cw_pillars_at_the_edges()
    before = validate(arena)
    assert {(f.code, f.severity) for f in before.findings} == {("cw-wall-gap", "error")}
    assert len(symmetries(arena)) == 1
    p = propose(arena, report=before)
    assert [f.status for f in p.fixes] == ["fixed", "fixed"]
    [edit] = p.edits
    assert {edit.ref, *edit.images} == {"pillar-W", "pillar-E"}
    assert "away from the gap's other side" in edit.words("in") and "symmetric image" in edit.words("in")
    assert validate(p.arena).findings == []
    assert len(symmetries(p.arena)) == 1  # the half turn is kept
    (wx, wy), (ex, ey) = (w.shape.center for w in p.arena.walls)  # type: ignore[union-attr]
    assert (wx, wy) == (-ex, -ey) and 11.0 <= abs(wx) < 14.0 and 0 < math.hypot(edit.dx, edit.dy) <= 3.0
    assert p.arena.start_positions == arena.start_positions and p.arena.cards == arena.cards


def test_a_move_carries_to_the_image_under_the_half_turn() -> None:
    off = HOOK.images(cw_pillars_at_the_edges(), "pillar-W", Offset(0.5, 1.0, 10.0))
    assert set(off) == {"pillar-W", "pillar-E"}
    assert (round(off["pillar-E"].dx, 9), round(off["pillar-E"].dy, 9), off["pillar-E"].dtheta) == (-0.5, -1.0, 10.0)


def test_the_flawed_yard_gap_between_the_blocks_is_widened_without_a_new_error() -> None:
    arena = load(FLAWED)
    before = validate(arena)
    p = propose(arena, code="cw-wall-gap", elements=("block-A", "block-B"), report=before)
    [fix] = p.fixes
    assert fix.status == "fixed" and [e.ref for e in fix.edits] in (["block-A"], ["block-B"])
    gaps = [f for f in p.after.findings if f.code == "cw-wall-gap"]
    assert not any(set(f.elements) == {"block-A", "block-B"} for f in gaps)
    old = {(f.code, tuple(sorted(f.elements))) for f in before.findings}
    assert not [f for f in p.after.findings if f.severity == "error" and (f.code, tuple(sorted(f.elements))) not in old]


def test_the_flawed_yard_clay_moves_off_start_1() -> None:
    """"any dice required by hazards their car is overlapping" (L516): the clay card beside start 1
    only moves until both starts have the same hazard dice nearby."""
    arena = load(FLAWED)
    p = propose(arena, code="cw-exposure")
    assert [f.status for f in p.fixes] == ["fixed"] and p.edits[0].ref == "clay"
    assert not [f for f in p.after.findings if f.code == "cw-exposure"]


def test_cli_fixes_a_car_wars_file_and_names_its_kinds(tmp_path: Path) -> None:
    load_commands()
    src, out = tmp_path / "edges.yaml", tmp_path / "fixed.yaml"
    save(cw_pillars_at_the_edges(), src)
    result = CliRunner().invoke(app, ["balance", str(src), "-o", str(out), "--free", "walls"])
    assert result.exit_code == 0, result.output
    assert "move wall pillar-" in result.stdout and load(out).walls != cw_pillars_at_the_edges().walls
    assert validate(load(out)).findings == []
    bad = CliRunner().invoke(app, ["balance", str(src), "-o", str(out), "--free", "fields"])
    text = re.sub(r"[│╭╮╰╯─\s]+", " ", bad.output)
    assert bad.exit_code == 2 and "walls, obstacles, terrain, hazards, cards, tokens, starts" in text
    none = CliRunner().invoke(app, ["balance", str(src), "-o", str(tmp_path / "n.yaml"), "--free", "cards"])
    assert none.exit_code == 1 and not (tmp_path / "n.yaml").exists()
