"""Start sets in the editor: the Scenario tab's *Start sets* section edits ``scenario.start_sets``
(which starts play at each player count, :mod:`schema.starts`) and its *Active count* chooser
picks the set the window shows and judges.

Everything here is driven by the arena's ruleset's ``starts`` hook (:class:`schema.starts.StartSlots`):
a game without one (its ruleset's ``starts`` is None) shows no section.  Nothing here names a game.

- An edit of the sets is one undo command (:class:`SetStartSets`); a set the format refuses (a
  start number the arena does not have, a number listed twice, a set whose length is not its
  count, anything the game's schema refuses) is refused with the format's words and nothing is
  applied.
- The active count is view state (:attr:`editor.document.ArenaDocument.active_count`: not in the
  file, not undone): the canvas draws the starts outside its set dimmed (:func:`dimmed_refs`) and
  live validation judges the arena with only that set's starts, as ``arena validate --players N``
  does (:func:`judged`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from editor import render
from editor.commands import ArenaCommand
from schema.ruleset import ruleset_of
from schema.starts import StartSets, StartSlots, start_sets_document

if TYPE_CHECKING:
    from editor.document import ArenaDocument

#: How much of its ink a start outside the active set keeps on the canvas (and its labels).
DIM_OPACITY = render.DIM_OPACITY

#: Where a game's scenario keeps its start sets.
SCENARIO = "scenario"
FIELD = "start_sets"


def slots_of(arena: Any) -> StartSlots | None:
    """The arena's game's starts as start sets see them; None: a game without start sets (or
    an arena of no installed game)."""
    try:
        rs = ruleset_of(arena)
    except Exception:  # noqa: BLE001 - no installed game: nothing to choose among
        return None
    return rs.starts() if rs.starts is not None else None


def declared(arena: Any) -> dict[int, tuple[int, ...]]:
    """The scenario's start sets: count -> start numbers, by count (empty: none, or no starts)."""
    slots = slots_of(arena)
    return dict(sorted(slots.declared(arena).items())) if slots is not None else {}


def choices(arena: Any) -> dict[int, tuple[int, ...]]:
    """The counts the active-count chooser offers besides *all starts*: each declared count,
    by count."""
    return declared(arena)


def count_word(arena: Any) -> str:
    """What the scenario's count counts (``players``; a game whose scenario counts gliders:
    ``gliders``)."""
    slots = slots_of(arena)
    return slots.count if slots is not None else "players"


def noun(arena: Any) -> str:
    """How a start is named in messages (``start``, ``launch zone``...)."""
    slots = slots_of(arena)
    return slots.noun if slots is not None else "start"


def numbers(arena: Any) -> tuple[int, ...]:
    """The arena's start numbers, sorted."""
    slots = slots_of(arena)
    return tuple(sorted(slots.numbers(arena))) if slots is not None else ()


def active_set(arena: Any, count: int | None) -> tuple[int, ...] | None:
    """The start numbers of the active count's set; None: every start (no count chosen, or a
    count the arena does not declare)."""
    if count is None:
        return None
    return declared(arena).get(count)


def dimmed_refs(arena: Any, count: int | None) -> frozenset[str]:
    """The refs of the starts outside the active count's set (drawn dimmed); empty when every
    start plays."""
    chosen = active_set(arena, count)
    slots = slots_of(arena)
    if chosen is None or slots is None:
        return frozenset()
    keep = set(chosen)
    return frozenset(str(getattr(el, "id")) for el in slots.elements(arena)
                     if int(getattr(el, slots.number)) not in keep)


def judged(arena: Any, count: int | None) -> tuple[Any, str]:
    """(the arena live validation judges, a note saying which count): the arena with only the
    active count's starts, its scenario's count that count - as ``arena validate --players N``
    judges it (:meth:`schema.starts.StartSlots.subset`: the starts keep their numbers and ids, the
    symmetry shrinks to what keeps them) - or the arena as it stands (every start)."""
    chosen = active_set(arena, count)
    slots = slots_of(arena)
    if slots is None:
        return arena, ""
    if chosen is None or count is None:
        every = len(slots.numbers(arena))
        return arena, (f"judged with all {every} {slots.noun}s" if slots.declared(arena) else "")
    sub = slots.subset(arena, chosen, count)
    scenario = sub.scenario
    if any(f.name == FIELD for f in dataclasses.fields(scenario)):
        # the sets name starts the judged arena has left out: they were checked on the whole arena
        sub = dataclasses.replace(sub, scenario=dataclasses.replace(scenario, **{FIELD: ()}))
    listed = ", ".join(map(str, chosen))
    aside = (f"; {', '.join(slots.whole_arena_codes)} judged with all {slots.noun}s" if slots.whole_arena_codes
             else "")
    return sub, (f"judged at {count} {slots.count} ({slots.noun}s {listed}), as arena validate --players {count}"
                 f"{aside}")


