"""Tortoise Derby's travel query (``arena travel FILE --from SOURCE --to GOAL``): the shortest
crawl and the turns it takes.

Sources: ``tortoise:N`` (player N's tortoise) or ``x,y``.  Goals: a lettuce's id,
``tortoise:N`` or ``x,y``.  The answer is plain data (JSON as ``arena travel --json`` prints it).

>>> from tortoise_derby.model import default_arena
>>> r = plan(default_arena(), "tortoise:1", "L1")
>>> r["reachable"], r["length"], r["turns"], r["path"][-1]
(True, 10.0, 3, {'x': 0.0, 'y': 0.0})
"""

from __future__ import annotations

import math
from typing import Any

from tortoise_derby.model import TortoiseDerbyArena
from tortoise_derby.movement import shortest, turns


class TravelQueryError(ValueError):
    """A source or goal the arena does not have (the message says what it has)."""


def place(arena: TortoiseDerbyArena, text: str) -> tuple[float, float]:
    """The point a source or goal names."""
    if text.startswith("tortoise:"):
        for t in arena.tortoises:
            if t.id == text:
                return t.position
        raise TravelQueryError(f"the arena has no {text}; it has {', '.join(t.id for t in arena.tortoises) or 'none'}")
    parts = text.split(",")
    if len(parts) == 2:
        try:
            x, y = float(parts[0]), float(parts[1])
        except ValueError:
            x = y = math.nan
        if math.isfinite(x) and math.isfinite(y):
            return (x, y)
        raise TravelQueryError(f"a point is x,y with finite numbers, not {text!r}")
    for le in arena.lettuces:
        if le.id == text:
            return le.position
    names = [t.id for t in arena.tortoises] + [le.id for le in arena.lettuces]
    raise TravelQueryError(f"{text!r} is not tortoise:N, a lettuce or x,y; the arena has {', '.join(names)}")


def plan(arena: TortoiseDerbyArena, source: str, goal: str) -> dict[str, Any]:
    """The shortest crawl from ``source`` to ``goal``: reachable, its length (inches), turns at
    the scenario's stride and its corners."""
    crawl = shortest(arena, place(arena, source), place(arena, goal))
    reachable = crawl.length is not None
    return {
        "from": source, "to": goal, "reachable": reachable, "stride": arena.scenario.stride,
        "length": round(crawl.length, 4) if crawl.length is not None else None,
        "turns": turns(arena, crawl.length) if crawl.length is not None else None,
        "path": [{"x": round(x, 4), "y": round(y, 4)} for x, y in crawl.path],
    }
