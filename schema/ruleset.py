"""The ruleset layer's description of one game: plain data, no Qt, no engine.

``system:`` in an arena file selects a :class:`Ruleset`.  Rulesets register through the
entry-point group ``arena_studio.rulesets`` (the object the entry point names is a ``Ruleset``),
the same way a third party adds one.  This module holds only what the file format needs (the
model and its JSON Schema, units, element kinds, how each kind is drawn and exported); the
game's movement model and checks are named by dotted paths (``"pkg.module"`` or
``"pkg.module:attr"``) that the upper layers import: validators -> engine -> schema stays one way.
The game's editor registers on its own, in ``arena_studio.editors`` (:class:`editor.game.EditorGame`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module, resources
from importlib.metadata import EntryPoints
from importlib.metadata import entry_points as _scan_entry_points
from typing import Any, Literal

GROUP = "arena_studio.rulesets"

#: The version of the arena file format, shared by every game (``format:`` in a file).
FORMAT = "arena-studio/1"

#: (sys.path, every installed entry point) of the last scan (``SelectableGroups`` on 3.11).
_ENTRY_POINTS: tuple[tuple[str, ...], Any] | None = None


def entry_points(*, group: str) -> EntryPoints:
    """The installed entry points of ``group``, as :func:`importlib.metadata.entry_points`
    gives them, from one scan of the installed distributions per process (per ``sys.path``: a
    path added later, as a test installing a plug-in does, is scanned again).  Every scan reads
    each distribution's metadata (a hundred of them in the studio's environment); ``arena
    validate`` asks for the rulesets and the validators five or six times in a run."""
    global _ENTRY_POINTS
    key = tuple(sys.path)
    if _ENTRY_POINTS is None or _ENTRY_POINTS[0] != key:
        _ENTRY_POINTS = (key, _scan_entry_points())
    found: EntryPoints = _ENTRY_POINTS[1].select(group=group)
    return found

#: How an element kind is placed on the table: ``shape`` (a ``shape`` field: circle, rect,
#: polygon or polyline), ``pose`` (``position`` and ``facing``), ``point`` (``position`` only),
#: ``segment`` (``from`` and ``to``, e.g. a gate), ``cell``/``cells`` (grid cells), ``bounds``
#: (the arena's outline).
Placement = Literal["shape", "pose", "point", "segment", "cell", "cells", "bounds"]

#: How a kind maps to a foreign format's objects; ``omit`` means the format cannot hold it (the
#: export's loss report says so).
ExportAs = Literal["wall", "region", "object", "token", "light", "omit"]


@dataclass(frozen=True)
class Units:
    """The unit of coordinates: its name, symbol, and millimetres per unit printed 1:1;
    ``plural`` its plural name when English does not make it by adding ``-es`` (after s, x, z,
    ch or sh) or ``-s`` (``"foot"`` -> ``plural="feet"``)."""

    name: str
    symbol: str
    printed_mm: float
    plural: str | None = None

    @property
    def plural_name(self) -> str:
        """``inches``, ``hexes``, ``squares``, ``lengths``.

        >>> Units("hex", "hex", 19.05).plural_name, Units("foot", "ft", 304.8, "feet").plural_name
        ('hexes', 'feet')
        """
        if self.plural:
            return self.plural
        return self.name + ("es" if self.name.endswith(("s", "x", "z", "ch", "sh")) else "s")

    def name_for(self, n: float) -> str:
        """The name to print after the number ``n``: singular for exactly one, else plural
        (``1 inch``, ``0.5 inches``, ``9 hexes``)."""
        return self.name if n == 1 else self.plural_name

    def count(self, n: float) -> str:
        """``n`` and its unit's name: ``1 hex``, ``9 hexes``, ``2.5 inches``."""
        return f"{n:g} {self.name_for(n)}"