def set_aside(arena: Any, count: int | None) -> frozenset[str]:
    """The codes live validation leaves out while it judges ``count``'s subset of the starts: the
    game's checks of the arena as built (:attr:`schema.starts.StartSlots.whole_arena_codes`),
    which a subset lacking starts would fail; "All starts" judges them.  Empty when the whole
    arena is judged."""
    slots = slots_of(arena)
    if slots is None or count is None or active_set(arena, count) is None:
        return frozenset()
    return frozenset(slots.whole_arena_codes)


_NUMBER = re.compile(r"^[0-9]+$")


def parse_starts(text: str, what: str = "start") -> tuple[int, ...]:
    """A set typed as ``1, 3, 5`` (commas or spaces); ``ValueError`` for anything else."""
    parts = [p for p in re.split(r"[,\s;]+", text.strip()) if p]
    if not parts:
        raise ValueError(f"list the {what} numbers that play, e.g. 1, 3, 5")
    bad = [p for p in parts if not _NUMBER.match(p)]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a {what} number: list whole numbers separated by commas, e.g. 1, 3, 5")
    return tuple(int(p) for p in parts)


def spread(starts: tuple[int, ...], count: int) -> tuple[int, ...]:
    """``count`` of ``starts`` (sorted) spread as evenly as their order allows: a new count's
    first set (3 of 1-6: 1, 3, 5).  All of them when ``count`` is not fewer.

    >>> spread((1, 2, 3, 4, 5, 6), 3)
    (1, 3, 5)
    >>> spread((1, 2, 3, 4, 5, 6), 2)
    (1, 4)
    """
    if count >= len(starts) or count <= 0:
        return starts
    return tuple(starts[(i * len(starts)) // count] for i in range(count))


def with_sets(arena: Any, sets: Mapping[int, tuple[int, ...]]) -> Any:
    """``arena`` declaring ``sets`` (count -> start numbers; empty: none); ``ValueError`` with the
    format's words when the file would refuse them (the game's schema, then its checks of the
    sets: a number the arena has no start for, one listed twice, a set whose length is not its
    count)."""
    from editor.games import model as G

    rs = ruleset_of(arena)
    doc = rs.document(arena)
    scenario = doc.setdefault(SCENARIO, {})
    typed: StartSets = tuple(sorted((int(k), tuple(v)) for k, v in sets.items()))
    if typed:
        scenario[FIELD] = start_sets_document(typed)
    else:
        scenario.pop(FIELD, None)
    base = f"/{SCENARIO}/{FIELD}"
    found = [_located(p.partition(": ")[0], p.partition(": ")[2]) for p in G.problems(rs, doc) if p.startswith(base)]
    if not found and rs.semantic is not None:  # its own words name the set
        found = [msg for ptr, msg in rs.semantic(doc) if ptr.startswith(base)]
    if found:
        raise ValueError("; ".join(found[:3]))
    return G.build(rs, doc)


def _located(pointer: str, message: str) -> str:
    """A schema problem of the sets in a row's words: ``/scenario/start_sets/3/1`` and its
    message -> ``the 3 set: <message>``."""
    parts = pointer.strip("/").split("/")
    return f"the {parts[2]} set: {message}" if len(parts) >= 3 else message


class SetStartSets(ArenaCommand):
    """Declare the scenario's start sets (one undo step; not mirrored by symmetry mode)."""

    symmetric = False

    def __init__(self, doc: ArenaDocument, sets: Mapping[int, tuple[int, ...]], text: str = "Edit start sets") -> None:
        if slots_of(doc.arena) is None:
            raise ValueError(f"a {doc.arena.system} arena has no start sets")
        self.sets = {int(k): tuple(v) for k, v in sets.items()}
        if self.sets == declared(doc.arena):
            raise ValueError("the start sets are unchanged")
        super().__init__(doc, text)

    def apply(self, arena: Any) -> Any:
        return with_sets(arena, self.sets)


__all__ = ["DIM_OPACITY", "SetStartSets", "active_set", "choices", "count_word", "declared", "dimmed_refs", "judged",
           "noun", "numbers", "parse_starts", "slots_of", "spread", "with_sets"]
