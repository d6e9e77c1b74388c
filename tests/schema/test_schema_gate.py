"""Reading an arena file asks jsonschema-rs first (:func:`schema.io._fast_validator`) and
python-jsonschema only for a document the gate does not find valid: the two must agree on which
documents are valid - on every shipped arena of every game and on documents broken at one place
(wrong types, out-of-range numbers, missing and unknown keys, bad enums) - or the gate would hide
a problem; and a problem keeps jsonschema's words and its line and column."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from schema import io
from schema.errors import ArenaError
from schema.migrate import migrate
from tests.editor.test_schema_gate import broken_documents

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "arenas").rglob("*.yaml"))


def documents() -> list[dict[str, Any]]:
    return [migrate(yaml.safe_load(p.read_text(encoding="utf-8"))) for p in FILES]


def slow_valid(doc: Any) -> bool:
    return not any(True for _ in io._validator().iter_errors(doc))


def test_the_gate_finds_every_shipped_arena_valid() -> None:
    assert io._fast_validator() is not None
    docs = documents()
    assert len(docs) >= 10
    for doc in docs:
        assert io._schema_valid(doc) and slow_valid(doc)


@pytest.mark.parametrize("seed", range(3))
def test_the_gate_and_jsonschema_agree_on_broken_documents(seed: int) -> None:
    """150 documents a seed, of every game, each broken at one place, valid and invalid ones."""
    verdicts = {True: 0, False: 0}
    for path, bad in broken_documents(random.Random(seed), documents()):
        if sum(verdicts.values()) >= 150:
            break
        want = slow_valid(bad)
        assert io._schema_valid(bad) == want, (path, bad)
        verdicts[want] += 1
    assert verdicts[True] >= 5 and verdicts[False] >= 80, verdicts


def test_a_problem_keeps_its_words_and_place() -> None:
    text = (ROOT / "arenas" / "default.yaml").read_text(encoding="utf-8")
    bad = text.replace("license: CC-BY-4.0", "license: 7", 1)
    assert bad != text
    with pytest.raises(ArenaError) as exc:
        io.loads(bad, source="default.yaml", fmt="yaml")
    (p,) = exc.value.problems
    assert p.pointer == "/license" and "7 is not of type 'string'" in p.message and p.line == 8


def test_values_the_gate_does_not_take_go_to_jsonschema() -> None:
    """YAML reads an unquoted date as a date, which no JSON validator takes: the gate says it
    can't tell and jsonschema decides (here: not a string)."""
    import datetime

    doc = documents()[0]
    doc["license"] = datetime.date(2026, 11, 24)
    assert not io._schema_valid(doc)
    assert not slow_valid(doc)
