"""What the arena generators share (:mod:`engine.gravstrike.generate`,
:mod:`engine.arenarex.generate`): a genome is one :class:`Gene` per orbit of the symmetry group,
a plan names its symmetry and counts its pieces the same way (:class:`OrbitPlan`), and
:func:`place_orbits` draws genes orbit by orbit until each keeps its clearances.

>>> orbit_size("dihedral", 2, "axis"), orbit_size("rotational", 2, "centre")
(2, 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from engine.symmetry import Where, apply_angle, apply_point, group_size, operations

Checked = TypeVar("Checked")
#: A game's gene type (this module's :class:`Gene`, or a game's own, e.g. Car Wars' centre and turn).
G = TypeVar("G")


@dataclass(frozen=True)
class Gene:
    """One orbit's piece: ``u`` the share of the way from the centre to the edge along the
    direction ``theta`` (degrees), and the piece's turn ``angle``."""

    u: float
    theta: float
    angle: float


Genome = tuple[Gene, ...]


def orbit_size(kind: str, order: int, where: Where) -> int:
    """Pieces in an orbit: the whole group, half of it on a mirror axis, one at the centre."""
    group = group_size(kind, order)
    return 1 if where == "centre" else group // 2 if where == "axis" else group


class OrbitPlan:
    """The symmetry-derived parts of a plan (a dataclass with ``kind``, ``order`` and ``slots``)."""

    kind: str
    order: int
    slots: tuple[Any, ...]

    @property
    def symmetry(self) -> str:
        return self.kind if self.kind == "mirror" else f"{self.kind}:{self.order}"

    @property
    def group(self) -> int:
        return group_size(self.kind, self.order)

    def counts(self) -> dict[str, int]:
        """Pieces of each role the arena gets (after rounding to whole orbits)."""
        out: dict[str, int] = {}
        for s in self.slots:
            out[s.role] = out.get(s.role, 0) + orbit_size(self.kind, self.order, s.where)
        return out


def place_orbits(count: int, first: Callable[[int], Any], genome: Sequence[G] | None, redo: Sequence[int] | None,
                 draw: Callable[[int], G], pieces: Callable[[int, G], list[Checked]],
                 problems: Callable[[list[Checked], list[Checked]], int], tries: int) -> tuple[tuple[G, ...], int]:
    """Genes for ``count`` orbits, placed in the order ``first`` sorts them by: each gene of
    ``redo`` (default all; the others are kept from ``genome``) is drawn (``draw(i)``) until its
    ``pieces`` have no ``problems`` among themselves and with the pieces already down, at most
    ``tries`` times (then the least bad is kept).  Returns the genome and how many problems it
    kept."""
    # without a genome every orbit is drawn (``redo`` is all of them): None holds each place until then
    genes: list[Any] = list(genome) if genome is not None else [None] * count
    todo = set(range(count) if redo is None else redo)
    down: list[Checked] = []
    kept = 0
    for i in sorted(range(count), key=lambda i: (i in todo, first(i), i)):
        if i not in todo:
            down += pieces(i, genes[i])
            continue
        best: tuple[int, G, list[Checked]] | None = None
        for _ in range(tries):
            gene = genes[i] if genome is not None and best is None else draw(i)
            mine = pieces(i, gene)
            bad = problems(mine, down)
            if best is None or bad < best[0]:
                best = (bad, gene, mine)
            if not bad:
                break
        assert best is not None
        genes[i] = best[1]
        down += best[2]
        kept += best[0]
    return tuple(genes), kept


def images(kind: str, order: int, axis: float, p: tuple[float, float], angle: float, period: float
           ) -> list[tuple[tuple[float, float], float, float]]:
    """``p`` (about the origin) and a piece's ``angle`` under every operation of the group,
    images that coincide once - the same place and, when ``period`` is not 0, the same turn
    modulo ``period`` (180 for a bar, 360 for a direction): (the point, rounded as files write
    it; the angle modulo 360; the point's polar angle, for ordering).

    >>> [p for p, _, _ in images("mirror", 1, 0.0, (3.0, 0.0), 0.0, 180.0)]
    [(3.0, 0.0)]
    """
    out: list[tuple[tuple[float, float], float, float]] = []
    seen: set[tuple[float, float, float]] = set()
    for fn, mirror, _ in operations(kind, order, axis):
        x, y = apply_point(fn, p, 0.0, 0.0)
        x, y = round(x, 4) + 0.0, round(y, 4) + 0.0
        a = round(apply_angle(fn, angle, mirror), 3) % 360.0
        key = (round(x, 3), round(y, 3), round(a % period if period else 0.0, 1) % 360.0)
        if key in seen:
            continue
        seen.add(key)
        polar = round(math.degrees(math.atan2(y, x)) % 360.0, 3) % 360.0 if math.hypot(x, y) > 1e-6 else 0.0
        out.append(((x, y), a, polar))
    return out


def changed_genes(count: int, rng: np.random.Generator) -> list[int]:
    """One to three of ``count`` genes, for a mutation to move."""
    return sorted(rng.choice(count, size=min(count, int(rng.integers(1, 4))), replace=False).tolist())


def nudge(gene: Gene, u_range: tuple[float, float], rng: np.random.Generator,
          domain: tuple[float, float] | None = None, width: float = 0.0) -> tuple[float, float]:
    """``gene``'s ``u`` moved a little within ``u_range`` and, unless ``domain`` is None (a piece on
    an axis keeps its direction), its ``theta`` by about 12 % of the sector's ``width`` within
    ``domain``: (u, theta)."""
    u = float(np.clip(gene.u + rng.normal(0.0, 0.08), *u_range))
    if domain is None:
        return u, gene.theta
    return u, float(np.clip(gene.theta + rng.normal(0.0, width * 0.12), *domain))


__all__ = ["Gene", "Genome", "OrbitPlan", "changed_genes", "images", "nudge", "orbit_size", "place_orbits"]
