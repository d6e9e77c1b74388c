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


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "arenas")))
def test_the_shared_operations_ask_the_games_element_model(path: Path) -> None:
    """editor.elements names no game: kinds, titles and ids come from the arena's game's
    ElementModel (Gravstrike's: its file order, plural titles and book ids; any other: the
    generic model's drawing order and the ruleset's titles)."""
    from editor.game import editor_game

    arena = load(path)
    em = editor_game(arena.system).elements()
    assert E.model(arena) is em
    assert E.kinds(arena) == em.kinds(arena)
    assert [E.kind_label(k, arena) for k in E.kinds(arena)] == [em.kind_label(k, arena) for k in em.kinds(arena)]
    for el in arena.elements():
        assert E.bounds_of(el) == em.bounds_of(el)


def test_gravstrike_keeps_its_own_order_titles_and_footprints() -> None:
    from editor.games.gravstrike.elements import GravstrikeElements
    from editor.games.model import GENERIC

    arena = load(ROOT / "arenas/default.yaml")
    assert isinstance(E.model(arena), GravstrikeElements)
    assert E.kinds(arena)[:3] == ("walls", "checkpoints", "gates")  # file order, not drawing order
    assert E.kind_label("walls", arena) == "Walls"
    start = arena.start_positions[0]
    x, y = start.position
    assert E.bounds_of(start) == (x - 0.6, y - 0.6, x + 0.6, y + 0.6)  # its base, not the generic 1
    cw = load(ROOT / "arenas/car-wars/crossroads-4p.yaml")
    assert E.model(cw) is GENERIC and E.kind_label("walls", cw) == "Wall"


def test_a_games_override_is_what_the_editor_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game changes a rule by overriding its ElementModel (here: Car Wars' walls named B1..)."""
    from editor.game import editor_game
    from editor.games.model import ElementModel

    class Bricks(ElementModel):
        def next_id(self, arena, kind, variant=None, taken=()):  # type: ignore[no-untyped-def]
            return "B1" if kind == "walls" else super().next_id(arena, kind, variant, taken)

    arena = load(ROOT / "arenas/car-wars/crossroads-4p.yaml")
    game = editor_game(arena.system)
    assert E.next_id(arena, "walls") != "B1"
    monkeypatch.setattr(type(game), "elements", lambda self: Bricks())
    assert E.next_id(arena, "walls") == "B1"
    assert E.next_id(arena, "obstacles") == ElementModel().next_id(arena, "obstacles")
