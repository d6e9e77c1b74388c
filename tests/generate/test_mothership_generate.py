"""Generated Mothership battlefields: the book fixes nearly everything ("The Battlefield (or BF)
is 3 x 5 squares.", L1; "On the shorter side there is your Mothership", L6; 5 HP, L7; build
squares "the three squares near your own Mothership", L14), so every draw is legal by
construction and passes every validator, on the book's 3 x 5 and the catalogue's 5 x 7 variant
(two players only: the sweep is over board variants, ``bench/generate.py --system
mothership-grid --players 2 --tables 3x5 5x7 --sweep``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.mothership.checks import check_symmetry
from engine.mothership.generate import GenerateError, build, fresh, load_catalogue, make_plan, vary
from schema import ArenaError, dumps, loads
from app.cli.generate import default_players
from validators.generate import generate, hook_of
from validators.run import validate

SYSTEM = "mothership-grid"
HOOK = hook_of(SYSTEM)


@pytest.mark.parametrize("table", ["3x5", "5x7"])
@pytest.mark.parametrize("symmetry", ["mirror", "rotational:2"])
def test_every_draw_is_the_books_battlefield(table: str, symmetry: str) -> None:
    plan = make_plan(load_catalogue(None), symmetry=symmetry, table=table)
    rng = np.random.default_rng(4)
    g = fresh(plan, rng)
    for genome in (g, vary(plan, g, rng), vary(plan, vary(plan, g, rng), rng)):
        arena = build(plan, genome, seed=0)
        assert [f for f in validate(arena).findings if f.severity in ("error", "warning")] == []
        assert not check_symmetry(arena)
        short, long = (int(v) for v in table.split("x"))
        assert len(arena.squares) == short * long and all(m.hp == 5 for m in arena.motherships)


@pytest.mark.parametrize("table", ["3x5", "5x7"])
def test_generated_battlefields_pass_and_repeat_on_one_worker_or_two(table: str) -> None:
    plan = HOOK.plan(None, 2, None, None, table)
    one = generate(SYSTEM, plan, 5, budget=120, workers=1)
    two = generate(SYSTEM, plan, 5, budget=120, workers=2)
    assert one.passed and dumps(one.arena) == dumps(two.arena)
    arena = loads(dumps(one.arena))
    assert validate(arena).findings == [] and arena.scenario.size == tuple(int(v) for v in table.split("x"))
    assert [m.squares[0][1] for m in arena.motherships] == [-1, arena.scenario.size[1]]  # the book's picture wins


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"players": 4}, "for two"), ({"table": "4x6"}, "catalogue's boards are 3x5, 5x7"),
    ({"symmetry": "dihedral:2"}, "half turn"), ({"size": 24.0}, "--table SHORTxLONG"),
])
def test_parameters_it_cannot_honour_are_refused_in_words(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(GenerateError, match=words):
        make_plan(load_catalogue(None), **kwargs)  # type: ignore[arg-type]


def test_a_board_without_a_middle_is_refused_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "boards.yaml"
    bad.write_text("catalogue: mothership/1\nboards: [[3, 5], [4, 6]]\n", encoding="utf-8")
    with pytest.raises(ArenaError) as got:
        load_catalogue(bad)
    assert ":2:18: /boards/1: a 4 x 6 board: the short side must be odd" in str(got.value)


def test_without_players_the_generator_plans_the_books_two() -> None:
    """``arena generate --system mothership-grid`` without ``--players`` plans the book's two players
    (L6: "your Mothership" and "the enemy Mothership"); it used to ask for four and exit 2."""
    assert default_players(HOOK, None) == 2
    assert len(build(HOOK.plan(None, default_players(HOOK, None), None, None, None),
                     fresh(HOOK.plan(None, 2, None, None, None), np.random.default_rng(0)), seed=0).motherships) == 2
