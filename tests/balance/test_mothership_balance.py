"""The Mothership battlefield through the proposed-fix search: a Mothership slides along its
short side a whole square at a time, its build squares with it ("Your own Units will be
constructed only in the three squares near your own Mothership", L14); the battlefield stays."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from typer.testing import CliRunner

from engine.mothership.checks import check_symmetry
from engine.placement import Offset
from schema import load
from schema.games.mothership import Mothership, default_arena
from validators.balance import propose
from app.cli.main import load_commands
from app.cli.shared import app
from validators.games.mothership.balance import HOOK
from validators.run import validate

from .arenas import ROOT

LOPSIDED = ROOT / "arenas" / "mothership-grid" / "lopsided-battlefield-unfair.yaml"


def test_the_lopsided_battlefields_mothership_slides_back_to_the_middle() -> None:
    """M1 "is not along a short side" and builds on the wrong squares: one slide west puts it in
    the middle of the short side with the three squares next to it as its build squares; the
    hole and the 4 HP stay (no move makes squares or hit points), nothing new appears and the
    mirror improves."""
    arena = load(LOPSIDED)
    before = validate(arena)
    p = propose(arena)
    [edit] = p.edits
    assert edit.ref == "M1" and (edit.dx, edit.dy) == (-1.0, 0.0) and "west along its side" in edit.words(p.unit)
    m1 = next(m for m in p.arena.motherships if m.id == "M1")
    assert m1.squares == ((0, -1), (1, -1), (2, -1)) and set(m1.build_squares) == {(0, 0), (1, 0), (2, 0)}
    after = validate(p.arena)
    gone = {f.code for f in before.findings} - {f.code for f in after.findings}
    assert {"mg-motherships", "mg-build-squares", "mg-approach"} & gone == {"mg-build-squares", "mg-approach"}
    assert {(f.code, f.severity) for f in after.findings if f.severity == "error"} == {("mg-size", "error")}
    assert len(check_symmetry(p.arena)) < len(check_symmetry(arena))
    assert p.arena.squares == arena.squares


def test_a_slide_carries_to_the_other_mothership_by_the_declared_symmetry() -> None:
    arena = default_arena()
    mirror = HOOK.images(arena, "M1", Offset(1.0, 0.0, 0.0))
    assert mirror == {"M1": Offset(1.0, 0.0, 0.0), "M2": Offset(1.0, 0.0, 0.0)}
    half_turn = dataclasses.replace(arena, symmetry=dataclasses.replace(arena.symmetry, kind="rotational"))
    assert HOOK.images(half_turn, "M1", Offset(1.0, 0.0, 0.0))["M2"] == Offset(-1.0, 0.0, 0.0)


def test_both_motherships_off_centre_slide_back_together() -> None:
    arena = default_arena()
    ships = tuple(Mothership(m.id, m.player, tuple((x + 1, y) for x, y in m.squares),
                             tuple((x + 1, y) for x, y in m.build_squares if x + 1 <= 2), m.hp) for m in arena.motherships)
    shifted = dataclasses.replace(arena, motherships=ships)
    assert not check_symmetry(shifted)
    p = propose(shifted)
    assert p.changed and validate(p.arena).findings == [] and p.arena.motherships == arena.motherships
    [edit] = p.edits
    assert {edit.ref, *edit.images} == {"M1", "M2"}


def test_cli_balances_a_battlefield(tmp_path: Path) -> None:
    load_commands()
    out = tmp_path / "fixed.yaml"
    result = CliRunner().invoke(app, ["balance", str(LOPSIDED), "-o", str(out), "--free", "motherships"])
    assert result.exit_code == 1, result.output  # the hole and the 4 HP are not a move's to fix
    assert "move Mothership M1 (player 1) by 1 square west along its side" in result.stdout
    assert next(m for m in load(out).motherships if m.id == "M1").squares == ((0, -1), (1, -1), (2, -1))
