"""OpenAPI pieces: the arena and report JSON schemas embedded as components, and the
request-body / response declarations shared by the endpoints."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

from app.service.problems import MEDIA_TYPE, PROBLEM_SCHEMA

ARENA_TYPES = {"json": ("application/json",),
               "yaml": ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "text/plain")}


def report_schema() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(resources.files("schema").joinpath("report.schema.json").read_text(encoding="utf-8"))
    return doc


def embed(schema: dict[str, Any], name: str) -> dict[str, dict[str, Any]]:
    """A JSON schema with ``$defs`` as OpenAPI components: ``name`` plus ``name_<def>`` for each
    definition, with ``#/$defs/x`` references rewritten."""
    doc = copy.deepcopy(schema)
    defs = doc.pop("$defs", {})
    doc.pop("$schema", None)
    doc.pop("$id", None)

    def fix(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: (f"#/components/schemas/{name}_{v.rsplit('/', 1)[1]}"
                        if k == "$ref" and isinstance(v, str) and v.startswith("#/$defs/") else fix(v))
                    for k, v in node.items()}
        if isinstance(node, list):
            return [fix(x) for x in node]
        return node

    out = {name: fix(doc)}
    for key, sub in defs.items():
        out[f"{name}_{key}"] = fix(sub)
    return out


def components(arena: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {**embed(arena, "Arena"), **embed(report_schema(), "Report"), "Problem": PROBLEM_SCHEMA}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


#: What the arena format requires beyond its JSON schema (checked by the format layer, answered
#: 422 `invalid-arena` with every located problem).
FORMAT_RULES = (
    "Beyond the JSON schema the format requires: ids unique across the arena; one start position per "
    "player and no more `scenario.players` than start positions; polygons with at least 3 distinct "
    "vertices, not repeating the first, with area and edges that do not cross; polylines without repeated "
    "consecutive points; gates at least 0.5 lengths long; polygon bounds at most 100 lengths across; the "
    "printed arena (extent x `units.length_mm`) at most 4 m across; tier thresholds increasing and below "
    "`vp_to_win`; finite numbers and text without lone surrogates. Documents are read within limits: "
    "nesting at most 64 deep, at most 200 000 values, number literals at most 400 characters, YAML at "
    "most 1 000 aliases."
)

ARENA_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The arena, as JSON (`application/json`) or YAML (`application/yaml`, "
                       "`text/yaml`, `text/plain`); at most 1 MiB. " + FORMAT_RULES,
        "content": {"application/json": {"schema": ref("Arena")},
                    "application/yaml": {"schema": ref("Arena")}},
    }
}

PACK_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The pack file's bytes (at most 20 MiB by default).",
        "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}},
                    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
    }
}

_ERRORS = {
    408: "The request body did not arrive within the time limit.",
    413: "The request body is larger than the limit.",
    415: "The body's Content-Type is not one the endpoint reads.",
    422: "The arena (or pack) is invalid — `problems` lists every located problem — or a parameter is, "
         "or a travel query names an element the arena does not have (`travel-query`). An arena can match "
         "the JSON schema and still break a rule of the format: " + FORMAT_RULES + " A pack must be a zip "
         "file that passes every check of `arena pack verify`.",
    429: "Every worker is busy and the wait queue is full; retry later.",
    500: "An unexpected error (logged by the server).",
    501: "The feature is not installed on this server.",
    503: "The job overran the time limit and was stopped, or no worker is available.",
}


def problem_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"description": _ERRORS[c], "content": {MEDIA_TYPE: {"schema": ref("Problem")}}} for c in codes}


def json_response(schema: dict[str, Any], description: str) -> dict[int | str, dict[str, Any]]:
    return {200: {"description": description, "content": {"application/json": {"schema": schema}}}}
