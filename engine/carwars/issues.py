"""The findings Car Wars checks return: plain data the ruleset layer adapts to its validator
registry (code, severity, message quoting the book, element ids, metrics)."""

from __future__ import annotations

from engine.findings import Issue as Issue, Severity as Severity  # the games share one finding type


def fmt(v: float) -> str:
    """A number for messages: at most 2 decimals, no trailing zeros.

    >>> fmt(2.0), fmt(1.254), fmt(0.5)
    ('2', '1.25', '0.5')
    """
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s
