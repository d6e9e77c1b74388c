"""Qt-free element operations on the arena of any ruleset served by the generic path.

An element is addressed by its ref: its ``id``.  A kind whose items the game's JSON Schema names
by their player (a ``player`` property and no ``id``: Car Wars' starts, Arena Rex's zones) has
its refs from the game's own model (the element's ``id``: ``start:N``, ``deploy:N``), never from
a list of kind names here (:func:`player_named`, :func:`item_ref`).

Every edit is made on the arena's **document** (``Ruleset.document``), checked against the
game's JSON Schema, and built back (``Ruleset.build``): the same rules the file
format applies, so an edit the file would refuse never reaches the arena.

>>> from schema.games.carwars import default_arena
>>> a = default_arena()
>>> kind_keys(a)[:3], next_id(a, "obstacles")
(('terrain', 'hazards', 'walls'), 'O1')
>>> a = add(a, "obstacles", {"id": "O1", "shape": {"type": "circle", "center": [0, 0], "radius": 1}})
>>> find(a, "O1").weight, find(a, "O1").cover
('heavy', 'partial')
>>> set_field(a, "O1", ("cover",), "full").obstacles[0].cover
'full'
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import typing
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Protocol

import jsonschema
from referencing import Registry, Resource

from editor.games.rulesets import installed, ruleset_of
from schema import ruleset as R
from schema.document import shape_doc
from schema.shapes import Circle, Point, Polygon, Polyline, Rect

Doc = dict[str, Any]


def ruleset(arena: Any) -> R.Ruleset:
    rs = ruleset_of(arena)
    if rs is None:
        raise TypeError(f"a {arena.system} arena is edited by its game's own model, not the generic one")
    return rs


def kind_keys(arena: Any) -> tuple[str, ...]:
    """The arena's element kinds, in drawing order (the ruleset's styles' ``z``); a grid's
    cells (placement ``cell``) are coordinates, not elements, and are left out."""
    return tuple(k.key for k in sorted(ruleset(arena).kinds, key=lambda k: k.style.z) if k.placement != "cell")


@lru_cache(maxsize=None)
def type_kinds(arena_type: type) -> dict[type, str]:
    """Element class -> kind key, read from the arena dataclass's ``tuple[Element, ...]`` fields."""
    hints = typing.get_type_hints(arena_type)
    out: dict[type, str] = {}
    for f in dataclasses.fields(arena_type):
        args = typing.get_args(hints.get(f.name))
        if len(args) == 2 and args[1] is Ellipsis and isinstance(args[0], type) and dataclasses.is_dataclass(args[0]):
            out[args[0]] = f.name
    return out


#: Element class -> (game id, kind key), filled from the installed rulesets' arena classes as
#: classes are asked for (a class's kind never changes; a ruleset installed later is scanned
#: when one of its classes is first met).
_HOMES: dict[type, tuple[str, str]] = {}


def home_of(el: object) -> tuple[str, str]:
    """(game id, kind key) of any game's element, by its class, over the installed rulesets'
    arenas (the first that holds the class); ``KeyError`` for an object no game's arena holds."""
    return home_of_type(type(el))


def home_of_type(cls: type) -> tuple[str, str]:
    """:func:`home_of` an element class."""
    found = _HOMES.get(cls)
    if found is None:
        for system, rs in installed().items():
            for c, key in type_kinds(type(rs.default_arena())).items():
                _HOMES.setdefault(c, (system, key))
        found = _HOMES.get(cls)
        if found is None:
            raise KeyError(cls.__name__)
    return found


def kind_of(el: Any) -> str:
    """The kind key of any game's element (by its class, over the installed rulesets' arenas)."""
    return home_of(el)[1]


def find(arena: Any, ref: str) -> Any | None:
    for el in arena.elements():
        if el.id == ref:
            return el
    return None


def used_ids(arena: Any) -> set[str]:
    return {el.id for el in arena.elements()}


