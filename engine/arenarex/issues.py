"""The findings Arena Rex checks return: plain data the ruleset layer adapts to its validator
registry (code, severity, message quoting the book, element ids, metrics)."""

from __future__ import annotations

from engine.findings import Issue as Issue, Severity as Severity  # the games share one finding type


def inches(v: float) -> str:
    """A length for messages: at most 2 decimals and the unit.

    >>> inches(2.0), inches(1.254), inches(float("inf"))
    ('2 in', '1.25 in', 'unreachable')
    """
    if v != v or v in (float("inf"), float("-inf")):
        return "unreachable"
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return ("0" if s == "-0" else s) + " in"
