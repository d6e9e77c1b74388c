"""What the Arena Rex overlays show, computed with the Arena Rex engine's public functions (no Qt:
these run in a child process, :func:`editor.validation.call_in_child`, killed by a newer edit).

* :func:`heat` — :func:`engine.arenarex.fairness.heat_map`: the walking distance from a zone to
  every grid node for one base size, and the moves it takes at MOV inches a move ("Move up to the
  model's MOV value in inches", L18), drawn in bands of 1, 2, 3 (one activation: the free move and
  two more, each a fatigue) and more moves;
* :func:`walks` — shortest walks of a base from a zone to the board's centre
  (:func:`engine.arenarex.fairness.path`), to another zone or the nearest other zone (the
  visibility graph's :meth:`engine.arenarex.space.Space.paths`, as the ``ar-zone-access``
  metric), or into melee range of the nearest pit, spikes or terrain hazard;
* :func:`sight` — :func:`engine.arenarex.sight.sight_grid`: the cells a zone's base positions see,
  terrain hazards that block sight blocking, merged into regions for drawing;
* :func:`finding_query` — which walks a clicked ``ar-`` fairness finding is about.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from editor.games.overlay_work import BLOCKED, CLEAR, NOT_A_PLACE, SightGrid, class_regions

#: Heat bands: (moves, colour, key text); beyond the last band: the "more" colour.
MOVE_BANDS: tuple[tuple[int, str, str], ...] = (
    (1, "#fde725", "1 move (the free move)"),
    (2, "#5ec962", "2 moves (1 fatigue)"),
    (3, "#21918c", "3 moves (2 fatigue: one whole activation)"),
)
MORE_COLOUR = "#3b528b"
MORE_TEXT = "4 or more moves (more than one activation)"
#: The goals of a walk besides ``deploy:N``.
CENTRE, NEAREST_ZONE = "centre", "nearest-zone"
HAZARD_KINDS = ("pit", "spikes", "hazard")


def band_colour(moves: int) -> str | None:
    """The band colour of a number of moves (None: out of reach)."""
    if moves < 0:
        return None
    for upper, colour, _text in MOVE_BANDS:
        if moves <= upper:
            return colour
    return MORE_COLOUR


def radius_of(arena: Any, base_mm: float | None) -> float:
    """A base's radius (inches): ``base_mm`` or the largest listed."""
    from schema.games.arenarex import MM_PER_INCH

    return base_mm / MM_PER_INCH / 2.0 if base_mm is not None else max(arena.base_radii())


@dataclass(frozen=True)
class RexHeat:
    """Moves to reach every grid node from ``player``'s zone: node (i, j) at x0 + i*step,
    y0 + j*step; ``dist`` in inches (inf: no way there), ``moves`` (-1: out of reach)."""

    player: int
    base_mm: float
    mov: float
    x0: float
    y0: float
    step: float
    dist: Any  # numpy float (nx, ny)
    moves: Any  # numpy int (nx, ny)

    def node(self, x: float, y: float) -> tuple[int, int] | None:
        i, j = int(round((x - self.x0) / self.step)), int(round((y - self.y0) / self.step))
        nx, ny = self.moves.shape
        return (i, j) if 0 <= i < nx and 0 <= j < ny else None

    def moves_at(self, x: float, y: float) -> int:
        """The moves to the node nearest (x, y) (-1: out of reach or off the grid)."""
        ij = self.node(x, y)
        return int(self.moves[ij]) if ij is not None else -1

    def colours(self) -> list[list[str | None]]:
        """Each node's band colour (the cell around the node is painted)."""
        lut = {m: band_colour(m) for m in np.unique(self.moves).tolist()}
        return [[lut[m] for m in row] for row in self.moves.tolist()]


