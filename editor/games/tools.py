"""The palette of a generic ruleset: one tool per placeable element kind, made from the kind's
:class:`~schema.ruleset.ElementKind` (``placement``: ``shape`` draws a shape in the modes the
kind's schema allows; ``pose`` places a card or token with a click and a start position with a
press and a drag for its facing; ``point`` places with a click).  The new element's fields are
the schema's defaults; the inspector edits them afterwards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainterPath

from editor import commands as C
from editor.draw_tools import PoseTool, ShapeTool, pt
from editor.games import model as G
from editor.games.schema_fields import resolve
from editor.tools import Tool, ToolEvent
from schema import ruleset as R
from schema.shapes import Point

if TYPE_CHECKING:
    from editor.canvas import ArenaView
    from editor.document import ArenaDocument

#: The shared tools' keys (Select V, Vertices E, Rotate R, Measure M), which a kind's tool never takes.
SHARED_KEYS = ("V", "E", "R", "M")


def shortcut_of(kind: R.ElementKind, taken: set[str]) -> str:
    """The kind's key (its ruleset's ``ElementKind.shortcut``), else the first letter of its title no other tool of
    the palette has (every tool has one: an Arena Rex pit had none, issue 42, point 11)."""
    wanted = kind.shortcut
    if wanted and wanted not in taken:
        return wanted
    for ch in kind.title.upper():
        if ch.isalpha() and ch not in taken:
            return ch
    return ""


def _add(doc: ArenaDocument, key: str, item: dict[str, Any]) -> C.ArenaCommand:
    """The command adding ``item`` (its defaults filled by the game's model): the element the
    game's model built, found by comparing the kind's list before and after (its ref is the
    model's, e.g. a start's ``start:N``)."""
    was = list(getattr(doc.arena, key, ()))
    now = list(getattr(G.add(doc.arena, key, item), key, ()))
    added = [el for el in now if el not in was] or now[len(was):]
    if len(added) != 1:
        raise ValueError(f"adding to {key} did not add one element")
    return C.AddElement(doc, added[0])


class KindShapeTool(ShapeTool):
    """Draw an element of a shaped kind (walls, obstacles, terrain, hazards)."""

    element_kind: R.ElementKind

    def make(self, shape: Any) -> C.ArenaCommand:
        key = self.element_kind.key
        item = {"id": G.next_id(self.doc.arena, key), "shape": G.new_shape_doc(shape)}
        return _add(self.doc, key, item)


class KindPlaceTool(Tool):
    """Place a card or token (a click; its ``kind`` from the Kind box when the schema has one)."""

    element_kind: R.ElementKind

    def mouse_press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        key = self.element_kind.key
        item: dict[str, Any] = {"position": list(pt(ev.snapped))}
        if G.player_named(G.ruleset(self.doc.arena), key):
            item["player"] = G.next_player(self.doc.arena, key)
        else:
            item["id"] = G.next_id(self.doc.arena, key)
        if key == "cards":
            item["number"] = G.next_card_number(self.doc.arena)
        if self.modes:
            item["kind"] = self.mode
        self.push(lambda: _add(self.doc, key, item))


class KindStartTool(PoseTool):
    """Press to place the next player's car, drag to set its facing (Shift: 15° steps); a click
    faces the arena's centre."""

    element_kind: R.ElementKind
    arrow = 2.0

    def piece_path(self, pos: Point, facing: float) -> QPainterPath:
        from editor.games.paint import car_path

        return QPainterPath(car_path(pos, facing, getattr(self.doc.arena, "vehicle", None)))

    def next_player(self) -> int:
        return G.next_player(self.doc.arena, self.element_kind.key)

    def place(self, pos: Point, facing: float) -> C.ArenaCommand:
        item = {"player": self.next_player(), "position": list(pos), "facing": facing}
        return _add(self.doc, self.element_kind.key, item)


def _shape_modes(rs: R.Ruleset, kind: R.ElementKind) -> tuple[str, ...]:
    """The shape types the kind's schema allows, rectangles first."""
    props = resolve(rs, rs.kind_schema(kind.key)).get("properties", {})
    shape = resolve(rs, props.get("shape", {}))
    found = list(resolve(rs, shape.get("properties", {}).get("type", {})).get("enum", ["rect", "circle", "polygon"]))
    order = ["rect", "circle", "polygon", "polyline"]
    return tuple(sorted(found, key=lambda m: order.index(m) if m in order else 99))


def tool_classes(rs: R.Ruleset) -> tuple[type[Tool], ...]:
    """Select, vertices, rotate, one tool per placeable kind, then measure (a grid game: its
    stroke tools, :mod:`editor.games.grid_tools`)."""
    if rs.grid is not None:
        from editor.games.grid_tools import tool_classes as grid_tools

        return grid_tools(rs)
    from editor.tools import MeasureTool, SelectTool
    from editor.vertex_tool import EditVerticesTool, RotateTool

    made: list[type[Tool]] = []
    taken = set(SHARED_KEYS)
    for kind in rs.kinds:
        key = shortcut_of(kind, taken)
        taken.add(key)
        attrs: dict[str, Any] = {"element_kind": kind, "name": f"{rs.id}:{kind.key}", "shortcut": key, "modes": ()}
        title = kind.title[:-1] if kind.title.endswith("s") else kind.title
        if kind.placement == "shape":
            attrs.update(label=f"Draw {title.lower()}", modes=_shape_modes(rs, kind),
                         description="Rectangle: drag. Circle: drag from the centre. Polygon / thick line: "
                                     "click points, double-click or Enter to finish.")
            made.append(type(f"Draw_{kind.key}", (KindShapeTool,), attrs))
        elif kind.placement == "pose" and "facing" in _fields(rs, kind):
            attrs.update(label=f"Place {title.lower()}",
                         description="Press to place the next player's car, drag to set its facing (Shift: 15° steps).")
            made.append(type(f"Place_{kind.key}", (KindStartTool,), attrs))
        elif kind.placement in ("pose", "point"):
            enum = resolve(rs, _fields(rs, kind).get("kind", {})).get("enum")
            attrs.update(label=f"Place {title.lower()}", modes=tuple(enum or ()), mode_title="Kind",
                         description=f"Click to place a {title.lower()}" + (" (its kind in the Kind box)." if enum else "."))
            made.append(type(f"Place_{kind.key}", (KindPlaceTool,), attrs))
    return (SelectTool, EditVerticesTool, RotateTool, *made, MeasureTool)


def _fields(rs: R.Ruleset, kind: R.ElementKind) -> dict[str, Any]:
    props: dict[str, Any] = resolve(rs, rs.kind_schema(kind.key)).get("properties", {})
    return props
