"""Generated arenas, the pure part (issue 19 part 3): plans of orbits for every player count and
symmetry, exact symmetry of what a genome builds, the cheap checks, the catalogue's located
errors, and determinism of the draws for a seed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.gravstrike.generate import (GenerateError, build, load_catalogue, make_plan, mutate, place, precheck)
from schema import ArenaError, dumps, loads
from engine.gravstrike.invariance import invariances
from validators.games.gravstrike.layout import FieldOrbitValidator, SymmetryValidator

CAT = load_catalogue(None)
CASES = [(2, None), (3, None), (4, None), (5, None), (6, None), (4, "mirror"), (4, "dihedral:4"), (6, "rotational:6"),
         (2, "mirror"), (3, "dihedral:3")]


@pytest.mark.parametrize(("players", "symmetry"), CASES)
def test_declared_symmetry_holds_exactly(players: int, symmetry: str | None) -> None:
    """Every piece is copied by every operation of the group: the arena maps onto itself under
    each of them (to 0.001 lengths, after the file's rounding), and the symmetry validator finds
    nothing broken."""
    plan = make_plan(CAT, players=players, symmetry=symmetry)
    arena = loads(dumps(build(plan, place(plan, np.random.default_rng(11)), seed=11)))
    expected = plan.group - 1
    assert len(invariances(arena, tol=1e-3)) == expected
    assert SymmetryValidator().evaluate(arena, None).findings == []
    assert len(arena.start_positions) == players == arena.players


@pytest.mark.parametrize(("players", "symmetry"), [c for c in CASES if c not in ((6, "rotational:6"), (3, "dihedral:3"))])
def test_placed_genomes_pass_the_cheap_checks(players: int, symmetry: str | None) -> None:
    """The book: "Less good placements are those that lead turbines to all orbit the arena in the
    same direction" - a placed genome keeps its clearances and never makes every field turn one
    way (without a mirror, field orbits alternate their way around).  (Six of every piece on a
    28-length hexagon is crowded, and three players under dihedral:3 put starts, checkpoints and
    pillars on the same three axes: a draw may keep problems there, for the search to fix.)"""
    plan = make_plan(CAT, players=players, symmetry=symmetry)
    arena = build(plan, place(plan, np.random.default_rng(3)), seed=3)
    assert precheck(arena) == []
    assert FieldOrbitValidator().evaluate(arena, None).findings == []


def test_the_same_seed_draws_the_same_arena_and_variations_stay_symmetric() -> None:
    plan = make_plan(CAT, players=4)
    one = build(plan, place(plan, np.random.default_rng([7, 0, 1])), seed=7)
    two = build(plan, place(plan, np.random.default_rng([7, 0, 1])), seed=7)
    assert dumps(one) == dumps(two)
    genome = place(plan, np.random.default_rng(5))
    rng = np.random.default_rng(6)
    varied, changed = mutate(plan, genome, rng)
    assert 1 <= len(changed) <= 3 and all(varied[i] == genome[i] for i in range(len(genome)) if i not in changed)
    moved = build(plan, place(plan, rng, varied, changed), seed=5)
    assert len(invariances(moved, tol=1e-3)) == 3


def test_counts_are_rounded_to_whole_orbits() -> None:
    """Four outlying checkpoints under dihedral:3 become three on the mirror axes (the default
    arena's layout); one central checkpoint sits at the centre."""
    plan = make_plan(CAT, players=6, symmetry="dihedral:3")
    counts = plan.counts()
    assert counts["outlying"] == 3 and counts["central"] == 1 and counts["start"] == 6
    arena = build(plan, place(plan, np.random.default_rng(1)), seed=1)
    assert next(c for c in arena.checkpoints if c.kind == "central").shape.center == (0.0, 0.0)  # type: ignore[union-attr]


@pytest.mark.parametrize(("players", "symmetry", "words"), [
    (4, "rotational:3", "4 players cannot share rotational:3"),
    (7, None, "2 to 6 players"),
    (4, "spiral:4", "rotational:N, mirror or dihedral:N"),
    (4, "rotational:x", "give the order"),
    (3, "rotational:13", "1 to 12"),
])
def test_parameters_it_cannot_honour_are_refused_in_words(players: int, symmetry: str, words: str) -> None:
    with pytest.raises(GenerateError, match=words):
        make_plan(CAT, players=players, symmetry=symmetry)


def test_a_rectangle_without_the_symmetry_is_refused() -> None:
    with pytest.raises(GenerateError, match="does not have rotational:4"):
        make_plan(CAT, players=4, table="30x20")


@pytest.mark.parametrize(("text", "where"), [
    ("catalogue: gravstrike/1\nwalls:\n- {length: -2, count: 1}\n", ":3:12: /walls/0/length: -2 is less than"),
    ("catalogue: gravstrike/1\npilars: []\n", ":2:1: /pilars: unknown property 'pilars' (did you mean 'pillars'?)"),
    ("catalogue: gravstrike/2\n", ":1:12: /catalogue: "),
    ("catalogue: gravstrike/1\nwalls:\n- {length: 1, thickness: 2, count: 1}\n", ":3:26: /walls/0/thickness: a wall 2 thick"),
    ("catalogue: gravstrike/1\ncheckpoints: {outlying: 0, central: 0}\n", ":2:14: /checkpoints: no checkpoints"),
    ("catalogue: [unclosed\n", "bad.yaml:"),
])
def test_bad_catalogues_name_the_file_line_and_pointer(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ArenaError) as exc:
        load_catalogue(path)
    assert str(path) in str(exc.value) and where in str(exc.value)


def test_a_missing_catalogue_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match="missing.yaml: /: cannot read file"):
        load_catalogue(tmp_path / "missing.yaml")
