"""Car Wars' editor (:class:`~editor.game.EditorGame`, registered as ``car-wars-6e`` in the
``arena_studio.editors`` entry points): the schema-driven palette and inspector, plus

* live validation in stages (:mod:`.analysis`): the setup checks, each kept with what it
  reads, then the travel checks on persistent workers keeping their searches (:mod:`.kept_travel`);
* symmetry mode's numbering of cards and their owners (:mod:`.symmetry`);
* the turning keys on the canvas (:mod:`.keys`) and in the print's aids (:mod:`.print_aids`);
* the heat map, path and line-of-sight overlays (:mod:`.overlays`, :mod:`.overlay_work`) and
  the travel dock's page (:mod:`.travel_dock`, :mod:`.travel_work`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from editor.game import CanvasPart, EditorGame, GamePart

if TYPE_CHECKING:
    from PySide6.QtGui import QPainter

    from editor.analysis import Analyse
    from editor.games.symmetry_rules import Rules


class CarWarsEditor(EditorGame):
    def symmetry_rules(self) -> Rules:
        from editor.games.carwars.symmetry import RULES

        return RULES

    def analysis(self) -> Analyse:
        from editor.games.carwars.analysis import analysis

        return analysis()  # type: ignore[no-any-return]

    def canvas_parts(self, win: Any) -> list[CanvasPart]:
        from editor.games.carwars.keys import KeysPart

        return [KeysPart()]

    def overlays(self, win: Any, overlays: Any) -> GamePart | None:
        from editor.games.carwars.overlays import install

        return install(win, overlays.menu)

    def travel_page(self, win: Any, overlays: Any) -> Any:
        from editor.games.carwars.travel_dock import install

        return install(win, overlays.parts[self.system])

    def print_aids(self, painter: QPainter, arena: Any, lay: Any, frame: Any) -> None:
        from editor.games.carwars.print_aids import vehicle_aids

        vehicle_aids(painter, arena, lay, frame)

    def probe(self, win: Any) -> dict[str, Any] | None:
        from editor.games.carwars.probe import probe

        return probe(win)

    def start_keys(self, arena: Any) -> dict[int, tuple[tuple[float, float], ...]]:
        from editor.games.carwars.keys import start_keys

        return dict(start_keys(arena))


EDITOR = CarWarsEditor("car-wars-6e")

__all__ = ["EDITOR", "CarWarsEditor"]
