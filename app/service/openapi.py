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


def season_schema() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(resources.files("schema").joinpath("season.schema.json").read_text(encoding="utf-8"))
    return doc


def components(arena: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {**embed(arena, "Arena"), **embed(report_schema(), "Report"), **embed(season_schema(), "Season"),
            "Problem": PROBLEM_SCHEMA}


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

#: Beyond its JSON schema a season requires: kill shots only of players with a result in the event,
#: relative arena paths; and a game with season play (422 `invalid-season`, `no-season-play`).
SEASON_RULES = (
    "Beyond the JSON schema a season requires: an event's kill_shots only for players in its results (and "
    "only with results); arena paths relative, with '/' between folders; an installed game; the `scoring` "
    "options that game reads; a game with season play (else 422 no-season-play). At most 1 MiB."
)

SEASON_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The season file (format arena-studio-season/1), as JSON (`application/json`) or YAML "
                       "(`application/yaml`, `text/yaml`, `text/plain`). " + SEASON_RULES,
        "content": {"application/json": {"schema": ref("Season")},
                    "application/yaml": {"schema": ref("Season")}},
    }
}

SEASON_CHECK_REQUEST: dict[str, Any] = {
    "type": "object",
    "required": ["season"],
    "additionalProperties": False,
    "properties": {
        "season": {"type": "string", "maxLength": 1048576,
                   "description": "The season file's text (YAML or JSON), so that its problems are located."},
        "arenas": {"type": "object", "maxProperties": 64,
                   "description": "Each event's arena file's text (YAML or JSON) by its path as the season writes it.",
                   "additionalProperties": {"type": "string", "maxLength": 1048576}},
    },
}

SEASON_CHECK_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "A season and its arenas, as one JSON object (at most the pack limit, 20 MiB by default). "
                       + SEASON_RULES,
        "content": {"application/json": {"schema": SEASON_CHECK_REQUEST}},
    }
}

_PLAYER_EVENT = {"type": "object", "required": ["event", "place", "victory_points", "kill_shots", "multiplier",
                                                "placement_points"],
                 "properties": {"event": {"type": "string"}, "place": {"type": ["integer", "null"]},
                                "victory_points": {"type": ["integer", "null"]}, "kill_shots": {"type": "integer"},
                                "multiplier": {"type": "integer"}, "placement_points": {"type": "integer"}}}
STANDINGS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["season", "system", "standings", "pending", "ferocity"],
    "properties": {
        "season": {"type": "string"}, "system": {"type": "string"},
        "standings": {"type": "array", "items": {
            "type": "object", "required": ["rank", "player", "placement_points", "victory_points", "kill_shots",
                                           "events"],
            "properties": {"rank": {"type": "integer"}, "player": {"type": "string"},
                           "placement_points": {"type": "integer"}, "victory_points": {"type": "integer"},
                           "kill_shots": {"type": "integer"}, "events": {"type": "array", "items": _PLAYER_EVENT}}}},
        "pending": {"type": "array", "items": {"type": "string"}, "description": "Events not played yet."},
        "ferocity": {"type": "array", "items": {"type": "string"}, "description": "The players with the most kill shots."},
    },
}
_LOCATED: dict[str, Any] = {"type": "object", "required": ["file", "line", "column", "pointer", "message"],
            "properties": {"file": {"type": "string"}, "line": {"type": "integer"}, "column": {"type": "integer"},
                           "pointer": {"type": "string"}, "message": {"type": "string"}}}
SEASON_CHECK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["season", "system", "deck_evolution", "events", "findings"],
    "properties": {
        "season": {"type": "string"}, "system": {"type": "string"}, "deck_evolution": {"type": ["string", "null"]},
        "events": {"type": "array", "items": {
            "type": "object", "required": ["event", "arena", "file", "scenario", "multiplier"],
            "properties": {"event": {"type": "string"}, "arena": {"type": "string"}, "file": {"type": "string"},
                           "scenario": {"type": "object"}, "multiplier": {"type": "integer"},
                           "summary": {"type": "object", "description": "The event's report summary (findings per "
                                                                        "severity)."},
                           "played": {"type": "object", "description": "The game's settings the event was judged "
                                                                       "under (the report's scenario part: Gravstrike's "
                                                                       "veteran limit and scoring variants)."},
                           "problems": {"type": "array", "items": _LOCATED,
                                        "description": "Why the event's arena could not be validated."}}}},
        "findings": {"type": "array", "items": {**_LOCATED, "required": ["severity", *_LOCATED["required"]],
                                                "properties": {**_LOCATED["properties"],
                                                               "severity": {"enum": ["error", "warning", "info"]}}}},
    },
}

_ERRORS = {
    408: "The request body did not arrive within the time limit.",
    413: "The request body is larger than the limit.",
    415: "The body's Content-Type is not one the endpoint reads.",
    422: "The arena (or pack, or a job's body) is invalid — `problems` lists every located problem — or a parameter is, "
         "or a travel query names an element the arena does not have (`travel-query`). An arena can match "
         "the JSON schema and still break a rule of the format: " + FORMAT_RULES + " A pack must be a zip "
         "file that passes every check of `arena pack verify`.",
    404: "No job with that id: never created, or forgotten (finished jobs are kept for a time and a count).",
    409: "The job is not done (queued, running, failed or cancelled): its result does not exist.",
    429: "Every worker is busy and the wait queue is full (jobs: as many jobs as `--job-queue` are queued or "
         "running); retry later (`Retry-After`).",
    500: "An unexpected error (logged by the server).",
    501: "The feature is not installed on this server.",
    503: "The job overran the time limit and was stopped, or no worker is available.",
}


def problem_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"description": _ERRORS[c], "content": {MEDIA_TYPE: {"schema": ref("Problem")}}} for c in codes}


def json_response(schema: dict[str, Any], description: str) -> dict[int | str, dict[str, Any]]:
    return {200: {"description": description, "content": {"application/json": {"schema": schema}}}}
