"""What the real-window tests read of Car Wars' own parts (:meth:`editor.game.EditorGame.probe`):
its overlays' path, heat map and key, and the travel dock's rows with where they are on screen."""

from __future__ import annotations

from typing import Any

from editor.probe import rect_of

SYSTEM = "car-wars-6e"


def probe(win: Any) -> dict[str, Any] | None:
    """The Car Wars overlays' path and key, and the travel dock's rows (with where they are)."""
    cw, dock = win.overlays.parts.get(SYSTEM), win.overlays.pages.get(SYSTEM)
    if cw is None or dock is None or not cw.active():
        return None
    plan = cw.path.plan if cw.path.isVisible() else None
    table = dock.table
    rows = []
    for i, (player, goal) in enumerate(dock.rows):
        cells = [table.item(i, c) for c in range(table.columnCount())]
        rows.append({"player": player, "goal": goal, "cells": [c.text() if c else "" for c in cells],
                     "rects": [rect_of(table.viewport(), table.visualItemRect(c)) if c else None for c in cells]})
    return {"legend": cw.legend.text() if cw.legend.isVisible() else "",
            "heat": cw.shown["heat"][1] if cw.heat.isVisible() and cw.shown["heat"] else None,
            "path": None if plan is None else {"player": plan.player, "goal": plan.goal, "policy": plan.policy,
                                               "time": plan.time, "dice": plan.dice, "steps": len(plan.steps)},
            "travel": {"shown": dock.shown(), "busy": dock.busy(), "status": dock.status.text(), "rows": rows,
                       "current": table.currentRow()}}


__all__ = ["probe"]
