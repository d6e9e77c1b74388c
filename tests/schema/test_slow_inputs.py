"""Issue 36, item 13: a valid 1 MB YAML file holding one ``x-`` list of 199 000 numbers took 95 s
in ``arena check`` (PyYAML's pure Python scanner and parser, then a schema problem per item).

YAML is now scanned and parsed by libyaml (the C half of ``yaml.CSafeLoader``) under the same
composer, constructor and checks as before; tool extensions hold at most MAX_EXTENSION_VALUES
values, refused while reading; a file lists at most MAX_PROBLEMS schema problems.  The tests
count work (values composed, scanner calls, problems), never seconds.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from schema import ArenaError, from_document, loads
from schema import positions
from schema.io import MAX_PROBLEMS, validate_located
from schema.positions import MAX_EXTENSION_VALUES, ParseError, parse_yaml, yaml_loader
from tests.schema.test_malformed import CASES

ROOT = Path(__file__).resolve().parents[2]
HEAD_YAML = "format: arena-studio/1\nsystem: gravstrike\nname: T\n"
HEAD_JSON = '{"format": "arena-studio/1", "system": "gravstrike", "name": "T", '
HEAD: dict[str, Any] = json.loads(HEAD_JSON[:-2] + "}")


def issue_file(key: str = "x-data", n: int = 199_000) -> str:
    """The issue's file: a valid arena with one list of ``n`` numbers (1 MB for 199 000)."""
    rng = random.Random(36)
    return HEAD_YAML + f"{key}: [" + ", ".join(f"{rng.uniform(-100, 100):.3f}" for _ in range(n)) + "]\n"


def outcome(text: str, pure: bool) -> Any:
    """The document and its positions, or the problems reading it gives (as ``loads`` would:
    parsing, then the format's own checks)."""
    try:
        located = parse_yaml(text, "in.yaml", pure=pure)
        validate_located(located, "in.yaml")
    except ParseError as exc:
        return [(p.line, p.column, p.pointer, p.message) for p in exc.problems]
    except ArenaError as exc:
        if not any(p.message.startswith("the text holds a lone surrogate") for p in exc.problems):
            return located.data, located.positions  # the schema's verdict is not the reader's
        return [(p.line, p.column, p.pointer, p.message) for p in exc.problems]
    return located.data, located.positions


#: YAML texts of the existing hostile and malformed fixtures (tests/schema) and the shipped arenas.
FIXTURES: list[str] = [text for _, text, fmt, *_ in CASES if fmt == "yaml"] + [
    HEAD_YAML + "x-a: " + "[" * 65 + "]" * 65 + "\n",
    HEAD_YAML + "x-a: " + "[" * 50_000 + "]" * 50_000 + "\n",
    HEAD_YAML + "? " * 3000 + "a\n",
    HEAD_YAML + "x-a: " + "9" * 5000 + "\n",
    HEAD_YAML + "x-a: 1" + ":0" * 40_000 + "\n",
    HEAD_YAML + "tags: [" + "0," * 1000 + "0]\n",  # (the 300 000-item list: too slow for the pure parser)
    HEAD_YAML + "x-b: &b 1\nx-a: [" + "*b, " * 1005 + "1]\n",
    HEAD_YAML + "<<: {a: 1}\n",
    HEAD_YAML + "description: \"bad \\ud800 text\"\n",
    HEAD_YAML + "x-a: [" + "1, " * MAX_EXTENSION_VALUES + "1]\n",
    HEAD_YAML + "name: \x01\n",
    *(p.read_text(encoding="utf-8") for p in sorted((ROOT / "arenas").rglob("*.yaml"))),
]


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml reads with the pure parser")
def test_yaml_is_parsed_by_libyaml() -> None:
    from yaml.cyaml import CParser

    assert issubclass(yaml_loader(), CParser) and not issubclass(yaml_loader(pure=True), CParser)