def player_named(rs: R.Ruleset, key: str) -> bool:
    """Whether the kind ``key``'s items are named by their player: its item schema (``$ref``s
    followed) has a ``player`` property and no ``id``."""
    cache = (rs.id, rs.schema, key)
    if cache not in _PLAYER_NAMED:
        from editor.games.schema_fields import resolve  # noqa: PLC0415 - the inspector's schema reader

        props = resolve(rs, rs.kind_schema(key)).get("properties", {}) if key in {k.key for k in rs.kinds} else {}
        _PLAYER_NAMED[cache] = "player" in props and "id" not in props
    return _PLAYER_NAMED[cache]


_PLAYER_NAMED: dict[tuple[str, str, str], bool] = {}


def player_kinds(arena: Any) -> tuple[str, ...]:
    """The arena's kinds whose items are named by their player."""
    rs = ruleset(arena)
    return tuple(k.key for k in rs.kinds if player_named(rs, k.key))


def next_player(arena: Any, kind: str | None = None, taken: Iterable[int] = ()) -> int:
    """The lowest player number no element of ``kind`` has (of any kind named by its player
    when None) and not in ``taken``."""
    kinds = (kind,) if kind is not None else player_kinds(arena)
    used = {getattr(el, "player", None) for k in kinds for el in getattr(arena, k, ())} | set(taken)
    n = 1
    while n in used:
        n += 1
    return n


#: A player-named kind's refs, by (game, kind, player): read once from the game's model.
_PLAYER_REFS: dict[tuple[str, str, str, Any], str] = {}


def player_ref(arena: Any, key: str, player: Any, item: Doc | None = None) -> str:
    """The ref the game's model gives the element of the player-named kind ``key`` for
    ``player``: an element of the kind built for that player (from one of the arena's, else
    from ``item``, the element's document), its ``id`` read.  ``ValueError`` when there is
    neither, or the schema refuses ``item``."""
    rs = ruleset(arena)
    cache = (rs.id, rs.schema, key, player)
    if cache in _PLAYER_REFS:
        return _PLAYER_REFS[cache]
    like: Any = next((el for el in getattr(arena, key, ()) if dataclasses.is_dataclass(el) and not isinstance(el, type)), None)
    if like is not None and isinstance(player, int):
        ref = str(dataclasses.replace(like, player=player).id)
    elif item is not None:
        doc = document(arena)
        items = list(doc.get(key) or [])
        doc[key] = [{**item, "player": player}, *items[1:]]  # as many as before: the schema's counts hold
        ref = str(getattr(build(rs, doc), key)[0].id)
    else:
        raise ValueError(f"no {key} to name player {player}'s by")
    _PLAYER_REFS[cache] = ref
    return ref


def next_id(arena: Any, kind: str, taken: Iterable[str] = ()) -> str:
    if player_named(ruleset(arena), kind):
        return player_ref(arena, kind, next_player(arena, kind))
    used = used_ids(arena) | set(taken)
    prefix = ruleset(arena).kind(kind).id_prefix or kind[:1].upper()
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def next_card_number(arena: Any) -> int:
    """The lowest of the numbers 0-3 no card carries yet (0 when all four are down)."""
    used = {c.number for c in getattr(arena, "cards", ())}
    return next((n for n in range(4) if n not in used), 0)


# ------------------------------------------------------------------ document and schema


def document(arena: Any) -> Doc:
    return ruleset(arena).document(arena)


@lru_cache(maxsize=None)
def validator(schema_ref: str) -> Any:
    """A JSON Schema validator for a game's schema, with the shared ``common.schema.json``
    (:func:`schema.ruleset.common_schema`)."""
    common = R.common_schema()  # the shared definitions: a game's schema never ships a copy
    registry = Registry().with_resources([
        (common.get("$id", "common.schema.json"), Resource.from_contents(common)),
        ("common.schema.json", Resource.from_contents(common)),
    ])
    return jsonschema.Draft202012Validator(R.load_schema_resource(schema_ref), registry=registry)


@lru_cache(maxsize=None)
def fast_validator(schema_ref: str) -> Any:
    """The same schema compiled by jsonschema-rs (a Rust validator: about 0.03 ms for the
    four-player Car Wars arena, where :func:`validator` takes 7 ms), used as a gate: a document
    it finds valid has no problems; on any other the messages are :func:`validator`'s.  A test
    keeps the two agreeing on valid and invalid documents of every game.  None when it cannot
    be had (the gate is then skipped)."""
    try:
        import jsonschema_rs  # noqa: PLC0415 - optional speed-up
    except ImportError:  # pragma: no cover - a dependency, but the messages never need it
        return None
    common = R.common_schema()  # the shared definitions: a game's schema never ships a copy
    registry = jsonschema_rs.Registry([(common.get("$id", "common.schema.json"), common), ("common.schema.json", common)])
    return jsonschema_rs.Draft202012Validator(R.load_schema_resource(schema_ref), registry=registry)


