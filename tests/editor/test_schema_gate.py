"""The editor's schema check after an edit (:func:`editor.games.model.problems`) asks jsonschema-rs
first and python-jsonschema for the messages: the two must agree on which documents are valid,
for every game's schema - on the shipped arenas and the default ones, and on documents broken
in every way an edit or a hand-edited file can break them (wrong types, out-of-range numbers,
missing and unknown keys, bad enums), or the gate would hide a problem."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

from editor.games import model as G
from schema import ruleset as R
from schema.io import load
from tests.test_fuzz import nodes

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(i for i in R.rulesets() if i != "gravstrike")
ODD: list[Any] = [None, True, -1, 0, 3, 4, 7, -0.5, 2.5, 1e9, "", "x", "heavy", "checkpoint", [], [1, 2], {}, {"x": 1},
                  [0.0, 0.0], [[0, 0], [1, 0], [1, 1]], "start:9"]


def shipped(game: str) -> list[dict[str, Any]]:
    rs = R.ruleset(game)
    docs = [rs.document(rs.default_arena())]
    for path in sorted((ROOT / "arenas").rglob("*.yaml")):
        arena = load(path)
        if getattr(arena, "system", "gravstrike") == game:
            docs.append(rs.document(arena))
    return [json.loads(json.dumps(d)) for d in docs]


def slow_valid(game: str, doc: Any) -> bool:
    return not any(True for _ in G.validator(R.ruleset(game).schema).iter_errors(doc))


def places(doc: Any) -> list[tuple[Any, ...]]:
    """Every path into ``doc`` (keys and indices)."""
    return [path for path, _ in nodes(doc)]


def broken(doc: dict[str, Any], path: tuple[Any, ...], how: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    if not path:
        out["unknown_key"] = value
        return out
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    if how == "delete":
        del parent[path[-1]]
    elif how == "extra" and isinstance(parent[path[-1]], dict):
        parent[path[-1]]["unknown_key"] = value
    else:
        parent[path[-1]] = value
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_gate_and_jsonschema_agree_on_the_shipped_arenas(game: str) -> None:
    fast = G.fast_validator(R.ruleset(game).schema)
    assert fast is not None
    docs = shipped(game)
    assert docs
    for doc in docs:
        assert fast.is_valid(doc) and slow_valid(game, doc)
        assert G.problems(R.ruleset(game), doc) == []


def broken_documents(rng: random.Random, docs: list[dict[str, Any]]) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Endless (where, document) pairs: one of ``docs`` broken at one place (seeded by ``rng``)."""
    while True:
        doc = rng.choice(docs)
        path = rng.choice(places(doc))
        try:
            yield path, broken(doc, path, rng.choice(["set", "set", "delete", "extra"]), rng.choice(ODD))
        except (TypeError, IndexError, KeyError):
            continue


@pytest.mark.parametrize("game", GAMES)
def test_the_gate_and_jsonschema_agree_on_broken_documents(game: str) -> None:
    """300 documents per game, each broken at one place (seeded), valid and invalid ones both."""
    fast = G.fast_validator(R.ruleset(game).schema)
    verdicts = {True: 0, False: 0}
    for path, bad in broken_documents(random.Random(game), shipped(game)):
        if sum(verdicts.values()) >= 300:
            break
        want = slow_valid(game, bad)
        assert fast.is_valid(bad) == want, (path, bad)
        assert (G.problems(R.ruleset(game), bad) == []) == want
        verdicts[want] += 1
    assert verdicts[True] >= 20 and verdicts[False] >= 150, verdicts


def test_a_problem_keeps_jsonschemas_words() -> None:
    doc = next(d for d in shipped("car-wars-6e") if d.get("cards"))
    doc["cards"][0]["number"] = 7
    assert G.problems(R.ruleset("car-wars-6e"), doc) == ["/cards/0/number: 7 is greater than the maximum of 3"]
