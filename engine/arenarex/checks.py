"""Arena Rex setup checks: the board, its hazards and the deployment edges, each message quoting
the book (Arena Rex playtest v0.2, shared/seeds/004_dc762f78e7f2abcd.txt; "Lnn" is its line).

* ``ar-board-size`` — "We suggest a board at least 24 x 24 for Arena Rex." (L40)
* ``ar-pits`` — "Your board should have at least two pits" (L40)
* ``ar-hazard-mix`` — "... and a good mix of spikes and hazards." (L40)
* ``ar-deployment`` — "Players alternate deploying miniatures along their board edge, in base to
  base contact with the edge. Find the center of your board edge, your cohort may be deployed up
  to 6 inches away from the center in either direction." (L40)
* ``ar-zone-hazard`` — no column, wall or other terrain hazard that blocks movement stands where
  a base deploys in a zone (L40, the same words as ``ar-deployment``).
* ``ar-zone-room`` — each zone holds the scenario's cohort (``scenario.cohort``) of the largest
  listed base side by side, in base contact with the edge within 6 in of its centre (L40).
* ``ar-symmetry`` — the declared symmetry maps the deployment zones, pits and spikes onto
  themselves.

Every length on a circle board is taken on the circle (:mod:`engine.arenarex.board`), not on the
polygon shapely draws it with.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from engine.arenarex import board
from engine.arenarex import zone_room as room
from engine.arenarex.issues import Issue, inches
from schema.games.arenarex import MM_PER_INCH, ArenaRexArena, Deployment, Pit, Spikes
from schema.games.arenarex.edges import Edge
from schema.shapes import AreaShape, Circle

BOOK_SIZE = "We suggest a board at least 24 x 24 for Arena Rex."
BOOK_PITS = "Your board should have at least two pits"
BOOK_MIX = "Your board should have at least two pits and a good mix of spikes and hazards."
BOOK_EDGE = "Players alternate deploying miniatures along their board edge, in base to base contact with the edge."
BOOK_CENTRE = "Find the center of your board edge"
BOOK_REACH = "your cohort may be deployed up to 6 inches away from the center in either direction."
BOOK_LETHAL = "If any part of a model's base touches a Lethal Hazard (pit, most likely), that model is destroyed."
BOOK_WOUND = "The first time during each attack a model is pushed into a wounding hazard, it suffers 3 damage."
#: Mismatch (inches) still counted as a match under a symmetry.
SYMMETRY_TOLERANCE = 0.05


def board_extent(arena: ArenaRexArena) -> tuple[float, float]:
    """The board's width and depth: the sides of its smallest enclosing rectangle (a circle's
    diameter twice, measured on the circle), shorter first."""
    return board.extent(arena.bounds)


def check_board_size(arena: ArenaRexArena) -> list[Issue]:
    need = arena.scenario.analysis.board_min
    short, long_ = board_extent(arena)
    if short >= need - 1e-6:
        return []
    return [Issue("ar-board-size", "warning", f"the board is {inches(short)} by {inches(long_)} across, less than "
                  f"{inches(need)} one way: \"{BOOK_SIZE}\"", ("bounds",),
                  {"width": round(short, 4), "depth": round(long_, 4), "minimum": need})]


def check_pits(arena: ArenaRexArena) -> list[Issue]:
    need = arena.scenario.analysis.min_pits
    if len(arena.pits) >= need:
        return []
    return [Issue("ar-pits", "warning", f"the board has {len(arena.pits)} pit(s), fewer than {need}: \"{BOOK_PITS}\"",
                  tuple(p.id for p in arena.pits), {"pits": len(arena.pits), "minimum": need})]


def check_hazard_mix(arena: ArenaRexArena) -> list[Issue]:
    missing = [what for what, items in (("spikes", arena.spikes), ("terrain hazards", arena.hazards)) if not items]
    if not missing:
        return []
    return [Issue("ar-hazard-mix", "warning", f"the board has no {' and no '.join(missing)}: \"{BOOK_MIX}\"", (),
                  {"spikes": len(arena.spikes), "hazards": len(arena.hazards)})]


# ------------------------------------------------------------------ deployment


def edges(arena: ArenaRexArena) -> dict[int, Edge]:
    """Each deployment's edge (those whose side or arc fits the board)."""
    out = {}
    for d in arena.deployment:
        try:
            out[d.player] = arena.edge(d)
        except ValueError:
            continue
    return out


