"""Setup checks for a Mothership battlefield: pure functions returning :class:`Issue` values
(code, severity, message quoting the book, element ids, metrics).

>>> from schema.games.mothership import default_arena
>>> [i.code for i in check_all(default_arena())]
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.findings import Issue as Issue  # the games share one finding type
from engine.mothership.battlefield import OPPOSITE, battlefield_of
from engine.mothership.rules import BUILD_SQUARES, MOTHERSHIP_HP, MOTHERSHIP_SQUARES, PLAYERS
from schema.games.mothership import MothershipArena

SIZE_RULE = "\"The Battlefield (or BF) is 3 x 5 squares.\""
SIDE_RULE = ("\"On the shorter side there is your Mothership (your Base) ... The Mothership is NOT considered part "
             "of the Battlefield.\"")
HP_RULE = "\"The 3 squares of the Mothership share a common of 5 HP.\""
BUILD_RULE = "\"Your own Units will be constructed only in the three squares near your own Mothership.\""


def _sq(squares: Any) -> list[list[int]]:
    return [[x, y] for x, y in sorted(squares)]


def check_size(arena: MothershipArena) -> list[Issue]:
    """``mg-size``: the battlefield fills a rectangle of the scenario's size (3 x 5 unless the
    scenario says otherwise)."""
    bf = battlefield_of(arena)
    short, long_ = sorted(arena.scenario.size)
    if not bf.squares:
        return [Issue("mg-size", "error", f"The battlefield has no squares: {SIZE_RULE}")]
    out = []
    twice = sorted(s for s, n in Counter(arena.squares).items() if n > 1)
    if twice:
        out.append(Issue("mg-size", "warning", f"{len(twice)} square(s) are listed more than once.",
                         metrics={"squares": _sq(twice)}))
    w, h = bf.size
    if not bf.is_rectangle:
        x0, y0, x1, y1 = bf.extent
        holes = sorted((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1) if (x, y) not in bf.squares)
        out.append(Issue("mg-size", "error",
                         f"The battlefield is not a full {w} x {h} rectangle: {len(holes)} square(s) missing. {SIZE_RULE}",
                         metrics={"missing": _sq(holes), "size": [w, h]}))
    if sorted((w, h)) != [short, long_]:
        out.append(Issue("mg-size", "error",
                         f"The battlefield is {min(w, h)} x {max(w, h)} squares; the scenario calls for {short} x {long_}. "
                         f"{SIZE_RULE}", metrics={"size": [w, h], "expected": [short, long_]}))
    return out


def check_motherships(arena: MothershipArena) -> list[Issue]:
    """``mg-motherships``: one Mothership per player, three squares outside the battlefield
    along a short side, the two on opposite short sides, 5 HP."""
    bf = battlefield_of(arena)
    out = []
    players = Counter(m.player for m in arena.motherships)
    if sorted(players) != list(PLAYERS) or any(n > 1 for n in players.values()):
        out.append(Issue("mg-motherships", "error",
                         f"The battlefield has {len(arena.motherships)} Mothership(s) for players "
                         f"{sorted(players.elements())}; it needs one for each of the two players. {SIDE_RULE}",
                         tuple(m.id for m in arena.motherships), {"players": sorted(players.elements())}))
    sides = {}
    for m in arena.motherships:
        problems = []
        if len(m.squares) != MOTHERSHIP_SQUARES or len(set(m.squares)) != len(m.squares):
            problems.append(f"has {len(set(m.squares))} square(s), not three ({HP_RULE})")
        inside = [s for s in m.squares if s in bf.squares]
        if inside:
            problems.append(f"covers {len(inside)} battlefield square(s) ({SIDE_RULE})")
        side = bf.side_of(m)
        if side is None or side not in bf.short_sides:
            problems.append(f"is not along a short side of the battlefield ({SIDE_RULE})")
        elif not _centred(bf.side_squares(side), m.squares):
            problems.append(f"does not sit in one piece in the middle of the {side} side ({SIDE_RULE})")
        else:
            sides[m.id] = side
        if problems:
            out.append(Issue("mg-motherships", "error", f"Mothership {m.id} (player {m.player}) " + "; ".join(problems) + ".",
                             (m.id,), {"squares": _sq(m.squares), "side": side}))
        if m.hp != MOTHERSHIP_HP:
            out.append(Issue("mg-motherships", "warning", f"Mothership {m.id} has {m.hp} HP; the book's has 5: {HP_RULE}",
                             (m.id,), {"hp": m.hp}))
    placed = [m for m in arena.motherships if m.id in sides]
    if len(placed) == 2 and sides[placed[0].id] != OPPOSITE[sides[placed[1].id]]:
        out.append(Issue("mg-motherships", "error",
                         f"Motherships {placed[0].id} and {placed[1].id} are not on opposite short sides. {SIDE_RULE}",
                         (placed[0].id, placed[1].id), {"sides": [sides[placed[0].id], sides[placed[1].id]]}))
    return out


def _centred(row: tuple[tuple[int, int], ...], squares: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``squares`` are contiguous along ``row`` (the squares outside one side, in
    order) and centred on it (the gaps either end differ by at most one square).  On the book's
    3-square short side that is the whole side."""
    idx = sorted(row.index(s) for s in set(squares) if s in row)
    if not idx or idx != list(range(idx[0], idx[0] + len(idx))):
        return False
    return abs(idx[0] - (len(row) - 1 - idx[-1])) <= 1


