"""Start sets: which starts (or zones) play at each player count, for any game with starts.

A scenario may declare ``start_sets``: player count -> the start numbers that play at that count,
in the game's own numbering - the numbers its users see on the table and in findings (a start's
``start:N``, a zone's Airspeed Track...).  A game with starts gives its
:class:`schema.ruleset.Ruleset` a ``starts`` hook returning a :class:`StartSlots`: how many
starts an arena has, the element of start number ``k``, the declared sets, and the arena with
only a given set of starts (:meth:`StartSlots.subset`: the starts keep their numbers, so every
finding names them as the file does; the declared symmetry shrinks to the part of its group
that maps the kept starts onto themselves, :func:`kept_symmetry`).

This module names no game: each game's package makes its :class:`StartSlots` from the names of
its own fields (the list of starts, the field that numbers them, the scenario's count).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from schema.shapes import Point

#: A player count's key in ``scenario.start_sets`` (a JSON object's keys are strings).
COUNT_KEY = re.compile(r"^[1-9][0-9]?$")

#: Declared start sets as the typed arenas hold them (hashable): ((count, (start, ...)), ...),
#: by count.
StartSets = tuple[tuple[int, tuple[int, ...]], ...]

#: A symmetry as (kind, order, axis in degrees); None: none.
Group = tuple[str, int, float]


def start_sets_from(value: Any) -> StartSets:
    """``scenario.start_sets`` of a document (validated) as the typed arena holds it.

    >>> start_sets_from({"3": [1, 3, 5], "2": [1, 4]})
    ((2, (1, 4)), (3, (1, 3, 5)))
    """
    if not isinstance(value, Mapping):
        return ()
    return tuple(sorted((int(k), tuple(int(n) for n in v)) for k, v in value.items()))


def start_sets_document(sets: StartSets) -> dict[str, list[int]]:
    """The document form of ``sets`` (keys as strings, by count)."""
    return {str(k): list(v) for k, v in sorted(sets)}


def start_set_problems(doc: Any, numbers: Iterable[int], *, where: str = "scenario", noun: str = "start",
                       count_field: str = "players") -> list[tuple[str, str]]:
    """What the JSON Schema cannot say of ``scenario.start_sets``, as (JSON pointer, message):
    a start number the arena does not have, a number listed twice, a set whose length is not its
    count.  ``numbers``: the arena's start numbers; ``noun`` names a start in messages."""
    scenario = doc.get(where) if isinstance(doc, dict) else None
    sets = scenario.get("start_sets") if isinstance(scenario, dict) else None
    if not isinstance(sets, dict):
        return []
    have = sorted(set(numbers))
    listed = ", ".join(map(str, have)) or "none"
    out: list[tuple[str, str]] = []
    base = f"/{where}/start_sets"
    for key, chosen in sets.items():
        if not COUNT_KEY.match(str(key)) or not isinstance(chosen, list):
            continue  # the schema says so
        seen: set[int] = set()
        for i, n in enumerate(chosen):
            if not isinstance(n, int) or isinstance(n, bool):
                continue
            if n in seen:
                out.append((f"{base}/{key}/{i}", f"{noun} {n} is listed twice in the {key}-{count_field.rstrip('s')} set"))
            elif n not in have:
                out.append((f"{base}/{key}/{i}", f"the arena has no {noun} {n} (its {noun}s: {listed})"))
            seen.add(n)
        if len(chosen) != int(key):
            out.append((f"{base}/{key}", f"the {key}-{count_field.rstrip('s')} set lists {len(chosen)} {noun}(s); "
                                          f"it lists one {noun} per {count_field.rstrip('s')}, {key} in all"))
    return out