def _arcs_overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two counter-clockwise arcs share more than an end point."""
    la, lb = a[1] - a[0], b[1] - b[0]
    start = (b[0] - a[0]) % 360.0
    return start < la - 1e-9 or (360.0 - start) % 360.0 < lb - 1e-9


def _shared_edge(d: Deployment, o: Deployment) -> bool:
    if d.side is not None and o.side is not None:
        return d.side == o.side
    if d.arc is not None and o.arc is not None:
        return _arcs_overlap(d.arc, o.arc)
    return False


def check_deployment(arena: ArenaRexArena) -> list[Issue]:
    an = arena.scenario.analysis
    out: list[Issue] = []
    deps = arena.deployment
    if len(deps) < 2:
        out.append(Issue("ar-deployment", "error", f"the arena has {len(deps)} deployment edge(s); two players each "
                         f"deploy on one: \"{BOOK_EDGE}\"", tuple(d.id for d in deps)))
    if an.deployment_reach > 6.0 + 1e-9:
        out.append(Issue("ar-deployment", "error", f"the deployment reach is {inches(an.deployment_reach)} from the "
                         f"centre of the edge: \"{BOOK_REACH}\"", (), {"reach": an.deployment_reach}))
    found = {}
    for d in deps:
        try:
            e = arena.edge(d)
        except ValueError as exc:
            out.append(Issue("ar-deployment", "error", f"{d.id}: {exc}: \"{BOOK_EDGE}\"", (d.id,)))
            continue
        found[d.player] = e
        if e.off_edge > an.centre_tolerance:
            out.append(Issue("ar-deployment", "error", f"{d.id}'s centre is {inches(e.off_edge)} off its board edge: "
                             f"\"{BOOK_EDGE}\"", (d.id,), {"off_edge": round(e.off_edge, 4)}))
        if e.offset > an.centre_tolerance:
            out.append(Issue("ar-deployment", "error", f"{d.id}'s centre is {inches(e.offset)} from the middle of its "
                             f"edge: \"{BOOK_CENTRE}\"", (d.id,), {"offset": round(e.offset, 4)}))
        want = 2.0 * an.deployment_reach
        if e.zone_length < want - 0.05:
            out.append(Issue("ar-deployment", "warning", f"{d.id}'s zone is {inches(e.zone_length)} long, the edge "
                             f"ends within {inches(an.deployment_reach)} of its centre: \"{BOOK_REACH}\"", (d.id,),
                             {"zone_length": round(e.zone_length, 4)}))
        out += _zone_hazards(arena, d, e)
    for i, d in enumerate(deps):
        for o in deps[i + 1:]:
            if _shared_edge(d, o):
                out.append(Issue("ar-deployment", "error", f"{d.id} and {o.id} deploy on the same board edge; each "
                                 f"player has their own: \"{BOOK_EDGE}\"", (d.id, o.id)))
            elif d.player in found and o.player in found:
                depth = 2.0 * max(arena.base_radii())
                a, b = found[d.player].strip(depth), found[o.player].strip(depth)
                if a.intersection(b).area > 1e-6:
                    out.append(Issue("ar-deployment", "error", f"the zones of {d.id} and {o.id} overlap: \"{BOOK_EDGE}\"",
                                     (d.id, o.id)))
    return out


def _zone_hazards(arena: ArenaRexArena, d: Deployment, e: Edge) -> list[Issue]:
    """A base of every listed size, anywhere in the zone, touches no pit and no spikes."""
    out = []
    depth = 2.0 * max(arena.base_radii())
    groups: tuple[tuple[str, tuple[Pit | Spikes, ...], str], ...] = (("pit", arena.pits, BOOK_LETHAL),
                                                                    ("spikes", arena.spikes, BOOK_WOUND))
    for label, items, book in groups:
        near = _nearby(e, [h.shape for h in items], depth)
        for h, close in zip(items, near):
            if not close:
                continue
            hit = [round(r * 2 * 25.4) for r in arena.base_radii() if _reach(e, r, h.shape) <= r]
            if hit:
                out.append(Issue("ar-deployment", "error", f"a {hit[0]} mm base deployed in {d.id}'s zone touches "
                                 f"{label} {h.id}: \"{book}\"", (d.id, h.id), {"bases_mm": hit}))
    return out


def _nearby(e: Edge, shapes: list[AreaShape], depth: float) -> list[bool]:
    """Which ``shapes`` come within ``depth`` (plus a margin for the drawn arc) of the zone: only
    those can meet a base deployed in it when ``depth`` is the largest base's diameter (one
    vectorised distance, so an arena of many pieces measures only the few near each zone)."""
    if not shapes:
        return []
    gaps = shapely.distance(np.array([s.to_shapely() for s in shapes], dtype=object), e.zone)
    return [bool(g <= depth + 0.01) for g in np.asarray(gaps, dtype=float)]


def _reach(e: Edge, r: float, shape: AreaShape) -> float:
    """How close the centre of a base of radius ``r`` deployed in the zone comes to ``shape``
    (measured on the true arc of a circle board, a circle piece as a circle; ``inf`` when the
    base does not fit)."""
    line = e.fine_centre_line(r)
    if line.is_empty:
        return math.inf
    if isinstance(shape, Circle):
        return max(0.0, float(shapely.distance(ShapelyPoint(shape.center), line)) - shape.radius)
    return float(shapely.distance(shape.to_shapely(), line))


def check_zone_hazards(arena: ArenaRexArena) -> list[Issue]:
    """``ar-zone-hazard``: no terrain hazard that blocks movement (a column, a wall) stands where
    a base of a listed size deploys: the stretch of edge it covers holds no model."""
    out = []
    for p, e in edges(arena).items():
        zone = f"deploy:{p}"
        solid = [h for h in arena.hazards if h.blocks_movement]
        for h, close in zip(solid, _nearby(e, [h.shape for h in solid], 2.0 * max(arena.base_radii()))):
            if not close:
                continue
            hit = [round(r * 2 * MM_PER_INCH) for r in arena.base_radii() if _reach(e, r, h.shape) < r - 1e-9]
            if hit:
                out.append(Issue("ar-zone-hazard", "warning", f"{h.kind} {h.id} stands in {zone}'s zone: a {hit[0]} mm "
                                 "base deployed against the edge there would overlap it, so no model deploys on that "
                                 f"stretch of edge: \"{BOOK_EDGE}\" \"{BOOK_REACH}\"", (zone, h.id),
                                 {"bases_mm": hit, "kind": h.kind}))
    return out


def check_zone_room(arena: ArenaRexArena) -> list[Issue]:
    """``ar-zone-room``: each zone holds the scenario's cohort of the largest listed base side by
    side, every base in contact with the edge within the zone, none on a pit, spikes or a
    hazard that blocks movement (:mod:`engine.arenarex.zone_room`)."""
    n = arena.scenario.cohort
    r = max(arena.base_radii())
    mm = round(r * 2 * MM_PER_INCH, 3)
    out = []
    for p, e in edges(arena).items():
        zone = f"deploy:{p}"
        gap = room.spacing(e, r)
        spans = room.free_spans(arena, e, r)
        fits = room.packed(spans, gap, e.closed, e.centre_length(r), n)
        if fits >= n:
            continue
        need = _zone_need(e, r, n)
        solid = [(s.id, s.shape) for s in arena.spikes] + [(h.id, h.shape) for h in arena.hazards if h.blocks_movement]
        pits = [(p.id, p.shape) for p in arena.pits]
        pieces = [ident for (ident, shape), close in zip(pits, _nearby(e, [x for _, x in pits], 2 * r))
                  if close and _reach(e, r, shape) <= r]
        pieces += [ident for (ident, shape), close in zip(solid, _nearby(e, [x for _, x in solid], 2 * r))
                   if close and _reach(e, r, shape) < r - 1e-9]
        cut = sum(b - a for a, b in spans) < e.centre_length(r) - 1e-6
        why = (f"{', '.join(pieces)} take{'s' if len(pieces) == 1 else ''} part of it" if pieces else
               "the board's outline takes part of it" if cut else
               "the zone is too short" if math.isfinite(need) else "the board is too small for two such bases")
        out.append(Issue("ar-zone-room", "error", f"{zone}'s zone holds {fits} of the cohort's {n} {mm:g} mm bases side "
                         f"by side in contact with the edge ({n} need {inches(need)} of zone with nothing in the way, "
                         f"the zone is {inches(e.zone_length)} long; {why}): \"{BOOK_EDGE}\" \"{BOOK_REACH}\"",
                         (zone, *pieces), {"cohort": n, "base_mm": mm, "fits": fits,
                                           "zone_length": round(e.zone_length, 4),
                                           "needed": round(need, 4) if math.isfinite(need) else None}))
    return out


def _zone_need(e: Edge, r: float, n: int) -> float:
    """The zone (along the edge, between the first and the last base's contact points) ``n``
    bases of radius ``r`` side by side need with nothing in the way."""
    if n <= 1:
        return 0.0
    gap = room.spacing(e, r)
    if e.circle is None:
        return (n - 1) * gap
    rho = e.circle[2] - r
    return (n - 1) * gap / rho * e.circle[2] if math.isfinite(gap) else math.inf


# ------------------------------------------------------------------ symmetry


def transforms(kind: str, order: int, axis: float, centre: tuple[float, float]
               ) -> list[tuple[str, Callable[[BaseGeometry], BaseGeometry]]]:
    """The declared symmetry's non-identity maps: rotations by k * 360 / order, and for mirror
    and dihedral symmetry the reflections in the axes (``axis`` + k * 180 / order)."""
    cx, cy = centre
    out: list[tuple[str, Callable[[BaseGeometry], BaseGeometry]]] = []
    if kind in ("rotational", "dihedral"):
        for k in range(1, order):
            ang = 360.0 * k / order
            out.append((f"rotation by {ang:g} degrees", partial(affinity.rotate, angle=ang, origin=(cx, cy))))
    if kind in ("mirror", "dihedral"):
        for k in range(max(order, 1)):
            ax = axis + 180.0 * k / max(order, 1)
            t = math.radians(ax)
            c, s = math.cos(2 * t), math.sin(2 * t)
            m = [c, s, s, -c, cx - cx * c - cy * s, cy - cx * s + cy * c]
            out.append((f"mirror in the {ax % 180:g} degree axis", partial(affinity.affine_transform, matrix=m)))
    return out


def check_symmetry(arena: ArenaRexArena) -> list[Issue]:
    sym = arena.symmetry
    if sym is None:
        return []
    depth = 2.0 * max(arena.base_radii())
    zones = {f"deploy:{p}": e.strip(depth) for p, e in edges(arena).items()}
    groups = {"deployment zone": zones,
              "pit": {p.id: p.shape.to_shapely() for p in arena.pits},
              "spikes": {s.id: s.shape.to_shapely() for s in arena.spikes}}
    out = []
    for name, fn in transforms(sym.kind, sym.order, sym.axis, sym.center):
        for what, items in groups.items():
            for ident, g in items.items():
                image = fn(g)
                if not any(image.hausdorff_distance(o) <= SYMMETRY_TOLERANCE for o in items.values()):
                    out.append(Issue("ar-symmetry", "warning", f"{what} {ident} has no counterpart under the {name}: "
                                     f"the arena is declared {sym.kind} (order {sym.order}) but this element breaks "
                                     "it, so the players do not face the same board", (ident,)))
    return out


#: The setup checks by code, in order.
SETUP_CHECKS: dict[str, Callable[[ArenaRexArena], list[Issue]]] = {
    "ar-board-size": check_board_size,
    "ar-pits": check_pits,
    "ar-hazard-mix": check_hazard_mix,
    "ar-deployment": check_deployment,
    "ar-zone-hazard": check_zone_hazards,
    "ar-zone-room": check_zone_room,
    "ar-symmetry": check_symmetry,
}

__all__ = ["SETUP_CHECKS", "board_extent", "check_board_size", "check_deployment", "check_hazard_mix",
           "check_pits", "check_symmetry", "check_zone_hazards", "check_zone_room", "edges", "transforms"]
