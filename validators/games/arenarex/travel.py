"""Arena Rex travel queries for the CLI (``arena travel``) and the service (the analysis's
``travel`` hook, :func:`answer`): the shortest walk of
a round base, and the moves it takes at the scenario's MOV ("Move up to the model's MOV value in
inches").

Sources: ``deploy:N`` (anywhere in player N's deployment zone) or ``x,y``.  Goals: ``centre``,
``deploy:N``, the id of a pit, spikes or terrain hazard (until the base is within melee range of
it) or ``x,y`` (the nearest point a base may stand on, when a hazard covers it).  Either may end
in ``@MM`` to choose the base's diameter in millimetres (default: the largest the arena lists).

>>> from schema.games.arenarex import default_arena
>>> r = plan(default_arena(), "deploy:1", "centre")
>>> r["moves"], r["reachable"]
(3, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.arenarex.fairness import ZONE_SPACING, moves_for
from engine.arenarex.space import Space
from schema.games.arenarex import MM_PER_INCH, ArenaRexArena, Hazard, Pit, Spikes
from validators.game import Column, TextTable, TravelAnswer, TravelQuery
from validators.game import TravelQueryError as GameTravelQueryError


class TravelQueryError(ValueError):
    """A source or goal the arena does not have (the message says what it has)."""


def _base(arena: ArenaRexArena, text: str) -> tuple[str, float | None]:
    place, _, mm = text.partition("@")
    if not mm:
        return place, None
    try:
        d = float(mm.removesuffix("mm"))
    except ValueError:
        raise TravelQueryError(f"a base is @MM (millimetres), not @{mm}") from None
    if not 0 < d <= 200:
        raise TravelQueryError(f"a base diameter is between 0 and 200 mm, not {d:g}")
    return place, d


def _zone_points(arena: ArenaRexArena, sp: Space, text: str) -> np.ndarray:
    try:
        player = int(text.split(":", 1)[1])
    except ValueError:
        raise TravelQueryError(f"a zone is deploy:N, not {text!r}") from None
    dep = next((d for d in arena.deployment if d.player == player), None)
    if dep is None:
        raise TravelQueryError(f"the arena has no zone {text!r}; it has "
                               f"{', '.join(d.id for d in arena.deployment) or 'none'}")
    try:
        return sp.keep(arena.edge(dep).positions(sp.radius, ZONE_SPACING))
    except ValueError as exc:
        raise TravelQueryError(f"{text}: {exc}") from None


def _xy(text: str) -> tuple[float, float] | None:
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        return None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise TravelQueryError(f"a point needs finite numbers, not {text!r}")
    return (x, y)


def _targets(arena: ArenaRexArena, sp: Space, text: str) -> np.ndarray:
    if text in ("centre", "center"):
        text = ",".join(str(v) for v in arena.centre())
    if text.startswith("deploy:"):
        return _zone_points(arena, sp, text)
    p = _xy(text)
    if p is not None:
        q = sp.nearest_free(p)
        return np.zeros((0, 2)) if q is None else np.array([q])
    pieces: tuple[Pit | Spikes | Hazard, ...] = (*arena.pits, *arena.spikes, *arena.hazards)
    for el in pieces:
        if el.id == text:
            ring = el.shape.to_shapely().buffer(sp.radius + arena.scenario.analysis.melee, quad_segs=16).exterior
            return sp.sample(ring, 0.25)
    ids = ", ".join(e.id for e in pieces) or "none"
    raise TravelQueryError(f"a goal is centre, deploy:N, x,y or the id of a pit, spikes or hazard (the arena has: "
                           f"{ids}), not {text!r}")


def plan(arena: ArenaRexArena, source: str, goal: str) -> dict[str, Any]:
    """The shortest walk from ``source`` to ``goal`` as the JSON the CLI and the service answer
    (raises :class:`TravelQueryError` for a bad query)."""
    src_text, src_mm = _base(arena, source)
    goal_text, goal_mm = _base(arena, goal)
    mm = src_mm or goal_mm
    r = mm / MM_PER_INCH / 2.0 if mm else max(arena.base_radii())
    sp = Space(arena, r)
    if src_text.startswith("deploy:"):
        sources = _zone_points(arena, sp, src_text)
    else:
        p = _xy(src_text)
        if p is None:
            raise TravelQueryError(f"a source is deploy:N or x,y, not {src_text!r}")
        sources = np.array([p]) if sp.contains(np.array([p]))[0] else np.zeros((0, 2))
        if not len(sources):
            raise TravelQueryError(f"a {r * 2 * MM_PER_INCH:g} mm base cannot stand at {src_text} (off the board, "
                                   "or touching a pit, spikes or a hazard that blocks movement)")
    targets = _targets(arena, sp, goal_text)
    dist, routes = sp.paths(sources, targets)
    best = int(np.argmin(dist)) if len(dist) else -1
    length = float(dist[best]) if best >= 0 else math.inf
    reachable = math.isfinite(length)
    mov = arena.scenario.analysis.mov
    return {"from": source, "to": goal, "base_mm": round(r * 2 * MM_PER_INCH, 3), "mov": mov,
            "status": "reached" if reachable else "unreachable", "reason": None, "at_least": None,
            "reachable": reachable, "turns": None, "time": None,
            "length": round(length, 4) if reachable else None, "moves": moves_for(length, mov),
            "activations": None if not reachable else math.ceil(max(moves_for(length, mov) or 0, 1) /
                                                                arena.scenario.analysis.moves),
            "path": [{"x": round(x, 4), "y": round(y, 4)} for x, y in routes[best]] if reachable else []}




def answer(arena: ArenaRexArena, query: TravelQuery) -> TravelAnswer:
    """The query answered as :meth:`validators.game.GameAnalysis.travel` does (the query's
    options are other games': a base walks)."""
    try:
        result = plan(arena, query.source, query.goal)
    except TravelQueryError as exc:
        raise GameTravelQueryError(str(exc)) from None
    src, dst = query.source, query.goal
    if not result["reachable"]:
        return TravelAnswer("unreachable", result, f"{dst} is not reachable from {src} without touching a pit, spikes "
                            "or a blocking hazard.")
    summary = (f"{src} -> {dst} ({result['base_mm']:g} mm base): {result['length']:.2f} in, "
               f"{result['moves']} move(s) at MOV {result['mov']:g}")
    table = TextTable((Column("x"), Column("y")), tuple((f"{st['x']:.2f}", f"{st['y']:.2f}") for st in result["path"]))
    return TravelAnswer("reached", result, summary, table)
