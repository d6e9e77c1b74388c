"""Generated Arena Rex boards, the pure part (issue 19 part 3): plans that follow the book's arena
section (Arena Rex playtest v0.2, p. 16: "We suggest a board at least 24 x 24 for Arena Rex.
Our games typically take place on a 30 diameter circle." / "Your board should have at least two
pits and a good mix of spikes and hazards." / "both players roll a D6"), exact symmetry of what a
genome builds (hazards included), the cheap checks, the catalogue's located errors, and
determinism of the draws for a seed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.arenarex.checks import SETUP_CHECKS, SYMMETRY_TOLERANCE, transforms
from engine.arenarex.generate import GenerateError, build, load_catalogue, make_plan, mutate, place, precheck
from schema import ArenaError, dumps, loads
from schema.shapes import Circle, Rect

CAT = load_catalogue(None)
CASES = [(t, s) for t in ("circle", "square") for s in ("rotational:2", "mirror", "dihedral:2")] + [("36x28", None)]


def _arena(table: str, symmetry: str | None, seed: int):  # noqa: ANN202
    plan = make_plan(CAT, players=2, symmetry=symmetry, table=table)
    return plan, loads(dumps(build(plan, place(plan, np.random.default_rng(seed)), seed=seed)))


@pytest.mark.parametrize(("table", "symmetry"), CASES)
def test_declared_symmetry_holds_for_every_piece(table: str, symmetry: str | None) -> None:
    """Every piece is copied by every operation of the group: under each of them every pit,
    spikes, terrain hazard and deployment zone lands on one of its kind (after the file's
    rounding), so ``ar-symmetry`` finds nothing and the hazards (which it does not check) hold
    the symmetry too."""
    plan, arena = _arena(table, symmetry, 11)
    assert arena.symmetry is not None and arena.symmetry.kind == plan.kind
    assert SETUP_CHECKS["ar-symmetry"](arena) == []
    ops = transforms(arena.symmetry.kind, arena.symmetry.order, arena.symmetry.axis, arena.symmetry.center)
    assert len(ops) == plan.group - 1
    for items in (arena.pits, arena.spikes, arena.hazards):
        shapes = [(getattr(h, "kind", ""), h.shape.to_shapely()) for h in items]
        for _, fn in ops:
            for kind, g in shapes:
                assert any(k == kind and fn(g).hausdorff_distance(o) <= SYMMETRY_TOLERANCE for k, o in shapes)


@pytest.mark.parametrize(("table", "symmetry"), CASES)
def test_placed_boards_pass_the_cheap_checks_and_the_setup_checks(table: str, symmetry: str | None) -> None:
    """A placed genome keeps its clearances (a 50 mm base passes between any two pieces that stop
    it; pits and spikes clear of the zones), so ``ar-board-size``, ``ar-pits``, ``ar-hazard-mix``
    and ``ar-deployment`` ("Find the center of your board edge, your cohort may be deployed up to
    6 inches away from the center in either direction.") pass."""
    for seed in (1, 2, 3):
        _, arena = _arena(table, symmetry, seed)
        assert precheck(arena) == [], (seed, precheck(arena))
        for code, check in SETUP_CHECKS.items():
            assert check(arena) == [], (code, seed)


def test_the_books_boards_and_edges() -> None:
    """"Our games typically take place on a 30 diameter circle" is the default board, with the
    players on the south and north arcs; ``square`` is the book's least board, 24 x 24, with the
    players on the bottom and top sides."""
    circle = make_plan(CAT, players=2)
    assert isinstance(circle.bounds, Circle) and circle.bounds.radius == 15.0 and circle.symmetry == "rotational:2"
    square = make_plan(CAT, players=2, table="square")
    assert isinstance(square.bounds, Rect) and square.bounds.size == (24.0, 24.0)
    arena = build(square, place(square, np.random.default_rng(0)), seed=0)
    assert [(d.player, d.side) for d in arena.deployment] == [(1, 0), (2, 2)]
    arena = build(circle, place(circle, np.random.default_rng(0)), seed=0)
    assert [(d.player, d.arc) for d in arena.deployment] == [(1, (225.0, 315.0)), (2, (45.0, 135.0))]


def test_counts_are_rounded_to_whole_orbits() -> None:
    """Two pits under dihedral:2 sit on a mirror axis (an orbit of two); the one heap of rubble
    sits at the centre; four columns are two orbits of a half turn or one of dihedral:2."""
    assert make_plan(CAT, players=2).counts() == {"pit": 2, "spikes": 2, "column": 4, "wall": 2, "rubble": 1}
    plan = make_plan(CAT, players=2, symmetry="dihedral:2")
    assert [s.where for s in plan.slots if s.role in ("pit", "rubble")] == ["axis", "centre"]
    assert plan.counts() == {"pit": 2, "spikes": 2, "column": 4, "wall": 2, "rubble": 1}


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"players": 4}, "Arena Rex is a game for two (\"both players roll a D6"),
    ({"players": 2, "symmetry": "rotational:4"}, "does not turn one player's edge onto the other's"),
    ({"players": 2, "table": "square", "size": 20}, "smaller than the book suggests: \"We suggest a board at least 24"),
    ({"players": 2, "table": "30x20"}, "a board 20 in across is smaller than the book suggests"),
    ({"players": 2, "table": "hexagon"}, "use circle (the book's usual board), square or WIDTHxHEIGHT"),
])
def test_parameters_it_cannot_honour_are_refused_in_words(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(GenerateError) as exc:
        make_plan(CAT, **kwargs)  # type: ignore[arg-type]
    assert words in str(exc.value)


def test_draws_are_deterministic_for_a_seed() -> None:
    plan = make_plan(CAT, players=2, table="square", symmetry="mirror")
    a = place(plan, np.random.default_rng([5, 0, 1]))
    assert a == place(plan, np.random.default_rng([5, 0, 1]))
    va, changed = mutate(plan, a, np.random.default_rng(9))
    assert (va, changed) == mutate(plan, a, np.random.default_rng(9)) and changed
    assert dumps(build(plan, a, seed=5)) == dumps(build(plan, a, seed=5))


@pytest.mark.parametrize(("text", "where"), [
    ("catalogue: arena-rex/1\npits:\n- {radius: 2, count: two}\n", "3:22: /pits/0/count: 'two' is not of type 'integer'"),
    ("catalogue: arena-rex/1\npits:\n- {radius: 2, count: 1}\nspikes:\n- {length: 3, count: 2}\ncolumns:\n"
     "- {radius: 1, count: 2}\n", "3:1: /pits: fewer than two pits: \"Your board should have at least two pits"),
    ("catalogue: arena-rex/1\npits:\n- {radius: 2, count: 2}\nspikes:\n- {length: 1, width: 3, count: 2}\n"
     "rubble:\n- {radius: 1, count: 1}\n", "/spikes/0/width: a strip 3 in wide and 1 in long"),
])
def test_a_bad_catalogue_names_its_line_and_pointer(tmp_path: Path, text: str, where: str) -> None:
    cat = tmp_path / "pieces.yaml"
    cat.write_text(text, encoding="utf-8")
    with pytest.raises(ArenaError) as exc:
        load_catalogue(cat)
    assert f"{cat}:" in str(exc.value) and where in str(exc.value), str(exc.value)
