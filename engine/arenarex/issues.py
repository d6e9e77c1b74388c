"""The findings Arena Rex checks return: plain data the ruleset layer adapts to its validator
registry (code, severity, message quoting the book, element ids, metrics)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Issue:
    code: str
    severity: Severity
    message: str
    elements: tuple[str, ...] = ()
    metrics: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


def inches(v: float) -> str:
    """A length for messages: at most 2 decimals and the unit.

    >>> inches(2.0), inches(1.254), inches(float("inf"))
    ('2 in', '1.25 in', 'unreachable')
    """
    if v != v or v in (float("inf"), float("-inf")):
        return "unreachable"
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return ("0" if s == "-0" else s) + " in"
