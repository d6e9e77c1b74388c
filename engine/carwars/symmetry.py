"""Exact symmetries of a Car Wars arena: the rotations and reflections about its centre that
map every element onto an element of the same kind with the same attributes (cards with their
owners following the starts).  Travel from a start is then travel from its image, so the
fairness metrics plan from one start per orbit and map the answers.

>>> from schema.games.carwars import default_arena
>>> [(s.angle, s.mirror, s.starts) for s in symmetries(default_arena())][:2]
[(90.0, False, {1: 4, 2: 1, 3: 2, 4: 3}), (180.0, False, {1: 3, 2: 4, 3: 1, 4: 2})]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import shapely
from shapely import affinity
from shapely.geometry.base import BaseGeometry

from schema.games.carwars import CarWarsArena

#: Largest mismatch (inches, or square inches of symmetric difference) still counted as equal.
EPS = 1e-6


def _cos_sin(degrees: float) -> tuple[float, float]:
    """The cosine and sine of ``degrees``, exact for quarter turns (so that a quarter turn carries
    a point with coordinates exact in binary to its exact image: simulated play asks a seat's
    questions through these maps, :class:`engine.carwars.play.kit.Frame`)."""
    quarter = degrees / 90.0
    if quarter == round(quarter):
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(round(quarter)) % 4]
    a = math.radians(degrees)
    return math.cos(a), math.sin(a)


@dataclass(frozen=True)
class Symmetry:
    """A rotation by ``angle`` degrees about ``centre``, or (``mirror``) a reflection in the
    line through ``centre`` at ``angle`` degrees; ``starts`` / ``cards`` map players and card
    ids to their images; ``ids`` maps every element's id (starts as ``start:N``) to its image's."""

    angle: float
    mirror: bool
    centre: tuple[float, float]
    starts: dict[int, int]
    cards: dict[str, str]
    ids: dict[str, str] = field(default_factory=dict)

    @property
    def linear(self) -> tuple[float, float, float, float]:
        """The operation's linear part ``(a, b, c, d)``: a vector (x, y) goes to (a x + b y, c x + d y)."""
        if self.mirror:
            c, s = _cos_sin(2 * self.angle)
            return (c, s, s, -c)
        c, s = _cos_sin(self.angle)
        return (c, -s, s, c)

    def point(self, x: float, y: float) -> tuple[float, float]:
        cx, cy = self.centre
        dx, dy = x - cx, y - cy
        if self.mirror:
            c, s = _cos_sin(2 * self.angle)
            return (cx + dx * c + dy * s, cy + dx * s - dy * c)
        c, s = _cos_sin(self.angle)
        return (cx + dx * c - dy * s, cy + dx * s + dy * c)

    def heading(self, h: float) -> float:
        return (2 * self.angle - h) % 360.0 if self.mirror else (h + self.angle) % 360.0

    def inverse(self) -> Symmetry:
        """The operation undoing this one (a reflection is its own inverse), its maps reversed."""
        return Symmetry(self.angle if self.mirror else (-self.angle) % 360.0, self.mirror, self.centre,
                        {b: a for a, b in self.starts.items()}, {b: a for a, b in self.cards.items()},
                        {b: a for a, b in self.ids.items()})

    def geometry(self, g: BaseGeometry) -> BaseGeometry:
        cx, cy = self.centre
        if self.mirror:
            a = math.radians(self.angle)
            c, s = math.cos(2 * a), math.sin(2 * a)
            return affinity.affine_transform(g, [c, s, s, -c, cx - cx * c - cy * s, cy - cx * s + cy * c])
        return affinity.rotate(g, self.angle, origin=(cx, cy))


def _same(a: BaseGeometry, b: BaseGeometry) -> bool:
    if abs(a.area - b.area) > EPS * max(1.0, a.area):
        return False
    if a.area > 0:
        return bool(shapely.symmetric_difference(a, b).area <= EPS * max(1.0, a.area))
    return bool(a.hausdorff_distance(b) <= EPS)


