"""Car Wars sixth edition (``system: car-wars-6e``) in the other tools' formats: its export
profile (:class:`~schema.formats.pieces.PiecesProfile`).

Coordinates are inches; the VTT grid is one inch per square and Foundry's ``grid.units`` is
``in``.  Obstacles, tokens and walls block by their cover and weight: full cover blocks
sightlines ("If a sightline cannot be drawn without crossing a full-cover obstacle, the
attacker cannot attack that target"); touching a heavy obstacle or a wall is a collision, light
ones are pushed, drive-thru ones driven over.  Cards and tokens are placed by ``position`` /
``size`` / ``rotation`` (a card is a rectangle, a barrel a disc, a barrier or wreck a
rectangle): :meth:`CarWarsExports.pose_shape` turns those fields into the shape other tools
draw, and :meth:`CarWarsExports.pose_fields` turns a shape drawn (or moved) in another tool
back into them.  Terrain, hazards and the numbered cards are Foundry regions, start positions
map notes.
"""

from __future__ import annotations

from dataclasses import dataclass

from schema.document import num
from schema.formats.base import FormatError
from schema.formats.pieces import PiecesProfile
from schema.formats.systems import Doc
from schema.games.carwars import CARD_SIZE, SYSTEM, TOKEN_DEFAULTS, CarWarsArena
from schema.ruleset import ArenaModel
from schema.shapes import Circle, Rect, Shape


@dataclass(frozen=True)
class CarWarsExports(PiecesProfile):
    """Car Wars' profile: posed cards and tokens, and its own loss sentences."""

    def pose_shape(self, kind: str, doc: Doc) -> Shape:
        """The footprint of a card or token document: a rectangle (a barrel: a disc of diameter
        ``size[0]``).  Missing size/rotation take the model's defaults."""
        try:
            x, y = (float(v) for v in doc["position"])
            token_kind = str(doc.get("kind", doc.get("token_kind")))  # GeoJSON renames it token_kind
            if kind == "token":
                default = TOKEN_DEFAULTS.get(token_kind, ((1.0, 1.0),))[0]
            else:
                default = CARD_SIZE
            w, h = (float(v) for v in doc.get("size", default))
            rot = float(doc.get("rotation", 0.0))
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"bad position/size/rotation: {exc}") from None
        if kind == "token" and token_kind == "barrel":
            return Circle((x, y), w / 2.0)
        return Rect((x, y), (w, h), rot)

    def pose_fields(self, kind: str, shape: Shape, stored: Doc) -> Doc:
        """``position``/``size``/``rotation`` of a card or token drawn as ``shape`` in another tool."""
        if isinstance(shape, Circle):
            d = num(round(2 * shape.radius, 6))
            return {"position": [num(shape.center[0]), num(shape.center[1])], "size": [d, d],
                    "rotation": stored.get("rotation", 0)}
        if isinstance(shape, Rect):
            return {"position": [num(shape.center[0]), num(shape.center[1])],
                    "size": [num(shape.size[0]), num(shape.size[1])], "rotation": num(shape.rotation)}
        raise FormatError(f"a {kind} is a rectangle{' or a circle' if kind == 'token' else ''}, not a "
                          f"{type(shape).__name__.lower()}")

    def common_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        if _arena(arena).start_positions:
            return ["start facings are properties only (no arrows); the turning key each car starts against is not "
                    "an element (the editor and the render draw it from the arena edge)"]
        return []

    def region_name(self, kind: str, doc: Doc) -> str:
        if kind == "terrain":
            return f"{doc['id']} (terrain level {doc.get('level', 1)})"
        if kind == "hazard":
            return f"{doc['id']} ({doc.get('name') or 'hazard'}, {doc.get('dice', 0)} dice)"
        if kind == "card":
            owner = f", player {doc['owner']}'s" if doc.get("owner") is not None else ""
            return f"card {doc['number']} ({doc.get('role', 'checkpoint')}{owner})"
        if kind == "token":
            return f"{doc.get('kind', 'token')} {doc['id']} ({doc.get('cover')} cover, {doc.get('weight')})"
        return str(doc.get("id", kind))

    def foundry_notes(self, arena: ArenaModel) -> list[str]:
        a = _arena(arena)
        out = []
        if a.terrain or a.cards or a.hazards:
            out.append("terrain levels, hazard dice and effects, and card roles are region names and flags only "
                       "(no Foundry behaviour is attached)")
        if a.start_positions:
            out.append("start positions are map notes, not tokens (no car, facing or turning key shown)")
        return out


def _arena(arena: ArenaModel) -> CarWarsArena:
    if not isinstance(arena, CarWarsArena):
        raise TypeError(f"a Car Wars arena expected, got {type(arena).__name__}")
    return arena


EXPORTS = CarWarsExports(
    system=SYSTEM,
    lists=(("wall", "walls"), ("obstacle", "obstacles"), ("terrain", "terrain"), ("hazard", "hazards"),
           ("card", "cards"), ("token", "tokens"), ("start_position", "start_positions")),
    geometry={"bounds": ("shape",), "wall": ("shape",), "obstacle": ("shape",), "terrain": ("shape",),
              "hazard": ("shape",), "card": ("position", "size", "rotation"),
              "token": ("position", "size", "rotation"), "start_position": ("position",)},
    unit="inch",
    posed=frozenset({"card", "token"}),
    own_fields="vehicle, turning key, scenario, symmetry",
    tiled_properties="cover, weight, durability, terrain levels, hazard dice and card roles are object properties only: "
                     "Tiled draws no icons",
    uvtt_dropped="weight, durability, face up, vehicle, turning key, scenario and symmetry are dropped",
    foundry_flags_only="durability, face up, vehicle, turning key, scenario and symmetry are in flags only",
    uvtt_omitted=(("terrain", "terrain levels"), ("hazards", "hazard cards (dice, effects)"),
                  ("cards", "numbered cards"), ("tokens", "tokens (barrels, barriers, wrecks)"),
                  ("start_positions", "start positions and facings")),
    foundry_noted=(("tokens", "tokens (barrels, barriers, wrecks)"), ("cards", "numbered cards")),
    weighted=frozenset({"obstacle", "token"}),
    colours={"terrain": "#8c6d31", "hazard": "#d55e00", "card": "#0072b2", "obstacle": "#6b6b6b", "token": "#cc79a7"},
)

__all__ = ["EXPORTS", "CarWarsExports"]
