"""Shared test helpers: validate Car Wars documents against the JSON Schema (with the shared
shapes of common.schema.json in a ``referencing`` registry) and load the test arenas."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from referencing import Registry, Resource

from schema.games import carwars as cw

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ROOT / "schema" / "systems"  # the shared definitions
SCHEMA = ROOT / "schema" / "games" / "carwars" / "car-wars-6e.schema.json"
DATA = Path(__file__).resolve().parent / "data"


@lru_cache(maxsize=1)
def validator() -> Any:
    common = json.loads((SYSTEMS / "common.schema.json").read_text(encoding="utf-8"))
    mine = json.loads(SCHEMA.read_text(encoding="utf-8"))
    registry = Registry().with_resources([
        (common["$id"], Resource.from_contents(common)),
        ("common.schema.json", Resource.from_contents(common)),
    ])
    return jsonschema.Draft202012Validator(mine, registry=registry)


def errors(doc: Any) -> list[str]:
    return sorted(f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator().iter_errors(doc))


def load_doc(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def load(name: str) -> cw.CarWarsArena:
    """A test arena by file name (under tests/carwars/data), validated first."""
    path = DATA / name
    doc = load_doc(path)
    problems = errors(doc)
    assert not problems, (name, problems)
    return cw.from_document(doc)