def heat(arena: Any, player: int, base_mm: float | None = None) -> RexHeat:
    """The heat map of moves from zone ``deploy:player`` for ``base_mm`` bases (default the
    largest listed)."""
    from engine.arenarex.fairness import heat_map

    fld, moves = heat_map(arena, player, base_mm)
    r = radius_of(arena, base_mm)
    from schema.games.arenarex import MM_PER_INCH

    return RexHeat(player, round(r * 2 * MM_PER_INCH, 3), float(arena.scenario.analysis.mov), fld.x0, fld.y0,
                   fld.step, fld.dist, moves)


@dataclass(frozen=True)
class RexWalk:
    """A base's shortest walk from ``player``'s zone to ``goal`` (``centre``, ``deploy:N``,
    ``nearest-zone`` or ``nearest:KIND``) and where it ended (``reached``: the zone reached, or
    the hazard whose melee range it reached); ``length`` inf when there is no way."""

    player: int
    goal: str
    base_mm: float
    mov: float
    length: float
    points: tuple[tuple[float, float], ...]
    reached: str = ""

    @property
    def moves(self) -> int | None:
        from engine.arenarex.fairness import moves_for

        return moves_for(self.length, self.mov)

    def summary(self) -> str:
        what = goal_text(self.goal) + (f" ({self.reached})" if self.reached and self.goal != self.reached else "")
        if not math.isfinite(self.length):
            return f"deploy:{self.player} to {what}: no way for {self.base_mm:g} mm bases"
        n = self.moves
        return f"deploy:{self.player} to {what}: {self.length:.1f} in, {n} move{'s' if n != 1 else ''}"

    def move_marks(self) -> list[tuple[float, float]]:
        """Where each whole move of MOV inches ends along the walk (the last: the walk's end)."""
        if len(self.points) < 2 or not math.isfinite(self.length):
            return []
        from shapely.geometry import LineString

        line = LineString(self.points)
        marks = [line.interpolate(k * self.mov) for k in range(1, int(self.length // self.mov) + 1)
                 if k * self.mov < self.length - 1e-6]
        return [(float(p.x), float(p.y)) for p in marks] + [self.points[-1]]


def goal_text(goal: str) -> str:
    if goal == CENTRE:
        return "the centre"
    if goal == NEAREST_ZONE:
        return "the nearest zone"
    if goal.startswith("nearest:"):
        return f"melee range of the nearest {goal[8:]}"
    return goal


def walks(arena: Any, pairs: tuple[tuple[int, str], ...], base_mm: float | None = None) -> tuple[RexWalk, ...]:
    """The walk of each (player, goal) of ``pairs`` for ``base_mm`` bases (one shared free space)."""
    from engine.arenarex.fairness import Analysis
    from schema.games.arenarex import MM_PER_INCH

    an = Analysis(arena)
    r = radius_of(arena, base_mm)
    mm = round(r * 2 * MM_PER_INCH, 3)
    mov = float(arena.scenario.analysis.mov)
    out = []
    for player, goal in pairs:
        if player not in an.edges:
            raise KeyError(f"deploy:{player} does not fit the board")
        length, points, reached = _walk(arena, an, player, goal, r)
        out.append(RexWalk(player, goal, mm, mov, length, tuple(points), reached))
    return tuple(out)


def _walk(arena: Any, an: Any, player: int, goal: str, r: float) -> tuple[float, list[tuple[float, float]], str]:
    if goal == CENTRE:
        route = an.centre_route(player, r)
        return route.length, route.points, CENTRE
    src = an.sources(player, r)
    if goal.startswith("nearest:"):
        return _to_hazard(arena, an, player, goal[8:], r)
    others = [p for p in sorted(an.edges) if p != player] if goal == NEAREST_ZONE else [int(goal.removeprefix("deploy:"))]
    best: tuple[float, list[tuple[float, float]], str] = (math.inf, [], "")
    for o in others:
        if o not in an.edges:
            raise KeyError(f"deploy:{o} does not fit the board")
        d, routes = an.space(r).paths(src, an.sources(o, r))
        if len(d) and float(d.min()) < best[0]:
            k = int(np.argmin(d))
            best = (float(d[k]), routes[k], f"deploy:{o}")
    return best


def _to_hazard(arena: Any, an: Any, player: int, kind: str, r: float) -> tuple[float, list[tuple[float, float]], str]:
    """The walk until the base is within melee range of the nearest item of ``kind``, ended on
    the distance field's nearest such node and walked exactly from the zone."""
    import shapely

    items = {"pit": arena.pits, "spikes": arena.spikes, "hazard": arena.hazards}[kind]
    fld = an.field(player, r)
    xs, ys = fld.xy()
    best: tuple[float, str, tuple[float, float]] | None = None
    for h in items:
        grown = h.shape.to_shapely().buffer(r + arena.scenario.analysis.melee, quad_segs=16)
        near = np.asarray(shapely.contains_xy(grown, xs, ys), dtype=bool) & np.isfinite(fld.dist)
        if near.any():
            k = int(np.argmin(np.where(near, fld.dist, np.inf)))
            d = float(fld.dist.flat[k])
            if best is None or d < best[0]:
                best = (d, h.id, (float(xs.flat[k]), float(ys.flat[k])))
    if best is None:
        return math.inf, [], ""
    route = an.space(r).route(an.sources(player, r), best[2])
    return route.length, route.points, best[1]


def sight(arena: Any, player: int) -> SightGrid:
    """What zone ``deploy:player`` sees, as the Car Wars sight layer draws it: seen cells
    CLEAR, unseen BLOCKED, cells off the board or inside a sight-blocking hazard not a place."""
    from engine.arenarex.sight import sight_grid

    g = sight_grid(arena, player)
    classes = np.where(g.board, np.where(g.seen, CLEAR, BLOCKED), NOT_A_PLACE).astype(np.int8)
    return SightGrid(player, g.x0, g.y0, g.cell, classes,
                     class_regions(classes, g.x0, g.y0, g.cell, arena.bounds_geometry()))


_BASE = re.compile(r"with ([\d.]+) mm bases")
_KIND = re.compile(r"(?:nearest|any) (pit|spikes|hazard)\b")


def finding_query(arena: Any, finding: dict[str, Any]) -> tuple[tuple[tuple[int, str], ...], float | None, str] | None:
    """The walks a clicked Arena Rex fairness finding is about: ((player, goal), ...), the base
    (mm, from the message) and a title; None for other findings.  ``ar-centre-access``: both
    zones' walks to the centre; ``ar-zone-access``: each zone's walk to its nearest other zone;
    ``ar-hazard-access``: each zone's walk into melee range of the nearest of the kind;
    ``ar-reach``: the walk that fails (drawn as "no way")."""
    code, message = str(finding.get("code", "")), str(finding.get("message", ""))
    zones = [int(e[7:]) for e in map(str, finding.get("elements", [])) if e.startswith("deploy:") and e[7:].isdigit()]
    zones = [z for z in zones if any(d.player == z for d in arena.deployment)]
    m = _BASE.search(message)
    base = float(m.group(1)) if m else None
    if not zones:
        return None
    if code == "ar-centre-access":
        return tuple((z, CENTRE) for z in zones), base, "Walks to the centre (ar-centre-access)"
    if code == "ar-zone-access":
        return tuple((z, NEAREST_ZONE) for z in zones), base, "Walks to the nearest zone (ar-zone-access)"
    if code == "ar-hazard-access":
        k = _KIND.search(message)
        if k is None:
            return None
        return tuple((z, f"nearest:{k.group(1)}") for z in zones), base, f"Walks to the nearest {k.group(1)} " \
            "(ar-hazard-access)"
    if code == "ar-reach":
        goal = CENTRE if "the centre" in message else (f"deploy:{zones[1]}" if len(zones) > 1 else None)
        if goal is None:
            return None
        return ((zones[0], goal),), base, "The walk that fails (ar-reach)"
    return None


__all__ = ["CENTRE", "HAZARD_KINDS", "MORE_COLOUR", "MORE_TEXT", "MOVE_BANDS", "NEAREST_ZONE", "RexHeat", "RexWalk",
           "band_colour", "finding_query", "goal_text", "heat", "radius_of", "sight", "walks"]