def kept_symmetry(group: Group | None, centre: Point, points: Mapping[int, Point], kept: Iterable[int],
                  tol: float = 0.05) -> Group | None:
    """The part of the declared symmetry ``group`` that maps the ``kept`` starts onto themselves
    (``points``: every start's position), as a symmetry an arena declares: the declared group
    when it keeps them all, a smaller rotational, mirror or dihedral group, or None (only the
    identity).  A start maps onto one within ``tol`` of its image.

    >>> hexagon = {k: (math.cos(math.radians(30 + 60 * (k - 1))), math.sin(math.radians(30 + 60 * (k - 1))))
    ...            for k in range(1, 7)}
    >>> kept_symmetry(("dihedral", 3, 0.0), (0, 0), hexagon, [1, 3, 5])
    ('rotational', 3, 0.0)
    >>> kept_symmetry(("dihedral", 3, 0.0), (0, 0), hexagon, [1, 2, 4, 5])
    ('mirror', 1, 60.0)
    >>> kept_symmetry(("rotational", 2, 90.0), (0, 0), hexagon, [1, 2])
    """
    if group is None:
        return None
    kind, order, axis = group
    chosen = [points[k] for k in kept if k in points]
    if not chosen:
        return group
    cx, cy = centre

    def keeps(rotate: float | None, mirror: float | None) -> bool:
        for x, y in chosen:
            dx, dy = x - cx, y - cy
            if mirror is not None:
                t = math.radians(2 * mirror)
                dx, dy = dx * math.cos(t) + dy * math.sin(t), dx * math.sin(t) - dy * math.cos(t)
            if rotate is not None:
                t = math.radians(rotate)
                dx, dy = dx * math.cos(t) - dy * math.sin(t), dx * math.sin(t) + dy * math.cos(t)
            if not any(math.hypot(cx + dx - px, cy + dy - py) <= tol for px, py in chosen):
                return False
        return True

    n = max(1, order)
    rotations = [k for k in range(1, n) if kind in ("rotational", "dihedral") and keeps(360.0 * k / n, None)]
    mirrors = [axis + 180.0 * k / (n if kind == "dihedral" else 1)
               for k in range(n if kind == "dihedral" else 1 if kind == "mirror" else 0)]
    kept_mirrors = [m % 180.0 for m in mirrors if keeps(None, m)]
    turns = n // math.gcd(n, *rotations) if rotations else 1  # the rotations kept form a cyclic group
    if turns > 1 and kept_mirrors:
        return ("dihedral", turns, min(kept_mirrors))
    if turns > 1:
        return ("rotational", turns, axis)
    if kept_mirrors:
        return ("mirror", 1, min(kept_mirrors))
    return None


