"""Hostile and careless inputs to the format layer (issue 16): each case is the failing input the
issue reports, and each must end in located problems (line:column or a JSON pointer) — never a
traceback, never an input that passes ``check`` and then breaks ``save`` or a later step."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from schema import ArenaError, dumps, load, loads, save
from schema.checks import MAX_NUMBER, MIN_GATE_LENGTH
from schema.io import arena_schema
from schema.positions import MAX_ALIASES, MAX_DEPTH, MAX_VALUES

HEAD_YAML = "format: arena-studio/1\nsystem: gravstrike\nname: T\n"
HEAD_JSON = '{"format": "arena-studio/1", "system": "gravstrike", "name": "T", '


def problems_of(text: str, fmt: str = "yaml", source: str = "in") -> list:  # type: ignore[type-arg]
    with pytest.raises(ArenaError) as info:
        loads(text, source=source, fmt=fmt)  # type: ignore[arg-type]
    problems = info.value.problems
    for p in problems:  # every problem is located: a line or a pointer, and names the file
        assert p.file == source and (p.line > 0 or p.pointer), str(p)
        assert len(p.message) < 400, p.message
    return problems


# -- item 2: a lone surrogate passed check, then broke validate, save() and the service


@pytest.mark.parametrize("where", ["name", "description", "x-note"])
def test_lone_surrogate_is_refused_with_its_pointer(where: str) -> None:
    text = HEAD_JSON.replace('"name": "T", ', "") + ("" if where == "name" else '"name": "ok", ') \
        + f'"{where}": "bad \\ud800 text"}}'
    (p,) = [p for p in problems_of(text, "json") if "surrogate" in p.message]
    assert p.pointer == f"/{where}" and p.line == 1 and "\\ud800" in p.message


def test_lone_surrogate_in_a_key_and_in_yaml() -> None:
    (p,) = problems_of(HEAD_JSON + '"x-\\udc00": 1}', "json")
    assert "surrogate" in p.message and p.line == 1
    (p,) = problems_of(HEAD_YAML + 'description: "a \\ud83d b"\n')
    assert p.pointer == "/description" and p.line == 4


def test_a_valid_surrogate_pair_is_a_character() -> None:
    arena = loads(HEAD_JSON.replace('"name": "T", ', "") + '"name": "rocket \\ud83d\\ude80"}', fmt="json")
    assert arena.name == "rocket \U0001f680"
    assert loads(dumps(arena, "yaml")).name == arena.name


# -- item 6: JSON nesting deeper than 64 was accepted; save() to YAML then failed


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_json_nesting_is_limited_like_yaml() -> None:
    # "x-a" is depth 1, so the innermost of N brackets sits at depth N
    (p,) = problems_of(HEAD_JSON + f'"x-a": {nested(MAX_DEPTH + 1)}}}', "json")
    assert "nesting deeper than 64" in p.message and p.pointer.startswith("/x-a/0/0") and p.column > 1
    (p,) = problems_of(HEAD_YAML + f"x-a: {nested(MAX_DEPTH + 1)}\n")
    assert "nesting deeper than 64" in p.message and p.line == 4
    # far deeper than Python's recursion limit: still located, no RecursionError
    for fmt, text in (("json", HEAD_JSON + f'"x-a": {nested(50_000)}}}'), ("yaml", HEAD_YAML + f"x-a: {nested(50_000)}\n")):
        (p,) = problems_of(text, fmt)
        assert "nesting deeper" in p.message


def test_deepest_accepted_document_saves_and_reloads(tmp_path: Path) -> None:
    arena = loads(HEAD_JSON + f'"x-a": {nested(MAX_DEPTH)}}}', fmt="json")
    for name in ("deep.yaml", "deep.json"):
        save(arena, tmp_path / name)
        assert load(tmp_path / name) == arena


def test_yaml_keys_nesting_without_a_path_is_limited() -> None:
    (p,) = problems_of(HEAD_YAML + "? " * 3000 + "a\n")
    assert "nesting deeper" in p.message


# -- item 15: problems without a place; a plain list called an alias bomb; MAX_ALIASES unused


def test_nan_and_infinity_in_json_are_located() -> None:
    for token in ("NaN", "Infinity", "-Infinity"):
        (p,) = problems_of(HEAD_JSON + '"units": {"length_mm": ' + token + "}}", "json")
        assert p.pointer == "/units/length_mm" and p.line == 1 and token in p.message


def test_integers_over_4300_digits_are_located() -> None:
    (p,) = problems_of(HEAD_JSON + '"x-a": ' + "9" * 5000 + "}", "json")
    assert p.pointer == "/x-a" and "5000 characters" in p.message
    (p,) = problems_of(HEAD_YAML + "x-a: " + "9" * 5000 + "\n")
    assert p.line == 4 and p.pointer == "/x-a" and "5000 characters" in p.message
    # a sexagesimal YAML integer grows with the square of its length: refused before converting
    (p,) = problems_of(HEAD_YAML + "x-a: 1" + ":0" * 40_000 + "\n")
    assert p.line == 4 and "characters" in p.message


def test_out_of_range_big_integer_message_is_short() -> None:
    (p,) = problems_of(HEAD_YAML + "units: {length_mm: " + "9" * 300 + "}\n")
    assert p.pointer == "/units/length_mm" and len(p.message) < 200


def test_a_plain_long_list_is_not_called_an_alias_bomb() -> None:
    # (a list under a tool extension meets the extensions' own, smaller cap first: issue 36)
    for fmt, text in (("yaml", HEAD_YAML + "tags: [" + "0," * 300_000 + "0]\n"),
                      ("json", HEAD_JSON + '"tags": [' + "0," * 300_000 + "0]}")):
        (p,) = problems_of(text, fmt)
        assert f"more than {MAX_VALUES} values" in p.message and "alias" not in p.message
        assert p.pointer.startswith("/tags/")


def test_max_aliases_is_enforced() -> None:
    text = HEAD_YAML + "x-b: &b 1\nx-a: [" + "*b, " * (MAX_ALIASES + 5) + "1]\n"
    (p,) = problems_of(text)
    assert f"more than {MAX_ALIASES} YAML aliases" in p.message and p.pointer == f"/x-a/{MAX_ALIASES}"


def test_alias_bombs_are_still_called_so() -> None:
    text = ("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
            "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n")
    (p,) = problems_of(text)
    assert "alias bomb" in p.message


def test_schema_messages_do_not_quote_huge_values() -> None:
    points = json.dumps([[math.cos(i / 2000), math.sin(i / 2000)] for i in range(12_000)])
    problems = problems_of(HEAD_YAML + f"walls:\n  - id: W1\n    shape: {{type: polygon, points: {points}}}\n")
    assert any("12000 items; at most 10000" in p.message for p in problems)
    (p,) = problems_of(HEAD_YAML.replace("name: T", "name: '" + "n" * 5000 + "'"))
    assert p.pointer == "/name" and "5000 characters; at most 200" in p.message


# -- item 8: the self-crossing check was O(n^2) and ran after the schema had failed


def ring(n: int, swap: int | None = None) -> list[list[float]]:
    pts = [[10 * math.cos(2 * math.pi * i / n), 10 * math.sin(2 * math.pi * i / n)] for i in range(n)]
    if swap is not None:
        pts[swap], pts[swap + 2] = pts[swap + 2], pts[swap]
    return pts


def test_ten_thousand_point_polygon_crossing_near_its_end_is_named() -> None:
    pts = ring(10_000, swap=9_994)
    (p,) = problems_of(HEAD_JSON + '"walls": [{"id": "W1", "shape": {"type": "polygon", "points": '
                       + json.dumps(pts) + "}}]}", "json")
    assert p.pointer == "/walls/0/shape/points" and "edges cross" in p.message
    assert "edge 9993-9994" in p.message or "edge 9994-9995" in p.message


def test_crossing_of_adjacent_edges_folding_back_is_named() -> None:
    (p,) = problems_of(HEAD_YAML + "walls:\n  - {id: W1, shape: {type: polygon, points: [[0, 0], [4, 0], [2, 0], [2, 3]]}}\n")
    assert "edges cross" in p.message and "meets edge" in p.message


def test_a_shape_over_the_point_limit_is_not_analysed() -> None:
    pts = ring(30_000, swap=100)  # crossing, but over the schema's limit: only the limit is reported
    problems = problems_of(HEAD_JSON + '"walls": [{"id": "W1", "shape": {"type": "polygon", "points": '
                           + json.dumps(pts) + "}}]}", "json")
    assert [p.message for p in problems] == ["30000 items; at most 10000 are allowed"]


# -- item 9: inputs the analysis cannot make cheap are capped, with a located message


@pytest.mark.parametrize("key,cap,item", [
    ("acceleration_fields", 32, '{{"id": "F{i}", "shape": {{"type": "circle", "center": [{x}, 0], "radius": 0.2}}, "direction": 0}}'),
    ("exclusion_fields", 32, '{{"id": "X{i}", "shape": {{"type": "circle", "center": [{x}, 0], "radius": 0.2}}}}'),
    ("static_targets", 32, '{{"id": "T{i}", "position": [{x}, 0]}}'),
    ("checkpoints", 26, '{{"id": "C{i}", "kind": "outlying", "shape": {{"type": "circle", "center": [{x}, 0], "radius": 0.2}}}}'),
    ("gates", 26, '{{"id": "G{i}", "kind": "outlying", "from": [{x}, 0], "to": [{x}, 1]}}'),
    ("walls", 1000, '{{"id": "W{i}", "shape": {{"type": "circle", "center": [{x}, 5], "radius": 0.01}}}}'),
])
def test_element_counts_are_capped(key: str, cap: int, item: str) -> None:
    def doc(n: int) -> str:
        items = ", ".join(item.format(i=i, x=round(-11 + 22 * i / n, 4)) for i in range(n))
        return HEAD_JSON + f'"{key}": [{items}]}}'

    loads(doc(cap), fmt="json")
    (p,) = problems_of(doc(cap + 1), "json")
    assert p.pointer == f"/{key}" and p.message == f"{cap + 1} items; at most {cap} are allowed"
    assert arena_schema()["properties"][key]["maxItems"] == cap
    assert f"At most {cap}." in arena_schema()["properties"][key]["description"]


def test_a_gate_of_length_1e_minus_9_is_refused() -> None:
    (p,) = problems_of(HEAD_YAML + "gates:\n  - {id: G1, kind: outlying, from: [0, 0], to: [0.000000001, 0]}\n")
    assert p.pointer == "/gates/0/to" and p.line == 5 and f"at least {MIN_GATE_LENGTH:g} lengths" in p.message
    loads(HEAD_YAML + f"gates:\n  - {{id: G1, kind: outlying, from: [0, 0], to: [0, {MIN_GATE_LENGTH}]}}\n")


def test_bounds_size_and_printed_size_are_capped() -> None:
    (p,) = problems_of(HEAD_YAML + "bounds: {type: rect, center: [0, 0], size: [100.5, 10]}\n")
    assert p.pointer == "/bounds/size/0" and "maximum of 100" in p.message
    loads(HEAD_YAML + "bounds: {type: rect, center: [0, 0], size: [100, 100]}\n")
    # 100 lengths at 1 m a length would be a 100 m print: thousands of pages
    (p,) = problems_of(HEAD_YAML + "bounds: {type: rect, center: [0, 0], size: [100, 100]}\nunits: {length_mm: 1000}\n")
    assert p.pointer == "/units/length_mm" and "at most 4 m across" in p.message and "40 mm" in p.message
    loads(HEAD_YAML + "bounds: {type: rect, center: [0, 0], size: [100, 100]}\nunits: {length_mm: 40}\n")


def test_every_number_states_the_arena_range() -> None:
    """The schema says what the format accepts: each number it describes carries ±MAX_NUMBER or
    a tighter bound, so a schema-valid document never fails the range rule."""
    unbounded = []

    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            types = node.get("type")
            types = types if isinstance(types, list) else [types]
            if "number" in types or "integer" in types:
                low = node.get("minimum", node.get("exclusiveMinimum"))
                high = node.get("maximum", node.get("exclusiveMaximum"))
                if low is None or high is None or low < -MAX_NUMBER or high > MAX_NUMBER:
                    if "const" not in node:
                        unbounded.append(where)
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")

    walk(arena_schema(), "#")
    assert not unbounded, unbounded


def test_extension_data_keeps_large_finite_numbers() -> None:
    """Tool extensions are not analysed: large numbers pass (JSON can hold them), non-finite
    ones do not (JSON cannot write them back)."""
    arena = loads(HEAD_JSON + '"x-big": 1e300, "x-int": 123456789012345678901234567890}', fmt="json")
    assert loads(dumps(arena, "json"), fmt="json") == arena
    (p,) = problems_of(HEAD_YAML + "x-inf: .inf\n")
    assert p.pointer == "/x-inf" and "not a finite number" in p.message


def test_yaml_line_break_characters_survive_a_save(tmp_path: Path) -> None:
    """Found by the fuzz test: a description holding NEL (U+0085) saved to YAML came back with a
    space (the emitter folded it). Strings with YAML's other line breaks are written quoted."""
    for text in ("the\x85ree", "a\u2028b\nc", "x\r\ny", "p\u2029", "line\nnext\x85"):
        arena = loads(HEAD_JSON + '"description": ' + json.dumps(text) + "}", fmt="json")
        save(arena, tmp_path / "a.yaml")
        assert load(tmp_path / "a.yaml").description == text