def problems(rs: R.Ruleset, doc: Doc) -> list[str]:
    """What the game's schema says about ``doc`` (``/pointer: message``), empty when valid
    (decided by :func:`fast_validator` when it is valid, as after most edits)."""
    data = json.loads(json.dumps(doc))
    fast = fast_validator(rs.schema)
    if fast is not None and fast.is_valid(data):
        return []
    out = []
    for e in validator(rs.schema).iter_errors(data):
        out.append(f"/{'/'.join(map(str, e.absolute_path))}: {e.message}")
    return sorted(out)


def build(rs: R.Ruleset, doc: Doc) -> Any:
    """The arena of ``doc``; ``ValueError`` with the schema's words when the file would refuse it."""
    found = problems(rs, doc)
    if found:
        raise ValueError("; ".join(found[:3]))
    return rs.build(doc)


def _locate(arena: Any, doc: Doc, ref: str) -> tuple[str, int]:
    for key, items in doc.items():
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if isinstance(item, dict) and item_ref(arena, key, item) == ref:
                return key, i
    raise KeyError(ref)


def item_ref(arena: Any, key: str, item: Doc) -> str:
    """The ref of ``item``, an element's document in the arena's list ``key``: its ``id``, or
    for a kind named by its player (:func:`player_named`) the id the game's model gives it."""
    if "id" not in item and "player" in item and player_named(ruleset(arena), key):
        return player_ref(arena, key, item["player"], item)
    return str(item.get("id"))


def kind_key(arena: Any, ref: str) -> str:
    """The document key (``pits``, ``deployment``) of the element ``ref``."""
    return _locate(arena, document(arena), ref)[0]


def item_doc(arena: Any, ref: str) -> Doc:
    """The document of one element (canonical: defaults written out)."""
    doc = document(arena)
    key, i = _locate(arena, doc, ref)
    return dict(doc[key][i])


# ------------------------------------------------------------------ edits


def add(arena: Any, key: str, item: Doc) -> Any:
    return add_many(arena, [(key, item)])


def add_many(arena: Any, items: Sequence[tuple[str, Doc]]) -> Any:
    rs = ruleset(arena)
    doc = document(arena)
    for key, item in items:
        doc.setdefault(key, []).append(copy.deepcopy(item))
    return build(rs, doc)


def remove(arena: Any, refs: Iterable[str]) -> Any:
    gone = set(refs)
    rs = ruleset(arena)
    doc = document(arena)
    for key in [k.key for k in rs.kinds]:
        doc[key] = [d for d in doc.get(key, []) if item_ref(arena, key, d) not in gone]
    return build(rs, doc)


def set_field(arena: Any, ref: str, path: Sequence[str | int], value: Any) -> Any:
    """``ref``'s field at ``path`` (``("cover",)``, ``("shape", "radius")``) set to ``value``
    (None removes an optional field)."""
    rs = ruleset(arena)
    doc = document(arena)
    key, i = _locate(arena, doc, ref)
    node: Any = doc[key][i]
    from editor.game import editor_game

    editor_game(rs.id).elements().complete(arena, ref, node, path)
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return build(rs, doc)


def replace_item(arena: Any, ref: str, item: Doc) -> Any:
    rs = ruleset(arena)
    doc = document(arena)
    key, i = _locate(arena, doc, ref)
    doc[key][i] = copy.deepcopy(item)
    return build(rs, doc)


def _tp(p: Sequence[float], dx: float, dy: float) -> list[float]:
    x, y = round(p[0] + dx, 9), round(p[1] + dy, 9)
    return [x if x else 0.0, y if y else 0.0]


