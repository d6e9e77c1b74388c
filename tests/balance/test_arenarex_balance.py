"""Arena Rex through the same proposed-fix search: its terrain moves with its images under the
declared half turn; the deployment zones (the board's edges) stay."""

from __future__ import annotations

import math
import re
from pathlib import Path

from typer.testing import CliRunner

from engine.arenarex.checks import check_symmetry
from engine.placement import Offset
from schema import load, save
from validators.games.arenarex.balance import HOOK
from validators.balance import propose
from app.cli.main import load_commands
from app.cli.shared import app
from validators.run import validate

from .arenas import rex_pits_at_the_edges


def test_pits_on_the_deployment_edges_move_off_them_together() -> None:
    """"a base deployed in a zone touches a pit": the pit and its half-turn image move out of
    both zones, the symmetry kept and no new finding."""
    arena = rex_pits_at_the_edges()
    before = validate(arena)
    assert {(f.code, f.severity) for f in before.findings} == {("ar-deployment", "error")}
    p = propose(arena)
    assert [f.status for f in p.fixes] == ["fixed", "fixed"]
    [edit] = p.edits
    assert edit.ref == "pit-west" and edit.images == ("pit-east",)
    assert edit.words("in").startswith("move pit pit-west by ") and "away from deploy:1" in edit.words("in")
    assert validate(p.arena).findings == []
    assert not check_symmetry(p.arena)
    (wx, wy), (ex, ey) = (pit.shape.center for pit in p.arena.pits)  # type: ignore[union-attr]
    assert (wx, wy) == (-ex, -ey) and 0 < math.hypot(edit.dx, edit.dy) <= 2.0
    assert p.arena.deployment == arena.deployment and p.arena.hazards == arena.hazards


def test_the_half_turn_carries_a_move_to_the_image_reversed() -> None:
    arena = rex_pits_at_the_edges()
    off = HOOK.images(arena, "pit-west", Offset(0.5, 1.0, 0.0))
    assert (off["pit-east"].dx, off["pit-east"].dy) == (-0.5, -1.0)


def test_cli_fixes_an_arena_rex_file_and_names_its_kinds(tmp_path: Path) -> None:
    load_commands()
    src, out = tmp_path / "edge.yaml", tmp_path / "fixed.yaml"
    save(rex_pits_at_the_edges(), src)
    result = CliRunner().invoke(app, ["balance", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "away from deploy:1" in result.stdout and load(out).pits != rex_pits_at_the_edges().pits
    bad = CliRunner().invoke(app, ["balance", str(src), "-o", str(out), "--free", "starts"])
    assert bad.exit_code == 2 and "pits, spikes, hazards" in re.sub(r"[│╭╮╰╯─\s]+", " ", bad.output)
