"""The inspector's fields of an element, read from its kind's JSON Schema (Qt-free): titles,
descriptions (tooltips), enums (combo boxes), numbers with their minimum/maximum, booleans,
nullable integers, and nested objects such as ``shape`` (the fields of the element's current
shape type) or ``[x, y]`` pairs, flattened into paths such as ``("shape", "radius")``.

>>> from editor.games.rulesets import installed
>>> from schema.games.carwars import default_arena
>>> rs = installed()["car-wars-6e"]
>>> [f.path for f in fields(rs, "obstacles", {"shape": {"type": "circle"}})][:5]
[('id',), ('shape', 'center', 0), ('shape', 'center', 1), ('shape', 'radius'), ('cover',)]
>>> cover = [f for f in fields(rs, "obstacles", {"shape": {"type": "circle"}}) if f.path == ("cover",)][0]
>>> cover.kind, cover.choices
('enum', ('none', 'partial', 'full'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from schema import ruleset as R

COMMON = "common.schema.json"


@dataclass(frozen=True)
class Field:
    path: tuple[str | int, ...]
    title: str
    description: str
    #: ``enum``, ``number``, ``integer``, ``bool`` or ``string``
    kind: str
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    nullable: bool = False
    default: Any = None


def _base_ref(rs: R.Ruleset, which: str) -> str:
    """The resource of the game's schema, or of the studio's shared definitions (whichever
    package the game's schema is in: a third party's ships only its own)."""
    if which == COMMON:
        return R.COMMON_SCHEMA  # the shared definitions: a game's schema never ships a copy
    return rs.schema


def _deref(rs: R.Ruleset, node: dict[str, Any], base: str) -> tuple[dict[str, Any], str]:
    """Follow ``$ref`` (to the game's schema or ``common.schema.json``); local titles and
    descriptions win over the target's."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 10:
        seen += 1
        ref = node["$ref"]
        doc_part, _, pointer = ref.partition("#")
        if doc_part:
            base = COMMON if doc_part.endswith(COMMON) else base
        target: Any = R.load_schema_resource(_base_ref(rs, base))
        for part in pointer.strip("/").split("/") if pointer.strip("/") else ():
            target = target[part.replace("~1", "/").replace("~0", "~")]
        local = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **local}
    return node, base


def resolve(rs: R.Ruleset, node: dict[str, Any]) -> dict[str, Any]:
    return _deref(rs, node, "game")[0]


def _scalar(path: tuple[str | int, ...], node: dict[str, Any], title: str) -> Field | None:
    types = node.get("type")
    types = [types] if isinstance(types, str) else list(types or [])
    nullable = "null" in types
    desc = str(node.get("description", ""))
    common = dict(title=title, description=desc, nullable=nullable, default=node.get("default"))
    if "enum" in node:
        choices = tuple(node["enum"])
        return Field(path, kind="enum", choices=choices, **common)  # type: ignore[arg-type]
    if "const" in node:
        return None
    if "boolean" in types:
        return Field(path, kind="bool", **common)  # type: ignore[arg-type]
    for t in ("integer", "number"):
        if t in types:
            lo = node.get("minimum", node.get("exclusiveMinimum"))
            return Field(path, kind=t, minimum=lo, maximum=node.get("maximum", node.get("exclusiveMaximum")),
                         exclusive_minimum="exclusiveMinimum" in node, **common)  # type: ignore[arg-type]
    if "string" in types:
        return Field(path, kind="string", **common)  # type: ignore[arg-type]
    return None


def walk_fields(rs: R.Ruleset, path: tuple[str | int, ...], node: dict[str, Any], base: str, value: Any,
          title: str) -> list[Field]:
    node, base = _deref(rs, node, base)
    title = str(node.get("title", title))
    if node.get("type") == "object" or "properties" in node or "allOf" in node:
        props: dict[str, Any] = dict(node.get("properties", {}))
        current = value if isinstance(value, dict) else {}
        for rule in node.get("allOf", ()):  # if/then by the shape's type: the current type's fields
            cond = rule.get("if", {}).get("properties", {})
            if all(current.get(k) == v.get("const") for k, v in cond.items()) and cond:
                then, then_base = _deref(rs, rule.get("then", {}), base)
                props.update(then.get("properties", {}))
                base = then_base
        out: list[Field] = []
        for name, sub in props.items():
            if path == () and name in ("position", "id", "player") and False:
                continue
            sub_title = str(resolve(rs, sub).get("title", name)) if base != COMMON else str(sub.get("title", name))
            out += walk_fields(rs, (*path, name), sub, base, current.get(name), sub_title)
        return out
    if node.get("type") == "array" and "prefixItems" in node and len(node["prefixItems"]) <= 3:
        out = []
        for i, sub in enumerate(node["prefixItems"]):
            sub_r, _ = _deref(rs, sub, base)
            out += walk_fields(rs, (*path, i), sub, base, value[i] if isinstance(value, list) and i < len(value) else None,
                         f"{title} {sub_r.get('title', i)}")
        return out
    if node.get("type") == "array":
        return []  # point lists: the vertex tool edits them
    f = _scalar(path, node, title)
    return [f] if f is not None else []


def fields(rs: R.Ruleset, key: str, item: dict[str, Any]) -> list[Field]:
    """The editable fields of an element of kind ``key`` whose document is ``item``."""
    return walk_fields(rs, (), rs.kind_schema(key), "game", item, rs.kind(key).title)


def value_at(item: Any, path: tuple[str | int, ...]) -> Any:
    node = item
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node
