"""Build Gravstrike's schema (schema/games/gravstrike/gravstrike.schema.json) from this readable
description, and the dispatcher schema/arena.schema.json that selects a game's schema by
``system`` (run after editing it).

The schema files are committed; a test checks they are up to date with this script.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

SCHEMA_ID = "https://arena-studio.dev/schema/systems/gravstrike.schema.json"
DISPATCHER_ID = "https://arena-studio.dev/schema/arena-studio-1.schema.json"
#: The games shipped with the studio: system id -> its name (each schema is in its game's package).  Rulesets
#: installed by other packages are checked through the ruleset registry (schema.io).
BUILTIN_SYSTEMS = {
    "arena-rex": "Arena Rex",
    "car-wars-6e": "Car Wars sixth edition",
    "glider-pit-gladiators": "Glider-Pit Gladiators",
    "gravstrike": "Gravstrike",
    "mothership-grid": "the Mothership grid card game",
}
EXT = {"^x-": {"title": "Tool extension", "description": "Any value; tools may store their own data under keys starting with 'x-'. Preserved on save."}}
ID_PATTERN = "^[A-Za-z][A-Za-z0-9_.-]{0,63}$"
#: Every number in an arena stays within +-MAX_NUMBER (schema.checks.MAX_NUMBER): stated on each
#: number so the schema (and the service's OpenAPI) says what is accepted.
MAX_NUMBER = 10000
#: The bounds are at most this many lengths across (schema.checks.MAX_EXTENT).
MAX_EXTENT = 100
#: Smallest radius, rectangle side and wall thickness, in lengths (0.04 mm at 40 mm a length):
#: geometry below it degenerates (GEOS cannot buffer a circle of radius 1e-300).
MIN_SIZE = 0.001


def bounded(kw: dict[str, Any]) -> dict[str, Any]:
    """``kw`` with the arena-wide range added where no tighter bound is given."""
    out = dict(kw)
    if "minimum" not in out and "exclusiveMinimum" not in out:
        out["minimum"] = -MAX_NUMBER
    if "maximum" not in out and "exclusiveMaximum" not in out:
        out["maximum"] = MAX_NUMBER
    return out


def num(title: str, description: str, **kw: Any) -> dict[str, Any]:
    return {"type": "number", "title": title, "description": description, **bounded(kw)}


def integer(title: str, description: str, **kw: Any) -> dict[str, Any]:
    return {"type": "integer", "title": title, "description": description, **bounded(kw)}


def boolean(title: str, description: str, default: bool = False) -> dict[str, Any]:
    return {"type": "boolean", "title": title, "description": description, "default": default}


def obj(title: str, description: str, props: dict[str, Any], required: list[str] | None = None,
        ext: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "title": title, "description": description,
                           "properties": props, "additionalProperties": False}
    if required:
        out["required"] = required
    if ext:
        out["patternProperties"] = EXT
    return out


def ref(name: str, title: str, description: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}", "title": title, "description": description}


def array(title: str, description: str, items: dict[str, Any], **kw: Any) -> dict[str, Any]:
    if "maxItems" in kw:  # the caps that keep validation bounded are part of the reference
        description += f" At most {kw['maxItems']}."
    return {"type": "array", "title": title, "description": description, "items": items, **kw}


def element_id(what: str) -> dict[str, Any]:
    return {"type": "string", "pattern": ID_PATTERN, "title": "Id",
            "description": f"Identifier of this {what}, unique across the whole arena. "
                           "A letter, then letters, digits, '_', '.' or '-' (at most 64)."}


def shape_union(names: list[str], title: str, description: str, defs: dict[str, str] | None = None) -> dict[str, Any]:
    """A discriminated union: `type` picks the variant so errors point into that variant
    (``defs`` names a variant's definition when it is not the type's own)."""
    return {
        "type": "object", "title": title, "description": description,
        "required": ["type"],
        "properties": {"type": {"enum": names, "title": "Shape type",
                                "description": "Which kind of shape this is: " + ", ".join(names) + "."}},
        "allOf": [
            {"if": {"properties": {"type": {"const": n}}, "required": ["type"]},
             "then": {"$ref": f"#/$defs/{(defs or {}).get(n, n)}"}}
            for n in names
        ],
    }


POINT = {"$ref": "#/$defs/point"}
kind = {"enum": ["outlying", "central"], "title": "Kind",
        "description": "Outlying (lettered from A; eligible for chain bonuses) or central "
                       "(lettered from M; VP grow with the tier)."}

DEFS: dict[str, Any] = {
    "point": {
        "type": "array", "title": "Point", "description": "[x, y] in lengths; x to the right, y up.",
        "prefixItems": [num("x", "x in lengths."), num("y", "y in lengths.")],
        "items": False, "minItems": 2,
    },
    "circle": obj("Circle", "A circle.", {
        "type": {"const": "circle", "title": "Shape type", "description": "Always 'circle'."},
        "center": {**POINT, "title": "Centre", "description": "Centre [x, y] in lengths."},
        "radius": num("Radius", f"Radius in lengths; at least {MIN_SIZE} (smaller shapes cannot be analysed).", minimum=MIN_SIZE),
    }, ["type", "center", "radius"]),
    "rect": obj("Rectangle", "A rectangle given by its centre, size and rotation.", {
        "type": {"const": "rect", "title": "Shape type", "description": "Always 'rect'."},
        "center": {**POINT, "title": "Centre", "description": "Centre [x, y] in lengths."},
        "size": {"type": "array", "title": "Size", "description": f"[width, height] in lengths before rotation; both at least {MIN_SIZE}.",
                 "prefixItems": [num("Width", "Width (along x before rotation).", minimum=MIN_SIZE),
                                 num("Height", "Height (along y before rotation).", minimum=MIN_SIZE)],
                 "items": False, "minItems": 2},
        "rotation": num("Rotation", "Degrees counter-clockwise about the centre.", default=0),
    }, ["type", "center", "size"]),
    "bounds_rect": obj("Bounds rectangle", f"A rectangle at most {MAX_EXTENT} lengths across (an arena's bounds).", {
        "type": {"const": "rect", "title": "Shape type", "description": "Always 'rect'."},
        "center": {**POINT, "title": "Centre", "description": "Centre [x, y] in lengths."},
        "size": {"type": "array", "title": "Size", "description": f"[width, height] in lengths before rotation; both at least {MIN_SIZE} and at most {MAX_EXTENT}.",
                 "prefixItems": [num("Width", "Width (along x before rotation).", minimum=MIN_SIZE, maximum=MAX_EXTENT),
                                 num("Height", "Height (along y before rotation).", minimum=MIN_SIZE, maximum=MAX_EXTENT)],
                 "items": False, "minItems": 2},
        "rotation": num("Rotation", "Degrees counter-clockwise about the centre.", default=0),
    }, ["type", "center", "size"]),
    "polygon": obj("Polygon", "A simple polygon (edges do not cross), vertices in order, not repeated at the end.", {
        "type": {"const": "polygon", "title": "Shape type", "description": "Always 'polygon'."},
        "points": {"type": "array", "title": "Vertices", "description": "At least 3 distinct vertices [x, y]; at most 10 000.",
                   "items": POINT, "minItems": 3, "maxItems": 10000},
    }, ["type", "points"]),
    "polyline": obj("Thick polyline", "A wall drawn as a centre line with a thickness (walls only).", {
        "type": {"const": "polyline", "title": "Shape type", "description": "Always 'polyline'."},
        "points": {"type": "array", "title": "Centre line", "description": "At least 2 distinct points [x, y]; at most 10 000.",
                   "items": POINT, "minItems": 2, "maxItems": 10000},
        "thickness": num("Thickness", f"Wall thickness in lengths; at least {MIN_SIZE}.", minimum=MIN_SIZE),
    }, ["type", "points", "thickness"]),
}

PROPERTIES: dict[str, Any] = {
    "format": {"const": "arena-studio/1", "title": "Format version",
               "description": "The file format and its version. Files of older versions are migrated on load."},
    "system": {"enum": ["gravstrike"], "title": "Game system", "description": "The game whose rules the arena is for."},
    "name": {"type": "string", "minLength": 1, "maxLength": 200, "title": "Name", "description": "The arena's display name."},
    "description": {"type": "string", "maxLength": 20000, "title": "Description", "description": "Free text for players and organisers."},
    "author": {"type": "string", "maxLength": 200, "title": "Author", "description": "Who designed the arena."},
    "license": {"type": "string", "maxLength": 200, "title": "License", "description": "Licence of the arena, e.g. an SPDX id such as CC-BY-4.0."},
    "tags": array("Tags", "Short keywords for search and packs.",
                  {"type": "string", "minLength": 1, "maxLength": 50, "title": "Tag", "description": "One keyword."},
                  uniqueItems=True, maxItems=50),
    "units": obj("Units", "Physical scale of the arena.", {
        "length_mm": num("Length in millimetres", "Size of one length (one turbine base) when printed; "
                         "at most 1000, and the printed arena at most 4 m across.",
                         minimum=MIN_SIZE, maximum=1000, default=40),
    }),
    "bounds": shape_union(["rect", "polygon"], "Bounds",
                          "The arena's outline (a rect or polygon), at most 100 lengths across. Its edges are walls: a turbine leaving it rams. Default: a 24 x 24 square centred on [0, 0] (a 3-ft table at 40 mm per length).",
                          {"rect": "bounds_rect"}),
    "turbine": obj("Reference turbine", "The turbine the analysis simulates.", {
        "length": num("Length", "Base length in lengths (one, by definition).", const=1, default=1),
        "width": num("Width", "Base width in lengths: also the sideslip distance.", minimum=MIN_SIZE, maximum=1, default=0.5),
        "speed_delta": integer("Speed Delta", "Most the speed may change per turn without damage.", minimum=1, maximum=12, default=2),
        "max_speed": integer("Maximum speed", "Highest speed in lengths per turn (the rules cap it at 6).", minimum=1, maximum=6, default=6),
        "icons_per_turn": {"type": ["integer", "null"], "minimum": 0, "maximum": 60, "default": 3,
                           "title": "Maneuver icons per turn",
                           "description": "Maneuver icons one hand of cards can pay per turn in analysis; null for unlimited."},
    }),
    "symmetry": obj("Symmetry", "The symmetry the designer intends; the editor keeps it and a validator checks it.", {
        "kind": {"enum": ["rotational", "mirror", "dihedral"], "title": "Kind",
                 "description": "rotational: N-fold rotation about the centre; mirror: reflection about one axis; dihedral: N-fold rotation with N mirror axes."},
        "order": integer("Order", "N of N-fold symmetry (1 for a plain mirror).", minimum=1, maximum=12, default=1),
        "center": {**POINT, "title": "Centre", "description": "Centre of rotation / point on the mirror axis."},
        "axis": num("Axis", "Angle in degrees of the (first) mirror axis.", default=90),
    }, ["kind"]) | {"allOf": [
        {"if": {"properties": {"kind": {"const": "mirror"}}, "required": ["kind"]},
         "then": {"properties": {"order": {"const": 1, "title": "Order",
                                           "description": "mirror symmetry has order 1; use 'dihedral' for several axes"}}}},
        {"if": {"properties": {"kind": {"enum": ["rotational", "dihedral"]}}, "required": ["kind"]},
         "then": {"required": ["order"], "description": "rotational and dihedral symmetry need an order of at least 2",
                  "properties": {"order": {"minimum": 2, "title": "Order",
                                           "description": "rotational and dihedral symmetry need an order of at least 2"}}}},
    ]},
    "walls": array("Walls", "Arena features: impassable and opaque.", obj("Wall", "One wall.", {
        "id": element_id("wall"),
        "shape": shape_union(["circle", "rect", "polygon", "polyline"], "Shape", "The wall's outline."),
    }, ["id", "shape"], ext=True), maxItems=1000),
    "checkpoints": array("Checkpoints", "Areas scored by ending a length on them.", obj("Checkpoint", "One checkpoint.", {
        "id": element_id("checkpoint"),
        "kind": kind,
        "shape": shape_union(["circle", "rect", "polygon"], "Shape", "The area that scores when the footprint touches it."),
        "decaying": boolean("Decaying", "Scored only by the first turbine to cross it each turn (a scoring variant)."),
    }, ["id", "kind", "shape"], ext=True), maxItems=26),
    "gates": array("Gates", "Lines scored by crossing them (a scoring variant).", obj("Gate", "One gate between two markers.", {
        "id": element_id("gate"),
        "kind": kind,
        "from": {**POINT, "title": "From", "description": "First marker [x, y]."},
        "to": {**POINT, "title": "To", "description": "Second marker [x, y], at least 0.5 lengths (a turbine's width) from the first."},
        "one_way": boolean("One way", "Scores only when crossed from the right of from→to to its left."),
    }, ["id", "kind", "from", "to"], ext=True), maxItems=26),
    "acceleration_fields": array("Acceleration fields", "Fields that push a turbine one length.", obj("Acceleration field", "One acceleration field.", {
        "id": element_id("acceleration field"),
        "shape": shape_union(["circle", "rect", "polygon"], "Central activation area",
                             "Touching it at the end of a length pushes the turbine one length."),
        "direction": num("Direction", "Direction of the push, degrees counter-clockwise from +x."),
    }, ["id", "shape", "direction"], ext=True), maxItems=32),
    "exclusion_fields": array("Exclusion fields", "Areas that damage turbines once active.", obj("Exclusion field", "One exclusion field.", {
        "id": element_id("exclusion field"),
        "shape": shape_union(["circle", "rect", "polygon"], "Shape", "The damaging area."),
        "active_from_tier": integer("Active from tier", "First VP tier in which the field is on (1 = always).", minimum=1, maximum=3, default=3),
    }, ["id", "shape"], ext=True), maxItems=32),
    "static_targets": array("Static targets", "Targets scored by shooting them.", obj("Static target", "One static target.", {
        "id": element_id("static target"),
        "position": {**POINT, "title": "Position", "description": "Where the target stands [x, y]."},
        "tn_modifier": integer("TN modifier", "Added to target numbers against it (small targets: up to +6).", minimum=-6, maximum=6, default=0),
        "capacity": integer("Capacity", "Damage it takes before it is destroyed (resilient targets: e.g. 12).", minimum=1, maximum=99, default=1),
        "exploding": boolean("Exploding", "Explodes like a turbine when destroyed."),
    }, ["id", "position"], ext=True), maxItems=32),
    "start_positions": array("Start positions", "Where each player's turbine begins and respawns.", obj("Start position", "One start position.", {
        "player": integer("Player", "Player number, 1 to 6, unique.", minimum=1, maximum=6),
        "position": {**POINT, "title": "Position", "description": "Centre of the turbine footprint [x, y]."},
        "facing": num("Facing", "Heading in degrees counter-clockwise from +x."),
    }, ["player", "position", "facing"], ext=True), maxItems=6),
    "scenario": obj("Scenario", "The battle's parameters.", {
        "players": integer("Players", "Number of players (default: the number of start positions).", minimum=1, maximum=6),
        "start_sets": {'type': 'object', 'title': 'Start sets', 'description': 'Which starts play at each player count: players (a key, "1" to "99") -> the numbers of the starts that play, one per player. Start numbers are the players\' start positions as the file numbers them (start:N is number N). The book: "Gravstrike is a multiplayer game. Three to six is a great range." and "Turbines should begin the game spaced as equally from each other as possible". arena validate judges every declared count (--players N: one); a count without a set is a finding.', 'propertyNames': {'pattern': '^[1-9][0-9]?$', 'description': 'a count: a whole number from 1 to 99 without leading zeros, quoted in YAML ("4": [...])'}, 'additionalProperties': {'type': 'array', 'title': 'Starts', 'description': 'The start numbers that play at this count.', 'items': {'type': 'integer', 'minimum': 1, 'maximum': 99, 'title': 'Start', 'description': 'A start number.'}, 'minItems': 1, 'maxItems': 99}, 'maxProperties': 99},
        "vp_to_win": integer("VP to win", "Victory points that win the game.", minimum=1, maximum=99, default=12),
        "tier_thresholds": {"type": "array", "title": "Tier thresholds",
                            "description": "Leader's VP at which tiers 2 and 3 begin (also the lock-in points); increasing.",
                            "prefixItems": [integer("Tier 2", "Leader VP starting tier 2.", minimum=1, maximum=98),
                                            integer("Tier 3", "Leader VP starting tier 3.", minimum=2, maximum=99)],
                            "items": False, "minItems": 2, "default": [4, 8]},
        "veteran_limit": integer("Veteran limit", "Veteran cards allowed per deck in this battle: \"it's typical for "
                                 "a battle to limit the number of veteran cards allowed. If no limit is specified, "
                                 "players should assume that no veteran cards are allowed.\" Veteran cards \"count "
                                 "toward that type's normal allocation of cards\", so at most the deck's 43. In a "
                                 "season each event may set its own (\"Event parameters include ... the limit on "
                                 "veteran cards\"); arena season check weighs the limits against the strict deck "
                                 "evolution format.", minimum=0, maximum=43, default=0),
        "respawns": integer("Respawns", "Respawns per turbine before elimination.", minimum=0, maximum=10, default=2),
        "variants": obj("Scoring variants", "Optional scoring rules from the book's Scoring Variants.", {
            "gates": boolean("Gates", "Gates are scored."),
            "decaying_checkpoints": boolean("Decaying checkpoints", "Decaying checkpoints are in play."),
            "small_targets": boolean("Small targets", "Static targets may have TN modifiers up to +6."),
            "resilient_targets": boolean("Resilient targets", "Static targets may take more than 1 damage."),
            "exploding_targets": boolean("Exploding targets", "Static targets may explode."),
        }),
        "analysis": obj("Analysis thresholds", "Settings the fairness validators read.", {
            "tier": integer("Tier analysed", "VP tier used for travel analysis (exclusion fields).", minimum=1, maximum=3, default=1),
            "start_access_tolerance": num("Start access tolerance", "Turns by which starts' checkpoint travel times may differ.", minimum=0, default=0.5),
            "start_spacing_tolerance": num("Start spacing tolerance", "Lengths by which starts' nearest-neighbour distances may differ.", minimum=0, default=1.0),
            "start_spacing_time_tolerance": num("Start spacing time tolerance", "Turns by which starts' nearest-neighbour travel times may differ.", minimum=0, default=0.5),
            "checkpoint_min_turns": num("Checkpoint spacing", "Fewest flat-out turns between outlying checkpoints.", minimum=0, default=2.0),
            "target_access_tolerance": num("Target access tolerance", "Turns by which starts' times to a firing position may differ.", minimum=0, default=0.5),
            "target_tn_tolerance": integer("Target TN tolerance", "By how much starts' best TN on a static target may differ.", minimum=0, default=1),
            "safe_area_radius": num("Safe-area radius", "Radius in lengths within which visibility is measured (at most 100).", minimum=MIN_SIZE, maximum=100, default=10),
            "safe_area_min_visible": num("Safe-area visibility", "Smallest share of the arena within the radius a point may see.", minimum=0, maximum=1, default=0.25),
            "disabled": array("Disabled validators", "Validator codes not run for this arena.",
                              {"type": "string", "title": "Code", "description": "A validator code."}, uniqueItems=True),
            "placement_tolerance": num("Placement tolerance", "Tabletop robustness: lengths by which a piece put down by hand may miss its drawn place along each axis.", minimum=0, maximum=5, default=0.25),
            "placement_angle_tolerance": num("Placement angle tolerance", "Tabletop robustness: degrees by which a piece put down by hand may be turned from its drawn direction.", minimum=0, maximum=45, default=5.0),
        }),
    }),
}

ORDER = ["format", "system", "name", "description", "author", "license", "tags", "units", "bounds",
         "turbine", "symmetry", "walls", "checkpoints", "gates", "acceleration_fields",
         "exclusion_fields", "static_targets", "start_positions", "scenario"]


def build() -> dict[str, Any]:
    assert list(PROPERTIES) == ORDER
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Arena Studio arena: Gravstrike",
        "description": "A Gravstrike arena. Coordinates are in "
                       "lengths (one turbine base length), x to the right, y up; angles in degrees "
                       "counter-clockwise from +x. Unknown properties are errors except keys starting with 'x-'.",
        "type": "object",
        "required": ["format", "system", "name"],
        "properties": PROPERTIES,
        "patternProperties": EXT,
        "additionalProperties": False,
        "$defs": DEFS,
    }


def dispatcher() -> dict[str, Any]:
    """The arena file's schema: what every game shares (``format``, ``system``, ``name``) and,
    for each built-in game, its own schema chosen by ``system``."""
    names = ", ".join(f"'{k}' ({v})" for k, v in BUILTIN_SYSTEMS.items())
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": DISPATCHER_ID,
        "title": "Arena Studio arena",
        "description": "An arena for one of the arena miniatures games Arena Studio serves. 'system' selects the "
                       "game (its ruleset) and with it the schema of the rest of the file, under systems/. "
                       "Unknown properties are errors except keys starting with 'x-'.",
        "type": "object",
        "required": ["format", "system", "name"],
        "properties": {
            "format": PROPERTIES["format"],
            "system": {"type": "string", "title": "Game system",
                       "description": f"The game whose rules the arena is for: the id of an installed ruleset. Built in: {names}.",
                       "examples": list(BUILTIN_SYSTEMS)},
            "name": PROPERTIES["name"],
        },
        "allOf": [
            {"if": {"properties": {"system": {"const": system}}, "required": ["system"]},
             "then": {"$ref": f"systems/{system}.schema.json"}}
            for system in BUILTIN_SYSTEMS
        ],
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def render_dispatcher() -> str:
    return json.dumps(dispatcher(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent / "schema"
    outputs = ((root / "games" / "gravstrike" / "gravstrike.schema.json", render()), (root / "arena.schema.json", render_dispatcher()))
    if "--check" in sys.argv:
        sys.exit(0 if all(t.read_text(encoding="utf-8") == text for t, text in outputs) else 1)
    for target, text in outputs:
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target}")
