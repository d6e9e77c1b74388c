"""The edit-vertices tool's drag of a circle board's radius or centre handle (a mixin of
:class:`editor.vertex_tool.EditVerticesTool`; the geometry is :mod:`editor.board_circle`).

Each mouse move pushes the board as it now is (an Arena Rex board through
:class:`editor.games.arenarex.edges.SetBoard`, so the deployment zones follow), all with one drag
number, so the steps merge into one undo step; the status bar's readout (and a tag by the
cursor) gives the radius in the arena's unit while the mouse is down. Escape puts the board
back (the merged step then undoes itself and leaves no step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from editor import board_circle as BC
from editor import edit_commands as EC
from schema.shapes import Circle

if TYPE_CHECKING:
    from editor.tools import ToolEvent


class CircleBoardDrag:
    """Mixin for a :class:`editor.tools.Tool` with ``_drag`` (the handle held) and ``target()``."""

    _board: tuple[int, Circle] | None
    _drag: Any
    view: Any
    doc: Any
    last_snap: str

    def _push_board(self, board: Circle, drag: int) -> None:
        from editor.game import game_of  # its command (Arena Rex: the zones follow the board)

        self.push(lambda: game_of(self.doc.arena).bounds_command()(self.doc, board, drag=drag))  # type: ignore[attr-defined]

    def press_board(self, h: Any, ev: ToolEvent) -> bool:
        """Start dragging a circle board's handle ``h`` (or its radius, pressed anywhere on the
        rim); False when the tool's target is no circle board or nothing was hit."""
        from editor.tools import HANDLE_PX
        from editor.vertex_tool import BOUNDS, Handle

        board = self.doc.arena.bounds
        if not isinstance(board, Circle) or self.target() != (BOUNDS, board):  # type: ignore[attr-defined]
            return False
        if h is None and BC.on_rim(board, (ev.pos.x(), ev.pos.y()), HANDLE_PX / max(self.view.scale_factor, 1e-9)):
            h = Handle(BC.RADIUS, 0, BC.radius_handle(board))
        if h is None:
            return False
        self._drag, self._board = h, (EC.next_drag(), board)
        return True

    def drag_board(self, ev: ToolEvent) -> str:
        """One step of the drag, pushed at once; returns the readout."""
        assert self._drag is not None and self._board is not None
        board = self.doc.arena.bounds
        onto = self.last_snap in ("vertex", "edge")
        p = ev.snapped if onto or self._drag.kind == BC.CENTRE else ev.pos
        step = self.view.snap_step if self.view.snap_enabled and not ev.ctrl else None
        new = BC.dragged(board, self._drag.kind, (p.x(), p.y()), step, onto)
        if new != board:
            self._push_board(new, self._board[0])
        from editor.games.rulesets import units_symbol

        text = BC.readout(self.doc.arena.bounds, self._drag.kind, units_symbol(self.doc.arena))
        self.view.readout.emit(text)
        self.overlay_text(ev.pos, text.split(" (")[0] if self._drag.kind == BC.RADIUS else text.split(",")[0] + ")")  # type: ignore[attr-defined]
        return text

    def end_board(self, ev: ToolEvent | None) -> None:
        """The drag ends: at ``ev`` (the release), or put back (None: Escape)."""
        assert self._board is not None
        text = self.drag_board(ev) if ev is not None else ""
        drag, start = self._board
        self._drag, self._board = None, None
        self.clear_overlay()  # type: ignore[attr-defined]
        self.view.readout.emit("")
        if ev is None and self.doc.arena.bounds != start:
            self._push_board(start, drag)  # merged with the drag's step: no step is left
        if text:
            self.view.message.emit(text)
