"""Car Wars's balance hook (its ruleset's ``balance``): the moves that may remove a finding with a
geometric cause, and how a move carries to the arena's symmetric images.

What may move (``--free``): ``walls`` (walls, and obstacles and tokens of weight ``wall``),
``obstacles``, ``terrain``, ``hazards``, ``cards``, ``tokens`` and ``starts``.  Seeds per finding
(the check's own numbers, made a direction):

- ``cw-wall-gap`` (a gap "under one turning key" between walls, or a wall and the edge): each wall
  it names away from the gap's other side (the gap widens);
- ``cw-exposure`` (one start has more hazard dice or higher terrain near it): the hazard cards (or
  terrain) within ``exposure_radius`` of that start away from it, then toward the start with the
  least;
- ``cw-card-reach`` (a card no car can reach from a start): the card toward that start, then
  toward the centre;
- ``cw-start-access`` (a start needs longer to its checkpoints): the checkpoint card nearest the
  favoured start away from it and toward the slow one;
- ``cw-centre-access`` (a start needs longer to the centre): the solid piece nearest that start's
  straight way to the centre, off it either side;
- ``cw-start-key`` (no turning key against the edge touches the car): the start toward the
  nearest edge, then away from what it overlaps.

Steps: 0.25 to 8 in and 10° to 180°.  A piece on the table must stay on it.  A move carries to
an element's images under the symmetry operations the arena has exactly
(:func:`engine.carwars.symmetry.symmetries`): averaged over those that fix the element, then
mapped by each operation's linear part (:func:`validators.balance_hooks.carry`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from typing import Any

from shapely.geometry import LineString, Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.carwars import placement_error
from engine.carwars.checks import wall_geometries
from engine.carwars.symmetry import Symmetry, symmetries
from engine.placement import EDGE_SLACK, Offset
from schema.games.carwars import Card, CarWarsArena, Hazard, Obstacle, StartPosition, Terrain, Token, Wall
from validators.balance_hooks import Seed, carry
from validators.findings import Finding
from validators.report import Report

#: The element kinds (``--free``) and the arena's lists they cover.
FREE: dict[str, tuple[str, ...]] = {
    "walls": ("walls",), "obstacles": ("obstacles",), "terrain": ("terrain",), "hazards": ("hazards",),
    "cards": ("cards",), "tokens": ("tokens",), "starts": ("start_positions",)}
_KIND: dict[type, str] = {Wall: "walls", Obstacle: "obstacles", Terrain: "terrain", Hazard: "hazards", Card: "cards",
                          Token: "tokens", StartPosition: "starts"}
_NAME: dict[type, str] = {Wall: "wall", Obstacle: "obstacle", Terrain: "terrain", Hazard: "hazard card",
                          Card: "card", Token: "token", StartPosition: "start"}


@lru_cache(maxsize=64)
def _symmetries(arena: CarWarsArena) -> tuple[Symmetry, ...]:
    return tuple(symmetries(arena))


def _element(arena: CarWarsArena, ref: str) -> Any:
    try:
        return arena.element(ref)
    except KeyError:
        return None


def _geometry(arena: CarWarsArena, ref: str) -> BaseGeometry | None:
    el = _element(arena, ref)
    if el is None:
        return None
    if isinstance(el, StartPosition):
        return ShapelyPoint(el.position)
    geom: BaseGeometry = el.shape.to_shapely()
    return geom


def _centre(arena: CarWarsArena, ref: str) -> tuple[float, float] | None:
    g = _geometry(arena, ref)
    if g is None or g.is_empty:
        return None
    c = g.centroid
    return (float(c.x), float(c.y))


def _unit(dx: float, dy: float) -> tuple[float, float] | None:
    n = math.hypot(dx, dy)
    return None if n < 1e-9 else (dx / n, dy / n)


def _toward(arena: CarWarsArena, ref: str, at: tuple[float, float] | None, why: str, away: bool = False) -> list[Seed]:
    here = _centre(arena, ref)
    if here is None or at is None:
        return []
    u = _unit(at[0] - here[0], at[1] - here[1])
    if u is None:
        return []
    return [Seed(ref, (-u[0], -u[1]) if away else u, 0.0, why)]


def _start_point(arena: CarWarsArena, ref: str) -> tuple[float, float] | None:
    el = _element(arena, ref)
    return el.position if isinstance(el, StartPosition) else None


class CarWarsBalance:
    """The hook (see the module docstring)."""

    unit = "in"
    free: dict[str, tuple[str, ...]] = FREE
    steps: tuple[float, ...] = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
    turns: tuple[float, ...] = (10.0, 15.0, 30.0, 45.0, 60.0, 90.0, 120.0, 150.0, 180.0)

    def kind_of(self, arena: CarWarsArena, ref: str) -> str | None:
        el = _element(arena, ref)
        return None if el is None else _KIND.get(type(el))

    def name(self, arena: CarWarsArena, ref: str) -> str:
        el = _element(arena, ref)
        if isinstance(el, StartPosition):
            return f"start {el.player}"
        return f"{_NAME[type(el)]} {ref}" if el is not None else ref

    def moved(self, arena: CarWarsArena, ref: str, off: Offset) -> Any:
        el = arena.element(ref)
        if isinstance(el, StartPosition):
            return replace(el, position=(el.position[0] + off.dx, el.position[1] + off.dy), facing=off.angle(el.facing))
        return placement_error.move(el, off)

    def fits(self, before: CarWarsArena, after: CarWarsArena, refs: list[str]) -> bool:
        """The moved pieces that were on the table still are (a card's, token's or start's centre)."""
        table = before.bounds_geometry().buffer(EDGE_SLACK)

        def on(arena: CarWarsArena, ref: str) -> bool:
            el = arena.element(ref)
            g = ShapelyPoint(el.position) if isinstance(el, StartPosition) else placement_error.geometry(el)
            return bool(table.covers(g))

        return all(on(after, r) or not on(before, r) for r in refs)

    def symmetries(self, arena: CarWarsArena) -> int:
        return len(_symmetries(arena))

    def images(self, arena: CarWarsArena, ref: str, off: Offset) -> dict[str, Offset]:
        return carry(ref, off, [(t.linear, t.mirror, t.ids.get(ref)) for t in _symmetries(arena)])

    # ------------------------------------------------------------------ seeds

    def seeds(self, arena: CarWarsArena, finding: Finding, report: Report) -> list[Seed]:
        code, m, els = finding.code, finding.metrics, list(finding.elements)
        if code == "cw-wall-gap":
            return self._widen(arena, m.get("segment"), els)
        if code == "cw-exposure" and len(els) == 2:
            return self._exposure(arena, els[0], els[1], "hazard" in finding.message)
        if code == "cw-card-reach" and len(els) == 2:
            card, start = els
            return (_toward(arena, card, _start_point(arena, start), f"toward {start}")
                    + _toward(arena, card, arena.centre(), "toward the centre"))
        if code == "cw-start-access" and len(els) == 2:
            return self._access(arena, els[0], els[1])
        if code == "cw-centre-access" and len(els) == 2:
            return self._off_the_way(arena, els[0])
        if code == "cw-start-key" and els:
            return self._to_the_edge(arena, els[0], els[1:])
        return []

    def _widen(self, arena: CarWarsArena, segment: Any, els: list[str]) -> list[Seed]:
        """Each wall the gap names away from the gap's other side."""
        if not segment or len(segment) != 2:
            return []
        a, b = (ShapelyPoint(float(p[0]), float(p[1])) for p in segment)
        out: list[Seed] = []
        walls = dict(wall_geometries(arena))
        for ref in els:
            g = walls.get(ref)
            if g is None:
                continue
            mine, other = (a, b) if g.distance(a) <= g.distance(b) else (b, a)
            u = _unit(mine.x - other.x, mine.y - other.y)
            if u is not None:
                out.append(Seed(ref, u, 0.0, "away from the gap's other side"))
        return out

    def _exposure(self, arena: CarWarsArena, hi: str, lo: str, hazards: bool) -> list[Seed]:
        """The hazard cards (or terrain) within the exposure radius of ``hi`` away from it, then
        toward ``lo``."""
        here, there = _start_point(arena, hi), _start_point(arena, lo)
        if here is None:
            return []
        radius = arena.scenario.analysis.exposure_radius
        pieces = [h.id for h in arena.hazards if h.drive_over] if hazards else [t.id for t in arena.terrain]
        near = [r for r in pieces if (g := _geometry(arena, r)) is not None and g.distance(ShapelyPoint(here)) <= radius + 8.0]
        near.sort(key=lambda r: _geometry(arena, r).distance(ShapelyPoint(here)))  # type: ignore[union-attr]
        out: list[Seed] = []
        for r in near:
            out += _toward(arena, r, here, f"away from {hi}", away=True)
        for r in near:
            out += _toward(arena, r, there, f"toward {lo}")
        return out

    def _access(self, arena: CarWarsArena, hi: str, lo: str) -> list[Seed]:
        """The checkpoint card nearest the favoured start ``lo`` away from it, then toward ``hi``."""
        fast, slow = _start_point(arena, lo), _start_point(arena, hi)
        cards = [c for c in arena.cards if c.role == "checkpoint"]
        if fast is None or slow is None or not cards:
            return []
        card = min(cards, key=lambda c: math.dist(c.position, fast)).id
        return _toward(arena, card, fast, f"away from {lo}", away=True) + _toward(arena, card, slow, f"toward {hi}")

    def _off_the_way(self, arena: CarWarsArena, start: str) -> list[Seed]:
        """The solid piece nearest ``start``'s straight way to the centre, off it either side."""
        p = _start_point(arena, start)
        if p is None:
            return []
        way = LineString([p, arena.centre()])
        solid = [(w.id, w.shape.to_shapely()) for w in arena.walls]
        solid += [(o.id, o.shape.to_shapely()) for o in arena.obstacles if o.weight != "drive-thru"]
        solid += [(t.id, t.shape.to_shapely()) for t in arena.tokens if t.weight != "drive-thru"]
        if not solid or way.length < 1e-9:
            return []
        ref = min(solid, key=lambda rg: rg[1].distance(way))[0]
        (x0, y0), (x1, y1) = way.coords[0], way.coords[1]
        u = _unit(-(y1 - y0), x1 - x0)
        assert u is not None
        return [Seed(ref, (s * u[0], s * u[1]), 0.0, f"off {start}'s way to the centre") for s in (1.0, -1.0)]

    def _to_the_edge(self, arena: CarWarsArena, start: str, overlaps: list[str]) -> list[Seed]:
        p = _start_point(arena, start)
        if p is None:
            return []
        edge = arena.bounds_geometry().exterior
        q = edge.interpolate(edge.project(ShapelyPoint(p)))
        out = _toward(arena, start, (float(q.x), float(q.y)), "toward the nearest edge")
        for ref in overlaps:
            c = _centre(arena, ref)
            if c is not None:
                out += _toward(arena, start, c, f"away from {ref}", away=True)
        return out


HOOK = CarWarsBalance()