def check_build_squares(arena: MothershipArena) -> list[Issue]:
    """``mg-build-squares``: each player's build squares are exactly the three battlefield
    squares next to their own Mothership."""
    bf = battlefield_of(arena)
    out = []
    for m in arena.motherships:
        near = set(bf.adjacent_row(m))
        given = set(m.build_squares)
        extra, missing = sorted(given - near), sorted(near - given)
        problems = []
        if extra:
            problems.append(f"{len(extra)} build square(s) not next to it")
        if missing:
            problems.append(f"{len(missing)} square(s) next to it not marked for building")
        if len(near) != BUILD_SQUARES:
            problems.append(f"{len(near)} battlefield square(s) next to it instead of three")
        if problems:
            out.append(Issue("mg-build-squares", "error",
                             f"Mothership {m.id} (player {m.player}) has " + "; ".join(problems) + f". {BUILD_RULE}",
                             (m.id,), {"extra": _sq(extra), "missing": _sq(missing), "near": _sq(near)}))
    return out


def check_symmetry(arena: MothershipArena) -> list[Issue]:
    """``mg-symmetry``: the two players' halves match (mirror across the middle between the
    short sides, or a half turn when the arena declares ``rotational``)."""
    bf = battlefield_of(arena)
    if not bf.squares:
        return []
    kind = arena.symmetry.kind if arena.symmetry is not None else "mirror"
    out = []
    off = sorted(s for s in bf.squares if bf.mirror(s, kind) not in bf.squares)
    if off:
        out.append(Issue("mg-symmetry", "warning",
                         f"The two halves of the battlefield do not {'mirror' if kind == 'mirror' else 'match by a half turn'}: "
                         f"{len(off)} square(s) have no counterpart.", metrics={"squares": _sq(off)}))
    try:
        m1, m2 = arena.mothership(1), arena.mothership(2)
    except KeyError:
        return out
    for what, a, b in (("Mothership squares", m1.squares, m2.squares), ("build squares", m1.build_squares, m2.build_squares)):
        if {bf.mirror(s, kind) for s in a} != set(b):
            out.append(Issue("mg-symmetry", "warning",
                             f"The players' {what} do not match across the battlefield ({kind}).", (m1.id, m2.id),
                             {"player1": _sq(a), "player2": _sq(b)}))
    if m1.hp != m2.hp:
        out.append(Issue("mg-symmetry", "warning", f"The Motherships have {m1.hp} and {m2.hp} HP.", (m1.id, m2.id),
                         {"hp": [m1.hp, m2.hp]}))
    return out


CHECKS: dict[str, Callable[[MothershipArena], list[Issue]]] = {
    "mg-size": check_size,
    "mg-motherships": check_motherships,
    "mg-build-squares": check_build_squares,
    "mg-symmetry": check_symmetry,
}


def check_all(arena: MothershipArena) -> list[Issue]:
    """Every setup check not disabled by the scenario's analysis."""
    disabled = set(arena.scenario.analysis.disabled)
    return [i for code, fn in CHECKS.items() if code not in disabled for i in fn(arena)]