@pytest.mark.parametrize("index", range(len(FIXTURES)))
def test_the_c_parser_gives_the_pure_loaders_results(index: int) -> None:
    """The same data, positions and problems on every fixture; where libyaml and PyYAML word a
    syntax error differently, the same place and the same kind of problem."""
    text = FIXTURES[index]
    fast, pure = outcome(text, False), outcome(text, True)
    if fast == pure:
        return
    assert isinstance(fast, list) and isinstance(pure, list) and len(fast) == len(pure), (fast, pure)
    for a, b in zip(fast, pure):
        if "nesting deeper than 64 levels" in a[3]:  # libyaml's lookahead meets its own limit first
            assert "nesting deeper than 64 levels" in b[3] and a[0] == b[0]
        elif "lone surrogate" in b[3]:  # libyaml refuses the escape itself, in the same value
            assert a[3] == "invalid YAML: found invalid Unicode character escape code" and (a[0], a[2]) == (b[0], b[2])
        else:
            assert a[3].startswith("invalid YAML: ") and b[3].startswith("invalid YAML: ") and a[:3] == b[:3], (a, b)


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml reads with the pure parser")
def test_the_issue_file_is_read_without_the_python_scanner_and_refused_at_the_extension_cap(
        monkeypatch: pytest.MonkeyPatch) -> None:
    composed = 0
    original = positions._LimitedComposer.compose_node

    def counting(self: Any, parent: Any, index: Any) -> Any:
        nonlocal composed
        composed += 1
        return original(self, parent, index)

    def no_python_scanner(self: Any) -> None:
        raise AssertionError("the pure Python scanner ran")

    monkeypatch.setattr(positions._LimitedComposer, "compose_node", counting)
    monkeypatch.setattr(yaml.scanner.Scanner, "fetch_more_tokens", no_python_scanner)
    text = issue_file()
    assert len(text) > 1_000_000
    with pytest.raises(ArenaError) as info:
        loads(text, source="big.yaml")
    (p,) = info.value.problems
    assert p.pointer == f"/x-data/{MAX_EXTENSION_VALUES - 1}" and p.line == 4 and "tool extensions" in p.message
    assert composed <= MAX_EXTENSION_VALUES + 10  # it stopped at the cap, not after 199 000 values


def test_extensions_are_capped_in_yaml_json_and_documents() -> None:
    items = ", ".join(["1"] * (MAX_EXTENSION_VALUES - 1))  # the list itself is a value too
    loads(HEAD_YAML + f"x-a: [{items}]\n")
    loads(HEAD_JSON + f'"x-a": [{items}]}}', fmt="json")
    from_document({**HEAD, "x-a": [1] * (MAX_EXTENSION_VALUES - 1)})
    # spread over several extensions and levels, they count together
    split = ", ".join(["1"] * (MAX_EXTENSION_VALUES // 2))
    for text, fmt in ((HEAD_YAML + f"x-a: [{split}]\nx-b: {{c: [{split}]}}\n", "yaml"),
                      (HEAD_JSON + f'"x-a": [{split}], "x-b": {{"c": [{split}]}}}}', "json")):
        with pytest.raises(ArenaError) as info:
            loads(text, fmt=fmt)  # type: ignore[arg-type]
        (p,) = info.value.problems
        assert p.pointer.startswith("/x-b/c/") and p.line > 0 and "more than 10000 values" in p.message
    with pytest.raises(ArenaError) as info:
        from_document({**HEAD,
                       "walls": [{"id": "W1", "shape": {"type": "circle", "center": [0, 0], "radius": 1},
                                  "x-tool": {"points": [[0, 0]] * 5000}}]})
    (p,) = info.value.problems
    assert p.pointer == "/walls/0/x-tool" and "tool extensions" in p.message


def test_a_long_list_of_wrong_items_lists_at_most_max_problems() -> None:
    with pytest.raises(ArenaError) as info:
        loads(issue_file("tags", 20_000))
    problems = info.value.problems
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[0].pointer == "" and f"more than {MAX_PROBLEMS} problems" in problems[0].message
