"""All tiers in one report (issue 39, point 3): which VP tiers judge differently, and one
report of findings from several tiers.

The book's three "Victory Point Tiers" (the leader's 0-3, 4-7, 8+ VP) change what an arena
analysis reads only through the exclusion fields, which switch on by tier ("Exclusion Field
Activation"; ``active_from_tier``): tiers with the same active fields are one analysis
(:func:`tier_classes`).  The validators that need no travel read no tier and are evaluated once;
the travel validators once per class, each class reusing the travel of the one below where no
newly active field can change it (:meth:`validators.games.gravstrike.context.AnalysisContext.reusable`).
A finding that holds in every class names no tier; one that does not names the first tier of
each class it holds in (:func:`merge`)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from validators.findings import Finding

#: The book's tiers.
TIERS = (1, 2, 3)

TierClass = tuple[int, ...]


def tier_classes(arena: Any) -> list[TierClass]:
    """The tiers in runs of the same active exclusion fields, in order.

    >>> from schema import load
    >>> tier_classes(load("arenas/default.yaml"))      # exclusion fields from tier 3
    [(1, 2), (3,)]
    """
    groups: dict[frozenset[str], list[int]] = {}
    for t in TIERS:
        groups.setdefault(frozenset(x.id for x in arena.exclusion_fields if x.active_from_tier <= t), []).append(t)
    return [tuple(ts) for ts in groups.values()]


def words(tiers: TierClass) -> str:
    """``tier 3``, ``tiers 1-2``.

    >>> words((3,)), words((1, 2, 3))
    ('tier 3', 'tiers 1-3')
    """
    return f"tier {tiers[0]}" if len(tiers) == 1 else f"tiers {tiers[0]}-{tiers[-1]}"


def class_of(tier: int, classes: list[TierClass]) -> TierClass:
    """The class holding ``tier`` (a finding's tier is its class's first)."""
    return next((c for c in classes if tier in c), (tier,))


def _key(f: Finding) -> str:
    return json.dumps(f.to_json(), sort_keys=True, default=str)


def merge(judged: list[tuple[TierClass, list[Finding]]]) -> list[Finding]:
    """The findings of every class as one list: one that every class found (the same code,
    severity, message, elements, numbers and path) once, naming no tier; the others once per
    class that found them, naming that class's first tier."""
    keyed = [{_key(f): f for f in findings} for _, findings in judged]
    out: list[Finding] = []
    everywhere: set[str] = set()
    for (tiers, _), found in zip(judged, keyed):
        for key, f in found.items():
            if all(key in other for other in keyed):
                if key not in everywhere:
                    everywhere.add(key)
                    out.append(f)
            else:
                out.append(replace(f, tier=tiers[0]))
    return out


def holds_in(f: Finding, tiers: TierClass) -> bool:
    """Does finding ``f`` of a report hold in the class ``tiers``?"""
    return f.tier is None or f.tier in tiers
