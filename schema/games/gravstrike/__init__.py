"""Gravstrike (``system: gravstrike``) on the ruleset layer.

The model, the document functions and the semantic checks are Gravstrike's historical modules
(:mod:`schema.games.gravstrike.model`, :mod:`schema.document`, :mod:`schema.checks`); this module only declares
them as a :class:`~schema.ruleset.Ruleset`, so Gravstrike files load, save and validate exactly
as before the layer existed.

>>> RULESET.id, RULESET.units.symbol, [k.key for k in RULESET.kinds][:3]
('gravstrike', 'L', ['walls', 'checkpoints', 'gates'])
>>> default_arena().bounds.size
(24.0, 24.0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from schema.checks import semantic_problems
from schema.games.gravstrike.document import arena_from, to_document
from schema.games.gravstrike.model import Arena, Rect
from schema.starts import StartSlots
from schema.ruleset import ElementKind, Ruleset, Style, documenter, Units

if TYPE_CHECKING:  # loaded by _exports() when asked for
    from schema.formats.systems import ExportProfile

SYSTEM = "gravstrike"

# The editor's Okabe-Ito colours (editor/render.py), kept so the shared renderer draws
# Gravstrike as the editor always has.
WALL = "#3B3B3B"
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILLION = "#D55E00"
YELLOW = "#F0E442"
SKY = "#56B4E9"
INK = "#1A1A1A"


def default_arena() -> Arena:
    """The arena File -> New makes: a blank 24 x 24 square (a rectangle, so it has resize handles)."""
    return Arena(name="Untitled arena", bounds=Rect((0.0, 0.0), (24.0, 24.0)))


def _items(key: str) -> str:
    return f"/properties/{key}/items"


KINDS: tuple[ElementKind, ...] = (
    ElementKind("walls", "Wall", _items("walls"), "shape", Style(WALL, WALL, 1.0, 0.5, None, 10),
                {"tiled": "wall", "geojson": "wall", "uvtt": "wall", "foundry": "wall", "svg": "wall"}, solid=True, shortcut="W"),
    ElementKind("checkpoints", "Checkpoint", _items("checkpoints"), "shape", Style(BLUE, INK, 0.35, 0.4, "id", 20),
                {"tiled": "region", "geojson": "region", "uvtt": "omit", "foundry": "region", "svg": "region"}, shortcut="C"),
    ElementKind("gates", "Gate", _items("gates"), "segment", Style(ORANGE, INK, 1.0, 0.6, "id", 25),
                {"tiled": "object", "geojson": "object", "uvtt": "omit", "foundry": "region", "svg": "object"}, shortcut="G"),
    ElementKind("acceleration_fields", "Acceleration field", _items("acceleration_fields"), "shape",
                Style(GREEN, GREEN, 0.22, 0.4, "id", 5, "diagonal"),
                {"tiled": "region", "geojson": "region", "uvtt": "omit", "foundry": "region", "svg": "region"}, id_prefix="F", shortcut="A"),
    ElementKind("exclusion_fields", "Exclusion field", _items("exclusion_fields"), "shape",
                Style(VERMILLION, VERMILLION, 0.1, 0.5, "id", 6, "diagonal"),
                {"tiled": "region", "geojson": "region", "uvtt": "omit", "foundry": "region", "svg": "region"}, id_prefix="X", shortcut="X"),
    ElementKind("static_targets", "Static target", _items("static_targets"), "point", Style(YELLOW, INK, 1.0, 0.4, "id", 30),
                {"tiled": "object", "geojson": "object", "uvtt": "omit", "foundry": "object", "svg": "object"}, id_prefix="T", shortcut="T"),
    ElementKind("start_positions", "Start position", _items("start_positions"), "pose", Style(SKY, INK, 0.86, 0.4, "player", 40),
                {"tiled": "object", "geojson": "object", "uvtt": "omit", "foundry": "object", "svg": "object"}, shortcut="P"),
)

def _exports() -> ExportProfile:
    """The game's export profile (:mod:`schema.games.gravstrike.exports`), imported when an export
    or an import asks for it."""
    from schema.games.gravstrike.exports import EXPORTS

    return EXPORTS


#: The start positions as start sets see them: numbered by their player (``start:N``).
STARTS = StartSlots("start_positions", "player")

RULESET = Ruleset(
    id=SYSTEM,
    game="Gravstrike",
    edition="open playtest rules v4.0",
    book="000_bb67baed89c8981a.txt",
    units=Units("length", "L", 40.0),
    schema="schema.games.gravstrike:gravstrike.schema.json",
    kinds=KINDS,
    build=arena_from,
    document=documenter(Arena, to_document),
    default_arena=default_arena,
    exports=_exports,
    default=True,
    semantic=semantic_problems,
    starts=lambda: STARTS,
)
