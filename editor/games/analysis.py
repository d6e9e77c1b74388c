"""Live validation of an arena served by the generic path (Qt-free): the game's JSON Schema,
located on the element a problem's pointer points into, then the game's registered validators
(the ``arena_studio.validators`` entry points whose ``games`` name it) as ``arena validate``
runs them.  This is :meth:`editor.game.EditorGame.analysis`'s quick stage: a game with no
editor of its own (a third party's ruleset and validators) gets its findings live from it; a
game with its own stages (Car Wars' travel, Arena Rex's zone checks) builds on
:func:`format_findings`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from editor.analysis import Finding


def format_findings(arena: Any) -> list[Finding]:
    """The game's JSON Schema, located on the element a problem's pointer points into."""
    from editor.games import model as G

    doc = G.document(arena)
    out: list[Finding] = []
    for p in G.problems(G.ruleset(arena), doc):
        ptr = p.split(": ", 1)[0]
        parts = ptr.strip("/").split("/")
        refs: list[str] = []
        if len(parts) >= 2 and parts[1].isdigit() and isinstance(doc.get(parts[0]), list):
            items = doc[parts[0]]
            i = int(parts[1])
            try:
                refs = [G.item_ref(arena, parts[0], items[i])] if i < len(items) and isinstance(items[i], dict) else []
            except ValueError:  # a player the schema refuses: the finding is on no element
                refs = []
        out.append({"code": "format", "severity": "error", "message": p, "elements": refs})
    return out


class GenericQuick:
    """The schema's findings, else every registered validator of the arena's game (those that
    search travel too: a game with slow ones gives itself stages of its own)."""

    def __call__(self, arena: Any, should_stop: Callable[[], bool] | None = None) -> list[Finding]:
        found = format_findings(arena)
        if found:
            return found
        from editor.analysis import validators_run

        return validators_run(arena, None, should_stop or (lambda: False))


__all__ = ["GenericQuick", "format_findings"]
