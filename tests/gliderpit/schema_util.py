"""Validate documents against a game's JSON Schema the way schema/io.py does (Draft 2020-12),
with a referencing registry holding the shared common.schema.json."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

SYSTEMS = Path(__file__).resolve().parents[2] / "schema" / "systems"  # the shared definitions
#: Each game's schema, in its own package.
GAME_SCHEMAS = {"glider-pit-gladiators": SYSTEMS.parent / "games" / "gliderpit",
                "mothership-grid": SYSTEMS.parent / "games" / "mothership"}


@lru_cache(maxsize=None)
def schema(system: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GAME_SCHEMAS[system] / f"{system}.schema.json").read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=None)
def validator(system: str) -> Any:
    common = json.loads((SYSTEMS / "common.schema.json").read_text(encoding="utf-8"))
    registry: Registry[Any] = Registry().with_resource(common["$id"], Resource.from_contents(common))
    jsonschema.Draft202012Validator.check_schema(schema(system))
    return jsonschema.Draft202012Validator(schema(system), registry=registry)


def errors(system: str, doc: Any) -> list[str]:
    return sorted(f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(system).iter_errors(doc))


def untitled(node: Any, path: str = "#") -> list[str]:
    """Properties (and array items) anywhere in a schema that lack a title or a description."""
    out: list[str] = []
    if isinstance(node, dict):
        for key, sub in node.get("properties", {}).items():
            if not ("title" in sub and "description" in sub):
                out.append(f"{path}/properties/{key}")
        for key, sub in node.items():
            out += untitled(sub, f"{path}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            out += untitled(sub, f"{path}/{i}")
    return out
