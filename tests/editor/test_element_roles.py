"""An element's role from its game's ruleset (issue 37: shared code asks the kind's placement,
not the element's class): :func:`editor.elements.kind_spec` and :func:`editor.elements.placement`
over every element of every shipped arena, of all five games."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from editor import elements as E
from schema import load
from schema.ruleset import ruleset

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "arenas").rglob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "arenas")))
def test_each_element_has_the_kind_of_the_list_it_is_in(path: Path) -> None:
    arena = load(path)
    rs = ruleset(arena.system)
    seen = 0
    for kind in rs.kinds:
        for el in getattr(arena, kind.key, ()):
            if kind.placement == "cell":  # a grid's cells are coordinates, not elements
                continue
            assert E.kind_spec(el, arena) == kind, (el, kind.key)
            assert E.kind_spec(el).key == kind.key  # by its class alone
            assert E.placement(el, arena) == E.placement(el) == kind.placement
            seen += 1
    assert seen == len(arena.elements())


def test_a_gravstrike_gate_is_a_segment_and_a_start_a_pose() -> None:
    arena = load(ROOT / "arenas/examples/gates-and-decay.yaml")
    got = {E.placement(el) for el in arena.elements()}
    assert {"segment", "pose", "shape"} <= got
    assert {E.kind_spec(el).key for el in arena.elements() if E.placement(el) == "segment"} == {"gates"}


def test_an_object_of_no_game_has_no_kind() -> None:
    with pytest.raises(KeyError):
        E.kind_spec(object())


def test_the_module_examples_run() -> None:
    result = doctest.testmod(E, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0