def _match(items: Sequence[tuple[str, Any, BaseGeometry]], t: Symmetry) -> dict[str, str] | None:
    """Map each item (id, attributes, geometry) to one with equal attributes whose geometry is
    the image of its own; None when some item has no image."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for ident, attrs, geom in items:
        image = t.geometry(geom)
        c = image.centroid
        hit = None
        for other, oattrs, ogeom in items:
            if other in used or oattrs != attrs:
                continue
            oc = ogeom.centroid
            if math.hypot(c.x - oc.x, c.y - oc.y) > 1e-5 or not _same(image, ogeom):
                continue
            hit = other
            break
        if hit is None:
            return None
        used.add(hit)
        out[ident] = hit
    return out


def _owner_image(owner: int | None, starts: dict[int, int]) -> int | None:
    return None if owner is None else starts.get(owner, -1)


def _candidates(arena: CarWarsArena) -> list[tuple[float, bool]]:
    rotations = sorted({round(360.0 * k / n, 6) for n in (2, 3, 4, 6) for k in range(1, n)})
    axes = {0.0, 45.0, 90.0, 135.0, 30.0, 60.0, 120.0, 150.0}
    if arena.symmetry is not None:
        axes.add(round(arena.symmetry.axis % 180.0, 6))
    return [(a, False) for a in rotations] + [(a, True) for a in sorted(axes)]


def symmetries(arena: CarWarsArena) -> list[Symmetry]:
    """Every candidate rotation (by 360/n, n = 2, 3, 4, 6) and reflection (axes every 15 or 45
    degrees, and the declared one) about the arena's centre that maps the arena onto itself."""
    return card_symmetries(arena, layout_symmetries(arena))


def layout_symmetries(arena: CarWarsArena) -> list[Symmetry]:
    """The candidates of :func:`symmetries` that map every element but the numbered cards onto
    itself (their ``cards`` empty): what a card drag leaves alone, so an editor computes it once
    per layout and only :func:`card_symmetries` per drag (about 20 ms against well under one)."""
    centre = arena.centre()
    walls = [(w.id, (w.cover,), w.shape.to_shapely()) for w in arena.walls]
    obstacles = [(o.id, (o.cover, o.weight, o.durability, o.face_up), o.shape.to_shapely()) for o in arena.obstacles]
    terrain = [(t.id, (t.level,), t.shape.to_shapely()) for t in arena.terrain]
    hazards = [(h.id, (h.dice, h.drive_over, h.cover), h.shape.to_shapely()) for h in arena.hazards]
    tokens = [(t.id, (t.kind, t.weight, t.cover, t.durability, t.face_up), t.shape.to_shapely()) for t in arena.tokens]
    out: list[Symmetry] = []
    for angle, mirror in _candidates(arena):
        t = Symmetry(angle, mirror, centre, {}, {})
        if not _same(t.geometry(arena.bounds_geometry()), arena.bounds_geometry()):
            continue
        starts: dict[int, int] = {}
        for s in arena.start_positions:
            x, y = t.point(*s.position)
            h = t.heading(s.facing)
            img = next((o for o in arena.start_positions if math.hypot(o.position[0] - x, o.position[1] - y) <= 1e-5
                        and abs((o.facing - h + 180.0) % 360.0 - 180.0) <= 1e-5), None)
            if img is None:
                break
            starts[s.player] = img.player
        if len(starts) != len(arena.start_positions):
            continue
        t = Symmetry(angle, mirror, centre, starts, {})
        maps = [_match(items, t) for items in (walls, obstacles, terrain, hazards, tokens)]
        if any(m is None for m in maps):
            continue
        ids = {f"start:{a}": f"start:{b}" for a, b in starts.items()}
        for m in maps:
            ids.update(m or {})
        out.append(Symmetry(angle, mirror, centre, starts, {}, ids))
    return out


def card_symmetries(arena: CarWarsArena, layout: list[Symmetry]) -> list[Symmetry]:
    """Those of ``layout`` (:func:`layout_symmetries` of an arena differing from ``arena`` at
    most in its numbered cards) that also map the cards onto cards of the same role and dice,
    owners following the starts."""
    cards = [(c.id, (c.role, c.dice), c.shape.to_shapely()) for c in arena.cards]
    owner = {c.id: c.owner for c in arena.cards}
    out: list[Symmetry] = []
    for t in layout:
        cmap = _match(cards, t)
        if cmap is None:
            continue
        if any(_owner_image(owner[a], t.starts) != owner[b] for a, b in cmap.items()):
            continue
        starts = {k: v for k, v in t.ids.items() if k.startswith("start:")}
        rest = {k: v for k, v in t.ids.items() if not k.startswith("start:")}
        out.append(Symmetry(t.angle, t.mirror, t.centre, t.starts, cmap, starts | cmap | rest))
    return out