def moved_item(item: Doc, dx: float, dy: float) -> Doc:
    """An element document translated by (dx, dy): its ``shape`` or its ``position``."""
    out = copy.deepcopy(item)
    if "position" in out:
        out["position"] = _tp(out["position"], dx, dy)
    s = out.get("shape")
    if isinstance(s, dict):
        if "center" in s:
            s["center"] = _tp(s["center"], dx, dy)
        if "points" in s:
            s["points"] = [_tp(p, dx, dy) for p in s["points"]]
    return out


def move(arena: Any, refs: Iterable[str], dx: float, dy: float) -> Any:
    wanted = set(refs)
    rs = ruleset(arena)
    doc = document(arena)
    for key in [k.key for k in rs.kinds]:
        doc[key] = [moved_item(d, dx, dy) if item_ref(arena, key, d) in wanted else d for d in doc.get(key, [])]
    from editor.game import game_of

    game_of(arena).move_document(arena, doc, wanted, dx, dy)  # the game's own drag rule, if any
    return build(rs, doc)


# ------------------------------------------------------------------ geometry of elements


def footprint(el: Any) -> Any:
    """The element's shape (the schema's ``shape`` field or the ``shape`` property of cards and
    tokens), or None for a point element."""
    return getattr(el, "shape", None)


def anchor(el: Any) -> Point:
    pos = getattr(el, "position", None)
    if pos is not None:
        return (float(pos[0]), float(pos[1]))
    s = footprint(el)
    if isinstance(s, (Circle, Rect)):
        return s.center
    if isinstance(s, Polygon):
        c = s.to_shapely().representative_point()
        return (c.x, c.y)
    if isinstance(s, Polyline):
        xs, ys = [p[0] for p in s.points], [p[1] for p in s.points]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    return (0.0, 0.0)


def car_corners(position: Point, facing: float, length: float, width: float) -> list[Point]:
    a = math.radians(facing)
    ca, sa = math.cos(a), math.sin(a)
    hl, hw = length / 2, width / 2
    return [(position[0] + x * ca - y * sa, position[1] + x * sa + y * ca)
            for x, y in ((-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw))]


def bounds_of(el: Any, arena: Any = None) -> tuple[float, float, float, float]:
    s = footprint(el)
    if s is not None:
        minx, miny, maxx, maxy = s.to_shapely().bounds
        return (minx, miny, maxx, maxy)
    x, y = anchor(el)
    r = 1.0
    vehicle = getattr(arena, "vehicle", None)
    if vehicle is not None:
        r = math.hypot(vehicle.length, vehicle.width) / 2 + getattr(vehicle, "bumper", 0.0)
    return (x - r, y - r, x + r, y + r)


def items_to_yaml(arena: Any, refs: Sequence[str]) -> str:
    """The clipboard YAML of elements, grouped by kind like the file's lists."""
    import yaml

    doc = document(arena)
    wanted = set(refs)
    out: dict[str, list[Any]] = {}
    for key in kind_keys(arena):
        for item in doc.get(key, []):
            if item_ref(arena, key, item) in wanted:
                out.setdefault(key, []).append(item)
    return yaml.safe_dump(out, sort_keys=False, default_flow_style=None)


def items_from_data(data: Any, arena: Any) -> list[Any]:
    """Typed elements from clipboard data, renamed/renumbered so they do not collide with
    ``arena``; ``ValueError`` for data that is not this game's elements."""
    keys = kind_keys(arena)
    if not isinstance(data, dict) or not data or not set(data) <= set(keys):
        raise ValueError("clipboard does not hold this game's arena elements")
    rs = ruleset(arena)
    base = document(arena)
    taken: set[str] = set()
    for key in keys:
        players: set[int] = set()
        fresh = []
        for item in data.get(key) or []:
            if not isinstance(item, dict):
                raise ValueError("clipboard does not hold arena elements")
            item = copy.deepcopy(item)
            if player_named(rs, key):
                p = next_player(arena, key, players)
                players.add(p)
                item["player"] = p
            elif "id" in item and (item["id"] in used_ids(arena) or item["id"] in taken):
                item["id"] = next_id(arena, key, taken)
            if "id" in item:
                taken.add(str(item["id"]))
            fresh.append(item)
        base[key] = fresh
    parsed = build(rs, base)
    return list(parsed.elements())


def new_shape_doc(shape: Any) -> Doc:
    return shape_doc(shape)


