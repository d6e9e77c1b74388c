"""Player counts: judge an arena at each player count its scenario declares (``scenario.start_sets``).

A game with starts (its ruleset's ``starts`` hook, :class:`schema.starts.StartSlots`) may declare
which starts play at each count.  :func:`judge` runs the game's whole validation:

- ``players`` given (``arena validate --players N``): on the arena with only the starts of N's
  set (:meth:`~schema.starts.StartSlots.subset`: travel, access, spacing and symmetry of those
  starts); a count without a set is a ``start-set-missing`` error and nothing else is run.  The
  count of every start is always declared (the arena as the file stands).
- no ``players``: the arena as the file stands (every start: today's report, unchanged), then
  each declared count whose set is not every start, once per distinct set; their findings join
  the report naming their count (:attr:`validators.findings.Finding.players`) unless the whole
  arena's run found the same, and ``player_counts`` sums up each count.  A ``scenario.players``
  that no set declares is a ``start-set-missing`` error (a warning when the arena declares no sets
  at all: every start was judged, which is not the game the scenario describes).

Nothing here names a game: the starts are reached through the ruleset's hook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from schema.ruleset import ruleset_of
from validators.findings import RANK, Finding
from validators.report import Report

#: The code of every finding about a player count without a start set.
SET_CODE = "start-set-missing"

#: Runs the game's validation on one arena (the caller's options bound).
Run = Callable[[Any], Report]
#: Wraps the runs of one judgement, given the arenas about to be validated in order (the game's
#: :meth:`validators.game.GameAnalysis.judging`: what their validations may share).
Sharing = Callable[[Sequence[Any]], AbstractContextManager[object]]


def _key(f: Finding) -> tuple[str, str, str, tuple[str, ...]]:
    return (f.code, f.severity, f.message, f.elements)


def _sort(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (-RANK[f.severity], f.code, f.players or 0, f.elements, f.message))


def _entry(players: int, starts: tuple[int, ...], labels: list[str], report: Report | None, count: int,
           whole: bool) -> dict[str, Any]:
    """One ``player_counts`` row."""
    out: dict[str, Any] = {"players": players, "starts": list(starts), "elements": labels, "findings": count,
                           "whole_arena": whole}
    if report is not None:
        out["summary"] = report.summary()
        if not whole:
            out["metrics"] = report.metrics
    return out


def _alone(arena: Any, source: str | None, system: str, finding: Finding, players: int | None) -> Report:
    """A report of one finding and no validator run (a count that cannot be judged)."""
    return Report(arena, source, None, None, [], [finding], {}, system=system, players=players)


def judge(arena: Any, players: int | None, run: Run, *, source: str | None = None,
          sharing: Sharing | None = None) -> Report:
    """The report of ``arena`` at the count ``players`` (None: at every declared count), as the
    module docstring says; ``run`` validates one arena.  ``sharing``, given the arenas that will
    be validated (in order, when there are several), wraps their runs."""
    rs = ruleset_of(arena)
    slots = rs.starts() if rs.starts is not None else None
    if slots is None:  # no starts to choose among: the game's own count
        report = run(arena)
        if players is not None and players != report.player_count():
            report.findings = _sort([*report.findings, Finding(
                SET_CODE, "error", f"{players} players asked for, but a {rs.game} arena is played by "
                f"{report.player_count()}: the game has no starts a player count chooses among", (), {"players": players},
                players=players)])
        return report
    numbers = tuple(slots.numbers(arena))
    every = tuple(sorted(numbers))
    declared = slots.declared(arena)
    sets = {**declared, len(numbers): declared.get(len(numbers), every)} if numbers else dict(declared)
    noun = slots.noun
    counts = ", ".join(map(str, sorted(sets))) or "none"

    def labels(chosen: tuple[int, ...]) -> list[str]:
        return [slots.label(arena, n) for n in chosen]

    if players is not None:
        chosen = sets.get(players)
        if chosen is None:
            why = (f"start_sets declares no {players}-{slots.count.rstrip('s')} set (declared: {counts})" if declared else
                   f"the arena declares no start_sets and has {len(numbers)} {noun}s")
            return _alone(arena, source, rs.id, Finding(
                SET_CODE, "error", f"{players} {slots.count} asked for, but {why}: add scenario.start_sets "
                f"\"{players}\" listing the {noun}s that play", (), {"players": players, "declared": sorted(sets)},
                players=players), players)
        whole = tuple(sorted(chosen)) == every and slots.players(arena) in (None, players)
        judged = arena if whole else slots.subset(arena, chosen, players)
        built = set(slots.whole_arena_codes) if not whole else set()  # the arena as built: judged on every start
        with _sharing(sharing, [judged, arena] if built else [judged]):
            report = run(judged)
            if built:
                report.findings = _sort([*(f for f in report.findings if f.code not in built),
                                         *(f for f in run(arena).findings if f.code in built)])
        report.findings = [dataclasses.replace(f, players=players) for f in report.findings]
        report.players = players
        report.player_counts = [_entry(players, tuple(chosen), labels(tuple(chosen)), report, len(report.findings),
                                       whole)]
        return report

    own = slots.players(arena)
    # the start sets judged besides the whole arena: one arena per distinct set, made once
    subsets: dict[tuple[int, ...], Any] = {}
    if declared:
        for count, chosen in sorted(sets.items()):
            key = tuple(sorted(chosen))
            if key != every and key not in subsets:
                subsets[key] = slots.subset(arena, chosen, count)
    with _sharing(sharing, [arena, *subsets.values()]):
        base = run(arena)
        runs = {key: run(sub) for key, sub in subsets.items()}
    if not declared:
        if own is not None and numbers and own < len(numbers):
            base.findings = _sort([*base.findings, Finding(
                SET_CODE, "warning", f"scenario.{slots.count} is {own} but the arena has {len(numbers)} {noun}s and "
                "no start_sets: every start was judged, not the ones that play; add scenario.start_sets "
                f"\"{own}\" listing the {noun}s that play at {own}", (), {"players": own}, players=own)])
        return base
    seen = {_key(f) for f in base.findings}
    found: list[Finding] = []
    rows: list[dict[str, Any]] = []
    for count, chosen in sorted(sets.items()):
        key = tuple(sorted(chosen))
        if key == every:
            rows.append(_entry(count, chosen, labels(chosen), base, len(base.findings), True))
            continue
        sub = runs[key]
        mine = [dataclasses.replace(f, players=count) for f in sub.findings
                if _key(f) not in seen and f.code not in slots.whole_arena_codes]
        found += mine
        base.stopped = base.stopped or sub.stopped
        rows.append(_entry(count, chosen, labels(chosen), sub, len(mine), False))
    if own is not None and own not in sets:
        found.append(Finding(SET_CODE, "error", f"scenario.{slots.count} is {own} but start_sets declares no "
                             f"{own}-{slots.count.rstrip('s')} set (declared: {counts}): add one listing the {noun}s that play",
                             (), {"players": own, "declared": sorted(sets)}, players=own))
    base.findings = _sort([*base.findings, *found])
    base.player_counts = rows
    return base


def _sharing(sharing: Sharing | None, arenas: list[Any]) -> AbstractContextManager[object]:
    """``sharing`` of ``arenas`` when there are several to share between, else nothing."""
    return sharing(arenas) if sharing is not None and len(arenas) > 1 else nullcontext()