def test_the_manual_lists_the_limits_the_code_enforces() -> None:
    """The manual's safety section (docs/format.md, "Safety and limits") is the users' list of
    limits: it must say what the schema and the readers enforce."""
    from schema import checks, positions
    from schema.io import MAX_FILE_BYTES, MAX_PROBLEMS

    page = (Path(__file__).resolve().parents[2] / "docs" / "format.md").read_text(encoding="utf-8")
    section = page.split("\n## Safety and limits\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    props = arena_schema()["properties"]
    rows = {
        "file size": f"{MAX_FILE_BYTES // (1024 * 1024)} MiB",
        "nesting depth": str(positions.MAX_DEPTH),
        "values in a document": f"{positions.MAX_VALUES:,}".replace(",", " "),
        "YAML aliases": f"{positions.MAX_ALIASES:,}".replace(",", " "),
        "characters in one number": str(positions.MAX_NUMBER_CHARS),
        "numbers": f"±{checks.MAX_NUMBER:,.0f}".replace(",", " "),
        "bounds": f"{checks.MAX_EXTENT:g} lengths",
        "vertices of one polygon": f"{checks.MAX_POINTS:,}".replace(",", " "),
        "walls": f"{props['walls']['maxItems']:,}".replace(",", " "),
        "checkpoints, gates": f"{props['checkpoints']['maxItems']} each",
        "acceleration fields, exclusion fields, static targets": f"{props['acceleration_fields']['maxItems']} each",
        "gate length": f"{checks.MIN_GATE_LENGTH:g} length",
        "`units.length_mm`": f"{checks.MAX_PRINTED_MM / 1000:g} m",
        "tool extensions": f"{positions.MAX_EXTENSION_VALUES:,} values".replace(",", " "),
        "schema problems listed": f"{MAX_PROBLEMS} a file",
    }
    for row, value in rows.items():
        line = next((ln for ln in section.splitlines() if ln.startswith(f"| {row}")), None)
        assert line is not None and value in line, (row, value, line)
    assert props["gates"]["maxItems"] == props["checkpoints"]["maxItems"]
    assert props["exclusion_fields"]["maxItems"] == props["static_targets"]["maxItems"] == props["acceleration_fields"]["maxItems"]
    assert arena_schema()["$defs"]["polygon"]["properties"]["points"]["maxItems"] == checks.MAX_POINTS
