"""What Arena → Symmetry… asks for, read from the arena's game (Qt-free).

Each game declares its symmetry in its JSON Schema (``properties/symmetry``): the kinds it has
(``kind``'s ``enum``, each explained in ``kind``'s description, ``name: words; ...``), whether it
has an ``order`` (and which: a hex pit allows 1, 2, 3 or 6, a table 1-12), a ``center`` (a
table game's symmetry is about a point the designer places; a pit's is about the centroid of
its hexes, a battlefield's about its middle: they have none) and an ``axis``.  :func:`form_of`
turns that into a :class:`SymmetryForm`; the dialog shows exactly those fields, and
:meth:`SymmetryForm.value` builds the game's own ``Symmetry`` through the game's document and
build (so the file format's checks apply, with the schema's words).

>>> from schema.games import mothership
>>> f = form_of(mothership.default_arena())
>>> f.kinds, f.orders, f.centre, f.axis
(('mirror', 'rotational'), (), False, False)
>>> f.hints["rotational"]
'a half turn about the centre'
>>> f.value({"kind": "rotational"})
Symmetry(kind='rotational')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from schema import ruleset as R
from schema.shapes import Symmetry

#: The largest order a rotation may have when the schema gives no maximum.
MAX_ORDER = 12


@dataclass(frozen=True)
class SymmetryForm:
    """The fields of one game's symmetry: its ``kinds`` (with ``hints``: what each does),
    the ``orders`` a rotation may have (empty: the game has no order, its kinds fix it), whether
    it has a ``centre`` and an ``axis``; ``about``: the schema's words on what it is about;
    ``make``: a document's ``symmetry`` object -> the game's ``Symmetry`` (``ValueError`` with
    the file format's words)."""

    kinds: tuple[str, ...]
    orders: tuple[int, ...]
    centre: bool
    axis: bool
    make: Callable[[dict[str, Any]], Any]
    hints: Mapping[str, str] = field(default_factory=dict)
    about: str = ""
    axis_range: tuple[float, float] = (0.0, 180.0)
    axis_step: float = 1.0  # the schema's ``multipleOf`` (a hex grid's 30°): the dialog steps by it

    def uses_order(self, kind: str) -> bool:
        return bool(self.orders) and kind in ("rotational", "dihedral")

    def uses_axis(self, kind: str) -> bool:
        return self.axis and kind in ("mirror", "dihedral")

    def value(self, values: dict[str, Any] | None) -> Any:
        """The game's ``Symmetry`` of ``values`` (``kind``, ``order``, ``center``, ``axis``:
        those the game has and the kind uses are kept, the others take the game's defaults);
        None for None (no symmetry)."""
        if values is None:
            return None
        kind = values["kind"]
        if kind not in self.kinds:
            raise ValueError(f"symmetry kind must be one of {', '.join(self.kinds)}")
        out: dict[str, Any] = {"kind": kind}
        if self.orders:
            out["order"] = int(values["order"]) if self.uses_order(kind) else 1
        if self.centre:
            out["center"] = [float(v) for v in values["center"]]
        if self.uses_axis(kind):
            out["axis"] = float(values["axis"])
        return self.make(out)


def kind_hints(description: str, kinds: tuple[str, ...]) -> dict[str, str]:
    """``{"mirror": "reflection across one axis", ...}`` from a description written
    ``mirror: reflection across one axis; rotational: ...`` (kinds it does not explain: none)."""
    out: dict[str, str] = {}
    for part in re.split(r";\s*", description):
        name, sep, words = part.partition(":")
        if sep and name.strip() in kinds:
            out[name.strip()] = words.strip().rstrip(".")
    return out


def _table_symmetry(doc: dict[str, Any]) -> Symmetry:
    centre = doc.get("center", (0.0, 0.0))
    return Symmetry(doc["kind"], int(doc.get("order", 1)), (float(centre[0]), float(centre[1])),
                    float(doc.get("axis", 90.0)))


#: The shared model's symmetry (:class:`schema.games.gravstrike.model.Symmetry`): about a centre, N-fold up to 12.
TABLE = SymmetryForm(kinds=("rotational", "mirror", "dihedral"), orders=tuple(range(2, MAX_ORDER + 1)),
                     centre=True, axis=True, make=_table_symmetry)


def _orders(node: Mapping[str, Any] | None) -> tuple[int, ...]:
    """The orders of a rotation the schema's ``order`` allows (2 and up: order 1 is no turn)."""
    if node is None:
        return ()
    if "enum" in node:
        return tuple(sorted(int(v) for v in node["enum"] if int(v) >= 2))
    hi = int(node.get("maximum", MAX_ORDER))
    return tuple(range(max(2, int(node.get("minimum", 2))), hi + 1))


def form_of(arena: Any) -> SymmetryForm:
    """The symmetry form of ``arena``'s game, read from its JSON Schema (see the module's text)."""
    from editor.games import model as G
    from editor.games.rulesets import system_of

    rs = R.ruleset(system_of(arena))
    node = rs.json_schema().get("properties", {}).get("symmetry")
    if not isinstance(node, dict):
        raise ValueError(f"{rs.game} arenas declare no symmetry")
    props = node.get("properties", {})
    kinds = tuple(str(k) for k in props.get("kind", {}).get("enum", ()))

    def make(sym: dict[str, Any]) -> Any:
        doc = rs.document(arena)
        doc["symmetry"] = sym
        return G.build(rs, doc).symmetry

    axis = props.get("axis", {})
    return SymmetryForm(kinds=kinds, orders=_orders(props.get("order")), centre="center" in props,
                        axis="axis" in props, make=make,
                        hints=kind_hints(str(props.get("kind", {}).get("description", "")), kinds),
                        about=str(node.get("description", "")),
                        axis_range=(max(0.0, float(axis.get("minimum", 0.0))), min(180.0, float(axis.get("maximum", 180.0)))),
                        axis_step=float(axis.get("multipleOf", 1.0)))


__all__ = ["MAX_ORDER", "TABLE", "SymmetryForm", "form_of", "kind_hints"]
