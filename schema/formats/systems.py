"""What the export formats need to know about each game (``system:``): the element lists, which
document fields hold each kind's geometry, the canonical document, and how a reassembled
document becomes a validated arena again.

Gravstrike's profile is the one the formats were written for; Car Wars sixth edition adds
obstacles, terrain, hazards, the numbered cards and tokens.  Cards and tokens are placed by
``position`` / ``size`` / ``rotation`` (a card is a rectangle, a barrel a disc, a barrier or
wreck a rectangle): :func:`pose_shape` turns those fields into the shape other tools draw, and
:func:`pose_fields` turns a shape drawn (or moved) in another tool back into them.

The kinds' drawing styles and export mappings (``ElementKind.style`` / ``exports`` /
``solid``) come from the ruleset layer (:mod:`schema.ruleset`); this module only holds the
file-level facts, so it has no opinion on colours.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from schema.document import num, shape_doc, shape_from
from schema.formats.base import FormatError
from schema.shapes import Circle, Rect, Shape

Doc = dict[str, Any]


@dataclass(frozen=True)
class Profile:
    """One game's file-level facts for the formats."""

    system: str
    #: (kind, key of the arena document's list), in file order.
    lists: tuple[tuple[str, str], ...]
    #: Which document fields hold an element's geometry (``bounds`` included).
    geometry: dict[str, tuple[str, ...]]
    to_document: Callable[[Any], Doc]
    #: A reassembled document -> a validated arena (located errors naming ``source``).
    build: Callable[[Doc, str], Any]
    #: The printed size of one coordinate unit and its name (``length``, ``inch``).
    unit: str = "length"
    #: Element kinds placed by position/size/rotation rather than a shape.
    posed: frozenset[str] = field(default_factory=frozenset)

    @property
    def kinds(self) -> tuple[str, ...]:
        return ("bounds",) + tuple(k for k, _ in self.lists)

    def list_key(self, kind: str) -> str:
        return dict(self.lists)[kind]


# ------------------------------------------------------------------ Gravstrike


def _gravstrike_build(doc: Doc, source: str) -> Any:
    from schema.io import from_document

    return from_document(doc, source=source)


def _gravstrike_document(arena: Any) -> Doc:
    from schema.games.gravstrike.document import to_document

    return to_document(arena)


GRAVSTRIKE = Profile(
    system="gravstrike",
    lists=(("wall", "walls"), ("checkpoint", "checkpoints"), ("gate", "gates"),
           ("acceleration_field", "acceleration_fields"), ("exclusion_field", "exclusion_fields"),
           ("static_target", "static_targets"), ("start_position", "start_positions")),
    geometry={"bounds": ("shape",), "wall": ("shape",), "checkpoint": ("shape",), "acceleration_field": ("shape",),
              "exclusion_field": ("shape",), "gate": ("from", "to"), "static_target": ("position",),
              "start_position": ("position",)},
    to_document=_gravstrike_document,
    build=_gravstrike_build,
)


# ------------------------------------------------------------------ Car Wars sixth edition


def _carwars_build(doc: Doc, source: str) -> Any:
    """Validate (every problem located at its JSON pointer, as for arena files) and build."""
    from schema.io import from_document

    return from_document(doc, source=source)


def _carwars_document(arena: Any) -> Doc:
    from schema.games import carwars as cw

    return cw.to_document(arena)


CARWARS = Profile(
    system="car-wars-6e",
    lists=(("wall", "walls"), ("obstacle", "obstacles"), ("terrain", "terrain"), ("hazard", "hazards"),
           ("card", "cards"), ("token", "tokens"), ("start_position", "start_positions")),
    geometry={"bounds": ("shape",), "wall": ("shape",), "obstacle": ("shape",), "terrain": ("shape",),
              "hazard": ("shape",), "card": ("position", "size", "rotation"),
              "token": ("position", "size", "rotation"), "start_position": ("position",)},
    to_document=_carwars_document,
    build=_carwars_build,
    unit="inch",
    posed=frozenset({"card", "token"}),
)

# ------------------------------------------------------------------ Arena Rex


def _arenarex_document(arena: Any) -> Doc:
    from schema.games import arenarex as ar

    return ar.to_document(arena)


#: Arena Rex: pits, spikes and terrain hazards are shapes; the deployment edges (a side or arc and
#: its centre, not a shape) travel with the arena's own fields, so they come back exactly.
ARENAREX = Profile(
    system="arena-rex",
    lists=(("pit", "pits"), ("spike", "spikes"), ("hazard", "hazards")),
    geometry={"bounds": ("shape",), "pit": ("shape",), "spike": ("shape",), "hazard": ("shape",)},
    to_document=_arenarex_document,
    build=_carwars_build,
    unit="inch",
)

PROFILES: dict[str, Profile] = {p.system: p for p in (GRAVSTRIKE, CARWARS, ARENAREX)}


def profile(system: str | None) -> Profile:
    """The profile of a ``system`` (None: Gravstrike, the default of arena files)."""
    try:
        return PROFILES[system or "gravstrike"]
    except KeyError:
        raise FormatError(f"the formats cannot carry {system!r} arenas yet; supported: {', '.join(PROFILES)}") from None


def profile_of(arena: Any) -> Profile:
    return profile(getattr(arena, "system", None))


def units_mm(arena: Any) -> float:
    """Millimetres per coordinate unit printed 1:1 (Gravstrike ``length_mm``, others ``printed_mm``)."""
    u = arena.units
    return float(getattr(u, "length_mm", None) or getattr(u, "printed_mm"))


# ------------------------------------------------------------------ cards and tokens


def pose_shape(kind: str, doc: Doc) -> Shape:
    """The footprint of a card or token document: a rectangle (a barrel: a disc of diameter
    ``size[0]``).  Missing size/rotation take the model's defaults."""
    from schema.games.carwars import CARD_SIZE, TOKEN_DEFAULTS

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


def pose_fields(kind: str, shape: Shape, stored: Doc) -> Doc:
    """``position``/``size``/``rotation`` of a card or token drawn as ``shape`` in another tool."""
    if isinstance(shape, Circle):
        d = num(round(2 * shape.radius, 6))
        return {"position": [num(shape.center[0]), num(shape.center[1])], "size": [d, d],
                "rotation": stored.get("rotation", 0)}
    if isinstance(shape, Rect):
        return {"position": [num(shape.center[0]), num(shape.center[1])],
                "size": [num(shape.size[0]), num(shape.size[1])], "rotation": num(shape.rotation)}
    raise FormatError(f"a {kind} is a rectangle{' or a circle' if kind == 'token' else ''}, not a {type(shape).__name__.lower()}")


def shape_of_doc(kind: str, doc: Doc) -> Shape:
    """The shape of any element document with an area (``shape`` or a card/token pose)."""
    if kind in ("card", "token"):
        return pose_shape(kind, doc)
    try:
        return shape_from(doc["shape"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise FormatError(f"bad shape {doc.get('shape')!r}: {exc}") from None


__all__ = ["ARENAREX", "CARWARS", "GRAVSTRIKE", "PROFILES", "Profile", "pose_fields", "pose_shape", "profile",
           "profile_of", "shape_doc", "shape_of_doc", "units_mm"]
