"""A table of malformed arena documents: each must report the right JSON pointer and line."""

from __future__ import annotations

import pytest

from schema import ArenaError, loads
from schema.io import MAX_FILE_BYTES

HEAD = "format: arena-studio/1\nsystem: gravstrike\nname: T\n"  # lines 1-3

# (case id, text, format, expected pointer, expected line, part of the message)
CASES: list[tuple[str, str, str, str, int, str]] = [
    ("bad-yaml-indent", HEAD + "walls:\n  - id: W1\n   shape: {}\n", "yaml", "", 6, "invalid YAML"),
    ("bad-yaml-unclosed-flow", HEAD + "bounds: {type: rect, center: [0, 0]\n", "yaml", "", 5, "invalid YAML"),
    ("bad-json-trailing-comma", '{"format": "arena-studio/1",\n "system": "gravstrike",\n "name": "T",\n}', "json", "", 4, "invalid JSON"),
    ("empty-file", "", "yaml", "", 1, "empty"),
    ("not-a-mapping", "- 1\n- 2\n", "yaml", "", 1, "is not of type 'object'"),
    ("missing-format", "system: gravstrike\nname: T\n", "yaml", "", 1, "'format' is a required property"),
    ("missing-name", "format: arena-studio/1\nsystem: gravstrike\n", "yaml", "", 1, "'name' is a required property"),
    ("unknown-system", "format: arena-studio/1\nsystem: chess\nname: T\n", "yaml", "/system", 2, "is not one of"),
    ("newer-format", "format: arena-studio/9\nsystem: gravstrike\nname: T\n", "yaml", "/format", 1, "newer"),
    ("unknown-format", "format: tiled\nsystem: gravstrike\nname: T\n", "yaml", "/format", 1, "unknown format"),
    ("unknown-top-key", HEAD + "wals: []\n", "yaml", "/wals", 4, "did you mean 'walls'"),
    ("unknown-nested-key", HEAD + "turbine:\n  widht: 0.5\n", "yaml", "/turbine/widht", 5, "did you mean 'width'"),
    ("wrong-type-name", "format: arena-studio/1\nsystem: gravstrike\nname: 12\n", "yaml", "/name", 3, "is not of type 'string'"),
    ("negative-radius", HEAD + "walls:\n  - id: W1\n    shape: {type: circle, center: [0, 0], radius: -1}\n", "yaml",
     "/walls/0/shape/radius", 6, "minimum of 0"),
    ("zero-rect-size", HEAD + "walls:\n  - id: W1\n    shape:\n      type: rect\n      center: [0, 0]\n      size: [2, 0]\n", "yaml",
     "/walls/0/shape/size/1", 9, "minimum of 0"),
    ("unknown-shape-type", HEAD + "walls:\n  - id: W1\n    shape: {type: hexagon, center: [0, 0]}\n", "yaml",
     "/walls/0/shape/type", 6, "is not one of"),
    ("missing-shape-field", HEAD + "checkpoints:\n  - id: A\n    kind: outlying\n    shape: {type: circle, center: [0, 0]}\n", "yaml",
     "/checkpoints/0/shape", 7, "'radius' is a required property"),
    ("polyline-checkpoint", HEAD + "checkpoints:\n  - id: A\n    kind: outlying\n    shape: {type: polyline, points: [[0, 0], [1, 1]], thickness: 1}\n",
     "yaml", "/checkpoints/0/shape/type", 7, "is not one of"),
    ("point-three-coords", HEAD + "static_targets:\n  - id: T1\n    position: [1, 2, 3]\n", "yaml",
     "/static_targets/0/position", 6, "exactly 2 items"),
    ("self-intersecting-polygon", HEAD + "walls:\n  - id: W1\n    shape:\n      type: polygon\n      points: [[0, 0], [2, 2], [2, 0], [0, 2]]\n",
     "yaml", "/walls/0/shape/points", 8, "cross"),
    ("polygon-two-distinct-points", HEAD + "walls:\n  - id: W1\n    shape:\n      type: polygon\n      points: [[0, 0], [1, 1], [0, 0]]\n",
     "yaml", "/walls/0/shape/points", 8, "3 distinct points"),
    ("collinear-polygon", HEAD + "walls:\n  - id: W1\n    shape:\n      type: polygon\n      points: [[0, 0], [1, 1], [2, 2]]\n",
     "yaml", "/walls/0/shape/points", 8, "no area"),
    ("duplicate-id", HEAD + "walls:\n  - id: A\n    shape: {type: circle, center: [0, 0], radius: 1}\ncheckpoints:\n"
     "  - id: A\n    kind: outlying\n    shape: {type: circle, center: [3, 3], radius: 1}\n", "yaml",
     "/checkpoints/0/id", 8, "duplicate id 'A'"),
    ("duplicate-player", HEAD + "start_positions:\n  - {player: 1, position: [0, 0], facing: 0}\n"
     "  - {player: 1, position: [3, 0], facing: 0}\n", "yaml", "/start_positions/1/player", 6, "duplicate start position"),
    ("player-seven", HEAD + "start_positions:\n  - {player: 7, position: [0, 0], facing: 0}\n", "yaml",
     "/start_positions/0/player", 5, "maximum of 6"),
    ("bad-id", HEAD + "walls:\n  - id: 1wall\n    shape: {type: circle, center: [0, 0], radius: 1}\n", "yaml",
     "/walls/0/id", 5, "not a valid id"),
    ("bad-kind", HEAD + "checkpoints:\n  - id: A\n    kind: middle\n    shape: {type: circle, center: [0, 0], radius: 1}\n", "yaml",
     "/checkpoints/0/kind", 6, "is not one of"),
    ("gate-zero-length", HEAD + "gates:\n  - {id: G1, kind: outlying, from: [1, 1], to: [1, 1]}\n", "yaml",
     "/gates/0/to", 5, "must differ"),
    ("tier-thresholds-decreasing", HEAD + "scenario:\n  tier_thresholds: [8, 4]\n", "yaml",
     "/scenario/tier_thresholds", 5, "must increase"),
    ("duplicate-yaml-key", HEAD + "name: U\n", "yaml", "/name", 4, "duplicate key 'name'"),
    ("non-string-key", HEAD + "1: x\n", "yaml", "", 4, "keys must be strings"),
    ("infinite-number", HEAD + "units: {length_mm: .inf}\n", "yaml", "/units/length_mm", 4, "not a finite number"),
    ("yaml-alias-bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
     "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
     "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n", "yaml",
     "/f", 6, "alias bomb"),
    ("recursive-alias", "a: &a [*a]\n", "yaml", "/a/0", 1, "recursive"),
    ("python-tag", HEAD + "description: !!python/object/apply:os.system ['true']\n", "yaml", "/description", 4, "invalid YAML"),
    ("json-duplicate-key", '{"format": "arena-studio/1", "system": "gravstrike",\n "name": "T", "name": "U"}', "json",
     "/name", 2, "duplicate key 'name'"),
    ("json-nan", '{"format": "arena-studio/1", "system": "gravstrike", "name": "T", "units": {"length_mm": NaN}}', "json",
     "/units/length_mm", 1, "not a valid JSON number"),
    ("json-unknown-key", '{"format": "arena-studio/1",\n "system": "gravstrike",\n "name": "T",\n "colour": "red"}', "json",
     "/colour", 4, "unknown property 'colour'"),
    ("players-exceed-starts", HEAD + "start_positions:\n  - {player: 1, position: [0, 0], facing: 0}\nscenario:\n  players: 4\n",
     "yaml", "/scenario/players", 7, "only 1 start positions"),
    ("huge-coordinate", HEAD + "static_targets:\n  - {id: T1, position: [1.0e+300, 0]}\n", "yaml",
     "/static_targets/0/position/0", 5, "greater than the maximum of 10000"),
    ("bounds-too-large", HEAD + "bounds: {type: rect, center: [0, 0], size: [3000, 30]}\n", "yaml",
     "/bounds/size/0", 4, "greater than the maximum of 100"),
    ("polygon-bounds-too-large", HEAD + "bounds: {type: polygon, points: [[0, 0], [300, 0], [0, 30]]}\n", "yaml",
     "/bounds", 4, "at most 100 lengths across"),
]


