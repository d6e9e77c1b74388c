"""What the export formats ask of a game: its :class:`ExportProfile`.

A game's ruleset names its profile (:attr:`schema.ruleset.Ruleset.exports`, a function that
imports and returns it, so loading a ruleset loads no format code).  The profile holds the
file-level facts (the element lists, which document fields hold each kind's geometry, the
unit) and the hooks where a game differs: kinds placed by position/size/rotation rather than a
shape (:meth:`ExportProfile.pose_shape` / :meth:`~ExportProfile.pose_fields`), each format's
loss report, and the formats it writes its own way (UVTT, Foundry).  The format modules
(:mod:`schema.formats.tiled`, :mod:`~schema.formats.geojson`, :mod:`~schema.formats.uvtt`,
:mod:`~schema.formats.foundry`) call only these; no game is named here.  Grid games'
profiles are :class:`schema.formats.grid_games.GridProfile`.

The kinds' drawing styles and export mappings (``ElementKind.style`` / ``exports`` /
``solid``) come from the ruleset layer (:mod:`schema.ruleset`); this module only holds the
file-level facts, so it has no opinion on colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from schema.formats.base import ExportResult, FormatError
from schema.ruleset import ArenaModel, Ruleset, ruleset, rulesets
from schema.shapes import Shape

Doc = dict[str, Any]


@dataclass(frozen=True)
class ExportProfile:
    """One game's facts and hooks for the export formats (a game subclasses it and overrides
    the hooks it needs; the defaults serve a game of shapes on a table)."""

    system: str
    #: (kind, key of the arena document's list), in file order.
    lists: tuple[tuple[str, str], ...]
    #: Which document fields hold an element's geometry (``bounds`` included).
    geometry: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The name of one coordinate unit (``length``, ``inch``).
    unit: str = "length"
    #: Element kinds placed by position/size/rotation rather than a shape (:meth:`pose_shape`).
    posed: frozenset[str] = field(default_factory=frozenset)
    #: How an import report names what an element kind belongs to (``a car-wars-6e``); empty:
    #: ``a <system>``.
    owner: str = ""

    @property
    def kinds(self) -> tuple[str, ...]:
        return ("bounds",) + tuple(k for k, _ in self.lists)

    def list_key(self, kind: str) -> str:
        return dict(self.lists)[kind]

    def is_point(self, kind: str) -> bool:
        """Is ``kind`` placed at a ``position`` only (a target, a start): a point in other tools?"""
        return tuple(self.geometry.get(kind, ())) == ("position",)

    def is_segment(self, kind: str) -> bool:
        """Is ``kind`` a segment ``from`` - ``to`` (a gate): a two-point line in other tools?"""
        return tuple(self.geometry.get(kind, ())) == ("from", "to")

    @property
    def kind_owner(self) -> str:
        return self.owner or f"a {self.system}"

    @property
    def ruleset(self) -> Ruleset:
        return ruleset(self.system)

    # ------------------------------------------------------------ the document

    def to_document(self, arena: ArenaModel) -> Doc:
        """The canonical document of an arena of this game (its ruleset's ``document``)."""
        return self.ruleset.document(arena)

    def build(self, doc: Doc, source: str) -> ArenaModel:
        """A reassembled document -> a validated arena (every problem located at its JSON
        pointer, as for arena files, naming ``source``)."""
        from schema.io import from_document

        return from_document(doc, source=source)

    def shape_of(self, kind: str, doc: Doc) -> Shape:
        """The shape of any element document with an area (``shape`` or a pose)."""
        if kind in self.posed:
            return self.pose_shape(kind, doc)
        from schema.document import shape_from

        try:
            return shape_from(doc["shape"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise FormatError(f"bad shape {doc.get('shape')!r}: {exc}") from None

    def pose_shape(self, kind: str, doc: Doc) -> Shape:
        """The footprint of an element of a :attr:`posed` kind (its position, size and rotation)."""
        raise FormatError(f"a {kind} of {self.system} is placed by a shape, not a position")

    def pose_fields(self, kind: str, shape: Shape, stored: Doc) -> Doc:
        """The position/size/rotation fields of a :attr:`posed` element drawn as ``shape`` in
        another tool (``stored``: its document as written)."""
        raise FormatError(f"a {kind} of {self.system} is placed by a shape, not a position")

    # ------------------------------------------------------------ each format

    def tiled_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        """What a Tiled map of the arena cannot hold (``items``: the elements as written)."""
        out = []
        circles = [_label(k, d) for k, d in items if isinstance(d.get("shape"), dict) and d["shape"].get("type") == "circle"]
        if circles:
            out.append(f"Tiled has no circles: {', '.join(circles)} are ellipse objects with width = height")
        out.append("no background image: the map has object layers only (export svg or png for a picture)")
        return out

    def geojson_members(self, arena: ArenaModel) -> Doc:
        """The FeatureCollection's foreign members before ``features`` (the plane and its scale)."""
        from schema.document import num

        return {"coordinate_system": f"arena-{self.ruleset.units.plural_name}", "printed_mm": num(units_mm(arena))}

    def geojson_losses(self, arena: ArenaModel, items: list[tuple[str, Doc]]) -> list[str]:
        """What a GeoJSON FeatureCollection of the arena cannot hold."""
        out = [f"coordinates are planar {self.ruleset.units.plural_name} (x right, y up), not longitude/latitude as "
               "RFC 7946 expects"]
        circles = [_label(k, d) for k, d in items if isinstance(d.get("shape"), dict) and d["shape"].get("type") == "circle"]
        if circles:
            out.append(f"GeoJSON has no circles: {', '.join(circles)} are 48-sided polygons (the exact values stay in "
                       "the properties, and a GIS-edited 48-gon comes back as a circle)")
        out.append("the arena's own fields are in the bounds feature's property \"arena\"")
        return out

    def geojson_meta(self, collection: Doc, meta: Doc) -> Doc:
        """The arena's own fields read from a FeatureCollection (``meta``), completed from the
        collection's foreign members where the game keeps some there."""
        return meta

    def uvtt(self, arena: ArenaModel, image_png: bytes | None, px_per_length: int) -> ExportResult:
        """The Universal VTT file of the arena (walls and the rendered image)."""
        raise FormatError(f"uvtt cannot carry {self.system} arenas yet: the game's export profile does not write it")

    def foundry(self, arena: ArenaModel, image_png: bytes | None, px_per_length: int,
                image_name: str | None) -> ExportResult:
        """The Foundry VTT scene of the arena."""
        raise FormatError(f"foundry cannot carry {self.system} arenas yet: the game's export profile does not write it")


def _label(kind: str, doc: Doc) -> str:
    from schema.formats.common import label

    return label(kind, doc)


def exporting_systems() -> tuple[str, ...]:
    """The installed games whose ruleset names an export profile."""
    return tuple(rs.id for rs in rulesets().values() if rs.exports is not None)


def unnamed_system() -> str:
    """The game a foreign file that names none is read as: the default game
    (:func:`schema.ruleset.default_system`) when it exports, else the first game that does."""
    from schema.ruleset import default_system

    systems = exporting_systems()
    if not systems:
        raise FormatError("no installed game can be read from other tools' files")
    first = default_system()
    return first if first in systems else systems[0]


def profile(system: str | None) -> ExportProfile:
    """The profile of a ``system`` (None: the game files that name none are read as,
    :func:`unnamed_system`)."""
    from schema.ruleset import UnknownSystem

    name = system or unnamed_system()
    try:
        rs = ruleset(name)
    except UnknownSystem:
        rs = None
    if rs is None or rs.exports is None:
        raise FormatError(f"the formats cannot carry {name!r} arenas yet; supported: {', '.join(exporting_systems())}")
    return rs.exports()


def profile_of(arena: ArenaModel) -> ExportProfile:
    return profile(arena.system)


def units_mm(arena: Any) -> float:
    """Millimetres per coordinate unit printed 1:1 (a ``length_mm`` of the arena's units, else
    their ``printed_mm``)."""
    u = arena.units
    return float(getattr(u, "length_mm", None) or getattr(u, "printed_mm"))


def shape_of_doc(kind: str, doc: Doc, prof: ExportProfile) -> Shape:
    """The shape of any element document with an area (``shape`` or a pose) of ``prof``'s game."""
    return prof.shape_of(kind, doc)


__all__ = ["ExportProfile", "exporting_systems", "profile", "profile_of", "shape_of_doc", "unnamed_system", "units_mm"]
