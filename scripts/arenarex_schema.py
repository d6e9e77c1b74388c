"""Build Arena Rex's schema (schema/games/arenarex/arena-rex.schema.json) from this readable description
(run after editing it; a test checks the committed file is up to date).

The book is the Arena Rex playtest v0.2 (shared/seeds/004_dc762f78e7f2abcd.txt); the quotes in
the descriptions are its words.  The header fields (format, name, tags...) and the symmetry are
the same as Car Wars' schema, read from it so the two games stay alike.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "schema" / "games" / "arenarex" / "arena-rex.schema.json"
COMMON = "common.schema.json#/$defs/"
EXT = {"^x-": {"title": "Tool extension", "description": "Any value; tools may store their own data under keys "
                                                            "starting with 'x-'. Preserved on save."}}
ID_PATTERN = "^[A-Za-z][A-Za-z0-9_.-]{0,63}$"
#: Smallest positive length (inches) or setting a number may take, as for every game's sizes
#: (common.schema.json): smaller values only break the geometry or the arithmetic.
MIN_SIZE = 0.001


def num(title: str, description: str, **kw: Any) -> dict[str, Any]:
    out = {"type": "number", "title": title, "description": description, **kw}
    if "minimum" not in out and "exclusiveMinimum" not in out:
        out["minimum"] = -10000
    if "maximum" not in out:
        out["maximum"] = 10000
    return out


def integer(title: str, description: str, **kw: Any) -> dict[str, Any]:
    return {"type": "integer", "title": title, "description": description, **kw}


def obj(title: str, description: str, props: dict[str, Any], required: list[str] | None = None,
        ext: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "title": title, "description": description, "properties": props,
                           "additionalProperties": False}
    if required:
        out["required"] = required
    if ext:
        out["patternProperties"] = EXT
    return out


def shape(names: list[str], title: str, description: str) -> dict[str, Any]:
    return {
        "type": "object", "title": title, "description": description, "required": ["type"],
        "properties": {"type": {"enum": names, "title": "Shape type",
                                "description": "Which kind of shape this is: " + ", ".join(names) + "."}},
        "allOf": [{"if": {"properties": {"type": {"const": n}}, "required": ["type"]},
                   "then": {"$ref": COMMON + n}} for n in names],
    }


def element_id(what: str) -> dict[str, Any]:
    return {"type": "string", "pattern": ID_PATTERN, "title": "Id",
            "description": f"Identifier of this {what}, unique across the whole arena. A letter, then letters, digits, "
                           "'_', '.' or '-' (at most 64)."}


def array(title: str, description: str, items: dict[str, Any], max_items: int) -> dict[str, Any]:
    return {"type": "array", "title": title, "description": f"{description} At most {max_items}.", "items": items,
            "maxItems": max_items}


AREA = ["circle", "rect", "polygon"]


def element(title: str, description: str, what: str, shape_description: str,
            extra: dict[str, Any] | None = None) -> dict[str, Any]:
    props = {"id": element_id(what), "shape": shape(AREA, "Shape", shape_description), **(extra or {})}
    return obj(title, description, props, ["id", "shape"], ext=True)


HAZARD_KINDS = ["column", "wall", "rubble", "other"]

ANALYSIS: dict[str, Any] = {
    "mov": num("MOV", "The MOV (inches per move) the analysis gives a model: \"MOV: (Move) The distance in inches a "
               "model may move when performing a move action.\" The book prints no value (it is on each model's "
               "card); 5 is a middling model.", minimum=MIN_SIZE, maximum=24, default=5),
    "moves": integer("Moves per activation", "Moves one activation allows: the first is free and each further one "
                     "costs a fatigue, up to Exhausted, so at most 3 (\"A model's first move during its activation is "
                     "free. Gain 1 fatigue for each additional move.\").", minimum=1, maximum=3, default=3),
    "push": num("Push distance", "How far one push moves a model (\"The defending model is pushed 1 directly away "
                "from the attacking model.\"), in inches.", minimum=MIN_SIZE, maximum=6, default=1),
    "pushes": integer("Pushes", "Most pushes one attack is assumed to deliver for the kill band (the number comes "
                      "from the models' damage trees, which are on their cards).", minimum=1, maximum=4, default=2),
    "melee": num("Melee range", "\"Models have a simple 1 melee range\", in inches.", minimum=0, maximum=6, default=1),
    "deployment_reach": num("Deployment reach", "How far from the centre of its edge a cohort may deploy: \"up to 6 "
                            "inches away from the center in either direction\".", minimum=MIN_SIZE, maximum=100,
                            default=6),
    "board_min": num("Smallest board", "Side of the smallest board the book suggests: \"We suggest a board at least "
                     "24 x 24 for Arena Rex.\"", minimum=MIN_SIZE, maximum=1000, default=24),
    "min_pits": integer("Fewest pits", "\"Your board should have at least two pits\".", minimum=0, maximum=100,
                        default=2),
    "centre_tolerance": num("Edge centre tolerance", "How far (inches) a deployment's centre may lie from the middle "
                            "of its edge (\"Find the center of your board edge\").", minimum=0, maximum=100,
                            default=0.25),
    "path_tolerance": num("Path tolerance", "Inches by which the deployment zones' shortest paths (to the centre, "
                          "the other zones and the nearest hazard of each kind) may differ.", minimum=0,
                          maximum=1000, default=1),
    "moves_tolerance": integer("Moves tolerance", "Moves by which the zones' moves to the centre may differ.",
                               minimum=0, maximum=100, default=0),
    "kill_band_tolerance": num("Kill band tolerance", "Square inches by which the zones' kill bands (board within "
                               "one activation from which pushes reach a pit) may differ.", minimum=0, maximum=100000,
                               default=4),
    "sight_tolerance": num("Sight tolerance", "Difference allowed between zones in the share of the other zones "
                           "they see (0 to 1).", minimum=0, maximum=1, default=0.1),
    "grid": num("Grid step", "Cell size, in inches, of the distance field the heat map and the kill band are read "
                "from (paths between points are exact).", minimum=0.05, maximum=2, default=0.25),
    "disabled": {"type": "array", "title": "Disabled checks", "description": "Check codes not to run on this arena.",
                 "items": {"type": "string", "minLength": 1, "maxLength": 64, "title": "Code",
                           "description": "A check code, e.g. ar-symmetry."},
                 "uniqueItems": True, "maxItems": 100, "default": []},
    "placement_tolerance": num("Placement tolerance", "Tabletop robustness: inches by which a pit, spike or hazard "
                               "put down by hand may miss its drawn place along each axis.", minimum=0, maximum=5,
                               default=0.25),
    "placement_angle_tolerance": num("Placement angle tolerance", "Tabletop robustness: degrees by which a piece put "
                                     "down by hand may be turned from its drawn direction.", minimum=0, maximum=45,
                                     default=5),
}


def build() -> dict[str, Any]:
    cw = json.loads((ROOT / "schema" / "games" / "carwars" / "car-wars-6e.schema.json").read_text(encoding="utf-8"))
    header = {k: cw["properties"][k] for k in ("format", "system", "name", "description", "author", "license", "tags")}
    header["system"] = {"const": "arena-rex", "title": "Game system", "description": "Arena Rex (playtest v0.2)."}
    props: dict[str, Any] = dict(header)
    props["units"] = cw["properties"]["units"]
    props["bounds"] = shape(AREA, "Board", "The play area: a circle, a rectangle or any polygon, in inches (\"We "
                            "suggest a board at least 24 x 24 for Arena Rex. Our games typically take place on a 30 "
                            "diameter circle. But we encourage players to experiment with different play area sizes "
                            "and shapes.\"). Default: a circle of diameter 30 centred on [0, 0].")
    props["bases"] = {
        "type": "array", "title": "Bases",
        "description": "Diameters in millimetres of the round model bases the analysis moves (the book gives no sizes; "
                       "see docs/rules-decisions.md). Default: 30, 40 and 50 mm. At most 6.",
        "items": {"type": "number", "minimum": 1, "maximum": 200, "title": "Diameter",
                  "description": "A base's diameter in millimetres (1 to 200)."},
        "minItems": 1, "maxItems": 6, "uniqueItems": True, "default": [30, 40, 50]}
    props["symmetry"] = cw["properties"]["symmetry"]
    props["pits"] = array("Pits", "Lethal hazards: \"If any part of a model's base touches a Lethal Hazard (pit, most "
                          "likely), that model is destroyed.\"",
                          element("Pit", "One pit.", "pit", "The pit's outline."), 200)
    props["spikes"] = array("Spikes", "Wounding hazards: \"The first time during each attack a model is pushed into a "
                            "wounding hazard, it suffers 3 damage. This damage ignores ARM.\"",
                            element("Spikes", "One patch of spikes.", "spike", "The spikes' outline."), 200)
    props["hazards"] = array(
        "Hazards", "Terrain hazards: \"The first time during each attack a model is pushed into a hazard (column, wall, "
                   "rubble, etc.) it gains one fatigue.\"",
        element("Hazard", "One terrain hazard.", "hazard", "The hazard's footprint.", {
            "kind": {"enum": HAZARD_KINDS, "title": "Kind", "default": "column",
                     "description": "What it is: a column, a wall, rubble or another piece (\"column, wall, rubble, "
                                    "etc.\")."},
            "blocks_movement": {"type": "boolean", "title": "Blocks movement", "default": True,
                                "description": "Models cannot walk through it (the book is silent; columns and walls "
                                               "do, rubble may not: see docs/rules-decisions.md)."},
            "blocks_sight": {"type": "boolean", "title": "Blocks sight", "default": True,
                             "description": "It hides the zones from each other in the sight metric (the game has no "
                                            "line of sight: \"Line-of-sight rules aren t necessary\"; a product "
                                            "metric)."},
        }), 500)
    edge_desc = ("Its board edge: the index of a side of a rectangle (0 bottom, 1 right, 2 top, 3 left, before "
                 "rotation) or polygon (side i runs from point i to point i+1)")
    props["deployment"] = {
        "type": "array", "title": "Deployment",
        "description": "Each player's deployment: \"Players alternate deploying miniatures along their board edge, in "
                       "base to base contact with the edge. Find the center of your board edge, your cohort may be "
                       "deployed up to 6 inches away from the center in either direction.\" At most 8.",
        "maxItems": 8,
        "items": {
            **obj("Deployment", "One player's board edge and its centre; the zone is the edge within the deployment "
                  "reach of the centre.", {
                      "player": integer("Player", "The player deploying here (its id is deploy:N), unique.",
                                        minimum=1, maximum=8),
                      "side": integer("Side", edge_desc + "; for a rectangle or polygon board.", minimum=0,
                                      maximum=10000),
                      "arc": {"type": "array", "title": "Arc",
                              "description": "For a circle board: the arc of the rim that is this player's edge, "
                                             "[from, to] in degrees counter-clockwise from +x (to > from; at most "
                                             "360 apart).",
                              "prefixItems": [num("From", "Start angle, degrees.", minimum=-720, maximum=720),
                                              num("To", "End angle, degrees.", minimum=-720, maximum=1080)],
                              "items": False, "minItems": 2},
                      "center": {"$ref": COMMON + "point", "title": "Centre",
                                 "description": "The centre of the edge [x, y] (default: the middle of the side or "
                                                "arc); it should lie on the edge."},
                      "favor": {"type": ["integer", "null"], "title": "Starting Favor", "minimum": 0, "maximum": 30,
                                "description": "The Favor this player begins the game with, when the scenario gives "
                                               "it other than scenario.starting_favor (none: that; \"Each player "
                                               "begins the game with 3 Favor in their pool.\"). Players starting "
                                               "with different Favor are a handicap: ar-favor warns unless "
                                               "scenario.handicap says so."},
                  }, ["player"], ext=True),
            "oneOf": [{"required": ["side"], "not": {"required": ["arc"]}},
                      {"required": ["arc"], "not": {"required": ["side"]}}],
        },
    }
    props["scenario"] = obj("Scenario", "The game's parameters and the analysis thresholds.", {
        "players": integer("Players", "Number of players (default: the number of deployments).", minimum=1, maximum=8),
        "start_sets": {'type': 'object', 'title': 'Start sets', 'description': 'Which deployments play at each player count: players (a key, "1" to "99") -> the numbers of the deployments that play, one per player. Start numbers are the deployments as the file numbers them (deploy:N is number N). arena validate judges every declared count (--players N: one); a count without a set is a finding.', 'propertyNames': {'pattern': '^[1-9][0-9]?$', 'description': 'a count: a whole number from 1 to 99 without leading zeros, quoted in YAML ("4": [...])'}, 'additionalProperties': {'type': 'array', 'title': 'Deployments', 'description': 'The deployment numbers that play at this count.', 'items': {'type': 'integer', 'minimum': 1, 'maximum': 99, 'title': 'Deployment', 'description': 'A deployment number.'}, 'minItems': 1, 'maxItems': 99}, 'maxProperties': 99},
        "cohort": integer("Cohort", "Models each player deploys, in base contact with their edge (\"Battles of 3 to 8 "
                          "combatants per side are recommended\"; \"We recommend 3v3 for novices and 5v5 to 8v8 for "
                          "seasoned miniature gamers.\"). ar-zone-room fits this many of the largest listed bases side "
                          "by side in each zone. Default 5 (see docs/rules-decisions.md).", minimum=1, maximum=30,
                          default=5),
        "starting_favor": integer("Starting Favor", "The Favor each player begins the game with: \"Each player "
                                  "begins the game with 3 Favor in their pool.\" A deployment's favor gives one "
                                  "player other Favor. Default 3.", minimum=0, maximum=30, default=3),
        "handicap": {"type": "boolean", "title": "Favor handicap", "default": False,
                     "description": "The players' different starting Favor (a deployment's favor) is a deliberate "
                                    "handicap; without it ar-favor warns that they start unequal (\"Each player "
                                    "begins the game with 3 Favor in their pool.\")."},
        "first_player": {"enum": ["roll-off", *range(1, 9)], "title": "First player", "default": "roll-off",
                         "description": "Who goes first: \"At the beginning of a game, both players roll a D6. The "
                                        "one with the higher result gets to decide who will go first. The first "
                                        "player deploys first, and activates first.\" roll-off (the book's rule, "
                                        "the default) or the number of the player who always goes first; "
                                        "ar-first-player weighs a named first player against the zones' walks to "
                                        "the centre."},
        "analysis": obj("Analysis", "What the Arena Rex checks and fairness metrics read.", ANALYSIS),
    })
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://arena-studio.dev/schema/systems/arena-rex.schema.json",
        "title": "Arena Studio arena: Arena Rex",
        "description": "An arena for Arena Rex (playtest v0.2). Coordinates are in inches, x to the right, y up; angles "
                       "in degrees counter-clockwise from +x. Unknown properties are errors except keys starting "
                       "with 'x-'. Ids are unique across the arena (checked by the ruleset layer).",
        "type": "object", "required": ["format", "system", "name"], "properties": props,
        "additionalProperties": False, "patternProperties": EXT,
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date: run python scripts/arenarex_schema.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
