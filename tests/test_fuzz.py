"""Fuzzing (issue 16, "Done when"): mutated arenas through check, validate and save.

Seeded and bounded: ``ARENA_FUZZ_CASES`` mutants (default 60, a few seconds; raise it for a
longer hunt, e.g. ``ARENA_FUZZ_CASES=5000``) from the shipped arenas in YAML and JSON, each made
by one to three random mutations of the text or of the document (numbers, types, nesting, ids,
geometry, hostile strings). For every mutant:

- ``check`` (the loader) either accepts it or reports problems that each name the file and a
  line:column or a JSON pointer — any other exception is a failure;
- an accepted arena saves to YAML and JSON and loads back equal (``save`` writes nothing
  ``check`` refuses);
- the validators that need no travel search run on it without an exception, and the report
  prints through the CLI's printer (rich) without one.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from rich.console import Console

from schema import ArenaError, dumps, load, loads, save
from app.cli.validate import print_report
from validators.run import validate

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = [ROOT / "arenas" / "default.yaml", *sorted((ROOT / "arenas" / "examples").glob("*.yaml"))]
CASES = int(os.environ.get("ARENA_FUZZ_CASES", "60"))
SEED = int(os.environ.get("ARENA_FUZZ_SEED", "16"))
#: Validators without travel search (the planner's bounds are the travel issue's); the cheap ones
#: run on every accepted mutant, the geometric ones (tenths of a second each) on every third.
CHEAP = ["bounds", "overlap", "exclusion-placement", "checkpoint-mix", "field-orbit", "symmetry"]
NO_TRAVEL = [*CHEAP, "safe-areas", "wall-tunnelling"]

HOSTILE_STRINGS = ["Fair [/] arena", "[link=file:///etc/passwd]x[/link]", '<img src="file:///etc/passwd">',
                   "\x1b[2J", "a\u0000b", "\ud800", "\U0001f680", "", " ", "x" * 300, "\u202e", "%s%n", "${x}",
                   "W1", "A", "start:1", "1e5", "- a", "&a", "*a", "{", "[", "'", '"']
HOSTILE_NUMBERS: list[Any] = [0, -1, 1e-324, 5e-324, 1e-9, 0.5, 1e308, -1e308, float("inf"), float("nan"),
                              10**400, 10_000, 10_000.5, -10_001, 2**63, True, None, "3", [], {}]


def seeds() -> list[tuple[str, str, Any]]:
    out = []
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        doc = yaml.safe_load(text)
        out.append(("yaml", text, doc))
        out.append(("json", json.dumps(doc, indent=1), doc))
    return out


def nodes(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    found = [(path, doc)]
    if isinstance(doc, dict):
        for k, v in doc.items():
            found += nodes(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found += nodes(v, (*path, i))
    return found


def put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


def mutate_doc(rng: random.Random, doc: Any) -> Any:
    doc = copy.deepcopy(doc)
    path, node = rng.choice(nodes(doc))
    kind = rng.randrange(12)
    if kind == 0:
        return put(doc, path, rng.choice(HOSTILE_NUMBERS))
    if kind == 1:
        return put(doc, path, rng.choice(HOSTILE_STRINGS))
    if kind == 2 and path:  # delete
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
        return doc
    if kind == 3 and isinstance(node, list) and node:  # duplicate an element (duplicate ids, players)
        node.append(copy.deepcopy(rng.choice(node)))
        return doc
    if kind == 4 and isinstance(node, list) and node:  # many copies: over a cap
        node.extend(copy.deepcopy(node[0]) for _ in range(rng.choice([30, 40, 1100])))
        return doc
    if kind == 5:  # deep nesting
        deep: Any = 0
        for _ in range(rng.choice([10, 63, 64, 65, 200])):
            deep = [deep]
        return put(doc, path, deep)
    if kind == 6 and isinstance(node, (int, float)) and not isinstance(node, bool):  # nudge a number
        return put(doc, path, node * rng.choice([-1, 0, 1e-9, 1e9, 1.0000001]) + rng.choice([0, 1e-12, 0.5]))
    if kind == 7 and isinstance(node, dict):  # unknown or extension key
        node[rng.choice(["colour", "x-tool", "x-\ud800", "<<", "Format"])] = rng.choice(HOSTILE_NUMBERS + HOSTILE_STRINGS)
        return doc
    if kind == 8 and isinstance(node, dict) and "type" in node:  # change a shape's type
        node["type"] = rng.choice(["circle", "rect", "polygon", "polyline", "hexagon"])
        return doc
    if kind == 9 and isinstance(node, dict) and node.get("type") in ("polygon", "polyline"):  # bow-tie / repeats
        pts = node["points"]
        if len(pts) >= 4:
            pts[1], pts[2] = pts[2], pts[1]
        else:
            pts.append(copy.deepcopy(pts[-1]))
        return doc
    if kind == 10 and isinstance(doc, dict):  # a wall over the whole arena (no free floor)
        doc.setdefault("walls", []).append({"id": "Wfloor", "shape": doc.get("bounds") or
                                            {"type": "rect", "center": [0, 0], "size": [24, 24]}})
        return doc
    if kind == 11 and isinstance(doc, dict):  # a tiny gate
        doc.setdefault("gates", []).append({"id": "Gtiny", "kind": "outlying", "from": [0, 0], "to": [1e-9, 0]})
        return doc
    return put(doc, path, rng.choice(HOSTILE_NUMBERS + HOSTILE_STRINGS))


def mutate_benign(rng: random.Random, doc: Any) -> Any:
    """A change that keeps the document valid more often than not: hostile but legal text, moved
    elements, removed elements, walls over the whole floor."""
    doc = copy.deepcopy(doc)
    kind = rng.randrange(4)
    if kind == 0:
        doc[rng.choice(["name", "description", "author"])] = rng.choice(
            [t for t in HOSTILE_STRINGS if t and "\ud800" not in t and len(t) < 200])
    elif kind == 1:
        numbers = [(p, v) for p, v in nodes(doc) if isinstance(v, float) and p and p[0] != "scenario"]
        if numbers:
            where, value = rng.choice(numbers)
            put(doc, where, round(value + rng.uniform(-3, 3), rng.choice([0, 2, 9])))
    elif kind == 2:
        lists = [k for k in ("walls", "checkpoints", "acceleration_fields", "static_targets", "start_positions")
                 if doc.get(k)]
        if lists:
            items = doc[rng.choice(lists)]
            del items[rng.randrange(len(items))]
    else:
        doc.setdefault("walls", []).append({"id": "Wfloor", "shape": doc.get("bounds") or
                                            {"type": "rect", "center": [0, 0], "size": [24, 24]}})
    return doc


def serialise(rng: random.Random, fmt: str, doc: Any) -> str:
    if fmt == "json":
        return json.dumps(doc, ensure_ascii=rng.random() < 0.5)
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)


def mutate_text(rng: random.Random, text: str) -> str:
    if not text:
        return rng.choice(HOSTILE_STRINGS)
    i = rng.randrange(len(text))
    j = min(len(text), i + rng.randrange(1, 40))
    kind = rng.randrange(6)
    if kind == 0:
        return text[:i] + text[j:]
    if kind == 1:
        return text[:i] + text[i:j] * rng.choice([2, 50]) + text[j:]
    if kind == 2:
        return text[:i] + rng.choice(["\\ud800", "\\u0000", "\t", "\x00", "\x85", "NaN", "-Infinity", "&a", "*a",
                                      "!!python/object:os.system", "9" * 5000, "[" * 300, "? ", ": :", "\ufeff"]) + text[i:]
    if kind == 3:
        return text[:i] + chr(rng.randrange(0x20, 0x3000)) + text[i + 1:]
    if kind == 4:
        return text[: rng.randrange(len(text))]
    return text[:i] + rng.choice(["{", "}", "[", "]", ",", ":", '"', "'", "\n", "- "]) + text[i:]


def mutants(count: int = CASES) -> list[tuple[str, str, str]]:
    rng = random.Random(SEED)
    base = seeds()
    out = []
    for n in range(count):
        fmt, text, doc = rng.choice(base)
        roll = rng.random()
        if roll < 0.65:
            doc = mutate_benign(rng, doc) if roll < 0.3 else doc
            for _ in range(rng.choice([0, 1, 1, 1, 2, 3]) if roll >= 0.3 else 0):
                doc = mutate_doc(rng, doc)
            try:
                text = serialise(rng, fmt, doc)
            except (ValueError, yaml.YAMLError, UnicodeError, RecursionError):
                continue
        else:
            for _ in range(rng.randrange(1, 4)):
                text = mutate_text(rng, text)
        out.append((f"mutant{n}.{fmt}", fmt, text))
    return out


def test_mutated_arenas_get_located_problems_or_round_trip(tmp_path: Path) -> None:
    accepted = refused = 0
    for name, fmt, text in mutants():
        path = tmp_path / name
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            arena = load(path)
        except ArenaError as exc:
            refused += 1
            assert exc.problems, name
            for p in exc.problems:
                assert p.file == str(path), (name, str(p))
                assert p.line > 0 or p.pointer, f"{name}: unlocated problem {p}"
            continue
        accepted += 1
        for out_fmt in ("yaml", "json"):
            saved = tmp_path / f"{name}.saved.{out_fmt}"
            save(arena, saved)
            assert load(saved) == arena, f"{name}: {out_fmt} save did not load back equal"
            assert loads(dumps(arena, out_fmt), fmt=out_fmt) == arena  # type: ignore[arg-type]
        report = validate(arena, source=str(path), enable=NO_TRAVEL if accepted % 3 == 1 else CHEAP)
        print_report(report, Console(file=io.StringIO(), force_terminal=True, width=120))
        json.dumps(report.to_json(), allow_nan=False).encode("utf-8")
    # the mutations must exercise both paths, or the test proves little
    assert accepted >= CASES // 10 and refused >= CASES // 4, (accepted, refused)


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_mutants_are_reproducible(fmt: str) -> None:
    first = [m for m in mutants(12) if m[1] == fmt]
    assert first and first == [m for m in mutants(12) if m[1] == fmt]
