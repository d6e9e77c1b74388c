"""Issue 36, item 11: degenerate numbers in every numeric field of every game's schema.

``arena check`` exited 3 (the service answered 500) on an Arena Rex circle board of radius 0 (a
``ZeroDivisionError`` in the deployment edge: the game's own checks ran on a document the schema
had refused) and on a deployment centre of 1e300 (a ``GEOSException``: no range on the
coordinate).  Every number each game's schema holds - found by walking the schema, see
``degenerate.py`` - is fed 0, ±1e-300, ±1e300, ±1e9 and its own bounds: a value outside the
field's documented range is refused with a problem at its JSON pointer (exit 1), a value inside
it loads or gets located problems - never an unexpected error (exit 3).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from schema import ArenaError, from_document
from schema.ruleset import ruleset, rulesets
from tests.schema.degenerate import DEGENERATE, Pattern, accepts, bounds_of, document_fields, schema_fields, shipped, with_value

HEAD = {"format": "arena-studio/1"}


def rect(x: float, y: float, w: float, h: float, rotation: float = 0) -> dict[str, Any]:
    return {"type": "rect", "center": [x, y], "size": [w, h], "rotation": rotation}


def circle(x: float, y: float, r: float) -> dict[str, Any]:
    return {"type": "circle", "center": [x, y], "radius": r}


def square(x: float, y: float, s: float) -> dict[str, Any]:
    return {"type": "polygon", "points": [[x - s, y - s], [x + s, y - s], [x + s, y + s], [x - s, y + s]]}


#: Small arenas holding the numeric fields the shipped arenas leave out (shapes of every type in
#: every list), so that each field of each schema has a case (settings written only when set are
#: tried from their defaults).
EXTRA: dict[str, list[dict[str, Any]]] = {
    "arena-rex": [{
        **HEAD, "system": "arena-rex", "name": "Polygon board", "bounds": square(0, 0, 12),
        "pits": [{"id": "P1", "shape": rect(-6, 0, 2, 2, 15)}, {"id": "P2", "shape": square(6, 0, 1)}],
        "spikes": [{"id": "S1", "shape": circle(0, 6, 1)}, {"id": "S2", "shape": square(0, -6, 1)}],
        "hazards": [{"id": "H1", "shape": square(3, 3, 0.5)}],
        "deployment": [{"player": 1, "side": 0}, {"player": 2, "side": 2, "center": [0, 12], "favor": 4}],
        "scenario": {"players": 2},
    }],
    "car-wars-6e": [{
        **HEAD, "system": "car-wars-6e", "name": "Polygon yard", "bounds": square(0, 0, 18),
        "walls": [{"id": "W1", "shape": square(-10, -10, 1)}],
        "obstacles": [{"id": "O1", "shape": rect(10, 10, 2, 1, 30)}, {"id": "O2", "shape": square(10, -10, 1)}],
        "terrain": [{"id": "T1", "shape": circle(-10, 10, 2), "level": 1}, {"id": "T2", "shape": square(0, 10, 1), "level": 2}],
        "hazards": [{"id": "Z1", "shape": circle(0, -10, 1)}, {"id": "Z2", "shape": square(-10, 0, 1)}],
        "tokens": [{"id": "B1", "kind": "barrel", "position": [5, 5], "durability": 3}],
        "start_positions": [{"player": 1, "position": [-12, -12], "facing": 45}],
        "scenario": {"game_size": {"armor_points": 9, "build_points": 36, "crew_points": 9}},
    }],
    "gravstrike": [{
        **HEAD, "system": "gravstrike", "name": "Shapes",
        "checkpoints": [{"id": "A", "kind": "outlying", "shape": rect(-6, 6, 2, 1, 10)},
                        {"id": "B", "kind": "outlying", "shape": square(6, 6, 1)}],
        "acceleration_fields": [{"id": "F1", "shape": square(0, -6, 1), "direction": 90}],
    }],
}


def base_documents(system: str) -> list[dict[str, Any]]:
    """The canonical documents (defaults written out) of the shipped arenas and the extra ones."""
    rs = ruleset(system)
    return [*shipped(system), *(rs.document(from_document(d)) for d in EXTRA.get(system, []))]


def cases(system: str) -> dict[Pattern, tuple[dict[str, Any], str, dict[str, Any]]]:
    """Per numeric field of the schema: the smallest base document holding it, its pointer there
    and its schema (asserting that every field of the schema has one)."""
    found: dict[Pattern, tuple[dict[str, Any], str, dict[str, Any]]] = {}
    docs = sorted(base_documents(system), key=lambda d: len(json.dumps(d)))
    for doc in docs:
        for pattern, ptr, node in document_fields(system, doc):
            found.setdefault(pattern, (doc, ptr, node))
    for pattern, node in schema_fields(system).items():  # a setting written only when set: its default
        if pattern not in found and "default" in node and all(k.isidentifier() for k in pattern):
            doc = copy.deepcopy(docs[0])
            parent = doc
            for key in pattern[:-1]:
                parent = parent.setdefault(key, {})
            parent[pattern[-1]] = node["default"]
            found[pattern] = (doc, "/" + "/".join(pattern), node)
    missing = ["/".join(p) for p in schema_fields(system) if p not in found]
    assert not missing, f"{system}: numeric fields of the schema with no case: {missing}"
    return found


def refused_at(exc: ArenaError, ptr: str) -> bool:
    """Is a problem located at ``ptr`` or at the object or list holding it (not the root)?"""
    return any(p.pointer and (ptr == p.pointer or ptr.startswith(p.pointer + "/")) for p in exc.problems)


@pytest.mark.parametrize("system", sorted(rulesets()))
def test_every_numeric_field_takes_degenerate_numbers_without_a_crash(system: str) -> None:
    tried = refused = 0
    for pattern, (doc, ptr, node) in cases(system).items():
        # every number has a documented, finite range: the schema states it on the field
        assert not accepts(node, 1e300) and not accepts(node, -1e300), f"{system}: {'/'.join(pattern)} is unbounded"
        for value in (*DEGENERATE, *bounds_of(node)):
            tried += 1
            within = accepts(node, value)
            try:
                from_document(with_value(doc, ptr, value), source="case")
            except ArenaError as exc:
                assert all(p.pointer or p.line for p in exc.problems), (system, ptr, value, str(exc))
                if not within:
                    refused += 1
                    assert refused_at(exc, ptr), (system, ptr, value, str(exc))
            except Exception as exc:  # noqa: BLE001 - what arena check reports as exit 3
                pytest.fail(f"{system} {ptr} = {value!r}: {type(exc).__name__}: {exc}")
            else:
                assert within, f"{system} {ptr} = {value!r} is outside the field's range but passed"
    assert tried > refused >= 2 * len(schema_fields(system))


def test_the_issue_cases_are_refused_where_they_are(tmp_path: Path) -> None:
    colosseum = yaml.safe_load((Path(__file__).resolve().parents[2] / "arenas/arena-rex/colosseum-30.yaml").read_text())
    square24 = yaml.safe_load((Path(__file__).resolve().parents[2] / "arenas/arena-rex/square-24.yaml").read_text())
    zero = copy.deepcopy(colosseum)
    zero["bounds"]["radius"] = 0
    far = copy.deepcopy(square24)
    far["deployment"][0]["center"] = [1e300, 0]
    for name, doc in (("zero.yaml", zero), ("far.yaml", far)):
        (tmp_path / name).write_text(yaml.safe_dump(doc), encoding="utf-8")
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    r = CliRunner().invoke(app, ["check", str(tmp_path / "zero.yaml"), str(tmp_path / "far.yaml")])
    assert r.exit_code == 1, r.output
    assert f"{tmp_path / 'zero.yaml'}:" in r.output and "/bounds/radius: 0 is less than the minimum of 0.001" in r.output
    assert "/deployment/0/center/0: 1e+300 is greater than the maximum of 10000" in r.output


@pytest.mark.parametrize("system", sorted(rulesets()))
def test_arena_check_exits_1_on_each_out_of_range_number(system: str, tmp_path: Path) -> None:
    """Through the command: every field at +1e300 and -1e300, one file each, exit 1 and each file's
    problem at the field's pointer."""
    from app.cli.main import load_commands
    from app.cli.shared import app

    load_commands()
    files: dict[Path, str] = {}
    for i, (doc, ptr, _node) in enumerate(cases(system).values()):
        for sign in (1, -1):
            path = tmp_path / f"case{i}-{sign + 1}.json"
            path.write_text(json.dumps(with_value(doc, ptr, sign * 1e300)), encoding="utf-8")
            files[path] = ptr
    r = CliRunner().invoke(app, ["check", "--json", *map(str, files)])
    assert r.exit_code == 1, r.output
    problems = json.loads(r.stdout)
    for path, ptr in files.items():
        mine = [p["pointer"] for p in problems if p["file"] == str(path)]
        assert any(ptr == p or ptr.startswith(p + "/") for p in mine if p), (path.name, ptr, mine)


def test_edited_documents_meet_the_schema_before_the_games_checks() -> None:
    """Balance moves and robustness samples are documents built in memory: they are checked as a
    file is (schema first), so a degenerate one is refused, not a crash in the game's checks."""
    from schema.io import document_problems

    rs = ruleset("arena-rex")
    doc = rs.document(rs.default_arena())
    assert document_problems(doc) == []
    doc["bounds"]["radius"] = 0
    (problem,) = document_problems(doc)
    assert problem[0] == "/bounds/radius" and "minimum of 0.001" in problem[1]
    doc["bounds"]["radius"] = 15
    doc["deployment"][0]["center"] = [1e300, 0]
    assert [p for p, _ in document_problems(doc)] == ["/deployment/0/center/0"]