# ------------------------------------------------------------------ the element model a game gives the editor


class Element(Protocol):
    """Any game's element as the shared editor handles it: a (frozen) dataclass whose ``id`` is
    its ref (a field, or a property such as a start's ``start:N``)."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    @property
    def id(self) -> str: ...


class ElementModel:
    """How the shared editor names, sizes, copies and checks a game's elements: the hook
    :meth:`editor.game.EditorGame.elements` (:mod:`editor.elements` asks it).  This base is the
    generic, schema-driven model of this module, which serves any ruleset: kinds in drawing
    order, ids from the kinds' ``id_prefix``, players of the kinds named by their player, the clipboard as
    the arena document's items, problems from the game's JSON Schema.  A game with a typed model
    of its own overrides what it does otherwise (Gravstrike's
    :class:`editor.games.gravstrike.elements.GravstrikeElements`).

    Adding, removing, replacing and moving elements are the same dataclass operations for
    every game (:func:`editor.elements.add_element` and its neighbours)."""

    def kinds(self, arena: R.ArenaModel) -> tuple[str, ...]:
        """The arena's element kinds (its lists of elements), in the order panels list them."""
        return kind_keys(arena)

    def kind_label(self, kind: str, arena: R.ArenaModel) -> str:
        """The title the Layers and Elements panels give the kind (the ruleset's)."""
        return ruleset(arena).kind(kind).title

    def used_ids(self, arena: R.ArenaModel) -> set[str]:
        """The refs a new element's id must not take."""
        return used_ids(arena)

    def next_id(self, arena: R.ArenaModel, kind: str, variant: str | None = None, taken: Iterable[str] = ()) -> str:
        """The next free ref of a new element of ``kind`` (``variant``: the ``kind`` field of the
        element to be named, for a game whose ids follow it) not in ``taken``."""
        return next_id(arena, kind, taken)

    def next_player(self, arena: R.ArenaModel, kind: str | None = None, taken: Iterable[int] = ()) -> int:
        """The lowest player with no element of ``kind`` (any kind named by its player when
        None) and not in ``taken``."""
        return next_player(arena, kind, taken)

    def bounds_of(self, el: object, arena: R.ArenaModel | None = None) -> tuple[float, float, float, float]:
        """(minx, miny, maxx, maxy) of the element's footprint (a piece: its base's square)."""
        return bounds_of(el, arena)

    def to_yaml(self, arena: R.ArenaModel, refs: Sequence[str]) -> str:
        """The clipboard YAML of the elements ``refs``, grouped by kind like the file's lists."""
        return items_to_yaml(arena, refs)

    def from_data(self, data: object, arena: R.ArenaModel) -> list[Element]:
        """The elements of clipboard data (parsed YAML), renamed and renumbered so they do not
        collide with ``arena``'s; ``ValueError`` for data that is not the game's elements."""
        return items_from_data(data, arena)

    def complete(self, arena: R.ArenaModel, ref: str, item: Doc, path: Sequence[str | int]) -> None:
        """Fill in ``item`` (the document of the element ``ref``) what setting its field at
        ``path`` alone needs: a part of a value the file leaves out (Arena Rex: one coordinate of
        a deployment zone's centre, the other from its edge).  Default: nothing."""

    def problems(self, arena: R.ArenaModel) -> tuple[str, ...]:
        """What the file format would refuse in ``arena`` (``/pointer: message``), empty when valid:
        an edit that adds one is refused (:func:`editor.commands.check_no_new_problems`)."""
        return tuple(problems(ruleset(arena), document(arena)))


#: The generic model (:meth:`editor.game.EditorGame.elements`' default).
GENERIC = ElementModel()


__all__ = [
    "GENERIC", "Element", "ElementModel", "add", "add_many", "anchor", "bounds_of", "build", "car_corners", "document", "find", "footprint", "home_of",
    "item_doc", "item_ref", "items_from_data", "items_to_yaml", "kind_keys", "kind_of", "move", "moved_item", "new_shape_doc", "next_card_number",
    "next_id", "next_player", "player_kinds", "player_named", "player_ref", "problems", "remove", "replace_item", "ruleset", "set_field", "used_ids", "validator",
]
