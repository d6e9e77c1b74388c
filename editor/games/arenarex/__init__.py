"""Arena Rex's editor (:class:`~editor.game.EditorGame`, registered as ``arena-rex`` in the
``arena_studio.editors`` entry points): the schema-driven palette and inspector, plus

* deployment zones that slide along the board's edge when dragged and follow the board when it
  is edited (:mod:`.edges`), and their images in symmetry mode (:mod:`.symmetry`);
* live validation in stages (:mod:`.analysis`): the setup checks, then the zone checks on
  persistent workers;
* the moves heat map, walks and sight overlays (:mod:`.overlays`, :mod:`.overlay_work`,
  :mod:`.overlay_layers`); the bases and MOV gauge in the print's aids (:mod:`.print_aids`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from editor.game import EditorGame, GamePart

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter

    from editor.analysis import Analyse
    from editor.edit_commands import SetBounds
    from editor.games.model import ElementModel
    from editor.games.symmetry_rules import Rules


class ArenaRexEditor(EditorGame):
    def symmetry_rules(self) -> Rules:
        from editor.games.arenarex.symmetry import RULES

        return RULES

    def analysis(self) -> Analyse:
        from editor.games.arenarex.analysis import analysis

        return analysis()  # type: ignore[no-any-return]

    def move_document(self, arena: Any, doc: dict[str, Any], refs: set[str], dx: float, dy: float) -> None:
        """A deployment zone moves along its board edge (:func:`.edges.dragged`)."""
        from editor.games.arenarex.edges import dragged

        for d, zone in zip(doc.get("deployment", ()), arena.deployment):  # the document lists the zones in order
            if zone.id in refs:
                for k, v in dragged(arena, int(d["player"]), dx, dy).items():
                    if v is None:
                        d.pop(k, None)
                    else:
                        d[k] = list(v) if isinstance(v, tuple) else v

    def elements(self) -> ElementModel:
        from editor.games.arenarex.edges import ELEMENTS

        return ELEMENTS

    def moves_by_document(self, arena: Any, refs: list[str]) -> list[str]:
        return [r for r in refs if r.startswith("deploy:")]

    def bounds_command(self) -> type[SetBounds]:
        from editor.games.arenarex.edges import SetBoard

        return SetBoard

    def overlays(self, win: Any, overlays: Any) -> GamePart | None:
        from editor.games.arenarex.overlays import install

        return install(win, overlays)

    def print_aids(self, painter: QPainter, arena: Any, lay: Any, frame: Any) -> None:
        from editor.games.arenarex.print_aids import base_aids

        base_aids(painter, arena, lay, frame)


EDITOR = ArenaRexEditor("arena-rex")

__all__ = ["EDITOR", "ArenaRexEditor"]