@pytest.mark.parametrize("case,text,fmt,ptr,line,message", CASES, ids=[c[0] for c in CASES])
def test_malformed_document_is_located(case: str, text: str, fmt: str, ptr: str, line: int, message: str) -> None:
    with pytest.raises(ArenaError) as info:
        loads(text, source=f"{case}.{fmt}", fmt=fmt)  # type: ignore[arg-type]
    problems = info.value.problems
    matching = [p for p in problems if message in p.message]
    assert matching, f"no problem mentions {message!r}: {[str(p) for p in problems]}"
    p = matching[0]
    assert p.pointer == ptr, str(p)
    assert p.line == line, str(p)
    assert p.file == f"{case}.{fmt}"
    assert str(p).startswith(f"{case}.{fmt}:" + (f"{line}:" if line else ""))


def test_table_is_large_enough() -> None:
    assert len(CASES) >= 25


def test_oversized_file_is_refused() -> None:
    text = HEAD + "description: '" + "x" * (MAX_FILE_BYTES + 10) + "'\n"
    with pytest.raises(ArenaError) as info:
        loads(text, source="big.yaml")
    assert "larger than" in str(info.value)


def test_every_problem_in_a_file_is_reported() -> None:
    """Every schema problem at once; the game's own checks (unique ids, geometry) read the
    numbers as the schema promises them, so they run once the schema passes (issue 36 item 11:
    a radius of 0 crashed them)."""
    text = HEAD + ("walls:\n  - id: W1\n    shape: {type: circle, center: [0, 0], radius: -1}\n"
                   "  - id: W1\n    shape: {type: circle, center: [0, 0], radius: 1}\n"
                   "colour: red\n")
    with pytest.raises(ArenaError) as info:
        loads(text, source="many.yaml")
    pointers = [p.pointer for p in info.value.problems]
    assert pointers == ["/walls/0/shape/radius", "/colour"]
    with pytest.raises(ArenaError) as info:
        loads(text.replace("radius: -1", "radius: 1").replace("colour", "x-colour"), source="many.yaml")
    assert [p.pointer for p in info.value.problems] == ["/walls/1/id"]


def test_not_utf8_is_located() -> None:
    raw = (HEAD + "description: caf").encode() + b"\xe9\n"
    with pytest.raises(ArenaError) as info:
        loads(raw, source="latin1.yaml")
    (p,) = info.value.problems
    assert (p.line, p.column) == (4, 17) and "UTF-8" in p.message