@dataclass(frozen=True)
class Style:
    """How the shared renderer and the editor's canvas draw a kind (colours as ``#rrggbb``)."""

    fill: str
    stroke: str = "#000000"
    fill_opacity: float = 1.0
    stroke_mm: float = 0.5
    #: A field of the element to print on it (``id``, ``number``, ``player``...), or None.
    label: str | None = "id"
    #: Drawing order: lower first.
    z: int = 0
    #: An optional hatch: ``diagonal``, ``cross`` or ``dots``.
    pattern: str | None = None


@dataclass(frozen=True)
class ElementKind:
    """One kind of element: a top-level list of the arena file (``key``), one item of which the
    game's schema describes at ``schema_def`` (a JSON pointer such as ``/$defs/obstacle``; the
    editor's inspector builds its fields from that schema's titles, descriptions, enums and
    defaults)."""

    key: str
    title: str
    schema_def: str
    placement: Placement
    style: Style
    #: Format name (``tiled``, ``geojson``, ``uvtt``, ``foundry``, ``svg``) -> how it exports;
    #: formats not listed export the kind as ``object`` (``region`` for shapes).
    exports: Mapping[str, ExportAs] = field(default_factory=dict)
    #: Does it block movement and sight as a wall does (exports as line-of-sight walls)?
    solid: bool = False


