"""The Mothership battlefield's balance hook (its ruleset's ``balance``): a Mothership slid along
its short side a whole square at a time, its build squares with it, and how a slide carries to
the other player's Mothership under the declared symmetry.

What may move (``--free``): ``motherships``.  The battlefield is the book's "3 x 5 squares" (L1)
and stays.  A Mothership's three squares lie in a line outside a short side ("On the shorter side
there is your Mothership", L6), so its only move is a slide along that line (``steps`` 1 to 3
squares, no turns); its build squares follow it: "Your own Units will be constructed only in the
three squares near your own Mothership" (L14) - after the slide they are the battlefield squares
next to it.  A mirror across the middle of the battlefield keeps a slide's direction along the
short sides, a half turn reverses it (:func:`validators.balance_hooks.carry`).

Seeds: the Mothership(s) a ``mg-motherships``, ``mg-build-squares``, ``mg-symmetry`` or
``mg-approach`` finding names (``mg-approach`` names none: both players' Motherships), both ways
along their line.  The symmetry kept is minus the count of ``mg-symmetry`` findings.
"""

from __future__ import annotations

from typing import Any

from engine.grids import square_neighbours
from engine.mothership.battlefield import battlefield_of
from engine.mothership.checks import check_symmetry
from engine.placement import Offset
from schema.games.mothership import Mothership, MothershipArena
from validators.balance_hooks import Operation, Seed, carry
from validators.findings import Finding
from validators.report import Report

FREE: dict[str, tuple[str, ...]] = {"motherships": ("motherships",)}
CODES = ("mg-motherships", "mg-build-squares", "mg-symmetry", "mg-approach")


def _ship(arena: MothershipArena, ref: str) -> Mothership | None:
    return next((m for m in arena.motherships if m.id == ref), None)


def line_of(m: Mothership) -> tuple[int, int] | None:
    """The unit step along the Mothership's squares (None unless they lie in one row or column)."""
    xs, ys = {x for x, _ in m.squares}, {y for _, y in m.squares}
    if len(m.squares) < 2:
        return None
    if len(ys) == 1:
        return (1, 0)
    if len(xs) == 1:
        return (0, 1)
    return None


class MothershipBalance:
    """The hook (see the module docstring)."""

    unit = "squares"
    free: dict[str, tuple[str, ...]] = FREE
    steps: tuple[float, ...] = (1.0, 2.0, 3.0)
    turns: tuple[float, ...] = ()
    whole_steps = True

    def kind_of(self, arena: MothershipArena, ref: str) -> str | None:
        return "motherships" if _ship(arena, ref) is not None else None

    def name(self, arena: MothershipArena, ref: str) -> str:
        m = _ship(arena, ref)
        return f"Mothership {ref} (player {m.player})" if m is not None else ref

    def moved(self, arena: MothershipArena, ref: str, off: Offset) -> Any:
        """The Mothership slid ``round(off · line)`` squares along its line, its build squares
        the battlefield squares next to its new place."""
        m = _ship(arena, ref)
        assert m is not None
        step = line_of(m)
        if step is None:
            return m
        k = round(off.dx * step[0] + off.dy * step[1])
        if not k:
            return m
        squares = tuple((x + k * step[0], y + k * step[1]) for x, y in m.squares)
        field = set(arena.squares)
        build = sorted({n for s in squares for n in square_neighbours(s) if n in field}, key=lambda s: (s[1], s[0]))
        return Mothership(m.id, m.player, squares, tuple(build), m.hp, m.extensions)

    def fits(self, before: MothershipArena, after: MothershipArena, refs: list[str]) -> bool:
        """Every moved Mothership moved and stays off the battlefield ("The Mothership is NOT
        considered part of the Battlefield", L6)."""
        field = set(before.squares)
        for r in refs:
            a, b = _ship(before, r), _ship(after, r)
            if a is None or b is None or a.squares == b.squares or field & set(b.squares):
                return False
        return True

    def symmetries(self, arena: MothershipArena) -> int:
        return -len(check_symmetry(arena))

    def images(self, arena: MothershipArena, ref: str, off: Offset) -> dict[str, Offset]:
        return carry(ref, off, self._operations(arena, ref))

    def _operations(self, arena: MothershipArena, ref: str) -> list[Operation]:
        m = _ship(arena, ref)
        if m is None or not arena.squares:
            return []
        bf = battlefield_of(arena)
        kind = arena.symmetry.kind if arena.symmetry is not None else "mirror"
        image = {bf.mirror(s, kind) for s in m.squares}
        match = next((o.id for o in arena.motherships if set(o.squares) == image), None)
        if kind == "rotational":
            return [((-1.0, 0.0, 0.0, -1.0), False, match)]
        across = bf.short_sides == ("south", "north")
        return [((1.0, 0.0, 0.0, -1.0) if across else (-1.0, 0.0, 0.0, 1.0), True, match)]

    def seeds(self, arena: MothershipArena, finding: Finding, report: Report) -> list[Seed]:
        if finding.code not in CODES:
            return []
        refs = [r for r in finding.elements if _ship(arena, r) is not None] or [m.id for m in arena.motherships]
        out: list[Seed] = []
        for ref in refs:
            m = _ship(arena, ref)
            step = None if m is None else line_of(m)
            if step is None:
                continue
            ahead, back = ("east", "west") if step == (1, 0) else ("north", "south")
            out.append(Seed(ref, (float(step[0]), float(step[1])), 0.0, f"{ahead} along its side"))
            out.append(Seed(ref, (-float(step[0]), -float(step[1])), 0.0, f"{back} along its side"))
        return out


HOOK = MothershipBalance()
