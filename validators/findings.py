"""Findings and validator results: plain data, serialisable to the report's JSON."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")
RANK = {"error": 2, "warning": 1, "info": 0}


@dataclass(frozen=True)
class Finding:
    """One thing a validator found: what, how bad, which elements, the numbers behind it and,
    when travel explains it, the path (list of {x, y, heading, speed, turn, length, pushed_by}).
    ``tier``: the first VP tier of the tiers it holds in, when it does not hold in every tier
    the report judged (Gravstrike: :mod:`validators.games.gravstrike.tiers`); None otherwise."""

    code: str
    severity: Severity
    message: str
    elements: tuple[str, ...] = ()
    metrics: dict[str, Any] = field(default_factory=dict, hash=False)
    path: tuple[dict[str, Any], ...] = ()
    #: The player count whose start set this was found at (:mod:`validators.players`); None:
    #: the arena as the file stands.
    players: int | None = None
    tier: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "severity": self.severity, "message": self.message,
                               "elements": list(self.elements), "metrics": self.metrics}
        if self.path:
            out["path"] = list(self.path)
        if self.players is not None:
            out["players"] = self.players
        if self.tier is not None:
            out["tier"] = self.tier
        return out


@dataclass
class Result:
    """What one validator returns: findings plus metrics (merged into the report's metrics)."""

    findings: list[Finding] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)


def at_least(severity: str, threshold: str) -> bool:
    return RANK[severity] >= RANK[threshold]


def plain(value: Any) -> Any:
    """``value`` as JSON can hold it: tuples as lists, keys as strings, infinite or NaN numbers
    as None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


#: A quoted passage: an opening double quote at the start or after a space, a bracket or a
#: colon, then its closing quote.  An inch mark (``6"``, after a figure) opens no quote.
QUOTED = re.compile(r'(?:^|[\s(\[:])"[^"]+"')


def quotes_something(message: str) -> bool:
    """Does ``message`` quote a passage (inch marks and apostrophes are not quotes)?

    >>> quotes_something('the car is 6" from the wall'), quotes_something('"Players should ..." (L196)')
    (False, True)
    """
    return QUOTED.search(message) is not None


def quote_book(message: str, words: str | tuple[str, ...] | None) -> str:
    """``message`` quoting the book's ``words`` (several joined by "plus"), unless it quotes
    something already or there are none.  The words are quoted as they are, apostrophes and
    inch marks included.

    >>> print(quote_book('the base is 1" from the pit', "Move up to the model's MOV value in inches."))
    the base is 1" from the pit "Move up to the model's MOV value in inches."
    """
    if not words or quotes_something(message):
        return message
    if isinstance(words, str):
        return f'{message} "{words}"'
    return message + ": " + " plus ".join(f'"{w}"' for w in words)


def findings_of(issues: Iterable[Any], quoted: Callable[[str, str], str]) -> list[Finding]:
    """A game engine's issues (code, severity, message, elements, metrics) as findings, each
    message passed through ``quoted(code, message)``."""
    return [Finding(i.code, i.severity, quoted(i.code, i.message), tuple(i.elements), plain(dict(i.metrics)))
            for i in issues]


@dataclass(frozen=True)
class BookSetupCheck:
    """A setup check of one game's rules package as a validator: ``check(arena)`` returns the
    engine's issues, reported with the book's words for their code (the subclass's ``book``:
    code -> words) quoted.  Each game subclasses it with its ``games`` and ``book``."""

    id: str
    title: str
    severity: Severity
    check: Callable[[Any], list[Any]]
    games: tuple[str, ...] = ()
    needs_travel: bool = False
    book: ClassVar[Mapping[str, str | tuple[str, ...]]] = {}

    def evaluate(self, arena: Any, context: Any) -> Result:
        return Result(findings_of(self.check(arena), lambda code, message: quote_book(message, self.book.get(code))))