@dataclass(frozen=True)
class Ruleset:
    """A game the studio serves.  ``build``/``document``/``default_arena`` are the model's pure
    functions (a validated document -> typed arena; the canonical document; the "new arena");
    ``engine`` and ``checks`` are dotted paths the upper layers import."""

    id: str
    game: str
    edition: str
    #: The rulebook this ruleset reads (file under ``shared/seeds``), for citations.
    book: str
    units: Units
    #: The JSON Schema of a whole arena file of this game: a resource ``package:file``.
    schema: str
    kinds: tuple[ElementKind, ...]
    build: Callable[[dict[str, Any]], Any]
    document: Callable[[Any], dict[str, Any]]
    default_arena: Callable[[], Any]
    #: Movement model and travel metrics (``engine.carwars``); the validators' runner for the
    #: game (``module:function``).  (The game's editor is its ``arena_studio.editors`` entry
    #: point, :class:`editor.game.EditorGame`.)
    engine: str = ""
    checks: str = ""
    #: ``square`` or ``hex`` for grid games, None for free placement on a table.
    grid: Literal["square", "hex"] | None = None
    #: The package of the game's own registered validators (``validators.games.carwars``), which
    #: hold validators for this game only: the registry does not import them for other games'
    #: arenas (a cold ``arena validate`` of a pit need not load Car Wars' sight maths).  Empty:
    #: the package of :attr:`checks`' module (``validators.games.carwars.run`` -> ``validators.games.carwars``)
    #: unless that is a top-level package.
    validators: str = ""
    #: Checks the JSON Schema cannot express (unique ids, simple polygons...): a document that
    #: passed the game's schema (its numbers finite and within the ranges the schema states) ->
    #: ``(JSON pointer, message)`` pairs, located like schema errors.  None when the game has none.
    semantic: Callable[[Any], list[tuple[str, str]]] | None = None
    #: Tabletop robustness (``module:OBJECT``): the game's placement-error hook - its
    #: tolerance, how it misplaces pieces and its headline metrics
    #: (:class:`validators.robustness.Hook`).  Empty: the game has none yet.
    robustness: str = ""
    #: Why the game has no placement error at all (said instead of "not available yet"), e.g.
    #: pieces that snap to a grid's cells.
    robustness_absent: str = ""
    #: Proposed fixes (``module:OBJECT``): the game's balance hook - what may move, the moves
    #: that may remove each finding and how a move carries to the symmetric images
    #: (:class:`validators.balance.Hook`).  Empty: the game has none yet.
    balance: str = ""
    #: Arena generation (``module:OBJECT``): the game's generator hook - its plan of pieces,
    #: genomes, the arena a genome builds, cheap checks and design quality
    #: (:class:`validators.generate.Hook`).  Empty: the game has none yet.
    generator: str = ""

    @property
    def validator_package(self) -> str | None:
        """:attr:`validators`, or the package of the runner in :attr:`checks` (None if neither
        names a package of its own)."""
        if self.validators:
            return self.validators
        module = self.checks.partition(":")[0]
        package = module.rpartition(".")[0]
        return package if "." in package else None

    def kind(self, key: str) -> ElementKind:
        for k in self.kinds:
            if k.key == key:
                return k
        raise KeyError(key)

    def json_schema(self) -> dict[str, Any]:
        """The game's JSON Schema document."""
        return load_schema_resource(self.schema)

    def kind_schema(self, key: str) -> dict[str, Any]:
        """The JSON Schema of one element of ``key`` (``$ref``s inside still relative to
        :meth:`json_schema`)."""
        node: Any = self.json_schema()
        for part in self.kind(key).schema_def.strip("/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        assert isinstance(node, dict)
        return node


@lru_cache(maxsize=None)
def load_schema_resource(ref: str) -> dict[str, Any]:
    """A JSON document from a package resource written ``package:path/in/package``."""
    package, _, path = ref.partition(":")
    text = resources.files(package).joinpath(path).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def import_path(path: str) -> Any:
    """The object a dotted ``module`` or ``module:attribute`` path names."""
    module, _, attr = path.partition(":")
    obj: Any = import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


class UnknownSystem(KeyError):
    """An arena's ``system`` that no installed ruleset provides."""


#: The games shipped with the studio (also registered in pyproject.toml's entry points; listed
#: here so a source checkout that was never ``pip install``-ed still knows them).
BUILTIN: Mapping[str, str] = {
    "arena-rex": "schema.games.arenarex:RULESET",
    "car-wars-6e": "schema.games.carwars:RULESET",
    "glider-pit-gladiators": "schema.games.gliderpit:RULESET",
    "gravstrike": "schema.games.gravstrike:RULESET",
    "mothership-grid": "schema.games.mothership:RULESET",
}


@lru_cache(maxsize=1)
def rulesets() -> Mapping[str, Ruleset]:
    """Installed rulesets by id (loaded once from the entry points, plus the built-in games)."""
    found: dict[str, Ruleset] = {}
    for ep in entry_points(group=GROUP):
        obj = ep.load()
        if not isinstance(obj, Ruleset):
            raise TypeError(f"entry point {ep.name!r} in {GROUP} is not a Ruleset: {obj!r}")
        if obj.id != ep.name:
            raise ValueError(f"entry point {ep.name!r} loads the ruleset {obj.id!r}")
        found[obj.id] = obj
    for ident, path in BUILTIN.items():
        if ident not in found:
            found[ident] = import_path(path)
    return dict(sorted(found.items()))


def ruleset(system: str) -> Ruleset:
    """The ruleset for ``system``; :class:`UnknownSystem` names the installed ones.

    Until something asks for every ruleset (:func:`rulesets`), only the entry point (or
    built-in) named ``system`` is loaded: a command reading one arena imports its own game's
    package, not every game's."""
    cache_info = getattr(rulesets, "cache_info", None)  # (a stand-in for rulesets is always asked)
    if cache_info is not None and cache_info().currsize == 0:
        one = _only(system)
        if one is not None:
            return one
    try:
        return rulesets()[system]
    except KeyError:
        raise UnknownSystem(f"unknown system {system!r}; installed: {', '.join(rulesets())}") from None


def _only(system: str) -> Ruleset | None:
    """The ruleset ``system`` loaded alone, as :func:`rulesets` would load it (an installed entry
    point first, then the built-in); None when it is neither, or not alone to be had."""
    named = [ep for ep in entry_points(group=GROUP) if ep.name == system]
    if len(named) > 1:
        return None  # two installations claim the id: rulesets() decides (the last one)
    obj = named[0].load() if named else import_path(BUILTIN[system]) if system in BUILTIN else None
    if obj is None or not isinstance(obj, Ruleset) or obj.id != system:
        return None  # rulesets() raises the error that says what is wrong
    return obj


def ruleset_of(arena: Any) -> Ruleset:
    """The ruleset of a typed arena (by its ``system``)."""
    return ruleset(str(arena.system))
