"""Arena Rex's balance hook (its ruleset's ``balance``): the terrain moves that may remove a zone
gap, and how a move carries to the declared symmetry's images.

What may move (``--free``): ``pits``, ``spikes`` and ``hazards``; the deployment zones are the
board's edges ("Find the center of your board edge") and stay.  Seeds per finding:

- ``ar-hazard-access`` (a pit, spikes or hazard much nearer one zone): the piece of that kind
  nearest the favoured zone, away from it, then toward the zone it is far from;
- ``ar-kill-band`` (one zone reaches far more board from which pushes put a model into a pit):
  the pit nearest that zone, away from it, then toward the other zone;
- ``ar-deployment`` (a base in a zone touches a pit or spikes), ``ar-zone-hazard`` (a column or
  wall where bases deploy) and ``ar-zone-room`` naming pieces (they take the room the cohort
  needs): each named piece away from the zone;
- ``ar-centre-access`` (one zone's walk to the centre is longer): the movement-blocking hazard
  nearest that zone's straight way to the centre, off it either side.

Steps: 0.25 to 8 in and 10° to 180°.  A piece's images are the pieces of its kind its shape
lands on under each operation of the declared symmetry (:func:`engine.arenarex.checks.transforms`,
within the ``ar-symmetry`` tolerance); the symmetry kept is counted as minus the elements the
``ar-symmetry`` check finds without a counterpart.
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import LineString, Point
from shapely.ops import nearest_points

from engine.arenarex import board, placement_error
from engine.arenarex.checks import SYMMETRY_TOLERANCE, check_symmetry, transforms
from engine.placement import EDGE_SLACK, Offset
from schema.games.arenarex import ArenaRexArena, Deployment
from validators.balance_hooks import Operation, Seed, carry
from validators.findings import Finding
from validators.report import Report

FREE: dict[str, tuple[str, ...]] = {"pits": ("pits",), "spikes": ("spikes",), "hazards": ("hazards",)}
#: The finding's ``kind`` metric -> the arena's list.
_LIST = {"pit": "pits", "spikes": "spikes", "hazard": "hazards"}
_NAME = {"pits": "pit", "spikes": "spikes", "hazards": "hazard"}


def _list_of(arena: ArenaRexArena, ref: str) -> str | None:
    for kind in FREE:
        if any(p.id == ref for p in getattr(arena, kind)):
            return kind
    return None


def _zone_centre(arena: ArenaRexArena, ref: str, piece: str | None = None) -> tuple[float, float] | None:
    """The zone's point nearest ``piece``'s centre (its centroid when the centre is in it or no
    piece is given): a piece moved away from it leaves the zone the shortest way."""
    el = arena.element(ref)
    if not isinstance(el, Deployment):
        return None
    g = arena.element_shape(el).to_shapely()
    if g.is_empty:
        return None
    if piece is not None:
        here = Point(_centre(arena, piece))
        if g.distance(here) > 1e-6:
            near = nearest_points(g, here)[0]
            return (float(near.x), float(near.y))
    return (float(g.centroid.x), float(g.centroid.y))


def _centre(arena: ArenaRexArena, ref: str) -> tuple[float, float]:
    c = arena.element(ref).shape.to_shapely().centroid  # type: ignore[union-attr]
    return (float(c.x), float(c.y))


def _seed(arena: ArenaRexArena, ref: str, at: tuple[float, float] | None, why: str, away: bool = False) -> list[Seed]:
    if at is None:
        return []
    here = _centre(arena, ref)
    dx, dy = at[0] - here[0], at[1] - here[1]
    n = math.hypot(dx, dy)
    if n < 1e-9:
        return []
    u = (-dx / n, -dy / n) if away else (dx / n, dy / n)
    return [Seed(ref, u, 0.0, why)]


def _nearest_piece(arena: ArenaRexArena, kind: str, zone: str) -> str | None:
    el = arena.element(zone)
    if not isinstance(el, Deployment):
        return None
    g = arena.element_shape(el).to_shapely()
    pieces = getattr(arena, kind)
    if not pieces or g.is_empty:
        return None
    return str(min(pieces, key=lambda p: p.shape.to_shapely().distance(g)).id)


def _ends(values: dict[str, Any]) -> tuple[str, str] | None:
    known = {k: float(v) for k, v in values.items() if v is not None}
    if len(known) < 2:
        return None
    return min(known, key=lambda k: known[k]), max(known, key=lambda k: known[k])


class ArenaRexBalance:
    """The hook (see the module docstring)."""

    unit = "in"
    free: dict[str, tuple[str, ...]] = FREE
    steps: tuple[float, ...] = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
    turns: tuple[float, ...] = (10.0, 15.0, 30.0, 45.0, 60.0, 90.0, 120.0, 150.0, 180.0)

    def kind_of(self, arena: ArenaRexArena, ref: str) -> str | None:
        return _list_of(arena, ref)

    def name(self, arena: ArenaRexArena, ref: str) -> str:
        kind = _list_of(arena, ref)
        return f"{_NAME[kind]} {ref}" if kind else ref

    def moved(self, arena: ArenaRexArena, ref: str, off: Offset) -> Any:
        return placement_error.move(arena.element(ref), off)

    def fits(self, before: ArenaRexArena, after: ArenaRexArena, refs: list[str]) -> bool:
        def on(a: ArenaRexArena, ref: str) -> bool:  # on the board as drawn (a circle as a circle)
            return board.covers(before.bounds, a.element(ref).shape, EDGE_SLACK)  # type: ignore[union-attr]
        return all(on(after, r) or not on(before, r) for r in refs)

    def symmetries(self, arena: ArenaRexArena) -> int:
        return -len(check_symmetry(arena))

    def images(self, arena: ArenaRexArena, ref: str, off: Offset) -> dict[str, Offset]:
        return carry(ref, off, self._operations(arena, ref))

    def _operations(self, arena: ArenaRexArena, ref: str) -> list[Operation]:
        sym = arena.symmetry
        kind = _list_of(arena, ref)
        if sym is None or kind is None:
            return []
        cx, cy = sym.center
        shape = arena.element(ref).shape.to_shapely()  # type: ignore[union-attr]
        out: list[Operation] = []
        for _, fn in transforms(sym.kind, sym.order, sym.axis, sym.center):
            o, ex, ey = (fn(Point(x, y)) for x, y in ((cx, cy), (cx + 1.0, cy), (cx, cy + 1.0)))
            lin = (ex.x - o.x, ey.x - o.x, ex.y - o.y, ey.y - o.y)
            image = fn(shape)
            match = next((str(p.id) for p in getattr(arena, kind)
                          if p.shape.to_shapely().hausdorff_distance(image) <= SYMMETRY_TOLERANCE), None)
            out.append((lin, lin[0] * lin[3] - lin[1] * lin[2] < 0, match))
        return out

    def seeds(self, arena: ArenaRexArena, finding: Finding, report: Report) -> list[Seed]:
        m = finding.metrics
        if finding.code == "ar-hazard-access":
            kind, ends = _LIST.get(str(m.get("kind"))), _ends(m.get("nearest") or {})
            return self._pair(arena, kind, ends, f"nearest {m.get('kind')}")
        if finding.code == "ar-kill-band":
            ends = _ends(m.get("kill_band") or {})
            return self._pair(arena, "pits", (ends[1], ends[0]) if ends else None, "kill band")
        if finding.code in ("ar-deployment", "ar-zone-hazard", "ar-zone-room") and len(finding.elements) >= 2:
            zone, *pieces = finding.elements
            return [seed for piece in pieces if _list_of(arena, piece)
                    for seed in _seed(arena, piece, _zone_centre(arena, zone, piece), f"away from {zone}", away=True)]
        if finding.code == "ar-centre-access":
            ends = _ends(m.get("centre") or {})
            return self._off_the_way(arena, ends[1]) if ends else []
        return []

    def _pair(self, arena: ArenaRexArena, kind: str | None, ends: tuple[str, str] | None, what: str) -> list[Seed]:
        """The piece of ``kind`` nearest the favoured zone ``ends[0]``: away from it, then toward
        ``ends[1]``."""
        if kind is None or ends is None:
            return []
        near, far = ends
        piece = _nearest_piece(arena, kind, near)
        if piece is None:
            return []
        return (_seed(arena, piece, _zone_centre(arena, near, piece), f"away from {near}", away=True)
                + _seed(arena, piece, _zone_centre(arena, far), f"toward {far}"))

    def _off_the_way(self, arena: ArenaRexArena, zone: str) -> list[Seed]:
        start = _zone_centre(arena, zone)
        blocking = [h for h in arena.hazards if h.blocks_movement]
        if start is None or not blocking:
            return []
        way = LineString([start, arena.centre()])
        piece = min(blocking, key=lambda h: h.shape.to_shapely().distance(way))
        dx, dy = way.coords[1][0] - start[0], way.coords[1][1] - start[1]
        n = math.hypot(dx, dy)
        if n < 1e-9:
            return []
        return [Seed(piece.id, (s * -dy / n, s * dx / n), 0.0, f"off {zone}'s way to the centre") for s in (1.0, -1.0)]


HOOK = ArenaRexBalance()