@dataclasses.dataclass(frozen=True)
class StartSlots:
    """A game's starts as start sets see them, from the names of its fields: ``items`` the
    arena's list of starts (``start_positions``), ``number`` the field numbering each
    (``player``), ``count`` the scenario's field the sets are keyed by (``players``); ``noun``
    names a start in messages.  A game overrides :meth:`point`, :meth:`centre` and
    :meth:`symmetry_group`/:meth:`with_symmetry` when its starts or symmetry are not a position
    and a :class:`schema.shapes.Symmetry`.  ``whole_arena_codes``: the game's checks of the arena
    as built rather than of the starts that play (a Glider-Pit pit has six launch zones however
    many gliders fly): a subset lacks the starts they count, so they are judged on the whole
    arena only (:func:`validators.players.judge`)."""

    items: str
    number: str
    count: str = "players"
    noun: str = "start"
    whole_arena_codes: tuple[str, ...] = ()

    def elements(self, arena: Any) -> tuple[Any, ...]:
        return tuple(getattr(arena, self.items))

    def numbers(self, arena: Any) -> tuple[int, ...]:
        """The arena's start numbers, in file order."""
        return tuple(int(getattr(el, self.number)) for el in self.elements(arena))

    def element(self, arena: Any, number: int) -> Any:
        """The element of start ``number``; ``KeyError`` when there is none."""
        for el in self.elements(arena):
            if int(getattr(el, self.number)) == number:
                return el
        raise KeyError(f"{self.noun} {number}")

    def label(self, arena: Any, number: int) -> str:
        """How findings name start ``number`` (its element's id)."""
        try:
            return str(getattr(self.element(arena, number), "id"))
        except KeyError:
            return f"{self.noun} {number}"

    def declared(self, arena: Any) -> dict[int, tuple[int, ...]]:
        """The scenario's start sets: count -> start numbers."""
        return dict(getattr(arena.scenario, "start_sets", ()) or ())

    def players(self, arena: Any) -> int | None:
        """The scenario's own count (``scenario.players``), None when it leaves it to the starts."""
        value = getattr(arena.scenario, self.count, None)
        return None if value is None else int(value)

    def seats(self, arena: Any, players: int | None) -> tuple[int, ...]:
        """The start numbers that play at ``players`` (None: the scenario's count, else every
        start), in seat order: the scenario's set for that count, or the first ``players``
        starts when the arena declares no sets.  ``ValueError`` naming the count when the arena
        cannot seat it (more than its starts, or a count its declared sets leave out), as
        ``arena validate --players`` refuses it.

        Used by every game's play engine (:meth:`engine.play.PlayEngine.seats`)."""
        starts = sorted(self.numbers(arena))
        count = players if players is not None else (self.players(arena) or len(starts))
        if count < 1 or count > len(starts):
            raise ValueError(f"the arena has {len(starts)} {self.noun}s: it cannot seat {count} {self.count}")
        sets = self.declared(arena)
        chosen = sets.get(count)
        if chosen is None and sets and count != len(starts):
            declared = ", ".join(str(c) for c in sorted(sets))
            raise ValueError(f"the scenario declares no start set for {count} {self.count} (declared: {declared})")
        if chosen is not None:
            missing = [k for k in chosen if k not in starts]
            if missing:
                raise ValueError(f"the scenario's start set for {count} {self.count} names {self.noun}s the arena "
                                 f"lacks: {missing}")
            return tuple(chosen)
        return tuple(starts[:count])

    def subset(self, arena: Any, numbers: Iterable[int], players: int) -> Any:
        """``arena`` with only the starts ``numbers`` (their numbers kept), its scenario's count
        ``players`` and its symmetry what of it keeps those starts (:func:`kept_symmetry`)."""
        wanted = set(numbers)
        kept = tuple(el for el in self.elements(arena) if int(getattr(el, self.number)) in wanted)
        scenario = dataclasses.replace(arena.scenario, **{self.count: players})
        out = dataclasses.replace(arena, **{self.items: kept, "scenario": scenario})
        group = self.symmetry_group(arena)
        if group is None:
            return out
        points = {int(getattr(el, self.number)): self.point(arena, el) for el in self.elements(arena)}
        smaller = kept_symmetry(group, self.centre(arena), points, wanted)
        return out if smaller == group else self.with_symmetry(out, smaller)

    # ------------------------------------------------------------------ geometry (overridable)

    def point(self, arena: Any, element: Any) -> Point:
        """Where a start stands, for the symmetry (default: its ``position``)."""
        x, y = element.position
        return (float(x), float(y))

    def centre(self, arena: Any) -> Point:
        """The centre of the arena's symmetry (default: its ``symmetry.center``)."""
        x, y = arena.symmetry.center
        return (float(x), float(y))

    def symmetry_group(self, arena: Any) -> Group | None:
        sy = getattr(arena, "symmetry", None)
        return None if sy is None else (str(sy.kind), int(sy.order), float(sy.axis))

    def with_symmetry(self, arena: Any, group: Group | None) -> Any:
        """``arena`` declaring ``group`` instead of its symmetry (None: none)."""
        if group is None:
            return dataclasses.replace(arena, symmetry=None)
        kind, order, axis = group
        return dataclasses.replace(arena, symmetry=dataclasses.replace(arena.symmetry, kind=kind, order=order, axis=axis))


def numbers_in(doc: Any, items: str, number: str) -> list[int]:
    """The start numbers of a document's list ``items`` (each item's ``number`` field)."""
    found = doc.get(items) if isinstance(doc, dict) else None
    return [el[number] for el in found or () if isinstance(el, dict) and isinstance(el.get(number), int)
            and not isinstance(el.get(number), bool)] if isinstance(found, list) else []
