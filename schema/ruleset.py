"""The ruleset layer's description of one game: plain data, no Qt, no engine.

``system:`` in an arena file selects a :class:`Ruleset`.  Rulesets register through the
entry-point group ``arena_studio.rulesets`` (the object the entry point names is a ``Ruleset``),
the same way a third party adds one.  This module holds only what the file format needs (the
model and its JSON Schema, units, element kinds, how each kind is drawn and exported).  The
game's analysis registers in its own group (``arena_studio.analyses``: :mod:`validators.game`),
its editor in ``arena_studio.editors`` (:class:`editor.game.EditorGame`): validators -> engine ->
schema stays one way.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, reduce
from importlib import import_module, resources
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:  # the formats import this module; the profile is loaded when asked for
    from schema.formats.systems import ExportProfile
    from schema.starts import StartSlots

GROUP = "arena_studio.rulesets"

#: The version of the arena file format, shared by every game (``format:`` in a file).
FORMAT = "arena-studio/1"

@dataclass(frozen=True)
class EntryPoint:
    """An installed entry point: what :class:`importlib.metadata.EntryPoint` gives (``name``,
    ``value`` as ``module:attr``, ``group``, :meth:`load`), read by :func:`entry_points`."""

    name: str
    value: str
    group: str

    #: importlib.metadata's pattern of a value: ``module``, ``module:attr.attr``, ``[extras]``.
    PATTERN = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")

    def load(self) -> Any:
        """The object the value names (its module imported), as importlib.metadata loads it."""
        match = self.PATTERN.match(self.value)
        if match is None:
            raise ValueError(f"entry point {self.name!r} in {self.group}: {self.value!r} is not module:attribute")
        module = import_module(match.group("module"))
        return reduce(getattr, filter(None, (match.group("attr") or "").split(".")), module)


#: (sys.path, every installed entry point by group) of the last scan.
_ENTRY_POINTS: tuple[tuple[str, ...], dict[str, tuple[EntryPoint, ...]]] | None = None


def entry_points(*, group: str) -> tuple[EntryPoint, ...]:
    """The installed entry points of ``group``, in the order :func:`importlib.metadata.entry_points`
    gives them, from one scan of the installed distributions per process (per ``sys.path``: a
    path added later, as a test installing a plug-in does, is scanned again).  Every scan reads
    each distribution's ``entry_points.txt`` (a hundred of them in the studio's environment);
    ``arena validate`` asks for the rulesets, the analyses and the validators seventy times in a
    run.  The scan is :func:`_scan` (importlib.metadata's own, with its import, costs about a
    tenth of the interpreter's start-up floor: bench/startup.py)."""
    global _ENTRY_POINTS
    key = tuple(sys.path)
    if _ENTRY_POINTS is None or _ENTRY_POINTS[0] != key:
        by_group: dict[str, list[EntryPoint]] = {}
        for ep in _scan():
            by_group.setdefault(ep.group, []).append(ep)
        _ENTRY_POINTS = (key, {g: tuple(eps) for g, eps in by_group.items()})
    return _ENTRY_POINTS[1].get(group, ())


def _scan() -> list[EntryPoint]:
    """Every installed entry point, as ``importlib.metadata.entry_points()`` finds them, without
    importing importlib.metadata (zipfile, email, csv...): each ``sys.path`` directory's
    ``*.dist-info`` and ``*.egg-info`` folders in listing order, one distribution per normalised
    name (the first on the path), each folder's ``entry_points.txt`` read as importlib.metadata
    reads it.  Where the path holds what only importlib.metadata reads (a zip file, an ``.egg``,
    a metadata folder whose suffix is not lower-case) or another finder discovers
    distributions, importlib.metadata's own scan is used.  ``tests/ruleset/test_entry_point_scan.py``
    compares both."""
    if any(getattr(f, "find_distributions", None) is not None and f.__name__ != "PathFinder"
           for f in map(_finder_class, sys.meta_path)):
        return _scan_importlib()
    found: list[EntryPoint] = []
    seen: set[str] = set()
    for root in sys.path:
        if root.lower().endswith(".egg") or os.path.isfile(root or "."):
            return _scan_importlib()
        try:
            children = os.listdir(root or ".")
        except OSError:
            continue
        infos: dict[str, list[str]] = {}
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                if not child.endswith((".dist-info", ".egg-info")):
                    return _scan_importlib()  # importlib.metadata names it from its METADATA
                infos.setdefault(_normalize(low.rpartition(".")[0].partition("-")[0]), []).append(child)
        for name, folders in infos.items():  # importlib.metadata's order: by name, then as listed
            for folder in folders:
                if name in seen:
                    continue
                seen.add(name)
                found += _read_entry_points(os.path.join(root, folder, "entry_points.txt"))
    return found


def _finder_class(finder: Any) -> Any:
    return finder if isinstance(finder, type) else type(finder)


def _normalize(name: str) -> str:
    """importlib.metadata's ``Prepared.normalize``: PEP 503, dashes as underscores."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _read_entry_points(path: str) -> list[EntryPoint]:
    """The entry points of one ``entry_points.txt`` (none when it cannot be read), parsed as
    importlib.metadata's ``Sectioned``: stripped lines, ``#`` comments, ``[group]`` headers,
    ``name = value``."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError):
        return []
    out: list[EntryPoint] = []
    group: str | None = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line.strip("[]")
            continue
        if group is not None:
            name, _, value = line.partition("=")
            out.append(EntryPoint(name.strip(), value.strip(), group))
    return out


def _scan_importlib() -> list[EntryPoint]:
    from importlib.metadata import entry_points as scan

    found = scan()
    return [EntryPoint(ep.name, ep.value, ep.group) for group in sorted(found.groups) for ep in found.select(group=group)]


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
    #: A ``pose`` kind's pieces stand on round bases this wide (diameter, in the ruleset's
    #: units): the shared renderer draws each as that disc with its facing, unless the arena
    #: outlines it itself (``element_shape``).  None: no base (an arrow marks the position and
    #: facing).
    base: float | None = None
    #: The letters before the number of a new element's id (``W`` -> ``W1``, ``W2``...).  None:
    #: the key's first letter, upper-case.  A kind named by its player has none.
    id_prefix: str | None = None
    #: The key that picks the kind's drawing tool in the editor's palette.  None: the first letter
    #: of its title no other tool of the palette has.
    shortcut: str | None = None


@runtime_checkable
class ArenaModel(Protocol):
    """What shared code reads of any game's typed arena (the object a :class:`Ruleset`'s
    ``build`` returns): the file's header fields and its elements.  Everything else (bounds, elements, units,
    symmetry) is the game's own and is read through the game's hooks (its ``document``, its
    export profile...).  Each game's arena is a frozen dataclass; these are its read-only
    fields."""

    @property
    def system(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str | None: ...
    @property
    def author(self) -> str | None: ...
    @property
    def license(self) -> str | None: ...
    @property
    def tags(self) -> tuple[str, ...]: ...

    def elements(self) -> tuple[object, ...]:
        """Every element of the arena, in file order."""
        ...


#: A document: the JSON object of an arena file (or of one element of it).
Document = dict[str, Any]
_A = TypeVar("_A", bound=ArenaModel)


def documenter(model: type[_A], document: Callable[[_A], Document]) -> Callable[[ArenaModel], Document]:
    """A game's ``document`` function as a :class:`Ruleset` takes it (any arena in): an arena of
    ``model`` is written by ``document``; another game's arena is refused with a
    :class:`TypeError` naming both (a caller that asked the wrong ruleset)."""

    def write(arena: ArenaModel) -> Document:
        if not isinstance(arena, model):
            raise TypeError(f"{model.__name__} expected, got {type(arena).__name__} (system {arena.system!r})")
        return document(arena)

    write.__name__ = write.__qualname__ = getattr(document, "__name__", "document")
    write.__doc__ = document.__doc__
    return write


@dataclass(frozen=True)
class Ruleset:
    """A game the studio serves.  ``build``/``document``/``default_arena`` are the model's pure
    functions (a validated document -> typed arena; the canonical document; the "new arena");
    What the validators and the apps ask of a game (its checks runner, travel, robustness,
    fixes, generator) is its analysis (:class:`validators.game.GameAnalysis`, entry-point group
    ``arena_studio.analyses``); what the editor asks, its :class:`editor.game.EditorGame`
    (``arena_studio.editors``)."""

    id: str
    game: str
    edition: str
    #: The rulebook this ruleset reads (file under ``shared/seeds``), for citations.
    book: str
    units: Units
    #: The JSON Schema of a whole arena file of this game: a resource ``package:file``.
    schema: str
    kinds: tuple[ElementKind, ...]
    build: Callable[[Document], ArenaModel]
    #: The canonical document of an arena of this game (wrap a function of the game's own arena
    #: type with :func:`documenter`).
    document: Callable[[ArenaModel], Document]
    default_arena: Callable[[], ArenaModel]
    #: ``square`` or ``hex`` for grid games, None for free placement on a table.
    grid: Literal["square", "hex"] | None = None
    #: The game's export profile (what Tiled, GeoJSON, UVTT and Foundry exports ask of the
    #: game: :class:`schema.formats.systems.ExportProfile`, for a grid game
    #: :class:`schema.formats.grid_games.GridProfile`), as a function that imports and returns
    #: it, so loading the ruleset loads no format code.  None: no export to other tools.
    exports: Callable[[], ExportProfile] | None = None
    #: The studio's first game: what a file or request that names no game is read as (files
    #: of other tools imported without ``--game``, ``GET /schema``).  At most one installed
    #: ruleset says so (:func:`default_system`).
    default: bool = False
    #: Checks the JSON Schema cannot express (unique ids, simple polygons...): a document that
    #: passed the game's schema (its numbers finite and within the ranges the schema states) ->
    #: ``(JSON pointer, message)`` pairs, located like schema errors.  None when the game has none.
    semantic: Callable[[Any], list[tuple[str, str]]] | None = None
    #: The game's starts as ``scenario.start_sets`` see them (:class:`schema.starts.StartSlots`:
    #: how many starts an arena has, the element of start number k, the arena with only a set
    #: of them), as a function that imports and returns it.  None: the game has no starts that
    #: a player count chooses among.
    starts: Callable[[], StartSlots] | None = None

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


#: The shared definitions every game's schema may ``$ref`` (points, shapes, ids, extensions):
#: a resource of this package, with this ``$id``.  A game's schema refers to it by its ``$id``
#: (``https://arena-studio.dev/schema/systems/common.schema.json#/$defs/point``), or - when the
#: game's own ``$id`` is under ``https://arena-studio.dev/schema/systems/`` - as
#: ``common.schema.json``; it never ships a copy (:func:`common_schema`).
COMMON_SCHEMA = "schema:systems/common.schema.json"
COMMON_SCHEMA_ID = "https://arena-studio.dev/schema/systems/common.schema.json"


def common_schema() -> dict[str, Any]:
    """The shared definitions' JSON Schema document (:data:`COMMON_SCHEMA`), for a validator's
    registry under :data:`COMMON_SCHEMA_ID` (and ``common.schema.json``, the name games'
    schemas use relative to their own ``$id``)."""
    return load_schema_resource(COMMON_SCHEMA)


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


@lru_cache(maxsize=1)
def rulesets() -> Mapping[str, Ruleset]:
    """Installed rulesets by id, loaded once from the entry points (the five games the studio
    ships are registered in its pyproject.toml like any third party's)."""
    found: dict[str, Ruleset] = {}
    for ep in entry_points(group=GROUP):
        obj = ep.load()
        if not isinstance(obj, Ruleset):
            raise TypeError(f"entry point {ep.name!r} in {GROUP} is not a Ruleset: {obj!r}")
        if obj.id != ep.name:
            raise ValueError(f"entry point {ep.name!r} loads the ruleset {obj.id!r}")
        found[obj.id] = obj
    return dict(sorted(found.items()))


def ruleset(system: str) -> Ruleset:
    """The ruleset for ``system``; :class:`UnknownSystem` names the installed ones.

    Until something asks for every ruleset (:func:`rulesets`), only the entry point named
    ``system`` is loaded: a command reading one arena imports its own game's
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
    point); None when there is none, or not alone to be had."""
    named = [ep for ep in entry_points(group=GROUP) if ep.name == system]
    if len(named) > 1:
        return None  # two installations claim the id: rulesets() decides (the last one)
    if not named:
        return None
    obj = named[0].load()
    if not isinstance(obj, Ruleset) or obj.id != system:
        return None  # rulesets() raises the error that says what is wrong
    return obj


def default_system() -> str:
    """The id of the game that files naming none are read as: the installed ruleset that says
    :attr:`Ruleset.default` (the first by id if several do), else the first installed one."""
    found = rulesets()
    if not found:
        raise UnknownSystem("no ruleset is installed (the arena_studio.rulesets entry points are empty)")
    return next((rs.id for rs in found.values() if rs.default), next(iter(found)))


def ruleset_of(arena: ArenaModel) -> Ruleset:
    """The ruleset of a typed arena (by its ``system``)."""
    return ruleset(str(arena.system))
