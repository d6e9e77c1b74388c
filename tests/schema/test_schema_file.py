"""The JSON Schema is the format's documentation: valid 2020-12, with $id, titles and
descriptions on every property, and generated from scripts/build_schema.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import jsonschema

from schema import arena_schema

ROOT = Path(__file__).resolve().parents[2]


def _properties(node: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        for key in ("properties", "patternProperties", "$defs"):
            for name, sub in node.get(key, {}).items():
                yield f"{path}/{key}/{name}", sub
                yield from _properties(sub, f"{path}/{key}/{name}")
        for key in ("items", "then", "if"):
            if isinstance(node.get(key), dict):
                yield from _properties(node[key], f"{path}/{key}")
        for key in ("prefixItems", "allOf"):
            for i, sub in enumerate(node.get(key, [])):
                if key == "prefixItems":
                    yield f"{path}/{key}/{i}", sub
                yield from _properties(sub, f"{path}/{key}/{i}")


def test_schema_is_valid_draft_2020_12_with_id() -> None:
    schema = arena_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].startswith("https://")


def test_every_property_has_title_and_description() -> None:
    missing = []
    for where, sub in _properties(arena_schema()):
        if "/if" in where:
            continue
        if not (sub.get("title") and sub.get("description")):
            missing.append(where)
    assert not missing, missing


def test_schema_file_is_generated() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_schema.py"), "--check"], cwd=ROOT)
    assert result.returncode == 0, "schema/arena.schema.json is stale: run scripts/build_schema.py"


def test_essential_names_are_kept() -> None:
    props = arena_schema()["properties"]
    for name in ("format", "system", "name", "description", "author", "license", "tags", "bounds", "turbine",
                 "walls", "checkpoints", "gates", "acceleration_fields", "exclusion_fields", "static_targets",
                 "start_positions", "scenario", "units"):
        assert name in props
    assert set(arena_schema()["required"]) == {"format", "system", "name"}
